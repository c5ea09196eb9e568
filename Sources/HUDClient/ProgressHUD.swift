// SPDX-License-Identifier: MIT
// MBProgressHUD's per-HUD object: set its mode, label, details, progress and button, show it, hide
// it (after a delay), and run the button's action when the button is pressed (an input device, or
// `splashhud send press`). Every property change is one request, queued in order; reading a property
// gives what was last set here.
//
//     let hud = ProgressHUD.show(on: RemoteHUD())
//     hud.mode = .annular
//     hud.label = "Downloading"
//     hud.progress = 0.3
//     hud.setButton("Cancel") { agent.cancel() }
//     hud.hide(afterDelay: 2)
import HUDProtocol
import LinuxSystem
import Raster

/// MBProgressHUD's per-HUD object: a mode, a label, details, progress and a button.
///
/// Every property change is one request, queued in order on ``connection``; reading a property
/// gives what was last set here. Setting a button with an action listens for presses (a touch, a
/// key, or `splashhud send press`) and runs the action on another thread.
public final class ProgressHUD: @unchecked Sendable {
    /// The HUD this object drives.
    public let connection: any HUDConnection
    private let lock = Lock()
    /// Guarded by `lock`.
    private var action: (@Sendable () -> Void)?
    private var listening = false
    private var values = Values()

    struct Values {
        var mode = HUDMode.indeterminate
        var label: String?
        var details: String?
        var progress = 0.0
        var button: String?
    }

    /// An object for the HUD at `connection`; nothing is shown until ``show(animated:)``.
    public init(connection: any HUDConnection) { self.connection = connection }

    /// A HUD in indeterminate mode, shown at once (MB's `showHUDAddedTo:animated:`).
    public static func show(on connection: any HUDConnection, label: String? = nil) -> ProgressHUD {
        let hud = ProgressHUD(connection: connection)
        hud.mode = .indeterminate
        if let label { hud.label = label }
        hud.show()
        return hud
    }

    private func post(_ request: Request) { connection.post(request, completion: nil) }

    /// MB's `mode`: indeterminate (petals), determinate (pie), annular, bar, text or custom.
    public var mode: HUDMode {
        get { lock.withLock { values.mode } }
        set { lock.withLock { values.mode = newValue }; post(.hud(.set(.mode(newValue)))) }
    }
    /// MB's `label.text`.
    public var label: String? {
        get { lock.withLock { values.label } }
        set { lock.withLock { values.label = newValue }; post(.hud(.set(.label(newValue ?? "")))) }
    }
    /// MB's `detailsLabel.text`.
    public var details: String? {
        get { lock.withLock { values.details } }
        set { lock.withLock { values.details = newValue }; post(.hud(.set(.details(newValue ?? "")))) }
    }
    /// 0...1, for the determinate, annular and bar modes.
    public var progress: Double {
        get { lock.withLock { values.progress } }
        set {
            let label = lock.withLock { values.progress = newValue; return values.label }
            post(.hud(.progress(fraction: Fixed16_16(min(max(newValue, 0), 1)), status: label)))
        }
    }

    /// The button's title (nil hides it) and what pressing it does (on another thread).
    public func setButton(_ title: String?, action: (@Sendable () -> Void)? = nil) {
        let listen = lock.withLock { () -> Bool in
            values.button = title
            self.action = action
            defer { listening = listening || action != nil }
            return action != nil && !listening
        }
        post(.hud(.set(.button(title ?? ""))))
        if listen { listenForPresses() }
    }

    /// The button's title, as last set by ``setButton(_:action:)``.
    public var buttonTitle: String? { lock.withLock { values.button } }

    /// Presses the button as a person would (its action runs once the HUD confirms the press).
    public func pressButton() { post(.pressButton) }

    private func listenForPresses() {
        let events = connection.events()
        Task { [weak self] in
            for await event in events where event.kind == .buttonPressed {
                guard let self else { return }
                let action = self.lock.withLock { self.action }
                action?()
            }
        }
    }

    /// MB's `showAnimated:`: with its transition, or at once (`set animated off` for this show,
    /// then on again).
    public func show(animated: Bool = true) {
        withAnimation(animated) { post(.hud(.show(status: label))) }
    }

    /// MB's `hideAnimated:afterDelay:`; `completion` (MB's completionBlock) runs once it is hidden.
    /// Not `animated`: gone at once when the delay ends (`set animated off` until then, then on
    /// again).
    public func hide(animated: Bool = true, afterDelay delay: Double = 0, completion: (@Sendable () -> Void)? = nil) {
        let hud = connection
        withAnimation(animated) {
            connection.post(.hud(.dismiss(delay: .seconds(delay)))) { _ in
                if let completion { hud.whenHidden(completion) }
            }
        }
    }

    /// Posts what `body` posts with `animated off` around it when not `animated`.
    private func withAnimation(_ animated: Bool, _ body: () -> Void) {
        if !animated { post(.hud(.set(.animated(false)))) }
        body()
        if !animated { post(.hud(.set(.animated(true)))) }
    }
}
