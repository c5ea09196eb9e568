// SPDX-License-Identifier: MIT
// Substring search without the _StringProcessing module: `contains(_:)` with a string argument and
// `firstRange(of:)` live there, and calling either links it, the regex parser and the Unicode name
// tables (1.3 MB) into the daemon and the client, which use no regex.

extension StringProtocol {
    /// Where `text` first occurs, comparing Characters as `firstRange(of:)` does; an empty `text`
    /// is found at the start.
    public func firstRange(ofText text: some StringProtocol) -> Range<Index>? {
        var start = startIndex
        while true {
            var i = start, j = text.startIndex
            while j != text.endIndex, i != endIndex, self[i] == text[j] {
                formIndex(after: &i)
                text.formIndex(after: &j)
            }
            if j == text.endIndex { return start..<i }
            if start == endIndex { return nil }
            formIndex(after: &start)
        }
    }

    /// Whether `text` occurs in this string, by Characters like `firstRange(ofText:)` (unlike
    /// `contains(_:)`, an empty `text` is found, and "\n" is not inside "\r\n").
    public func containsText(_ text: some StringProtocol) -> Bool { firstRange(ofText: text) != nil }
}
