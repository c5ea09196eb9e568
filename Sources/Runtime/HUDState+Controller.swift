// SPDX-License-Identifier: MIT
// What the HUD is doing, for `state`, `wait` and the Swift API's `isVisible`.
import Display
import HUD
import HUDProtocol

extension HUDState {
    /// What `controller` shows now, on `outputs`.
    init(_ controller: HUDController, outputs: [DisplayOutput]) {
        let p = controller.presentation()
        var mode: String
        var progress: Double?
        switch p.indicator {
        case .none: mode = "text"
        case .spinner: mode = "spinner"
        case .activity: mode = "activity"
        case .ring(let f): mode = "ring"; progress = f.double
        case .pie(let f): mode = "pie"; progress = f.double
        case .annular(let f): mode = "annular"; progress = f.double
        case .bar(let f): mode = "bar"; progress = f.double
        case .image: mode = "image"
        }
        if p.entry != nil { mode = "prompt" }  // a prompt's text is its status; what is typed is never here
        let outputs = outputs.map { HUDState.Output(name: $0.name, width: $0.frameWidth, height: $0.frameHeight) }
        // Hidden only once nothing is left on screen; an appearing HUD (alpha still 0) is not.
        let hidden = !controller.isVisible && p.isHidden
        self.init(visible: controller.isVisible || p.entry != nil, mode: hidden ? "hidden" : mode,
                  progress: hidden ? nil : progress.map { min(max($0, 0), 1) }, status: hidden ? nil : p.status,
                  outputs: outputs)
    }
}
