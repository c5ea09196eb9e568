// SPDX-License-Identifier: MIT
// splashhud-mqtt's command line and configuration file, read into a `BridgeConfiguration`.
// CommandLineOptions rather than swift-argument-parser: the bridge runs after the network, where
// Foundation would be allowed, but it stays resident on every kiosk, and without Foundation it
// costs less memory for the whole of its life; the configuration file merges in as the same
// options, so both are checked by one set of rules.
import CommandLineOptions
import HUDProtocol
import LinuxSystem

struct BridgeConfiguration: Equatable, Sendable {
    var broker: BrokerAddress
    var topics: Topics
    var username: String?
    var password: String?
    var caFile: String?
    var certFile: String?
    var keyFile: String?
    var keepalive: Int32
    var allowed: Set<PrivilegedVerb>
    var socket: String?
    var protocolVersion: MQTTProtocol
    var sessionExpirySeconds: UInt32
    /// Our own cap on a packet we publish (3.1.1 brokers cannot announce theirs), in bytes.
    var maxPacketSize: UInt32
    var stateInterval: Interval
    var commandsPerSecond: Int64
    /// The state is published again, with a new time and seq, after this long without a change.
    var heartbeat: Interval = .seconds(60)
    /// Home Assistant discovery, when asked for (HomeAssistantDiscovery.swift).
    var discovery: DiscoveryConfiguration?
    /// --remove-discovery: publish the empty configs that remove this kiosk's entities, then end.
    var removeDiscovery = false
}

enum BridgeOptions {
    static let spec = CommandSpec(
        name: "splashhud-mqtt",
        abstract: "Carry a splashhudd's control socket to an MQTT broker (a fleet of kiosks).",
        discussion: """
            Commands arrive on PREFIX/DEVICE/cmd and PREFIX/group/GROUP/cmd; replies, the retained state, events, \
            snapshots and the retained online/offline status go out under PREFIX/DEVICE (fleet.md, the operator's guide, and \
            fleet-reference.md, in /usr/share/doc/splashhud/docs). The same keys \
            may be set in the configuration file (key = value a line); the command line wins, and group and allow add up. \
            --discovery homeassistant makes the kiosk a device in Home Assistant (home-assistant.md there). \
            --version prints the version, --generate-manual this man page.
            """,
        options: [
            .option("broker", "url", help: "mqtt://HOST[:PORT] (1883) or mqtts://HOST[:PORT] (TLS, 8883)."),
            .option("device", "id", help: "This kiosk's name in the topics (default: the --username, else the hostname)."),
            .option("group", "name", help: "A group whose commands this bridge takes too (repeatable)."),
            .option("topic-prefix", "prefix", help: "The topics' first levels (default: splashhud)."),
            .option("username", "name", help: "The broker account."),
            .option("password-file", "path", help: "A file whose first line is the account's password."),
            .option("ca-file", "path", help: "The CA certificates to verify the broker with (default: the system's)."),
            .option("cert-file", "path", help: "This kiosk's client certificate (PEM)."),
            .option("key-file", "path", help: "Its private key (PEM)."),
            .option("keepalive", "seconds", help: "MQTT keepalive, 5 to 3600 (default: 30); the last will fires at 1.5 times it."),
            .option("allow", "verb", help: "Let a privileged verb through: quit, image, set-font, subscribe-keys, ask-password, newroot (repeatable, or comma-separated)."),
            .option("socket", "path", help: "The daemon's control socket (default: $SPLASHHUD_SOCKET or /run/splashhud/control)."),
            .option("protocol", "version", help: "5 (default) or 3.1.1; a broker that refuses 5 gets 3.1.1."),
            .option("session-expiry", "seconds", help: "How long the broker keeps commands for an offline kiosk (MQTT 5; default: 300)."),
            .option("max-packet-size", "bytes", help: "The largest packet to publish, for brokers that do not say (default: 262144)."),
            .option("state-interval", "seconds", help: "The least time between two publishes of a changed state (default: 0.5)."),
            .option("heartbeat", "seconds", help: "Publish the state again, with a new time and seq, after this long without a change, 1 to 86400 (default: 60)."),
            .option("rate", "commands", help: "Commands a second taken from the broker, beyond a burst of twice as many (default: 20)."),
            .option("discovery", "kind", help: "Announce this kiosk to a home automation: homeassistant (its MQTT discovery, docs/home-assistant.md)."),
            .option("discovery-prefix", "prefix", help: "Home Assistant's discovery prefix (default: homeassistant)."),
            .option("image-interval", "seconds", help: "A snapshot for Home Assistant's image entity this often while the HUD is visible, 0 for only on request (default: 0)."),
            .option("image-max-bytes", "bytes", help: "The largest PNG sent for the image entity; a larger one is halved until it fits (default: 65536)."),
            .flag("remove-discovery", help: "Remove this kiosk's Home Assistant entities (empty retained configs), then exit."),
            .option("config", "path", help: "The configuration file (default: /etc/splashhud/mqtt.conf, if present)."),
        ])

    /// The configuration from `arguments` and the file they name (or the default one, if present).
    static func parse(_ arguments: [String]) throws(UsageError) -> BridgeConfiguration? {
        let command = try OptionParser.parse(arguments, spec: spec)
        if command.wantsHelp { return nil }
        var merged = command
        let path = command.value("config") ?? ConfigFile.defaultPath
        if let text = try readText(path, required: command.value("config") != nil, what: "configuration file") {
            merged.given = try ConfigFile.options(text, spec: spec, path: path) + command.given
        }
        return try configuration(merged)
    }

    static func configuration(_ o: ParsedOptions) throws(UsageError) -> BridgeConfiguration {
        guard let url = o.value("broker") else { throw UsageError("--broker is required (mqtt://HOST[:PORT] or mqtts://HOST[:PORT])") }
        guard let broker = BrokerAddress(url) else { throw UsageError("--broker must be mqtt://HOST[:PORT] or mqtts://HOST[:PORT], got '\(url)'") }
        let device: String
        // The user name first: one ACL pattern line (%u) then serves every kiosk.
        if let d = o.value("device") ?? o.value("username") { device = d } else { device = try hostname() }
        let prefix = o.value("topic-prefix") ?? "splashhud"
        let groups = o.values("group")
        guard Topics.isValidLevel(device) else { throw UsageError("--device '\(device)' cannot be a topic level (no /, +, #; 1 to 128 bytes)") }
        guard Topics.isValidPrefix(prefix) else { throw UsageError("--topic-prefix '\(prefix)' must be topic levels without +, # or empty levels") }
        for g in groups where !Topics.isValidLevel(g) { throw UsageError("--group '\(g)' cannot be a topic level (no /, +, #; 1 to 128 bytes)") }
        var allowed = Set<PrivilegedVerb>()
        for word in o.values("allow").flatMap({ $0.split(separator: ",") }) {
            let name = word.trimmingSpaces
            guard let verb = PrivilegedVerb(allowName: name) else {
                throw UsageError("--allow takes \(PrivilegedVerb.allCases.map(\.rawValue).joined(separator: ", ")), got '\(name)'")
            }
            allowed.insert(verb)
        }
        let tlsFiles = ["ca-file", "cert-file", "key-file"].filter { o.value($0) != nil }
        guard broker.tls || tlsFiles.isEmpty else { throw UsageError("--\(tlsFiles[0]) needs an mqtts:// broker") }
        guard (o.value("cert-file") == nil) == (o.value("key-file") == nil) else { throw UsageError("--cert-file and --key-file go together") }
        var password: String?
        if let file = o.value("password-file") {
            let text = try readText(file, required: true, what: "password file") ?? ""
            password = String(text.prefix { $0 != "\n" && $0 != "\r" })
        }
        let version = try o.choice("protocol", of: ["5", "3.1.1"]) ?? "5"
        return BridgeConfiguration(
            broker: broker, topics: Topics(prefix: prefix, device: device, groups: Array(Set(groups)).sorted()),
            username: o.value("username"), password: password,
            caFile: o.value("ca-file"), certFile: o.value("cert-file"), keyFile: o.value("key-file"),
            keepalive: Int32(try o.integer("keepalive", in: 5...3600) ?? 30), allowed: allowed, socket: o.value("socket"),
            protocolVersion: version == "5" ? .v5 : .v311,
            sessionExpirySeconds: UInt32(try o.integer("session-expiry", in: 0...86_400 * 7) ?? 300),
            maxPacketSize: UInt32(try o.integer("max-packet-size", in: 1024...268_435_455) ?? 262_144),
            stateInterval: .seconds(try o.number("state-interval", above: 0.01, atMost: 3600) ?? 0.5),
            commandsPerSecond: Int64(try o.integer("rate", in: 1...10_000) ?? 20),
            heartbeat: .seconds(Double(try o.integer("heartbeat", in: 1...86_400) ?? 60)),
            discovery: try discovery(o), removeDiscovery: o.flag("remove-discovery"))
    }

    /// --discovery and the options that shape it; --remove-discovery needs only the prefix.
    static func discovery(_ o: ParsedOptions) throws(UsageError) -> DiscoveryConfiguration? {
        var d = DiscoveryConfiguration()
        d.prefix = o.value("discovery-prefix") ?? d.prefix
        guard Topics.isValidPrefix(d.prefix) else { throw UsageError("--discovery-prefix '\(d.prefix)' must be topic levels without +, # or empty levels") }
        if let seconds = try o.integer("image-interval", in: 0...86_400), seconds > 0 { d.imageInterval = .seconds(Double(seconds)) }
        d.imageMaxBytes = try o.integer("image-max-bytes", in: 4096...268_435_455).map(UInt32.init) ?? d.imageMaxBytes
        let kind = try o.choice("discovery", of: ["homeassistant", "none"])
        return kind == "homeassistant" || o.flag("remove-discovery") ? d : nil
    }

    /// The kernel's host name (/proc/sys/kernel/hostname), the default device id.
    static func hostname() throws(UsageError) -> String {
        guard let name = Files.hostName() else { throw UsageError("no --device given and the host name cannot be read") }
        return name
    }

    /// The text of `path`; nil when it is absent and not `required`.
    static func readText(_ path: String, required: Bool, what: String) throws(UsageError) -> String? {
        do {
            return String(decoding: try Files.readFile(path, limit: 65536), as: UTF8.self)
        } catch {
            if !required, error.errno == .noSuchFileOrDirectory { return nil }
            throw UsageError("cannot read the \(what) \(path): \(error)")
        }
    }
}

extension StringProtocol {
    var trimmingSpaces: String {
        String(drop { $0 == " " || $0 == "\n" || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\n" || $0 == "\t" || $0 == "\r" }.reversed())
    }
}
