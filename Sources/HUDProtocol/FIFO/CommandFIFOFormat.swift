// SPDX-License-Identifier: MIT
/// What the splash's command FIFOs carry, for the reader (Runtime's CommandFIFO) and the sender
/// (HUDClient's CommandFIFOSender): lines of at most `lineLimit` bytes, each ended by "\n", so
/// one line fits one atomic pipe write (PIPE_BUF is 4096 on Linux).
public enum CommandFIFOFormat {
    public static let lineLimit = 4095
    /// A FIFO path for `splashhudd --fifo` and `splashhud send --fifo` (psplash uses
    /// /run/psplash_fifo: /run is a tmpfs, so a read-only root does not matter).
    public static let defaultPath = "/run/splashhud.fifo"
}
