// SPDX-License-Identifier: MIT
// evdev records turned into what the HUD acts on: one pointer (the first finger of a multi-touch
// screen, a single-touch screen, a tablet or a mouse) going down, moving and up in coordinates
// normalised to the device's surface, and key presses.
//
// Records are taken a report at a time: nothing is acted on before the SYN_REPORT that closes the
// report (the kernel's contract: the axes and buttons of one report belong together). Multi-touch
// follows protocol B (slots and tracking ids); only the first contact down is the pointer, later
// fingers are ignored until it lifts. SYN_DROPPED (the kernel's buffer overflowed) discards every
// record up to the next SYN_REPORT and cancels a contact in progress, so a lost lift can never
// turn into a tap; the next touch starts clean (it always brings a new tracking id or BTN_TOUCH 1).

/// A position on a device's surface, 0...1 across and down (before calibration and rotation).
public struct NormalizedPoint: Equatable, Sendable {
    public var x: Double
    public var y: Double
    public init(x: Double, y: Double) { self.x = x; self.y = y }
}

/// What a device did, in order.
public enum InputAction: Equatable, Sendable {
    case pointerDown(NormalizedPoint)
    case pointerMove(NormalizedPoint)
    case pointerUp(NormalizedPoint)
    /// The contact's end was lost (SYN_DROPPED): forget it, no release happened.
    case pointerCancel
    /// A keyboard key: `repeated` is the kernel's autorepeat (value 2).
    case key(code: UInt16, pressed: Bool, repeated: Bool)
    /// The keyboard's Caps Lock light went on or off (the VT's lock state, which the VT sets).
    case capsLock(Bool)
}

/// An absolute axis's range (`struct input_absinfo`'s minimum and maximum).
public struct AxisRange: Equatable, Sendable {
    public var minimum: Int32
    public var maximum: Int32
    public init(minimum: Int32, maximum: Int32) { self.minimum = minimum; self.maximum = maximum }

    /// `value` as 0...1 of the range (clamped; a degenerate range is 0).
    public func normalized(_ value: Int32) -> Double {
        guard maximum > minimum else { return 0 }
        let v = min(max(Int64(value), Int64(minimum)), Int64(maximum))
        return Double(v - Int64(minimum)) / Double(Int64(maximum) - Int64(minimum))
    }
}

/// What a device can do, read from its capability bits (EvdevDevice) or given by a test.
public struct DeviceCapabilities: Equatable, Sendable {
    public enum Pointer: Equatable, Sendable {
        case none
        /// Multi-touch protocol B (ABS_MT_SLOT and ABS_MT_POSITION_X/Y).
        case multitouch(x: AxisRange, y: AxisRange)
        /// ABS_X/ABS_Y with BTN_TOUCH or BTN_LEFT: a single-touch screen or a tablet.
        case absolute(x: AxisRange, y: AxisRange)
        /// REL_X/REL_Y with BTN_LEFT: a mouse.
        case relative
    }
    public var pointer: Pointer
    /// Has keyboard keys (Enter, Esc, Space or letters), not only buttons or a power key.
    public var isKeyboard: Bool
    /// INPUT_PROP_DIRECT: its surface is a screen's (a touchscreen).
    public var isDirect: Bool

    public init(pointer: Pointer, isKeyboard: Bool, isDirect: Bool = false) {
        self.pointer = pointer; self.isKeyboard = isKeyboard; self.isDirect = isDirect
    }

    /// Nothing the HUD uses: a power button, a lid switch, a sensor.
    public var isUseful: Bool { pointer != .none || isKeyboard }
}

public struct InputDecoder {
    public let capabilities: DeviceCapabilities
    /// How far a mouse moves across the surface, in counts (REL units): the pixels of the output
    /// it moves on, set by whoever maps it.
    public var relativeSpan = (width: 1024.0, height: 768.0)

    // The report being read.
    private var dropping = false
    private var keys: [InputAction] = []
    // Single pointer: down now, and as last reported.
    private var down = false, reportedDown = false
    private var position = NormalizedPoint(x: 0.5, y: 0.5)
    private var reportedPosition: NormalizedPoint?
    private var absX: Int32?, absY: Int32?
    // Protocol B: the current slot, each slot's tracking id and position, and the pointer's slot.
    private var slot: Int32 = 0
    private var contacts: [Int32: (id: Int32, x: Int32?, y: Int32?)] = [:]
    private var primary: Int32?
    /// Tracking ids of fingers that were down beside the pointer when it lifted: not a new touch.
    private var ignored: Set<Int32> = []

    public init(capabilities: DeviceCapabilities) { self.capabilities = capabilities }

    /// Takes one record; returns what the report it closes did (empty until a SYN_REPORT).
    public mutating func feed(_ e: InputEvent) -> [InputAction] {
        if e.type == EventType.syn {
            if e.code == EventCode.synDropped { dropping = true; return [] }
            guard e.code == EventCode.synReport else { return [] }
            if dropping { return resynchronise() }
            return report()
        }
        guard !dropping else { return [] }
        switch (capabilities.pointer, e.type) {
        case (_, EventType.key) where isKeyboardKey(e.code):
            if capabilities.isKeyboard, (0...2).contains(e.value) {
                keys.append(.key(code: e.code, pressed: e.value != 0, repeated: e.value == 2))
            }
        case (_, EventType.led) where e.code == EventCode.ledCapsLock:
            if capabilities.isKeyboard { keys.append(.capsLock(e.value != 0)) }
        case (.multitouch, EventType.abs):
            multitouch(e)
        case (.absolute, EventType.abs):
            if e.code == EventCode.absX { absX = e.value } else if e.code == EventCode.absY { absY = e.value }
        case (.absolute, EventType.key), (.relative, EventType.key):
            if e.code == EventCode.buttonTouch || e.code == EventCode.buttonLeft { down = e.value != 0 }
        case (.relative, EventType.rel):
            if e.code == EventCode.relX { position.x = clamp01(position.x + Double(e.value) / max(relativeSpan.width, 1)) }
            if e.code == EventCode.relY { position.y = clamp01(position.y + Double(e.value) / max(relativeSpan.height, 1)) }
        default:
            break
        }
        return []
    }

    /// Every record of a read, in order.
    public mutating func feed(_ events: [InputEvent]) -> [InputAction] {
        events.flatMap { feed($0) }
    }

    private func isKeyboardKey(_ code: UInt16) -> Bool { code < EventCode.buttonMisc || code >= EventCode.keyOK }

    private mutating func multitouch(_ e: InputEvent) {
        switch e.code {
        case EventCode.absMTSlot:
            slot = e.value
        case EventCode.absMTTrackingID:
            if e.value < 0 {
                contacts[slot] = nil
            } else {
                contacts[slot] = (e.value, nil, nil)
            }
        case EventCode.absMTPositionX:
            contacts[slot]?.x = e.value
        case EventCode.absMTPositionY:
            contacts[slot]?.y = e.value
        default:
            break
        }
    }

    /// The report's end: the pointer's change, then its keys.
    private mutating func report() -> [InputAction] {
        var out: [InputAction] = []
        switch capabilities.pointer {
        case .multitouch(let rx, let ry):
            if let p = primary, contacts[p] == nil {
                primary = nil
                ignored = Set(contacts.values.map(\.id))
            }
            ignored.formIntersection(contacts.values.map(\.id))
            if primary == nil, reportedDown == false,
               let first = contacts.filter({ $0.value.x != nil && $0.value.y != nil && !ignored.contains($0.value.id) }).keys.min() {
                primary = first
            }
            down = primary != nil
            if let p = primary, let c = contacts[p], let x = c.x, let y = c.y {
                position = NormalizedPoint(x: rx.normalized(x), y: ry.normalized(y))
            }
        case .absolute(let rx, let ry):
            if let absX { position.x = rx.normalized(absX) }
            if let absY { position.y = ry.normalized(absY) }
        case .relative, .none:
            break
        }
        if down && !reportedDown {
            out.append(.pointerDown(position))
        } else if down && reportedPosition != position {
            out.append(.pointerMove(position))
        } else if !down && reportedDown {
            out.append(.pointerUp(position))
        }
        if down != reportedDown || reportedPosition != position {
            reportedDown = down
            reportedPosition = position
        }
        out += keys
        keys = []
        return out
    }

    /// After SYN_DROPPED: the contact in progress is cancelled and the state starts afresh.
    private mutating func resynchronise() -> [InputAction] {
        dropping = false
        keys = []
        let wasDown = reportedDown
        down = false; reportedDown = false
        contacts = [:]; primary = nil; ignored = []
        return wasDown ? [.pointerCancel] : []
    }

    private func clamp01(_ v: Double) -> Double { min(max(v, 0), 1) }
}
