// SPDX-License-Identifier: MIT
// The process environment (NOTIFY_SOCKET, SPLASHHUD_SOCKET), read without Foundation.
public enum Environment {
    /// The value of `name`, nil when it is not set.
    public static func value(_ name: String) -> String? { system_getenv(name) }
}
