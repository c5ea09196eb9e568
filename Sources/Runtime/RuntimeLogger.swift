// SPDX-License-Identifier: MIT
// The runtime's logger label: the default `Logger` of HUDRuntime and DisplayOpener, so their lines
// can be told apart from the CLI's and filtered by label.
import Board
import Logging

/// The runtime's logger label.
public let runtimeLoggerLabel = "splashhud.runtime"
