// SPDX-License-Identifier: MIT
// What the frame scheduler draws: a picture per output that says, for each frame, what changed,
// whether it animates and when it changes next. Runtime's `HUDScene` is the real one; tests draw
// their own.
import Display
import Raster

/// What one rendered frame of a `PacedScene` says about itself.
public struct PacedFrame: Equatable, Sendable {
    /// Per output (indices of `display.outputs`), the rects of its frame that changed since its
    /// last frame; an empty list means nothing to present on that output.
    public var outputDamage: [[IntRect]]
    /// Whether the next refresh will look different (a spinner, a fade): the scheduler keeps drawing
    /// every frame interval while true.
    public var animating: Bool
    /// When static, the CLOCK_MONOTONIC instant (ns) of the next scheduled change (an auto-dismiss
    /// timer); nil when nothing is scheduled. Ignored while animating.
    public var nextChange: Int64?

    public init(outputDamage: [[IntRect]], animating: Bool, nextChange: Int64? = nil) {
        self.outputDamage = outputDamage; self.animating = animating; self.nextChange = nextChange
    }

    /// A frame of a single-output scene.
    public init(damage: [IntRect], animating: Bool, nextChange: Int64? = nil) {
        self.init(outputDamage: [damage], animating: animating, nextChange: nextChange)
    }

    /// The first output's damage (single-output scenes).
    public var damage: [IntRect] {
        get { outputDamage.first ?? [] }
        set { if outputDamage.isEmpty { outputDamage = [newValue] } else { outputDamage[0] = newValue } }
    }
}

/// A picture the frame scheduler draws on every output (Runtime's `HUDScene`, or a test's).
public protocol PacedScene: AnyObject {
    /// Brings the picture to `nanoseconds` (CLOCK_MONOTONIC) and says what changed on each output.
    func frame(at nanoseconds: Int64) -> PacedFrame
    /// The complete current picture of output `index`, that output's frame size.
    func pixels(output index: Int) -> ComposedFrame
    /// The display's outputs changed (hotplug): lay out for `outputs` (keep the frames of outputs
    /// that stayed, by name) and report a new output's whole frame as damage at the next `frame`.
    func outputsChanged(_ outputs: [DisplayOutput])
    /// Animation frames now come `nanoseconds` apart (the display's refresh interval, or a frame
    /// rate cap's), each drawn for its boundary on that grid. Told before the first frame and on
    /// every change.
    func animationIntervalChanged(_ nanoseconds: Int64)
}

extension PacedScene {
    public func outputsChanged(_ outputs: [DisplayOutput]) {}
    public func animationIntervalChanged(_ nanoseconds: Int64) {}
}
