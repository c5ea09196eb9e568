// SPDX-License-Identifier: MIT
// How often animation frames come: the display's refresh (or a profile's override), thinned by a
// frame rate cap to every k-th refresh, k = ceil(refresh rate / cap); and where a profile sets them.
import Board
import Display
import HUDProtocol

extension FrameScheduler {
    /// The profile's pacing and refresh override, and its `[hud] max-fps` (the last one written).
    func configure(profile: BoardProfile?, settings: [HUDSetting]) {
        for case .maxFramesPerSecond(let n) in settings { maxFramesPerSecond = n }
        guard let profile else { return }
        pacing = profile.pacing
        if let mHz = profile.refreshMillihertz {
            frameIntervalOverride = DisplayMode(width: 1, height: 1, refreshMillihertz: mHz).frameIntervalNanoseconds
        }
    }

    /// The refresh interval: the display's (or the profile's override).
    public var frameIntervalNanoseconds: Int64 { max(frameIntervalOverride ?? display.frameIntervalNanoseconds, 1) }

    /// Refreshes per animation frame under the cap: ceil(refresh rate / cap), 1 without a cap.
    public var refreshesPerFrame: Int64 {
        guard let cap = maxFramesPerSecond else { return 1 }
        let refresh = frameIntervalNanoseconds
        let millihertz = (1_000_000_000_000 + refresh / 2) / refresh
        let capMillihertz = Int64(cap) * 1000
        return max(1, (millihertz + capMillihertz - 1) / capMillihertz)
    }

    /// The interval animation frames are paced at: a whole number of refreshes.
    public var animationIntervalNanoseconds: Int64 { frameIntervalNanoseconds * refreshesPerFrame }

    /// Animation frames a second while the cap lowers them (rounded); nil when every refresh is used.
    public var cappedFramesPerSecond: Int32? {
        if refreshesPerFrame == 1 { return nil }
        let interval = animationIntervalNanoseconds
        return Int32(clamping: max(1, (1_000_000_000 + interval / 2) / interval))
    }
}
