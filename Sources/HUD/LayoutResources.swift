// SPDX-License-Identifier: MIT
// What layout and drawing read from outside the presentation: the font chains and decoded images.
// Loaded once and cached here, so a layout is a pure function of (presentation, screen, resources)
// and a frame never touches the file system after the first use of a font or image. The runtime
// loads what a command names when the command arrives (and refuses the command when that fails),
// so frames find it here. The caches are small and bounded: input can name any number of paths.
import Assets
import Raster

/// A font or image the presentation names could not be used. Layout falls back (default font, a
/// placeholder box for the image) and lists these in `HUDLayout.issues`, so a frame is always drawn
/// and the caller can still report what went wrong.
public enum HUDResourceError: Error, Equatable, Sendable, CustomStringConvertible {
    case font(path: String, reason: String)
    case image(path: String, reason: String)
    /// This text has characters no face has (drawn as boxes), or no font loads (left out).
    case text(String, reason: String)
    /// The support QR code of this address is left out (it does not fit the screen, or no code holds it).
    case supportCode(String, reason: String)

    public var description: String {
        switch self {
        case let .font(path, reason): return "HUD font \(path) is unusable, using the default font: \(reason)"
        case let .image(path, reason): return "HUD image \(path) is unusable, drawing a placeholder: \(reason)"
        case let .text(text, reason): return "cannot lay out HUD text \"\(text)\": \(reason)"
        case let .supportCode(address, reason): return "support QR code of \(address) left out: \(reason)"
        }
    }
}

/// Font chains and an image cache. Not thread-safe: one thread owns the HUD.
///
/// The default chains can be opened on first use (`systemOnFirstUse`): a spinner without text
/// needs no font, and opening three faces (FreeType parses their tables) is a large part of a
/// daemon's start before its first frame under emulation. Whoever defers them calls `loadFonts()`
/// once the first frame is out, to hear at once of fonts that do not load.
public final class HUDResources {
    /// The default chains, or why they did not load.
    private var fonts: Result<DefaultFonts, any Error>?
    /// Opens the default chains; nil once they are opened (or failed).
    private var openFonts: (() throws -> DefaultFonts)?
    private var customChains = RecentCache<Result<FontChain, HUDResourceError>>(capacity: 8)
    private var images = RecentCache<Result<Pixmap, HUDResourceError>>(capacity: 16)

    /// What a HUD image may be: a picture of a few dozen points (SV draws it at 28x28), so with
    /// the cache's 16 entries decoded images take at most 64 MiB.
    public static let imageLimits = PNGLimits(maxWidth: 1024, maxHeight: 1024, maxDecodedBytes: 4 << 20, maxFileBytes: 8 << 20)

    public init(regular: FontChain, bold: FontChain) {
        fonts = .success(DefaultFonts(regular: regular, bold: bold))
    }

    /// Resources whose default chains `open` makes the first time a layout asks for a font (or
    /// `loadFonts()` is called).
    public init(openingFontsOnFirstUse open: @escaping () throws -> DefaultFonts) {
        openFonts = open
    }

    /// The Debian chains: `FontChain.defaultSearchPaths`, and each of their faces' bold.
    /// Throws `FontError.noUsableFont` when no font of the chain loads.
    public static func system() throws -> HUDResources {
        let resources = systemOnFirstUse()
        try resources.loadFonts()
        return resources
    }

    /// The Debian chains of `system()`, opened on first use (`regularPaths` names other files,
    /// for tests).
    public static func systemOnFirstUse(regularPaths: [String]? = nil) -> HUDResources {
        HUDResources(openingFontsOnFirstUse: {
            let sources = regularPaths.map { $0.map { FontSource(path: $0) } } ?? FontChain.defaultSources
            let regular = try FontChain(sources: sources)
            // One weight in every script: each face's bold sibling, or the face emboldened.
            return DefaultFonts(regular: regular, bold: try FontChain(sources: sources, cache: regular.cache, bold: true))
        })
    }

    /// Opens the default chains if they are not yet; throws why they cannot be (every time: a
    /// failure is kept, and layouts then leave text out).
    public func loadFonts() throws {
        if let open = openFonts {
            openFonts = nil
            do { fonts = .success(try open()) } catch { fonts = .failure(error) }
        }
        if case .failure(let error) = fonts { throw error }
    }

    /// Whether the default chains have been opened (or failed to).
    public var fontsLoaded: Bool { openFonts == nil }

    /// SV's status font: DejaVu Sans, then the CJK fallbacks (UIKit's is SF subheadline 15); nil
    /// when no font of the chain loads (`fontFailure` says why).
    public var regular: FontChain? { try? loadedFonts().regular }

    /// MB's bold label, details and button font: the regular chain's faces in bold, each its bold
    /// sibling (DejaVu Sans Bold, Noto Sans Hebrew Bold…) or emboldened (UIKit's is the bold
    /// system font); nil as `regular`.
    public var bold: FontChain? { try? loadedFonts().bold }

    /// Why the default chains did not load (opening them if they are not yet), nil when they did.
    public var fontFailure: String? {
        do { _ = try loadedFonts(); return nil } catch { return "\(error)" }
    }

    private func loadedFonts() throws -> DefaultFonts {
        try loadFonts()
        guard case .success(let chains) = fonts else { preconditionFailure("loadFonts left no fonts") }
        return chains
    }

    /// The chain for a `set font SPEC` (one or more faces, FontSource's syntax): those faces first,
    /// then the default chain for what they lack. Every face named must load. The most recently
    /// used specs are cached, failures included (call `removeAll()` after fixing a file).
    public func chain(fontAt path: String) -> Result<FontChain, HUDResourceError> {
        if let known = customChains[path] { return known }
        let result: Result<FontChain, HUDResourceError>
        do {
            let sources = try FontSource.parse(path)
            let chain = try FontChain(sources: sources, after: regular)
            if let failed = chain.skipped.first { throw failed }  // every face named must load
            result = .success(chain)
        } catch {
            result = .failure(.font(path: path, reason: "\(error)"))
        }
        customChains[path] = result
        return result
    }

    /// The decoded PNG at `path` (premultiplied, within `imageLimits`); the most recently used
    /// paths are cached, failures included. The runtime calls this when an `image` command
    /// arrives, to report a bad file at once and keep decoding out of frames.
    public func image(at path: String) -> Result<Pixmap, HUDResourceError> {
        if let known = images[path] { return known }
        let result: Result<Pixmap, HUDResourceError>
        do { result = .success(try PNGDecoder.decode(contentsOf: path, limits: Self.imageLimits)) } catch {
            result = .failure(.image(path: path, reason: "\(error)"))
        }
        images[path] = result
        return result
    }

    /// Forgets every cached custom font and image (they are read again on next use).
    public func removeAll() {
        customChains.removeAll(); images.removeAll()
    }

    /// How many custom font chains and images are cached (each at most its cache's capacity).
    public var cachedCount: (fonts: Int, images: Int) { (customChains.count, images.count) }
}

/// The default chains a layout falls back to (a struct, not a tuple: a tuple inside `Result` is a
/// type the Swift runtime builds on first use).
public struct DefaultFonts {
    public var regular: FontChain
    public var bold: FontChain

    public init(regular: FontChain, bold: FontChain) {
        self.regular = regular; self.bold = bold
    }
}

/// A few values by path, the least recently used dropped first; linear in its small capacity.
struct RecentCache<Value> {
    let capacity: Int
    /// Oldest first.
    private var entries: [(key: String, value: Value)] = []

    init(capacity: Int) { self.capacity = capacity }

    var count: Int { entries.count }

    subscript(key: String) -> Value? {
        mutating get {
            guard let i = entries.firstIndex(where: { $0.key == key }) else { return nil }
            let entry = entries.remove(at: i)
            entries.append(entry)
            return entry.value
        }
        set {
            entries.removeAll { $0.key == key }
            guard let newValue else { return }
            entries.append((key, newValue))
            if entries.count > capacity { entries.removeFirst(entries.count - capacity) }
        }
    }

    mutating func removeAll() { entries.removeAll() }
}
