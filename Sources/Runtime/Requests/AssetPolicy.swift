// SPDX-License-Identifier: MIT
// Which image and font files a command may name, and whether they can be used: a security boundary
// (the daemon's `--asset-dir`: a client must not make it open files elsewhere) and the check that
// loads a file off the frame path, so a bad one is refused when it is asked for, never drawn.
import Assets
import HUD
import HUDProtocol
import LinuxSystem

struct AssetPolicy {
    /// Where commands may name files, resolved (symlinks, `..`); nil: anywhere.
    var directories: [String]? {
        didSet { directories = directories?.map { (try? Files.resolvedPath($0)) ?? $0 } }
    }
    let resources: HUDResources

    /// Confines the file `command` names and loads it: why the command may not be applied, nil
    /// when it may. A confined command names the resolved path, which is what is then opened.
    func admit(_ command: inout HUDCommand) -> String? {
        confine(&command) ?? unusableFile(in: command)
    }

    /// With `directories`, the file `command` names resolved (symlinks, `.` and `..`) and kept
    /// only inside one of them. Why it may not be used, nil when it may (or names no file).
    private func confine(_ command: inout HUDCommand) -> String? {
        guard let directories else { return nil }
        let what: String, path: String
        switch command {
        case .image(.custom(let p), _, _, _): what = "image"; path = p
        case .set(.font(let p)): what = "font"; path = p
        default: return nil
        }
        // A missing file and one outside get the same answer: no probing for files elsewhere.
        func confined(_ path: String) -> String? {
            guard let resolved = try? Files.resolvedPath(path),
                  directories.contains(where: { resolved.hasPrefix($0 == "/" ? "/" : $0 + "/") }) else { return nil }
            return resolved
        }
        func outside(_ path: String) -> String {
            "\(what) \(path) is not a file in the asset directories (\(directories.joined(separator: ", ")))"
        }
        switch command {
        case .image(.custom, let status, let stays, let support):
            guard let resolved = confined(path) else { return outside(path) }
            command = .image(.custom(path: resolved), status: status, stays: stays, support: support)
        default:
            // A chain: every face's file is confined, and the chain names the resolved files.
            let sources: [FontSource]
            do { sources = try FontSource.parse(path) } catch { return "\(error)" }
            var resolvedSources: [FontSource] = []
            for var source in sources {
                guard let resolved = confined(source.path) else { return outside(source.path) }
                source.path = resolved
                resolvedSources.append(source)
            }
            command = .set(.font(path: FontSource.spec(resolvedSources)))
        }
        return nil
    }

    /// Loads the image or font `command` names now, off the frame path; why it cannot be used,
    /// nil when it can (or the command names no file).
    private func unusableFile(in command: HUDCommand) -> String? {
        let failure: HUDResourceError
        switch command {
        case .image(.custom(let path), _, _, _):
            guard case .failure(let e) = resources.image(at: path) else { return nil }
            failure = e
        case .set(.font(let path)):
            guard case .failure(let e) = resources.chain(fontAt: path) else { return nil }
            failure = e
        default: return nil
        }
        switch failure {
        case .image(let path, let reason): return "image \(path) cannot be shown: \(reason)"
        case .font(let path, let reason): return "font \(path) cannot be used: \(reason)"
        case .text(_, let reason), .supportCode(_, let reason): return reason
        }
    }
}
