// SPDX-License-Identifier: MIT
// The outputs `splashhud render` is asked for, read in command-line order: each `--out FILE`
// belongs to the `--at T` or `--apng FROM:TO:FPS` just before it. (ArgumentParser keeps each
// option's values in order but not their order relative to each other, so these are collected as
// they come and paired here.)

enum RenderOutput: Equatable {
    /// The frame at `seconds`, as a PNG.
    case frame(seconds: Double, path: String)
    /// Frames from `from` to `to` seconds at `fps`, as an animated PNG.
    case animation(from: Double, to: Double, fps: Int, path: String)
}

enum RenderOutputError: Error, Equatable, CustomStringConvertible {
    case missingValue(String)
    case badTime(String)
    case badRange(String)
    case outWithoutRequest(String)
    case requestWithoutOut(String)
    case unexpected(String)

    var description: String {
        switch self {
        case .missingValue(let option): return "\(option) needs a value"
        case .badTime(let v): return "--at needs a time in seconds (0 or more), got '\(v)'"
        case .badRange(let v): return "--apng needs FROM:TO:FPS with 0 <= FROM < TO and FPS 1...120, got '\(v)'"
        case .outWithoutRequest(let path): return "--out \(path) does not follow an --at or --apng"
        case .requestWithoutOut(let what): return "\(what) has no --out FILE.png after it"
        case .unexpected(let arg): return "unexpected argument '\(arg)'"
        }
    }
}

extension RenderOutput {
    /// The options `parse` reads, as `--NAME VALUE` or `--NAME=VALUE` (the client's completions
    /// list them too).
    enum Option: String, CaseIterable {
        case at, apng, out
    }

    /// Pairs `--at T --out F` and `--apng FROM:TO:FPS --out F`, in order.
    static func parse(_ args: [String]) throws -> [RenderOutput] {
        var out: [RenderOutput] = []
        var pending: (request: String, make: (String) -> RenderOutput)?
        var i = 0
        func value(_ option: String) throws -> String {
            guard i + 1 < args.count else { throw RenderOutputError.missingValue(option) }
            i += 1
            return args[i]
        }
        while i < args.count {
            let arg = args[i]
            // Accept --option=value too.
            let (name, inline) = arg.hasPrefix("--") && arg.contains("=")
                ? (String(arg.prefix { $0 != "=" }), String(arg.drop { $0 != "=" }.dropFirst()))
                : (arg, nil)
            guard name.hasPrefix("--"), let option = Option(rawValue: String(name.dropFirst(2))) else {
                throw RenderOutputError.unexpected(arg)
            }
            switch option {
            case .at, .apng:
                if let p = pending { throw RenderOutputError.requestWithoutOut(p.request) }
                let v = try inline ?? value(name)
                if option == .at {
                    guard let t = Double(v), t >= 0, t.isFinite else { throw RenderOutputError.badTime(v) }
                    pending = ("--at \(v)", { .frame(seconds: t, path: $0) })
                } else {
                    let parts = v.split(separator: ":", omittingEmptySubsequences: false)
                    guard parts.count == 3, let a = Double(parts[0]), let b = Double(parts[1]), let fps = Int(parts[2]),
                          a >= 0, b > a, b.isFinite, (1...120).contains(fps)
                    else { throw RenderOutputError.badRange(v) }
                    pending = ("--apng \(v)", { .animation(from: a, to: b, fps: fps, path: $0) })
                }
            case .out:
                let path = try inline ?? value(name)
                guard let p = pending else { throw RenderOutputError.outWithoutRequest(path) }
                out.append(p.make(path))
                pending = nil
            }
            i += 1
        }
        if let p = pending { throw RenderOutputError.requestWithoutOut(p.request) }
        return out
    }
}
