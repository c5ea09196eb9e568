// SPDX-License-Identifier: MIT
// /run/plymouth/pid while we answer Plymouth's socket (--plymouth-pid-file): systemd's units look
// for it (systemd-ask-password-plymouth.path, and our splashhud-ask-password.path where Plymouth is
// not installed, start the Plymouth password agent; systemd-ask-password-console.path stays off).
// Written only when prompts can take keys: without a keyboard the agent would get no answer and the
// console agent, which could still ask, would be kept off. Removed at the end if it still names us.
import LinuxSystem
import Logging
import Runtime

struct PidFile {
    let path: String
    private let content: [UInt8]

    init?(path: String, runtime: HUDRuntime, logger: Logger) {
        guard runtime.canReadPromptKeys else {
            logger.notice("no keyboard for Plymouth's prompts (no VT, no --prompt-tty, no on-screen keyboard): not writing \(path), so passphrases are asked on the console")
            return nil
        }
        self.path = path
        content = Array("\(Files.processID)\n".utf8)
        do {
            if let slash = path.lastIndex(of: "/"), slash != path.startIndex { try Files.makeDirectories(String(path[..<slash])) }
            try Files.writeAtomically(content, to: path)
        } catch {
            logger.error("--plymouth-pid-file: \(error)")
            return nil
        }
    }

    func remove() {
        guard (try? Files.readFile(path, limit: 64)) == content else { return }
        try? Files.unlink(path)
    }
}
