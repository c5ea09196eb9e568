// SPDX-License-Identifier: MIT
// `splashhudd` run as an unprivileged user (nobody, through setpriv) meets a FIFO anyone may
// write that it cannot remove (root's, in root's directory): it refuses to read it and says whose
// it is and its mode, instead of taking commands from whoever else can write it.
import Foundation
import Glibc
import Testing

@Suite("splashhudd refuses a FIFO others can write")
struct ShowFIFOTrustTests {
    static let setpriv = "/usr/bin/setpriv"
    static let nobody: UInt32 = 65534

    @Test(.enabled(if: geteuid() == 0 && FileManager.default.isExecutableFile(atPath: setpriv), "needs root and setpriv to run as nobody"))
    func anUnremovableWorldWritableFIFOIsRefused() throws {
        let dir = try temporaryDirectory("trust")
        #expect(chmod(dir, 0o755) == 0)  // nobody may enter, not remove
        #expect(mkfifo("\(dir)/f", 0o600) == 0 && chmod("\(dir)/f", 0o666) == 0)
        let (status, output) = try SplashBinary.run(Self.setpriv, [
            "--reuid=\(Self.nobody)", "--regid=\(Self.nobody)", "--clear-groups", try SplashBinary.path("splashhudd"),
            "--display", "memory:64x48", "--socket", "none", "--fifo", "\(dir)/f", "--duration", "1", "--log-level", "critical",
        ])
        #expect(status == 1, "\(output)")
        #expect(output.contains("\(dir)/f is a FIFO owned by uid 0 with mode 0666: the splash reads only a FIFO owned by uid \(Self.nobody) "
                                + "that others cannot write, and removing it failed: Permission denied"), "\(output)")
        var st = stat()
        #expect(lstat("\(dir)/f", &st) == 0 && st.st_mode & 0o7777 == 0o666 && st.st_uid == 0, "left as it was")
    }
}
