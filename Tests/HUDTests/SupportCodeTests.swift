// SPDX-License-Identifier: MIT
// The support QR code: the address it carries (SupportAddress), its modules (QRMatrix, libqrencode),
// where the layouts put it and in how many pixels a module, the controller's rules for when it shows,
// and its drawing (a golden, and whole-pixel modules read back from the pixels).
import Assets
import GoldenSupport
import HUD
import HUDProtocol
import QRCode
import Raster
import Testing

@Suite("Support code")
struct SupportCodeTests {
    typealias H = DrawHarness
    static let reason = "Image invalid or corrupted. Not installing ..."

    // MARK: The address

    @Test func addressAppendsDeviceAndErrorPercentEncoded() throws {
        let a = try SupportAddress(url: "https://support.example.com/kiosk", deviceID: "kiosk-17")
        #expect(a.address(error: Self.reason)
                == "https://support.example.com/kiosk?device=kiosk-17&error=Image%20invalid%20or%20corrupted.%20Not%20installing%20...")
        // An existing query gets `&`; a base ending in ? or & gets nothing more.
        #expect(try SupportAddress(url: "http://h/case?lang=de", deviceID: "a").address(error: "x") == "http://h/case?lang=de&device=a&error=x")
        #expect(try SupportAddress(url: "http://h/case?", deviceID: "a").address(error: "x") == "http://h/case?device=a&error=x")
        #expect(try SupportAddress(url: "http://h/?a=1&", deviceID: "a").address(error: "") == "http://h/?a=1&device=a&error=")
    }

    @Test func percentEncodingKeepsOnlyUnreservedBytes() {
        #expect(SupportAddress.percentEncoded("AZaz09-._~") == "AZaz09-._~")
        #expect(SupportAddress.percentEncoded("a b\nc&d=e?f/g#h+%") == "a%20b%0Ac%26d%3De%3Ff%2Fg%23h%2B%25")
        #expect(SupportAddress.percentEncoded("Größe ✓") == "Gr%C3%B6%C3%9Fe%20%E2%9C%93")
        #expect(SupportAddress.percentEncoded("kiosk/7 hall") == "kiosk%2F7%20hall")
    }

    @Test func errorIsCutAtACharacterWithinTheBound() throws {
        let a = try SupportAddress(url: "https://support.example.com/k", deviceID: "d")
        let long = a.address(error: String(repeating: "é", count: 400))
        #expect(long.utf8.count <= SupportAddress.maxAddressBytes && long.utf8.count > SupportAddress.maxAddressBytes - 6)
        #expect(long.hasSuffix("%C3%A9"))  // never half a character, nor half an escape
        let short = a.address(error: "disk full")
        #expect(short.hasSuffix("&error=disk%20full"))
    }

    @Test func urlsAndDeviceIDsAreChecked() {
        for good in ["https://x", "http://support.example.com/kiosk?lang=de", "HTTPS://Example.COM:8443/a%20b"] {
            #expect(throws: Never.self, "\(good)") { try SupportAddress.check(url: good) }
        }
        let bad: [(String, String)] = [
            ("ftp://x", "not an http"), ("mailto:help@example.com", "not an http"), ("https://", "no host"),
            ("https:///path", "no host"), ("https://x/a b", "a space"), ("https://x/é", "byte 0xC3"),
            ("https://x/#top", "fragment"), ("https://x/" + String(repeating: "a", count: 260), "longer than 256"),
        ]
        for (url, why) in bad {
            #expect(throws: SupportAddressError.self, "\(url)") { try SupportAddress.check(url: url) }
            do { try SupportAddress.check(url: url) } catch { #expect(error.reason.contains(why), "\(url): \(error)") }
        }
        #expect(throws: Never.self) { try SupportAddress.check(deviceID: "kiosk 7/hall") }
        #expect(throws: SupportAddressError.self) { try SupportAddress.check(deviceID: "") }
        #expect(throws: SupportAddressError.self) { try SupportAddress.check(deviceID: "a\tb") }
        #expect(throws: SupportAddressError.self) { try SupportAddress.check(deviceID: String(repeating: "d", count: 65)) }
    }

    // MARK: The modules

    @Test func matrixOfAKnownText() throws {
        // 19 bytes: more than version 1 holds at level M (14 bytes in 8-bit mode), so version 2, 25 modules.
        let m = try QRMatrix(encoding: "https://example.com")
        #expect(m.version == 2 && m.size == 25 && m.modules.count == 625)
        // The three finder patterns: a dark 7x7 ring around a dark 3x3, light between.
        for (r0, c0) in [(0, 0), (0, 18), (18, 0)] {
            for r in 0..<7 {
                for c in 0..<7 {
                    let ring = r == 0 || r == 6 || c == 0 || c == 6, core = (2...4).contains(r) && (2...4).contains(c)
                    #expect(m[r0 + r, c0 + c] == (ring || core), "finder at \(r0),\(c0): module \(r),\(c)")
                }
            }
        }
        // The timing pattern between the top finders alternates, dark first.
        #expect((8...16).map { m[6, $0] } == (8...16).map { $0 % 2 == 0 })
        // The same text, the same symbol; the longest address, version 15 at most.
        #expect(try QRMatrix(encoding: "https://example.com") == m)
        #expect(try QRMatrix(encoding: String(repeating: "%", count: SupportAddress.maxAddressBytes)).version <= 15)
    }

    @Test func matrixRefusesWhatNoCodeHolds() {
        #expect(throws: QRMatrixError.self) { try QRMatrix(encoding: String(repeating: "x", count: 3000)) }
        do { _ = try QRMatrix(encoding: String(repeating: "x", count: 3000)) } catch {
            #expect(error.description == "3000 bytes do not fit a QR code (version 40, level M)")
        }
        #expect(throws: QRMatrixError.self) { try QRMatrix(encoding: "a\u{0}b") }
    }

    // MARK: Layout

    static func errorWithCode(_ address: String = "https://support.example.com/kiosk?device=kiosk-17&error=Image%20invalid",
                              _ configure: (inout HUDAppearance) -> Void = { _ in }) -> HUDPresentation {
        var p = H.presentation(.image(.error), status: reason, configure)
        p.backdropAlpha = .zero
        p.supportCode = address
        return p
    }

    @Test func svPutsTheCodeUnderTheLabelInWholePixels() throws {
        let res = try H.resources()
        let plain = HUDLayout.compute(H.presentation(.image(.error), status: Self.reason), screen: Size(640, 480), resources: res)
        let l = HUDLayout.compute(Self.errorWithCode(), screen: Size(640, 480), resources: res)
        let code = try #require(l.supportCode)
        #expect(l.issues.isEmpty)
        #expect(code.modulePixels == 4 && code.sidePixels == code.sideModules * 4)
        #expect(code.frame.size.width == Fixed16_16(code.sidePixels))
        // Under the label, 8 below it, 12 above the bezel's bottom; the bezel grows by it.
        #expect(code.frame.minY == l.texts[0].frame.maxY + Fixed16_16(8))
        #expect(code.frame.maxY + Fixed16_16(12) == l.bezel.maxY)
        #expect(code.frame.midX == l.bezel.midX)
        #expect(l.bezel.size.height == plain.bezel.size.height + Fixed16_16(8) + code.frame.size.height)
        #expect(l.bezel.size.width == code.frame.size.width + Fixed16_16(24))
        // At scale 2, modules of 6 px (8 capped), a side of a whole number of pixels but not of points.
        let l2 = HUDLayout.compute(Self.errorWithCode(), screen: Size(640, 480), resources: res, scale: Fixed16_16(2))
        #expect(l2.supportCode?.modulePixels == 6)
    }

    /// A minimum size taller than the HUD centres content, text and code together inside it.
    @Test func aMinimumSizeKeepsTheCodeInsideTheBezel() throws {
        let l = HUDLayout.compute(Self.errorWithCode { $0.minimumSize = Size(300, 400) }, screen: Size(640, 480), resources: try H.resources())
        let code = try #require(l.supportCode)
        #expect(l.bezel.size.height == Fixed16_16(400))
        #expect(code.frame.maxY <= l.bezel.maxY - Fixed16_16(12) && l.contentFrame.minY >= l.bezel.minY + Fixed16_16(12))
        // The spare height is split above the content and below the code.
        let above = l.contentFrame.minY - l.bezel.minY, below = l.bezel.maxY - code.frame.maxY
        #expect(abs((above - below).double) <= 1, "\(above) above, \(below) below")
    }

    @Test func smallScreensGetSmallerModulesOrNone() throws {
        let res = try H.resources()
        // 480x272: the room under the text takes 3 px modules, or 2 for a longer address (version 8);
        // the bezel moves up to stay on the screen.
        let small = HUDLayout.compute(Self.errorWithCode(), screen: Size(480, 272), resources: res)
        #expect(small.supportCode?.modulePixels == 3, "\(small.issues)")
        let long = HUDLayout.compute(Self.errorWithCode("https://support.example.com/kiosk?device=hall-7%2Fkiosk%202&error=\(SupportAddress.percentEncoded(Self.reason))"),
                                     screen: Size(480, 272), resources: res)
        #expect(long.supportCode?.matrix.version == 8 && long.supportCode?.modulePixels == 2, "\(long.issues)")
        for l in [small, long] { #expect(l.bezel.minY >= .zero && l.bezel.maxY <= Fixed16_16(272), "\(l.bezel)") }
        // 200x120: no room even at 2 px; left out, saying why.
        let tiny = HUDLayout.compute(Self.errorWithCode(), screen: Size(200, 120), resources: res)
        #expect(tiny.supportCode == nil)
        guard case .supportCode(_, let reason)? = tiny.issues.first else { Issue.record("no issue: \(tiny.issues)"); return }
        #expect(reason.contains("need") && reason.contains("at 2 px a module"), "\(reason)")
    }

    @Test func mbStacksTheCodeAfterTheTexts() throws {
        var p = Self.errorWithCode { $0.mode = .customImage }
        p.details = "Details"
        let l = HUDLayout.compute(p, screen: Size(640, 480), resources: try H.resources())
        let code = try #require(l.supportCode)
        #expect(code.frame.minY == l.texts.map(\.frame.maxY).max()! + Fixed16_16(4))
        #expect(code.frame.maxY <= l.bezel.maxY && code.frame.midX == l.bezel.midX)
    }

    // MARK: When it shows

    @Test func controllerShowsTheCodeForSupportImagesOnly() throws {
        let clock = ManualClock()
        let c = HUDController(clock: clock)
        c.apply(.image(.error, status: "Disk full", stays: true, support: true))
        #expect(c.presentation().supportCode == nil)  // no support address: nothing
        c.support = try SupportAddress(url: "https://s.example/k", deviceID: "k1")
        c.apply(.image(.error, status: "Disk full", stays: true, support: true))
        #expect(c.presentation().supportCode == "https://s.example/k?device=k1&error=Disk%20full")
        c.apply(.status("Still failed"))
        #expect(c.presentation().supportCode == "https://s.example/k?device=k1&error=Disk%20full")
        c.apply(.progress(fraction: .half, status: "Retrying"))
        #expect(c.presentation().supportCode == nil)
        c.apply(.image(.error, status: "Disk full", support: true))
        c.apply(.image(.success, status: "Installed"))
        #expect(c.presentation().supportCode == nil)
    }

    // MARK: Drawing

    @Test func goldenErrorWithCode() throws {
        let r = try H.expect(Self.errorWithCode(), "error-support-code", width: 400, height: 360)
        #expect(r.layout.supportCode != nil)
    }

    /// Every module is a square of whole pixels, black or white, exactly where the matrix says.
    @Test func modulesAreCrispAndWhereTheMatrixSaysAtEveryScale() throws {
        for scale: Int32 in [1, 2] {
            let r = try H.render(Self.errorWithCode(), width: 400 * scale, height: 360 * scale, scale: scale)
            let code = try #require(r.layout.supportCode)
            let px = code.modulePixels
            let x0 = (code.frame.minX * Fixed16_16(scale) + .half).floor, y0 = (code.frame.minY * Fixed16_16(scale) + .half).floor
            let n = Int32(code.sideModules), quiet = Int32(HUDSupportCode.quietZone)
            for my in 0..<n {
                for mx in 0..<n {
                    let inside = (quiet..<(n - quiet)).contains(mx) && (quiet..<(n - quiet)).contains(my)
                    let dark = inside && code.matrix[Int(my - quiet), Int(mx - quiet)]
                    let want: UInt32 = dark ? 0xFF00_0000 : 0xFFFF_FFFF
                    for (dx, dy) in [(0, 0), (px - 1, 0), (0, px - 1), (px - 1, px - 1)] {
                        let got = r.pixmap.view[x0 + mx * px + dx, y0 + my * px + dy].argb
                        if got != want { Issue.record("scale \(scale) module \(mx),\(my): \(got) not \(want)"); return }
                    }
                }
            }
        }
    }
}
