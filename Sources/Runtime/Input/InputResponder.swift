// SPDX-License-Identifier: MIT
// What touches, clicks and keys do to the HUD (the devices are InputHub's; the runtime hands each
// message here on the loop's thread):
//
// - A touch going down while the HUD is visible is a `touch` event (SV's DidReceiveTouchEvent,
//   with the pixel and output), and on the HUD also `touch-inside` (SV's DidTouchDownInside). SV
//   catches touches only with a mask; here nothing sits between the screen and the application,
//   so every touch is reported and the application behind decides (the mask none lets it through).
// - MB's button highlights while a touch that went down on it stays on it, and a release on it is
//   the `button` event (the Swift API's action). Enter or Space does the same: highlighted while
//   held, pressed on release. Escape is a `cancel` event.
// - `set tap-dismiss hud|outside|anywhere`: a tap (down and up on the same side of the HUD's
//   edge, not on the button) dismisses the HUD.
// - While a client watches keys (`subscribe keys`, Plymouth's watch-keystroke), each key press is
//   a `key` event with its name and text (with Ctrl held, a letter's control character, as a
//   terminal sends it).
import HUD
import HUDProtocol
import Input

/// What input does to the runtime.
protocol InputOwner: AnyObject {
    /// Applies a request now (the button's press, a tap's dismiss).
    func apply(_ request: Request) -> RequestOutcome
    /// Queues an event the input made for this turn's hand-out.
    func post(_ event: HUDEvent)
    /// The HUD's look changed (the button's highlight): draw it.
    func sceneChanged()
    /// A prompt is up: its keys are the terminal's, never evdev's.
    var promptIsActive: Bool { get }
    /// A touch for the prompt's on-screen keyboard: true when it took it (no one else sees it).
    func promptPointer(_ phase: InputMessage.Phase, output: String, x: Int32, y: Int32) -> Bool
    /// A keyboard's Caps Lock light went on or off: the prompt says so.
    func promptCapsLock(_ on: Bool)
}

/// A touch or key in progress.
struct PointerGesture {
    /// Where the touch in progress went down (nil: none is down).
    var downHit: HUDHit?
    /// The touch went down on the button and may still press it.
    var onButton = false
    /// Enter or Space is held on the button.
    var keyOnButton = false
}

/// Clients watching keys, one token each: `key` events are made only while a token is held.
final class KeyWatchRegistry {
    fileprivate(set) var count = 0

    /// Starts a watch; it lasts until the token is ended or dropped.
    func watch() -> KeyWatch {
        count += 1
        return KeyWatch(self)
    }
}

/// One client's key watch (`subscribe keys`, Plymouth's watch-keystroke).
public final class KeyWatch {
    private weak var registry: KeyWatchRegistry?

    fileprivate init(_ registry: KeyWatchRegistry) { self.registry = registry }

    /// Ends the watch (once; dropping the token ends it too).
    public func end() {
        registry?.count -= 1
        registry = nil
    }

    deinit { end() }
}

final class InputResponder {
    private let scene: HUDScene
    weak var owner: (any InputOwner)?
    private var gesture = PointerGesture()
    /// Control keys held now (left, right): a letter typed with one is its control character.
    private var controlHeld: Set<UInt16> = []
    let keyWatches = KeyWatchRegistry()

    init(scene: HUDScene) { self.scene = scene }

    /// Handles one input message at `now`, on the loop's thread.
    func handle(_ message: InputMessage, at now: Int64) {
        scene.advance(to: now)
        switch message {
        case .pointer(let phase, let output, let x, let y):
            pointer(phase, output: output, x: x, y: y)
        case .key(let code, let pressed, let repeated):
            key(code, pressed: pressed, repeated: repeated)
        case .capsLock(let on):
            owner?.promptCapsLock(on)
        }
    }

    private func pointer(_ phase: InputMessage.Phase, output: String, x: Int32, y: Int32) {
        // Taps on a passphrase's keys: neither touch events (their positions spell it) nor taps.
        if owner?.promptPointer(phase, output: output, x: x, y: y) == true { return }
        let visible = scene.controller.isVisible
        let hit = visible ? scene.hit(output: output, x: x, y: y) ?? .outside : .outside
        let position = [HUDEvent.Detail("x", "\(x)"), HUDEvent.Detail("y", "\(y)"), HUDEvent.Detail("output", output)]
        switch phase {
        case .down:
            gesture = PointerGesture(downHit: visible ? hit : nil, keyOnButton: gesture.keyOnButton)
            guard visible else { return }
            post(.touch, details: position)
            if hit != .outside { post(.touchInside, details: position) }
            if hit == .button { gesture.onButton = true; highlightButton(true) }
        case .move:
            if gesture.onButton { highlightButton(hit == .button) }
        case .up:
            let down = gesture.downHit, onButton = gesture.onButton
            gesture.downHit = nil; gesture.onButton = false
            if onButton {
                highlightButton(gesture.keyOnButton)
                if hit == .button { _ = owner?.apply(.pressButton) }
                return
            }
            guard visible, let down, down != .button, hit != .button, (down == .outside) == (hit == .outside) else { return }
            let dismiss: Bool
            switch scene.controller.appearance.tapDismiss {
            case .off: dismiss = false
            case .hud: dismiss = hit == .hud
            case .outside: dismiss = hit == .outside
            case .anywhere: dismiss = true
            }
            if dismiss { _ = owner?.apply(.hud(.dismiss(delay: .zero))) }
        case .cancel:
            if gesture.onButton { highlightButton(gesture.keyOnButton) }
            gesture.downHit = nil; gesture.onButton = false
        }
    }

    private func key(_ code: UInt16, pressed: Bool, repeated: Bool) {
        // A prompt takes its keys from the terminal; here they would be a passphrase's keys.
        guard owner?.promptIsActive != true else { return }
        if code == KeyName.leftControl || code == KeyName.rightControl {
            if pressed { controlHeld.insert(code) } else { controlHeld.remove(code) }
        }
        if pressed && !repeated && keyWatches.count > 0 {
            let name = KeyName(code: code)
            var details = [HUDEvent.Detail("key", controlHeld.isEmpty || name.controlText == nil ? name.name : "ctrl-" + name.name)]
            if let text = controlHeld.isEmpty ? name.text : name.controlText { details.append(HUDEvent.Detail("text", text)) }
            post(.key, details: details)
        }
        guard !repeated else { return }
        switch code {
        case EventCode.keyEnter, EventCode.keyKeypadEnter, EventCode.keySpace:
            let buttonShown = scene.controller.isVisible && !(scene.controller.presentation().button ?? "").isEmpty
            if pressed {
                guard buttonShown else { return }
                gesture.keyOnButton = true
                highlightButton(true)
            } else if gesture.keyOnButton {
                gesture.keyOnButton = false
                highlightButton(gesture.onButton)
                if buttonShown { _ = owner?.apply(.pressButton) }
            }
        case EventCode.keyEsc:
            if pressed && scene.controller.isVisible { post(.cancel, details: []) }
        default:
            break
        }
    }

    private func highlightButton(_ on: Bool) {
        guard scene.controller.isButtonHighlighted != on else { return }
        scene.controller.isButtonHighlighted = on
        owner?.sceneChanged()
    }

    private func post(_ kind: HUDEvent.Kind, details: [HUDEvent.Detail]) {
        owner?.post(HUDEvent(time: scene.clock.now, kind: kind, status: scene.controller.presentation().status, details: details))
    }
}
