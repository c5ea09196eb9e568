// SPDX-License-Identifier: MIT
// The broker side as the bridge's state machine sees it: connect, subscribe, publish, and the
// broker's events taken after each turn. MosquittoTransport is the real one (libmosquitto on the
// bridge's epoll loop); the tests drive BridgeCore through a fake.

protocol MQTTTransport: AnyObject {
    var protocolVersion: MQTTProtocol { get }
    var clientID: String { get }
    /// Starts a connection (the CONNACK arrives later as `.connected`); a refusal before any
    /// packet throws.
    func connect() throws(MQTTError)
    /// Starts over speaking MQTT 3.1.1, for a broker that refused MQTT 5; false when it cannot.
    func fallBackToV311() -> Bool
    /// The message id its `.subscribed` will carry.
    func subscribe(_ pattern: String, qos: Int32) throws(MQTTError) -> Int32
    func unsubscribe(_ pattern: String) throws(MQTTError)
    /// The message id its `.published` will carry; an oversized packet throws `isOversize`.
    func publish(_ topic: String, _ payload: [UInt8], qos: Int32, retain: Bool, properties: PublishProperties?) throws(MQTTError) -> Int32
    /// The broker's events since the last call, oldest first.
    func takeEvents() -> [MQTTEvent]
    /// The library's last error message (a refused TLS handshake's reason), once.
    func takeLastError() -> String?
    /// Keepalive and retries: about once a second.
    func misc()
    /// A clean DISCONNECT (no will), with what is queued before it written out, briefly.
    func disconnectAndFlush()
}
