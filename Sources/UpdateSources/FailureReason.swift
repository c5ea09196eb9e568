// SPDX-License-Identifier: MIT
// A framework's reason for a failed update as the HUD shows it under the error icon: bounded, so
// that a framework's long log line or a flood of errors never fills the screen.

public enum FailureReason {
    /// The last three non-empty lines of `lines`, each trimmed and cut to `lineLimit` UTF-8 bytes;
    /// nil when there is none.
    public static func bounded(_ lines: [String], lineLimit: Int = 160) -> String? {
        let kept = lines.flatMap { $0.split(separator: "\n", omittingEmptySubsequences: true) }
            .map { String($0).trimmingSpaces }.filter { !$0.isEmpty }
        guard !kept.isEmpty else { return nil }
        return kept.suffix(3).map { cut($0, to: lineLimit) }.joined(separator: "\n")
    }

    /// `text` cut to at most `limit` UTF-8 bytes at a character boundary, with an ellipsis if cut.
    static func cut(_ text: String, to limit: Int) -> String {
        guard text.utf8.count > limit else { return text }
        var out = ""
        var used = 0
        for c in text {
            let n = c.utf8.count
            if used + n > limit - 3 { break }
            out.append(c); used += n
        }
        return out + "…"
    }
}

extension String {
    var trimmingSpaces: String {
        let scalars = unicodeScalars
        guard let first = scalars.firstIndex(where: { !$0.properties.isWhitespace }),
              let last = scalars.lastIndex(where: { !$0.properties.isWhitespace }) else { return "" }
        return String(scalars[first...last])
    }
}
