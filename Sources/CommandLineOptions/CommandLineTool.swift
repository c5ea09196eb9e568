// SPDX-License-Identifier: MIT
// How an executable ends on a bad command line or answers --help: the message on standard
// error with the usage line, exit status 64 (EX_USAGE); the help on standard output, status 0.
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

public enum CommandLineTool {
    /// Writes `text` and a newline to standard error, in one write (no stdio buffering).
    public static func printError(_ text: String) {
        var bytes = Array((text + "\n").utf8)[...]
        while !bytes.isEmpty {
            let n = bytes.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { return }
            bytes = bytes.dropFirst(n)
        }
    }

    /// `program: error: MESSAGE`, the usage line and a pointer to --help; exit 64.
    public static func exitWithUsageError(_ error: UsageError, program: String, usage: String) -> Never {
        printError("\(program): error: \(error.message)\nUsage: \(usage)\n  See '\(program) --help' for more information.")
        Glibc.exit(UsageError.exitStatus)
    }

    /// Ends the program with `status`, standard output flushed.
    public static func exit(_ status: Int32) -> Never {
        Glibc.exit(status)
    }

    /// Writes what `print` buffered, so a line reaches a pipe now.
    public static func flushOutput() { fflush(nil) }

    /// The help on standard output; exit 0.
    public static func exitWithHelp(_ text: String) -> Never {
        print(text, terminator: "")
        Glibc.exit(0)
    }
}
