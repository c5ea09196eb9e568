// SPDX-License-Identifier: MIT
// `splashhud-updates bootc -- COMMAND…`: runs the command (bootc upgrade or switch, or whatever
// runs it) with `--progress-fd 3` appended, a pipe as its descriptor 3, reads its JSON Lines and
// shows them, and ends as the command ends, with its exit status, so it takes the command's place
// in a unit. The command's standard error is passed through to ours (the journal) and its last
// lines kept as the reason if it fails. A line that is not bootc's progress is logged once and
// skipped: the update goes on whatever the splash makes of it.
import LinuxSystem
import SystemPackage
import UpdateSources

final class BootcRunner {
    static let progressDescriptor: CInt = 3
    /// Longer lines are not bootc's (its longest carry a few layer digests): skipped, not buffered.
    static let lineLimit = 65_536

    let command: [String]
    let sink: HUDSink
    private var progress = BootcProgress()
    private var complained = false

    init(command: [String], sink: HUDSink) {
        self.command = command
        self.sink = sink
    }

    /// Runs the command to its end; its exit status (128 + the signal that killed it, as a shell
    /// says; 127 when it cannot be run).
    func run() -> Int32 {
        let program = command[0]
        let progressPipe: (read: FileDescriptor, write: FileDescriptor)
        let errorPipe: (read: FileDescriptor, write: FileDescriptor)
        let pid: Int32
        do {
            progressPipe = try ChildProcess.outputPipe(subject: "\(program)'s progress")
            errorPipe = try ChildProcess.outputPipe(subject: "\(program)'s standard error")
            // Standard error first: were its pipe our descriptor 3, giving the progress pipe 3
            // first would overwrite it in the child before it became 2.
            pid = try ChildProcess.start(command + ["--progress-fd", "\(Self.progressDescriptor)"],
                                         descriptors: [(errorPipe.write, 2), (progressPipe.write, Self.progressDescriptor)])
        } catch {
            Log.say("cannot run \(program): \(error)")
            sink.show(.failed(reason: "The update could not start: \(error)"))
            _ = sink.finish(waitingUpTo: 2_000)
            return 127
        }
        Files.close(progressPipe.write)
        Files.close(errorPipe.write)
        let tail = ErrorTail(reading: errorPipe.read, program: program)
        readProgress(progressPipe.read)
        let lastWords = tail.finish()
        let termination: ChildProcess.Termination
        do { termination = try ChildProcess.wait(pid, program: program) } catch {
            Log.say("\(error)")
            termination = .exited(127)
        }
        let status: Int32
        switch termination {
        case .exited(let code):
            status = code
            sink.show(progress.view(exitStatus: code, signal: nil, errorOutput: lastWords))
        case .signaled(let signal):
            status = 128 + signal
            sink.show(progress.view(exitStatus: nil, signal: signal, errorOutput: lastWords))
        }
        if !sink.finish(waitingUpTo: 2_000) { Log.say("splashhudd did not take the update's end in 2 s") }
        return status
    }

    /// Reads bootc's lines until it closes the pipe (it exits, or it stopped reporting).
    private func readProgress(_ fd: FileDescriptor) {
        var reader = SocketReader(adopting: fd, path: "\(command[0])'s progress")
        var line: [UInt8] = []
        var skipping = false
        while true {
            let bytes: ArraySlice<UInt8>?
            do { bytes = try reader.next() } catch {
                Log.say("\(error); the update goes on without its progress")
                return
            }
            guard let bytes else { return }
            for b in bytes {
                if b == UInt8(ascii: "\n") {
                    if !skipping, !line.isEmpty { handle(line) }
                    line.removeAll(keepingCapacity: true)
                    skipping = false
                } else if line.count >= Self.lineLimit {
                    if !skipping { complain("a line longer than \(Self.lineLimit) bytes") }
                    skipping = true
                    line.removeAll(keepingCapacity: true)
                } else if !skipping {
                    line.append(b)
                }
            }
        }
    }

    private func handle(_ line: [UInt8]) {
        do {
            let event = try BootcEvent.decode(line)
            if case .start(let version) = event { Log.say("following \(command[0])'s progress (format \(version))") }
            if let view = progress.view(for: event) { sink.show(view) }
        } catch {
            complain("\(error)")
        }
    }

    /// Logs the first line the adapter cannot read (the rest would say the same).
    private func complain(_ text: String) {
        guard !complained else { return }
        complained = true
        Log.say("\(text); such lines are skipped")
    }
}

/// A child's standard error, read on a thread of its own: passed through to ours as it comes, its
/// last lines kept.
final class ErrorTail: @unchecked Sendable {
    static let keep = 4_096
    private let lock = Lock()
    private var kept: [UInt8] = []
    private let done: Mailbox<Bool>?

    init(reading fd: FileDescriptor, program: String) {
        done = try? Mailbox(capacity: 1)
        let started = Threads.detach { [self] in
            var reader = SocketReader(adopting: fd, path: "\(program)'s standard error")
            while let bytes = try? reader.next() {
                try? Files.writeAll(FileDescriptor.standardError, Array(bytes), subject: "standard error")
                lock.withLock {
                    kept.append(contentsOf: bytes)
                    if kept.count > Self.keep { kept.removeFirst(kept.count - Self.keep) }
                }
            }
            _ = done?.post(true)
        }
        if !started { Files.close(fd); _ = done?.post(true) }
    }

    /// The last lines written, once the child closed its standard error (waiting up to 5 s more).
    func finish() -> [String] {
        _ = done?.take(timeoutMilliseconds: 5_000)
        let text = lock.withLock { String(decoding: kept, as: UTF8.self) }
        return text.split(separator: "\n").map(String.init)
    }
}
