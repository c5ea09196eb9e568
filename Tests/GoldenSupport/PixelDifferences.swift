// SPDX-License-Identifier: MIT
// Counting the pixels two pictures differ in, for tests that compare renders frame by frame: a
// loop over the pixels' buffers, fast in debug builds too (where `zip(a, b).filter` or a loop of
// Int32 subscripts spends most of a test's time in generic code, and more under the sanitizers).

import Raster

/// How many of the pixels of two equally long pixel arrays differ, and the index of the first.
public func pixelDifferences(_ a: [UInt32], _ b: [UInt32]) -> (count: Int, first: Int?) {
    precondition(a.count == b.count, "\(a.count) pixels against \(b.count)")
    return a.withUnsafeBufferPointer { a in
        b.withUnsafeBufferPointer { b in
            var count = 0, first: Int? = nil
            for i in 0..<a.count where a[i] != b[i] {
                count += 1
                if first == nil { first = i }
            }
            return (count, first)
        }
    }
}

/// How many pixels of two pixmaps of one size differ.
public func differingPixels(_ a: Pixmap, _ b: Pixmap) -> Int {
    precondition(a.width == b.width && a.height == b.height, "\(a.width)x\(a.height) vs \(b.width)x\(b.height)")
    var count = 0
    for y in 0..<Int(a.height) {
        let ra = a.view.row(Int32(y)), rb = b.view.row(Int32(y))
        for x in 0..<Int(a.width) where ra[x] != rb[x] { count += 1 }
    }
    return count
}
