// SPDX-License-Identifier: MIT
// What the frame scheduler draws: a picture per output that says, for each frame, what changed,
// whether it animates and when it changes next. Runtime's `HUDScene` is the real one; tests draw
// their own.
import Display
import Raster

/// What one rendered frame of a `PacedScene` says about itself.
public struct PacedFrame: Equatable, Sendable {
    /// One output's part of a frame: the rects of its picture that changed since its last frame.
    public struct Output: Equatable, Sendable {
        /// The output's name (`DisplayOutput.name`): the scheduler presents it on the display's
        /// output of that name, wherever that is in the display's list.
        public var name: String
        /// Empty: nothing to present on that output.
        public var damage: [IntRect]

        public init(name: String, damage: [IntRect]) { self.name = name; self.damage = damage }
    }

    /// Per output the scene draws, what changed.
    public var outputs: [Output]
    /// Whether the next refresh will look different (a spinner, a fade): the scheduler keeps drawing
    /// every frame interval while true.
    public var animating: Bool
    /// When static, the CLOCK_MONOTONIC instant (ns) of the next scheduled change (an auto-dismiss
    /// timer); nil when nothing is scheduled. Ignored while animating.
    public var nextChange: Int64?

    public init(outputs: [Output], animating: Bool, nextChange: Int64? = nil) {
        self.outputs = outputs; self.animating = animating; self.nextChange = nextChange
    }

    /// A frame of a scene with the one output `name`.
    public init(output name: String, damage: [IntRect], animating: Bool, nextChange: Int64? = nil) {
        self.init(outputs: [Output(name: name, damage: damage)], animating: animating, nextChange: nextChange)
    }

    /// The damage of the output called `name` (empty for an output the frame does not draw).
    public func damage(output name: String) -> [IntRect] { outputs.first { $0.name == name }?.damage ?? [] }

    /// A frame rendered ahead with a later render of the same picture drawn over it: both damages,
    /// matched by output name, and the later frame's animation state. An output only the earlier
    /// frame drew is gone from the scene; one only the later draws is new and drawn whole.
    public static func merged(_ earlier: PacedFrame, _ later: PacedFrame) -> PacedFrame {
        var frame = later
        for i in frame.outputs.indices {
            let name = frame.outputs[i].name
            if let e = earlier.outputs.first(where: { $0.name == name }) { frame.outputs[i].damage = e.damage + frame.outputs[i].damage }
        }
        return frame
    }
}

/// A picture the frame scheduler draws on every output (Runtime's `HUDScene`, or a test's).
public protocol PacedScene: AnyObject {
    /// Brings the picture to `nanoseconds` (CLOCK_MONOTONIC) and says what changed on each output.
    func frame(at nanoseconds: Int64) -> PacedFrame
    /// The complete current picture of the `index`-th output its frames name (`PacedFrame.outputs`
    /// of the last frame), that output's frame size.
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
