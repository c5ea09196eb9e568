// What can go wrong when the runtime starts: a board profile's `[hud]` line the command language
// refuses, or a display that cannot be set up. Each message names what went wrong and where.
import Display
import HUDProtocol

public enum RuntimeError: Error, Equatable, CustomStringConvertible {
    /// A `[hud]` entry of a profile (`file:line`, `key`) that CommandParser refused with `message`,
    /// or that is not a `set` setting.
    case badHUDSetting(file: String, line: Int, key: String, message: String)
    /// The HUD's fonts could not be loaded.
    case resources(String)
    /// The display failed while starting the HUD on it.
    case display(DisplayError)

    public var description: String {
        switch self {
        case .badHUDSetting(let file, let line, let key, let message): return "\(file):\(line): \(key): \(message)"
        case .resources(let reason): return "HUD resources: \(reason)"
        case .display(let e): return "\(e)"
        }
    }
}
