// SPDX-License-Identifier: MIT
import SystemPackage

/// This process's program: where it is, and running another in its place.
public enum ProcessImage {
    /// The running executable's resolved path (/proc/self/exe), nil when /proc is not mounted.
    public static func executablePath() -> String? { try? Files.resolvedPath("/proc/self/exe") }

    /// execv(2): runs `path` in place of this process with `arguments` (argv[0] first). Returns
    /// only on failure, with the error.
    public static func replace(with path: String, arguments: [String]) -> SystemError {
        system_execv(path, arguments)
        return SystemError("execv", currentErrno(), path)
    }
}
