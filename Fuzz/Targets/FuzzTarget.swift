// SPDX-License-Identifier: MIT
// The fuzz targets: each takes arbitrary bytes as one of the daemon's inputs and checks what must
// hold whatever the bytes (no trap, no hang, bounded output, and a few invariants). libFuzzer runs
// them through `splashhud-fuzz` (scripts/fuzz.sh); the tests replay the seed corpus and every
// crash found (Fuzz/corpus/TARGET/) through the same functions.
import Assets
import Board
import Display
import HUDProtocol
import Input
import Raster
import LinuxSystem
import Runtime

public enum FuzzTarget: String, CaseIterable, Sendable {
    /// The command language, scripts and control requests, and printing them back.
    case commands
    /// The control socket's framing: lines split from bytes arriving in any pieces.
    case control
    /// psplash's and fbsplash's FIFO words (NUL- and newline-ended) through the FIFO's line buffer.
    case fifo
    /// Plymouth's boot protocol decoder, bytes in any pieces; the same bytes as a prompt's keys
    /// (the key decoder editing a secret) and as answers on the wire.
    case plymouth
    /// Board profiles, and their [hud] settings through the command language.
    case profile
    /// evdev records in every layout through every kind of device's decoder and the mapping.
    case evdev
    /// PNG images through libpng with the HUD's limits.
    case png
    /// BMP images (the firmware's BGRT logo) through our decoder.
    case bmp
    /// Font files through FreeType: faces, layout and outlines.
    case font
    /// Kernel uevent datagrams.
    case uevent
    /// Arbitrary UTF-8 as status text: itemized, reordered, shaped and broken into lines.
    case text

    /// Runs the target on `bytes`; a violated invariant traps (libFuzzer reports it as a crash).
    public func run(_ bytes: [UInt8]) {
        switch self {
        case .commands: Self.commands(bytes)
        case .control: Self.control(bytes)
        case .fifo: Self.fifo(bytes)
        case .plymouth: Self.plymouth(bytes)
        case .profile: Self.profile(bytes)
        case .evdev: Self.evdev(bytes)
        case .png: Self.png(bytes)
        case .bmp: Self.bmp(bytes)
        case .font: Self.font(bytes)
        case .uevent: Self.uevent(bytes)
        case .text: Self.text(bytes)
        }
    }

    /// Splits `bytes` in pieces whose sizes come from the first byte (as reads return them).
    static func pieces(_ bytes: [UInt8]) -> [ArraySlice<UInt8>] {
        guard let first = bytes.first else { return [] }
        let step = Int(first % 17) + 1
        let rest = bytes.dropFirst()
        return stride(from: rest.startIndex, to: rest.endIndex, by: step).map { rest[$0..<min($0 + step, rest.endIndex)] }
    }

    static func commands(_ bytes: [UInt8]) {
        _ = try? CommandParser.parseScript(bytes: bytes)
        for line in bytes.split(separator: 0x0A, omittingEmptySubsequences: false) {
            let text = String(decoding: line, as: UTF8.self)
            guard let request = try? ControlRequest.parse(text) else { continue }
            // What the parser accepts, the printer writes back so that it parses the same.
            let printed = request.description
            guard let again = try? ControlRequest.parse(printed) else {
                fatalError("'\(printed)' (printed from '\(text)') does not parse")
            }
            precondition(again == request, "'\(text)' -> \(request) -> '\(printed)' -> \(String(describing: again))")
        }
    }

    static func control(_ bytes: [UInt8]) {
        var whole = CommandFIFOLineBuffer(limit: ControlProtocol.maxLineBytes)
        var split = CommandFIFOLineBuffer(limit: ControlProtocol.maxLineBytes)
        let expected = whole.feed(bytes.dropFirst())
        let got = pieces(bytes).flatMap { split.feed($0) }
        precondition(got.count == expected.count, "lines depend on how the bytes were split")
        precondition(split.pendingCount <= ControlProtocol.maxLineBytes + 1, "held back more than a line")
        for case .success(let line) in got {
            precondition(line.utf8.count <= ControlProtocol.maxLineBytes)
            _ = try? ControlRequest.parse(line)
        }
    }

    static func fifo(_ bytes: [UInt8]) {
        var buffer = CommandFIFOLineBuffer()
        for piece in pieces(bytes) {
            for case .success(let line) in buffer.feed(piece) {
                _ = try? CommandParser.parseRequest(line)
            }
        }
    }

    static func plymouth(_ bytes: [UInt8]) {
        var whole = PlymouthDecoder(), split = PlymouthDecoder()
        let expected = whole.feed(bytes.dropFirst())
        let got = pieces(bytes).flatMap { split.feed($0) }
        // A malformed request ends the stream: compare up to the first one.
        let n = min(got.count, expected.count)
        precondition(Array(got.prefix(n)) == Array(expected.prefix(n)), "requests depend on how the bytes were split")
        precondition(split.pendingCount <= 258, "held back more than one request")
        for case .success(let r) in got { _ = "\(r)" }
        promptKeys(bytes)
    }

    /// The bytes typed at a prompt: the entry never passes its capacity, counts characters no more
    /// than bytes, empties on Ctrl-U/W; answers and cached answers carry their exact length.
    static func promptKeys(_ bytes: [UInt8]) {
        guard let entry = SecretBytes(capacity: 64) else { return }
        var decoder = PromptKeyDecoder()
        var answers: [[UInt8]] = []
        for b in bytes {
            switch decoder.next(b) {
            case .text(let t)?: entry.append(CollectionOfOne(t))
            case .erase?: entry.removeLastCharacter()
            case .eraseEntry?: entry.removeAll(); precondition(entry.isEmpty)
            case .enter?, .cancel?:
                answers.append(entry.withBytes { Array($0) })
                entry.removeAll()
            case nil: break
            }
            precondition(entry.count <= entry.capacity && entry.characterCount <= entry.count)
        }
        for a in answers {
            let frame = PlymouthWire.answer(a)
            precondition(frame.count == a.count + 5 && Int(frame[1]) | Int(frame[2]) << 8 | Int(frame[3]) << 16 | Int(frame[4]) << 24 == a.count)
        }
        if let many = PlymouthWire.multipleAnswers(answers) {
            precondition(many.count - 5 <= PlymouthWire.maxMultipleAnswersPayload && many.last == 0)
        } else {
            precondition(answers.isEmpty || answers.reduce(0) { $0 + $1.count + 1 } > PlymouthWire.maxMultipleAnswersPayload)
        }
    }

    static func profile(_ bytes: [UInt8]) {
        guard let profile = try? BoardProfile.parse(String(decoding: bytes, as: UTF8.self), file: "fuzz.conf") else { return }
        _ = try? profile.hudSettings()
    }

    static let capabilities: [DeviceCapabilities] = [
        DeviceCapabilities(pointer: .multitouch(x: AxisRange(minimum: 0, maximum: 4095), y: AxisRange(minimum: -100, maximum: 100)), isKeyboard: true),
        DeviceCapabilities(pointer: .absolute(x: AxisRange(minimum: 0, maximum: 32767), y: AxisRange(minimum: 5, maximum: 5)), isKeyboard: false),
        DeviceCapabilities(pointer: .absolute(x: AxisRange(minimum: Int32.min, maximum: Int32.max), y: AxisRange(minimum: 0, maximum: 1)), isKeyboard: true),
        DeviceCapabilities(pointer: .relative, isKeyboard: true),
    ]

    static func evdev(_ bytes: [UInt8]) {
        let layouts = [InputEvent.Layout(wordSize: 8, bigEndian: false), InputEvent.Layout(wordSize: 4, bigEndian: false),
                       InputEvent.Layout(wordSize: 4, bigEndian: true)]
        let calibration = Calibration(matrix: [0.5, -2, 1e9, -1e-9, 3, -0.25])!
        for (i, layout) in layouts.enumerated() {
            let events = bytes.withUnsafeBytes { InputEvent.decode($0, layout: layout) }
            var decoder = InputDecoder(capabilities: capabilities[i % capabilities.count])
            let rotation = Rotation.allCases[i % 4]
            let mapping = SurfaceMapping(scanoutWidth: 800, scanoutHeight: 480, rotation: rotation, calibration: i == 1 ? calibration : .identity)
            let (w, h) = mapping.frameSize
            for action in decoder.feed(events) {
                switch action {
                case .pointerDown(let p), .pointerMove(let p), .pointerUp(let p):
                    precondition((0...1).contains(p.x) && (0...1).contains(p.y), "\(p) is off the surface")
                    let (x, y) = mapping.framePixel(p)
                    precondition(x >= 0 && x < w && y >= 0 && y < h, "(\(x),\(y)) is off the \(w)x\(h) frame")
                case .pointerCancel, .key, .capsLock: break
                }
            }
        }
    }

    static func png(_ bytes: [UInt8]) {
        _ = try? PNGDecoder.decode(bytes, limits: PNGLimits(maxWidth: 1024, maxHeight: 1024, maxDecodedBytes: 4 << 20))
    }

    static func bmp(_ bytes: [UInt8]) {
        guard let image = try? BMPDecoder.decode(bytes) else { return }
        precondition(image.width > 0 && image.height > 0 && Int64(image.width) * Int64(image.height) * 3 <= Int64(bytes.count),
                     "a \(image.width)x\(image.height) BMP from \(bytes.count) bytes")
    }

    /// FreeType opens fonts by path, as the HUD does: each input goes through a file of its own
    /// (in memory where /dev/shm exists).
    static let fontDirectory = (try? Files.status(atPath: "/dev/shm")) != nil ? "/dev/shm" : "/tmp"

    static func font(_ bytes: [UInt8]) {
        let fontPath = "\(fontDirectory)/splashhud-fuzz-\(Files.processID)-\(UInt64.random(in: 0...UInt64.max)).font"
        guard (try? Files.writeAtomically(bytes, to: fontPath, mode: 0o600)) != nil else { return }
        defer { try? Files.unlink(fontPath) }
        guard let face = try? FontFace(path: fontPath), let chain = try? FontChain(faces: [face]) else { return }
        let layout = TextLayout("Ag é 漢\u{1F600} fi", chain: chain, fontSize: Fixed16_16(16), maxWidth: Fixed16_16(60))
        for line in layout.lines {
            for g in line.glyphs { _ = try? chain.faces[g.faceIndex].outline(glyph: g.glyph, size: Fixed16_16(16)) }
        }
    }

    static func uevent(_ bytes: [UInt8]) {
        _ = try? UEvent.parse(bytes[...])
    }

    /// The faces `text` lays out with (those installed): Latin, Arabic, Devanagari, Thai and CJK.
    static let textFaces = ["/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"]
        + ["Arabic", "Devanagari", "Thai"].map { "/usr/share/fonts/truetype/noto/NotoSans\($0)-Regular.ttf" }
        + ["/usr/share/fonts/truetype/droid/DroidSansFallbackFull.ttf"]

    /// The first two bytes choose the size, width, height limit and direction; the rest is the
    /// text, decoded as UTF-8 with invalid sequences replaced, as the command language gets it.
    static func text(_ bytes: [UInt8]) {
        guard bytes.count >= 2, let chain = try? FontChain(paths: textFaces) else { return }
        let size = Fixed16_16(Int32(bytes[0] % 48) + 4)
        let width = bytes[1] & 0x80 != 0 ? nil : Fixed16_16(Int32(bytes[1] & 0x3F) * 8 + 8)
        let height = bytes[1] & 0x40 != 0 ? Fixed16_16(Int32(bytes[0] >> 4) * 16 + 16) : nil
        let text = String(decoding: bytes.dropFirst(2), as: UTF8.self)
        let layout = TextLayout(text, chain: chain, fontSize: size, maxWidth: width, maxHeight: height,
                                direction: bytes[1] & 0x20 != 0 ? .rightToLeft : .leftToRight)
        precondition(!layout.lines.isEmpty, "a layout has at least one line")
        let scalars = text.unicodeScalars.count
        for line in layout.lines {
            precondition(line.width <= TextLayout.extent, "a line wider than the layout's extent")
            for g in line.glyphs {
                precondition(chain.faces.indices.contains(g.faceIndex) && (0...scalars).contains(g.cluster), "a glyph outside its chain or text")
                _ = try? chain.faces[g.faceIndex].outline(glyph: g.glyph, size: size)
            }
        }
        _ = chain.takeMissing()
    }
}
