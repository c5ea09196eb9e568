// SPDX-License-Identifier: MIT
// The kernel's host name: the device id the fleet bridge (splashhud-mqtt) and the support QR code
// use by default, so a support desk can match a code to the fleet's dashboard.

extension Files {
    /// /proc/sys/kernel/hostname without its line end (what uname(2)'s `nodename` holds); nil when
    /// it cannot be read or is empty.
    public static func hostName() -> String? {
        guard let bytes = try? readFile("/proc/sys/kernel/hostname", limit: 256) else { return nil }
        let blank: (UInt8) -> Bool = { $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }
        let name = bytes.drop(while: blank).reversed().drop(while: blank).reversed()
        return name.isEmpty ? nil : String(decoding: name, as: UTF8.self)
    }
}
