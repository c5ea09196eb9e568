// SPDX-License-Identifier: MIT
// The obviously correct rasterizer the fast one is checked against: for every pixel, clip the
// polygon to the pixel square (Sutherland–Hodgman) and take the signed area (shoelace). Clipping a
// possibly self-intersecting polygon to a convex square keeps its winding, so the signed area is
// the winding-weighted coverage, exactly what the scan converter accumulates before the fill rule.
import Raster

enum ReferenceRasterizer {
    typealias P = (x: Double, y: Double)

    /// Coverage 0...255 for each pixel of `rect`, row by row.
    static func coverage(polygons: [[P]], rect: IntRect, rule: FillRule) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: Int(rect.width * rect.height))
        for py in 0..<rect.height {
            for px in 0..<rect.width {
                let x0 = Double(rect.x + px), y0 = Double(rect.y + py)
                var area = 0.0
                for poly in polygons { area += signedArea(clip(poly, x0, y0, x0 + 1, y0 + 1)) }
                out[Int(py * rect.width + px)] = alpha(area, rule)
            }
        }
        return out
    }

    static func alpha(_ area: Double, _ rule: FillRule) -> UInt8 {
        var a = abs(area)
        switch rule {
        case .nonZero: a = min(a, 1)
        case .evenOdd:
            a = a.truncatingRemainder(dividingBy: 2)
            if a > 1 { a = 2 - a }
        }
        return UInt8((a * 255).rounded())
    }

    static func signedArea(_ p: [P]) -> Double {
        if p.count < 3 { return 0 }
        var s = 0.0
        for i in 0..<p.count {
            let a = p[i], b = p[(i + 1) % p.count]
            s += a.x * b.y - b.x * a.y
        }
        return s / 2
    }

    static func clip(_ poly: [P], _ x0: Double, _ y0: Double, _ x1: Double, _ y1: Double) -> [P] {
        var p = poly
        p = clipAgainst(p, inside: { $0.x >= x0 }, cut: { a, b in lerpX(a, b, x0) })
        p = clipAgainst(p, inside: { $0.x <= x1 }, cut: { a, b in lerpX(a, b, x1) })
        p = clipAgainst(p, inside: { $0.y >= y0 }, cut: { a, b in lerpY(a, b, y0) })
        p = clipAgainst(p, inside: { $0.y <= y1 }, cut: { a, b in lerpY(a, b, y1) })
        return p
    }

    static func lerpX(_ a: P, _ b: P, _ x: Double) -> P { (x, a.y + (b.y - a.y) * (x - a.x) / (b.x - a.x)) }
    static func lerpY(_ a: P, _ b: P, _ y: Double) -> P { (a.x + (b.x - a.x) * (y - a.y) / (b.y - a.y), y) }

    static func clipAgainst(_ p: [P], inside: (P) -> Bool, cut: (P, P) -> P) -> [P] {
        if p.isEmpty { return p }
        var out: [P] = []
        for i in 0..<p.count {
            let cur = p[i], prev = p[(i + p.count - 1) % p.count]
            let ci = inside(cur), pi = inside(prev)
            if ci {
                if !pi { out.append(cut(prev, cur)) }
                out.append(cur)
            } else if pi {
                out.append(cut(prev, cur))
            }
        }
        return out
    }
}
