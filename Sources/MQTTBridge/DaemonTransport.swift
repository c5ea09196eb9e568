// SPDX-License-Identifier: MIT
// The daemon side as the bridge's state machine sees it: connections to the control socket (links),
// each taking request lines and answering them in order (docs/protocol.md), and what came back,
// taken after each turn. DaemonSockets is the real one (non-blocking Unix sockets on the bridge's
// epoll loop); the tests drive BridgeCore through a fake.
import HUDClient
import HUDProtocol

/// What one link brought back.
enum DaemonEvent: Equatable {
    /// The reply to the link's oldest unanswered request.
    case reply(link: Int, ControlReply)
    /// The reply to a `snapshot` request: the PNG, the output's name and its size (`WxH`).
    case snapshot(link: Int, png: [UInt8], output: String, size: String)
    /// A HUD event (after `subscribe`).
    case event(link: Int, HUDEvent)
    /// The HUD's state (after `subscribe state`): at once, then on every change.
    case state(link: Int, HUDState)
    /// The link is gone (closed, reset, not the protocol): what it still owed never comes.
    case lost(link: Int, ControlClientError)
}

protocol DaemonTransport: AnyObject {
    /// A new link (non-blocking: its replies come as events).
    func open() throws(ControlClientError) -> Int
    /// Sends one request line on `link`; `snapshot`: its reply carries a PNG.
    func send(_ line: String, on link: Int, snapshot: Bool)
    /// Closes `link`; nothing more comes from it (no `.lost` either).
    func close(_ link: Int)
    func takeEvents() -> [DaemonEvent]
}
