// SPDX-License-Identifier: MIT
// Where SWUpdate's sockets are, by its own rules (ipc/progress_ipc.c and network_ipc.c,
// get_prog_socket / get_ctrl_socket): the first of $RUNTIME_DIRECTORY (2023.12 on), $TMPDIR,
// /run/swupdate when writable (2026.05 on), /tmp, with `swupdateprog` and `sockinstctrl` in it.
// SWUpdate resolves them in its own environment, which may not be ours: without a configured
// release every directory its releases would use is a candidate, and the first that holds the
// socket wins. Debian's swupdate.socket
// listens at /tmp/swupdateprog and /tmp/sockinstctrl.
import LinuxSystem
import UpdateSources

enum SWUpdatePaths {
    static let progressName = "swupdateprog"
    static let controlName = "sockinstctrl"

    /// The directories to look in, in SWUpdate's order, for `release` (nil: any release).
    static func directories(release: SWUpdateRelease?, environment: (String) -> String?) -> [String] {
        var dirs: [String] = []
        let runtimeFrom = SWUpdateRelease(year: 2023, month: 12), runFrom = SWUpdateRelease(year: 2026, month: 5)
        if release.map({ $0 >= runtimeFrom }) ?? true, let d = environment("RUNTIME_DIRECTORY"), !d.isEmpty { dirs.append(d) }
        if let d = environment("TMPDIR"), !d.isEmpty { dirs.append(d) }
        if release.map({ $0 >= runFrom }) ?? true { dirs.append("/run/swupdate") }
        dirs.append("/tmp")
        var seen = Set<String>()
        return dirs.map { $0.count > 1 && $0.hasSuffix("/") ? String($0.dropLast()) : $0 }.filter { seen.insert($0).inserted }
    }

    /// The socket named `name` in the first directory holding one, else nil (looked for again at
    /// each attempt, so whichever appears first is taken).
    static func find(_ name: String, release: SWUpdateRelease?, environment: (String) -> String? = Environment.value,
                     isSocket: (String) -> Bool = isSocket) -> String? {
        candidates(name, release: release, environment: environment).first(where: isSocket)
    }

    static func candidates(_ name: String, release: SWUpdateRelease?, environment: (String) -> String? = Environment.value) -> [String] {
        directories(release: release, environment: environment).map { $0 + "/" + name }
    }

    static func isSocket(_ path: String) -> Bool {
        (try? Files.status(atPath: path))??.kind == .socket
    }
}
