// SPDX-License-Identifier: MIT
// Which layout the on-screen keyboard shows: the profile's `[input] keymap`, else the console's
// keymap as the system configured it (the kernel keeps no name for the keymap it was loaded with):
// systemd's and dracut's /etc/vconsole.conf (KEYMAP=), then Debian's console-setup
// /etc/default/keyboard (XKBLAYOUT=, its first layout), else us. A keymap without a layout here
// (say `uk`) shows us: on the screen the user sees what each key types, so no layout locks anyone
// out (a physical keyboard's wrong keymap does).
import HUD
import LinuxSystem

enum KeymapName {
    /// The files read, in order (tests point elsewhere).
    static let vconsole = "/etc/vconsole.conf", keyboard = "/etc/default/keyboard"

    /// The layout for the profile's choice, else the console's configuration files' contents.
    static func layout(profile: String?, vconsole: String?, keyboard: String?) -> KeyboardLayout {
        if let profile, let l = KeyboardLayout.named(profile) { return l }
        if let v = vconsole.flatMap({ value(of: "KEYMAP", in: $0) }), let l = KeyboardLayout.named(v) { return l }
        if let k = keyboard.flatMap({ value(of: "XKBLAYOUT", in: $0) }),
           let first = k.split(separator: ",").first, let l = KeyboardLayout.named(String(first)) { return l }
        return .us
    }

    /// The console's keymap as configured (vconsole.conf's KEYMAP, else /etc/default/keyboard's
    /// first XKBLAYOUT), shortened to its letters ("de-latin1-nodeadkeys": "de"); nil when neither
    /// file names one.
    static func consoleName(vconsole: String?, keyboard: String?) -> String? {
        let name = vconsole.flatMap { value(of: "KEYMAP", in: $0) }
            ?? keyboard.flatMap { value(of: "XKBLAYOUT", in: $0) }.flatMap { $0.split(separator: ",").first.map(String.init) }
        let stem = name.map { String($0.lowercased().prefix { $0.isLetter && $0.isASCII }) }
        return stem?.isEmpty == false ? stem : nil
    }

    static func consoleName(vconsolePath: String = vconsole, keyboardPath: String = keyboard) -> String? {
        consoleName(vconsole: read(vconsolePath), keyboard: read(keyboardPath))
    }

    private static func read(_ path: String) -> String? {
        (try? Files.readFile(path, limit: 16384)).map { String(decoding: $0, as: UTF8.self) }
    }

    /// The layout on this system, reading the two files.
    static func layout(profile: String?, vconsolePath: String = vconsole, keyboardPath: String = keyboard) -> KeyboardLayout {
        return layout(profile: profile, vconsole: read(vconsolePath), keyboard: read(keyboardPath))
    }

    /// A shell-style assignment's value (`KEY=value`, `KEY="value"`), the last one in `text`.
    static func value(of key: String, in text: String) -> String? {
        var found: String?
        for line in text.split(whereSeparator: \.isNewline) {
            let l = line.drop { $0 == " " || $0 == "\t" }
            guard l.hasPrefix(key + "=") else { continue }
            var v = l.dropFirst(key.count + 1)
            if let hash = v.firstIndex(of: "#") { v = v[..<hash] }
            let s = String(v).trimmingCharacters(in: " \t\"'")
            if !s.isEmpty { found = s }
        }
        return found
    }
}

private extension String {
    func trimmingCharacters(in set: String) -> String {
        let chars = Set(set)
        return String(drop { chars.contains($0) }.reversed().drop { chars.contains($0) }.reversed())
    }
}
