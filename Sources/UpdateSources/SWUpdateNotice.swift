// SPDX-License-Identifier: MIT
// SWUpdate's status messages, from its control socket (network_ipc.h): a client that sends an
// `ipc_message` of type NOTIFY_STREAM gets an ACK, the messages SWUpdate still holds (its last
// hundred), then every new one. A failed install's reason is only there: 2022.12's FAILURE frame
// on the progress socket has an empty `info`; `swupdate-client` prints these messages.
// `ipc_message` is `{int magic; int type; msgdata data}`; the union's largest member holds a
// `size_t`, so the message is 3120 bytes where it is 8 bytes (LP64) and 3104 where it is 4
// (unchanged from 2020 to 2026.05).

public struct SWUpdateNotice: Equatable, Sendable {
    /// SWUpdate's `RECOVERY_STATUS` when the message was sent (`ERROR()` sends FAILURE).
    public var status: UInt32
    public var error: Int32
    /// `LOGLEVEL`: 1 error, 2 warning, 3 info, 4 trace, 5 debug.
    public var level: Int32
    public var text: String

    public init(status: UInt32, error: Int32 = 0, level: Int32, text: String) {
        self.status = status; self.error = error; self.level = level; self.text = text
    }

    static let magic: UInt32 = 0x1405_2001
    // msgtype: REQ_INSTALL 0, ACK 1, NACK 2, … REQ_INSTALL_EXT 9, SET_VERSIONS_RANGE 10, NOTIFY_STREAM 11.
    static let typeACK: UInt32 = 1, typeNotifyStream: UInt32 = 11
    static let errorLevel: Int32 = 1
    static let textSize = 2048

    /// `sizeof(ipc_message)` for SWUpdate built for this machine.
    public static var messageSize: Int { MemoryLayout<Int>.size == 8 ? 3120 : 3104 }

    /// The NOTIFY_STREAM request.
    public static func subscribeRequest(byteOrder: SWUpdateByteOrder = .host, size: Int = messageSize) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: size)
        byteOrder.store(magic, at: 0, in: &out); byteOrder.store(typeNotifyStream, at: 4, in: &out)
        return out
    }

    /// One message from the control socket: nil for the ACK, the notice for a NOTIFY_STREAM one.
    public static func decode(_ bytes: ArraySlice<UInt8>, byteOrder: SWUpdateByteOrder = .host) throws(SWUpdateFrameError) -> SWUpdateNotice? {
        let base = bytes.startIndex
        func u32(_ offset: Int) -> UInt32 { byteOrder.load(bytes, at: offset) }
        guard bytes.count >= 20 + textSize else { throw .size(bytes.count, expected: messageSize) }
        guard u32(0) == magic else { throw .field("magic", u32(0)) }
        switch u32(4) {
        case typeACK: return nil
        case typeNotifyStream:
            let text = bytes[(base + 20)..<(base + 20 + textSize)]
            guard let end = text.firstIndex(of: 0) else { throw .unterminated("notify.msg") }
            return SWUpdateNotice(status: u32(8), error: Int32(bitPattern: u32(12)), level: Int32(bitPattern: u32(16)),
                                  text: String(decoding: text[..<end], as: UTF8.self))
        case let other: throw .field("type", other)
        }
    }

    /// A NOTIFY_STREAM message carrying this notice (tests).
    public func encoded(byteOrder: SWUpdateByteOrder = .host, size: Int = SWUpdateNotice.messageSize) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: size)
        byteOrder.store(Self.magic, at: 0, in: &out); byteOrder.store(Self.typeNotifyStream, at: 4, in: &out)
        byteOrder.store(status, at: 8, in: &out); byteOrder.store(UInt32(bitPattern: error), at: 12, in: &out)
        byteOrder.store(UInt32(bitPattern: level), at: 16, in: &out)
        for (i, b) in text.utf8.prefix(Self.textSize - 1).enumerated() { out[20 + i] = b }
        return out
    }

    /// The reason for the last install's failure in SWUpdate's messages: its error messages since
    /// the last install started (all of them if the start has scrolled out), the last three, each
    /// without the "ERROR : " its notifier puts before them and cut to `lineLimit` bytes; nil when
    /// there is none.
    public static func failureReason(_ notices: [SWUpdateNotice], lineLimit: Int = 160) -> String? {
        let startStatus = SWUpdateStatus.start.rawValue
        let since = notices.lastIndex { $0.status == startStatus }.map { notices.index(after: $0) } ?? notices.startIndex
        let errors = notices[since...].filter { $0.level == errorLevel }
            .map { $0.text.trimmingSpaces }.map { $0.hasPrefix("ERROR : ") ? String($0.dropFirst(8)) : $0 }.filter { !$0.isEmpty }
        return FailureReason.bounded(errors, lineLimit: lineLimit)
    }
}
