// SPDX-License-Identifier: MIT
// DRM mode selection: `video=` parsing, request > override > preferred > first, refresh from timings.

import Testing

@testable import Display

@Suite("DRM mode selection")
struct DRMModeSelectionTests {
    /// A connector's list as bochs gives it: preferred first, then smaller modes, one interlaced.
    static let modes: [DRMModeCandidate] = [
        DRMModeCandidate(width: 1280, height: 800, refreshMillihertz: 59_810, isPreferred: true),
        DRMModeCandidate(width: 1920, height: 1080, refreshMillihertz: 60_000),
        DRMModeCandidate(width: 1920, height: 1080, refreshMillihertz: 50_000),
        DRMModeCandidate(width: 1024, height: 768, refreshMillihertz: 60_004, isInterlaced: true),
        DRMModeCandidate(width: 1024, height: 768, refreshMillihertz: 75_029),
        DRMModeCandidate(width: 1024, height: 768, refreshMillihertz: 60_004),
    ]

    @Test func parsesKernelVideoStrings() throws {
        #expect(try DRMModeRequest.parse(video: "video=Virtual-1:1024x768@60")
            == DRMModeRequest(connector: "Virtual-1", width: 1024, height: 768, refreshHertz: 60))
        #expect(try DRMModeRequest.parse(video: "1024x768") == DRMModeRequest(width: 1024, height: 768))
        #expect(try DRMModeRequest.parse(video: "HDMI-A-1:1920x1080M-32@50i")
            == DRMModeRequest(connector: "HDMI-A-1", width: 1920, height: 1080, refreshHertz: 50))
        #expect(try DRMModeRequest.parse(video: "video=DSI-1:800x480e,rotate=90")
            == DRMModeRequest(connector: "DSI-1", width: 800, height: 480))
        #expect(try DRMModeRequest.parse(video: "1280x720R@60D") == DRMModeRequest(width: 1280, height: 720, refreshHertz: 60))
    }

    @Test func connectorStatesAndNamedModesAreNotModeRequests() throws {
        #expect(try DRMModeRequest.parse(video: "video=VGA-1:d") == nil)
        #expect(try DRMModeRequest.parse(video: "HDMI-A-1:e") == nil)
        #expect(try DRMModeRequest.parse(video: "Composite-1:NTSC") == nil)
    }

    @Test func malformedVideoStringsAreRefusedWithTheText() {
        for bad in ["1024x", "1024x768@", "1024x768@60q", ":1024x768", "1024x0", "99999999x768"] {
            #expect(throws: DRMModeRequest.ParseError.malformed(bad)) { try DRMModeRequest.parse(video: bad) }
        }
        #expect("\(DRMModeRequest.ParseError.malformed("1024x"))" == "video mode '1024x' is not <connector>:<width>x<height>[@<hz>]")
    }

    @Test func kernelCommandLineKeepsOnlyVideoModeWords() {
        let line = "console=ttyS0 quiet video=Virtual-1:1024x768@60 video=VGA-1:d video=bogus vga=0x344 video=800x600\n"
        #expect(DRMModeSelection.videoOverrides(kernelCommandLine: line) == [
            DRMModeRequest(connector: "Virtual-1", width: 1024, height: 768, refreshHertz: 60),
            DRMModeRequest(width: 800, height: 600),
        ])
    }

    @Test func explicitRequestWinsAndPrefersProgressive() {
        let c = DRMModeSelection.choose(
            modes: Self.modes, connector: "Virtual-1", requested: DRMModeRequest(width: 1024, height: 768),
            videoOverrides: [DRMModeRequest(width: 1920, height: 1080)])
        #expect(c == DRMModeChoice(index: 4, source: .requested, unmatched: []))
        let at60 = DRMModeSelection.choose(
            modes: Self.modes, connector: "Virtual-1", requested: DRMModeRequest(width: 1024, height: 768, refreshHertz: 60), videoOverrides: [])
        #expect(at60?.index == 5)
        let at50 = DRMModeSelection.choose(
            modes: Self.modes, connector: "Virtual-1", requested: DRMModeRequest(width: 1920, height: 1080, refreshHertz: 50), videoOverrides: [])
        #expect(at50?.index == 2)
    }

    @Test func connectorSpecificOverrideBeatsGeneralOneAndOthersIgnoreIt() {
        let overrides = [DRMModeRequest(width: 1920, height: 1080), DRMModeRequest(connector: "Virtual-1", width: 1024, height: 768, refreshHertz: 75)]
        #expect(DRMModeSelection.choose(modes: Self.modes, connector: "Virtual-1", requested: nil, videoOverrides: overrides)
            == DRMModeChoice(index: 4, source: .videoOverride, unmatched: []))
        #expect(DRMModeSelection.choose(modes: Self.modes, connector: "HDMI-A-1", requested: nil, videoOverrides: overrides)
            == DRMModeChoice(index: 1, source: .videoOverride, unmatched: []))
        let otherOnly = [DRMModeRequest(connector: "HDMI-A-1", width: 1920, height: 1080)]
        #expect(DRMModeSelection.choose(modes: Self.modes, connector: "Virtual-1", requested: nil, videoOverrides: otherOnly)?.source == .preferred)
    }

    @Test func unmatchedRequestsFallThroughAndAreReported() {
        let want = DRMModeRequest(width: 3840, height: 2160)
        let over = DRMModeRequest(width: 640, height: 480)
        let c = DRMModeSelection.choose(modes: Self.modes, connector: "Virtual-1", requested: want, videoOverrides: [over])
        #expect(c == DRMModeChoice(index: 0, source: .preferred, unmatched: [want, over]))
    }

    @Test func withoutPreferredTheFirstModeAndWithoutModesNothing() {
        let plain = [DRMModeCandidate(width: 800, height: 600, refreshMillihertz: 60_000), DRMModeCandidate(width: 640, height: 480, refreshMillihertz: 60_000)]
        #expect(DRMModeSelection.choose(modes: plain, connector: "VGA-1", requested: nil, videoOverrides: [])
            == DRMModeChoice(index: 0, source: .first, unmatched: []))
        #expect(DRMModeSelection.choose(modes: [], connector: "VGA-1", requested: nil, videoOverrides: []) == nil)
    }

    @Test func refreshFromTimings() {
        // CEA 1080p60: 148.5 MHz over 2200 x 1125 = 60 Hz exactly.
        #expect(DRMModeSelection.refreshMillihertz(clockKHz: 148_500, htotal: 2200, vtotal: 1125, interlaced: false, doubleScan: false, vscan: 0) == 60_000)
        // VESA 1024x768@60: 65 MHz over 1344 x 806 = 60.0038 Hz.
        #expect(DRMModeSelection.refreshMillihertz(clockKHz: 65_000, htotal: 1344, vtotal: 806, interlaced: false, doubleScan: false, vscan: 0) == 60_004)
        // 1080i: fields at twice the frame rate; double scan halves.
        #expect(DRMModeSelection.refreshMillihertz(clockKHz: 74_250, htotal: 2200, vtotal: 1125, interlaced: true, doubleScan: false, vscan: 0) == 60_000)
        #expect(DRMModeSelection.refreshMillihertz(clockKHz: 25_175, htotal: 800, vtotal: 525, interlaced: false, doubleScan: true, vscan: 0) == 29_970)
        #expect(DRMModeSelection.refreshMillihertz(clockKHz: 1, htotal: 0, vtotal: 0, interlaced: false, doubleScan: false, vscan: 0) == 0)
    }

    @Test func requestMatchesRefreshToTheNearestHertz() {
        let r = DRMModeRequest(width: 1280, height: 800, refreshHertz: 60)
        #expect(r.matches(Self.modes[0]))  // 59.81 Hz rounds to 60
        #expect(!DRMModeRequest(width: 1280, height: 800, refreshHertz: 59).matches(Self.modes[0]))
    }
}
