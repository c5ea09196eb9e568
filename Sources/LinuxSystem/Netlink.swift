// SPDX-License-Identifier: MIT
// The kernel's uevent socket (NETLINK_KOBJECT_UEVENT, multicast group 1): every device added,
// removed or changed, as udevd receives them, without libudev.
import SystemPackage

public enum UEventSocket {
    /// A non-blocking, close-on-exec datagram socket bound to the kernel's uevent group. The
    /// receive buffer is raised to 1 MiB where allowed: a card coming up sends a burst.
    public static func open() throws(SystemError) -> FileDescriptor {
        let netlinkKobjectUevent: CInt = 15  // <linux/netlink.h>
        let s = try retrying { system_socket(system_AF_NETLINK, system_SOCK_DGRAM, netlinkKobjectUevent) }.get("socket", "NETLINK_KOBJECT_UEVENT")
        system_setReceiveBuffer(s, 1 << 20)
        if case .failure(let e) = retrying({ system_bind_netlink(s, groups: 1) }) {
            _ = system_close(s)
            throw SystemError("bind", e, "NETLINK_KOBJECT_UEVENT group 1")
        }
        return FileDescriptor(rawValue: s)
    }

    /// One datagram: the byte count and the sender's netlink port (0: the kernel); nil when
    /// nothing is pending. ENOBUFS means the socket overflowed and events were lost.
    public static func receive(_ fd: FileDescriptor, into buffer: inout [UInt8]) throws(SystemError) -> (count: Int, senderPort: UInt32)? {
        var port: UInt32 = 0
        let r = buffer.withUnsafeMutableBytes { b in retrying { system_recvfrom_netlink(fd.rawValue, b, &port) } }
        switch r {
        case .success(let n): return (n, port)
        case .failure(.resourceTemporarilyUnavailable): return nil
        case .failure(let e): throw SystemError("recvfrom", e, "NETLINK_KOBJECT_UEVENT")
        }
    }
}
