// SPDX-License-Identifier: MIT
// `--display auto|drm[:DEVICE]|fbdev[:DEVICE]|memory[:WxH]`: which screen the daemon takes.
import Board

struct DisplayChoice: Equatable {
    var backend: BoardProfile.Backend?
    /// A card node (drm), a framebuffer device (fbdev).
    var device: String?
    var size: (width: Int32, height: Int32)?

    static func == (a: DisplayChoice, b: DisplayChoice) -> Bool {
        a.backend == b.backend && a.device == b.device && a.size?.width == b.size?.width && a.size?.height == b.size?.height
    }

    static let auto = DisplayChoice(backend: nil)

    init(backend: BoardProfile.Backend?, device: String? = nil, size: (Int32, Int32)? = nil) {
        self.backend = backend; self.device = device; self.size = size
    }

    init?(argument: String) {
        // The kind and the value after the first ':', as `split(separator: ":", maxSplits: 1)`
        // reads them (empty pieces dropped: leading colons are skipped, a trailing one gives no
        // value), without the arrays of substrings and strings that split and map build.
        let rest = argument.drop { $0 == ":" }
        let colon = rest.firstIndex(of: ":")
        let kind = colon.map { rest[..<$0] } ?? rest
        let after = colon.map { rest[rest.index(after: $0)...] }
        let value = after.flatMap { $0.isEmpty ? nil : String($0) }
        switch kind {
        case "auto" where value == nil: self.init(backend: nil)
        case "drm": self.init(backend: .drm, device: value)
        case "fbdev": self.init(backend: .fbdev, device: value)
        case "memory":
            guard let value else { self.init(backend: .memory); return }
            guard let size = Self.size(value) else { return nil }
            self.init(backend: .memory, size: size)
        default: return nil
        }
    }

    /// `WxH`, each 16...8192.
    static func size(_ text: String) -> (Int32, Int32)? {
        let parts = text.lowercased().split(separator: "x")
        guard parts.count == 2, let w = Int32(parts[0]), let h = Int32(parts[1]), (16...8192).contains(w), (16...8192).contains(h) else { return nil }
        return (w, h)
    }

    /// `profile` with this choice applied: only this backend, on this device.
    func apply(to profile: BoardProfile?) -> BoardProfile? {
        guard let backend else { return profile }
        var p = profile ?? BoardProfile(file: "(--display \(backend.rawValue))")
        p.backends = [backend]
        if let device {
            if backend == .drm { p.card = .path(device) } else { p.fbdevPath = device }
        }
        return p
    }
}
