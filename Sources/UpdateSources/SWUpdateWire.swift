// SPDX-License-Identifier: MIT
// The byte stream of SWUpdate's progress socket, cut into frames. Which layout the frames have is
// decided once per connection from what the socket says first and the release the user configured,
// never guessed:
// - API 2 (2024.12 on) sends an 8-byte ACK, `{apiversion, "ACK\0"}`, at connect. Its frames are
//   2416 bytes up to 2025.05 and 2408 (packed) from 2025.12 with the same version 2.0.0, so only
//   the configured release can tell them apart.
// - Before that nothing comes until the first frame, whose field 0 is 0 (`magic`, to 2023.05) or
//   0x00010000 (`apiversion` 1, 2023.12 and 2024.05); both have the unpacked layout with
//   `dwl_bytes`, except a release the user names as 2020.04 or older (no `dwl_bytes`).
// Reads may end anywhere in a frame (SWUpdate writes 2 KiB structs to a stream socket): bytes are
// kept until a whole frame is in.

/// A SWUpdate release, `YEAR.MONTH` (a point release's third number does not change the wire).
public struct SWUpdateRelease: Comparable, Sendable, CustomStringConvertible {
    public var year: Int
    public var month: Int

    public init(year: Int, month: Int) { self.year = year; self.month = month }

    /// "2022.12", "2024.12.1"; nil for anything else.
    public init?(_ text: String) {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard (2...3).contains(parts.count), parts.allSatisfy({ !$0.isEmpty && $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) }),
              let y = Int(parts[0]), let m = Int(parts[1]), (2000...2999).contains(y), (1...12).contains(m) else { return nil }
        year = y; month = m
    }

    public var description: String { "\(year).\(month < 10 ? "0" : "")\(month)" }
    public static func < (a: Self, b: Self) -> Bool { (a.year, a.month) < (b.year, b.month) }

    static let withDownloadBytes = SWUpdateRelease(year: 2020, month: 11)
    static let apiVersion1 = SWUpdateRelease(year: 2023, month: 12)
    static let apiVersion2 = SWUpdateRelease(year: 2024, month: 12)
    static let packed = SWUpdateRelease(year: 2025, month: 12)
}

/// Why a connection's bytes cannot be read as SWUpdate's frames.
public enum SWUpdateWireError: Error, Equatable, CustomStringConvertible {
    case frame(SWUpdateFrameError)
    /// Field 0 of the first frame, or an ACK's version, that no release sends.
    case unknownAPI(UInt32)
    /// API 2 with no release configured: two layouts share its version.
    case ambiguous
    /// The socket speaks `api` (0, 1, 2), which `release` does not.
    case contradicts(release: SWUpdateRelease, api: UInt32)

    public var description: String {
        switch self {
        case .frame(let e): return "not a SWUpdate progress frame: \(e)"
        case .unknownAPI(let v): return "the progress socket speaks \(SWUpdateWire.versionText(v)), which no SWUpdate release this program knows sends"
        case .ambiguous:
            return "SWUpdate's progress API 2.0.0 sends 2416-byte frames up to 2025.05 and packed 2408-byte ones from 2025.12, and says no more: give the release with --swupdate-version"
        case .contradicts(let release, let api):
            return "the progress socket speaks API \(api), which SWUpdate \(release) (--swupdate-version) does not: check the release installed"
        }
    }
}

public struct SWUpdateWire: Sendable {
    /// The release the user configured, if any.
    public let release: SWUpdateRelease?
    public let byteOrder: SWUpdateByteOrder
    /// Decided from the first bytes of the connection.
    public private(set) var layout: SWUpdateLayout?
    /// The API version the socket announced (ACK) or the first frame carried.
    public private(set) var apiVersion: UInt32?
    private var pending: [UInt8] = []

    public init(release: SWUpdateRelease?, byteOrder: SWUpdateByteOrder = .host) {
        self.release = release; self.byteOrder = byteOrder
    }

    static let ackMagic: [UInt8] = [0x41, 0x43, 0x4B, 0]  // "ACK\0"

    static func versionText(_ v: UInt32) -> String { "\(v >> 16).\((v >> 8) & 0xFF).\(v & 0xFF) (0x\(String(v, radix: 16)))" }

    /// The frames completed by `bytes`, in order; bytes of a frame not yet whole are kept.
    public mutating func feed(_ bytes: some Collection<UInt8>) throws(SWUpdateWireError) -> [SWUpdateFrame] {
        pending.append(contentsOf: bytes)
        var frames: [SWUpdateFrame] = []
        var at = 0
        defer { pending.removeFirst(at) }
        if layout == nil {
            guard pending.count >= 8 else { return [] }
            at = try decide()
        }
        guard let layout, let apiVersion else { return [] }
        while pending.count - at >= layout.size {
            let frame: SWUpdateFrame
            do { frame = try SWUpdateFrame.decode(pending[at..<(at + layout.size)], layout: layout, byteOrder: byteOrder) } catch { throw .frame(error) }
            guard frame.apiVersion == apiVersion else { throw .frame(.apiVersion(frame.apiVersion, expected: apiVersion)) }
            frames.append(frame)
            at += layout.size
        }
        return frames
    }

    /// Sets `layout` and `apiVersion` from the first 8 bytes; the count of them consumed (an ACK's 8).
    private mutating func decide() throws(SWUpdateWireError) -> Int {
        let field0 = byteOrder.load(pending[...], at: 0)
        if Array(pending[4..<8]) == Self.ackMagic {
            guard field0 >> 16 == 2 else { throw .unknownAPI(field0) }
            guard let release else { throw .ambiguous }
            guard release >= .apiVersion2 else { throw .contradicts(release: release, api: 2) }
            layout = release >= .packed ? .packed : .native
            apiVersion = field0
            return 8
        }
        switch field0 {
        case 0:
            if let release, release >= .apiVersion1 { throw .contradicts(release: release, api: 0) }
            layout = release.map { $0 < .withDownloadBytes } == true ? .legacy : .native
        case 0x0001_0000:
            if let release, release < .apiVersion1 || release >= .apiVersion2 { throw .contradicts(release: release, api: 1) }
            layout = .native
        default:
            throw .unknownAPI(field0)
        }
        apiVersion = field0
        return 0
    }
}
