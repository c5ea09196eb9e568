// SPDX-License-Identifier: MIT
// Which request a `plymouth` command line makes: the global options in main()'s order
// (show-splash, hide-splash, quit, ping, has-active-vt, update, ask-for-password,
// ignore-keystroke, sysinit, newroot, wait, details), else the first command that sends
// something (display-message without --text sends nothing, and the next command runs).
import CommandLineOptions
import HUDProtocol

extension PlymouthPersonality {
    static func action(_ line: PlymouthArguments) throws(UsageError) -> Action {
        let g = line.global
        if g.flag("show-splash") { return .acknowledged(UInt8(ascii: "$"), nil) }
        if g.flag("hide-splash") { return .acknowledged(UInt8(ascii: "H"), nil) }
        if g.flag("quit") { return .acknowledged(UInt8(ascii: "Q"), []) }  // --quit never retains the splash
        if g.flag("ping") { return .ping }
        if g.flag("has-active-vt") { return .acknowledged(UInt8(ascii: "V"), nil) }
        if let status = g.string("update") { return .acknowledged(UInt8(ascii: "U"), try argument(status, "--update")) }
        if g.flag("ask-for-password") { return .password(PlymouthPasswordRequest(command: nil, prompt: nil, triesLeft: 1, pause: false)) }
        if let keys = g.string("ignore-keystroke") { return .acknowledged(UInt8(ascii: "L"), try argument(keys, "--ignore-keystroke")) }
        if g.flag("sysinit") { return .acknowledged(UInt8(ascii: "S"), nil) }
        if let root = g.string("newroot") { return .acknowledged(UInt8(ascii: "R"), try argument(root, "--newroot")) }
        if !g.flag("wait") && g.flag("details") { return .acknowledged(UInt8(ascii: "!"), nil) }
        for (name, values) in line.commands {
            if let action = try action(command: name, values) { return action }
        }
        return .none
    }

    /// The action of command `name`, nil when it sends nothing.
    static func action(command name: String, _ v: PlymouthArguments.Values) throws(UsageError) -> Action? {
        func simple(_ c: Character) -> Action { .acknowledged(UInt8(ascii: c.unicodeScalars.first!), nil) }
        switch name {
        case "change-mode":
            let modes = ["boot-up", "shutdown", "reboot", "updates", "system-upgrade", "firmware-upgrade"]
            guard let mode = modes.first(where: { v.flag($0) }) else { return .refuse("Error no mode specified for 'change-mode' command") }
            return .acknowledged(UInt8(ascii: "C"), Array(mode.utf8))
        case "system-update":
            let progress = v.integer("progress")
            guard (0...100).contains(progress) else { return .refuse("couldn't set invalid percentage: \(progress)") }
            return .acknowledged(UInt8(ascii: "u"), Array("\(progress)".utf8))
        case "update":
            return try v.string("status").map { s throws(UsageError) in .acknowledged(UInt8(ascii: "U"), try argument(s, "--status")) }
        case "update-root-fs":
            let readWrite = v.flag("read-write")
            if let dir = v.string("new-root-dir") {
                return .acknowledged(UInt8(ascii: "R"), try argument(dir, "--new-root-dir"), then: readWrite ? UInt8(ascii: "S") : nil)
            }
            return readWrite ? simple("S") : nil
        case "show-splash": return simple("$")
        case "hide-splash": return simple("H")
        case "ask-for-password":
            let tries = v.integer("number-of-tries")
            return .password(PlymouthPasswordRequest(command: v.string("command"), prompt: try v.string("prompt").map { s throws(UsageError) in try argument(s, "--prompt") },
                                                     triesLeft: tries <= 0 ? Int32.max : tries, pause: !v.flag("dont-pause-progress")))
        case "ask-question":
            return .question(command: v.string("command"), prompt: try v.string("prompt").map { s throws(UsageError) in try argument(s, "--prompt") },
                             pause: !v.flag("dont-pause-progress"))
        case "display-message":
            return try v.string("text").map { s throws(UsageError) in .acknowledged(UInt8(ascii: "M"), try argument(s, "--text")) }
        case "hide-message":
            return try v.string("text").map { s throws(UsageError) in .acknowledged(UInt8(ascii: "m"), try argument(s, "--text")) }
        case "watch-keystroke":
            return .keystroke(keys: try v.string("keys").map { s throws(UsageError) in try argument(s, "--keys") }, command: v.string("command"))
        case "ignore-keystroke":
            return .acknowledged(UInt8(ascii: "L"), try v.string("keys").map { s throws(UsageError) in try argument(s, "--keys") })
        case "pause-progress": return simple("A")
        case "unpause-progress": return simple("a")
        case "report-error": return simple("!")
        case "deactivate": return simple("D")
        case "reactivate": return simple("r")
        case "quit": return .acknowledged(UInt8(ascii: "Q"), v.flag("retain-splash") ? [1] : [])
        default: return nil
        }
    }

    /// `text` as a request argument: at most 254 bytes (its length byte counts the NUL; the
    /// real client asserts on longer ones, and sends a broken request at 255).
    static func argument(_ text: String, _ option: String) throws(UsageError) -> [UInt8] {
        let bytes = Array(text.utf8)
        guard bytes.count <= PlymouthWire.maxArgumentBytes else {
            throw UsageError("\(option) is \(bytes.count) bytes long; Plymouth's protocol carries at most \(PlymouthWire.maxArgumentBytes)")
        }
        return bytes
    }
}
