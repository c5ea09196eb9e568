// SPDX-License-Identifier: MIT
// splashhud-mqtt's event loop: one thread, one epoll set, as the daemon's loop (EpollPoller): the
// broker's socket (MosquittoTransport, libmosquitto's non-threaded API), every link to the daemon
// (DaemonSockets, non-blocking), the signal pipe, and a CLOCK_MONOTONIC timerfd armed at the state
// machine's next deadline (absolute, to the nanosecond). Each wake hands the ready descriptors to
// their transport, then BridgeCore takes what they brought and runs what is due. Nothing blocks:
// a `wait` or a snapshot owed by the daemon holds only its own command.
import CommandLineOptions
import HUDProtocol
import LinuxSystem
import SystemPackage

final class Bridge {
    let configuration: BridgeConfiguration
    private let clock: BridgeClock
    private let epoll: Epoll
    private let timer: TimerFd
    private let signals: FileDescriptor
    private let mqtt: MosquittoTransport
    private let daemon: DaemonSockets
    private let core: BridgeCore

    init(_ configuration: BridgeConfiguration, clock: BridgeClock = MonotonicBridgeClock()) throws {
        self.configuration = configuration
        self.clock = clock
        epoll = try Epoll()
        timer = try TimerFd()
        Files.ignoreBrokenPipe()
        signals = try SignalPipe.open()
        try SignalPipe.catch(Signal.terminate)
        try SignalPipe.catch(Signal.interrupt)
        mqtt = try MosquittoTransport(settings: { Self.settings(configuration, version: $0) }, version: configuration.protocolVersion, epoll: epoll)
        daemon = DaemonSockets(socket: configuration.socket, epoll: epoll)
        core = BridgeCore(configuration, clock: clock, mqtt: mqtt, daemon: daemon, log: Self.log)
        try epoll.add(signals.rawValue, read: true, write: false)
        try epoll.add(timer.descriptor.rawValue, read: true, write: false)
    }

    static func settings(_ c: BridgeConfiguration, version: MQTTProtocol) -> MQTTClient.Settings {
        // --remove-discovery: a client id of its own (the kiosk's bridge may still be connected)
        // and a session that ends with it.
        var s = MQTTClient.Settings(
            clientID: "splashhud-\(c.topics.device)\(c.removeDiscovery ? "-remove" : "")", host: c.broker.host, port: c.broker.port, keepalive: c.keepalive,
            protocolVersion: version, username: c.username, password: c.password, caFile: c.caFile, certFile: c.certFile,
            keyFile: c.keyFile, tls: c.broker.tls, sessionExpirySeconds: c.sessionExpirySeconds,
            maximumIncomingPacket: UInt32(ControlProtocol.maxLineBytes) + 1024,
            willTopic: c.topics.status, willPayload: BridgeCore.offline)
        if c.removeDiscovery { s.cleanStart = true; s.sessionExpirySeconds = 0 }
        return s
    }

    static func log(_ text: String) { CommandLineTool.printError("splashhud-mqtt: " + text) }

    /// Runs until SIGTERM or SIGINT; then publishes `offline` and disconnects cleanly. Exits 77
    /// when the broker's ACL refuses this kiosk its own topics.
    func run() throws -> Int32 {
        core.start()
        var ready: [Epoll.Event] = []
        while true {
            core.step()
            if let refused = core.refused {
                Self.log(refused)
                _ = core.shutdown()
                return BridgeCore.refusedStatus
            }
            if let status = core.removalOutcome(now: clock.now) {
                _ = core.shutdown()
                return status
            }
            mqtt.register()
            let deadline = core.nextDeadline
            // A deadline already due polls without arming anything; one ahead is the timer's.
            let due = deadline <= clock.now
            try timer.arm(at: due ? nil : deadline.nanoseconds)
            try epoll.wait(timeoutMilliseconds: due ? 0 : -1, into: &ready)
            for event in ready {
                switch event.descriptor {
                case signals.rawValue:
                    if try !SignalPipe.read(signals, timeoutMilliseconds: 0).isEmpty { return core.shutdown() }
                case timer.descriptor.rawValue:
                    timer.expired()
                case let fd where mqtt.owns(fd):
                    mqtt.ready(event)
                default:
                    daemon.ready(event)
                }
            }
        }
    }
}
