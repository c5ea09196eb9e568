// A profile's `connectors = DSI-1, HDMI-A-1` applied on the runtime's side: a Display that shows
// only the named outputs of another, in the order the display lists them, re-filtered after every
// hotplug. (DRMDisplayOptions has no connector selection yet; once it has, the DRM backend gets
// it there and this wrapper is only needed for displays without one.)
import Display
import Raster

public final class SelectedOutputsDisplay: Display {
    public let base: any Display
    /// The connector names allowed, e.g. ["DSI-1"].
    public let names: [String]
    public private(set) var outputs: [DisplayOutput] = []
    /// outputs[i] is base.outputs[route[i]].
    private var route: [Int] = []

    public init(base: any Display, names: [String]) {
        self.base = base; self.names = names
        select()
    }

    private func select() {
        route = base.outputs.indices.filter { names.contains(base.outputs[$0].name) }
        outputs = route.map { base.outputs[$0] }
    }

    public var hotplugDescriptor: Int32? { base.hotplugDescriptor }

    public func refreshOutputs() throws(DisplayError) -> Bool {
        let before = outputs
        _ = try base.refreshOutputs()
        select()
        return outputs != before
    }

    public var frameIntervalNanoseconds: Int64 { outputs.first?.mode.frameIntervalNanoseconds ?? base.frameIntervalNanoseconds }

    /// Presents `frame` on every selected output.
    public func present(_ frame: PixmapView, damage: [IntRect]) throws(DisplayError) -> PresentTiming {
        var timing = PresentTiming.timer
        for i in route.indices { timing = try present(frame, damage: damage, output: i) }
        return timing
    }

    public func present(_ frame: PixmapView, damage: [IntRect], output index: Int) throws(DisplayError) -> PresentTiming {
        try base.present(frame, damage: damage, output: route[index])
    }

    public func close(_ how: CloseBehaviour) { base.close(how) }
}
