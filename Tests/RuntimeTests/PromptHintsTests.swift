// SPDX-License-Identifier: MIT
// What the prompt says beside the bullets, in process: the tries an ask-password request gives,
// Caps Lock from a keyboard's light, the on-screen keyboard's layout as the tag; and the
// `keyboard` verb, whose key centres land on the keys the HUD hit-tests (a QEMU probe taps them).
import Board
import GoldenSupport
import HUD
import HUDProtocol
@testable import Runtime
import Testing

@Suite("The prompt's hints and the keyboard verb", .serialized)
struct PromptHintsTests {
    @Test("tries, Caps Lock and the layout reach the prompt; the keyboard verb's centres find their keys")
    func hintsAndKeys() throws {
        let rig = try ControlRig(width: 800, height: 480)
        let prompts = rig.runtime.prompts
        prompts.keyboardMode = .always
        prompts.keyboardLayout = .de
        prompts.consoleKeymap = "fr"
        let viewer = try rig.connect()
        viewer.send("keyboard\n")
        #expect(try rig.lines(viewer, count: 1).first == "error refused no on-screen keyboard is shown")
        let asker = try rig.connect()
        asker.send("ask-password \"Disk\" tries 2\n")
        #expect(try rig.run { rig.runtime.controller.entry != nil })
        var entry = try #require(rig.runtime.controller.entry)
        // The on-screen keyboard's layout, not the console's: it is what the taps type.
        #expect(entry.triesLeft == 2 && entry.layoutName == "de" && !entry.capsLock)
        rig.runtime.enqueue(InputMessage.capsLock(true))
        #expect(try rig.run { rig.runtime.controller.entry?.capsLock == true })

        viewer.send("keyboard\n")
        let reply = try #require(try rig.lines(viewer, count: 1).first)
        var words = reply.split(separator: " ").map(String.init)
        #expect(words.prefix(3) == ["ok", rig.runtime.outputs[0].name, "800x480"], "\(reply)")
        words.removeFirst(3)
        #expect(words.count == KeyboardLayout.de.base.joined().count + 5)
        var names: [String] = []
        for word in words {
            let parts = word.split(separator: ":")
            let f = parts[1].split(separator: ",").compactMap { Int32($0) }
            let codes = parts[2].split(separator: ",").compactMap { UInt32($0) }
            try #require(f.count == 4 && codes.count == 3)
            let key = try #require(rig.runtime.keyboardKey(output: rig.runtime.outputs[0].name, x: f[0] + f[2] / 2, y: f[1] + f[3] / 2))
            // What the key at that centre types on each level is what the reply says.
            for (level, code) in zip([KeyboardLayout.Level.base, .shift, .symbols], codes) {
                let typed = KeyboardState(layout: .de, level: level).text(of: key)
                #expect(typed.flatMap { $0.unicodeScalars.first?.value } ?? 0 == code, "\(word) on \(level)")
            }
            names.append(String(parts[0]))
        }
        #expect(names.filter { $0 == "char" }.count == KeyboardLayout.de.base.joined().count)
        #expect(Set(names.filter { $0 != "char" }) == ["shift", "backspace", "symbols", "space", "enter"])
        // ß and @: the first on the digit row's base level, the second on the symbols level only.
        #expect(words.contains { $0.hasSuffix(":223,63,0") } && words.contains { $0.hasSuffix(",64") })

        // The next prompt, with no tries said: none shown; no on-screen keyboard and a named
        // terminal: no tag (its keymap is not known), Caps Lock as the lights last said.
        asker.shutDown()
        #expect(try rig.run { rig.runtime.controller.entry == nil })
        prompts.keyboardMode = .never
        let tty = try PseudoTerminal()
        prompts.terminalPath = tty.path
        let second = try rig.connect()
        second.send("ask-password \"Disk\"\n")
        #expect(try rig.run { rig.runtime.controller.entry != nil })
        entry = try #require(rig.runtime.controller.entry)
        #expect(entry.triesLeft == nil && entry.layoutName == nil && entry.keyboard == nil && entry.capsLock)
        rig.runtime.enqueue(InputMessage.capsLock(false))
        #expect(try rig.run { rig.runtime.controller.entry?.capsLock == false })
        tty.type("x\r")
        #expect(try rig.lines(second, count: 1).first == "ok \"x\"")
        rig.runtime.quit(retain: false)
    }
}
