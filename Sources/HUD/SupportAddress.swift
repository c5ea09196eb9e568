// SPDX-License-Identifier: MIT
// The address a failed update's QR code carries: the board profile's `[updates] support-url` with
// the device id and the error appended as a query, so a support desk that opens it knows which
// kiosk failed and why without asking the person in front of it.
//
//   https://support.example.com/kiosk            → …/kiosk?device=ID&error=TEXT
//   https://support.example.com/case?lang=de     → …/case?lang=de&device=ID&error=TEXT
//
// Both values are percent-encoded as RFC 3986 asks of a query's values: every byte of their UTF-8
// but the unreserved ones (A-Z a-z 0-9 - . _ ~) is %XX, spaces and newlines included (a form
// decoder reads %20 as a space too). Only http and https bases: a `mailto:` query is mail headers,
// where a client drops `device=` and `error=`.
//
// Bounds: the base is at most `maxURLBytes`, the device id `maxDeviceIDBytes`; the error is cut,
// never inside a character, so that the address stays within `maxAddressBytes` (a version 15 code
// at level M at most: 77 modules, which fits a 480x272 panel at 2 px a module).

/// A support address and the device id a QR code names.
public struct SupportAddress: Equatable, Sendable {
    public static let maxURLBytes = 256
    public static let maxDeviceIDBytes = 64
    public static let maxAddressBytes = 400

    /// The base address, as the profile gives it.
    public let url: String
    /// This device's name (the profile's `device-id`, by default the kernel's host name).
    public let deviceID: String

    /// Checks `url` (http or https, a host, printable ASCII without spaces, no fragment, at most
    /// `maxURLBytes`) and `deviceID` (1 to `maxDeviceIDBytes` bytes, no control characters).
    public init(url: String, deviceID: String) throws(SupportAddressError) {
        try Self.check(url: url)
        try Self.check(deviceID: deviceID)
        self.url = url
        self.deviceID = deviceID
    }

    /// Why `url` cannot be a support address, or nothing.
    public static func check(url: String) throws(SupportAddressError) {
        let bytes = Array(url.utf8)
        if bytes.count > maxURLBytes { throw .url("\(bytes.count) bytes, longer than \(maxURLBytes)") }
        if let bad = bytes.first(where: { $0 <= 0x20 || $0 >= 0x7F }) {
            throw .url(bad == 0x20 ? "a space (write it %20)" : "byte 0x\(String(bad, radix: 16, uppercase: true)) (only printable ASCII; percent-encode the rest)")
        }
        let lower = url.lowercased()
        guard let scheme = ["https://", "http://"].first(where: { lower.hasPrefix($0) }) else {
            throw .url("not an http:// or https:// address")
        }
        let host = url.utf8.dropFirst(scheme.utf8.count).prefix { $0 != UInt8(ascii: "/") && $0 != UInt8(ascii: "?") }
        if host.isEmpty { throw .url("no host after \(scheme)") }
        if bytes.contains(UInt8(ascii: "#")) { throw .url("a fragment (#): the query would land in it") }
    }

    /// Why `deviceID` cannot name this device, or nothing.
    public static func check(deviceID: String) throws(SupportAddressError) {
        let count = deviceID.utf8.count
        if count == 0 || count > maxDeviceIDBytes { throw .deviceID("\(count) bytes, not 1 to \(maxDeviceIDBytes)") }
        if deviceID.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) { throw .deviceID("a control character") }
    }

    /// The address for a failure that says `error`: the base, `?` (or `&` when it has a query
    /// already), `device=ID&error=TEXT`, the error cut at a character to stay within `maxAddressBytes`.
    public func address(error: String) -> String {
        var out = url
        if let q = url.firstIndex(of: "?") {
            if q != url.index(before: url.endIndex) && !url.hasSuffix("&") { out += "&" }
        } else {
            out += "?"
        }
        out += "device=" + Self.percentEncoded(deviceID) + "&error="
        for scalar in error.unicodeScalars {
            let encoded = Self.percentEncoded(String(scalar))
            if out.utf8.count + encoded.utf8.count > Self.maxAddressBytes { break }
            out += encoded
        }
        return out
    }

    /// `text`'s UTF-8 with every byte but the unreserved ones (RFC 3986 §2.3) as %XX (upper case).
    public static func percentEncoded(_ text: String) -> String {
        let hex = Array("0123456789ABCDEF".utf8)
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count)
        for b in text.utf8 {
            switch b {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                 UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
                bytes.append(b)
            default:
                bytes += [UInt8(ascii: "%"), hex[Int(b >> 4)], hex[Int(b & 0xF)]]
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}

/// What is wrong with a support address or a device id.
public enum SupportAddressError: Error, Equatable, Sendable, CustomStringConvertible {
    case url(String)
    case deviceID(String)

    /// What is wrong, without what was expected.
    public var reason: String {
        switch self {
        case .url(let why), .deviceID(let why): return why
        }
    }

    public var description: String {
        switch self {
        case .url(let why): return "the support address must be an http:// or https:// URL of at most \(SupportAddress.maxURLBytes) bytes: \(why)"
        case .deviceID(let why): return "the device id must be 1 to \(SupportAddress.maxDeviceIDBytes) bytes without control characters: \(why)"
        }
    }
}
