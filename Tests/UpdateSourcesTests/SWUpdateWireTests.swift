// SPDX-License-Identifier: MIT
// SWUpdate's progress frames in every layout its releases send, in both byte orders, cut at any
// point by the socket; and the layout chosen from what the socket says and the configured release.
import Testing
import UpdateSources

@Suite("SWUpdate's progress frames")
struct SWUpdateWireTests {
    static let frame = SWUpdateFrame(status: .progress, downloadPercent: 7, downloadBytes: 0x1_0000_0002, steps: 3, step: 2,
                                     stepPercent: 42, image: "rootfs.img", handler: "rawfile", source: 4, info: "{\"0\": 1}")

    @Test("each layout decodes what it encodes, little- and big-endian, at the offsets progress_ipc.h gives",
          arguments: [SWUpdateLayout.legacy, .padded, .packed], [SWUpdateByteOrder.little, .big])
    func roundTrip(layout: SWUpdateLayout, order: SWUpdateByteOrder) throws {
        let bytes = Self.frame.encoded(layout: layout, byteOrder: order)
        #expect(bytes.count == layout.size)
        var expected = Self.frame
        if layout == .legacy { expected.downloadBytes = 0 }
        #expect(try SWUpdateFrame.decode(bytes[...], layout: layout, byteOrder: order) == expected)
        // The offsets of upstream's struct (the 2416-byte one: dwl_bytes 16, nsteps 24, cur_image 36, info 364).
        if layout == .padded {
            let at = { (o: Int) in order == .little ? bytes[o] : bytes[o + 3] }
            #expect(at(24) == 3 && at(28) == 2 && at(32) == 42 && at(356) == 4 && at(360) == 8)
            #expect(Array(bytes[36..<46]) == Array("rootfs.img".utf8) && Array(bytes[292..<299]) == Array("rawfile".utf8))
            #expect(bytes[364] == UInt8(ascii: "{"))
        }
        if layout == .packed {
            let at = { (o: Int) in order == .little ? bytes[o] : bytes[o + 3] }
            #expect(at(20) == 3 && at(24) == 2 && at(28) == 42 && at(352) == 4 && at(356) == 8)
            #expect(Array(bytes[32..<42]) == Array("rootfs.img".utf8) && bytes[360] == UInt8(ascii: "{"))
        }
    }

    @Test("the wrong byte order is refused, not shown")
    func wrongOrder() {
        let bytes = Self.frame.encoded(layout: .padded, byteOrder: .big)
        #expect(throws: SWUpdateFrameError.self) { try SWUpdateFrame.decode(bytes[...], layout: .padded, byteOrder: .little) }
    }

    @Test("fields SWUpdate never sends are errors that name the field")
    func outOfRange() {
        func bad(_ change: (inout SWUpdateFrame) -> Void) -> [UInt8] {
            var f = Self.frame; change(&f); return f.encoded(layout: .padded)
        }
        func error(_ bytes: [UInt8]) -> SWUpdateFrameError? {
            do { _ = try SWUpdateFrame.decode(bytes[...], layout: .padded); return nil } catch { return error }
        }
        #expect(error(bad { $0.stepPercent = 101 }) == .field("cur_percent", 101))
        #expect(error(bad { $0.downloadPercent = 250 }) == .field("dwl_percent", 250))
        #expect(error(bad { $0.step = 5 }) == .field("cur_step", 5))
        var status = Self.frame.encoded(layout: .padded)
        status[4] = 9
        #expect(error(status) == .field("status", 9))
        var info = Self.frame.encoded(layout: .padded)
        info[360] = 0; info[361] = 0x10  // infolen 4096
        #expect(error(info) == .field("infolen", 4096))
        var image = Self.frame.encoded(layout: .padded)
        for i in 36..<292 { image[i] = UInt8(ascii: "x") }
        #expect(error(image) == .unterminated("cur_image"))
        #expect(error(Array(Self.frame.encoded(layout: .padded).dropLast())) == .size(2415, expected: 2416))
    }

    @Test("RUN after the last image carries cur_step = nsteps + 1, as 2022.12 sends it")
    func stepAfterLast() throws {
        let f = SWUpdateFrame(status: .run, steps: 3, step: 4, image: "app.img")
        #expect(try SWUpdateFrame.decode(f.encoded(layout: .padded)[...], layout: .padded) == f)
    }

    /// The frames a connection carries, fed in pieces of `cut` bytes.
    static func feed(_ bytes: [UInt8], cut: Int, release: SWUpdateRelease?, order: SWUpdateByteOrder = .little) throws(SWUpdateWireError) -> ([SWUpdateFrame], SWUpdateWire) {
        var wire = SWUpdateWire(release: release, byteOrder: order)
        var frames: [SWUpdateFrame] = []
        var at = 0
        while at < bytes.count {
            frames += try wire.feed(bytes[at..<min(at + cut, bytes.count)])
            at += cut
        }
        return (frames, wire)
    }

    static func stream(_ api: UInt32, _ layout: SWUpdateLayout, ack: Bool, order: SWUpdateByteOrder = .little) -> [UInt8] {
        var head: [UInt8] = []
        if ack {
            head = order == .little ? [0, 0, UInt8(api >> 16), 0] : [0, UInt8(api >> 16), 0, 0]
            head += Array("ACK".utf8) + [0]
        }
        var frames: [SWUpdateFrame] = [SWUpdateFrame(apiVersion: api, status: .start, steps: 2)]
        for p in stride(from: 0, through: 100, by: 25) {
            frames.append(SWUpdateFrame(apiVersion: api, status: p == 0 ? .run : .progress, steps: 2, step: 1, stepPercent: UInt32(p), image: "a.img"))
        }
        frames.append(SWUpdateFrame(apiVersion: api, status: .success))
        return head + frames.flatMap { $0.encoded(layout: layout, byteOrder: order) }
    }

    @Test("Debian 12's 2022.12: no ACK, field 0 is 0, 2416 bytes (LP64); any cut of the stream gives the same frames",
          arguments: [1, 7, 8, 100, 2416, 2417, 5000])
    func debian(cut: Int) throws {
        let (frames, wire) = try Self.feed(Self.stream(0, .native, ack: false), cut: cut, release: nil)
        #expect(frames.count == 7 && frames.first?.status == .start && frames.last?.status == .success)
        #expect(wire.layout == .native && wire.apiVersion == 0)
        #expect(frames.map(\.stepPercent) == [0, 0, 25, 50, 75, 100, 0])
    }

    @Test("the layout from what the socket says and the configured release")
    func decisions() throws {
        let r = { (t: String) in SWUpdateRelease(t)! }
        // API 1 (2023.12, 2024.05): field 0 is 0x00010000, no ACK.
        #expect(try Self.feed(Self.stream(0x1_0000, .native, ack: false), cut: 300, release: nil).1.layout == .native)
        #expect(try Self.feed(Self.stream(0x1_0000, .native, ack: false), cut: 300, release: r("2024.05")).1.layout == .native)
        // API 2: the ACK, then the release decides.
        let v2padded = try Self.feed(Self.stream(0x2_0000, .native, ack: true), cut: 3, release: r("2025.05"))
        #expect(v2padded.1.layout == .native && v2padded.0.count == 7)
        let v2packed = try Self.feed(Self.stream(0x2_0000, .packed, ack: true), cut: 1000, release: r("2026.05.1"))
        #expect(v2packed.1.layout == .packed && v2packed.0.count == 7 && v2packed.0[3].stepPercent == 50)
        let big = try Self.feed(Self.stream(0x2_0000, .packed, ack: true, order: .big), cut: 1000, release: r("2025.12"), order: .big)
        #expect(big.0.count == 7 && big.0[3].stepPercent == 50)
        // A release named 2020.04 or older: no dwl_bytes.
        #expect(try Self.feed(Self.stream(0, .legacy, ack: false), cut: 2400, release: r("2019.11")).0.count == 7)
    }

    @Test("what cannot be decided or does not match is a clear error, never a guess")
    func refusals() {
        func error(_ bytes: [UInt8], _ release: String?) -> SWUpdateWireError? {
            do { _ = try Self.feed(bytes, cut: 4096, release: release.map { SWUpdateRelease($0)! }); return nil } catch { return error }
        }
        #expect(error(Self.stream(0x2_0000, .packed, ack: true), nil) == .ambiguous)
        #expect(error(Self.stream(0x2_0000, .packed, ack: true), "2022.12") == .contradicts(release: SWUpdateRelease("2022.12")!, api: 2))
        #expect(error(Self.stream(0, .native, ack: false), "2025.12") == .contradicts(release: SWUpdateRelease("2025.12")!, api: 0))
        #expect(error(Self.stream(0x1_0000, .native, ack: false), "2022.12") == .contradicts(release: SWUpdateRelease("2022.12")!, api: 1))
        #expect(error(Self.stream(0x3_0000, .native, ack: false), nil) == .unknownAPI(0x3_0000))
        #expect(error(Self.stream(0x3_0000, .native, ack: true), "2026.05") == .unknownAPI(0x3_0000))
        // The 2408-byte frames read as 2416: the second frame starts 8 bytes early and its fields are garbage.
        #expect(error(Self.stream(0x2_0000, .packed, ack: true), "2025.05") != nil)
        // Field 0 changing mid-connection.
        var mixed = Self.stream(0, .native, ack: false)
        mixed += SWUpdateFrame(apiVersion: 0x1_0000, status: .idle).encoded(layout: .native, byteOrder: .little)
        #expect(error(mixed, nil) == .frame(.apiVersion(0x1_0000, expected: 0)))
        #expect(SWUpdateWireError.ambiguous.description.contains("--swupdate-version"))
    }

    @Test("releases: YEAR.MONTH with an optional point release; anything else is nil")
    func releases() {
        #expect(SWUpdateRelease("2022.12") == SWUpdateRelease(year: 2022, month: 12))
        #expect(SWUpdateRelease("2024.12.1")?.description == "2024.12")
        #expect(SWUpdateRelease("2025.5")?.description == "2025.05")
        for bad in ["", "2022", "2022.13", "22.12", "2022.12.1.1", "v2022.12", "2022.1x", "２０２２.12"] { #expect(SWUpdateRelease(bad) == nil, "\(bad)") }
    }
}
