// SPDX-License-Identifier: MIT
// What a display noticed and worked around (a card skipped, a connector dropped, a flip event that
// never came), for the log and `splashhud probe`. Hotplug and recoveries happen as long as the
// splash runs, so only the most recent lines are kept: the log cannot grow without bound.

/// The most recent `capacity` diagnostic lines, oldest first, and how many were ever added.
public struct DiagnosticLog: RandomAccessCollection, Equatable, Sendable, ExpressibleByArrayLiteral {
    public static let defaultCapacity = 64

    public let capacity: Int
    private var lines: [String] = []
    /// Lines added since the log was made, including those dropped since.
    public private(set) var total = 0

    public init(capacity: Int = DiagnosticLog.defaultCapacity) { self.capacity = Swift.max(capacity, 1) }

    public init(arrayLiteral elements: String...) {
        self.init()
        append(contentsOf: elements)
    }

    public mutating func append(_ line: String) {
        lines.append(line)
        total += 1
        if lines.count > capacity { lines.removeFirst(lines.count - capacity) }
    }

    public mutating func append<S: Sequence>(contentsOf more: S) where S.Element == String {
        for line in more { append(line) }
    }

    public static func += <S: Sequence>(log: inout DiagnosticLog, more: S) where S.Element == String {
        log.append(contentsOf: more)
    }

    /// The lines added after the log held `total` lines in all (those still kept).
    public func added(since total: Int) -> ArraySlice<String> {
        lines.suffix(Swift.max(0, Swift.min(self.total - total, lines.count)))
    }

    public var startIndex: Int { lines.startIndex }
    public var endIndex: Int { lines.endIndex }
    public subscript(position: Int) -> String { lines[position] }
}
