// SPDX-License-Identifier: MIT
// "Did you mean …?" for user-facing errors: the command language's verbs and keys, board profiles'
// sections and keys.

public enum Suggestion {
    /// The candidate closest to `word` when it is plausibly a typo: the same letters in another case,
    /// or within 1 edit (2 for words of 5 letters or more), a swap of neighbours counting as one.
    public static func closest(to word: String, among candidates: [String]) -> String? {
        let lowered = word.lowercased()
        if let same = candidates.first(where: { $0.lowercased() == lowered }) { return same }
        let limit = word.unicodeScalars.count >= 5 ? 2 : 1
        var best: (String, Int)?
        for candidate in candidates {
            let d = editDistance(Array(lowered.unicodeScalars), Array(candidate.lowercased().unicodeScalars))
            if d <= limit && d < (best?.1 ?? Int.max) { best = (candidate, d) }
        }
        return best?.0
    }

    /// Optimal string alignment distance (Levenshtein plus adjacent transpositions).
    public static func editDistance(_ a: [Unicode.Scalar], _ b: [Unicode.Scalar]) -> Int {
        if a.isEmpty || b.isEmpty { return max(a.count, b.count) }
        if a.count > 64 || b.count > 64 { return Int.max }  // never a typo of a short word
        var table = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in 0...a.count { table[i][0] = i }
        for j in 0...b.count { table[0][j] = j }
        for i in 1...a.count {
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                var d = min(table[i - 1][j] + 1, table[i][j - 1] + 1, table[i - 1][j - 1] + cost)
                if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] { d = min(d, table[i - 2][j - 2] + 1) }
                table[i][j] = d
            }
        }
        return table[a.count][b.count]
    }
}
