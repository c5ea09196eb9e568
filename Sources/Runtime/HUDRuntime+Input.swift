// SPDX-License-Identifier: MIT
// What touches, clicks and keys do to the HUD (the devices are InputHub's):
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
//   a `key` event with its name and text.
import HUD
import HUDProtocol
import Input

/// A touch or key in progress.
struct PointerGesture {
    /// Where the touch in progress went down (nil: none is down).
    var downHit: HUDHit?
    /// The touch went down on the button and may still press it.
    var onButton = false
    /// Enter or Space is held on the button.
    var keyOnButton = false
}

extension HUDRuntime {
    /// Handles one input message now, on the loop's thread.
    public func handle(_ message: InputMessage) {
        guard !isFinished else { return }
        scene.advance(to: clockNow)
        switch message {
        case .pointer(let phase, let output, let x, let y):
            pointer(phase, output: output, x: x, y: y)
        case .key(let code, let pressed, let repeated):
            key(code, pressed: pressed, repeated: repeated)
        }
    }

    /// Clients watching keys now; `key` events are made only while there is one.
    public var isWatchingKeys: Bool { keyWatchers > 0 }

    /// Starts (or ends) one client's key watch.
    public func watchKeys(_ on: Bool) {
        keyWatchers = max(0, keyWatchers + (on ? 1 : -1))
    }

    private func pointer(_ phase: InputMessage.Phase, output: String, x: Int32, y: Int32) {
        let visible = controller.isVisible
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
                if hit == .button { _ = apply(.pressButton) }
                return
            }
            guard visible, let down, down != .button, hit != .button, (down == .outside) == (hit == .outside) else { return }
            let dismiss: Bool
            switch controller.appearance.tapDismiss {
            case .off: dismiss = false
            case .hud: dismiss = hit == .hud
            case .outside: dismiss = hit == .outside
            case .anywhere: dismiss = true
            }
            if dismiss { _ = apply(.hud(.dismiss(delay: .zero))) }
        case .cancel:
            if gesture.onButton { highlightButton(gesture.keyOnButton) }
            gesture.downHit = nil; gesture.onButton = false
        }
    }

    private func key(_ code: UInt16, pressed: Bool, repeated: Bool) {
        // A prompt takes its keys from the terminal; here they would be a passphrase's keys.
        guard !prompts.isActive else { return }
        if pressed && !repeated && isWatchingKeys {
            let name = KeyName(code: code)
            var details = [HUDEvent.Detail("key", name.name)]
            if let text = name.text { details.append(HUDEvent.Detail("text", text)) }
            post(.key, details: details)
        }
        guard !repeated else { return }
        switch code {
        case EventCode.keyEnter, EventCode.keyKeypadEnter, EventCode.keySpace:
            let buttonShown = controller.isVisible && !(controller.presentation().button ?? "").isEmpty
            if pressed {
                guard buttonShown else { return }
                gesture.keyOnButton = true
                highlightButton(true)
            } else if gesture.keyOnButton {
                gesture.keyOnButton = false
                highlightButton(gesture.onButton)
                if buttonShown { _ = apply(.pressButton) }
            }
        case EventCode.keyEsc:
            if pressed && controller.isVisible { post(.cancel, details: []) }
        default:
            break
        }
    }

    private func highlightButton(_ on: Bool) {
        guard controller.isButtonHighlighted != on else { return }
        controller.isButtonHighlighted = on
        frames.markDirty()
    }

    private func post(_ kind: HUDEvent.Kind, details: [HUDEvent.Detail]) {
        postOwnEvent(HUDEvent(time: scene.clock.now, kind: kind, status: controller.presentation().status, details: details))
    }
}
