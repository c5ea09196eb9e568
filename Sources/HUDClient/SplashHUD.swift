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

    public static func show(status: String? = nil) { post(.show(status: status)) }
    public static func showProgress(_ progress: Float, status: String? = nil) {
        post(.progress(fraction: Fixed16_16(Double(progress)), status: status))
    }
    public static func showSuccess(status: String? = nil) { post(.image(.success, status: status)) }
    public static func showError(status: String? = nil) { post(.image(.error, status: status)) }
    public static func showInfo(status: String? = nil) { post(.image(.info, status: status)) }
    /// A PNG at `path` (as the HUD's process sees it), tinted unless `setShouldTintImages(false)`.
    public static func showImage(_ path: String, status: String? = nil) { post(.image(.custom(path: path), status: status)) }
    public static func setStatus(_ status: String) { post(.status(status)) }
    /// Fills the progress by `fraction` over `seconds` on its own (the daemon's `progress-over`).
    public static func showProgress(by fraction: Float, over seconds: Double) {
        post(.progressOver(fraction: Fixed16_16(Double(fraction)), seconds: .seconds(seconds)))
    }

    // MARK: Dismissing

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

    public static func setDefaultStyle(_ style: HUDStyle) { post(.set(.style(style))) }
    public static func setDefaultMaskType(_ mask: HUDMask) { post(.set(.mask(mask))) }
    public static func setDefaultAnimationType(_ spinner: HUDSpinner) { post(.set(.spinner(spinner))) }
    public static func setForegroundColor(_ color: Color) { post(.set(.foregroundColor(color))) }
    public static func setBackgroundColor(_ color: Color) { post(.set(.backgroundColor(color))) }
    public static func setBackgroundLayerColor(_ color: Color) { post(.set(.backdropColor(color))) }
    public static func setImageViewSize(width: Double, height: Double) {
        post(.set(.imageSize(Size(width: Fixed16_16(width), height: Fixed16_16(height)))))
    }
    public static func setShouldTintImages(_ tint: Bool) { post(.set(.tintImages(tint))) }
    /// A font file (TTF/OTF) the HUD's process can read.
    /// A font chain: one or more faces separated by `:` (`FILE`, `FILE#N`, `FILE@Latn,Grek`; docs/text.md).
    public static func setFont(path: String) { post(.set(.font(path: path))) }
    /// The direction of text without strong characters, and whether MB's bar fills from the right
    /// (the daemon's locale's by default).
    public static func setTextDirection(_ direction: HUDTextDirection) { post(.set(.textDirection(direction))) }
    public static func setFontSize(_ points: Double) { post(.set(.fontSize(Fixed16_16(points)))) }
    public static func setRingThickness(_ points: Double) { post(.set(.ringThickness(Fixed16_16(points)))) }
    public static func setRingRadius(_ points: Double) { post(.set(.ringRadius(Fixed16_16(points)))) }
    public static func setRingNoTextRadius(_ points: Double) { post(.set(.ringNoTextRadius(Fixed16_16(points)))) }
    public static func setCornerRadius(_ points: Double) { post(.set(.cornerRadius(Fixed16_16(points)))) }
    public static func setMinimumSize(width: Double, height: Double) {
        post(.set(.minimumSize(Size(width: Fixed16_16(width), height: Fixed16_16(height)))))
    }
    public static func setOffsetFromCenter(x: Double, y: Double) { post(.set(.offset(Point(x: Fixed16_16(x), y: Fixed16_16(y))))) }
    public static func setMinimumDismissTimeInterval(_ seconds: Double) { post(.set(.minimumDismiss(.seconds(seconds)))) }
    public static func setMaximumDismissTimeInterval(_ seconds: Double) { post(.set(.maximumDismiss(.seconds(seconds)))) }
    public static func setFadeInAnimationDuration(_ seconds: Double) { post(.set(.fadeIn(.seconds(seconds)))) }
    public static func setFadeOutAnimationDuration(_ seconds: Double) { post(.set(.fadeOut(.seconds(seconds)))) }
    public static func setGraceTimeInterval(_ seconds: Double) { post(.set(.grace(.seconds(seconds)))) }
    /// Back to SV's defaults, hidden at once.
    /// Which taps dismiss the HUD on a touchscreen (JGProgressHUD's tap blocks; off by default).
    public static func setTapToDismiss(_ taps: HUDTapDismiss) { post(.set(.tapDismiss(taps))) }

    public static func resetAppearance() { post(.reset) }
}
