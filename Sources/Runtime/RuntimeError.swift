// SPDX-License-Identifier: MIT
// What can go wrong when the runtime starts: a board profile's `[hud]` line the command language
// refuses, or a display that cannot be set up. Each message names what went wrong and where.
import Board
import Display

public enum RuntimeError: Error, Equatable, CustomStringConvertible {
    /// A profile entry the runtime could not apply (a `[hud]` line the command language refuses).
    case profile(BoardProfileError)
    /// The display failed while starting the HUD on it.
    case display(DisplayError)
    /// The event loop could not watch what the runtime needs (the display's hotplug events).
    case loop(String)

    public var description: String {
        switch self {
        case .profile(let e): return "\(e)"
        case .display(let e): return "\(e)"
        case .loop(let reason): return "event loop: \(reason)"
        }
    }
}
