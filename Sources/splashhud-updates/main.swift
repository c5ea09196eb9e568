// SPDX-License-Identifier: MIT
// `splashhud-updates`: an update framework's progress on the splash (docs/updates.md). Beside the
// daemon, never in it: the daemon links nothing of the frameworks.
import UpdatesCommand

UpdatesCommand.main()
