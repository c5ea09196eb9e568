// SPDX-License-Identifier: MIT
// VKMSRecord's reading of a phase, on records made up here: what the vkms suite's picture and cap
// checks rest on (no QEMU).
import Testing

@Suite("vkms records: flips, entries composed in time and late")
struct VKMSRecordTests {
    /// Flips completing at vblanks 100, 104 and 108 (events delivered at 1000, 1400 and 1800 µs);
    /// entries for 101-106: 101 composed before 104's event gave its buffer back, 102 and 103
    /// after it, 104-105 before 108's event, 106 in time but showing another picture than 105
    /// without a flip at 106.
    static let line = "PHASE-VKMS E:101:aa:1300 E:102:aa:1500 E:103:bb:1500 E:104:cc:1700 E:105:cc:1790 E:106:dd:1795 "
        + "F:104:1400 F:100:1000 F:108:1800"

    @Test func readsFlipsInOrderAndEntries() throws {
        let r = try #require(VKMSRecord(["OTHER 1", Self.line], prefix: "PHASE-VKMS"))
        #expect(r.flips.map(\.vblank) == [100, 104, 108])
        #expect(r.entries.count == 6 && r.entries[2].crc == 0xbb && r.entries[2].added == 1500)
        #expect(r.flipIntervals == [4, 4])
        #expect(r.gridLags(every: 4) == [0, 0, 0])
        #expect(r.flipRate == 0.25)
    }

    /// A cap of every 4th vblank: the flip meant for 112 completed at 113 (5, then 3 back on the
    /// grid), one meant for 124 skipped (8), and nothing earlier than the grid.
    @Test func lagsBehindTheCapsGrid() throws {
        let r = try #require(VKMSRecord(["CAPPED-VKMS F:100:0 F:104:1 F:108:2 F:113:3 F:116:4 F:120:5 F:128:6"], prefix: "CAPPED-VKMS"))
        #expect(r.flipIntervals == [4, 4, 5, 3, 4, 8])
        #expect(r.gridLags(every: 4) == [0, 0, 0, 1, 0, 0, 0])
        #expect(VKMSRecord(["P F:7:0"], prefix: "P")!.gridLags(every: 4) == [0])
        #expect(VKMSRecord(["P E:7:aa:0"], prefix: "P")!.gridLags(every: 4).isEmpty)
    }

    @Test func entriesComposedAfterTheirBufferWentBackAreLate() throws {
        let r = try #require(VKMSRecord([Self.line], prefix: "PHASE-VKMS"))
        #expect(r.entries.map { r.composedLate($0) } == [false, true, true, false, false, false])
        #expect(r.inTime.map(\.frame) == [101, 104, 105, 106])
        // 102 -> 103 changed without a flip, but both were composed late: no evidence. 105 -> 106
        // were both in time: the picture changed on screen without a flip.
        #expect(r.changesWithoutFlip == [106])
    }

    @Test func withoutFlipsEveryEntryIsInTime() throws {
        let r = try #require(VKMSRecord(["STATIC-VKMS E:5:aa:100 E:6:aa:200"], prefix: "STATIC-VKMS"))
        #expect(r.flips.isEmpty && r.inTime.count == 2 && r.changesWithoutFlip.isEmpty && r.flipRate == 0)
    }

    @Test func aMalformedWordIsNoRecord() {
        #expect(VKMSRecord(["PHASE-VKMS E:1:zz:5"], prefix: "PHASE-VKMS") == nil)
        #expect(VKMSRecord(["PHASE-VKMS F:1"], prefix: "PHASE-VKMS") == nil)
        #expect(VKMSRecord(["PHASE-VKMSX E:1:aa:5"], prefix: "PHASE-VKMS") == nil)
    }
}
