// SPDX-License-Identifier: MIT
// Where a request's answer goes, and what a publish carries besides its payload: plain values the
// bridge's state machine hands its MQTT transport (which turns them into libmosquitto's property
// lists), so a fake transport in the tests can read them back.
import HUDProtocol

/// Where a request's answer goes: the MQTT 5 response topic with its correlation data, or (3.1.1,
/// or a request that named none) the device's reply or snapshot topic.
struct ReplyRoute: Equatable, Sendable {
    var topic: String
    var correlationData: [UInt8]?
}

/// MQTT 5 publish properties (a 3.1.1 connection sends none).
struct PublishProperties: Equatable, Sendable {
    struct UserProperty: Equatable, Sendable {
        var name: String
        var value: String
    }
    var contentType: String?
    var correlationData: [UInt8]?
    var userProperties: [UserProperty] = []
}
