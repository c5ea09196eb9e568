// SPDX-License-Identifier: MIT
// What the bridge lets through from a broker to the daemon. Anyone who may publish to a kiosk's
// command topic drives its HUD, so the verbs that reach beyond the HUD are refused unless the
// operator named them with `--allow`: ending the daemon (`quit`, `QUIT`, `exit`), reading a file
// on the kiosk (`image PATH`, `set font PATH`), watching its keyboard (`subscribe keys`) and
// asking its user for a secret (`ask-password`). A payload is one line of UTF-8 of at most the
// control socket's 4,095 bytes; anything else is answered here and never reaches the daemon.
// The privileged verbs are the daemon's own table (HUDProtocol's PrivilegedVerb).
import HUDProtocol

struct CommandGate: Sendable {
    let allowed: Set<PrivilegedVerb>
    let topics: Topics

    enum Decision: Equatable {
        /// Send `line` to the daemon; its reply is the answer.
        case forward(String)
        /// The bridge answers itself.
        case answer(ControlReply)
    }

    func decide(_ payload: [UInt8]) -> Decision {
        guard payload.count <= ControlProtocol.maxLineBytes else {
            return .answer(.error(.badLine, "a command is at most \(ControlProtocol.maxLineBytes) bytes, not \(payload.count)"))
        }
        guard var line = String(validating: payload, as: UTF8.self) else {
            return .answer(.error(.badLine, "a command must be UTF-8"))
        }
        if line.hasSuffix("\n") { line.removeLast() }
        if line.hasSuffix("\r") { line.removeLast() }
        guard !line.contains(where: { $0 == "\n" || $0 == "\r" || $0 == "\0" }) else {
            return .answer(.error(.badLine, "one command per message: no newline or NUL inside"))
        }
        let request: ControlRequest?
        do { request = try ControlRequest.parse(line) } catch {
            return .answer(.error(.syntax, "\(error)"))
        }
        guard let request else { return .answer(.ok(nil)) }  // blank or comment: ok, as the socket says
        if let verb = request.privilegedVerb, !allowed.contains(verb) {
            return .answer(.error(.denied, "\(verb.rawValue) is not allowed over MQTT (splashhud-mqtt --allow \(verb.rawValue))"))
        }
        switch request {
        case .subscribe(let keys, _):
            // The bridge is the one subscriber; events go to the event topic for everyone.
            return .answer(.ok("subscribed \(topics.event)\(keys ? " keys" : "")"))
        case .snapshot:
            return .answer(.error(.refused, "snapshots are requested on \(topics.snapshotRequest)"))
        default:
            return .forward(line)
        }
    }
}
