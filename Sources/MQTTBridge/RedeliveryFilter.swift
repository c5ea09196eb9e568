// SPDX-License-Identifier: MIT
// QoS 1 is "at least once": when a connection dies after the broker sent a command but before our
// PUBACK reached it, the broker sends the command again on the next connection of the same session
// (DUP set, the same packet identifier, before anything new: MQTT 5 §4.4, 3.1.1 §4.4). Applied
// twice, a `show` would fade in again and a `wait` would wait twice; the second copy is dropped here.
//
// libmosquitto does not show the DUP flag, so a message counts as a redelivery when all of these hold:
//   - the CONNACK said the broker kept our session (without one there is nothing to resend);
//   - it arrives before anything new on this connection (redeliveries come first);
//   - one of the last `capacity` commands taken on an *earlier* connection had its packet
//     identifier, and the same topic, payload, response topic and correlation data.
// A broker hands a packet identifier out again only once its PUBACK came, counting up per session
// (Mosquitto keeps the counter in its persistence file too), so a new command does not meet all
// three unless 65,535 others came between: nothing new is ever dropped in practice, and the window
// closes at the first new message. Commands that must not run twice in any case (a reconnect
// past the session's expiry, a publisher that itself retries) are made idempotent by the publisher:
// docs/fleet.md says how.
struct RedeliveryFilter {
    private struct Seen {
        var packetID: Int32
        var fingerprint: UInt64
        var connection: Int
    }

    let capacity: Int
    private var seen: [Seen] = []
    private var connection = 0
    /// Whether redeliveries may still come on this connection (none has been anything new yet).
    private var window = false

    init(capacity: Int = 64) { self.capacity = capacity }

    /// A CONNACK: a new connection, of the same session or not.
    mutating func connected(sessionPresent: Bool) {
        connection += 1
        window = sessionPresent
        if !sessionPresent { seen.removeAll() }
    }

    /// Whether `m` is a copy of a command already taken; remembers it when it is not.
    mutating func isRedelivery(_ m: MQTTMessage) -> Bool {
        guard m.qos > 0, m.packetID != 0 else { return false }
        let fingerprint = Self.fingerprint(m)
        if let i = seen.firstIndex(where: { $0.packetID == m.packetID }) {
            if window, seen[i].connection < connection, seen[i].fingerprint == fingerprint { return true }
            seen.remove(at: i)
        }
        window = false
        if seen.count == capacity { seen.removeFirst() }
        seen.append(Seen(packetID: m.packetID, fingerprint: fingerprint, connection: connection))
        return false
    }

    /// FNV-1a over the topic, payload, response topic and correlation data, each with its length.
    static func fingerprint(_ m: MQTTMessage) -> UInt64 {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        func add<C: Collection>(_ bytes: C?) where C.Element == UInt8 {
            guard let bytes else { return add([0xFF] as [UInt8]) }
            for b in withUnsafeBytes(of: UInt32(bytes.count).littleEndian, Array.init) + Array(bytes) {
                h = (h ^ UInt64(b)) &* 0x0000_0100_0000_01B3
            }
        }
        add(Array(m.topic.utf8))
        add(m.payload)
        add(m.responseTopic.map { Array($0.utf8) })
        add(m.correlationData)
        return h
    }
}
