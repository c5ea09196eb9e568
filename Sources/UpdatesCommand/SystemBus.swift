// SPDX-License-Identifier: MIT
// The system bus through sd-bus (libsystemd): a connection, signal matches handed to closures,
// method calls and the readers of what they return. sd-bus's calls stay in this file. Its variadic
// conveniences (sd_bus_call_method, sd_bus_message_read) cannot be called from Swift: messages are
// built and read one basic value at a time.
import CSystemd
import SystemPackage

/// A failed sd-bus call: the call, the errno it returned, and the D-Bus error's name and text when
/// the peer sent one.
struct BusError: Error, CustomStringConvertible {
    let call: String
    let code: Int32
    var name: String?
    var message: String?

    var description: String {
        if let name { return "\(call): \(name)\(message.map { ": \($0)" } ?? "")" }
        return "\(call) failed: \(Errno(rawValue: code)) (errno \(code))"
    }
}

/// One value of a property, the types RAUC's installer uses; anything else is `.other`.
enum BusValue: Equatable {
    case string(String)
    case int32(Int32)
    /// (isi), as RAUC's `Progress`.
    case intStringInt(Int32, String, Int32)
    case other(String)
}

/// A message sd-bus lends to a handler or returns from a call; read front to back.
struct BusMessage {
    let raw: OpaquePointer

    var sender: String? { sd_bus_message_get_sender(raw).map { String(cString: $0) } }

    func readString() throws(BusError) -> String {
        var p: UnsafePointer<CChar>?
        try check("sd_bus_message_read_basic(s)", sd_bus_message_read_basic(raw, BusType.string, &p))
        return p.map { String(cString: $0) } ?? ""
    }

    func readInt32() throws(BusError) -> Int32 {
        var v: Int32 = 0
        try check("sd_bus_message_read_basic(i)", sd_bus_message_read_basic(raw, BusType.int32, &v))
        return v
    }

    /// A variant holding a string (org.freedesktop.DBus.Properties' Get of a string property).
    func readVariantString() throws(BusError) -> String {
        try check("enter v", sd_bus_message_enter_container(raw, BusType.variant, "s"))
        let s = try readString()
        try check("exit v", sd_bus_message_exit_container(raw))
        return s
    }

    /// An `a{sv}` (org.freedesktop.DBus.Properties' GetAll, PropertiesChanged's second argument).
    func readProperties() throws(BusError) -> [String: BusValue] {
        var out: [String: BusValue] = [:]
        try check("enter a{sv}", sd_bus_message_enter_container(raw, BusType.array, "{sv}"))
        while try enter(BusType.dictEntry, "sv") {
            let name = try readString()
            var type: CChar = 0
            var contents: UnsafePointer<CChar>?
            try check("sd_bus_message_peek_type", sd_bus_message_peek_type(raw, &type, &contents))
            let signature = contents.map { String(cString: $0) } ?? ""
            try check("enter v", sd_bus_message_enter_container(raw, BusType.variant, signature))
            switch signature {
            case "s": out[name] = .string(try readString())
            case "i": out[name] = .int32(try readInt32())
            case "(isi)":
                try check("enter (isi)", sd_bus_message_enter_container(raw, BusType.structure, "isi"))
                out[name] = .intStringInt(try readInt32(), try readString(), try readInt32())
                try check("exit (isi)", sd_bus_message_exit_container(raw))
            default:
                try check("sd_bus_message_skip", sd_bus_message_skip(raw, signature))
                out[name] = .other(signature)
            }
            try check("exit v", sd_bus_message_exit_container(raw))
            try check("exit {sv}", sd_bus_message_exit_container(raw))
        }
        try check("exit a{sv}", sd_bus_message_exit_container(raw))
        return out
    }

    private func enter(_ type: CChar, _ contents: String) throws(BusError) -> Bool {
        let r = sd_bus_message_enter_container(raw, type, contents)
        try check("enter container", r)
        return r > 0
    }
}

/// D-Bus type codes, as sd-bus takes them.
enum BusType {
    static let string = CChar(UInt8(ascii: "s")), int32 = CChar(UInt8(ascii: "i")), array = CChar(UInt8(ascii: "a"))
    static let dictEntry = CChar(UInt8(ascii: "e")), variant = CChar(UInt8(ascii: "v")), structure = CChar(UInt8(ascii: "r"))
}

private func check(_ call: String, _ r: Int32) throws(BusError) {
    if r < 0 { throw BusError(call: call, code: -r) }
}

/// A connection to the system bus ($DBUS_SYSTEM_BUS_ADDRESS, else /run/dbus/system_bus_socket).
final class SystemBus {
    private let bus: OpaquePointer
    /// The handlers' closures, alive as long as the bus that calls them.
    private var handlers: [Unmanaged<Handler>] = []

    final class Handler {
        let body: (BusMessage) -> Void
        init(_ body: @escaping (BusMessage) -> Void) { self.body = body }
    }

    init() throws(BusError) {
        var b: OpaquePointer?
        try check("sd_bus_open_system", sd_bus_open_system(&b))
        guard let b else { throw BusError(call: "sd_bus_open_system", code: Errno.invalidArgument.rawValue) }
        bus = b
    }

    deinit {
        sd_bus_flush_close_unref(bus)
        for h in handlers { h.release() }
    }

    /// Calls `body` with every message that matches `rule` (a D-Bus match rule), from `process`.
    func addMatch(_ rule: String, _ body: @escaping (BusMessage) -> Void) throws(BusError) {
        let handler = Unmanaged.passRetained(Handler(body))
        handlers.append(handler)
        // No slot: the match lives as long as the connection.
        try check("sd_bus_add_match", sd_bus_add_match(bus, nil, rule, { message, userdata, _ in
            guard let message, let userdata else { return 0 }
            Unmanaged<Handler>.fromOpaque(userdata).takeUnretainedValue().body(BusMessage(raw: message))
            return 0
        }, handler.toOpaque()))
    }

    /// Calls `member` with string arguments and reads the reply with `read`. Never starts a
    /// service by D-Bus activation: a follower must not be what launches RAUC.
    func call<T>(_ destination: String, _ path: String, _ interface: String, _ member: String, _ arguments: [String] = [],
                 timeoutMicroseconds: UInt64 = 5_000_000, read: (BusMessage) throws(BusError) -> T) throws(BusError) -> T {
        var m: OpaquePointer?
        try check("sd_bus_message_new_method_call", sd_bus_message_new_method_call(bus, &m, destination, path, interface, member))
        defer { sd_bus_message_unref(m) }
        try check("sd_bus_message_set_auto_start", sd_bus_message_set_auto_start(m, 0))
        for a in arguments { try check("sd_bus_message_append_basic", sd_bus_message_append_basic(m, BusType.string, a)) }
        var error = sd_bus_error(name: nil, message: nil, _need_free: 0)
        defer { sd_bus_error_free(&error) }
        var reply: OpaquePointer?
        let r = sd_bus_call(bus, m, timeoutMicroseconds, &error, &reply)
        defer { sd_bus_message_unref(reply) }
        if r < 0 {
            throw BusError(call: "\(interface).\(member)", code: -r, name: error.name.map { String(cString: $0) },
                           message: error.message.map { String(cString: $0) })
        }
        guard let reply else { throw BusError(call: "\(interface).\(member)", code: Errno.ioError.rawValue) }
        return try read(BusMessage(raw: reply))
    }

    /// Dispatches every message that has come (to the matches' closures); throws when the
    /// connection is lost.
    func process() throws(BusError) {
        while true {
            let r = sd_bus_process(bus, nil)
            try check("sd_bus_process", r)
            if r == 0 { return }
        }
    }

    /// Waits for the next message, at most `timeoutMicroseconds` (UInt64.max: as long as it takes).
    func wait(timeoutMicroseconds: UInt64 = .max) throws(BusError) {
        try check("sd_bus_wait", sd_bus_wait(bus, timeoutMicroseconds))
    }
}
