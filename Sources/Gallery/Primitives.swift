// SPDX-License-Identifier: MIT
// The primitive gallery: one small scene per primitive, cap, join and paint, each drawn on a
// light checker-free background so anti-aliasing is easy to judge. The demo lays them out in a
// grid; the golden tests compare each one bit-exactly.
import Raster

/// The primitive gallery and its grid (the demo's `raster/` pictures and GalleryTests' goldens).
public enum Gallery {}

public struct GalleryCase: Sendable {
    public let name: String
    public let draw: @Sendable (Canvas) -> Void
}

extension Gallery {
    /// Side of each gallery cell, in pixels.
    public static let cellSize: Int32 = 96

    static let ink = Color(rgb: 0x1E2A38)
    static let accent = Color(rgb: 0x2F80ED)
    static let paper = Color(rgb: 0xF4F1EA)

    /// Every primitive case, in display order.
    public static let primitives: [GalleryCase] = fills + strokes + trims + paints + transforms

    static func c(_ x: Double, _ y: Double) -> Point { Point(x, y) }
    static func f(_ v: Double) -> Fixed16_16 { Fixed16_16(v) }

    static let fills: [GalleryCase] = [
        GalleryCase(name: "fill-rect-fractional") { cv in
            cv.fill(.rect(Rect(18.3, 22.6, 59.4, 50.7)), .solid(ink))
        },
        GalleryCase(name: "fill-rounded-rect") { cv in
            cv.fill(.roundedRect(Rect(12, 20, 72, 56), radius: f(14)), .solid(ink))
        },
        GalleryCase(name: "fill-circle") { cv in
            cv.fill(.circle(center: c(48, 48), radius: f(33.5)), .solid(accent))
        },
        GalleryCase(name: "fill-ellipse") { cv in
            cv.fill(.ellipse(in: Rect(8, 26, 80, 44)), .solid(accent))
        },
        GalleryCase(name: "fill-star-nonzero") { cv in cv.fill(star(), .solid(ink), rule: .nonZero) },
        GalleryCase(name: "fill-star-evenodd") { cv in cv.fill(star(), .solid(ink), rule: .evenOdd) },
        GalleryCase(name: "fill-quad-cubic") { cv in
            var p = Path()
            p.move(to: c(10, 80))
            p.quad(to: c(48, 80), control: c(29, 8))
            p.cubic(to: c(86, 80), control1: c(60, 10), control2: c(90, 30))
            p.close()
            cv.fill(p, .solid(accent))
        },
        GalleryCase(name: "fill-thin-slivers") { cv in
            for i in 0..<8 {
                let x = 8 + Double(i) * 10.3
                cv.fill(.rect(Rect(x, 10, 0.25 + Double(i) * 0.25, 76)), .solid(ink))
            }
        },
    ]

    /// A five-pointed star drawn in one stroke (self-intersecting, so the rules differ).
    static func star() -> Path {
        var p = Path()
        for i in 0..<5 {
            let (s, co) = Trig.sinCos(Fixed16_16(-Double.pi / 2 + Double(i) * 4 * Double.pi / 5))
            let pt = Point(x: f(48) + co * f(40), y: f(50) + s * f(40))
            if i == 0 { p.move(to: pt) } else { p.line(to: pt) }
        }
        p.close()
        return p
    }

    static func zigzag() -> Path {
        var p = Path()
        p.move(to: c(16, 70)); p.line(to: c(36, 26)); p.line(to: c(58, 70)); p.line(to: c(80, 30))
        return p
    }

    static let strokes: [GalleryCase] =
        [(LineCap.butt, "butt"), (.round, "round"), (.square, "square")].map { cap, name in
            GalleryCase(name: "stroke-cap-\(name)") { cv in
                var p = Path(); p.move(to: c(24, 48)); p.line(to: c(72, 48))
                cv.stroke(p, StrokeStyle(width: f(18), cap: cap), .solid(ink))
                cv.stroke(p, StrokeStyle(width: f(1)), .solid(accent))
            }
        } + [(LineJoin.miter, "miter"), (.round, "round"), (.bevel, "bevel")].map { join, name in
            GalleryCase(name: "stroke-join-\(name)") { cv in
                cv.stroke(zigzag(), StrokeStyle(width: f(12), join: join), .solid(ink))
                cv.stroke(zigzag(), StrokeStyle(width: f(1)), .solid(accent))
            }
        } + [
            GalleryCase(name: "stroke-hairlines") { cv in
                for i in 0..<6 {
                    var p = Path(); p.move(to: c(10, 12 + Double(i) * 14)); p.line(to: c(86, 20 + Double(i) * 12))
                    cv.stroke(p, StrokeStyle(width: f(0.5 + Double(i) * 0.5)), .solid(ink))
                }
            },
            GalleryCase(name: "stroke-closed-ring") { cv in
                cv.stroke(.circle(center: c(48, 48), radius: f(30)), StrokeStyle(width: f(6)), .solid(accent))
                cv.stroke(.roundedRect(Rect(20, 20, 56, 56), radius: f(8)), StrokeStyle(width: f(2), join: .round), .solid(ink))
            },
        ]

    /// SVProgressHUD's spinner path: two clockwise turns from 3π/2, trimmed as its animation does.
    public static func spinnerPath(center: Point, radius: Fixed16_16) -> Path {
        var p = Path()
        p.arc(center: center, radius: radius, start: Fixed16_16(3 * Double.pi / 2), end: Fixed16_16(Double.pi / 2 + 5 * Double.pi), clockwise: true)
        return p
    }

    static let trims: [GalleryCase] = [0.0, 0.25, 0.5, 0.75].map { phase in
        GalleryCase(name: "trim-spinner-\(Int(phase * 100))") { cv in
            // strokeStart 0.015 → 0.515 and strokeEnd 0.485 → 0.985 over the 1 s loop.
            let start = 0.015 + 0.5 * phase, end = 0.485 + 0.5 * phase
            cv.stroke(spinnerPath(center: c(48, 48), radius: f(30)), StrokeStyle(width: f(4), cap: .round), .solid(ink),
                      trimStart: f(start), trimEnd: f(end))
        }
    }

    /// The spinner's angle mask: alpha rising clockwise from 12 o'clock (SVProgressHUD's angle-mask.png).
    public static let angleMaskStops: [GradientStop] =
        [0.00, 0.05, 0.12, 0.20, 0.30, 0.40, 0.50, 0.61, 0.71, 0.80, 0.88, 0.95, 1.0].enumerated().map { i, a in
            GradientStop(Double(i) / 12, Color.black.withAlpha(UInt8((a * 255).rounded())))
        }

    static let paints: [GalleryCase] = [
        GalleryCase(name: "paint-linear") { cv in
            cv.fill(.roundedRect(Rect(8, 8, 80, 80), radius: f(10)),
                    .linear(start: c(8, 8), end: c(88, 88), stops: [GradientStop(0, accent), GradientStop(0.5, .white), GradientStop(1, ink)]))
        },
        GalleryCase(name: "paint-radial-mask") { cv in
            // SVProgressHUD's gradient backdrop: clear at the centre, black α0.75 at the radius and beyond.
            cv.fill(.rect(Rect(0, 0, 96, 96)), .radial(center: c(48, 48), radius: f(48),
                    stops: [GradientStop(0, Color.black.withAlpha(0)), GradientStop(1, Color.black.withAlpha(191))]))
        },
        GalleryCase(name: "paint-conic-ramp") { cv in
            cv.fill(.circle(center: c(48, 48), radius: f(40)), .conic(center: c(48, 48), startAngle: f(-Double.pi / 2), stops: angleMaskStops))
        },
        GalleryCase(name: "paint-spinner-masked") { cv in
            cv.stroke(spinnerPath(center: c(48, 48), radius: f(30)), StrokeStyle(width: f(4), cap: .round),
                      .conic(center: c(48, 48), startAngle: f(-Double.pi / 2 + 0.6), stops: angleMaskStops),
                      trimStart: f(0.015 + 0.1), trimEnd: f(0.485 + 0.1))
        },
        GalleryCase(name: "paint-image-bilinear") { cv in
            cv.draw(checker, in: Rect(10, 10, 76, 76))
        },
        GalleryCase(name: "paint-image-tinted") { cv in
            cv.draw(checker, in: Rect(10, 10, 76, 76), tint: accent)
        },
        GalleryCase(name: "paint-global-alpha") { cv in
            cv.globalAlpha = 128
            cv.fill(.circle(center: c(38, 48), radius: f(28)), .solid(accent))
            cv.fill(.circle(center: c(58, 48), radius: f(28)), .solid(ink))
        },
        GalleryCase(name: "blend-source") { cv in
            cv.fill(.rect(Rect(10, 10, 76, 76)), .solid(ink))
            cv.fill(.circle(center: c(48, 48), radius: f(26)), .solid(accent.withAlpha(96)), blend: .source)
        },
    ]

    /// A 6x6 image with transparent cells, for image paints.
    static let checker: Pixmap = {
        let p = Pixmap(width: 6, height: 6)
        for y in Int32(0)..<6 {
            for x in Int32(0)..<6 {
                let on = (x + y) % 2 == 0
                p[x, y] = on ? Color(rgb: 0xE2_4A_33).premultiplied : Color(rgb: 0x33_A0_E2, alpha: 96).premultiplied
            }
        }
        return p
    }()

    static let transforms: [GalleryCase] = [1.3, 0.5, 1.5].map { s in
        GalleryCase(name: "transform-zoom-\(Int(s * 10))") { cv in
            cv.transform = .scale(f(s), about: c(48, 48))
            cv.fill(.roundedRect(Rect(24, 24, 48, 48), radius: f(8)), .solid(ink))
            cv.stroke(.circle(center: c(48, 48), radius: f(14)), StrokeStyle(width: f(3)), .solid(accent))
        }
    }

    /// Draws one case into a new cell-sized pixmap on the paper colour.
    public static func render(_ item: GalleryCase) -> Pixmap {
        let p = Pixmap(width: cellSize, height: cellSize)
        let cv = Canvas(p.view)
        cv.clear(paper)
        item.draw(cv)
        return p
    }
}
