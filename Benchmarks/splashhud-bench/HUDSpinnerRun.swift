// SPDX-License-Identifier: MIT
// The HUD's steady state: an SVProgressHUD spinner with a status line at 1080p, faded in, only the
// spinner turning. Each frame is the whole path a display loop takes — controller presentation,
// damage, redraw of the damaged rect into the shadow frame — timed on its own, at 60 Hz steps of
// the virtual clock.
import Foundation
import HUD
import HUDProtocol
import Raster

struct HUDSpinnerTimings {
    var frames: Int
    var time: Summary
    var damagedPixelsMax: Int64
    var damagedPixelsMedian: Int64
    var spinnerBox: IntRect

    var json: [String: Any] {
        ["timed_frames": frames, "splashhud_ms": time.median, "splashhud_p10_ms": time.p10, "splashhud_p90_ms": time.p90,
         "damaged_px_median": damagedPixelsMedian, "damaged_px_max": damagedPixelsMax,
         "spinner_box_px": spinnerBox.area, "target_ms": 0.1]
    }

    var table: String {
        String(format: "hud-spinner1080  median %.4f ms  p10 %.4f  p90 %.4f  (%d frames; target ≤ 0.1 ms)\n", time.median, time.p10, time.p90, frames)
            + "                 damaged per frame: median \(damagedPixelsMedian) px, max \(damagedPixelsMax) px; spinner box \(spinnerBox) = \(spinnerBox.area) px"
    }

    static func measure(frames: Int, warmup: Int) throws -> HUDSpinnerTimings {
        let script = try CommandParser.parseScript("@0 show \"Installing update 3 of 7\u{2026}\"")
        let renderer = HUDSceneRenderer(width: 1920, height: 1080, background: .color(Color(rgb: 0x204060)), resources: try HUDResources.system())
        let player = ScriptPlayer(script: script, renderer: renderer)
        let start = Instant.seconds(1)  // well after the 0.15 s fade-in
        player.render(at: start)
        var times: [UInt64] = [], areas: [Int64] = []
        for n in 1...(warmup + frames) {
            let t = start + Interval(nanoseconds: Int64(n) * 1_000_000_000 / 60)
            let t0 = monotonicNanoseconds()
            let damage = player.render(at: t)
            let t1 = monotonicNanoseconds()
            if n > warmup {
                times.append(t1 - t0)
                areas.append(damage.reduce(0) { $0 + $1.area })
            }
        }
        let p = player.controller.presentation()
        let box = HUDPainter().indicatorBounds(p, layout: renderer.layout(for: p), scale: renderer.scale)
        let sorted = areas.sorted()
        return HUDSpinnerTimings(frames: frames, time: Summary(nanoseconds: times), damagedPixelsMax: sorted.last ?? 0,
                                 damagedPixelsMedian: sorted[sorted.count / 2], spinnerBox: box)
    }
}
