// SPDX-License-Identifier: MIT
// `splashhud probe`: what display hardware this machine has, short and readable like drm_info —
// DRM cards (driver, connectors with modes and panel orientation, CRTCs, planes and formats) and
// fbdev devices with their layout. The data comes from Display's `DisplayProbe.gather()`; this file
// only formats it (`ProbeReport.format`, unit-tested on hand-made structs).
import ArgumentParser
import Display

struct Probe: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "List DRM devices (connectors, modes, CRTCs, planes) and fbdev devices with their layout.")

    @Flag(help: "List every format of every plane (default: at most 12 per plane).")
    var allFormats = false

    func run() throws {
        print(ProbeReport.format(DisplayProbe.gather(), formatLimit: allFormats ? Int.max : 12), terminator: "")
    }
}

enum ProbeReport {
    /// The report: one block per device, two-space indents. `formatLimit` caps each plane's format list.
    static func format(_ probe: DisplayProbe, formatLimit: Int = 12) -> String {
        var out = ""
        func line(_ indent: Int, _ text: String) { out += String(repeating: "  ", count: indent) + text + "\n" }
        if probe.isEmpty {
            return "No display devices: no /dev/dri/card* and no /dev/fb* (no KMS or fbdev driver loaded, or /dev not populated).\n"
        }
        if probe.drmCards.isEmpty { line(0, "DRM: no /dev/dri/card* nodes") }
        for card in probe.drmCards {
            var head = "\(card.path): \(card.driverName) \(card.driverVersion)"
            if !card.driverDescription.isEmpty { head += " (\(card.driverDescription))" }
            line(0, head)
            if card.canModeset {
                line(1, "modeset: yes, atomic: \(yesNo(card.hasAtomic)), dumb buffers: \(yesNo(card.hasDumbBuffers))")
            } else {
                line(1, "modeset: no")
            }
            if let note = card.note { line(1, "note: \(note)") }
            guard card.canModeset else { continue }
            line(1, "connectors: \(card.connectors.count)")
            for c in card.connectors {
                var text = "\(c.name) (id \(c.id)): \(c.status)"
                if c.physicalWidthMM > 0 || c.physicalHeightMM > 0 { text += ", \(c.physicalWidthMM)x\(c.physicalHeightMM) mm" }
                if let crtc = c.crtcID { text += ", on CRTC \(crtc)" }
                line(2, text)
                if let o = c.panelOrientation { line(3, "panel orientation: \(o)") }
                if !c.modes.isEmpty { line(3, "modes: " + c.modes.map(modeText).joined(separator: ", ")) }
            }
            line(1, "CRTCs: \(card.crtcs.count)")
            for (i, crtc) in card.crtcs.enumerated() {
                let state = crtc.mode.map { "\(modeText($0)), fb \(crtc.framebufferID)" } ?? "off"
                line(2, "\(i): id \(crtc.id): \(state)")
            }
            line(1, "planes: \(card.planes.count)")
            let crtcIndex = Dictionary(card.crtcs.enumerated().map { ($1.id, $0) }, uniquingKeysWith: { a, _ in a })
            for p in card.planes {
                let crtcs = (0..<32).filter { p.possibleCRTCs & (1 << UInt32($0)) != 0 }.map(String.init).joined(separator: ",")
                var text = "id \(p.id): \(p.type), CRTCs {\(crtcs)}"
                if p.crtcID != 0 { text += ", on CRTC \(crtcIndex[p.crtcID].map(String.init) ?? "id \(p.crtcID)")" }
                line(2, text)
                var shown = p.formats.prefix(formatLimit).joined(separator: " ")
                if p.formats.count > formatLimit { shown += " (+\(p.formats.count - formatLimit) more, --all-formats)" }
                line(3, "formats: " + (shown.isEmpty ? "none listed" : shown))
            }
        }
        if !probe.renderNodes.isEmpty {
            line(0, "render-only nodes (skipped, cannot modeset): " + probe.renderNodes.joined(separator: " "))
        }
        if probe.fbDevices.isEmpty { line(0, "fbdev: no /dev/fb* devices") }
        for fb in probe.fbDevices {
            line(0, "\(fb.path): \"\(fb.id)\"")
            if fb.bitsPerPixel == 0 && fb.width == 0 {
                if let note = fb.note { line(1, "note: \(note)") }
                continue
            }
            line(1, "\(fb.width)x\(fb.height), virtual \(fb.virtualWidth)x\(fb.virtualHeight), \(fb.bitsPerPixel) bpp, "
                + "format \(fb.formatName ?? "unsupported")")
            func field(_ b: FBBitfield) -> String { "\(b.length)@\(b.offset)" }
            line(1, "bitfields: red \(field(fb.red)) green \(field(fb.green)) blue \(field(fb.blue)) transp \(field(fb.transp))")
            line(1, "line length \(fb.lineLength) bytes, memory \(fb.memoryLength) bytes")
            var pan = "panning: "
            if fb.xPanStep == 0 && fb.yPanStep == 0 { pan += "no" } else { pan += "xpanstep \(fb.xPanStep), ypanstep \(fb.yPanStep)" }
            if let pages = fb.pages {
                let why = fb.singleBufferedBecause.map { ": \($0)" } ?? ""
                pan += "; \(pages == 1 ? "single buffered (1 page\(why))" : "double buffered (\(pages) pages)")"
            }
            line(1, pan)
            if let note = fb.note { line(1, "note: \(note)") }
        }
        return out
    }

    static func yesNo(_ b: Bool) -> String { b ? "yes" : "no" }

    /// "1280x800@60.00" with "*" after the preferred mode and "i" for interlaced.
    static func modeText(_ m: DRMModeProbe) -> String {
        let hz = m.refreshMillihertz
        let frac = String(hz % 1000 / 10)
        let rate = "\(hz / 1000).\(frac.count < 2 ? "0" + frac : frac)"
        return "\(m.width)x\(m.height)\(m.isInterlaced ? "i" : "")@\(rate)\(m.isPreferred ? "*" : "")"
    }
}
