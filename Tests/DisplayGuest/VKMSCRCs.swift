// SPDX-License-Identifier: MIT
// vkms's per-vblank CRCs (debugfs dri/N/crtc-0/crc), the guest's eyes where QEMU has no screen to
// dump: each vblank's entry is a checksum of the picture vkms composed (scripts/qemu/vkmscrc.c reads
// them the same way; VKMSEndToEndTests.vkmsCRC computes one on the host). Every entry read is kept,
// so a frame shown half drawn, even for one vblank, would leave a CRC no whole frame has.
#if canImport(Glibc)
import Glibc
#endif
import VMGuestSupport

final class VKMSCRCs {
    private let fd: Int32
    /// Every CRC read so far, with how many vblanks showed it.
    private(set) var seen: [UInt32: Int] = [:]
    /// Vblank count and CRC of the newest entry read.
    private(set) var newest: (frame: UInt32, crc: UInt32)?

    /// Starts capturing on DRM card `card`'s first CRTC (its mode is set: fbcon's).
    init(card: Int) throws {
        let dir = "/sys/kernel/debug/dri/\(card)/crtc-0/crc"
        let control = open("\(dir)/control", O_WRONLY | O_CLOEXEC)
        guard control >= 0, write(control, "auto", 4) == 4 else { throw GuestError("\(dir)/control: \(String(cString: strerror(errno)))") }
        close(control)
        var fd: Int32 = -1
        for _ in 0..<2000 {  // EIO while the CRTC is off
            fd = open("\(dir)/data", O_RDONLY | O_NONBLOCK | O_CLOEXEC)
            if fd >= 0 || errno != EIO { break }
            usleep(10_000)
        }
        guard fd >= 0 else { throw GuestError("\(dir)/data: \(String(cString: strerror(errno)))") }
        self.fd = fd
    }

    deinit { close(fd) }

    /// Reads every queued entry ("0x%08x 0x%08x\n" and a NUL, one per read(2)); returns how many.
    /// The kernel queues 128 and drops newer ones when full, so read before that (2 s at 60 Hz).
    @discardableResult
    func drain() -> Int {
        var buffer = [UInt8](repeating: 0, count: 64)
        var count = 0
        while true {
            let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { return count }
            let words = String(decoding: buffer[0..<n].prefix { $0 != 0 }, as: UTF8.self).split(separator: " ")
            guard words.count == 2, let frame = UInt32(words[0].dropFirst(2), radix: 16),
                let crc = UInt32(words[1].dropFirst(2).prefix { $0 != "\n" }, radix: 16)
            else { continue }
            seen[crc, default: 0] += 1
            newest = (frame, crc)
            count += 1
        }
    }

    /// What the screen settled on: the CRC of the newest entry once `vblanks` more have come
    /// (at most 3 s), nil if none came.
    func settled(vblanks: Int = 3) -> UInt32? {
        drain()
        var got = 0
        for _ in 0..<300 where got < vblanks {
            usleep(10_000)
            got += drain()
        }
        return got > 0 ? newest?.crc : nil
    }

    /// The CRCs seen, as "crc:count" words in hex, most shown first.
    var seenSummary: String {
        seen.sorted { $0.value > $1.value }.map { String($0.key, radix: 16) + ":\($0.value)" }.joined(separator: " ")
    }
}
