// SPDX-License-Identifier: MIT
// Where the Swift API's HUD lives: a running daemon over its socket (`RemoteHUD`, here) or a HUD on
// a display the program owns (`LocalHUD`, in SplashHUDKit). Both take requests from any thread
// without blocking, in the order each thread posts them, and say what became of each.
import HUDProtocol

/// Where the Swift API's HUD lives: a running daemon (``RemoteHUD``) or a HUD on a display the
/// program owns (SplashHUDKit's `LocalHUD`).
///
/// Both take requests from any thread without blocking, in the order each thread posts them, and
/// say what became of each. ``SplashHUD`` and ``ProgressHUD`` drive one.
public protocol HUDConnection: AnyObject, Sendable {
    /// Queues `request`; never blocks. `completion` (on another thread) hears whether it was applied.
    func post(_ request: Request, completion: (@Sendable (Result<Void, ControlClientError>) -> Void)?)
    /// The HUD now; blocks at most the connection's timeout.
    func state() throws(ControlClientError) -> HUDState
    /// Calls `completion` (on another thread) once the HUD is hidden, its fade-out done.
    func whenHidden(_ completion: @escaping @Sendable () -> Void)
    /// The HUD's events from now on, until the connection ends or the stream is dropped.
    func events() -> AsyncStream<HUDEvent>
    /// Shows a passphrase prompt (bullets for the keys typed on the HUD's keyboard) and hands
    /// `completion` (on another thread) the text once the user presses Enter; `.rejected` with
    /// code `cancelled` for Ctrl-C or when no keyboard can answer.
    func askPassword(prompt: String, completion: @escaping @Sendable (Result<String, ControlClientError>) -> Void)
}

extension HUDConnection {
    /// A HUD without a prompt of its own cannot ask.
    public func askPassword(prompt: String, completion: @escaping @Sendable (Result<String, ControlClientError>) -> Void) {
        completion(.failure(.rejected(code: "cancelled", message: "this HUD has no keyboard to ask with")))
    }

    /// The text typed at a passphrase prompt on the HUD (a PIN, a password): see `askPassword(prompt:completion:)`.
    public func askPassword(prompt: String) async throws -> String {
        try await withCheckedThrowingContinuation { (k: CheckedContinuation<String, any Error>) in
            askPassword(prompt: prompt) { result in k.resume(with: result.mapError { $0 as any Error }) }
        }
    }
}

extension HUDConnection {
    /// Applies `request`, throwing when it is refused or the HUD cannot be reached.
    public func send(_ request: Request) async throws {
        try await withCheckedThrowingContinuation { (k: CheckedContinuation<Void, any Error>) in
            post(request) { result in k.resume(with: result.mapError { $0 as any Error }) }
        }
    }

    /// Waits until the HUD is hidden.
    public func waitUntilHidden() async {
        await withCheckedContinuation { (k: CheckedContinuation<Void, Never>) in whenHidden { k.resume() } }
    }
}
