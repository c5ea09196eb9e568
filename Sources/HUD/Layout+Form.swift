// SPDX-License-Identifier: MIT
// A prompt's form (HUDEntry), in MBProgressHUD's stack: the prompt as the bold 16 pt label over an
// entry field, centred in a bezel `margin` in from its content, placed as MB places its bezel
// (centre + offset, kept in from the screen's edges). The field is `prompt-width` wide, or the
// label's width when that is more, never wider than the screen allows. A secure entry draws one
// bullet per character typed, up to what fits; past that, a small bullet at the left edge says
// more are hidden, as Plymouth's entry does; never more than HUDEntry.bulletLimit, whatever the
// field's width. A question draws its text, the end of it when long.
//
// Under the field, one row of what helps to type it right (HUDEntry): the layout's tag in a small
// box ("de"), Caps Lock's icon and name while it is on, and the tries left at the row's far end when
// the asker said it. The row and the field's bullets run in the prompt's direction: from the right
// for an Arabic or Hebrew prompt (or an rtl HUD), each item shaped on its own, so no bidi run of the
// prompt reorders them.
import Assets
import Raster

/// Where a prompt's field, bullets, caret and echoed text sit, in points.
public struct HUDEntryLayout {
    public var field: Rect
    public var cornerRadius: Fixed16_16
    /// Bullet centres, left to right.
    public var bullets: [Point]
    public var bulletRadius: Fixed16_16
    /// The overflow mark's centre when more characters were typed than fit.
    public var overflow: Point?
    public var caret: Rect
    /// The on-screen keyboard, when the entry has one.
    public var keyboard: HUDKeyboardLayout?
    /// The box around the layout's tag (its text is a `.hint` block), and Caps Lock's icon.
    public var layoutTag: Rect?
    public var capsLockIcon: Rect?
}

extension HUDLayout {
    static let fieldHeight = Fixed16_16(28)
    static let fieldInset = Fixed16_16(10)
    static let bulletPitch = Fixed16_16(13)
    static let bulletRadius = Fixed16_16(4)
    static let caretSize = Size(width: Fixed16_16(2), height: Fixed16_16(16))
    static let echoSize = Fixed16_16(15)
    static let formGap = Fixed16_16(10)
    static let hintSize = Fixed16_16(12)
    static let hintRowHeight = Fixed16_16(16)
    static let hintGap = Fixed16_16(6)

    static func computeForm(_ p: HUDPresentation, entry: HUDEntry, screen: Size, resources: HUDResources) -> HUDLayout {
        let a = p.appearance
        var issues: [HUDResourceError] = []
        let colors = HUDColors.resolve(a)
        let margin = a.margin
        let maxText = Swift.max(Fixed16_16(40), screen.width - margin * 4)
        let chain = chain(a, fallback: resources.bold, resources: resources, issues: &issues)
        let oneLine = chain.map { $0.primary.scale($0.primary.height, size: mbLabelSize) }
        let label = entry.prompt.nonEmpty.flatMap {
            measure($0, chain: chain, resources: resources, size: mbLabelSize, maxWidth: maxText, maxHeight: oneLine, direction: a.textDirection, issues: &issues)
        }
        let labelSize = label.map { ceilSize($0.size) } ?? Size(width: .zero, height: .zero)
        let fieldW = Swift.min(maxText, Swift.max(a.promptWidth, labelSize.width))
        var contentW = Swift.max(fieldW, labelSize.width)
        var contentH = labelSize.height + (label == nil ? .zero : formGap) + fieldHeight
        let rtl = a.textDirection == .rtl || Self.startsRightToLeft(entry.prompt)
        let hints = hintItems(entry, chain: chain)
        if !hints.isEmpty { contentH += hintGap + hintRowHeight }
        // The on-screen keyboard under the field, as large as the screen leaves room for.
        var keyboard = entry.keyboard.map { state in
            let room = Size(width: screen.width - margin * 4, height: screen.height - margin * 4 - contentH - formGap)
            return computeKeyboard(state, available: room, chain: chain)
        }
        if let (k, _) = keyboard {
            contentW = Swift.max(contentW, k.frame.size.width)
            contentH += formGap + k.frame.size.height
        }
        var w = Swift.max(contentW + margin * 2, a.minSize.width), h = Swift.max(contentH + margin * 2, a.minSize.height)
        if a.square { w = Swift.max(w, h); h = w }
        let x = placed(centre: screen.width.halved.clampedAdding(a.offset.x), size: w, screen: screen.width, margin: margin)
        let y = placed(centre: screen.height.halved.clampedAdding(a.offset.y), size: h, screen: screen.height, margin: margin)
        let bezel = Rect(x: x, y: y, width: w, height: h)

        var top = bezel.minY + (h - contentH).halved
        var texts: [HUDTextBlock] = []
        if let label {
            texts.append(block(.label, label, center: Point(x: bezel.midX, y: top + labelSize.height.halved)))
            top += labelSize.height + formGap
        }
        let field = Rect(x: bezel.midX - fieldW.halved, y: top, width: fieldW, height: fieldHeight)
        var hintsBottom = field.maxY
        var tag: Rect?, capsIcon: Rect?
        if !hints.isEmpty {
            let row = Rect(x: field.minX, y: field.maxY + hintGap, width: fieldW, height: hintRowHeight)
            (tag, capsIcon) = placeHints(hints, in: row, rtl: rtl, texts: &texts)
            hintsBottom = row.maxY
        }
        if let (k, labels) = keyboard {
            let d = Point(x: bezel.midX - k.frame.size.width.halved, y: hintsBottom + formGap)
            keyboard = (k.offset(by: d), labels)
            for var t in labels {
                t.frame.origin = t.frame.origin + d
                t.origin = t.origin + d
                texts.append(t)
            }
        }
        let innerLeft = field.minX + fieldInset
        let innerWidth = Swift.max(.zero, fieldW - fieldInset * 2 - caretSize.width - Fixed16_16(2))
        var caretX = innerLeft
        var bullets: [Point] = [], overflow: Point?
        if entry.isSecure {
            let fits = Swift.min(HUDEntry.bulletLimit, Int(innerWidth.raw / bulletPitch.raw))
            var shown = Swift.min(entry.characters, fits)
            var left = innerLeft
            if entry.characters > fits, fits > 1 {
                overflow = Point(x: left + bulletRadius.halved, y: field.midY)
                left += bulletPitch.halved
                shown = Swift.min(shown, Int((field.maxX - fieldInset - caretSize.width - left).raw / bulletPitch.raw))
            }
            for i in 0..<Swift.max(0, shown) {
                bullets.append(Point(x: left + bulletPitch * Int32(i) + bulletPitch.halved, y: field.midY))
            }
            caretX = left + bulletPitch * Int32(Swift.max(0, shown)) + Fixed16_16(2)
        } else if let echo = echoLayout(entry.echo, chain: chain, width: innerWidth) {
            let s = echo.size
            texts.append(HUDTextBlock(role: .entry, text: echo,
                                      frame: Rect(x: innerLeft, y: field.midY - s.height.halved, width: s.width.ceilFixed, height: s.height.ceilFixed),
                                      origin: Point(x: innerLeft, y: field.midY - s.height.halved)))
            caretX = innerLeft + s.width + Fixed16_16(1)
        }
        var caret = Rect(x: caretX, y: field.midY - caretSize.height.halved, width: caretSize.width, height: caretSize.height)
        if rtl && entry.isSecure {
            // Bullets from the field's right edge, the caret at their left.
            func mirror(_ x: Fixed16_16) -> Fixed16_16 { field.minX + field.maxX - x }
            bullets = bullets.map { Point(x: mirror($0.x), y: $0.y) }
            overflow = overflow.map { Point(x: mirror($0.x), y: $0.y) }
            caret.origin.x = mirror(caret.maxX)
        }
        let entryLayout = HUDEntryLayout(field: field, cornerRadius: Fixed16_16(5), bullets: bullets, bulletRadius: bulletRadius,
                                         overflow: overflow, caret: caret, keyboard: keyboard?.0, layoutTag: tag, capsLockIcon: capsIcon)
        return HUDLayout(isMB: true, screen: screen, bezel: bezel, cornerRadius: mbCornerRadius, content: .none,
                         contentFrame: Rect(origin: bezel.center, size: Size(width: .zero, height: .zero)),
                         indicatorRadius: mbRoundSize.width.halved, indicatorThickness: Fixed16_16(2),
                         texts: texts, button: nil, entry: entryLayout, colors: colors, issues: issues)
    }

    private enum Hint { case layout(TextLayout), capsLock(TextLayout), tries(TextLayout) }

    /// The row's items, in reading order; empty when there is nothing to say.
    private static func hintItems(_ entry: HUDEntry, chain: FontChain?) -> [Hint] {
        guard let chain else { return [] }
        func text(_ s: String) -> TextLayout {
            let t = TextLayout(s, chain: chain, fontSize: hintSize, maxWidth: Fixed16_16(16384), maxHeight: nil, alignment: .left)
            _ = chain.takeMissing()
            return t
        }
        var items: [Hint] = []
        if let name = entry.layoutName, !name.isEmpty { items.append(.layout(text(String(name.prefix(12))))) }
        if entry.capsLock { items.append(.capsLock(text("Caps Lock"))) }
        if let n = entry.triesLeft, n >= 0 { items.append(.tries(text(n == 1 ? "1 try left" : "\(n) tries left"))) }
        return items
    }

    /// Lays the row's items into `row` from its leading edge (the tries at the trailing one) and
    /// returns the tag's box and the icon's frame.
    private static func placeHints(_ items: [Hint], in row: Rect, rtl: Bool, texts: inout [HUDTextBlock]) -> (Rect?, Rect?) {
        var tag: Rect?, icon: Rect?
        var pen = Fixed16_16.zero  // from the leading edge
        let pad = Fixed16_16(5), space = Fixed16_16(10)
        // A box of `width` at `pen` from the leading edge (or at the trailing edge), as a rect.
        func place(_ width: Fixed16_16, trailing: Bool = false) -> Rect {
            let from = trailing ? row.size.width - width : pen
            let x = rtl ? row.maxX - from - width : row.minX + from
            return Rect(x: x, y: row.minY, width: width, height: row.size.height)
        }
        for item in items {
            switch item {
            case .layout(let t):
                let box = place(t.size.width.ceilFixed + pad * 2)
                tag = box
                texts.append(block(.hint, t, center: box.center))
                pen += box.size.width + space
            case .capsLock(let t):
                let side = row.size.height
                let iconBox = place(side)
                icon = iconBox
                pen += side + Fixed16_16(3)
                let box = place(t.size.width.ceilFixed)
                texts.append(block(.hint, t, center: box.center))
                pen += box.size.width + space
            case .tries(let t):
                let box = place(t.size.width.ceilFixed, trailing: true)
                texts.append(block(.hint, t, center: box.center))
            }
        }
        return (tag, icon)
    }

    /// Whether `text`'s first strong letter is of a right-to-left script (Hebrew, Arabic, Syriac,
    /// Thaana, NKo and their presentation forms).
    static func startsRightToLeft(_ text: String) -> Bool {
        for u in text.unicodeScalars where u.properties.isAlphabetic {
            switch u.value {
            case 0x0590...0x08FF, 0xFB1D...0xFDFF, 0xFE70...0xFEFF, 0x10800...0x10FFF, 0x1E800...0x1EFFF: return true
            default: return false
            }
        }
        return false
    }

    /// A question's typed text on one line, left-aligned: its end when all of it does not fit
    /// (what was typed last stays in view, beside the caret).
    private static func echoLayout(_ text: String, chain: FontChain?, width: Fixed16_16) -> TextLayout? {
        guard !text.isEmpty, let chain else { return nil }
        var shown = Substring(text.suffix(200))
        while !shown.isEmpty {
            let t = TextLayout(String(shown), chain: chain, fontSize: echoSize, maxWidth: Fixed16_16(16384), maxHeight: nil,
                               alignment: .left)
            if t.size.width <= width { return t }
            shown = shown.dropFirst()
        }
        return nil
    }
}
