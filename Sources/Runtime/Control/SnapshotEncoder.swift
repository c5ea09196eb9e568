// SPDX-License-Identifier: MIT
// Snapshot PNGs are encoded off the loop: zlib's work for a whole screen, done on the loop, would
// hold every client's reply and the next frame (LoopLatencyTests measures the pings meanwhile). The loop copies the picture's parts (`ComposedFrame.detached`: the
// HUD's box and a row of the screen's colour, or the whole picture when the scene keeps one) and
// hands them to one worker thread, which makes the picture whole and encodes it; the PNG comes back
// through the loop's inbox, and the caller fills the reply slot it kept, so replies still go out
// in request order.
import Images
import LinuxSystem
import Raster

final class SnapshotEncoder {
    /// Snapshots waiting to be encoded at most; more are refused (each holds a copy of a screen).
    static let capacity = 8

    private struct Job: Sendable {
        let id: UInt64
        let picture: ComposedFrame
    }

    private struct Done: Sendable {
        let id: UInt64
        let png: Result<[UInt8], EncodingFailed>
    }

    /// Why a picture could not be encoded (libpng's message).
    struct EncodingFailed: Error, Sendable, CustomStringConvertible {
        let description: String
    }

    private let jobs: Mailbox<Job>
    private let results: MessageQueue<Done>
    /// What to do with each PNG, on the loop.
    private var waiting: [UInt64: (Result<[UInt8], EncodingFailed>) -> Void] = [:]
    private var lastID: UInt64 = 0
    private var workerStarted = false

    init(loop: EventLoop) throws(SystemError) {
        jobs = try Mailbox(capacity: Self.capacity)
        results = loop.makeQueue()
        loop.addTurnStep { [weak self] in self?.deliver() }
    }

    /// The worker ends once the jobs it has are done.
    deinit { jobs.close() }

    /// Snapshots handed to the worker and not delivered yet.
    var pending: Int { waiting.count }

    /// Encodes `picture` on the worker thread; `done` runs on the loop, in a later turn. False
    /// when `capacity` snapshots are already waiting or no thread could be started.
    func encode(_ picture: ComposedFrame, done: @escaping (Result<[UInt8], EncodingFailed>) -> Void) -> Bool {
        if !workerStarted {
            let jobs = self.jobs, results = self.results
            guard Threads.detach({ Self.work(jobs, results) }) else { return false }
            workerStarted = true
        }
        lastID &+= 1
        guard jobs.post(Job(id: lastID, picture: picture)) else { return false }
        waiting[lastID] = done
        return true
    }

    /// The worker thread: one picture at a time, until the mailbox closes.
    private static func work(_ jobs: Mailbox<Job>, _ results: MessageQueue<Done>) {
        while true {
            guard let job = jobs.take(timeoutMilliseconds: -1) else {
                if jobs.isClosed { return }
                continue
            }
            let png: Result<[UInt8], EncodingFailed>
            do { png = .success(try PNGEncoder.encode(job.picture.materialized())) } catch {
                png = .failure(EncodingFailed(description: "\(error)"))
            }
            results.post(Done(id: job.id, png: png))
        }
    }

    private func deliver() {
        guard !waiting.isEmpty else { return }
        for done in results.takeAll() { waiting.removeValue(forKey: done.id)?(done.png) }
    }
}
