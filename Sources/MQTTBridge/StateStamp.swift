// SPDX-License-Identifier: MIT
// What makes the retained state a heartbeat: every publish of it carries the kiosk's wall-clock
// time (RFC 3339, UTC, to the second) and a sequence number that rises with each publish of this
// bridge's run. A dashboard then tells a kiosk whose HUD has not changed (fresh time, rising seq)
// from one whose bridge or network is gone (the time stops; the broker's will says `offline`).
struct StateStamp {
    private(set) var seq: UInt64 = 0

    /// `state` (a JSON object) with `"time"` and the next `"seq"` as its last keys.
    mutating func stamp(_ state: String, wallNanoseconds: Int64) -> String {
        seq += 1
        guard state.hasSuffix("}") else { return state }
        let separator = state == "{}" ? "" : ","
        return String(state.dropLast()) + separator + #""time":"\#(Self.utc(wallNanoseconds))","seq":\#(seq)}"#
    }

    /// RFC 3339 in UTC, whole seconds: `2026-11-29T18:12:00Z` (proleptic Gregorian calendar;
    /// the civil date from days since 1970-01-01 by Hinnant's algorithm, in Int64 throughout).
    static func utc(_ nanoseconds: Int64) -> String {
        let seconds = nanoseconds >= 0 ? nanoseconds / 1_000_000_000 : (nanoseconds - 999_999_999) / 1_000_000_000
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let second = seconds - days * 86_400
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1_460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        func two(_ v: Int64) -> String { v < 10 ? "0\(v)" : "\(v)" }
        let y = String(year)
        return String(repeating: "0", count: max(0, 4 - y.count)) + y + "-\(two(month))-\(two(day))T"
            + "\(two(second / 3600)):\(two(second / 60 % 60)):\(two(second % 60))Z"
    }
}
