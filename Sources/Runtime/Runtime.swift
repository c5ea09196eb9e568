// The runtime layer: ties the HUD to a Display (scenes per output, frame pacer, console, profiles).
// Filled in by the runtime work of issue 4; this file only gives the module its first source.
import Logging

/// The runtime's logger label.
public let runtimeLoggerLabel = "splashhud.runtime"
