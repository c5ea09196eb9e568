// SPDX-License-Identifier: MIT
// Timed scripts for `splashhud render`: one `@SECONDS command…` per line, times never decreasing.

/// One command of a script, with when it runs and where it was written.
public struct TimedCommand: Equatable, Sendable {
    /// When the command runs, from the script's start.
    public var time: Instant
    public var command: HUDCommand
    /// 1-based line number in the script.
    public var line: Int

    public init(time: Instant, command: HUDCommand, line: Int) {
        self.time = time
        self.command = command
        self.line = line
    }
}

extension CommandParser {
    /// The commands of a script.
    ///
    /// Each line is blank, a comment (`#` first), or `@SECONDS COMMAND…`: a non-negative decimal
    /// time (read exactly to the nanosecond, at most 1000000) then one command of the language,
    /// e.g. `@0 show "Loading"`, `@1.2 progress 0.5 "Copying"`. Several lines may share a time
    /// (they run in order); a time earlier than the previous line's is an error. Lines end with
    /// "\n" or "\r\n". Errors carry the 1-based line number.
    public static func parseScript(_ text: String) throws(CommandError) -> [TimedCommand] {
        var commands: [TimedCommand] = []
        var previous: (time: Instant, word: String)?
        for (index, line) in text.unicodeScalars.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let number = index + 1
            do throws(CommandError) {
                // Through Substring's view: String.UnicodeScalarView(line) appended the slice by
                // an unspecialized map, 140 k instructions of run-time type lookups at start-up.
                guard let (timed, word) = try timedCommand(String(Substring(line)), line: number)
                else { continue }
                if let previous, timed.time < previous.time {
                    throw CommandError(.timeGoesBackwards(word.text, previous: previous.word), column: word.column)
                }
                previous = (timed.time, word.text)
                commands.append(timed)
            } catch {
                var located = error
                located.line = number
                throw located
            }
        }
        return commands
    }

    /// A script given as UTF-8 bytes; invalid UTF-8 is reported with its line and its byte offset
    /// within that line.
    public static func parseScript(bytes: [UInt8]) throws(CommandError) -> [TimedCommand] {
        var lineStart = 0
        var number = 1
        for (i, byte) in bytes.enumerated() where byte == 0x0A || i == bytes.count - 1 {
            let end = byte == 0x0A ? i : i + 1
            do throws(CommandError) {
                _ = try CommandLexer.decode(Array(bytes[lineStart..<end]))
            } catch {
                var located = error
                located.line = number
                throw located
            }
            lineStart = i + 1
            number += 1
        }
        return try parseScript(String(decoding: bytes, as: UTF8.self))
    }

    /// One script line and its `@SECONDS` word: nil when blank or a comment.
    static func timedCommand(_ line: String, line number: Int) throws(CommandError) -> (TimedCommand, CommandWord)? {
        guard let words = try CommandLexer.words(line) else { return nil }
        let first = words[0]
        guard !first.quoted, first.text.hasPrefix("@") else {
            throw CommandError(.missingTime(word: first.text), column: first.column)
        }
        guard let ns = nanoseconds(String(first.text.dropFirst())) else {
            throw CommandError(.badTime(first.text), column: first.column)
        }
        guard words.count > 1 else { throw CommandError(.missingCommand(time: first.text), column: first.column) }
        return (TimedCommand(time: Instant(nanoseconds: ns), command: try command(words[1...]), line: number), first)
    }
}
