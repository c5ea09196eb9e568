// SPDX-License-Identifier: MIT
// The way every request takes to the HUD: queued from the loop's own transports (`enqueue`, on the
// loop's thread) or from any thread (`post`, through the inbox), then taken at the loop's next turn
// all together and in order, progress values a later one in the same turn replaces answered
// without being applied (RequestCoalescing), input messages in their place among them. Whoever
// asked hears what became of its request.
import HUDProtocol
import Input

/// What the pipeline hands each turn's requests to (the runtime).
protocol RequestTarget: AnyObject {
    /// True once the HUD has quit: what is still queued is refused.
    var isFinished: Bool { get }
    func apply(_ request: Request) -> RequestOutcome
    func handle(_ message: InputMessage)
}

final class RequestPipeline {
    /// Requests from any thread, applied in order at the loop's next turn.
    let inbox: MessageQueue<Submission>
    private let waker: any LoopWaker
    /// Progress values dropped because a later one in the same turn replaced them.
    private(set) var coalesced = 0
    /// The origin of the request being applied, for the refusal's log line.
    private(set) var applyingOrigin: String?

    /// A request from the loop's own transports, with a completion that stays on the loop's thread.
    /// (Structs rather than tuples here: the runtime builds an array-of-tuple type on first use,
    /// 62 k instructions for this one before the first frame, five times a struct's.)
    private struct LocalRequest {
        var request: Request
        /// Who sent it, for the log ("uid 0 on the control socket"); nil: this process.
        var origin: String?
        var completion: ((RequestOutcome) -> Void)?
    }
    /// Input from a loop's device, in order with `local`: it goes before the request queued at
    /// index `before`.
    private struct LocalInput {
        var before: Int
        var message: InputMessage
    }
    private var local: [LocalRequest] = []
    private var localInput: [LocalInput] = []

    init(inbox: MessageQueue<Submission>, waker: any LoopWaker) {
        self.inbox = inbox; self.waker = waker
    }

    /// Queues `request` for the loop's next turn from any thread.
    func post(_ submission: Submission) { inbox.post(submission) }

    /// Queues `request` from the loop's own thread for this turn, in order with everything else.
    func enqueue(_ request: Request, from origin: String?, completion: ((RequestOutcome) -> Void)?) {
        if local.isEmpty { waker.wake() }  // when called outside a turn's callbacks
        local.append(LocalRequest(request: request, origin: origin, completion: completion))
    }

    /// Queues an input message for this turn, in order with the requests queued so far.
    func enqueue(_ input: InputMessage) {
        if local.isEmpty && localInput.isEmpty { waker.wake() }
        localInput.append(LocalInput(before: local.count, message: input))
    }

    /// The turn's requests, handed to `target`: every queued one in order, progress values a later
    /// one replaces answered without being applied; input messages in their place among them.
    func runTurn(_ target: some RequestTarget) {
        // Nearly every turn: nothing queued (the inbox says so without its lock).
        guard !local.isEmpty || !localInput.isEmpty || !inbox.isEmpty else { return }
        var batch = local
        local = []
        var inputs = localInput[...]
        localInput = []
        for s in inbox.takeAll() { batch.append(LocalRequest(request: s.request, completion: s.completion.map { c in { c($0) } })) }
        guard !batch.isEmpty || !inputs.isEmpty else { return }
        let skip = RequestCoalescing.superseded(batch.map { $0.request })
        for (i, entry) in batch.enumerated() {
            while let next = inputs.first, next.before <= i {
                target.handle(next.message)
                inputs = inputs.dropFirst()
            }
            if target.isFinished {
                entry.completion?(.refused("the HUD has quit"))
            } else if skip[i] {
                coalesced += 1
                entry.completion?(.applied)
            } else {
                applyingOrigin = entry.origin
                let outcome = target.apply(entry.request)
                applyingOrigin = nil
                entry.completion?(outcome)
            }
        }
        for next in inputs { target.handle(next.message) }
    }
}
