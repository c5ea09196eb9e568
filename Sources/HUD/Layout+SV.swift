// SPDX-License-Identifier: MIT
// SVProgressHUD's frame rules (hud-behaviour.md A6, from SVProgressHUD.m `updateHUDFrame`):
//
//   label    measured within 200x300, last line truncated; lw = ceil(w), lh = ceil(h)
//   content  the image at imageViewSize, else the spinner frame (even for the ring):
//            flat 2(r + t/2 + 5) with r = ringRadius with text, ringNoTextRadius without; native 37
//   size     W = 24 + max(lw, cw), H = 24 + lh + ch (+ 8 with text and content), ≥ minimumSize
//   content centre y = max(12, (minH − ch − 8 − lh)/2) + ch/2 with text, mid y without
//   label centre y   = content bottom + 8 + lh/2, mid y without content; all centred in x
//   position centre  = (mid x, floor(0.45·screen height)) + offset
//   support code     (not SV's) under the label, 8 below it, the bezel grown to hold it with 12
//                    around, as large as the screen; the content then sits 12 from the top even
//                    without text, and the bezel is moved up as far as it must to stay on screen
import Assets
import Raster

extension HUDLayout {
    /// SV's spacings: 12 around the content (`SVProgressHUDVerticalSpacing`/`HorizontalSpacing`),
    /// 8 between content and label (`SVProgressHUDLabelSpacing`).
    static let svSpacing = Fixed16_16(12)
    static let svLabelSpacing = Fixed16_16(8)
    /// The status label's measuring box (A6).
    static let svLabelBox = Size(width: Fixed16_16(200), height: Fixed16_16(300))
    /// UIActivityIndicatorView's WhiteLarge frame (a UIKit fact): 37x37.
    static let nativeSide = Fixed16_16(37)

    /// SV's spinner frame side 2(r + t/2 + 5) (SVIndefiniteAnimatedView `sizeThatFits`).
    static func svSpinnerSide(radius r: Fixed16_16, thickness t: Fixed16_16) -> Fixed16_16 {
        (r + t.halved + Fixed16_16(5)) * 2
    }

    static func computeSV(_ p: HUDPresentation, screen: Size, resources: HUDResources, scale: Fixed16_16 = .one) -> HUDLayout {
        let a = p.appearance
        var issues: [HUDResourceError] = []
        let colors = HUDColors.resolve(a)

        // Label (A6): measured within 200x300 with the last line truncated.
        var label: TextLayout?
        if let status = p.status?.nonEmpty {
            let chain = chain(a, fallback: resources.regular, resources: resources, issues: &issues)
            label = measure(status, chain: chain, resources: resources, size: a.fontSize, maxWidth: svLabelBox.width,
                            maxHeight: svLabelBox.height, direction: a.textDirection, issues: &issues)
        }
        let hasText = label != nil
        let lw = label?.size.width.ceilFixed ?? .zero, lh = label?.size.height.ceilFixed ?? .zero

        // Content (A6): the image, else the spinner frame, whatever the indicator draws in it.
        let r = hasText ? a.ringRadius : a.ringNoTextRadius, t = a.ringThickness
        let flatSide = svSpinnerSide(radius: r, thickness: t)
        let spinnerSide = a.spinner == .native ? nativeSide : flatSide  // the frame the ring sits in
        var content: HUDContent, contentSize: Size
        switch p.indicator {
        case .none: content = .none; contentSize = Size(width: .zero, height: .zero)
        case .spinner: content = .spinner; contentSize = Size(width: flatSide, height: flatSide)
        case .activity: content = .activity; contentSize = Size(width: nativeSide, height: nativeSide)
        case .ring: content = .ring; contentSize = Size(width: spinnerSide, height: spinnerSide)
        // MB's views in SV behaviour (not something SV shows): their own MB sizes.
        case .pie, .annular: content = p.indicator.mbContent; contentSize = mbRoundSize
        case .bar: content = .bar; contentSize = mbBarSize
        case .image(let kind):
            // SV shows an image only when imageViewSize is not empty ("imageUsed").
            if a.imageSize.width > .zero && a.imageSize.height > .zero {
                content = imageContent(kind, tint: a.tintImages, resources: resources, issues: &issues)
                contentSize = a.imageSize
            } else {
                content = .none; contentSize = Size(width: .zero, height: .zero)
            }
        }
        let hasContent: Bool = { if case .none = content { return false } else { return true } }()
        let cw = contentSize.width, ch = contentSize.height

        // Size (A6).
        var w = svSpacing * 2 + Swift.max(lw, cw)
        var h = svSpacing * 2 + lh + ch
        if hasText && hasContent { h += svLabelSpacing }
        // The support code, in what the screen leaves beside the rest of the bezel.
        var code: HUDSupportCode?
        if let text = p.supportCode {
            let gap = hasText || hasContent ? svLabelSpacing : .zero
            let room = Size(width: screen.width - svSpacing * 2, height: screen.height - h - gap)
            code = supportCode(text, room: room, scale: scale, issues: &issues)
            if let code {
                w = Swift.max(w, code.frame.size.width + svSpacing * 2)
                h += gap + code.frame.size.height
            }
        }
        w = Swift.max(w, a.minimumSize.width)
        h = Swift.max(h, a.minimumSize.height)

        // Position (A6): centre = (mid x, floor(0.45·H)) + offset.
        let cx = screen.width.halved.clampedAdding(a.offset.x)
        var cy = Fixed16_16(wide: Int64(screen.height.raw) * 45 / 100).floorFixed.clampedAdding(a.offset.y)
        if code != nil { cy = Swift.max(h.halved, Swift.min(cy, screen.height - h + h.halved)) }  // on screen
        let bezel = Rect(x: cx - w.halved, y: cy - h.halved, width: w, height: h)

        // Vertical placement (A6), relative to the bezel's top.
        let contentCY: Fixed16_16
        if code != nil && !hasText {
            contentCY = svSpacing + ch.halved
        } else if hasText {
            // With a support code the minimum size's spare height is shared with it too.
            let codeHeight = code.map { svLabelSpacing + $0.frame.size.height } ?? .zero
            let free = a.minimumSize.height - ch - svLabelSpacing - lh - codeHeight
            contentCY = Swift.max(svSpacing, free.halved) + ch.halved
        } else {
            contentCY = h.halved
        }
        let contentFrame = Rect(x: bezel.midX - cw.halved, y: bezel.minY + contentCY - ch.halved, width: cw, height: ch)
        var texts: [HUDTextBlock] = []
        var above = hasContent ? contentFrame.maxY : bezel.minY + svSpacing
        if let label {
            let labelCY = hasContent ? contentFrame.maxY + svLabelSpacing + lh.halved
                : code != nil ? bezel.minY + svSpacing + lh.halved : bezel.midY
            let b = block(.status, label, center: Point(x: bezel.midX, y: labelCY))
            texts.append(b)
            above = b.frame.maxY
        }
        if var c = code {
            let side = c.frame.size.width
            c.frame = Rect(x: bezel.midX - side.halved, y: above + (hasText || hasContent ? svLabelSpacing : .zero), width: side, height: side)
            code = c
        }
        return HUDLayout(isMB: false, screen: screen, bezel: bezel, cornerRadius: a.cornerRadius, content: content,
                         contentFrame: hasContent ? contentFrame : Rect(origin: bezel.center, size: Size(width: .zero, height: .zero)),
                         indicatorRadius: content.isMBRound ? mbRoundSize.width.halved : r, indicatorThickness: t,
                         texts: texts, button: nil, supportCode: code, colors: colors, issues: issues)
    }
}

extension Rect {
    var center: Point { Point(x: midX, y: midY) }
}

extension HUDContent {
    var isMBRound: Bool {
        switch self {
        case .pie, .annular: return true
        default: return false
        }
    }
}

extension HUDPresentation.Indicator {
    /// The MB round view's content for pie / annular indicators.
    var mbContent: HUDContent {
        if case .annular = self { return .annular }
        return .pie
    }
}
