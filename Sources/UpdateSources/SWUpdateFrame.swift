// SPDX-License-Identifier: MIT
// One frame of SWUpdate's progress socket (`struct progress_msg`, progress_ipc.h), decoded from
// bytes. SWUpdate writes the struct as it lies in its memory: native byte order, the compiler's
// padding. Its layout changed twice (`dwl_bytes` in 2020.11, `__packed__` in 2025.12), and the
// frame does not say which one it is: `SWUpdateWire` decides that from the socket and the
// configured release. A frame whose fields cannot be what SWUpdate sends is an error, never a bar.

/// SWUpdate's `RECOVERY_STATUS` (swupdate_status.h; append-only).
public enum SWUpdateStatus: UInt32, Sendable, CaseIterable {
    case idle = 0, start, run, success, failure, download, done, subprocess, progress
}

/// Where `struct progress_msg`'s fields lie.
public enum SWUpdateLayout: Equatable, Sendable {
    /// Up to 2020.04: no `dwl_bytes` (2400 bytes).
    case legacy
    /// 2020.11 to 2025.05 where a 64-bit integer is 8-aligned (LP64, armhf): 4 bytes of padding
    /// before `dwl_bytes` and 4 at the end (2416 bytes).
    case padded
    /// 2025.12 on (`__packed__`), and every release's unpacked struct on i386, where a 64-bit
    /// integer is 4-aligned (2408 bytes).
    case packed

    /// The unpacked struct of 2020.11 to 2025.05 as this machine's C compiler lays it out.
    public static var native: SWUpdateLayout {
        #if arch(i386)
        return .packed
        #else
        return .padded
        #endif
    }

    public var size: Int {
        switch self {
        case .legacy: return 2400
        case .padded: return 2416
        case .packed: return 2408
        }
    }

    /// The offset of `nsteps`; every field after it follows at the same distances.
    var stepsOffset: Int {
        switch self {
        case .legacy: return 12
        case .padded: return 24
        case .packed: return 20
        }
    }

    var downloadBytesOffset: Int? {
        switch self {
        case .legacy: return nil
        case .padded: return 16
        case .packed: return 12
        }
    }
}

/// The byte order of the frames: the machine SWUpdate runs on, which is this one (tests give
/// the other to check that no field is read in the wrong order).
public enum SWUpdateByteOrder: Sendable {
    case little, big
    public static var host: SWUpdateByteOrder { UInt32(1).littleEndian == 1 ? .little : .big }

    /// The 32-bit field at `offset` from the start of `bytes`.
    func load(_ bytes: ArraySlice<UInt8>, at offset: Int) -> UInt32 {
        var v: UInt32 = 0
        for i in 0..<4 { v = v << 8 | UInt32(bytes[bytes.startIndex + offset + (self == .little ? 3 - i : i)]) }
        return v
    }

    /// Writes `value` as the 32-bit field at `offset` of `bytes`.
    func store(_ value: UInt32, at offset: Int, in bytes: inout [UInt8]) {
        for i in 0..<4 { bytes[offset + i] = UInt8(truncatingIfNeeded: value >> (self == .little ? 8 * i : 24 - 8 * i)) }
    }
}

public struct SWUpdateFrame: Equatable, Sendable {
    /// Field 0: `magic` (0) up to 2023.05, `apiversion` (major << 16 | minor << 8 | patch) from 2023.12.
    public var apiVersion: UInt32
    public var status: SWUpdateStatus
    public var downloadPercent: UInt32
    public var downloadBytes: UInt64
    public var steps: UInt32
    public var step: UInt32
    public var stepPercent: UInt32
    public var image: String
    public var handler: String
    public var source: UInt32
    /// The valid part of `info` (SWUpdate never clears the rest).
    public var info: String

    public init(apiVersion: UInt32 = 0, status: SWUpdateStatus, downloadPercent: UInt32 = 0, downloadBytes: UInt64 = 0,
                steps: UInt32 = 0, step: UInt32 = 0, stepPercent: UInt32 = 0, image: String = "", handler: String = "",
                source: UInt32 = 0, info: String = "") {
        self.apiVersion = apiVersion; self.status = status; self.downloadPercent = downloadPercent
        self.downloadBytes = downloadBytes; self.steps = steps; self.step = step; self.stepPercent = stepPercent
        self.image = image; self.handler = handler; self.source = source; self.info = info
    }

    static let imageSize = 256, handlerSize = 64, infoSize = 2048

    /// Decodes one frame of `layout` (exactly `layout.size` bytes).
    public static func decode(_ bytes: ArraySlice<UInt8>, layout: SWUpdateLayout,
                              byteOrder: SWUpdateByteOrder = .host) throws(SWUpdateFrameError) -> SWUpdateFrame {
        guard bytes.count == layout.size else { throw .size(bytes.count, expected: layout.size) }
        let base = bytes.startIndex
        func u32(_ offset: Int) -> UInt32 { byteOrder.load(bytes, at: offset) }
        func u64(_ offset: Int) -> UInt64 {
            let a = UInt64(u32(offset)), b = UInt64(u32(offset + 4))
            return byteOrder == .little ? b << 32 | a : a << 32 | b
        }
        func text(_ offset: Int, _ size: Int, _ field: String) throws(SWUpdateFrameError) -> String {
            let field_ = bytes[(base + offset)..<(base + offset + size)]
            guard let end = field_.firstIndex(of: 0) else { throw .unterminated(field) }
            return String(decoding: field_[..<end], as: UTF8.self)
        }
        let s = layout.stepsOffset
        let rawStatus = u32(4)
        guard let status = SWUpdateStatus(rawValue: rawStatus) else { throw .field("status", rawStatus) }
        let downloadPercent = u32(8), steps = u32(s), step = u32(s + 4), stepPercent = u32(s + 8)
        guard downloadPercent <= 100 else { throw .field("dwl_percent", downloadPercent) }
        guard stepPercent <= 100 else { throw .field("cur_percent", stepPercent) }
        // RUN after the last image carries cur_step = nsteps + 1 (core/progress_thread.c).
        guard step <= steps &+ 1 else { throw .field("cur_step", step) }
        let imageAt = s + 12, handlerAt = imageAt + imageSize, sourceAt = handlerAt + handlerSize
        let infoLength = u32(sourceAt + 4)
        guard infoLength <= UInt32(infoSize) else { throw .field("infolen", infoLength) }
        let infoAt = sourceAt + 8
        let info = bytes[(base + infoAt)..<(base + infoAt + Int(infoLength))]
        return SWUpdateFrame(apiVersion: u32(0), status: status, downloadPercent: downloadPercent,
                             downloadBytes: layout.downloadBytesOffset.map(u64) ?? 0,
                             steps: steps, step: step, stepPercent: stepPercent,
                             image: try text(imageAt, imageSize, "cur_image"),
                             handler: try text(handlerAt, handlerSize, "hnd_name"),
                             source: u32(sourceAt),
                             info: String(decoding: info.prefix { $0 != 0 }, as: UTF8.self))
    }

    /// The bytes SWUpdate would send for this frame (tests, and the recorded sequences replayed).
    public func encoded(layout: SWUpdateLayout, byteOrder: SWUpdateByteOrder = .host) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: layout.size)
        func put32(_ v: UInt32, _ offset: Int) { byteOrder.store(v, at: offset, in: &out) }
        func putText(_ t: String, _ offset: Int, _ size: Int) {
            for (i, b) in t.utf8.prefix(size - 1).enumerated() { out[offset + i] = b }
        }
        let s = layout.stepsOffset
        put32(apiVersion, 0); put32(status.rawValue, 4); put32(downloadPercent, 8)
        if let d = layout.downloadBytesOffset {
            let (high, low) = (UInt32(truncatingIfNeeded: downloadBytes >> 32), UInt32(truncatingIfNeeded: downloadBytes))
            put32(byteOrder == .little ? low : high, d); put32(byteOrder == .little ? high : low, d + 4)
        }
        put32(steps, s); put32(step, s + 4); put32(stepPercent, s + 8)
        let imageAt = s + 12, handlerAt = imageAt + Self.imageSize, sourceAt = handlerAt + Self.handlerSize
        putText(image, imageAt, Self.imageSize); putText(handler, handlerAt, Self.handlerSize)
        put32(source, sourceAt)
        let info = Array(info.utf8.prefix(Self.infoSize))
        put32(UInt32(info.count), sourceAt + 4)
        for (i, b) in info.enumerated() { out[sourceAt + 8 + i] = b }
        return out
    }
}

/// Why bytes from the progress socket are not a frame SWUpdate sends.
public enum SWUpdateFrameError: Error, Equatable, CustomStringConvertible {
    case size(Int, expected: Int)
    case field(String, UInt32)
    case unterminated(String)
    case apiVersion(UInt32, expected: UInt32)

    public var description: String {
        switch self {
        case .size(let n, let expected): return "a frame of \(n) bytes, not \(expected)"
        case .field(let name, let value): return "\(name) \(value) is out of range"
        case .unterminated(let name): return "\(name) is not NUL-terminated"
        case .apiVersion(let v, let expected):
            return "field 0 is \(SWUpdateWire.versionText(v)), the first frame's was \(SWUpdateWire.versionText(expected))"
        }
    }
}
