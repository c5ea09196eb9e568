// SPDX-License-Identifier: MIT
// A composed frame (one colour and a tile) gives the converting blit exactly the bytes of the same
// picture held whole, in every format and rotation, for rects inside, across and outside the tile.

import Testing

@testable import Raster

@Suite struct ComposedFrameTests {
    static let width: Int32 = 37, height: Int32 = 23
    static let tileRect = IntRect(x: 9, y: 5, width: 13, height: 11)

    /// The colour row, a patterned tile at `tileRect`, and the same picture whole.
    static func pictures() -> (ComposedFrame, Pixmap) {
        let row = Pixmap(width: width, height: 1)
        let colour = PremultipliedColor(argb: 0xC0_30_60_90)
        row.view.fill(row.view.bounds, with: colour)
        let tile = Pixmap(width: tileRect.width, height: tileRect.height)
        let whole = Pixmap(width: width, height: height)
        whole.view.fill(whole.view.bounds, with: colour)
        var seed: UInt32 = 12345
        for y in 0..<tileRect.height {
            for x in 0..<tileRect.width {
                seed = seed &* 1_103_515_245 &+ 12345
                let a = seed >> 24, c = PremultipliedColor(argb: a << 24 | (seed >> 8 & 0xFF) * a / 255 << 16 | (seed & 0xFF) * a / 255)
                tile[x, y] = c
                whole[tileRect.x + x, tileRect.y + y] = c
            }
        }
        let frame = ComposedFrame(width: width, height: height, row: row, tile: tile.view.moved(toX: tileRect.x, y: tileRect.y))
        return (frame, whole)
    }

    @Test func pixelsAndMaterializedPictureAreTheWholeOnes() {
        let (frame, whole) = Self.pictures()
        #expect(frame.materialized().pixels == whole.pixels)
        for (x, y) in [(0, 0), (9, 5), (21, 15), (22, 16), (36, 22), (15, 10)] as [(Int32, Int32)] {
            #expect(frame[x, y] == whole[x, y])
        }
    }

    @Test func aDetachedFrameKeepsThePictureWhileTheOriginalIsDrawnOver() {
        let (frame, whole) = Self.pictures()
        let detached = frame.detached()
        #expect(detached.tile?.bounds == Self.tileRect && detached.base.rowBytes == 0, "as small as the original's parts")
        // The maker draws its next frame into the same memory.
        frame.tile?.fill(Self.tileRect, with: PremultipliedColor(argb: 0xFF_FF_00_00))
        frame.base.fill(IntRect(x: 0, y: 0, width: Self.width, height: 1), with: PremultipliedColor(argb: 0xFF_00_FF_00))
        #expect(frame.materialized().pixels != whole.pixels)
        #expect(detached.materialized().pixels == whole.pixels)
        // A whole picture is copied whole.
        let copy = Pixmap(width: Self.width, height: Self.height)
        copy.view.copy(copy.view.bounds, from: whole.view)
        let wholeDetached = ComposedFrame(copy.view).detached()
        copy.view.fill(copy.view.bounds, with: PremultipliedColor(argb: 0))
        #expect(wholeDetached.tile == nil && wholeDetached.materialized().pixels == whole.pixels)
    }

    @Test(arguments: Rotation.allCases)
    func blitGivesTheBytesOfTheWholePicture(rotation: Rotation) {
        let (frame, whole) = Self.pictures()
        let rects = [
            IntRect(x: 0, y: 0, width: Self.width, height: Self.height),  // everything
            Self.tileRect,  // the tile exactly
            IntRect(x: 11, y: 7, width: 4, height: 3),  // inside the tile
            IntRect(x: 5, y: 2, width: 10, height: 20),  // across its left edge
            IntRect(x: 25, y: 0, width: 12, height: 23),  // beside it
            IntRect(x: -3, y: 18, width: 50, height: 10),  // clipped
        ]
        for format in PixelFormat.allCases {
            for dither in [true, false] {
                let a = ScanoutBuffer(width: rotation.swapsAxes ? Self.height : Self.width,
                                      height: rotation.swapsAxes ? Self.width : Self.height, format: format)
                let b = ScanoutBuffer(width: rotation.swapsAxes ? Self.height : Self.width,
                                      height: rotation.swapsAxes ? Self.width : Self.height, format: format)
                for r in rects {
                    let wa = convertingBlit(from: frame, rect: r, to: a.view, rotation: rotation, dither: dither)
                    let wb = convertingBlit(from: whole.view, rect: r, to: b.view, rotation: rotation, dither: dither)
                    #expect(wa == wb, "\(format.name) \(rotation) \(r): written \(wa) vs \(wb)")
                    #expect(a.bytes == b.bytes, "\(format.name) \(rotation) dither \(dither) \(r)")
                }
            }
        }
    }

    /// A frame called opaque goes to 0° XRGB8888 by row copies: the same bytes as the loop that
    /// sets the X byte, for every rect shape, from a tile and a row or from a whole picture.
    @Test func anOpaqueFrameCopiesTheBytesTheXRGBLoopWrites() {
        let row = Pixmap(width: Self.width, height: 1)
        row.view.fill(row.view.bounds, with: PremultipliedColor(argb: 0xFF_30_60_90))
        let tile = Pixmap(width: Self.tileRect.width, height: Self.tileRect.height)
        for y in 0..<tile.height {
            for x in 0..<tile.width { tile[x, y] = PremultipliedColor(argb: 0xFF00_0000 | UInt32(x * 19 + y * 7) << 8 | UInt32(y)) }
        }
        let placed = tile.view.moved(toX: Self.tileRect.x, y: Self.tileRect.y)
        let plain = ComposedFrame(width: Self.width, height: Self.height, row: row, tile: placed)
        let opaque = ComposedFrame(width: Self.width, height: Self.height, row: row, tile: placed, opaque: true)
        let whole = plain.materialized()
        let rects = [IntRect(x: 0, y: 0, width: Self.width, height: Self.height), Self.tileRect,
                     IntRect(x: 11, y: 7, width: 9, height: 3), IntRect(x: 5, y: 2, width: 10, height: 20),
                     IntRect(x: -3, y: 18, width: 50, height: 10)]
        for r in rects {
            let a = ScanoutBuffer(width: Self.width, height: Self.height, format: .xrgb8888)
            let b = ScanoutBuffer(width: Self.width, height: Self.height, format: .xrgb8888)
            let c = ScanoutBuffer(width: Self.width, height: Self.height, format: .xrgb8888)
            #expect(convertingBlit(from: opaque, rect: r, to: a.view, rotation: .r0) == convertingBlit(from: plain, rect: r, to: b.view, rotation: .r0))
            convertingBlit(from: ComposedFrame(whole.view, opaque: true), rect: r, to: c.view, rotation: .r0)
            #expect(a.bytes == b.bytes, "\(r)")
            #expect(c.bytes == b.bytes, "\(r), whole")
        }
    }

    @Test func subtractingLeavesDisjointPiecesThatCoverTheRest() {
        let r = IntRect(x: 0, y: 0, width: 10, height: 8)
        for o in [IntRect(x: 2, y: 3, width: 4, height: 2), IntRect(x: -5, y: -5, width: 8, height: 30),
                  IntRect(x: 20, y: 0, width: 3, height: 3), IntRect(x: -1, y: -1, width: 12, height: 10)] {
            let pieces = r.subtracting(o)
            for y in r.y..<r.maxY {
                for x in r.x..<r.maxX {
                    let n = pieces.filter { $0.contains(x: x, y: y) }.count
                    #expect(n == (o.contains(x: x, y: y) ? 0 : 1), "(\(x), \(y)) minus \(o)")
                }
            }
        }
    }
}
