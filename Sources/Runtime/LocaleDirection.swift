// SPDX-License-Identifier: MIT
// The HUD's writing direction from the locale, as UIKit takes it from the app's localization: the
// language of LC_ALL, else LC_MESSAGES, else LANG (POSIX's order for messages) is right-to-left
// for Arabic, Hebrew, Persian, Urdu and the others written that way. A profile's or a client's
// `text-direction` comes after and wins.

import HUDProtocol
import LinuxSystem

enum LocaleDirection {
    /// ISO 639 codes of languages written right to left.
    static let rightToLeft: Set<String> = ["ar", "arc", "ckb", "dv", "fa", "he", "iw", "ks", "ku", "ps", "sd", "syr", "ug", "ur", "yi"]

    /// The direction `locale` (such as "ar_EG.UTF-8", "he", "C") is written in.
    static func direction(of locale: String) -> HUDTextDirection {
        let language = locale.prefix { $0 != "_" && $0 != "." && $0 != "@" }.lowercased()
        return rightToLeft.contains(language) ? .rtl : .ltr
    }

    /// The direction of the environment's locale for messages.
    static func fromEnvironment() -> HUDTextDirection {
        let locale = ["LC_ALL", "LC_MESSAGES", "LANG"].lazy.compactMap { Environment.value($0) }.first { !$0.isEmpty }
        return locale.map(direction(of:)) ?? .ltr
    }
}
