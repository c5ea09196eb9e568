// SPDX-License-Identifier: MIT
// Plymouth's socket on the runtime's loop (`splashhudd --plymouth`): the unchanged `plymouth`
// client, initramfs scripts and systemd (which pushes every unit's start here, never waiting) drive
// the HUD. Each request becomes a message in the same queue as every other transport's and is
// answered at once (ACK, or NAK for a sender that is not root and not our user, as plymouthd
// does), except the prompts: ask-for-password and ask-question are answered when the user presses
// Enter (or Ctrl-C) on the HUD's prompt (PromptDesk), the cached-password request at once from
// the passphrases typed lately. A keystroke watch is answered with the key when one of its keys
// is pressed (evdev's keys, and the prompts' terminal's as plymouthd reads them, while one waits;
// never while a prompt is up);
// ignore-keystroke ends it unanswered. systemd-fsckd's updates (FsckdUpdate) show the check's
// progress on the ring with its hint on how to cancel (Ctrl+C answers its keystroke watch), and
// the splash as it was once the checks end. A client that hangs up takes its prompts off the screen. A
// connection's output is bounded and a malformed request closes it with a log line; nothing here
// ever blocks a sender.
// The socket has no file mode (abstract), so anyone can connect: slots and idle clients are
// ConnectionHost's. A peer that is neither root nor our user gets its NAK and is closed, so it
// holds no slot; one that sends nothing is closed after `untrustedIdle` (2 s). A client waiting on
// us (a prompt, a keystroke watch, between pause-progress and unpause-progress, dracut's bracket
// around its prompt, root's `plymouth --wait`, which sends nothing) is never idle.
import HUDProtocol
import LinuxSystem
import Logging
import Raster
import SystemPackage

public final class PlymouthServer {
    public let runtime: HUDRuntime
    /// The runtime's prompts (passwords, questions, the cached passphrase).
    private let prompts: PromptDesk
    public let address: String
    /// Fed by `--update` (systemd's unit names), when the daemon keeps one.
    public var bootEstimate: BootEstimate?
    /// Unread replies a client may leave before it is disconnected.
    public var outputLimit = 65536
    /// Slots and idle times (ConnectionLimits); applies from the next connection.
    public var limits: ConnectionLimits {
        get { host.limits }
        set { host.limits = newValue }
    }
    /// How long a peer that may not use the socket may stay connected without a request.
    public static let untrustedIdle: Int64 = 2_000_000_000
    private let listener: FileDescriptor
    private let host: ConnectionHost
    /// Each client's request decoder (a request may arrive in pieces).
    private var decoders: [ObjectIdentifier: PlymouthDecoder] = [:]
    private var message: String?
    /// systemd-fsckd's check while one runs (FsckdUpdate), and its hint on how to cancel it.
    private var fsck: FsckdUpdate?
    private var fsckHint: String?
    /// watch-keystroke requests waiting for their key, with the keys they take (empty: any).
    private var keyWatches: [(connection: ControlConnection, keys: String, watch: KeyWatch)] = [] {
        // plymouthd reads keys from the terminal: while a watch waits, so does the prompts' one.
        didSet { if oldValue.isEmpty != keyWatches.isEmpty { prompts.watchTerminal(!keyWatches.isEmpty) } }
    }
    /// Clients between pause-progress and unpause-progress.
    private var pausing: Set<ObjectIdentifier> = []
    /// Clients that have sent a request. `plymouth --wait` sends none: it waits for the daemon to
    /// quit, so a trusted client that never spoke is waiting, not idle.
    private var spoken: Set<ObjectIdentifier> = []
    private var closed = false
    private var logger: Logger { runtime.logger }

    /// Binds Plymouth's socket (before the screen is touched); a plymouthd already there makes
    /// this fail with `alreadyRunning`.
    public static func bind(_ address: String = PlymouthWire.socketName) throws(ControlSocketError) -> FileDescriptor {
        do { return try UnixSocket.listen(at: address) } catch {
            if error.errno == .addressInUse { throw .alreadyRunning(path: address) }
            throw .system(error)
        }
    }

    /// Serves `listener` (from `bind`) on `runtime`'s loop until `close`.
    public init(runtime: HUDRuntime, listener: FileDescriptor, address: String = PlymouthWire.socketName) throws {
        self.runtime = runtime; prompts = runtime.prompts; self.address = address; self.listener = listener
        host = ConnectionHost(runtime: runtime, listener: listener, kind: "plymouth client", place: "Plymouth's socket")
        host.arrivalLevel = .debug
        host.limits.untrustedIdleNanoseconds = Self.untrustedIdle
        do { try host.start(owner: self) } catch {
            Files.close(listener)
            throw error
        }
        runtime.addEventListener { [unowned self] events in
            for e in events where e.kind == .key { keyPressed(e.detail("text")) }
        }
        prompts.typed = { [unowned self] text in keyPressed(text) }
        logger.info("answering Plymouth's protocol at \(address): \(host.limits.summary)")
    }

    /// Clients of `uid` connected now.
    public func connectionCount(uid: UInt32) -> Int { host.count(uid: uid) }

    public func close() {
        guard !closed else { return }
        closed = true
        keyWatches.removeAll()
        prompts.typed = nil
        host.close()
        Files.close(listener)
    }

    private func reply(_ c: ControlConnection, _ byte: UInt8) {
        c.send(raw: [byte])
        send(c)
    }

    /// One request: queued for the HUD like any transport's, answered at once.
    private func answer(_ request: PlymouthRequest, from c: ControlConnection) {
        guard c.trusted else {
            // plymouthd's answer; then the connection goes, so that it holds no slot.
            runtime.peerLog.log(.warning, "refused requests", from: c.origin, "\(c.name): not root: \(request) refused; closing")
            c.finishing = true
            return reply(c, PlymouthWire.nakByte)
        }
        runtime.peerLog.log(.debug, "requests", from: c.origin, "\(c.name): \(request)")
        switch request {
        case .ping, .systemInitialized, .error:
            if case .error = request { runtime.peerLog.log(.notice, "boot errors", from: c.origin, "plymouth: the boot reported an error") }
        case .newRoot(let directory):
            // `update-root-fs --new-root-dir` (`--newroot`) before switch_root, as plymouthd takes
            // it: the daemon lives on into the real root, and what it opens later is found there.
            if case .refused(let why) = runtime.moveRoot(to: directory) {
                runtime.peerLog.log(.warning, "refused requests", from: c.origin, "plymouth: \(why)")
                return reply(c, PlymouthWire.nakByte)
            }
        case .showSplash:
            runtime.enqueue(.hud(.show(status: message)), from: c.origin)
        case .hideSplash:
            runtime.enqueue(.hud(.dismiss(delay: .zero)), from: c.origin)
        case .displayMessage(let text) where FsckdUpdate.cancelHint(inMessage: text) != nil || (text.isEmpty && fsckHint != nil):
            // fsckd's hint (and its clearing): shown under the check's own text, not as a message.
            fsckHint = FsckdUpdate.cancelHint(inMessage: text).flatMap { $0.isEmpty ? nil : $0 }
            if let fsck { showCheck(fsck, from: c.origin) }
        case .displayMessage(let text):
            message = text
            runtime.enqueue(.hud(.status(text)), from: c.origin)
        case .hideMessage(let text):
            if message == text || text.isEmpty {
                message = nil
                runtime.enqueue(.hud(.status("")), from: c.origin)
            }
        case .systemUpdate(let percent):
            runtime.enqueue(.progressKeepingStatus(Fixed16_16(Double(percent) / 100)), from: c.origin)
        case .changeMode(let mode):
            guard enter(mode: mode, from: c.origin) else {
                runtime.peerLog.log(.warning, "refused requests", from: c.origin, "plymouth: unknown mode '\(mode)'")
                return reply(c, PlymouthWire.nakByte)
            }
        case .update(let status):
            if let update = FsckdUpdate(status: status) {
                checked(update, from: c.origin)
            } else if status.hasPrefix(FsckdUpdate.prefix) {
                runtime.peerLog.log(.warning, "refused requests", from: c.origin, "plymouth: a file system check's update that is not fsckd:DEVICES:PERCENT:TEXT: \"\(status.prefix(80))\"")
            } else {
                // systemd's unit names: for the boot estimate, not the HUD's text.
                bootEstimate?.note(status)
            }
        case .pauseProgress, .unpauseProgress:
            bootEstimate?.paused = request == .pauseProgress
            if request == .pauseProgress { pausing.insert(ObjectIdentifier(c)) } else { pausing.remove(ObjectIdentifier(c)) }
        case .deactivate, .reactivate:
            // Answered once done, as plymouthd does: the program that waited for it then finds
            // DRM master free.
            runtime.enqueue(request == .deactivate ? .deactivate : .reactivate, from: c.origin) { [weak self, weak c] _ in
                guard let self, let c, !c.closed else { return }
                self.reply(c, PlymouthWire.ackByte)
            }
            return
        case .quit(let retain):
            // ACK first: the daemon ends with this request, and the client waits for its answer.
            reply(c, PlymouthWire.ackByte)
            runtime.enqueue(.quit(retain: retain), from: c.origin)
            return
        case .watchKeystroke(let keys):
            // Answered when a key in `keys` is pressed (keyAnswered), not now.
            keyWatches.append((c, keys, runtime.watchKeys()))
            return
        case .ignoreKeystroke(let keys):
            for (i, w) in keyWatches.enumerated().reversed() where w.keys == keys {
                keyWatches.remove(at: i).watch.end()
                reply(w.connection, PlymouthWire.noAnswerByte)
            }
        case .hasActiveVT:
            return reply(c, runtime.console != nil ? PlymouthWire.ackByte : PlymouthWire.nakByte)
        case .askPassword(let prompt):
            return ask(.password, prompt: prompt.isEmpty ? "Password" : prompt, from: c)
        case .askQuestion(let prompt):
            return ask(.question, prompt: prompt, from: c)
        case .cachedPassword:
            guard let frame = prompts.cachedAnswer() else { return reply(c, PlymouthWire.noAnswerByte) }
            c.send(secret: frame)  // the connection's now: zeroed once written
            return send(c)
        case .unknown(let byte):
            runtime.peerLog.log(.warning, "refused requests", from: c.origin, "plymouth: unknown command 0x\(String(byte, radix: 16)); NAK")
            return reply(c, PlymouthWire.nakByte)
        }
        reply(c, PlymouthWire.ackByte)
    }

    /// systemd-fsckd's progress: the ring at the least complete check's percentage with systemd's
    /// sentence (and how to cancel) while devices are checked; the splash as it was once none is.
    private func checked(_ update: FsckdUpdate, from origin: String) {
        guard update.devices > 0 else {
            guard fsck != nil else { return }
            fsck = nil
            runtime.peerLog.log(.info, "file system checks", from: origin, "plymouth: the file system checks ended")
            runtime.enqueue(.hud(.show(status: message)), from: origin)
            return
        }
        if fsck?.devices != update.devices {
            runtime.peerLog.log(.info, "file system checks", from: origin, "plymouth: checking \(update.devices) file system(s) (systemd-fsckd)")
        }
        fsck = update
        showCheck(update, from: origin)
    }

    private func showCheck(_ update: FsckdUpdate, from origin: String) {
        let text = [update.text, fsckHint].compactMap { $0 }.filter { !$0.isEmpty }.joined(separator: "\n")
        runtime.enqueue(.hud(.progress(fraction: Fixed16_16(update.percent / 100), status: text)), from: origin)
    }

    /// Shows one of Plymouth's modes (SplashMode), its text kept as the message `show-splash`
    /// shows again; false for a mode Plymouth does not have.
    @discardableResult
    public func enter(mode: String, from origin: String?) -> Bool {
        guard let look = SplashMode.look(mode, profile: runtime.profile) else { return false }
        message = look.title
        runtime.enqueue(look.request, from: origin)
        return true
    }

    /// A prompt on the HUD, answered as plymouthd answers it: the text typed (ANSWER), 0x03 for
    /// Ctrl-C or Ctrl-D; NO_ANSWER when no keyboard can answer (plymouthd's "no splash").
    private func ask(_ kind: PromptDesk.Kind, prompt: String, from c: ControlConnection) {
        prompts.ask(kind, prompt: prompt, owner: ObjectIdentifier(c)) { [weak self, weak c] outcome in
            guard let self, let c, !c.closed else { return }
            switch outcome {
            case .answered(let text):
                guard let frame = SecretBytes(capacity: text.count + 5) else { return self.reply(c, PlymouthWire.noAnswerByte) }
                frame.append([PlymouthWire.answerByte] + PlymouthWire.littleEndian(UInt32(text.count)))
                text.withBytes { _ = frame.append($0) }
                c.send(secret: frame)  // the connection's now: zeroed once written
                self.send(c)
            case .cancelled:
                c.send(raw: PlymouthWire.answer(PlymouthWire.cancelled))
                self.send(c)
            case .unavailable(let why):
                self.runtime.peerLog.log(.warning, "unanswerable prompts", from: c.origin, "plymouth: \(c.name): cannot ask \"\(prompt)\": \(why); NO_ANSWER")
                self.reply(c, PlymouthWire.noAnswerByte)
            }
        }
    }

    /// Answers every watch whose keys include `text` (or that takes any key) with it.
    private func keyPressed(_ text: String?) {
        guard let text, !text.isEmpty else { return }
        for (i, w) in keyWatches.enumerated().reversed() where w.keys.isEmpty || w.keys.containsText(text) {
            keyWatches.remove(at: i).watch.end()
            answer(key: Array(text.utf8), to: w.connection, since: runtime.clock())
        }
    }

    /// How long a key's answer waits for its client to read the replies before it.
    static let keyAnswerWait: Int64 = 500_000_000

    /// A key's answer, sent once the client has read every reply before it (or after
    /// `keyAnswerWait`): systemd-fsckd reads six bytes at a time and takes a read that starts with
    /// an ACK for no answer, so its Ctrl+C, sent behind ACKs it had not read yet, was lost (seen
    /// under load: `read(6, "\6\2\1\0\0\0", 6)`).
    private func answer(key: [UInt8], to c: ControlConnection, since: Int64) {
        guard !c.closed else { return }
        let unread = c.pendingOutput + (UnixSocket.unreadBySender(c.descriptor) ?? 0)
        if unread > 0, runtime.clock() - since < Self.keyAnswerWait {
            _ = runtime.loop.schedule(at: runtime.clock() + 2_000_000) { [weak self, weak c] in
                guard let self, let c else { return }
                self.answer(key: key, to: c, since: since)
            }
            return
        }
        if unread > 0 {
            runtime.peerLog.log(.warning, "late key answers", from: c.origin,
                                "\(c.name): its watched key went behind \(unread) byte(s) of replies it had not read in \(Self.keyAnswerWait / 1_000_000) ms; a client that reads 6 bytes at a time (systemd-fsckd) may miss it")
        } else {
            runtime.peerLog.log(.debug, "requests", from: c.origin, "\(c.name): its keystroke watch answered")
        }
        c.send(raw: PlymouthWire.answer(key))
        send(c)
    }

    private func send(_ c: ControlConnection) { host.send(c) }
}

// plymouthd answers only root; our own user may drive a daemon it started (tests, kiosks): that is
// the connection's `trusted`, which `answer` checks.
extension PlymouthServer: ConnectionOwner {
    func accepted(_ c: ControlConnection) {
        decoders[ObjectIdentifier(c)] = PlymouthDecoder()
    }

    func received(_ bytes: ArraySlice<UInt8>, from c: ControlConnection) {
        guard var decoder = decoders[ObjectIdentifier(c)] else { return }
        let requests = decoder.feed(bytes)
        decoders[ObjectIdentifier(c)] = decoder
        for request in requests {
            switch request {
            case .success(let r):
                spoken.insert(ObjectIdentifier(c))
                host.heard(c)
                answer(r, from: c)
            case .failure(let e): return host.drop(c, reason: "\(e); closing the connection")
            }
            if c.closed || c.finishing { return }
        }
    }

    func isWaiting(_ c: ControlConnection) -> Bool {
        let id = ObjectIdentifier(c)
        return (c.trusted && !spoken.contains(id)) || pausing.contains(id) || prompts.isWaiting(for: id) || keyWatches.contains { $0.connection === c }
    }

    func overflow(_ c: ControlConnection) -> String? {
        c.pendingOutput > outputLimit ? "\(c.pendingOutput) bytes of replies unread: disconnected" : nil
    }

    func dropped(_ c: ControlConnection) {
        decoders[ObjectIdentifier(c)] = nil
        pausing.remove(ObjectIdentifier(c))
        spoken.remove(ObjectIdentifier(c))
        prompts.withdraw(owner: ObjectIdentifier(c))
        for (i, w) in keyWatches.enumerated().reversed() where w.connection === c {
            keyWatches.remove(at: i).watch.end()
        }
    }
}
