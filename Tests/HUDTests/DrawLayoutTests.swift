// SPDX-License-Identifier: MIT
// Golden frames of the layout cases (A6, B2) and of the animated states (mid fade-in, MB zoom).
import GoldenSupport
import HUD
import Raster
import Testing

@Suite("Draw layouts")
struct DrawLayoutTests {
    typealias H = DrawHarness
    static let long = "Installing the system update; this can take several minutes, do not switch the device off"

    @Test func svLayouts() throws {
        _ = try H.expect(H.presentation(.spinner(elapsed: .milliseconds(100))), "layout-no-text")
        _ = try H.expect(H.presentation(.spinner(elapsed: .milliseconds(100)), status: "Loading"), "layout-text")
        _ = try H.expect(H.presentation(.spinner(elapsed: .milliseconds(100)), status: Self.long), "layout-long-text")
        _ = try H.expect(H.presentation(.spinner(elapsed: .milliseconds(100)), status: "正在安装更新"), "layout-cjk")
        _ = try H.expect(H.presentation(.spinner(elapsed: .milliseconds(100)), status: "Min") {
            $0.minimumSize = Size(200, 150)
        }, "layout-min-size")
        _ = try H.expect(H.presentation(.spinner(elapsed: .milliseconds(100)), status: "Offset") {
            $0.offset = Point(60, -40)
        }, "layout-offset")
        _ = try H.expect(H.presentation(.ring(progress: Fixed16_16(0.45))) { $0.spinner = .native }, "layout-ring-native-frame")
    }

    /// The same HUD at scale 2 (640x480 px = 320x240 pt): twice the pixels, same layout.
    @Test func svAtScale2() throws {
        _ = try H.expect(H.presentation(.spinner(elapsed: .milliseconds(100)), status: "Loading"), "layout-text-2x",
                         width: 640, height: 480, scale: 2)
        _ = try H.expect(H.presentation(.image(.success), status: "正在安装更新"), "icon-success-cjk-2x",
                         width: 640, height: 480, scale: 2)
    }

    @Test func mbLayouts() throws {
        _ = try H.expect(H.mb(.indeterminate, .activity(elapsed: .zero), label: "Loading") { $0.square = true }, "mb-square")
        _ = try H.expect(H.mb(.determinate, .pie(progress: Fixed16_16(0.35)), label: "Downloading",
                              details: "Package 3 of 7, 12.4 MB remaining", button: "Cancel"), "mb-details-button")
        _ = try H.expect(H.mb(.text, .none, label: "Saved", details: "Your settings are stored"), "mb-text")
        _ = try H.expect(H.mb(.bar, .bar(progress: Fixed16_16(0.25)), label: "Pinned") {
            $0.offset = Point(0, 30000)
        }, "mb-offset-bottom")
        _ = try H.expect(H.mb(.customImage, .image(.success), label: "Done") { $0.imageSize = Size(37, 37) }, "mb-custom")
    }

    /// Mid SV fade-in: alpha 0.5, zoom 1.15 (halfway from 1.3), the black mask half faded.
    @Test func midFadeIn() throws {
        var p = H.presentation(.spinner(elapsed: .milliseconds(75)), status: "Loading") { $0.mask = .black }
        p.alpha = .half
        p.backdropAlpha = .half
        p.scale = Fixed16_16(1.15)
        _ = try H.expect(p, "fade-in-mid")
        _ = try H.expect(p, "fade-in-mid-2x", width: 640, height: 480, scale: 2)
    }

    /// MB zoom (0.5 → 1) part way: alpha 0.6, scale 0.75.
    @Test func mbZoom() throws {
        var p = H.mb(.annular, .annular(progress: Fixed16_16(0.4)), label: "Zooming", details: "scale 0.75")
        p.alpha = Fixed16_16(0.6)
        p.scale = Fixed16_16(0.75)
        _ = try H.expect(p, "mb-zoom")
    }
}
