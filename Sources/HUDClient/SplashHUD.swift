// SPDX-License-Identifier: MIT
// SVProgressHUD's API for Swift programs on Linux: class methods on one shared HUD, callable from
// any thread, never blocking (each call is queued in order and applied by the HUD's loop).
//
//     SplashHUD.show(status: "Copying")
//     SplashHUD.showProgress(0.4, status: "Copying 4 of 10")
//     SplashHUD.showSuccess(status: "Done")
//     SplashHUD.dismiss(withDelay: 1) { print("gone") }
//
// By default it drives the daemon at $SPLASHHUD_SOCKET (else /run/splashhud/control); `use(_:)`
// points it at another socket or at a HUD the program owns (SplashHUDKit's `LocalHUD`).
import HUDProtocol
import LinuxSystem
import Raster

/// SVProgressHUD's class methods, for a Swift program on Linux.
///
/// Every call is queued in order and applied by the HUD's loop; none blocks, from any thread.
/// By default the calls drive the daemon at `$SPLASHHUD_SOCKET` (else `/run/splashhud/control`);
/// ``use(_:)`` points them at another ``HUDConnection``, such as a ``RemoteHUD`` on another socket
/// or SplashHUDKit's `LocalHUD`. Failures go to ``onError(_:)``.
public enum SplashHUD {
    private static let lock = Lock()
    nonisolated(unsafe) private static var current: (any HUDConnection)?
    nonisolated(unsafe) private static var errorHandler: (@Sendable (ControlClientError) -> Void)?

    /// The HUD the class methods drive.
    public static var connection: any HUDConnection {
        lock.withLock {
            if let current { return current }
            let remote = RemoteHUD()
            current = remote
            return remote
        }
    }

    /// Drives `connection` from now on.
    public static func use(_ connection: any HUDConnection) { lock.withLock { current = connection } }

    /// Called (on another thread) when a request is refused or the HUD cannot be reached: SV's
    /// methods return nothing, so this is where failures go. Default: none.
    public static func onError(_ handler: (@Sendable (ControlClientError) -> Void)?) { lock.withLock { errorHandler = handler } }

    static func post(_ request: Request, then: (@Sendable () -> Void)? = nil) {
        let handler = lock.withLock { errorHandler }
        connection.post(request) { result in
            if case .failure(let e) = result { handler?(e) }
            then?()
        }
    }

    static func post(_ command: HUDCommand) { post(.hud(command)) }

    // MARK: Showing

    /// Shows the spinner with an optional status text (SV's `showWithStatus:`), one activity more.
    public static func show(status: String? = nil) { post(.show(status: status)) }
    /// Shows the progress ring at `progress` (0...1; a negative value shows the spinner), with a
    /// status text (SV's `showProgress:status:`).
    public static func showProgress(_ progress: Float, status: String? = nil) {
        post(.progress(fraction: Fixed16_16(Double(progress)), status: status))
    }
    /// Shows the success icon, dismissed after SV's display duration for the text.
    public static func showSuccess(status: String? = nil) { post(.image(.success, status: status)) }
    /// Shows the error icon, dismissed after SV's display duration for the text, or, when it
    /// `stays`, kept until the next call changes the HUD (a failure a person must read). With
    /// `support`, the daemon adds a QR code of the board profile's support address carrying the
    /// device id and `status` (`[updates] support-url`; nothing where the profile names none).
    public static func showError(status: String? = nil, stays: Bool = false, support: Bool = false) {
        post(.image(.error, status: status, stays: stays, support: support))
    }
    /// Shows the info icon, dismissed after SV's display duration for the text.
    public static func showInfo(status: String? = nil) { post(.image(.info, status: status)) }
    /// A PNG at `path` (as the HUD's process sees it), tinted unless `setShouldTintImages(false)`.
    public static func showImage(_ path: String, status: String? = nil) { post(.image(.custom(path: path), status: status)) }
    /// Changes the status text only (SV's `setStatus:`).
    public static func setStatus(_ status: String) { post(.status(status)) }
    /// Fills the progress by `fraction` over `seconds` on its own (the daemon's `progress-over`).
    public static func showProgress(by fraction: Float, over seconds: Double) {
        post(.progressOver(fraction: Fixed16_16(Double(fraction)), seconds: .seconds(seconds)))
    }

    // MARK: Dismissing

    /// Ends one activity (SV's `popActivity`): the HUD is dismissed when none is left.
    public static func popActivity() { post(.pop) }
    /// Dismisses after `delay` seconds; `completion` runs (on another thread) once it is hidden.
    public static func dismiss(withDelay delay: Double = 0, completion: (@Sendable () -> Void)? = nil) {
        let hud = connection
        post(.hud(.dismiss(delay: .seconds(delay)))) {
            guard let completion else { return }
            hud.whenHidden(completion)
        }
    }

    // MARK: Asking

    /// A passphrase prompt on the HUD (MBProgressHUD's look for a form: the prompt over a row of
    /// bullets); returns what was typed once the user presses Enter, throws `.rejected` with code
    /// `cancelled` for Ctrl-C or when the HUD has no keyboard. For a PIN an update agent needs.
    public static func askPassword(prompt: String) async throws -> String {
        try await connection.askPassword(prompt: prompt)
    }

    /// SV's `isVisible`; blocks at most the connection's timeout (false when it cannot be asked).
    public static var isVisible: Bool { (try? connection.state().visible) ?? false }

    // MARK: Appearance (SV's class setters)

    /// SV's `setDefaultStyle:`: light, dark or custom (the colours set here).
    public static func setDefaultStyle(_ style: HUDStyle) { post(.set(.style(style))) }
    /// SV's `setDefaultMaskType:`: what covers the screen behind the HUD.
    public static func setDefaultMaskType(_ mask: HUDMask) { post(.set(.mask(mask))) }
    /// SV's `setDefaultAnimationType:`: the flat two-turn spinner or the native 12-petal one.
    public static func setDefaultAnimationType(_ spinner: HUDSpinner) { post(.set(.spinner(spinner))) }
    /// The colour of the text and the indicator (custom style).
    public static func setForegroundColor(_ color: Color) { post(.set(.foregroundColor(color))) }
    /// The bezel's colour (custom style).
    public static func setBackgroundColor(_ color: Color) { post(.set(.backgroundColor(color))) }
    /// The colour of the custom mask over the screen (SV's `setBackgroundLayerColor:`).
    public static func setBackgroundLayerColor(_ color: Color) { post(.set(.backdropColor(color))) }
    /// The size of icons and images, in points.
    public static func setImageViewSize(width: Double, height: Double) {
        post(.set(.imageSize(Size(width: Fixed16_16(width), height: Fixed16_16(height)))))
    }
    /// Whether images are tinted with the foreground colour, as templates.
    public static func setShouldTintImages(_ tint: Bool) { post(.set(.tintImages(tint))) }
    /// The HUD's font: a font file (TTF/OTF) the HUD's process can read, or a font chain: one or more faces separated by `:` (`FILE`, `FILE#N`, `FILE@Latn,Grek`; docs/text.md).
    public static func setFont(path: String) { post(.set(.font(path: path))) }
    /// The direction of text without strong characters, and whether MB's bar fills from the right
    /// (the daemon's locale's by default).
    public static func setTextDirection(_ direction: HUDTextDirection) { post(.set(.textDirection(direction))) }
    /// The text's size in points (1...512).
    public static func setFontSize(_ points: Double) { post(.set(.fontSize(Fixed16_16(points)))) }
    /// The progress ring's and spinner's line width in points.
    public static func setRingThickness(_ points: Double) { post(.set(.ringThickness(Fixed16_16(points)))) }
    /// The ring's radius in points when the HUD has a status text.
    public static func setRingRadius(_ points: Double) { post(.set(.ringRadius(Fixed16_16(points)))) }
    /// The ring's radius in points when the HUD has no status text.
    public static func setRingNoTextRadius(_ points: Double) { post(.set(.ringNoTextRadius(Fixed16_16(points)))) }
    /// The bezel's corner radius in points.
    public static func setCornerRadius(_ points: Double) { post(.set(.cornerRadius(Fixed16_16(points)))) }
    /// The bezel's least size, in points.
    public static func setMinimumSize(width: Double, height: Double) {
        post(.set(.minimumSize(Size(width: Fixed16_16(width), height: Fixed16_16(height)))))
    }
    /// Moves the HUD from its place by `x`, `y` points (SV's `setOffsetFromCenter:`).
    public static func setOffsetFromCenter(x: Double, y: Double) { post(.set(.offset(Point(x: Fixed16_16(x), y: Fixed16_16(y))))) }
    /// The shortest time an icon or image stays before its automatic dismiss.
    public static func setMinimumDismissTimeInterval(_ seconds: Double) { post(.set(.minimumDismiss(.seconds(seconds)))) }
    /// The longest time an icon or image stays before its automatic dismiss.
    public static func setMaximumDismissTimeInterval(_ seconds: Double) { post(.set(.maximumDismiss(.seconds(seconds)))) }
    /// How long showing takes (0.15 s by default).
    public static func setFadeInAnimationDuration(_ seconds: Double) { post(.set(.fadeIn(.seconds(seconds)))) }
    /// How long hiding takes (0.15 s by default).
    public static func setFadeOutAnimationDuration(_ seconds: Double) { post(.set(.fadeOut(.seconds(seconds)))) }
    /// How long a show waits before the HUD appears; a dismiss within it shows nothing.
    public static func setGraceTimeInterval(_ seconds: Double) { post(.set(.grace(.seconds(seconds)))) }
    /// Which taps dismiss the HUD on a touchscreen (JGProgressHUD's tap blocks; off by default).
    public static func setTapToDismiss(_ taps: HUDTapDismiss) { post(.set(.tapDismiss(taps))) }

    /// Back to SV's defaults, hidden at once.
    public static func resetAppearance() { post(.reset) }
}
