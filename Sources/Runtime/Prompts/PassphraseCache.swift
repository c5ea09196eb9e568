// SPDX-License-Identifier: MIT
// The passphrases typed at Plymouth's password prompts, kept so that one typing unlocks several
// disks: systemd's agent asks for the cache first for each volume (AcceptCached=1), dracut's
// `ask-for-password --command` tries it before prompting. Plymouth keeps every answer until it
// exits; we keep them in locked pages for `lifetime` after the last one was typed (systemd keeps
// its own kernel-keyring copy 2.5 minutes: the disks of one boot come up within that), answer at
// most what the 22.02 client can read (255 bytes, newest first dropped last), and zero them when
// they expire and when the splash quits.
import HUDProtocol
import LinuxSystem

final class PassphraseCache {
    /// How long a typed passphrase is offered after it was typed: 150 s.
    static let lifetime: Int64 = 150_000_000_000
    private(set) var entries: [SecretBytes] = []
    private var expiry: LoopTimer?
    private unowned let loop: EventLoop

    init(loop: EventLoop) { self.loop = loop }

    var isEmpty: Bool { entries.isEmpty }

    /// Keeps a copy of `secret` (empty answers and cancellations are not passphrases).
    func add(_ secret: SecretBytes, now: Int64) {
        guard !secret.isEmpty, let copy = secret.copy() else { return }
        entries.append(copy)
        if let expiry { _ = loop.cancel(expiry) }
        expiry = loop.schedule(at: now + Self.lifetime) { [weak self] in self?.clear() }
    }

    /// MULTIPLE_ANSWERS with the newest entries that fit, oldest first as typed; nil when none.
    func answerFrame() -> SecretBytes? {
        var chosen: [SecretBytes] = [], length = 0
        for e in entries.reversed() where length + e.count + 1 <= PlymouthWire.maxMultipleAnswersPayload {
            chosen.insert(e, at: 0)
            length += e.count + 1
        }
        guard !chosen.isEmpty, let frame = SecretBytes(capacity: 5 + length) else { return nil }
        frame.append([PlymouthWire.multipleAnswersByte] + PlymouthWire.littleEndian(UInt32(length)))
        for e in chosen { e.withBytes { _ = frame.append($0) }; frame.append([0]) }
        return frame
    }

    /// Zeroes and forgets every entry.
    func clear() {
        if let expiry { _ = loop.cancel(expiry) }
        expiry = nil
        for e in entries { e.removeAll() }
        entries = []
    }
}
