// SPDX-License-Identifier: MIT
// The broker side for real: an MQTTClient (libmosquitto's non-threaded API) with its socket in
// the bridge's epoll set, level-triggered (libmosquitto reads a bounded number of packets per
// call, so an edge could be lost with data still buffered and keepalive would then fail), with
// write interest while it has output queued. Every (re)connect makes a new socket, possibly with
// the old number: the socket is taken out of the set at each attempt and each loss, so
// `register` adds it afresh.
import CMosquitto
import LinuxSystem
import SystemPackage

final class MosquittoTransport: MQTTTransport {
    private var client: MQTTClient
    private let makeSettings: (MQTTProtocol) -> MQTTClient.Settings
    private let epoll: Epoll
    private var registered: (fd: Int32, write: Bool)?
    private var pending: [MQTTEvent] = []

    init(settings: @escaping (MQTTProtocol) -> MQTTClient.Settings, version: MQTTProtocol, epoll: Epoll) throws(MQTTError) {
        makeSettings = settings
        client = try MQTTClient(settings(version))
        self.epoll = epoll
    }

    var protocolVersion: MQTTProtocol { client.settings.protocolVersion }
    var clientID: String { client.settings.clientID }

    func connect() throws(MQTTError) {
        forgetSocket()
        try client.connect()
    }

    func fallBackToV311() -> Bool {
        guard let c = try? MQTTClient(makeSettings(.v311)) else { return false }
        forgetSocket()
        client = c
        return true
    }

    func subscribe(_ pattern: String, qos: Int32) throws(MQTTError) -> Int32 { try client.subscribe(pattern, qos: qos) }
    func unsubscribe(_ pattern: String) throws(MQTTError) { try client.unsubscribe(pattern) }

    func publish(_ topic: String, _ payload: [UInt8], qos: Int32, retain: Bool, properties: PublishProperties?) throws(MQTTError) -> Int32 {
        try client.publish(topic, payload, qos: qos, retain: retain, properties: properties.map(Self.list))
    }

    /// libmosquitto's property list for `p`.
    private static func list(_ p: PublishProperties) -> MQTTProperties {
        let list = MQTTProperties()
        if let data = p.correlationData { list.addBinary(MQTT_PROP_CORRELATION_DATA, data) }
        if let type = p.contentType { list.addString(MQTT_PROP_CONTENT_TYPE, type) }
        for u in p.userProperties { list.addUserProperty(u.name, u.value) }
        return list
    }

    func takeEvents() -> [MQTTEvent] {
        let events = pending + client.takeEvents()
        pending.removeAll()
        if events.contains(where: { if case .disconnected = $0 { return true } else { return false } }) { forgetSocket() }
        return events
    }

    func takeLastError() -> String? { client.takeLastError() }
    func misc() { client.misc() }

    func disconnectAndFlush() {
        drain()
        client.disconnect()
        drain()
    }

    /// Writes what libmosquitto has queued, for at most a second.
    private func drain() {
        let deadline = MonotonicClock.nanoseconds() + 1_000_000_000
        while client.wantsWrite, let fd = client.socket, MonotonicClock.nanoseconds() < deadline {
            _ = try? Poll.wait(FileDescriptor(rawValue: fd), for: .write, timeoutMilliseconds: 100, subject: "broker")
            do { try client.write() } catch { return }
        }
    }

    // MARK: The socket in the epoll set

    /// Whether `fd` is the broker's socket.
    func owns(_ fd: Int32) -> Bool { registered?.fd == fd }

    /// The socket is ready: libmosquitto reads or writes. A failure before the CONNACK ends the
    /// attempt (`.failed`); after it libmosquitto reports the loss itself.
    func ready(_ e: Epoll.Event) {
        do {
            if e.readable || e.hangup || e.error { try client.read() }
            if e.writable { try client.write() }
        } catch {
            pending.append(.failed(error))
            forgetSocket()
        }
    }

    /// Registers libmosquitto's current socket, with write interest while it has output queued.
    func register() {
        let fd = client.socket
        let write = client.wantsWrite
        if let r = registered, r.fd == fd, r.write == write { return }
        do {
            if let r = registered, r.fd == fd {
                try epoll.modify(r.fd, read: true, write: write)
            } else {
                forgetSocket()
                guard let fd else { return }
                try epoll.add(fd, read: true, write: write)
            }
            registered = fd.map { ($0, write) }
        } catch { Bridge.log("epoll: \(error)") }
    }

    private func forgetSocket() {
        if let r = registered { epoll.remove(r.fd) }
        registered = nil
    }
}
