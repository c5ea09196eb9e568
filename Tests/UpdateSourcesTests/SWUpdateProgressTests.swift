// SPDX-License-Identifier: MIT
// SWUpdate's frames as one bar: the sequence 2022.12 sends for three images, a download before
// the install, a failure with and without SWUpdate's reason; and the queue toward the daemon.
import HUDProtocol
import Testing
import UpdateSources

@Suite("SWUpdate's progress on the HUD")
struct SWUpdateProgressTests {
    /// What core/progress_thread.c sends for `images` (each 0...100 in steps of `by`).
    static func install(_ images: [String], by: Int = 10) -> [SWUpdateFrame] {
        let n = UInt32(images.count)
        var frames = [SWUpdateFrame(status: .start, steps: n, source: 4, info: "{\"0\": {\"source\": \"local\"}}"),
                      SWUpdateFrame(status: .run, steps: n, info: "{\"0\": {\"VERSION\": \"1.0\"}}")]
        for (i, image) in images.enumerated() {
            frames.append(SWUpdateFrame(status: .run, steps: n, step: UInt32(i + 1), image: image, handler: "rawfile"))
            for p in stride(from: by, through: 100, by: by) {
                frames.append(SWUpdateFrame(status: .progress, steps: n, step: UInt32(i + 1), stepPercent: UInt32(p), image: image, handler: "rawfile"))
            }
        }
        frames.append(SWUpdateFrame(status: .run, steps: n, step: n + 1, image: images.last ?? ""))
        return frames
    }

    static func views(_ frames: [SWUpdateFrame], reason: String? = nil) -> [UpdateView] {
        var p = SWUpdateProgress()
        return frames.compactMap { p.view(for: $0, reason: { reason }) }
    }

    static func percents(_ views: [UpdateView]) -> [Int] {
        views.compactMap { if case .progress(let p, _) = $0 { return p } else { return nil } }
    }

    @Test("three images: one bar from 0 to 100 that never goes back, each image named, then success")
    func threeImages() {
        let views = Self.views(Self.install(["boot.img", "rootfs.img", "app.img"]) + [SWUpdateFrame(status: .success)])
        let p = Self.percents(views)
        #expect(p.first == 0 && p.last == 100)
        #expect(zip(p, p.dropFirst()).allSatisfy { $0 <= $1 }, "\(p)")
        #expect(p.contains(33) && p.contains(66), "\(p)")
        let statuses = views.compactMap { if case .progress(_, let s) = $0 { return s } else { return nil } }
        for (i, name) in ["boot.img", "rootfs.img", "app.img"].enumerated() { #expect(statuses.contains("\(name) (\(i + 1) of 3)")) }
        #expect(views.last == .succeeded(status: "Update installed"))
        // As psplash's FIFO shows it (swupdate-progress -p), the bar would have gone 0→100 three times.
    }

    @Test("a single image is named alone; its bar is its own percentage")
    func oneImage() {
        let views = Self.views(Self.install(["update.img"], by: 50))
        #expect(views.contains(.progress(percent: 50, status: "update.img")))
    }

    @Test("a download before the install shows its percentage, and the install's bar does not fall below it")
    func download() {
        var frames = (0...4).map { SWUpdateFrame(status: .download, downloadPercent: UInt32($0 * 25)) }
        frames += Self.install(["a.img", "b.img"], by: 50)
        let views = Self.views(frames)
        #expect(views.first == .progress(percent: 0, status: "Downloading 0%"))
        #expect(views.contains(.progress(percent: 75, status: "Downloading 75%")))
        let p = Self.percents(views)
        #expect(p.prefix(5) == [0, 25, 50, 75, 100])
        // START begins the install's own bar at 0; from there it climbs again, never back.
        let install = Array(p.dropFirst(5))
        #expect(install.first == 0 && install.last == 100 && zip(install, install.dropFirst()).allSatisfy { $0 <= $1 }, "\(install)")
    }

    @Test("streaming: DOWNLOAD between PROGRESS frames never pulls the bar back")
    func streaming() {
        let frames = [SWUpdateFrame(status: .start, steps: 2),
                      SWUpdateFrame(status: .run, steps: 2, step: 1, image: "a.img"),
                      SWUpdateFrame(status: .download, downloadPercent: 40, steps: 2, step: 1),
                      SWUpdateFrame(status: .progress, downloadPercent: 40, steps: 2, step: 1, stepPercent: 30, image: "a.img"),
                      SWUpdateFrame(status: .download, downloadPercent: 45, steps: 2, step: 1)]
        let p = Self.percents(Self.views(frames))
        #expect(p == [0, 0, 40, 40, 45])
    }

    @Test("nsteps 0 (frames after a result, a DOWNLOAD before START) divides nothing")
    func noSteps() {
        #expect(Self.views([SWUpdateFrame(status: .run), SWUpdateFrame(status: .progress, stepPercent: 50)]) ==
                [.progress(percent: 0, status: "Installing update"), .progress(percent: 0, status: "Installing update")])
    }

    @Test("FAILURE shows SWUpdate's reason, or which image failed when it gives none; the next update starts from 0")
    func failure() {
        let frames = [SWUpdateFrame(status: .start, steps: 3), SWUpdateFrame(status: .run, steps: 3),
                      SWUpdateFrame(status: .run, steps: 3, step: 1, image: "boot.img"), SWUpdateFrame(status: .failure, image: "boot.img")]
        let reason = "Image invalid or corrupted. Not installing ..."
        #expect(Self.views(frames, reason: reason).last == .failed(reason: reason))
        #expect(Self.views(frames).last == .failed(reason: "The update failed while installing boot.img"))
        #expect(Self.views([SWUpdateFrame(status: .failure)]).last == .failed(reason: "The update failed"))
        let again = Self.views(Self.install(["a.img"], by: 50) + [SWUpdateFrame(status: .failure)] + Self.install(["a.img"], by: 50))
        let after = again.split { if case .failed = $0 { return true } else { return false } }
        #expect(after.count == 2 && Self.percents(Array(after[1])) == [0, 0, 0, 50, 100, 100])
    }

    @Test("IDLE, DONE and SUBPROCESS change nothing on the HUD")
    func quiet() {
        #expect(Self.views([SWUpdateFrame(status: .idle), SWUpdateFrame(status: .done, info: "x"), SWUpdateFrame(status: .subprocess)]).isEmpty)
    }

    @Test("views are command-language lines the daemon takes")
    func lines() throws {
        #expect(UpdateView.progress(percent: 42, status: "rootfs.img (2 of 3)").command.description == "progress 0.42 \"rootfs.img (2 of 3)\"")
        #expect(UpdateView.succeeded(status: "Update installed").command.description == "success \"Update installed\"")
        let failed = UpdateView.failed(reason: "Image \"x\" invalid\nNot installing").command
        #expect(try CommandParser.parse(failed.description) == failed)
        #expect(UpdateView.progress(percent: 140, status: "x").command == .progress(fraction: .one, status: "x"))
    }

    @Test("the queue: a progress replaces a progress still at its tail, starts and ends keep their order")
    func queue() {
        var q = UpdateViewQueue(capacity: 4)
        q.push(.progress(percent: 1, status: "a")); q.push(.progress(percent: 2, status: "a"))
        #expect(q.items == [.progress(percent: 2, status: "a")])
        q.push(.succeeded(status: "ok")); q.push(.progress(percent: 0, status: "b")); q.push(.progress(percent: 5, status: "b"))
        #expect(q.items == [.progress(percent: 2, status: "a"), .succeeded(status: "ok"), .progress(percent: 5, status: "b")])
        // Full: the oldest progress makes room for an end; a progress never pushes out an end.
        q.push(.failed(reason: "x")); q.push(.succeeded(status: "y"))
        #expect(q.items == [.succeeded(status: "ok"), .progress(percent: 5, status: "b"), .failed(reason: "x"), .succeeded(status: "y")])
        q.push(.failed(reason: "z"))
        #expect(q.items == [.succeeded(status: "ok"), .failed(reason: "x"), .succeeded(status: "y"), .failed(reason: "z")])
        q.push(.progress(percent: 9, status: "c"))
        #expect(q.items.count == 4 && !q.items.contains(.progress(percent: 9, status: "c")))
        #expect(q.pop() == .succeeded(status: "ok") && q.items.count == 3)
    }
}
