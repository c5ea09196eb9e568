// SPDX-License-Identifier: MIT
// Bad input: each broken fixture gives the right error case, and no damaged or cut-short PNG
// crashes the decoder.

import Assets
import Raster
import Testing

@Suite("PNG decoder errors")
struct PNGErrorTests {
    private func decodeError(_ bytes: [UInt8], limits: PNGLimits = .default) -> ImageError? {
        do {
            _ = try PNGDecoder.decode(bytes, limits: limits)
            return nil
        } catch let error as ImageError {
            return error
        } catch {
            Issue.record("unexpected error type: \(error)")
            return nil
        }
    }

    @Test("not a PNG")
    func notPNG() throws {
        #expect(decodeError(try fixtureBytes("not-png.png")) == .notPNG)
        #expect(decodeError([]) == .notPNG)
        #expect(decodeError(Array("hello".utf8)) == .notPNG)
        #expect(ImageError.notPNG.description.contains("signature"))
    }

    @Test("truncated, including inside the signature")
    func truncated() throws {
        #expect(decodeError(try fixtureBytes("truncated.png")) == .truncated)
        #expect(decodeError([0x89, 0x50, 0x4E]) == .truncated)
        #expect(decodeError(Array(PNGChunk.signature)) == .truncated)
    }

    @Test("a bad CRC is corrupt, with libpng's message naming the chunk")
    func badCRC() throws {
        let error = decodeError(try fixtureBytes("bad-crc.png"))
        guard case let .corrupt(reason)? = error else {
            Issue.record("expected corrupt, got \(String(describing: error))")
            return
        }
        #expect(reason.contains("CRC error"))
        #expect(error!.description == "corrupt PNG: \(reason)")
    }

    @Test("a broken zlib stream is corrupt")
    func badZlib() throws {
        let error = decodeError(try fixtureBytes("bad-zlib.png"))
        guard case .corrupt? = error else {
            Issue.record("expected corrupt, got \(String(describing: error))")
            return
        }
    }

    @Test("huge dimensions are refused from the header alone")
    func tooLarge() throws {
        #expect(decodeError(try fixtureBytes("enormous.png")) == .tooLarge(width: 100000, height: 100000))
        // Within 8192x8192 but 8000*8000*4 bytes is over the 64 MiB budget.
        #expect(decodeError(try fixtureBytes("over-budget.png")) == .tooLarge(width: 8000, height: 8000))
        // Tight custom limits apply to ordinary images too.
        let tiny = PNGLimits(maxWidth: 12, maxHeight: 100)
        #expect(decodeError(try fixtureBytes("rgba8.png"), limits: tiny) == .tooLarge(width: 13, height: 11))
        var budget = PNGLimits.default
        budget.maxDecodedBytes = 13 * 11 * 4 - 1
        #expect(decodeError(try fixtureBytes("rgba8.png"), limits: budget) == .tooLarge(width: 13, height: 11))
        budget.maxDecodedBytes += 1
        #expect(decodeError(try fixtureBytes("rgba8.png"), limits: budget) == nil)
        #expect(ImageError.tooLarge(width: 100000, height: 100000).description.contains("100000x100000"))
    }

    @Test("a zTXt that inflates past the chunk limit is refused")
    func chunkLimit() throws {
        #expect(decodeError(try fixtureBytes("huge-ztxt.png")) == .chunkTooLarge)
    }

    @Test("unreadable files name the path and the errno text")
    func unreadableFiles() throws {
        let missing = fixturePath("does-not-exist.png")
        #expect(throws: ImageError.unreadableFile(path: missing, reason: "No such file or directory")) {
            try PNGDecoder.decode(contentsOf: missing)
        }
        let directory = fixturePath("")
        #expect(throws: ImageError.unreadableFile(path: directory, reason: "Is a directory")) {
            try PNGDecoder.decode(contentsOf: directory)
        }
        var limits = PNGLimits.default
        limits.maxFileBytes = 100
        do {
            _ = try PNGDecoder.decode(contentsOf: fixturePath("rgba8.png"), limits: limits)
            Issue.record("an over-limit file decoded")
        } catch let ImageError.unreadableFile(path, reason) {
            #expect(path.hasSuffix("rgba8.png") && reason.contains("limit"))
        }
        #expect(ImageError.unreadableFile(path: "/x.png", reason: "Permission denied").description == "cannot read /x.png: Permission denied")
    }

    @Test("every prefix of a PNG fails cleanly or decodes the right pixels")
    func everyPrefix() throws {
        let bytes = try fixtureBytes("rgba8-adam7.png")
        let full = try PNGDecoder.decode(bytes).pixels
        for length in 0..<bytes.count {
            do {
                let pixmap = try PNGDecoder.decode(Array(bytes.prefix(length)))
                // Only a cut inside IEND's CRC (the last 4 bytes) may still yield the whole image.
                #expect(length >= bytes.count - 4 && pixmap.pixels == full, "prefix \(length)")
            } catch let error as ImageError {
                #expect(error == .truncated || error == .notPNG || { if case .corrupt = error { true } else { false } }(),
                        "prefix \(length): \(error)")
            }
        }
    }

    @Test("flipping any single byte is detected, in critical and ancillary chunks alike")
    func everyByteFlipped() throws {
        let bytes = try fixtureBytes("palette4-trns-adam7.png")
        #expect(try PNGChunk.parse(bytes).map(\.type) == ["IHDR", "PLTE", "tRNS", "IDAT", "IEND"])
        var undetected: [Int] = []
        for i in 8..<bytes.count {
            var damaged = bytes
            damaged[i] ^= 0x5A
            if (try? PNGDecoder.decode(damaged)) != nil { undetected.append(i) }
        }
        // CRCs are checked in every chunk (a damaged tRNS is not silently dropped) and up to IEND.
        #expect(undetected.isEmpty, "flips at \(undetected) decoded")
    }
}
