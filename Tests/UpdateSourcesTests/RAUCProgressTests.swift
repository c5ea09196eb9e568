// SPDX-License-Identifier: MIT
// RAUC's installer as one bar: the properties RAUC 1.8 sets for a good bundle and for one with a
// bad signature (recorded with dbus-monitor on the bus of RAUCEndToEndTests), a follower that
// comes mid-install, and the bound on a failure's reason.
import Testing
import UpdateSources

@Suite("RAUC's progress on the HUD")
struct RAUCProgressTests {
    /// (percentage, message, depth) as RAUC 1.8 sets `Progress` installing one raw image.
    static let good: [(Int32, String, Int32)] = [
        (0, "Installing", 1), (0, "Determining slot states", 2), (20, "Determining slot states done.", 2),
        (20, "Checking bundle", 2), (20, "Verifying signature", 3), (40, "Verifying signature done.", 3),
        (40, "Checking bundle done.", 2), (40, "Checking manifest contents", 2), (60, "Checking manifest contents done.", 2),
        (60, "Determining target install group", 2), (80, "Determining target install group done.", 2),
        (80, "Updating slots", 2), (80, "Checking slot rootfs.1", 3), (90, "Checking slot rootfs.1 done.", 3),
        (90, "Copying image to rootfs.1", 3), (99, "Copying image to rootfs.1 done.", 3), (99, "Updating slots done.", 2),
        (100, "Installing done.", 1),
    ]
    static let badSignature: [(Int32, String, Int32)] = [
        (0, "Installing", 1), (0, "Determining slot states", 2), (20, "Determining slot states done.", 2),
        (20, "Checking bundle", 2), (20, "Verifying signature", 3), (40, "Verifying signature failed.", 3),
        (40, "Checking bundle failed.", 2), (100, "Installing failed.", 1),
    ]
    static let signatureError = "signature verification failed: Verify error: unable to get local issuer certificate"

    static func events(_ steps: [(Int32, String, Int32)]) -> [RAUCEvent] {
        [.operation("installing"), .lastError("")] + steps.map { RAUCEvent.progress(percent: $0.0, message: $0.1, depth: $0.2) }
    }

    static func views(_ events: [RAUCEvent]) -> [UpdateView] {
        var p = RAUCProgress()
        return events.compactMap { p.view(for: $0) }
    }

    static func bar(_ views: [UpdateView]) -> [(Int, String)] {
        views.compactMap { if case .progress(let p, let s) = $0 { return (p, s) } else { return nil } }
    }

    @Test("a good bundle: one bar held at 99 until Completed, each step's text, then success")
    func goodBundle() {
        let views = Self.views(Self.events(Self.good) + [.operation("idle"), .completed(result: 0, lastError: "")])
        let bar = Self.bar(views)
        #expect(bar.map(\.0) == [0, 0, 0, 20, 20, 20, 40, 40, 40, 60, 60, 80, 80, 80, 90, 90, 99, 99, 99])
        // The root's "Installing" and every step's end keep the text of what goes on.
        #expect(bar.map(\.1) == ["Installing update", "Installing update", "Determining slot states", "Determining slot states",
                                 "Checking bundle", "Verifying signature", "Verifying signature", "Verifying signature",
                                 "Checking manifest contents", "Checking manifest contents", "Determining target install group",
                                 "Determining target install group", "Updating slots", "Checking slot rootfs.1", "Checking slot rootfs.1",
                                 "Copying image to rootfs.1", "Copying image to rootfs.1", "Copying image to rootfs.1", "Copying image to rootfs.1"])
        #expect(views.last == .succeeded(status: "Update installed"))
    }

    @Test("RAUC's 100 % for a failed install is not success: Completed ends it, with LastError")
    func badSignature() {
        let events = Self.events(Self.badSignature)
        // LastError as the property change brought it, or as read when Completed came.
        for ending: [RAUCEvent] in [[.lastError(Self.signatureError), .completed(result: 1, lastError: nil)],
                                    [.completed(result: 1, lastError: Self.signatureError)]] {
            let views = Self.views(events + ending)
            #expect(Self.bar(views).map(\.0).max() == 20, "a failed step moves nothing")
            #expect(!views.contains { if case .succeeded = $0 { return true } else { return false } })
            #expect(views.last == .failed(reason: Self.signatureError))
        }
        #expect(Self.views(events + [.completed(result: 1, lastError: nil)]).last == .failed(reason: "The update failed"))
        // A later install starts clean: the last one's error is not its reason.
        let again = Self.views(events + [.lastError("old"), .completed(result: 1, lastError: nil)] + Self.events(Self.badSignature)
                                + [.completed(result: 1, lastError: nil)])
        #expect(again.last == .failed(reason: "The update failed"))
    }

    @Test("a follower that comes mid-install shows it from where it is, and never goes back")
    func midInstall() {
        let views = Self.views([.progress(percent: 60, message: "Determining target install group", depth: 2),
                                .operation("installing"), .progress(percent: 40, message: "late", depth: 2),
                                .progress(percent: 80, message: "Updating slots", depth: 2), .completed(result: 0, lastError: nil)])
        #expect(Self.bar(views).map(\.0) == [60, 60, 80])
        #expect(views.last == .succeeded(status: "Update installed"))
        // An idle RAUC and a lone Completed's success change nothing but the end.
        #expect(Self.views([.operation("idle")]).isEmpty)
    }

    @Test("a failure's reason: its last three lines, each cut to 160 bytes at a character")
    func boundedReason() {
        let long = String(repeating: "é", count: 100)
        let reason = FailureReason.bounded(["one", "two\n\n three ", "", "four\n" + long])
        let lines = reason?.split(separator: "\n").map(String.init) ?? []
        #expect(lines.count == 3 && lines[0] == "three" && lines[1] == "four", "\(lines)")
        #expect(lines[2].utf8.count <= 160 && lines[2].hasSuffix("…") && lines[2].hasPrefix("éé"), "\(lines)")
        #expect(FailureReason.bounded(["", " \n "]) == nil)
    }
}
