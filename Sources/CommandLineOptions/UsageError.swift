// SPDX-License-Identifier: MIT
/// A command line that cannot be run as written: exit status 64 (EX_USAGE), with the message and
/// a pointer to --help.
public struct UsageError: Error, Equatable, CustomStringConvertible, Sendable {
    public let message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }

    /// sysexits.h's EX_USAGE.
    public static let exitStatus: Int32 = 64
}
