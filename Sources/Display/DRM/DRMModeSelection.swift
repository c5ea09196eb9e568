// SPDX-License-Identifier: MIT
// Which mode a connector is driven at, as pure logic over the connector's mode list:
//
//   1. an explicit request (the board profile's mode): the first mode with that size, and that
//      refresh when one is given;
//   2. else a kernel-style `video=` override, e.g. `video=Virtual-1:1024x768@60` or `1024x768`
//      (Documentation/fb/modedb.rst: `<conn>:<xres>x<yres>[M][R][-<bpp>][@<refresh>][i][m][eDd]`),
//      applying to this connector when it names it or names none;
//   3. else the mode the connector marks preferred (DRM_MODE_TYPE_PREFERRED), else the first.
//
// A request that matches no mode falls through to the next rule and says so in `unmatched`, so the
// caller can log "1920x1080 not offered by HDMI-A-1, using 1280x800" instead of failing to boot.

/// One mode a connector offers (from `drmModeModeInfo`), as mode selection needs it.
public struct DRMModeCandidate: Equatable, Sendable {
    public var width: Int32
    public var height: Int32
    public var refreshMillihertz: Int32
    public var isPreferred: Bool
    public var isInterlaced: Bool

    public init(width: Int32, height: Int32, refreshMillihertz: Int32, isPreferred: Bool = false, isInterlaced: Bool = false) {
        self.width = width; self.height = height; self.refreshMillihertz = refreshMillihertz
        self.isPreferred = isPreferred; self.isInterlaced = isInterlaced
    }
}

/// A wanted mode: a size and optionally a refresh rate in whole hertz.
public struct DRMModeRequest: Equatable, Sendable {
    /// The connector it applies to ("Virtual-1"); nil applies to every connector.
    public var connector: String?
    public var width: Int32
    public var height: Int32
    /// Refresh in hertz; nil takes the first mode of that size (the connector lists best first).
    public var refreshHertz: Int32?

    public init(connector: String? = nil, width: Int32, height: Int32, refreshHertz: Int32? = nil) {
        self.connector = connector; self.width = width; self.height = height; self.refreshHertz = refreshHertz
    }

    /// Why a `video=` string was refused.
    public enum ParseError: Error, Equatable, CustomStringConvertible {
        case malformed(String)
        public var description: String {
            switch self {
            case .malformed(let s): return "video mode '\(s)' is not <connector>:<width>x<height>[@<hz>]"
            }
        }
    }

    /// Parses `video=Virtual-1:1024x768@60`, `Virtual-1:1024x768`, `1024x768-32@60`, `1024x768M`.
    /// Flags after the size (M, R, i, m, e, d, D) and the bpp are accepted and ignored: a dumb
    /// buffer's depth is chosen from the plane's formats. A connector-only string ("HDMI-A-1:d",
    /// "VGA-1:e") or a named mode ("NTSC") is not a mode request: nil.
    public static func parse(video text: String) throws(ParseError) -> DRMModeRequest? {
        var spec = Substring(text)
        if spec.hasPrefix("video=") { spec = spec.dropFirst(6) }
        var connector: String?
        if let colon = spec.lastIndex(of: ":") {
            connector = String(spec[..<colon])
            spec = spec[spec.index(after: colon)...]
            if connector!.isEmpty { throw .malformed(text) }
        }
        // Options after a comma (",rotate=90", ",margin_left=...") are not mode words.
        if let comma = spec.firstIndex(of: ",") { spec = spec[..<comma] }
        guard let first = spec.first, first.isASCII, first.isNumber else {
            // "d"/"e"/"D" alone force a connector state; a name like "NTSC" selects a TV mode.
            return nil
        }
        func number(_ s: inout Substring) -> Int32? {
            let digits = s.prefix { $0.isASCII && $0.isNumber }
            guard !digits.isEmpty, digits.count <= 6, let v = Int32(digits) else { return nil }
            s = s.dropFirst(digits.count)
            return v
        }
        guard let width = number(&spec), spec.first == "x" else { throw .malformed(text) }
        spec = spec.dropFirst()
        guard let height = number(&spec), width > 0, height > 0 else { throw .malformed(text) }
        spec = spec.drop { "MR".contains($0) }
        if spec.first == "-" {
            spec = spec.dropFirst()
            guard number(&spec) != nil else { throw .malformed(text) }
        }
        var refresh: Int32?
        if spec.first == "@" {
            spec = spec.dropFirst()
            guard let hz = number(&spec), hz > 0 else { throw .malformed(text) }
            refresh = hz
        }
        guard spec.allSatisfy({ "imeDd".contains($0) }) else { throw .malformed(text) }
        return DRMModeRequest(connector: connector, width: width, height: height, refreshHertz: refresh)
    }

    /// Whether `mode` is this request's size and (when asked) refresh, to the nearest hertz.
    public func matches(_ mode: DRMModeCandidate) -> Bool {
        guard mode.width == width, mode.height == height else { return false }
        guard let hz = refreshHertz else { return true }
        return (mode.refreshMillihertz + 500) / 1000 == hz
    }
}

/// The outcome of mode selection for one connector.
public struct DRMModeChoice: Equatable, Sendable {
    /// Where the mode came from.
    public enum Source: Equatable, Sendable { case requested, videoOverride, preferred, first }
    /// Index into the connector's mode list.
    public var index: Int
    public var source: Source
    /// Requests that named no mode of this connector (for the log), in the order tried.
    public var unmatched: [DRMModeRequest]
}

public enum DRMModeSelection {
    /// Picks the mode for `connector` from `modes` (nil when it has none). Progressive modes are
    /// preferred over interlaced ones of the same size when a request does not say.
    public static func choose(
        modes: [DRMModeCandidate], connector: String, requested: DRMModeRequest?, videoOverrides: [DRMModeRequest]
    ) -> DRMModeChoice? {
        guard !modes.isEmpty else { return nil }
        var unmatched: [DRMModeRequest] = []
        func find(_ r: DRMModeRequest) -> Int? {
            modes.indices.first { r.matches(modes[$0]) && !modes[$0].isInterlaced }
                ?? modes.indices.first { r.matches(modes[$0]) }
        }
        if let r = requested {
            if let i = find(r) { return DRMModeChoice(index: i, source: .requested, unmatched: unmatched) }
            unmatched.append(r)
        }
        // A connector-specific override wins over a general one, as in the kernel.
        let overrides = videoOverrides.filter { $0.connector == connector } + videoOverrides.filter { $0.connector == nil }
        if let r = overrides.first {
            if let i = find(r) { return DRMModeChoice(index: i, source: .videoOverride, unmatched: unmatched) }
            unmatched.append(r)
        }
        if let i = modes.firstIndex(where: \.isPreferred) {
            return DRMModeChoice(index: i, source: .preferred, unmatched: unmatched)
        }
        return DRMModeChoice(index: 0, source: .first, unmatched: unmatched)
    }

    /// The `video=` words of a kernel command line (/proc/cmdline), parsed; malformed and
    /// non-mode words are skipped (the kernel ignores them too).
    public static func videoOverrides(kernelCommandLine: String) -> [DRMModeRequest] {
        kernelCommandLine.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "\t" })
            .filter { $0.hasPrefix("video=") }
            .compactMap { word in (try? DRMModeRequest.parse(video: String(word))) ?? nil }
    }

    /// The `video=` overrides of the running kernel's command line (/proc/cmdline); none when it
    /// cannot be read.
    public static func kernelVideoOverrides() -> [DRMModeRequest] {
        guard let bytes = try? Syscalls.readFile("/proc/cmdline") else { return [] }
        return videoOverrides(kernelCommandLine: String(decoding: bytes, as: UTF8.self))
    }

    /// Refresh in millihertz of a mode's timings: pixel clock (kHz) / (htotal · vtotal), doubled
    /// for interlaced and halved for double-scan modes, as drm_mode_vrefresh does (with more digits).
    public static func refreshMillihertz(clockKHz: UInt32, htotal: UInt16, vtotal: UInt16, interlaced: Bool, doubleScan: Bool, vscan: UInt16) -> Int32 {
        var denominator = Int64(htotal) * Int64(vtotal)
        guard denominator > 0 else { return 0 }
        var numerator = Int64(clockKHz) * 1_000_000
        if interlaced { numerator *= 2 }
        if doubleScan { denominator *= 2 }
        if vscan > 1 { denominator *= Int64(vscan) }
        return Int32(clamping: (numerator + denominator / 2) / denominator)
    }
}
