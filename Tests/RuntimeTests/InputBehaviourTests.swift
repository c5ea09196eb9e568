// SPDX-License-Identifier: MIT
// Touches and keys through the path the daemon takes: recorded evdev records (as a virtio tablet,
// a protocol-B touchscreen and a keyboard write them) encoded to bytes, decoded, fed to
// InputDecoder, mapped by InputHub.message onto the output and handed to the runtime, whose
// events are what subscribers and the Swift API get.
import Display
import HUD
import HUDProtocol
import Input
import Raster
@testable import Runtime
import Testing

@Suite("Kiosk input on the HUD")
struct InputBehaviourTests {
    final class Events { var all: [HUDEvent] = [] }
    /// One decoder per device, kept across reads as the hub keeps it.
    final class Decoders { var byName: [String: InputDecoder] = [:] }

    struct Rig {
        let clock = FakeClock(Fixtures.t0)
        let display: MemoryDisplay
        let poller: PollingPoller
        let runtime: HUDRuntime
        let events = Events()
        let decoders = Decoders()
        let tablet = "tablet", keyboard = "keyboard"
        static let capabilities = [
            "tablet": DeviceCapabilities(pointer: .absolute(x: AxisRange(minimum: 0, maximum: 32767), y: AxisRange(minimum: 0, maximum: 32767)), isKeyboard: false),
            "keyboard": DeviceCapabilities(pointer: .none, isKeyboard: true),
        ]

        init(rotation: Rotation = .r0, width: Int32 = 400, height: Int32 = 300, _ commands: [String]) throws {
            display = MemoryDisplay(width: width, height: height, rotation: rotation)
            poller = PollingPoller(clock)
            let clock = self.clock
            runtime = try HUDRuntime(display: display, resources: Fixtures.resources, poller: poller, clock: { clock.now }, console: .off)
            let box = events
            runtime.addEventListener { box.all += $0 }
            for c in commands { #expect(throws: Never.self) { try runtime.submit(c).get() } }
            try settle()
            box.all = []
        }

        func settle() throws {
            let blocked = poller.blocked
            var turns = 0
            while poller.blocked == blocked && turns < 600 { try runtime.step(); turns += 1 }
        }

        /// `records` as the device's bytes, through the daemon's decoding and mapping.
        func replay(_ records: [InputEvent], _ device: String) throws {
            let bytes = records.flatMap { $0.encoded() }
            var decoder = decoders.byName[device] ?? InputDecoder(capabilities: Self.capabilities[device]!)
            let actions = decoder.feed(bytes.withUnsafeBytes { InputEvent.decode($0) })
            decoders.byName[device] = decoder
            for a in actions {
                if let m = InputHub.message(for: a, on: display.outputs[0]) { runtime.enqueue(m) }
            }
            try settle()
        }

        /// The tablet's records for a touch at scanout pixel (x, y): down, then up unless `lift` is false.
        func tap(scanoutX x: Int32, y: Int32, down: Bool = true, lift: Bool = true) -> [InputEvent] {
            let mode = display.outputs[0].mode
            func v(_ p: Int32, _ n: Int32) -> Int32 { Int32(((Double(p) + 0.5) / Double(n) * 32767).rounded()) }
            var r = [ev(EventType.abs, EventCode.absX, v(x, mode.width)), ev(EventType.abs, EventCode.absY, v(y, mode.height)), syn]
            if down { r += [ev(EventType.key, EventCode.buttonLeft, 1), syn] }
            if lift { r += [ev(EventType.key, EventCode.buttonLeft, 0), syn] }
            return r
        }

        /// The centre of MB's button (or the bezel), in frame pixels, and where it is on the scanout.
        func centre(of part: KeyPath<HUDLayout, Rect?>) -> (frame: (Int32, Int32), scanout: (Int32, Int32), inner: (Int32, Int32)) {
            let o = display.outputs[0]
            let layout = runtime.scene.renderer(named: o.name)!.layout(for: runtime.controller.presentation())
            let r = layout[keyPath: part]!
            let f = (r.midX.floor, r.midY.floor)
            let s = o.rotation.destinationPoint(x: f.0, y: f.1, sourceWidth: o.frameWidth, sourceHeight: o.frameHeight)
            return (f, (s.x, s.y), (r.minX.floor + 4, r.midY.floor))
        }

        var kinds: [HUDEvent.Kind] { events.all.map(\.kind) }

        func key(_ code: UInt16) -> [InputEvent] {
            [ev(EventType.key, code, 1), syn, ev(EventType.key, code, 0), syn]
        }
    }

    static let mbWithButton = ["set mode determinate", "set button Cancel", "progress 0.3 Copying", "show"]

    @Test("a tap on MB's button highlights it while held and presses it once on release", arguments: Rotation.allCases)
    func buttonTap(rotation: Rotation) throws {
        let rig = try Rig(rotation: rotation, Self.mbWithButton)
        let (frame, scanout, inner) = rig.centre(of: \.button)
        let before = rig.runtime.scene.pixels(output: 0)[inner.0, inner.1]
        try rig.replay(rig.tap(scanoutX: scanout.0, y: scanout.1, lift: false), rig.tablet)
        #expect(rig.runtime.controller.presentation().buttonHighlighted)
        #expect(rig.runtime.scene.pixels(output: 0)[inner.0, inner.1] != before, "the highlight is drawn")
        #expect(rig.kinds == [.touch, .touchInside])
        #expect(rig.events.all[0].detail("x") == "\(frame.0)" && rig.events.all[0].detail("y") == "\(frame.1)")
        try rig.replay([ev(EventType.key, EventCode.buttonLeft, 0), syn], rig.tablet)
        #expect(rig.kinds == [.touch, .touchInside, .buttonPressed])
        #expect(rig.events.all.last?.status == "Cancel")
        #expect(!rig.runtime.controller.presentation().buttonHighlighted)
        #expect(rig.runtime.scene.pixels(output: 0)[inner.0, inner.1] == before, "the highlight is gone")
    }

    @Test("a touch that slides off the button before lifting presses nothing")
    func slideOff() throws {
        let rig = try Rig(Self.mbWithButton)
        let (_, s, _) = rig.centre(of: \.button)
        try rig.replay(rig.tap(scanoutX: s.0, y: s.1, lift: false), rig.tablet)
        try rig.replay(rig.tap(scanoutX: 5, y: 5, down: false, lift: true), rig.tablet)
        #expect(rig.kinds == [.touch, .touchInside])
        #expect(!rig.runtime.controller.presentation().buttonHighlighted)
    }

    @Test("a tap outside the HUD is only a touch; tap-dismiss outside then dismisses it")
    func outside() throws {
        let rig = try Rig(Self.mbWithButton)
        try rig.replay(rig.tap(scanoutX: 3, y: 3), rig.tablet)
        #expect(rig.kinds == [.touch])
        #expect(rig.runtime.controller.isVisible)
        #expect(throws: Never.self) { try rig.runtime.submit("set tap-dismiss outside").get() }
        let (_, bezel, _) = rig.centre(of: \.bezelRect)
        try rig.replay(rig.tap(scanoutX: bezel.0, y: bezel.1 - 40), rig.tablet)  // on the HUD, above the button: no dismiss
        #expect(rig.runtime.controller.isVisible)
        try rig.replay(rig.tap(scanoutX: 3, y: 3), rig.tablet)
        #expect(!rig.runtime.controller.isVisible)
        #expect(!rig.kinds.contains(.buttonPressed))
    }

    @Test("SV: a touch on the HUD is touch then touch-inside with the status; a hidden HUD reports nothing")
    func svTouches() throws {
        let rig = try Rig(["progress 0.5 Loading"])
        let (_, s, _) = rig.centre(of: \.bezelRect)
        try rig.replay(rig.tap(scanoutX: s.0, y: s.1), rig.tablet)
        #expect(rig.kinds == [.touch, .touchInside])
        #expect(rig.events.all.allSatisfy { $0.status == "Loading" && $0.detail("output") == "memory" })
        #expect(throws: Never.self) { try rig.runtime.submit("dismiss").get() }
        try rig.settle()
        rig.events.all = []
        try rig.replay(rig.tap(scanoutX: s.0, y: s.1), rig.tablet)
        #expect(rig.kinds.isEmpty)
    }

    @Test("Enter and Space press the button (highlighted while held); Escape is a cancel event")
    func keys() throws {
        let rig = try Rig(Self.mbWithButton)
        try rig.replay([ev(EventType.key, EventCode.keyEnter, 1), syn], rig.keyboard)
        #expect(rig.runtime.controller.presentation().buttonHighlighted)
        #expect(rig.kinds.isEmpty, "pressed on release")
        try rig.replay([ev(EventType.key, EventCode.keyEnter, 2), syn, ev(EventType.key, EventCode.keyEnter, 0), syn], rig.keyboard)
        try rig.replay(rig.key(EventCode.keySpace), rig.keyboard)
        try rig.replay(rig.key(EventCode.keyEsc), rig.keyboard)
        try rig.replay(rig.key(EventCode.keyA), rig.keyboard)
        #expect(rig.kinds == [.buttonPressed, .buttonPressed, .cancel], "autorepeat presses nothing; no key events unwatched")
        #expect(!rig.runtime.controller.presentation().buttonHighlighted)
    }

    @Test("while a client watches keys every press is a key event with its name and text")
    func keyWatch() throws {
        let rig = try Rig(["show"])
        let watch = rig.runtime.watchKeys()
        try rig.replay(rig.key(EventCode.keyA) + rig.key(EventCode.keyEnter) + rig.key(59), rig.keyboard)
        #expect(rig.events.all.map { $0.detail("key") } == ["a", "enter", "f1"])
        #expect(rig.events.all.map { $0.detail("text") } == ["a", "\n", nil])
        watch.end()
        rig.events.all = []
        try rig.replay(rig.key(EventCode.keyA), rig.keyboard)
        #expect(rig.kinds.isEmpty)
    }

    @Test("key watches are tokens: each counts until it is ended or dropped, and ending twice counts once")
    func keyWatchTokens() throws {
        let rig = try Rig(["show"])
        var first: KeyWatch? = rig.runtime.watchKeys()
        let second = rig.runtime.watchKeys()
        #expect(rig.runtime.isWatchingKeys)
        second.end()
        second.end()
        #expect(rig.runtime.isWatchingKeys, "the first still watches")
        first = nil
        #expect(!rig.runtime.isWatchingKeys, "a dropped token ends its watch")
        _ = first
    }

    @Test("without a button shown, Enter does nothing and a touch on the HUD presses nothing")
    func noButton() throws {
        let rig = try Rig(["set mode determinate", "progress 0.3", "show"])
        try rig.replay(rig.key(EventCode.keyEnter), rig.keyboard)
        let (_, s, _) = rig.centre(of: \.bezelRect)
        try rig.replay(rig.tap(scanoutX: s.0, y: s.1), rig.tablet)
        #expect(rig.kinds == [.touch, .touchInside])
    }

    @Test("input messages are applied in order with the requests queued in the same turn")
    func orderedWithRequests() throws {
        for tapFirst in [true, false] {
            let rig = try Rig(Self.mbWithButton)
            let (frame, _, _) = rig.centre(of: \.button)
            let down = InputMessage.pointer(.down, output: "memory", x: frame.0, y: frame.1)
            let up = InputMessage.pointer(.up, output: "memory", x: frame.0, y: frame.1)
            if tapFirst { rig.runtime.enqueue(down); rig.runtime.enqueue(up) }
            rig.runtime.enqueue(.hud(.set(.button(""))))
            if !tapFirst { rig.runtime.enqueue(down); rig.runtime.enqueue(up) }
            try rig.settle()
            #expect(rig.kinds.contains(.buttonPressed) == tapFirst, "tap \(tapFirst ? "before" : "after") the button goes: \(rig.kinds)")
        }
    }

    @Test("event lines carry the details and read back")
    func eventLines() {
        let e = HUDEvent(time: .seconds(1.5), kind: .touch, status: "Hi there", details: [.init("x", "10"), .init("y", "20"), .init("output", "HDMI-A-1")])
        #expect(e.line == "event 1.500 touch \"Hi there\" x 10 y 20 output HDMI-A-1")
        #expect(HUDEvent(line: e.line) == e)
        let k = HUDEvent(time: .zero, kind: .key, status: nil, details: [.init("key", "space"), .init("text", " ")])
        #expect(k.line == "event 0.000 key key space text \" \"")
        #expect(HUDEvent(line: k.line) == k)
    }
}

private func ev(_ type: UInt16, _ code: UInt16, _ value: Int32) -> InputEvent { InputEvent(type: type, code: code, value: value) }
private let syn = ev(EventType.syn, EventCode.synReport, 0)

extension HUDLayout {
    /// The bezel as an optional, for `centre(of:)`.
    var bezelRect: Rect? { bezel }
}
