// SPDX-License-Identifier: MIT
// The one table of what reaches beyond the HUD: ending the daemon, naming a file for it to open,
// watching its keyboard (keys could be a passphrase typed at a console prompt) and asking its user
// for a secret. The daemon answers these only to root and its own user (`error denied` to the
// socket's group); the MQTT bridge lets them through only when the operator named them with
// `--allow`. Both read this table, so they cannot drift. The switches below have no `default`: a
// new request, HUD command, image kind or setting does not compile until it says here whether it
// is privileged.

/// A privileged verb: its raw value is the bridge's `--allow` name.
public enum PrivilegedVerb: String, CaseIterable, Sendable {
    case quit, image
    case setFont = "set-font"
    case subscribeKeys = "subscribe-keys"
    case askPassword = "ask-password"
    case newRoot = "newroot"

    /// `--allow` takes the name with a hyphen or, quoted, a space (`"set font"`).
    public init?(allowName: String) {
        self.init(rawValue: String(allowName.map { $0 == " " ? "-" : $0 }))
    }

    /// What it does, for a refusal: "ending the daemon is for root and …".
    public var purpose: String {
        switch self {
        case .quit: return "ending the daemon"
        case .image: return "an image path"
        case .setFont: return "a font path"
        case .subscribeKeys: return "watching keys"
        case .askPassword: return "asking for a passphrase"
        case .newRoot: return "moving the daemon into a new root"
        }
    }
}

extension ControlRequest {
    /// The privileged verb this request uses, nil for one anyone the socket admits may send.
    public var privilegedVerb: PrivilegedVerb? {
        switch self {
        case .request(let r): return r.privilegedVerb
        case .subscribe(let keys, _): return keys ? .subscribeKeys : nil
        case .askPassword: return .askPassword
        case .ping, .version, .state, .wait, .snapshot, .keyboard: return nil
        }
    }
}

extension Request {
    /// The privileged verb this request uses, nil for an ordinary one.
    public var privilegedVerb: PrivilegedVerb? {
        switch self {
        case .quit, .dismissAndQuit: return .quit
        case .newRoot: return .newRoot
        case .hud(let command): return command.privilegedVerb
        case .progressKeepingStatus, .progressOver, .pressButton, .deactivate, .reactivate: return nil
        }
    }
}

extension HUDCommand {
    /// The privileged verb this command uses: a file named for the daemon to open.
    public var privilegedVerb: PrivilegedVerb? {
        switch self {
        case .image(let kind, _, _, _):
            switch kind {
            case .custom: return .image
            case .success, .error, .info: return nil
            }
        case .set(let setting): return setting.privilegedVerb
        case .show, .progress, .status, .dismiss, .pop, .reset: return nil
        }
    }
}

extension HUDSetting {
    /// `.setFont` for the one setting that names a file; nil for the HUD's look.
    public var privilegedVerb: PrivilegedVerb? {
        switch self {
        case .font: return .setFont
        case .style, .mask, .spinner, .foregroundColor, .backgroundColor, .backdropColor, .imageColor, .fontSize,
             .ringThickness, .ringRadius, .ringNoTextRadius, .cornerRadius, .minimumSize, .offset, .imageSize,
             .tintImages, .minimumDismiss, .maximumDismiss, .fadeIn, .fadeOut, .animated, .grace, .mode, .label, .details,
             .button, .margin, .square, .minShow, .transition, .contentColor, .bezelColor, .tapDismiss,
             .promptWidth, .textDirection, .maxFramesPerSecond:
            return nil
        }
    }
}
