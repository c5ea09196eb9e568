// SPDX-License-Identifier: MIT
// splashhud-bench: SplashHUD's rasterizer vs cairo vs memset/memcpy on the reference HUD frame
// (shared/bench/hud-scene.md). Engines are interleaved frame by frame and each is timed alone.
// `text-layout` times paragraph layout instead (TextLayoutBench, against Pango in text-layout.sh).
import ArgumentParser
import Assets
import CCairoScene
import Foundation
import Gallery
import HUDProtocol
import Raster

struct SplashHUDBench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "splashhud-bench",
        abstract: "Time SplashHUD, cairo, memset and memcpy on the reference HUD frame.",
        subcommands: [TextLayoutBench.self])

    @Option(help: "Comma-separated variants: full1080, full4k, damage1080.")
    var variants: String = "full1080,full4k,damage1080"

    @Option(help: "Timed frames, after frame 0 (untimed) and the warm-up frames.")
    var frames: Int = 300

    @Option(help: "Warm-up frames (drawn and timed but not counted), after frame 0.")
    var warmup: Int = 29

    @Option(help: "Write the medians, percentiles and ratios as JSON to this file.")
    var json: String?

    @Option(help: "Write frame 10 of each variant as VARIANT.png (SplashHUD) and VARIANT-cairo.png.")
    var pngDir: String?

    @Option(help: "Profiling aid: draw this many frames of each variant with SplashHUD only; no timing, no checks.")
    var profileFrames: Int?

    /// Spec's text advance A (DejaVu Sans 2.37, unhinted) per variant.
    static let specAdvance: [ReferenceFrame.Variant: Double] = [.full1080: 201.40625, .full4k: 302.109375, .damage1080: 201.40625]

    @Flag(help: "Time only the display present section (present-1080, present-4k) against memcpy.")
    var presentOnly = false

    func validate() throws {
        guard frames > 0 else { throw ValidationError("--frames must be positive") }
        guard warmup >= 0 else { throw ValidationError("--warmup must not be negative") }
        for name in variants.split(separator: ",") where ReferenceFrame.Variant(rawValue: String(name)) == nil {
            throw ValidationError("unknown variant '\(name)' (use full1080, full4k, damage1080)")
        }
    }

    func run() throws {
        let chosen = variants.split(separator: ",").compactMap { ReferenceFrame.Variant(rawValue: String($0)) }
        if let n = profileFrames {
            for variant in chosen {
                let engine = try SplashEngine(variant)
                engine.drawFull(frame: 0)
                for frame in 1...max(1, n) { engine.draw(frame: frame) }
            }
            return
        }
        if presentOnly {
            print(PresentTimings.table(try PresentTimings.measureAll(frames: frames, warmup: warmup)))
            return
        }
        if let dir = pngDir { try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true) }
        print("splashhud-bench: cairo \(String(cString: ccs_cairo_version())), frame 0 untimed, frames 1...\(warmup) warm-up, "
              + "\(warmup + 1)...\(warmup + frames) timed; median [p10, p90] ms per frame\n")
        var ok = true
        var results: [VariantTimings] = []
        var samples: [(ReferenceFrame.Variant, Pixmap, Pixmap)] = []
        for variant in chosen {
            let run = try VariantRun(variant: variant, warmup: warmup, timed: frames)
            ok = run.textAdvancesAgree(spec: Self.specAdvance[variant]!) && ok
            let (timings, finalDiff) = try run.measure()
            results.append(timings)
            if variant == .damage1080 {
                print("  damage1080 after the timed run (frame \(warmup + frames)) vs a fresh full draw: "
                      + (finalDiff == 0 ? "identical" : "\(finalDiff) pixels differ  FAIL"))
                ok = finalDiff == 0 && ok
            }
            if let (s, c) = run.snapshots {
                samples.append((variant, s, c))
                if let dir = pngDir {
                    try PNGEncoder.write(s.view, to: "\(dir)/\(variant.rawValue).png")
                    try PNGEncoder.write(c.view, to: "\(dir)/\(variant.rawValue)-cairo.png")
                }
            }
        }
        print("\n" + Report.table(results))
        let hud = try HUDSpinnerTimings.measure(frames: frames, warmup: warmup)
        print(hud.table + "\n")
        let present = try PresentTimings.measureAll(frames: frames, warmup: warmup)
        print(PresentTimings.table(present) + "\n")
        if let path = json { try Report.writeJSON(results, hud: hud, present: present, to: path); print("wrote \(path)") }

        print("\nChecks")
        if chosen.contains(.damage1080) {
            let range = 1...61
            let bad = try DamageCheck.splashhud(frames: range)
            print("  damage1080 == full1080, SplashHUD, frames \(range) chained: "
                  + (bad.isEmpty ? "pass" : "FAIL at " + bad.prefix(5).map { "frame \($0.frame) (\($0.pixels) px)" }.joined(separator: ", ")))
            ok = bad.isEmpty && ok
            let cairoBad = try DamageCheck.cairo(frames: range)
            print("  damage1080 == full1080, cairo (harness sanity, information): "
                  + (cairoBad.isEmpty ? "pass" : "differs at \(cairoBad.count) frames"))
        }
        for (variant, s, c) in samples {
            if !AgreementReport.print(variant: variant, splash: s.view, cairo: c.view) {
                print("    (report this to the lead: the bezel, ring or arc geometry disagrees between engines)")
            }
        }
        if !ok { print("\nsplashhud-bench: checks FAILED"); throw ExitCode.failure }
    }
}

SplashHUDBench.main()
