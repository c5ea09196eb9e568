// SPDX-License-Identifier: MIT
// The bound on commands a broker may make the bridge run: a token bucket (`burst` at once, then
// `perSecond`), on the bridge's clock. What it refuses is answered `error busy` while the outbox
// has room and dropped after that, so a flood costs a fixed amount of memory.
import HUDProtocol

struct RateLimit: Sendable {
    let perSecond: Int64
    let burst: Int64
    /// Tokens in thousandths, so the refill is exact in integers.
    private var milliTokens: Int64
    private var last: Instant

    init(perSecond: Int64, burst: Int64, now: Instant) {
        precondition(perSecond > 0 && burst > 0)
        self.perSecond = perSecond; self.burst = burst
        milliTokens = burst * 1000
        last = now
    }

    /// Takes one token at `now`; false when none is left.
    mutating func admit(at now: Instant) -> Bool {
        let elapsed = max(0, (now - last).nanoseconds)
        last = now
        // perSecond tokens per 1e9 ns, in thousandths: elapsed * perSecond / 1e6.
        let refill = elapsed.multipliedReportingOverflow(by: perSecond).overflow ? Int64.max : elapsed * perSecond / 1_000_000
        milliTokens = min(burst * 1000, milliTokens.addingReportingOverflow(refill).overflow ? .max : milliTokens + refill)
        guard milliTokens >= 1000 else { return false }
        milliTokens -= 1000
        return true
    }
}
