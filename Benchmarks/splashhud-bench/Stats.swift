// SPDX-License-Identifier: MIT
// Per-frame timings summarised as median and p10/p90, the comparison table and the JSON report.
import Foundation
import HUDProtocol

/// Median and 10th/90th percentiles of per-frame times, in milliseconds.
struct Summary {
    var median, p10, p90: Double

    init(nanoseconds samples: [UInt64]) {
        let ms = samples.map { Double($0) / 1e6 }.sorted()
        median = Summary.percentile(ms, 0.5)
        p10 = Summary.percentile(ms, 0.1)
        p90 = Summary.percentile(ms, 0.9)
    }

    /// Linear interpolation between closest ranks (the median of an even count is the mean of the
    /// two middle values).
    static func percentile(_ sorted: [Double], _ q: Double) -> Double {
        guard !sorted.isEmpty else { return .nan }
        let pos = q * Double(sorted.count - 1)
        let lo = Int(pos.rounded(.down)), hi = Swift.min(lo + 1, sorted.count - 1)
        return sorted[lo] + (sorted[hi] - sorted[lo]) * (pos - Double(lo))
    }
}

/// One variant's timings, all measured in the same interleaved run.
struct VariantTimings {
    var variant: String
    var frames: Int
    var splashhud, cairo, memset, memcpy: Summary

    var ratioVsCairo: Double { splashhud.median / cairo.median }
    var ratioVsMemcpy: Double { splashhud.median / memcpy.median }
    var ratioVsMemset: Double { splashhud.median / memset.median }

    var json: [String: Any] {
        var o: [String: Any] = ["timed_frames": frames]
        for (name, s) in [("splashhud", splashhud), ("cairo", cairo), ("memset", memset), ("memcpy", memcpy)] {
            o["\(name)_ms"] = s.median
            o["\(name)_p10_ms"] = s.p10
            o["\(name)_p90_ms"] = s.p90
        }
        o["ratio_vs_cairo"] = ratioVsCairo
        o["ratio_vs_memcpy"] = ratioVsMemcpy
        o["ratio_vs_memset"] = ratioVsMemset
        return o
    }
}

enum Report {
    static func ms(_ v: Double) -> String { String(format: "%9.4f", v) }

    static func table(_ results: [VariantTimings]) -> String {
        var lines = ["variant      engine      median ms     p10 ms     p90 ms",
                     String(repeating: "-", count: 56)]
        for r in results {
            for (i, (name, s)) in [("splashhud", r.splashhud), ("cairo", r.cairo), ("memset", r.memset),
                                   ("memcpy", r.memcpy)].enumerated() {
                let v = (i == 0 ? r.variant : "").padding(toLength: 12, withPad: " ", startingAt: 0)
                lines.append("\(v) \(name.padding(toLength: 10, withPad: " ", startingAt: 0)) \(ms(s.median))  \(ms(s.p10))  \(ms(s.p90))")
            }
            lines.append(String(format: "             splashhud/cairo %.3f   splashhud/memcpy %.2f   splashhud/memset %.2f   (%d frames)",
                                r.ratioVsCairo, r.ratioVsMemcpy, r.ratioVsMemset, r.frames))
            lines.append("")
        }
        return lines.joined(separator: "\n")
    }

    static func writeJSON(_ results: [VariantTimings], hud: HUDSpinnerTimings, present: [PresentTimings] = [], to path: String) throws {
        var root: [String: Any] = [:]
        for r in results { root[r.variant] = r.json }
        root["hud-spinner1080"] = hud.json
        for p in present { root[p.name] = p.json }
        let data = try JSONSerialization.data(withJSONObject: root, options: [.prettyPrinted, .sortedKeys])
        try data.write(to: URL(fileURLWithPath: path))
    }
}
