// SPDX-License-Identifier: MIT
// Recorded evdev streams replayed through the decoding path the daemon uses: the bytes as read(2)
// returns them, decoded (in the 64-bit, 32-bit and big-endian layouts) and fed to InputDecoder.
// The streams follow what the kernel drivers emit: virtio-input's tablet (QEMU's virtio-tablet:
// ABS_X/ABS_Y 0...32767 and BTN_LEFT), a protocol-B touchscreen (goodix, edt-ft5x06: slots,
// tracking ids, BTN_TOUCH and the single-touch emulation ABS_X/ABS_Y), a mouse and a keyboard.
import Raster
import Testing

@testable import Input

private func ev(_ type: UInt16, _ code: UInt16, _ value: Int32) -> InputEvent { InputEvent(type: type, code: code, value: value) }
private let syn = ev(EventType.syn, EventCode.synReport, 0)
private let synDropped = ev(EventType.syn, EventCode.synDropped, 0)
private let tablet = DeviceCapabilities(pointer: .absolute(x: AxisRange(minimum: 0, maximum: 32767), y: AxisRange(minimum: 0, maximum: 32767)), isKeyboard: false)
private let touchscreen = DeviceCapabilities(pointer: .multitouch(x: AxisRange(minimum: 0, maximum: 799), y: AxisRange(minimum: 0, maximum: 479)), isKeyboard: false, isDirect: true)
private let keyboard = DeviceCapabilities(pointer: .none, isKeyboard: true)

/// A recording: the records' bytes as the kernel writes them in `layout`, read back and replayed.
private func replay(_ events: [InputEvent], _ caps: DeviceCapabilities, layout: InputEvent.Layout = .native) -> [InputAction] {
    let bytes = events.flatMap { $0.encoded(layout: layout) }
    let decoded = bytes.withUnsafeBytes { InputEvent.decode($0, layout: layout) }
    var decoder = InputDecoder(capabilities: caps)
    return decoder.feed(decoded)
}

@Suite("evdev decoding")
struct InputDecoderTests {
    /// QEMU's virtio-tablet, a tap at the centre: the position report, then BTN_LEFT down and up.
    static let tabletTap: [InputEvent] = [
        ev(EventType.abs, EventCode.absX, 16384), ev(EventType.abs, EventCode.absY, 8192), syn,
        ev(EventType.key, EventCode.buttonLeft, 1), syn,
        ev(EventType.key, EventCode.buttonLeft, 0), syn,
    ]

    @Test("records decode in every layout a board reads them in", arguments: [
        InputEvent.Layout(wordSize: 8, bigEndian: false), InputEvent.Layout(wordSize: 4, bigEndian: false),
        InputEvent.Layout(wordSize: 4, bigEndian: true), InputEvent.Layout(wordSize: 8, bigEndian: true),
    ])
    func layouts(layout: InputEvent.Layout) {
        let e = InputEvent(seconds: 1_700_000_000, microseconds: 999_999, type: EventType.abs, code: EventCode.absMTTrackingID, value: -1)
        let bytes = e.encoded(layout: layout)
        #expect(bytes.count == layout.size)
        #expect(bytes.withUnsafeBytes { InputEvent.decode($0, layout: layout) } == [e])
        // A short tail (never returned by the kernel) is ignored, not misread.
        #expect((bytes + [1, 2, 3]).withUnsafeBytes { InputEvent.decode($0, layout: layout) } == [e])
        #expect(replay(Self.tabletTap, tablet, layout: layout).count == 2)
    }

    @Test("the native layout is struct input_event's: 24 bytes on 64-bit machines, 16 on 32-bit ones")
    func nativeSize() {
        #expect(InputEvent.Layout.native.size == (MemoryLayout<Int>.size == 8 ? 24 : 16))
    }

    @Test("a tablet tap is one down and one up at its position")
    func tabletTap() {
        let actions = replay(Self.tabletTap, tablet)
        let p = NormalizedPoint(x: 16384.0 / 32767, y: 8192.0 / 32767)
        #expect(actions == [.pointerDown(p), .pointerUp(p)])
    }

    @Test("protocol B: the first finger is the pointer; a second finger neither moves it nor taps")
    func multitouch() {
        let a = ev(EventType.abs, EventCode.absMTSlot, 0), b = ev(EventType.abs, EventCode.absMTSlot, 1)
        func id(_ v: Int32) -> InputEvent { ev(EventType.abs, EventCode.absMTTrackingID, v) }
        func x(_ v: Int32) -> InputEvent { ev(EventType.abs, EventCode.absMTPositionX, v) }
        func y(_ v: Int32) -> InputEvent { ev(EventType.abs, EventCode.absMTPositionY, v) }
        let touch = ev(EventType.key, EventCode.buttonTouch, 1), release = ev(EventType.key, EventCode.buttonTouch, 0)
        let stream: [InputEvent] = [
            a, id(40), x(399), y(0), touch, ev(EventType.abs, EventCode.absX, 399), syn,  // finger 1 down
            b, id(41), x(10), y(10), syn,                                                 // finger 2 down: ignored
            a, x(799), syn,                                                               // finger 1 moves
            b, x(20), syn,                                                                // finger 2 moves: nothing
            a, id(-1), syn,                                                               // finger 1 lifts: up
            b, x(30), syn,                                                                // finger 2 still down: not a new touch
            b, id(-1), release, syn,
            a, id(42), x(0), y(479), touch, syn, a, id(-1), release, syn,                 // a new tap
        ]
        let actions = replay(stream, touchscreen)
        #expect(actions == [
            .pointerDown(NormalizedPoint(x: 399.0 / 799, y: 0)),
            .pointerMove(NormalizedPoint(x: 1, y: 0)),
            .pointerUp(NormalizedPoint(x: 1, y: 0)),
            .pointerDown(NormalizedPoint(x: 0, y: 1)),
            .pointerUp(NormalizedPoint(x: 0, y: 1)),
        ])
    }

    @Test("SYN_DROPPED cancels the contact in progress: a lost lift never becomes a tap")
    func dropped() {
        let stream: [InputEvent] = [
            ev(EventType.abs, EventCode.absX, 100), ev(EventType.abs, EventCode.absY, 100), ev(EventType.key, EventCode.buttonLeft, 1), syn,
            synDropped, ev(EventType.key, EventCode.buttonLeft, 0), ev(EventType.abs, EventCode.absX, 30000), syn,  // discarded
            ev(EventType.abs, EventCode.absX, 200), syn,                   // a move with nothing down
            ev(EventType.key, EventCode.buttonLeft, 1), syn, ev(EventType.key, EventCode.buttonLeft, 0), syn,
        ]
        let actions = replay(stream, tablet)
        let p = NormalizedPoint(x: 200.0 / 32767, y: 100.0 / 32767)
        #expect(actions == [.pointerDown(NormalizedPoint(x: 100.0 / 32767, y: 100.0 / 32767)), .pointerCancel, .pointerDown(p), .pointerUp(p)])
    }

    @Test("nothing is acted on before the report's SYN_REPORT")
    func waitsForReport() {
        var decoder = InputDecoder(capabilities: tablet)
        #expect(decoder.feed(ev(EventType.key, EventCode.buttonLeft, 1)).isEmpty)
        #expect(decoder.feed(ev(EventType.abs, EventCode.absX, 0)).isEmpty)
        #expect(decoder.feed(ev(EventType.abs, EventCode.absY, 32767)).isEmpty)
        #expect(decoder.feed(syn) == [.pointerDown(NormalizedPoint(x: 0, y: 1))])
    }

    @Test("a mouse moves by counts across its span and clicks with BTN_LEFT")
    func mouse() {
        var decoder = InputDecoder(capabilities: DeviceCapabilities(pointer: .relative, isKeyboard: false))
        decoder.relativeSpan = (100, 50)
        let actions = decoder.feed([
            ev(EventType.rel, EventCode.relX, 25), ev(EventType.rel, EventCode.relY, -100), syn,  // clamped at the top
            ev(EventType.key, EventCode.buttonLeft, 1), syn, ev(EventType.key, EventCode.buttonLeft, 0), syn,
        ])
        #expect(actions == [.pointerDown(NormalizedPoint(x: 0.75, y: 0)), .pointerUp(NormalizedPoint(x: 0.75, y: 0))])
    }

    @Test("keys: press, autorepeat and release in order; buttons are not keys")
    func keys() {
        let actions = replay([
            ev(EventType.key, EventCode.keyEnter, 1), syn, ev(EventType.key, EventCode.keyEnter, 2), syn,
            ev(EventType.key, EventCode.keyEnter, 0), ev(EventType.key, EventCode.buttonLeft, 1), syn,
        ], keyboard)
        #expect(actions == [
            .key(code: EventCode.keyEnter, pressed: true, repeated: false),
            .key(code: EventCode.keyEnter, pressed: true, repeated: true),
            .key(code: EventCode.keyEnter, pressed: false, repeated: false),
        ])
        #expect(KeyName(code: EventCode.keyEnter).name == "enter")
        #expect(KeyName(code: 30).name == "a" && KeyName(code: 30).text == "a")
        #expect(KeyName(code: 11).name == "0" && KeyName(code: 2).name == "1")
        // With Ctrl held a letter types its control character, as a terminal sends it (Ctrl+C:
        // systemd-fsckd's cancel); other keys type nothing then.
        #expect(KeyName(code: 46).controlText == "\u{03}" && KeyName(code: 30).controlText == "\u{01}" && KeyName(code: 44).controlText == "\u{1A}")
        #expect(KeyName(code: 2).controlText == nil && KeyName(code: EventCode.keyEnter).controlText == nil && KeyName(code: 59).controlText == nil)
        #expect(KeyName(code: 88).name == "f12" && KeyName(code: 88).text == nil)
        #expect(KeyName(code: 500).name == "key-500")
    }

    @Test("a keyboard's Caps Lock light (EV_LED, as the VT's keyboard handler sets it) is reported; a pointer's is not")
    func capsLockLight() {
        let led: UInt16 = 0x11
        let on = [ev(led, EventCode.ledCapsLock, 1), syn, ev(led, 0 /* LED_NUML */, 1), syn, ev(led, EventCode.ledCapsLock, 0), syn]
        #expect(replay(on, keyboard) == [.capsLock(true), .capsLock(false)])
        #expect(replay(on, tablet).isEmpty)
    }
}

@Suite("Surface to frame pixels")
struct SurfaceMappingTests {
    @Test("each rotation turns a scanout point back into the frame, as the frame is turned out")
    func rotations() {
        for rotation in Rotation.allCases {
            let m = SurfaceMapping(scanoutWidth: 1280, scanoutHeight: 800, rotation: rotation)
            let (fw, fh) = m.frameSize
            // A frame pixel, sent out through the rotation, is found back from its scanout position.
            for (x, y) in [(Int32(0), Int32(0)), (fw - 1, 0), (10, fh - 1), (fw / 3, fh / 2)] {
                let s = rotation.destinationPoint(x: x, y: y, sourceWidth: fw, sourceHeight: fh)
                let p = NormalizedPoint(x: (Double(s.x) + 0.5) / 1280, y: (Double(s.y) + 0.5) / 800)
                let back = m.framePixel(p)
                #expect(back.x == x && back.y == y, "rotation \(rotation): frame (\(x),\(y))")
            }
        }
    }

    @Test("calibration is applied before the pixel; out-of-screen points are clamped")
    func calibration() {
        let swap = Calibration(matrix: [0, 1, 0, 1, 0, 0])!
        let m = SurfaceMapping(scanoutWidth: 100, scanoutHeight: 100, rotation: .r0, calibration: swap)
        #expect(m.framePixel(NormalizedPoint(x: 0.2, y: 0.7)) == (70, 20))
        let mirror = SurfaceMapping(scanoutWidth: 100, scanoutHeight: 50, rotation: .r0, calibration: Calibration(matrix: [-1, 0, 1, 0, 1, 0])!)
        #expect(mirror.framePixel(NormalizedPoint(x: 0, y: 2)) == (99, 49))
        #expect(Calibration(matrix: [1, 0, 0, 0, .nan, 0]) == nil)
        #expect(Calibration(matrix: [1, 0, 0]) == nil)
    }
}
