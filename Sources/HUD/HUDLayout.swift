// SPDX-License-Identifier: MIT
// Where everything of one HUD sits, in points (16.16), before the zoom: the bezel, the indicator's
// box, the text blocks and MB's button. SVProgressHUD's frame rules are in Layout+SV.swift (A6),
// MBProgressHUD's stack in Layout+MB.swift (B2). The layout depends only on what does not animate
// (texts, indicator kind, appearance, screen), so a renderer can keep it while a spinner turns,
// a fade runs or progress moves (see `HUDLayoutKey`).
import Assets
import HUDProtocol
import Raster

/// Where a touch landed (`HUDLayout.hit`).
public enum HUDHit: Equatable, Sendable { case button, hud, outside }

/// One laid-out text: SV's status, MB's label, details or button title.
public struct HUDTextBlock {
    public enum Role: Sendable { case status, label, details, button, entry, key, hint }
    public var role: Role
    /// Lines, glyphs and metrics, in points (font size in points).
    public var text: TextLayout
    /// The label's frame as the library sizes it (ceil'd width and height), in points.
    public var frame: Rect
    /// Where `text`'s top-left corner goes, in points: the text box centred in `frame`.
    public var origin: Point
}

/// What the indicator box holds.
public enum HUDContent {
    case none
    /// SV's flat spinner, SV's native / MB's indeterminate petals, SV's ring, MB's round and bar views.
    case spinner, activity, ring, pie, annular, bar
    /// A built-in symbol drawn as vector paths (Icons.swift).
    case symbol(HUDImageKind)
    /// A decoded PNG, drawn into the box; `tinted` draws it as a template in the indicator colour.
    case bitmap(Pixmap, tinted: Bool)
    /// An image that could not be loaded (the reason is in `issues`): a crossed box.
    case placeholder
}

public struct HUDLayout {
    /// Which library's rules made this layout (MB when the appearance has an MB mode).
    public var isMB: Bool
    /// The screen in points.
    public var screen: Size
    /// The bezel in points, unzoomed; the zoom is about its centre.
    public var bezel: Rect
    public var cornerRadius: Fixed16_16
    public var content: HUDContent
    /// The indicator's box in points (SV's spinner frame even for the ring, A6; the image frame;
    /// MB's indicator view). Zero-sized when there is no content.
    public var contentFrame: Rect
    /// SV: the spinner's / ring's radius r (stroke centre line). MB: half the round view's side.
    public var indicatorRadius: Fixed16_16
    /// SV: the ring thickness t. MB: unused (MB's widths are fixed).
    public var indicatorThickness: Fixed16_16
    public var texts: [HUDTextBlock]
    /// MB's button border frame, in points (its title is the `.button` text block).
    public var button: Rect?
    /// A prompt's field, bullets and caret (Layout+Form.swift).
    public var entry: HUDEntryLayout?
    /// The support QR code under the texts (Layout+SupportCode.swift).
    public var supportCode: HUDSupportCode?
    public var colors: HUDColors
    /// Fonts or images that could not be used (the layout fell back; see `HUDResourceError`).
    public var issues: [HUDResourceError]

    /// What a point (in points) lands on: MB's button, the HUD (its bezel: SV's hudView, MB's
    /// bezelView), or neither.
    public func hit(_ point: Point) -> HUDHit {
        func inside(_ r: Rect) -> Bool { point.x >= r.minX && point.x < r.maxX && point.y >= r.minY && point.y < r.maxY }
        if let button, inside(button) { return .button }
        return inside(bezel) ? .hud : .outside
    }

    /// The centre of `contentFrame`.
    public var indicatorCenter: Point { Point(x: contentFrame.midX, y: contentFrame.midY) }
    public var bezelCenter: Point { Point(x: bezel.midX, y: bezel.midY) }

    /// The layout of `p` on a screen of `screen` points, by SV's rules (A6) or, when the
    /// appearance has an MB mode, MB's (B2). `scale` (points to pixels) sizes the support code's
    /// modules in whole pixels.
    public static func compute(_ p: HUDPresentation, screen: Size, resources: HUDResources, scale: Fixed16_16 = .one) -> HUDLayout {
        if let entry = p.entry { return computeForm(p, entry: entry, screen: screen, resources: resources) }
        return p.appearance.usesMBBehaviour ? computeMB(p, screen: screen, resources: resources, scale: scale)
            : computeSV(p, screen: screen, resources: resources, scale: scale)
    }

    // MARK: - Shared helpers

    /// The font chain the appearance asks for: its `fontPath` (falling back to `fallback` with an
    /// issue when it does not load) or `fallback`; nil when neither loads (the default chains
    /// failed: `resources.fontFailure`).
    static func chain(_ a: HUDAppearance, fallback: @autoclosure () -> FontChain?, resources: HUDResources,
                      issues: inout [HUDResourceError]) -> FontChain? {
        guard let path = a.fontPath else { return fallback() }
        switch resources.chain(fontAt: path) {
        case .success(let chain): return chain
        case .failure(let error): issues.append(error); return fallback()
        }
    }

    /// `text` measured with `chain`, or nil with an issue when there is no chain (no font loads).
    static func measure(_ text: String, chain: FontChain?, resources: HUDResources, size: Fixed16_16, maxWidth: Fixed16_16,
                        maxHeight: Fixed16_16?, direction: HUDTextDirection, issues: inout [HUDResourceError]) -> TextLayout? {
        guard let chain else {
            issues.append(.text(text, reason: resources.fontFailure ?? "no font"))
            return nil
        }
        return measure(text, chain: chain, size: size, maxWidth: maxWidth, maxHeight: maxHeight, direction: direction, issues: &issues)
    }

    /// `text` laid out centred within maxWidth × maxHeight, with an issue naming the characters no
    /// face has (drawn as boxes).
    static func measure(_ text: String, chain: FontChain, size: Fixed16_16, maxWidth: Fixed16_16,
                        maxHeight: Fixed16_16?, direction: HUDTextDirection, issues: inout [HUDResourceError]) -> TextLayout {
        let layout = TextLayout(text, chain: chain, fontSize: size, maxWidth: maxWidth, maxHeight: maxHeight,
                                alignment: .center, direction: direction == .rtl ? .rightToLeft : .leftToRight)
        // Said once per character in the chain's life.
        let missing = chain.takeMissing()
        if !missing.isEmpty {
            let names = missing.prefix(8).map { CommandError.hex($0.value) }
            issues.append(.text(text, reason: "no font has \(names.joined(separator: ", "))\(missing.count > 8 ? " and \(missing.count - 8) more" : ""); drawn as boxes"))
        }
        return layout
    }

    /// What an image indicator shows, decoding custom PNGs through the cache.
    static func imageContent(_ kind: HUDImageKind, tint: Bool, resources: HUDResources,
                             issues: inout [HUDResourceError]) -> HUDContent {
        guard case .custom(let path) = kind else { return .symbol(kind) }
        switch resources.image(at: path) {
        case .success(let pixmap): return .bitmap(pixmap, tinted: tint)
        case .failure(let error): issues.append(error); return .placeholder
        }
    }

    /// A text block whose frame (ceil'd size) is centred at `center`, the text box centred in it.
    static func block(_ role: HUDTextBlock.Role, _ text: TextLayout, center: Point) -> HUDTextBlock {
        let s = text.size
        let lw = s.width.ceilFixed, lh = s.height.ceilFixed
        return HUDTextBlock(role: role, text: text,
                            frame: Rect(x: center.x - lw.halved, y: center.y - lh.halved, width: lw, height: lh),
                            origin: Point(x: center.x - s.width.halved, y: center.y - s.height.halved))
    }
}

/// What a layout depends on. Equal keys give equal layouts (for the same resources), so a renderer
/// recomputes the layout only when the key changes, not on every frame of an animation.
public struct HUDLayoutKey: Equatable {
    public enum ContentKind: Equatable { case none, spinner, activity, ring, pie, annular, bar, image(HUDImageKind) }
    public var status: String?
    public var details: String?
    public var button: String?
    public var entry: HUDEntry?
    public var supportCode: String?
    public var content: ContentKind
    public var appearance: HUDAppearance
    public var screen: Size

    public init(_ p: HUDPresentation, screen: Size) {
        status = p.status; details = p.details; button = p.button; entry = p.entry; supportCode = p.supportCode; appearance = p.appearance
        self.screen = screen
        switch p.indicator {
        case .none: content = .none
        case .spinner: content = .spinner
        case .activity: content = .activity
        case .ring: content = .ring
        case .pie: content = .pie
        case .annular: content = .annular
        case .bar: content = .bar
        case .image(let kind): content = .image(kind)
        }
    }
}

extension Fixed16_16 {
    /// The smallest whole number not below this value.
    var ceilFixed: Fixed16_16 { Fixed16_16(raw: Int32((Int64(raw) + 0xFFFF) & ~0xFFFF)) }
    /// The largest whole number not above this value.
    var floorFixed: Fixed16_16 { Fixed16_16(raw: raw & ~0xFFFF) }
    /// Half, rounded towards −∞ in the last bit.
    var halved: Fixed16_16 { Fixed16_16(raw: raw >> 1) }
    /// `self + other`, clamped to ±16384 instead of trapping (offsets may be huge: MB's
    /// MBProgressMaxOffset pins the bezel to an edge).
    func clampedAdding(_ other: Fixed16_16) -> Fixed16_16 {
        let limit = Int64(16384) << 16
        return Fixed16_16(raw: Int32(Swift.max(-limit, Swift.min(limit, Int64(raw) + Int64(other.raw)))))
    }
}

extension String {
    /// nil for nil or empty text (A6: empty text is treated as nil).
    var nonEmpty: String? { isEmpty ? nil : self }
}
