// SPDX-License-Identifier: MIT
// One connection to the broker through libmosquitto, driven by the bridge's own epoll loop (no
// library thread, never `mosquitto_loop_start`): MosquittoTransport watches `socket`, calls
// `read`/`write` when it is ready and `misc` about once a second, and re-registers the descriptor
// whenever `socket` changes (every reconnect makes a new one). libmosquitto's callbacks only append to `events`; the loop drains them after
// each call, outside any callback, so a publish made in answer is written at once rather than
// queued until the next write (libmosquitto holds packets made inside a callback).
//
// libmosquitto 2.0.11 does not reconnect by itself in this mode: the loop calls `reconnect()` from
// its back-off timer. The first connect is `mosquitto_connect_bind_v5`, which blocks (DNS, TCP, the
// TLS handshake) but is the only call that stores CONNECT properties (the session expiry, the
// packet size we accept); every later `mosquitto_reconnect_async` reuses them and does not block
// on the TCP connect (DNS still does: this is why the daemon itself never links libmosquitto).
import CMosquitto

/// What the broker did, in the order libmosquitto reported it.
enum MQTTEvent: Equatable {
    /// CONNACK: `reasonCode` 0 is accepted; `sessionPresent`, the broker kept our session (and
    /// resends what we had not acknowledged); `maximumPacketSize` is the broker's limit (v5 only).
    case connected(reasonCode: Int32, sessionPresent: Bool, maximumPacketSize: UInt32?)
    /// The connection is gone (`reasonCode` 0: we asked for it).
    case disconnected(reasonCode: Int32)
    case message(MQTTMessage)
    /// SUBACK: the QoS granted to each topic of subscription `mid`; 0x80 and above is a refusal
    /// (MQTT 5's reason codes, 3.1.1's 0x80), the broker's ACL for one.
    case subscribed(mid: Int32, granted: [Int32])
    /// A QoS 1 publish acknowledged; MQTT 5 says a refusal with `reasonCode` 0x80 and above
    /// (0x87: not authorized). A 3.1.1 broker drops a refused publish without a word.
    case published(mid: Int32, reasonCode: Int32)
    /// A read or write failed before the CONNACK (a refused TLS handshake): the attempt is over.
    /// Once connected a loss comes as `.disconnected` instead.
    case failed(MQTTError)
}

/// A PUBLISH the broker delivered to us.
struct MQTTMessage: Equatable {
    var topic: String
    var payload: [UInt8]
    var qos: Int32
    var retained: Bool
    /// The packet identifier (QoS 1 and 2; a redelivery keeps it), 0 for QoS 0.
    var packetID: Int32 = 0
    /// MQTT 5: where the requester wants the reply, and what to echo back with it.
    var responseTopic: String?
    var correlationData: [UInt8]?
    /// MQTT 5: seconds left before the broker would have dropped it.
    var expiry: UInt32?
}

enum MQTTProtocol: Int32, Equatable, Sendable, CustomStringConvertible {
    case v311 = 4, v5 = 5
    var description: String { self == .v5 ? "MQTT 5" : "MQTT 3.1.1" }
}

/// A libmosquitto error code with its text (`mosquitto_strerror`).
struct MQTTError: Error, Equatable, CustomStringConvertible {
    let call: String
    let code: Int32
    var description: String { "\(call): \(reason)" }
    /// libmosquitto's words for `code`.
    var reason: String { String(cString: mosquitto_strerror(code)) }
    var isOversize: Bool { code == Int32(MOSQ_ERR_OVERSIZE_PACKET.rawValue) }
}

final class MQTTClient {
    struct Settings {
        var clientID: String
        var host: String
        var port: Int32
        var keepalive: Int32
        var protocolVersion: MQTTProtocol
        var username: String?
        var password: String?
        var caFile: String?
        var certFile: String?
        var keyFile: String?
        var tls: Bool
        /// How long the broker keeps our session (subscriptions, QoS 1 commands) after a disconnect.
        var sessionExpirySeconds: UInt32
        /// The largest packet we accept (MQTT 5 tells the broker; it then drops larger ones for us).
        var maximumIncomingPacket: UInt32
        /// The retained last will: topic and payload.
        var willTopic: String
        var willPayload: String
        /// A session that ends with the connection (--remove-discovery's one-shot).
        var cleanStart = false
    }

    let settings: Settings
    private let handle: OpaquePointer
    private let box: EventBox
    /// Whether a connect was ever attempted (the first is the blocking one that stores properties).
    private var attempted = false

    private final class EventBox {
        var events: [MQTTEvent] = []
        /// libmosquitto's last error-level log line (OpenSSL's reason for a failed handshake).
        var lastError: String?
    }

    init(_ settings: Settings) throws(MQTTError) {
        _ = MQTTClient.libraryInitialised
        self.settings = settings
        box = EventBox()
        // A persistent session (clean start off): QoS 1 commands published while we were away are
        // delivered on reconnect unless their message expiry (or the session's) has run out.
        guard let h = mosquitto_new(settings.clientID, settings.cleanStart, Unmanaged.passUnretained(box).toOpaque()) else {
            throw MQTTError(call: "mosquitto_new", code: Int32(MOSQ_ERR_NOMEM.rawValue))
        }
        handle = h
        try check("MOSQ_OPT_PROTOCOL_VERSION", mosquitto_int_option(h, MOSQ_OPT_PROTOCOL_VERSION, settings.protocolVersion.rawValue))
        // Nagle off: a command's reply is one small packet that should not wait for an ACK.
        try check("MOSQ_OPT_TCP_NODELAY", mosquitto_int_option(h, MOSQ_OPT_TCP_NODELAY, 1))
        if settings.username != nil || settings.password != nil {
            try check("mosquitto_username_pw_set", mosquitto_username_pw_set(h, settings.username, settings.password))
        }
        if settings.tls {
            if settings.caFile == nil { try check("MOSQ_OPT_TLS_USE_OS_CERTS", mosquitto_int_option(h, MOSQ_OPT_TLS_USE_OS_CERTS, 1)) }
            try check("mosquitto_tls_set", mosquitto_tls_set(h, settings.caFile, nil, settings.certFile, settings.keyFile, nil))
        }
        try check("mosquitto_will_set", Array(settings.willPayload.utf8).withUnsafeBytes {
            mosquitto_will_set_v5(h, settings.willTopic, Int32($0.count), $0.baseAddress, 1, true, nil)
        })
        mosquitto_connect_v5_callback_set(h) { _, user, rc, flags, props in
            let box = Unmanaged<EventBox>.fromOpaque(user!).takeUnretainedValue()
            box.events.append(.connected(reasonCode: rc, sessionPresent: flags & 1 != 0,
                                         maximumPacketSize: MQTTPropertyReader.int32(props, MQTT_PROP_MAXIMUM_PACKET_SIZE)))
        }
        mosquitto_disconnect_v5_callback_set(h) { _, user, rc, _ in
            Unmanaged<EventBox>.fromOpaque(user!).takeUnretainedValue().events.append(.disconnected(reasonCode: rc))
        }
        mosquitto_log_callback_set(h) { _, user, level, text in
            guard level == MOSQ_LOG_ERR, let text else { return }
            Unmanaged<EventBox>.fromOpaque(user!).takeUnretainedValue().lastError = String(cString: text)
        }
        mosquitto_subscribe_v5_callback_set(h) { _, user, mid, count, granted, _ in
            let list = granted.map { Array(UnsafeBufferPointer(start: $0, count: Int(max(0, count)))) } ?? []
            Unmanaged<EventBox>.fromOpaque(user!).takeUnretainedValue().events.append(.subscribed(mid: mid, granted: list))
        }
        mosquitto_publish_v5_callback_set(h) { _, user, mid, reason, _ in
            Unmanaged<EventBox>.fromOpaque(user!).takeUnretainedValue().events.append(.published(mid: mid, reasonCode: reason))
        }
        mosquitto_message_v5_callback_set(h) { _, user, message, props in
            guard let m = message?.pointee else { return }
            let box = Unmanaged<EventBox>.fromOpaque(user!).takeUnretainedValue()
            let payload = m.payload.map { Array(UnsafeRawBufferPointer(start: $0, count: Int(m.payloadlen))) } ?? []
            box.events.append(.message(MQTTMessage(
                topic: String(cString: m.topic), payload: payload, qos: m.qos, retained: m.retain, packetID: m.mid,
                responseTopic: MQTTPropertyReader.string(props, MQTT_PROP_RESPONSE_TOPIC),
                correlationData: MQTTPropertyReader.binary(props, MQTT_PROP_CORRELATION_DATA),
                expiry: MQTTPropertyReader.int32(props, MQTT_PROP_MESSAGE_EXPIRY_INTERVAL))))
        }
    }

    deinit { mosquitto_destroy(handle) }

    private static let libraryInitialised: Bool = { mosquitto_lib_init() == 0 }()

    private func check(_ call: String, _ rc: Int32) throws(MQTTError) {
        if rc != Int32(MOSQ_ERR_SUCCESS.rawValue) { throw MQTTError(call: call, code: rc) }
    }

    /// The events since the last call, oldest first.
    func takeEvents() -> [MQTTEvent] {
        defer { box.events.removeAll(keepingCapacity: true) }
        return box.events
    }

    // MARK: Connection

    /// Connects (the first time, blocking, with the CONNECT properties) or reconnects
    /// (non-blocking connect). A refusal before any packet (no route, refused) throws; the CONNACK
    /// arrives later as `.connected`.
    func connect() throws(MQTTError) {
        if attempted {
            try check("mosquitto_reconnect_async", mosquitto_reconnect_async(handle))
            return
        }
        attempted = true
        let properties: MQTTProperties? = settings.protocolVersion == .v5 ? MQTTProperties() : nil
        properties?.addInt32(MQTT_PROP_SESSION_EXPIRY_INTERVAL, settings.sessionExpirySeconds)
        properties?.addInt32(MQTT_PROP_MAXIMUM_PACKET_SIZE, settings.maximumIncomingPacket)
        try check("mosquitto_connect", mosquitto_connect_bind_v5(handle, settings.host, settings.port, settings.keepalive, nil, properties?.list))
    }

    /// A clean DISCONNECT (reason 0: the broker does not send the will).
    func disconnect() { _ = mosquitto_disconnect_v5(handle, 0, nil) }

    /// The socket to watch, nil while there is none.
    var socket: Int32? {
        let fd = mosquitto_socket(handle)
        return fd >= 0 ? fd : nil
    }

    var wantsWrite: Bool { mosquitto_want_write(handle) }

    /// `mosquitto_loop_read`/`write`/`misc`: a lost connection comes back as `.disconnected`;
    /// one that failed before its CONNACK (a refused TLS handshake) only as the error thrown.
    func read() throws(MQTTError) { try check("mosquitto_loop_read", mosquitto_loop_read(handle, 1)) }
    func write() throws(MQTTError) { try check("mosquitto_loop_write", mosquitto_loop_write(handle, 1)) }

    /// libmosquitto's last error message, once.
    func takeLastError() -> String? {
        defer { box.lastError = nil }
        return box.lastError
    }
    func misc() { _ = mosquitto_loop_misc(handle) }

    // MARK: Messages

    /// Subscribes; the message id its `.subscribed` will carry.
    @discardableResult
    func subscribe(_ pattern: String, qos: Int32) throws(MQTTError) -> Int32 {
        var mid: Int32 = 0
        try check("mosquitto_subscribe", mosquitto_subscribe_v5(handle, &mid, pattern, qos, 0, nil))
        return mid
    }

    func unsubscribe(_ pattern: String) throws(MQTTError) {
        try check("mosquitto_unsubscribe", mosquitto_unsubscribe_v5(handle, nil, pattern, nil))
    }

    /// Publishes `payload`; the message id its `.published` will carry. An oversized packet (the
    /// broker's Maximum Packet Size) is refused here with `isOversize`, never sent to be dropped.
    @discardableResult
    func publish(_ topic: String, _ payload: [UInt8], qos: Int32, retain: Bool, properties: MQTTProperties? = nil) throws(MQTTError) -> Int32 {
        let list = settings.protocolVersion == .v5 ? properties?.list : nil
        var mid: Int32 = 0
        try check("mosquitto_publish", payload.withUnsafeBytes {
            mosquitto_publish_v5(handle, &mid, topic, Int32($0.count), $0.baseAddress, qos, retain, list)
        })
        return mid
    }
}
