// SPDX-License-Identifier: MIT
// The on-screen keyboard in process: Plymouth's password request on an abstract name of our own,
// answered by taps on a virtio tablet's records (encoded to bytes, decoded, mapped by InputHub onto
// the output through its rotation, handed to the runtime, as InputBehaviourTests feeds kiosk
// input), with no terminal at all. What the asker gets is checked byte for byte; that the taps post
// no touch events and no log line carries a typed character; and when the keyboard shows
// (`on-screen-keyboard` auto, never, always) or the request is refused at once.
#if canImport(Glibc)
import Glibc
#endif
import Board
import Display
import GoldenSupport
import HUD
import HUDProtocol
import Input
import Raster
@testable import Runtime
import Testing

@Suite("On-screen keyboard", .serialized)
struct OnScreenKeyboardTests {
    final class Events { var all: [HUDEvent] = [] }

    let rig: ControlRig
    let server: PlymouthServer
    let events = Events()
    let name = "@splashhud-test-osk-\(UInt32.random(in: 0...UInt32.max))"
    private var decoder = Box(InputDecoder(capabilities: DeviceCapabilities(
        pointer: .absolute(x: AxisRange(minimum: 0, maximum: 32767), y: AxisRange(minimum: 0, maximum: 32767)), isKeyboard: false)))

    final class Box<T> { var value: T; init(_ v: T) { value = v } }

    init() throws { try self.init(rotation: .r0) }

    init(rotation: Rotation) throws {
        rig = try ControlRig(width: 800, height: 480) { _ in MemoryDisplay(width: 800, height: 480, rotation: rotation) }
        server = try PlymouthServer(runtime: rig.runtime, listener: try PlymouthServer.bind(name), address: name)
        let box = events
        rig.runtime.addEventListener { box.all += $0 }
    }

    func replies(_ c: RawClient, count: Int, seconds: Double = 3) throws -> [UInt8] {
        var got: [UInt8] = []
        try rig.run(for: seconds) { got += c.take(1) ?? []; return got.count >= count }
        return got
    }

    func ask(_ prompt: String) throws -> RawClient {
        let c = try RawClient(path: name)
        c.sendBytes(Array("*\u{02}".utf8) + [UInt8(prompt.utf8.count + 1)] + Array(prompt.utf8) + [0])
        return c
    }

    var output: DisplayOutput { rig.runtime.outputs[0] }

    /// The scanout pixel at the centre of `key` as the HUD shows it now.
    func scanout(of key: KeyboardKey) throws -> (Int32, Int32) {
        let o = output
        let layout = rig.runtime.scene.renderer(named: o.name)!.layout(for: rig.runtime.controller.presentation())
        let k = try #require(layout.entry?.keyboard?.keys.first { $0.key == key })
        let s = o.rotation.destinationPoint(x: k.frame.midX.floor, y: k.frame.midY.floor, sourceWidth: o.frameWidth, sourceHeight: o.frameHeight)
        return (s.x, s.y)
    }

    /// The tablet's records at scanout pixel (x, y), through the daemon's decoding and mapping.
    func replay(x: Int32, y: Int32, down: Bool, up: Bool) throws {
        let mode = output.mode
        func v(_ p: Int32, _ n: Int32) -> Int32 { Int32(((Double(p) + 0.5) / Double(n) * 32767).rounded()) }
        var r = [ev(EventType.abs, EventCode.absX, v(x, mode.width)), ev(EventType.abs, EventCode.absY, v(y, mode.height)), syn]
        if down { r += [ev(EventType.key, EventCode.buttonLeft, 1), syn] }
        if up { r += [ev(EventType.key, EventCode.buttonLeft, 0), syn] }
        let bytes = r.flatMap { $0.encoded() }
        let actions = decoder.value.feed(bytes.withUnsafeBytes { InputEvent.decode($0) })
        for a in actions { if let m = InputHub.message(for: a, on: output) { rig.runtime.enqueue(m) } }
        try rig.run(for: 0.05)
    }

    func tap(_ key: KeyboardKey) throws {
        let (x, y) = try scanout(of: key)
        try replay(x: x, y: y, down: true, up: true)
    }

    var keyboard: KeyboardState? { rig.runtime.controller.entry?.keyboard }
    var typed: Int { rig.runtime.controller.entry?.characters ?? -1 }

    @Test("taps type a passphrase in the de layout on a turned panel; Plymouth gets it, no event or log line does",
          arguments: [Rotation.r0, .r90])
    func tappedPassphrase(rotation: Rotation) throws {
        server.close()
        let t = try OnScreenKeyboardTests(rotation: rotation)
        defer { t.server.close() }
        t.rig.runtime.prompts.keyboardLayout = .de
        t.rig.runtime.prompts.devices = InputPresence(keyboard: false, pointer: true)
        let c = try t.ask("Please unlock sda")
        #expect(try t.rig.run { t.keyboard != nil }, "no keyboard on the prompt")
        #expect(t.keyboard?.layout.name == "de" && t.rig.runtime.controller.entry?.isSecure == true)
        t.events.all = []
        // Shift, z: "Z", back to base; ü; symbols: '#', then backspace takes it; ABC; space; y.
        try t.tap(.shift)
        #expect(t.keyboard?.level == .shift)
        try t.tap(.character(row: 1, column: 5))
        #expect(t.typed == 1 && t.keyboard?.level == .base)
        try t.tap(.character(row: 1, column: 10))
        try t.tap(.symbols)
        try t.tap(.character(row: 1, column: 0))
        #expect(t.typed == 3)
        try t.tap(.backspace)
        #expect(t.typed == 2)
        try t.tap(.symbols)
        try t.tap(.space)
        try t.tap(.character(row: 3, column: 0))
        #expect(t.typed == 4)
        // A key held is drawn pressed; sliding off lets it go without typing.
        let (x, y) = try t.scanout(of: .character(row: 2, column: 0))
        try t.replay(x: x, y: y, down: true, up: false)
        #expect(t.keyboard?.pressed == .character(row: 2, column: 0))
        // Meanwhile no picture leaves: a snapshot would show the key held.
        let viewer = try t.rig.connect()
        viewer.send("snapshot\n")
        let refused = try t.rig.lines(viewer, count: 1)
        #expect(refused.first?.hasPrefix("error refused the on-screen keyboard shows a key held") == true, "\(refused)")
        let away = try t.scanout(of: .enter)
        try t.replay(x: away.0, y: away.1, down: false, up: true)
        #expect(t.keyboard?.pressed == nil && t.typed == 4)
        // At its first level with nothing held the keyboard says no more than the bullets: a
        // snapshot may leave; on the shift level it may not (the next character's case).
        viewer.send("snapshot\n")
        #expect(try t.rig.run { viewer.readLines().contains { $0.hasPrefix("ok ") } }, "no snapshot at the first level")
        try t.tap(.shift)
        let shifted = try t.rig.connect()
        shifted.send("snapshot\n")
        #expect(try t.rig.lines(shifted, count: 1).first?.hasPrefix("error refused") == true)
        try t.tap(.shift)
        try t.tap(.enter)
        #expect(try t.replies(c, count: 5 + 5) == [0x02, 5, 0, 0, 0] + Array("Zü y".utf8))
        #expect(try t.rig.run { t.rig.runtime.controller.entry == nil })
        // The taps were the keyboard's alone: no touch, touch-inside or key event, no tap in the log.
        #expect(t.events.all.allSatisfy { ![.touch, .touchInside, .key].contains($0.kind) }, "\(t.events.all.map(\.kind))")
        #expect(!t.rig.log.lines.contains { $0.text.contains("Zü") || $0.text.contains("ü") || $0.text.contains("shift") })
        t.rig.runtime.quit(retain: false)
    }

    @Test("auto: shown without a keyboard and with a touchscreen, not with a keyboard; refused with neither")
    func auto() throws {
        defer { server.close() }
        let prompts = rig.runtime.prompts
        // Neither: NO_ANSWER at once, nothing on the HUD.
        prompts.devices = InputPresence(keyboard: false, pointer: false)
        let refused = try ask("Disk")
        #expect(try replies(refused, count: 1) == [0x05])
        #expect(rig.runtime.controller.entry == nil)
        #expect(rig.log.contains("neither a keyboard nor a touchscreen"))
        // A keyboard (its keys come from a terminal: here a pseudo-terminal): no on-screen one.
        let tty = try PseudoTerminal()
        prompts.terminalPath = tty.path
        prompts.devices = InputPresence(keyboard: true, pointer: true)
        let typedOn = try ask("Disk")
        #expect(try rig.run { rig.runtime.controller.entry != nil })
        #expect(keyboard == nil)
        // The keyboard goes away while the prompt is up: the on-screen one comes.
        prompts.devices = InputPresence(keyboard: false, pointer: true)
        #expect(try rig.run { keyboard != nil })
        tty.type("ab\r")
        #expect(try replies(typedOn, count: 7) == [0x02, 2, 0, 0, 0] + Array("ab".utf8))
        // Devices not known (no input read): as before, the terminal's keys only.
        prompts.devices = nil
        let unknown = try ask("Disk")
        #expect(try rig.run { rig.runtime.controller.entry != nil })
        #expect(keyboard == nil)
        tty.type("\r")
        #expect(try replies(unknown, count: 5) == [0x02, 0, 0, 0, 0])
        rig.runtime.quit(retain: false)
    }

    @Test("the profile's [input] keys reach the prompts through the input hub, and what devices it opened")
    func profileThroughTheHub() throws {
        defer { server.close() }
        let always = try BoardProfile.parse("[input]\ndevices = none\non-screen-keyboard = always\nkeymap = fr", file: "t.conf")
        let hub = InputHub(runtime: rig.runtime, configuration: InputConfiguration(profile: always))
        #expect(rig.runtime.prompts.keyboardMode == .always && rig.runtime.prompts.keyboardLayout.name == "fr")
        #expect(rig.runtime.prompts.devices == nil, "no devices read: none known")
        hub.close()
        // Devices named that are not there: the hub knows there is neither keyboard nor pointer,
        // so under `auto` a prompt is refused at once.
        let missing = try BoardProfile.parse("[input]\ndevices = /nonexistent/event9", file: "t.conf")
        let second = InputHub(runtime: rig.runtime, configuration: InputConfiguration(profile: missing))
        defer { second.close() }
        #expect(rig.runtime.prompts.keyboardMode == .auto)
        #expect(rig.runtime.prompts.devices == InputPresence(keyboard: false, pointer: false))
        #expect(try replies(try ask("Disk"), count: 1) == [0x05])
        #expect(rig.log.contains("neither a keyboard nor a touchscreen"))
        rig.runtime.quit(retain: false)
    }

    @Test("never: refused without a keyboard; always: shown before any touchscreen, with no terminal")
    func neverAndAlways() throws {
        defer { server.close() }
        let prompts = rig.runtime.prompts
        prompts.keyboardMode = .never
        prompts.devices = InputPresence(keyboard: false, pointer: true)
        #expect(try replies(try ask("Disk"), count: 1) == [0x05])
        // No VT, no terminal: only the on-screen keyboard can answer (Plymouth's pid file says so).
        #expect(!rig.runtime.canReadPromptKeys)
        prompts.keyboardMode = .always
        prompts.devices = InputPresence(keyboard: false, pointer: false)
        #expect(rig.runtime.canReadPromptKeys)
        let c = try ask("Disk")
        #expect(try rig.run { keyboard != nil }, "always shows it, touchscreen or not")
        try tap(.character(row: 0, column: 0))
        try tap(.enter)
        #expect(try replies(c, count: 6) == [0x02, 1, 0, 0, 0, UInt8(ascii: "1")])
        rig.runtime.quit(retain: false)
    }
}

private func ev(_ type: UInt16, _ code: UInt16, _ value: Int32) -> InputEvent { InputEvent(type: type, code: code, value: value) }
private let syn = ev(EventType.syn, EventCode.synReport, 0)
