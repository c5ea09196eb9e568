// SPDX-License-Identifier: MIT
// MQTT 5 properties (libmosquitto's `mosquitto_property` lists): the few the bridge writes (message
// expiry, response topic, correlation data, content type, user properties, session expiry, the
// packet size it accepts) and reads (a request's response topic and correlation data, its expiry,
// CONNACK's Maximum Packet Size). A 3.1.1 connection carries none: the caller passes nil there.
import CMosquitto

/// A property list the bridge builds; freed with it.
final class MQTTProperties {
    private(set) var list: OpaquePointer?

    init() {}
    deinit { mosquitto_property_free_all(&list) }

    /// `MQTT_PROP_MESSAGE_EXPIRY_INTERVAL`, `SESSION_EXPIRY_INTERVAL`, `MAXIMUM_PACKET_SIZE` (int32).
    func addInt32(_ identifier: mqtt5_property, _ value: UInt32) {
        _ = mosquitto_property_add_int32(&list, Int32(identifier.rawValue), value)
    }

    /// `MQTT_PROP_CONTENT_TYPE`, `RESPONSE_TOPIC` (UTF-8 strings).
    func addString(_ identifier: mqtt5_property, _ value: String) {
        _ = mosquitto_property_add_string(&list, Int32(identifier.rawValue), value)
    }

    /// `MQTT_PROP_CORRELATION_DATA` (binary, at most 65,535 bytes).
    func addBinary(_ identifier: mqtt5_property, _ value: [UInt8]) {
        _ = value.withUnsafeBytes { mosquitto_property_add_binary(&list, Int32(identifier.rawValue), $0.baseAddress, UInt16(clamping: $0.count)) }
    }

    /// `MQTT_PROP_USER_PROPERTY`: a name/value pair a receiver may read (the snapshot's scale).
    func addUserProperty(_ name: String, _ value: String) {
        _ = mosquitto_property_add_string_pair(&list, Int32(MQTT_PROP_USER_PROPERTY.rawValue), name, value)
    }
}

/// What the bridge reads from a received list.
enum MQTTPropertyReader {
    static func int32(_ list: OpaquePointer?, _ identifier: mqtt5_property) -> UInt32? {
        guard let list else { return nil }
        var value: UInt32 = 0
        return mosquitto_property_read_int32(list, Int32(identifier.rawValue), &value, false) != nil ? value : nil
    }

    static func string(_ list: OpaquePointer?, _ identifier: mqtt5_property) -> String? {
        guard let list else { return nil }
        var value: UnsafeMutablePointer<CChar>?
        guard mosquitto_property_read_string(list, Int32(identifier.rawValue), &value, false) != nil, let value else { return nil }
        defer { CMosquitto_free(value) }
        return String(validatingCString: value)
    }

    static func binary(_ list: OpaquePointer?, _ identifier: mqtt5_property) -> [UInt8]? {
        guard let list else { return nil }
        var value: UnsafeMutableRawPointer?
        var length: UInt16 = 0
        guard mosquitto_property_read_binary(list, Int32(identifier.rawValue), &value, &length, false) != nil else { return nil }
        defer { CMosquitto_free(value) }
        return value.map { Array(UnsafeRawBufferPointer(start: $0, count: Int(length))) } ?? []
    }
}
