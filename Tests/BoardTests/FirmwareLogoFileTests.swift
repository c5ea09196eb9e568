// SPDX-License-Identifier: MIT
// `logo = firmware`: the BGRT's files as the kernel lays them out, read into a logo; every way they
// can be missing, off or broken is a reason for no logo (which says what it is), never a crash.

import Foundation
import Testing

@testable import Board
import HUD
import Logging
import Raster

@Suite struct FirmwareLogoFileTests {
    /// ImageMagick's 7x5 24-bit BMP, the decoder's fixture.
    static let bmp = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("AssetsTests/Fixtures/logo-24.bmp")

    /// A directory laid out as /sys/firmware/acpi/bgrt, with `files` replacing or (nil) removing entries.
    static func bgrt(_ files: [String: [UInt8]?] = [:]) throws -> String {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("bgrt-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        var all: [String: [UInt8]?] = [
            "version": Array("1\n".utf8), "status": Array("1\n".utf8), "type": Array("0\n".utf8),
            "xoffset": Array("543\n".utf8), "yoffset": Array("371\n".utf8), "image": [UInt8](try Data(contentsOf: bmp)),
        ]
        all.merge(files) { $1 }
        for case let (name, bytes?) in all { try Data(bytes).write(to: dir.appendingPathComponent(name)) }
        return dir.path
    }

    @Test func readsTheLogoAndWhereTheFirmwareDrewIt() throws {
        let logo = try FirmwareLogoFile.read(directory: Self.bgrt()).get()
        #expect(logo.image.width == 7 && logo.image.height == 5 && logo.image[0, 0].argb == 0xFFFF_0000)
        #expect(logo.x == 543 && logo.y == 371 && logo.orientation == .r0)
        // status bits 1-2: 1 is counter-clockwise (r270), 2 upside down, 3 clockwise (r90).
        for (status, turned) in [(3, Rotation.r270), (5, .r180), (7, .r90)] {
            let dir = try Self.bgrt(["status": Array("\(status)\n".utf8)])
            #expect(try FirmwareLogoFile.read(directory: dir).get().orientation == turned)
        }
    }

    @Test func noLogoSaysWhy() throws {
        func absence(_ dir: String) -> FirmwareLogoFile.Absence? {
            if case .failure(let a) = FirmwareLogoFile.read(directory: dir) { return a }
            return nil
        }
        #expect(absence("/nonexistent/bgrt") == .none(directory: "/nonexistent/bgrt"))
        #expect("\(FirmwareLogoFile.Absence.none(directory: "/d"))".contains("bgrt_disable"))
        #expect(absence(try Self.bgrt(["status": Array("0\n".utf8)])) == .notShown(status: 0))
        #expect(absence(try Self.bgrt(["status": Array("6\n".utf8)])) == .notShown(status: 6))
        let cases: [([String: [UInt8]?], String)] = [
            (["type": Array("1\n".utf8)], "BGRT image type 1, not a BMP (0)"),
            (["xoffset": Array("-3\n".utf8)], "xoffset holds '-3', not a number from 0 to 32767"),
            (["yoffset": Array("99999\n".utf8)], "yoffset holds '99999', not a number from 0 to 32767"),
            (["status": Array("lots".utf8)], "status holds 'lots', not a number from 0 to 255"),
            (["xoffset": nil], "xoffset: No such file or directory"),
            (["image": nil], "image: No such file or directory"),
            (["image": Array("GIF89a".utf8)], "image: not a BMP"),
            (["image": Array([UInt8](try Data(contentsOf: Self.bmp)).prefix(100))], "image: truncated BMP"),
        ]
        for (files, why) in cases {
            let dir = try Self.bgrt(files)
            guard case .invalid(let text)? = absence(dir) else { Issue.record("\(files): no error"); continue }
            #expect(text.contains(why), "\(text)")
        }
    }

    @Test func anOversizedImageIsRefusedUnread() throws {
        let dir = try Self.bgrt()
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: dir + "/image"))
        try handle.truncate(atOffset: FirmwareLogoFile.maxImageBytes + 1)
        try handle.close()
        guard case .failure(.invalid(let why)) = FirmwareLogoFile.read(directory: dir) else { Issue.record("read"); return }
        #expect(why.contains("over the \(FirmwareLogoFile.maxImageBytes)-byte limit"))
    }

    @Test func theProfileAsksForIt() throws {
        let p = try BoardProfile.parse("[theme]\nlogo = firmware\nscreen = #102030", file: "boards/t.conf")
        #expect(p.logoFromFirmware && p.logoPath == nil)
        let theme = p.sceneTheme(logger: Logger(label: "test"), firmwareDirectory: try Self.bgrt())
        #expect(theme.firmwareLogo?.x == 543 && theme.logo == nil)
        // None on this machine: the screen colour alone, the splash runs.
        let bare = p.sceneTheme(logger: Logger(label: "test"), firmwareDirectory: "/nonexistent")
        #expect(bare.firmwareLogo == nil && bare.screenColor == Color(r: 0x10, g: 0x20, b: 0x30))
        // A file called firmware is a path.
        let file = try BoardProfile.parse("[theme]\nlogo = ./firmware", file: "boards/t.conf")
        #expect(!file.logoFromFirmware && file.logoPath == "./firmware")
    }
}
