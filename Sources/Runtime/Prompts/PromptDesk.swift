// SPDX-License-Identifier: MIT
// Prompts on the HUD: Plymouth's ask-for-password and ask-question, and the control socket's
// ask-password. Requests wait in order and one is shown at a time; its keys come from a terminal in
// raw mode (the VT under the display, where the kernel's keymap gives the user's layout, or a
// terminal the daemon was told to use), never from evdev, so no key watch sees them. While a key
// watch waits and no prompt is up, the same terminal is read for the watch (`typed`), as plymouthd
// reads every key there: Ctrl+C arrives as 0x03 (systemd-fsckd's cancel key). What is typed
// lives in locked, zeroed pages (SecretBytes); the HUD shows only how many characters there are.
// Core dumps are off while any passphrase is in memory. An asker that goes away takes its prompt
// with it (Plymouth 22.02 leaves it on screen: its issue #126).
//
// On a touch-only kiosk the prompt shows an on-screen keyboard (`[input] on-screen-keyboard`):
// taps on its keys (PromptDesk+Keyboard.swift) type into the same locked buffer as the terminal's
// keys. With neither a keyboard nor a touchscreen (and not `always`), a prompt is refused at once,
// so the caller asks on its console.
import Board
import HUD
import LinuxSystem
import Logging

/// What a prompt needs of the HUD it is shown on (the runtime).
protocol PromptSurface: AnyObject {
    /// Shows `entry` on the HUD (nil: no prompt) and draws it when it changed.
    func showPrompt(_ entry: HUDEntry?)
    /// The VT the runtime took, whose keys a prompt reads when no terminal was named.
    var consoleDevice: String? { get }
    /// The on-screen keyboard's key under frame pixel (x, y) of `output`, as the HUD shows it now.
    func keyboardKey(output: String, x: Int32, y: Int32) -> KeyboardKey?
}

public final class PromptDesk {
    public enum Kind: Sendable { case password, question }
    /// What became of a prompt.
    public enum Outcome {
        /// Enter: the text, in pages the receiver zeroes or drops once sent.
        case answered(SecretBytes)
        /// Ctrl-C or Ctrl-D.
        case cancelled
        /// Nothing can take keys (no VT, no terminal), or pages for a secret cannot be had.
        case unavailable(String)
    }
    /// Who asked: replies go to it, and it going away withdraws its prompts.
    public typealias Owner = ObjectIdentifier

    private struct Pending {
        var kind: Kind
        var prompt: String
        var owner: Owner?
        /// Tries left, as the asker said it.
        var tries: Int?
        var reply: (Outcome) -> Void
    }

    /// The most bytes an answer holds (systemd's agent reads at most 2043; cryptsetup's
    /// interactive passphrases are at most 512 characters).
    public static let capacity = 2043
    /// The terminal keys are read from; nil: the VT the runtime took (`console`).
    public var terminalPath: String?

    /// Weak: `close` runs from the runtime's deinit too, where only the secrets are left to zero.
    weak var surface: (any PromptSurface)?
    private unowned let loop: EventLoop
    private let logger: Logger
    private let peerLog: LogRateLimiter
    private var pending: [Pending] = []
    private var typing: SecretBytes?
    /// Opened for the first prompt, or early (`openTerminalEarly`); raw and watched while `reading`.
    private var terminal: Terminal?
    private var reading = false
    /// Opened early: kept between prompts (it could not be opened again without root).
    private var keepTerminal = false
    private var decoder = PromptKeyDecoder()
    /// Characters typed while no prompt is up and Plymouth's key watch waits (`watchTerminal`).
    var typed: ((String) -> Void)?
    private var watching = false
    let cache: PassphraseCache
    /// Whether this desk holds core dumps off (CoreDumps.hold) for the secrets it keeps.
    public private(set) var holdsDumps = false

    /// When prompts show the on-screen keyboard (the profile's `[input] on-screen-keyboard`).
    public var keyboardMode: BoardProfile.OnScreenKeyboard = .auto
    /// The on-screen keyboard's layout (the profile's or the console's keymap).
    public var keyboardLayout: KeyboardLayout = .us
    /// The input devices there are (InputHub keeps it up to date); nil while no one reads them.
    public var devices: InputPresence? {
        didSet { if devices != oldValue { showEntry() } }
    }
    /// The on-screen keyboard as shown, while it is.
    var keyboard: KeyboardState?
    /// The console's keymap as the system configured it ("de"), the prompt's tag while keys come
    /// from the VT; nil: not configured (no layout is guessed for it).
    public var consoleKeymap: String?
    /// The VT's Caps Lock: read when a prompt opens the terminal (KDGKBLED's lock flags), then from
    /// the keyboards' lights. A keymap that makes Caps Lock CtrlL_Lock (Debian's console-setup) keeps
    /// it where no ioctl reports it: then only the lights tell, which need input-leds loaded.
    public var capsLock = false {
        didSet { if capsLock != oldValue { showEntry() } }
    }

    /// `peerLog` takes the lines the askers cause (a prompt asked, withdrawn): a peer asking in
    /// a loop cannot flood the log.
    init(loop: EventLoop, logger: Logger, peerLog: LogRateLimiter) {
        self.loop = loop; self.logger = logger; self.peerLog = peerLog
        cache = PassphraseCache(loop: loop)
    }

    /// A prompt is on the HUD: keys go to it, not to key watches or MB's button.
    public var isActive: Bool { !pending.isEmpty }
    /// A passphrase is typed on the on-screen keyboard and it shows a key a finger holds, or the
    /// shift or symbols level (which says what comes next): no picture of it may leave (snapshots
    /// are refused). At its first level with no key held it shows no more than the bullets do.
    public var passphraseKeysShow: Bool {
        guard let keyboard, pending.first?.kind == .password else { return false }
        return keyboard.pressed != nil || keyboard.level != .base
    }
    /// Prompts waiting, the one shown included.
    public var count: Int { pending.count }

    /// Queues a prompt; `reply` runs once, on the loop's thread, when it is answered or cancelled
    /// (not when it is withdrawn).
    public func ask(_ kind: Kind, prompt: String, owner: Owner?, tries: Int? = nil, reply: @escaping (Outcome) -> Void) {
        if let why = noInput { return reply(.unavailable(why)) }
        // Opened for the first prompt (and again after a read error closed it); taps answer
        // without it.
        if let why = openTerminal(), !showsKeyboard { return reply(.unavailable(why)) }
        pending.append(Pending(kind: kind, prompt: prompt, owner: owner, tries: tries, reply: reply))
        let waiting = pending.count
        peerLog.log(.info, "prompts", from: "the prompts' askers",
                    "prompt \(kind == .password ? "for a passphrase" : "for an answer"): \"\(prompt)\" (\(waiting) waiting)")
        if pending.count == 1 { showHead() }
    }

    /// Whether `owner` has a prompt waiting or shown (it waits on us: never closed as idle).
    public func isWaiting(for owner: Owner) -> Bool { pending.contains { $0.owner == owner } }

    /// MULTIPLE_ANSWERS of the passphrases typed lately, nil when there are none.
    public func cachedAnswer() -> SecretBytes? { cache.answerFrame() }

    /// Drops every prompt `owner` asked (it hung up); the next one shows.
    public func withdraw(owner: Owner) {
        guard pending.contains(where: { $0.owner == owner }) else { return }
        let headGoes = pending.first?.owner == owner
        pending.removeAll { $0.owner == owner }
        peerLog.log(.info, "prompts withdrawn", from: "the prompts' askers", "prompt withdrawn: its asker went away")
        guard headGoes else { return }
        // What was typed for it is no one else's: not the next disk's passphrase.
        if reading { terminal?.discardInput() }
        advance()
    }

    /// Drops every prompt and zeroes every secret (the splash quits).
    public func close() {
        pending = []
        typing?.removeAll()
        typing = nil
        cache.clear()
        closeTerminal(release: true)
        surface?.showPrompt(nil)
        updateDumpable()
    }

    // MARK: Keys

    /// Opens the terminal now, for a daemon about to drop root (`--user`): a VT is root's and the
    /// tty group's, so the first prompt could not open it later.
    public func openTerminalEarly() {
        guard terminal == nil, let path = terminalPath ?? surface?.consoleDevice else { return }
        do {
            terminal = try Terminal(path: path)
            keepTerminal = true
        } catch {
            logger.warning("prompts: cannot open \(path): \(error); trying again at the first prompt")
        }
    }

    /// Reads the terminal for key watches too (`on`), or no longer; without a terminal the watches
    /// have evdev's keys only.
    func watchTerminal(_ on: Bool) {
        guard on != watching else { return }
        watching = on
        if on {
            if let why = openTerminal() { logger.debug("key watches: \(why); evdev's keys only") }
        } else if pending.isEmpty {
            closeTerminal()
        }
    }

    private func openTerminal() -> String? {
        guard !reading else { return nil }
        guard let path = terminal?.path ?? terminalPath ?? surface?.consoleDevice else { return "no terminal to read keys from (no VT)" }
        do {
            let t = try terminal ?? Terminal(path: path)
            terminal = t
            try t.enterRawMode()
            try loop.watch(t.descriptor.rawValue, interest: .read) { [unowned self] _ in readKeys() }
            reading = true
            if let on = t.capsLock { capsLock = on }
            decoder = PromptKeyDecoder()
            return nil
        } catch {
            closeTerminal(release: true)
            return "cannot read keys from \(path): \(error)"
        }
    }

    /// Raw mode and the watch end; the terminal is closed too unless it was opened early.
    private func closeTerminal(release: Bool = false) {
        guard let t = terminal else { return }
        if reading {
            loop.unwatch(t.descriptor.rawValue)
            reading = false
        }
        t.restore()
        if release || !keepTerminal {
            terminal = nil
            keepTerminal = false
        }
    }

    private func readKeys() {
        guard reading, let t = terminal, let scratch = SecretBytes(capacity: 256) else { return }
        defer { scratch.removeAll() }
        do {
            try scratch.fill { (buffer) throws(SystemError) in try t.read(into: buffer) }
        } catch {
            logger.error("prompt keys: \(error); the prompt stays, unanswered")
            return closeTerminal(release: true)
        }
        guard !pending.isEmpty else {
            // No prompt: keys for the watches (not secrets; a prompt that ended earlier in a read
            // took its bytes with it, the rest dropped below).
            let text = scratch.withBytes { String(decoding: $0, as: UTF8.self) }
            if watching { for c in text { typed?(String(c)) } } else { closeTerminal() }
            return
        }
        scratch.withBytes { bytes in
            for b in bytes {
                guard let key = decoder.next(b) else { continue }
                take(key)
            }
        }
        if pending.isEmpty && !watching { closeTerminal() }
        showEntry()
    }

    func take(_ key: PromptKey) {
        guard !pending.isEmpty, let typing else { return }
        switch key {
        case .text(let b):
            if !typing.append(CollectionOfOne(b)) { logger.warning("prompt: the answer is at its \(typing.capacity)-byte limit; key ignored") }
        case .erase: typing.removeLastCharacter()
        case .eraseEntry: typing.removeAll()
        case .cancel:
            let head = pending.removeFirst()
            head.reply(.cancelled)
            advance()
        case .enter:
            let head = pending.removeFirst()
            if head.kind == .password { cache.add(typing, now: loop.clock()) }
            head.reply(.answered(typing))
            advance()
        }
    }

    // MARK: The HUD

    /// The next prompt, with an empty entry; the HUD as it was when none is left.
    private func advance() {
        typing?.removeAll()
        typing = nil
        if pending.isEmpty {
            keyboard = nil
            if !watching { closeTerminal() }
            surface?.showPrompt(nil)
            updateDumpable()
        } else {
            showHead()
        }
    }

    private func showHead() {
        decoder = PromptKeyDecoder()
        keyboard = nil
        typing = SecretBytes(capacity: Self.capacity)
        if typing == nil {
            let head = pending.removeFirst()
            head.reply(.unavailable("no memory for a secret"))
            return advance()
        }
        updateDumpable()
        showEntry()
    }

    func showEntry() {
        guard let head = pending.first, let typing, let surface else { return }
        keyboard = showsKeyboard ? keyboard ?? KeyboardState(layout: keyboardLayout) : nil
        // The tag: the on-screen keyboard's layout, else the VT's keymap (a named terminal's is not known).
        let layoutName = keyboard.map { $0.layout.name } ?? (terminalPath == nil ? consoleKeymap : nil)
        var entry = HUDEntry(prompt: head.prompt, isSecure: head.kind == .password, characters: typing.characterCount, keyboard: keyboard,
                             layoutName: layoutName, capsLock: capsLock, triesLeft: head.tries)
        if head.kind == .question { entry.echo = typing.withBytes { String(decoding: $0, as: UTF8.self) } }
        surface.showPrompt(entry)
    }

    /// No core dump while a secret is held; as before once none is.
    private func updateDumpable() {
        let holding = typing != nil || !cache.isEmpty
        if holding != holdsDumps {
            holdsDumps = holding
            if holding { CoreDumps.hold() } else { CoreDumps.release() }
        }
    }
}
