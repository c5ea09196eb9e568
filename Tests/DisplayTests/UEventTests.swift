// SPDX-License-Identifier: MIT
// The uevent parser and DRM classification on datagrams as the kernel sends them
// (lib/kobject_uevent.c: "ACTION@DEVPATH\0" then KEY=VALUE\0 fields, SEQNUM last).

import Testing

@testable import Display

@Suite("Kernel uevents")
struct UEventTests {
    static func bytes(_ s: String) -> ArraySlice<UInt8> { ArraySlice(Array(s.utf8)) }

    /// Captured on this machine (python3, NETLINK_KOBJECT_UEVENT group 1) after
    /// `echo change > /sys/class/mem/null/uevent`.
    static let capturedMemNull = bytes(
        "change@/devices/virtual/mem/null\0ACTION=change\0DEVPATH=/devices/virtual/mem/null\0SUBSYSTEM=mem\0SYNTH_UUID=0\0"
            + "MAJOR=1\0MINOR=3\0DEVNAME=null\0DEVMODE=0666\0SEQNUM=813\0")

    // Captured in the QEMU guest (Debian 6.1 kernel, a C program on NETLINK_KOBJECT_UEVENT group 1)
    // while the host hot-plugged a bochs-display (QMP device_add), card0's connector was forced off
    // (`echo change > /sys/class/drm/card0/uevent` after it), and the device was unplugged.
    static let cardAdd = bytes(
        "add@/devices/pci0000:00/0000:00:03.0/drm/card1\0ACTION=add\0DEVPATH=/devices/pci0000:00/0000:00:03.0/drm/card1\0"
            + "SUBSYSTEM=drm\0MAJOR=226\0MINOR=1\0DEVNAME=dri/card1\0DEVTYPE=drm_minor\0SEQNUM=658\0")
    static let connectorAdd = bytes(
        "add@/devices/pci0000:00/0000:00:03.0/drm/card1/card1-Virtual-2\0ACTION=add\0"
            + "DEVPATH=/devices/pci0000:00/0000:00:03.0/drm/card1/card1-Virtual-2\0SUBSYSTEM=drm\0DEVTYPE=drm_connector\0SEQNUM=659\0")
    static let hotplug = bytes(
        "change@/devices/pci0000:00/0000:00:03.0/drm/card1\0ACTION=change\0DEVPATH=/devices/pci0000:00/0000:00:03.0/drm/card1\0"
            + "SUBSYSTEM=drm\0HOTPLUG=1\0CONNECTOR=31\0MAJOR=226\0MINOR=1\0DEVNAME=dri/card1\0DEVTYPE=drm_minor\0SEQNUM=660\0")
    static let synthesizedChange = bytes(
        "change@/devices/pci0000:00/0000:00:02.0/drm/card0\0ACTION=change\0DEVPATH=/devices/pci0000:00/0000:00:02.0/drm/card0\0"
            + "SUBSYSTEM=drm\0SYNTH_UUID=0\0MAJOR=226\0MINOR=0\0DEVNAME=dri/card0\0DEVTYPE=drm_minor\0SEQNUM=663\0")
    static let connectorRemove = bytes(
        "remove@/devices/pci0000:00/0000:00:03.0/drm/card1/card1-Virtual-2\0ACTION=remove\0"
            + "DEVPATH=/devices/pci0000:00/0000:00:03.0/drm/card1/card1-Virtual-2\0SUBSYSTEM=drm\0DEVTYPE=drm_connector\0SEQNUM=665\0")
    static let cardRemove = bytes(
        "remove@/devices/pci0000:00/0000:00:03.0/drm/card1\0ACTION=remove\0DEVPATH=/devices/pci0000:00/0000:00:03.0/drm/card1\0"
            + "SUBSYSTEM=drm\0MAJOR=226\0MINOR=1\0DEVNAME=dri/card1\0DEVTYPE=drm_minor\0SEQNUM=666\0")

    @Test func parsesACapturedKernelMessage() throws {
        let e = try #require(try UEvent.parse(Self.capturedMemNull))
        #expect(e.action == "change")
        #expect(e.devpath == "/devices/virtual/mem/null")
        #expect(e.subsystem == "mem")
        #expect(e.devname == "null")
        #expect(e.properties["SEQNUM"] == "813")
        #expect(e.properties.count == 9)
        #expect(DRMHotplugEvent.classify(e) == nil)
    }

    @Test func drmConnectorHotplugNamesTheCardAndConnector() throws {
        let e = try #require(try UEvent.parse(Self.hotplug))
        #expect(e.isHotplug)
        #expect(e.connectorID == 31)
        #expect(e.devname == "dri/card1")
        #expect(DRMHotplugEvent.classify(e) == .connectorsChanged(path: "/dev/dri/card1", connector: 31))
        // A synthesized change (udevadm trigger, or written to .../uevent) has no HOTPLUG=1 but
        // still means "re-read the connectors".
        let synthetic = try #require(try UEvent.parse(Self.synthesizedChange))
        #expect(!synthetic.isHotplug)
        #expect(DRMHotplugEvent.classify(synthetic) == .connectorsChanged(path: "/dev/dri/card0", connector: nil))
    }

    @Test func theCapturedPlugAndUnplugSequence() throws {
        let events = try [Self.cardAdd, Self.connectorAdd, Self.hotplug, Self.connectorRemove, Self.cardRemove].map {
            try #require(try UEvent.parse($0))
        }
        #expect(events.map { DRMHotplugEvent.classify($0) } == [
            .cardAdded(path: "/dev/dri/card1"), .connectorsChanged(path: "/dev/dri/card1", connector: nil),
            .connectorsChanged(path: "/dev/dri/card1", connector: 31), .connectorsChanged(path: "/dev/dri/card1", connector: nil),
            .cardRemoved(path: "/dev/dri/card1"),
        ])
        #expect(events.map { $0.properties["SEQNUM"] } == ["658", "659", "660", "665", "666"])
    }

    @Test func connectorDevicesRenderNodesAndOtherSubsystems() throws {
        let connector = try #require(try UEvent.parse(Self.bytes(
            "add@/devices/pci0000:00/0000:00:04.0/virtio1/drm/card1/card1-Virtual-1\0ACTION=add\0"
                + "DEVPATH=/devices/pci0000:00/0000:00:04.0/virtio1/drm/card1/card1-Virtual-1\0SUBSYSTEM=drm\0SEQNUM=1703\0")))
        #expect(DRMHotplugEvent.classify(connector) == .connectorsChanged(path: "/dev/dri/card1", connector: nil))
        let render = try #require(try UEvent.parse(Self.bytes(
            "add@/devices/pci0000:00/0000:00:04.0/virtio1/drm/renderD128\0ACTION=add\0SUBSYSTEM=drm\0DEVNAME=dri/renderD128\0")))
        #expect(DRMHotplugEvent.classify(render) == nil)
        let graphics = try #require(try UEvent.parse(Self.bytes(
            "add@/devices/pci0000:00/0000:00:04.0/virtio1/drm/card1/graphics/fb1\0ACTION=add\0SUBSYSTEM=graphics\0")))
        #expect(DRMHotplugEvent.classify(graphics) == nil)
        let bind = try #require(try UEvent.parse(Self.bytes("bind@/devices/pci0000:00/0000:00:04.0/virtio1/drm/card1\0SUBSYSTEM=drm\0")))
        #expect(DRMHotplugEvent.classify(bind) == nil)
    }

    @Test func udevdsOwnFormatIsSkipped() throws {
        var b = Array("libudev\0".utf8)
        b += [0xFE, 0xED, 0xCA, 0xFE, 0x28, 0, 0, 0] + Array("ACTION=add\0".utf8)
        #expect(try UEvent.parse(ArraySlice(b)) == nil)
    }

    @Test func truncatedDatagramKeepsItsLastField() throws {
        // Cut inside the last value: what is there is still KEY=VALUE.
        let cut = Self.hotplug.dropLast(2)  // "...SEQNUM=66"
        let e = try #require(try UEvent.parse(cut))
        #expect(e.properties["SEQNUM"] == "66")
        #expect(e.connectorID == 31)
        // Cut inside the last key: a clear error naming the field.
        #expect(throws: UEvent.ParseError.malformedField(10, "SEQ")) { try UEvent.parse(Self.hotplug.dropLast(8)) }
    }

    @Test func garbageIsAClearErrorNotACrash() {
        #expect(throws: UEvent.ParseError.empty) { try UEvent.parse([]) }
        #expect(throws: UEvent.ParseError.noHeader("ACTION=add")) { try UEvent.parse(Self.bytes("ACTION=add\0DEVPATH=/x\0")) }
        #expect(throws: UEvent.ParseError.noHeader("add@")) { try UEvent.parse(Self.bytes("add@\0")) }
        #expect(throws: UEvent.ParseError.malformedField(2, "HOTPLUG")) {
            try UEvent.parse(Self.bytes("change@/devices/x\0ACTION=change\0HOTPLUG\0"))
        }
        #expect(throws: UEvent.ParseError.headerMismatch("ACTION=remove but the header says add")) {
            try UEvent.parse(Self.bytes("add@/devices/x\0ACTION=remove\0"))
        }
        // Binary noise: an error naming what it saw, with unprintable bytes as '?'.
        let noise: [UInt8] = [0xFF, 0x00, 0x13, 0x40, 0x2F, 0x00]
        #expect(throws: UEvent.ParseError.noHeader("?")) { try UEvent.parse(ArraySlice(noise)) }
        #expect("\(UEvent.ParseError.malformedField(2, "HOTPLUG"))" == "uevent: field 2 \"HOTPLUG\" is not KEY=VALUE")
    }

    /// Every prefix of a real message parses or throws; none crashes.
    @Test func everyPrefixParsesOrThrows() {
        var parsed = 0, refused = 0
        for n in 0...Self.hotplug.count {
            do {
                if try UEvent.parse(Self.hotplug.prefix(n)) != nil { parsed += 1 }
            } catch { refused += 1 }
        }
        #expect(parsed + refused == Self.hotplug.count + 1)
        #expect(refused > 0 && parsed > 0)
    }

    /// The real socket: opening it works here (root or not: receiving kernel uevents needs no
    /// privilege), and with nothing happening drain returns at once with no events.
    @Test func monitorOpensAndDrainsWithoutBlocking() throws {
        let monitor: UEventMonitor
        do { monitor = try UEventMonitor() } catch {
            // Restricted sandboxes refuse netlink sockets; the error must say which call.
            #expect("\(error)".hasPrefix("socket ") || "\(error)".hasPrefix("bind "))
            return
        }
        #expect(monitor.descriptor >= 0)
        let batch = try monitor.drain()
        #expect(!batch.overflowed)
        #expect(batch.events.allSatisfy { $0.devpath.hasPrefix("/") })
    }
}
