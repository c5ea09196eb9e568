// SPDX-License-Identifier: MIT
// ask-for-password, ask-question and watch-keystroke, step for step as plymouth.c 22.02 runs
// them, because cryptsetup-initramfs and dracut depend on the exact sequence and exit status:
//
//   ask-for-password [--command CMD]: `A` (unless --dont-pause-progress); with CMD, `c` and CMD
//   once per cached password (the first that exits 0 ends it, exit 0, no `a`), then `*` with the
//   prompt, CMD with the answer on its standard input, `*` again while it fails and tries remain
//   (0 or less: no limit); without CMD the answer goes to standard output. Then `a`, and exit
//   0 when the last status was 0, else 1 (without the pause: CMD's status). Ctrl-C (an answer
//   starting 0x03) prints nothing and exits 0. NO_ANSWER: exit 1 before `a` is sent (0 under
//   --dont-pause-progress: the handler asks the loop to exit twice). No daemon, or a NAK: CMD
//   runs on its own (reading the terminal) up to the number of tries.
//
// `status` below is a raw wait status, initialised to 127 as the real client does: so its
// WEXITSTATUS is 0 and it is neither "exited" nor "signalled" until a command has run.
import CommandLineOptions
import HUDProtocol
import LinuxSystem

struct PlymouthPasswordRequest {
    var command: String?
    var prompt: [UInt8]?
    /// Tries left; the real client turns 0 or less into INT_MAX.
    var triesLeft: Int32
    var pause: Bool
}

extension PlymouthSession {
    func askForPassword(_ request: PlymouthPasswordRequest) -> Never {
        var r = request
        if r.pause {
            // Only ACK goes on: the real client's pause handler misreads any other reply (it
            // asserts on NO_ANSWER, gives up on an ANSWER); failing is the defined choice.
            if ask(UInt8(ascii: "A")) == .reply(.ack) { passwordExecute(&r) } else { passwordFailure(&r) }
        } else {
            passwordExecute(&r)
        }
        finish()
    }

    private func passwordExecute(_ r: inout PlymouthPasswordRequest) {
        guard let command = r.command else { return askPassword(&r) }
        switch ask(UInt8(ascii: "c")) {
        case .reply(.nak), .reply(.unknown), .failed: passwordFailure(&r)
        case .reply(.multipleAnswers(let cached)):
            for password in cached {
                let (started, status) = run(command, input: PlymouthSession.cString(password), previous: 127)
                if started && exited(status) && exitStatus(status) == 0 { return requestExit(0) }
            }
            askPassword(&r)
        case .reply: askPassword(&r)  // NO_ANSWER: nothing cached
        }
    }

    private func askPassword(_ r: inout PlymouthPasswordRequest) {
        while true {
            let answer: [UInt8]?
            switch ask(UInt8(ascii: "*"), r.prompt) {
            case .reply(.nak), .reply(.unknown), .failed: return passwordFailure(&r)
            case .reply(.answer(let bytes)): answer = PlymouthSession.cString(bytes)
            case .reply(.ack): answer = []  // no answer was asked for; the real client reads garbage
            case .reply(.noAnswer), .reply(.multipleAnswers): answer = nil
            }
            var status: Int32 = 127
            if let answer, answer.first != PlymouthWire.cancelled[0] {
                if let command = r.command {
                    let started: Bool
                    (started, status) = run(command, input: answer, previous: status)
                    if started && (!exited(status) || exitStatus(status) != 0) {
                        r.triesLeft -= 1
                        if r.triesLeft > 0 { continue }  // asks again on the same connection
                    }
                } else {
                    PlymouthSession.writeOutput(answer)
                    status = 0
                }
            } else if answer == nil {
                passwordFailure(&r)
            }
            if let signal = signalled(status) { SignalPipe.die(of: signal) }
            guard r.pause else { return requestExit(exitStatus(status)) }
            switch ask(UInt8(ascii: "a")) {
            case .reply(.nak), .reply(.unknown), .failed: requestExit(1)
            case .reply: requestExit(exitStatus(status) != 0 ? 1 : 0)
            }
            return
        }
    }

    /// on_password_answer_failure: no daemon to ask, so CMD prompts on its own.
    private func passwordFailure(_ r: inout PlymouthPasswordRequest) {
        guard let command = r.command else { return requestExit(1) }
        var status: Int32 = 127, started = false
        while r.triesLeft > 0 {
            (started, status) = run(command, input: nil, previous: status)
            if started && exited(status) && exitStatus(status) == 0 { break }
            r.triesLeft -= 1
        }
        if started, let signal = signalled(status) { SignalPipe.die(of: signal) }
        requestExit(exitStatus(status))
    }

    func askQuestion(command: String?, prompt: [UInt8]?, pause: Bool) -> Never {
        if pause {
            if ask(UInt8(ascii: "A")) != .reply(.ack) { requestExit(1); finish() }
        }
        let answer: [UInt8]?
        switch ask(UInt8(ascii: "W"), prompt) {
        case .reply(.nak), .reply(.unknown), .failed: requestExit(1); finish()
        case .reply(.answer(let bytes)): answer = PlymouthSession.cString(bytes)
        case .reply(.ack): answer = []
        case .reply(.noAnswer), .reply(.multipleAnswers): answer = nil
        }
        if let answer {
            if let command { _ = run(command, input: answer, previous: 127) } else { PlymouthSession.writeOutput(answer) }
        }
        guard pause else { requestExit(answer == nil ? 1 : 0); finish() }
        switch ask(UInt8(ascii: "a")) {
        case .reply(.nak), .reply(.unknown), .failed: requestExit(1)
        case .reply: requestExit(answer == nil ? 1 : 0)
        }
        finish()
    }

    func watchKeystroke(keys: [UInt8]?, command: String?) -> Never {
        switch ask(UInt8(ascii: "K"), keys) {
        case .reply(.nak), .reply(.unknown), .failed, .reply(.noAnswer), .reply(.multipleAnswers): requestExit(1)
        case .reply(let reply):
            let answer = if case .answer(let bytes) = reply { PlymouthSession.cString(bytes) } else { [UInt8]() }
            if let command { _ = run(command, input: answer, previous: 127) } else { PlymouthSession.writeOutput(answer) }
            requestExit(0)
        }
        finish()
    }

    // MARK: CMD and wait statuses

    /// answer_via_command: CMD split on spaces, `input` on its standard input (nil: ours).
    /// `started` is false when it could not be run or did not take the whole answer; the status
    /// is then `previous` unless it ran.
    private func run(_ command: String, input: [UInt8]?, previous: Int32) -> (started: Bool, status: Int32) {
        guard let result = try? ChildProcess.run(Self.words(command), input: input) else { return (false, previous) }
        let status: Int32 = switch result.termination {
        case .exited(let code): (code & 0xff) << 8
        case .signaled(let signal): signal & 0x7f
        }
        return (result.delivered, status)
    }

    /// The command's words: split at spaces, runs of spaces counting as one (split_string).
    static func words(_ command: String) -> [String] {
        var words: [String] = []
        var current: [UInt8] = []
        var bytes = command.utf8[...]
        while let b = bytes.popFirst() {
            guard b == UInt8(ascii: " ") else { current.append(b); continue }
            words.append(String(decoding: current, as: UTF8.self))
            current = []
            while bytes.first == UInt8(ascii: " ") { bytes.removeFirst() }
        }
        if !current.isEmpty || words.isEmpty { words.append(String(decoding: current, as: UTF8.self)) }
        return words
    }

    private func exited(_ status: Int32) -> Bool { status & 0x7f == 0 }
    private func exitStatus(_ status: Int32) -> Int32 { (status >> 8) & 0xff }
    private func signalled(_ status: Int32) -> Int32? {
        let s = status & 0x7f
        return s != 0 && s != 0x7f ? s : nil
    }
}
