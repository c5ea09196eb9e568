// SPDX-License-Identifier: MIT
// MBProgressHUD's stack (hud-behaviour.md B2, from MBProgressHUD.m `updateConstraints` and
// `updatePaddingConstraints`), solved directly instead of by Auto Layout:
//
//   stack     top spacer ≥ margin, indicator, label, details, button, bottom spacer ≥ margin,
//             spacers equal (so the elements sit in the middle), every element centred in x
//   padding   4 between neighbours that are both visible (not hidden, intrinsic size not zero)
//   bezel     W = max(element widths) + 2·margin, H = 2·margin + Σ heights + 4 per gap
//   997       minSize and square (may grow the bezel, never past the 999 edge rule)
//   998       bezel centre = screen centre + offset
//   999       the bezel stays margin in from the screen edges: an offset beyond the screen pins it
//             to that edge (MBProgressMaxOffset, 1e6, is beyond any Fixed16_16 value; any offset
//             larger than the screen has the same effect)
//   text      the widest text is viewW − 4·margin; label bold 16 on one line (tail truncated),
//             details bold 12 wrapped, button title bold 12
//   support   (not MB's) the support code after the details, before the button, in the room the
//             screen leaves inside the 999 margins
import Assets
import Raster

extension HUDLayout {
    /// MBRoundProgressView's and UIActivityIndicatorView Large's 37x37; MBBarProgressView's 120x10.
    static let mbRoundSize = Size(width: Fixed16_16(37), height: Fixed16_16(37))
    static let mbBarSize = Size(width: Fixed16_16(120), height: Fixed16_16(10))
    static let mbPadding = Fixed16_16(4)
    /// MB's bezel corner radius (`bezelView.layer.cornerRadius = 5`); MB has no setting for it.
    static let mbCornerRadius = Fixed16_16(5)
    static let mbLabelSize = Fixed16_16(16), mbDetailsSize = Fixed16_16(12), mbButtonSize = Fixed16_16(12)
    /// MBProgressHUDRoundedButton's intrinsic width is the title's + 20 (B1). Its height is
    /// UIButton's, a UIKit fact: about 6 pt above and below the title; we use the title's + 12.
    static let mbButtonExtra = Size(width: Fixed16_16(20), height: Fixed16_16(12))

    private struct Element {
        var size: Size
        var text: (role: HUDTextBlock.Role, layout: TextLayout)?
        var isIndicator = false
        var isButton = false
        var isSupportCode = false
    }

    static func computeMB(_ p: HUDPresentation, screen: Size, resources: HUDResources, scale: Fixed16_16 = .one) -> HUDLayout {
        let a = p.appearance
        var issues: [HUDResourceError] = []
        let colors = HUDColors.resolve(a)
        let margin = a.margin
        let maxText = Swift.max(Fixed16_16.one, screen.width - margin * 4)  // B2: viewW − 4·margin
        let chain = chain(a, fallback: resources.bold, resources: resources, issues: &issues)

        var elements: [Element] = []
        // Indicator (B1 modes; text mode has none).
        var content = HUDContent.none
        var indicatorSize = Size(width: .zero, height: .zero)
        switch p.indicator {
        case .none: break
        case .spinner, .activity: content = .activity; indicatorSize = mbRoundSize  // MB's indeterminate
        case .ring, .pie: content = .pie; indicatorSize = mbRoundSize
        case .annular: content = .annular; indicatorSize = mbRoundSize
        case .bar: content = .bar; indicatorSize = mbBarSize
        case .image(let kind):
            // Custom view: an image view at the image size, tinted in the content colour.
            content = imageContent(kind, tint: a.tintImages, resources: resources, issues: &issues)
            indicatorSize = a.imageSize
        }
        if indicatorSize.width > .zero || indicatorSize.height > .zero {
            elements.append(Element(size: indicatorSize, isIndicator: true))
        } else {
            content = .none
        }
        // Label (one line), details (wrapped), button title: hidden when empty.
        // One line: at most the primary face's line height, so the rest is tail truncated.
        let oneLine = chain.map { $0.primary.scale($0.primary.height, size: mbLabelSize) }
        if let text = p.status?.nonEmpty,
           let t = measure(text, chain: chain, resources: resources, size: mbLabelSize, maxWidth: maxText, maxHeight: oneLine, direction: a.textDirection, issues: &issues) {
            elements.append(Element(size: ceilSize(t.size), text: (.label, t)))
        }
        if let text = p.details?.nonEmpty,
           let t = measure(text, chain: chain, resources: resources, size: mbDetailsSize, maxWidth: maxText, maxHeight: nil, direction: a.textDirection, issues: &issues) {
            elements.append(Element(size: ceilSize(t.size), text: (.details, t)))
        }
        var code: HUDSupportCode?
        if let text = p.supportCode {
            let used = elements.reduce(Fixed16_16.zero) { $0 + $1.size.height + mbPadding }
            let room = Size(width: screen.width - margin * 4, height: screen.height - margin * 4 - used)
            code = supportCode(text, room: room, scale: scale, issues: &issues)
            if let code { elements.append(Element(size: code.frame.size, isSupportCode: true)) }
        }
        if let text = p.button?.nonEmpty,
           let t = measure(text, chain: chain, resources: resources, size: mbButtonSize, maxWidth: maxText - mbButtonExtra.width,
                           maxHeight: nil, direction: a.textDirection, issues: &issues) {
            let s = ceilSize(t.size)
            elements.append(Element(size: Size(width: s.width + mbButtonExtra.width, height: s.height + mbButtonExtra.height),
                                    text: (.button, t), isButton: true))
        }

        // Bezel size (B2), then minSize and square (997), never past the edges (999).
        let contentW = elements.map(\.size.width).max() ?? .zero
        let gaps = Int32(Swift.max(0, elements.count - 1))
        let contentH = elements.reduce(Fixed16_16.zero) { $0 + $1.size.height } + mbPadding * gaps
        let needW = contentW + margin * 2, needH = contentH + margin * 2
        var w = Swift.max(needW, a.minSize.width), h = Swift.max(needH, a.minSize.height)
        if a.square { w = Swift.max(w, h); h = w }
        w = Swift.max(needW, Swift.min(w, screen.width - margin * 2))
        h = Swift.max(needH, Swift.min(h, screen.height - margin * 2))

        // Position (998, 999): screen centre + offset, kept margin in from the edges.
        let x = placed(centre: screen.width.halved.clampedAdding(a.offset.x), size: w, screen: screen.width, margin: margin)
        let y = placed(centre: screen.height.halved.clampedAdding(a.offset.y), size: h, screen: screen.height, margin: margin)
        let bezel = Rect(x: x, y: y, width: w, height: h)

        // The stack, centred between equal spacers.
        var top = bezel.minY + (h - contentH).halved
        var contentFrame = Rect(origin: bezel.center, size: Size(width: .zero, height: .zero))
        var texts: [HUDTextBlock] = [], button: Rect?
        for e in elements {
            let frame = Rect(x: bezel.midX - e.size.width.halved, y: top, width: e.size.width, height: e.size.height)
            if e.isIndicator { contentFrame = frame }
            if let t = e.text { texts.append(block(t.role, t.layout, center: frame.center)) }
            if e.isButton { button = frame }
            if e.isSupportCode { code?.frame = frame }
            top += e.size.height + mbPadding
        }
        return HUDLayout(isMB: true, screen: screen, bezel: bezel, cornerRadius: mbCornerRadius, content: content,
                         contentFrame: contentFrame, indicatorRadius: mbRoundSize.width.halved, indicatorThickness: Fixed16_16(2),
                         texts: texts, button: button, supportCode: code, colors: colors, issues: issues)
    }

    static func ceilSize(_ s: Size) -> Size { Size(width: s.width.ceilFixed, height: s.height.ceilFixed) }

    /// The bezel's leading edge for a centre (998) kept `margin` in from both screen edges (999);
    /// centred on the screen when it cannot be.
    static func placed(centre: Fixed16_16, size: Fixed16_16, screen: Fixed16_16, margin: Fixed16_16) -> Fixed16_16 {
        let lowest = margin, highest = screen - margin - size
        if highest < lowest { return (screen - size).halved }
        return Swift.min(highest, Swift.max(lowest, centre - size.halved))
    }
}

extension HUDAppearance {
    /// MB's minSize: the same setting as SV's minimumSize (`min-size`).
    var minSize: Size { minimumSize }
}
