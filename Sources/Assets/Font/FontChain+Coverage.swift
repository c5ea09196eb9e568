// SPDX-License-Identifier: MIT
// Which faces of a chain a set of texts needs, and which characters of each: what the initramfs
// hook copies (and subsets with hb-subset) so texts known when the image is built draw there as
// they do in the real root.

extension FontChain {
    /// A face some text needs and the characters it must keep.
    public struct FaceNeed: Equatable, Sendable {
        public var path: String
        public var index: Int32
        /// Sorted code points: those the chain resolves to this face, plus every character of no
        /// script of its own (spaces, digits, punctuation) in the texts, which itemizing may give
        /// to the face beside them, and the ellipsis that truncation adds.
        public var scalars: [UInt32]
    }

    /// The faces `texts` resolve to, in chain order (a file named twice appears once).
    public func needs(for texts: [String]) -> [FaceNeed] {
        var own: [Int: Set<UInt32>] = [:], weak: Set<UInt32> = [0x2026, 0x2E]
        for text in texts {
            for scalar in text.unicodeScalars {
                if Script.isWeak(Script.of(scalar.value)) { weak.insert(scalar.value); continue }
                let r = resolve(scalar)
                if r.glyph != 0 { own[r.faceIndex, default: []].insert(scalar.value) }
            }
        }
        var result: [FaceNeed] = []
        for i in own.keys.sorted() {
            let face = faces[i]
            let covered = weak.filter { face.glyphIndex(for: Unicode.Scalar($0)!) != 0 }
            let scalars = own[i]!.union(covered).sorted()
            if let j = result.firstIndex(where: { $0.path == face.path && $0.index == face.index }) {
                result[j].scalars = Set(result[j].scalars).union(scalars).sorted()
            } else {
                result.append(FaceNeed(path: face.path, index: face.index, scalars: scalars))
            }
        }
        return result
    }
}
