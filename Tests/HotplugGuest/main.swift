// SPDX-License-Identifier: MIT
// splashhud-hotplug-guest: runs inside QEMU (scripts/qemu/vmtest.py, bochs on the `pc` machine)
// and drives every card through DRMDisplaySet while the host plugs and unplugs a second display
// device (QMP device_add/device_del of `bochs-display`: ACPI PCI hotplug on pci.0). Frames
// (HotplugFrames) are presented at about 15 Hz on every output, the uevent socket is polled
// between frames and refreshOutputs called when it is readable. Steps, each with a screendump:
//
//   start            card0 alone
//   DEVICE_ADD gpu1  the new card must show within 1 s of its uevent (delay reported)
//   DEVICE_DEL gpu1  its output dropped; bochs goes on showing newer frames
//   DEVICE_ADD gpu2  plugged again: shows again
//   connector        /sys/class/drm/card0-Virtual-1/status "off" then "detect" (the kernel sends
//                    HOTPLUG=1 uevents): card0's output dropped and re-added, gpu2's undisturbed
//
// Facts go to the host as INFO lines: "SHOT <name> <output> <frame> <w>x<h>", "PLUG ...",
// "UNPLUG ...", "OUTPUTS ...", "DIAG ...".
#if canImport(Glibc)
import Glibc
#endif
import Display
import Raster
import VMGuestSupport

func nowNanoseconds() -> Int64 {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return Int64(ts.tv_sec) * 1_000_000_000 + Int64(ts.tv_nsec)
}

func ms(_ ns: Int64) -> String { "\(ns / 1_000_000)" }

final class HotplugGuest {
    let port: ControlPort
    let set: DRMDisplaySet
    /// The frame number shown by the last tick on every output.
    var number: Int32 = 0
    /// Per output name: the frame being shown.
    var frames: [String: Pixmap] = [:]
    var reported = 0
    /// When the last refreshOutputs that changed something ran, and which DRM events it drained.
    var lastChangeAt: Int64 = 0
    /// When a uevent about each card path first arrived.
    var firstEventAt: [String: Int64] = [:]
    let tick: Int64 = 66_000_000  // ~15 Hz
    /// Background patterns drawn ahead for the sizes the plugged devices will have.
    var backgrounds: [String: Pixmap] = [:]
    /// For outputs shown whole (new ones): how long drawing their frame and presenting it took.
    var newOutputTimes: [String: (draw: Int64, present: Int64)] = [:]
    /// How long the last changing refreshOutputs took (opening a card, setting up its outputs).
    var lastRefreshDuration: Int64 = 0

    init() throws {
        port = try ControlPort(consoleTag: "hotplug-guest")
        set = try DRMDisplaySet()
        reportOutputs()
    }

    func reportOutputs() {
        port.info("OUTPUTS " + set.outputs.map { "\($0.name):\($0.mode.width)x\($0.mode.height)" }.joined(separator: " "))
        for line in set.diagnostics[reported...] { port.info("DIAG \(line)") }
        reported = set.diagnostics.count
    }

    /// One frame on every output: new outputs get frame `number` whole, the others the marker step.
    func presentTick() throws {
        number += 1
        for (i, out) in set.outputs.enumerated() {
            let damage: [IntRect]
            let frame: Pixmap
            let started = nowNanoseconds()
            if let f = frames[out.name], f.width == out.frameWidth, f.height == out.frameHeight {
                frame = f
                damage = HotplugFrames.advance(f.view, to: number)
            } else if let background = backgrounds["\(out.frameWidth)x\(out.frameHeight)"] {
                // Prepared before the plug: this debug build needs seconds for a whole pattern
                // under TCG, which is the test's drawing, not the display's hotplug latency.
                frame = Pixmap(width: out.frameWidth, height: out.frameHeight)
                let bytes = Int(frame.view.rowBytes) * Int(frame.height)
                frame.view.base.copyMemory(from: background.view.base, byteCount: bytes)
                frame.view.fill(HotplugFrames.markerRect(width: frame.width, height: frame.height, number: number),
                                with: HotplugFrames.markerColor(number: number))
                frames[out.name] = frame
                damage = [frame.view.bounds]
            } else {
                frame = HotplugFrames.frame(width: out.frameWidth, height: out.frameHeight, number: number)
                frames[out.name] = frame
                damage = [frame.view.bounds]
            }
            let drawn = nowNanoseconds()
            _ = try set.present(frame.view, damage: damage, output: i)
            if damage == [frame.view.bounds] { newOutputTimes[out.name] = (drawn - started, nowNanoseconds() - drawn) }
        }
    }

    /// Presents ticks until `done()` (checked after every tick), polling the uevent socket between
    /// ticks; throws after `seconds`.
    func run(_ what: String, seconds: Int64 = 10, until done: () -> Bool) throws {
        let deadline = nowNanoseconds() + seconds * 1_000_000_000
        var next = nowNanoseconds()
        while true {
            try presentTick()
            if done() { return }
            guard nowNanoseconds() < deadline else { throw GuestError("\(what): not within \(seconds) s") }
            next += tick
            try waitForTickOrHotplug(until: next)
        }
    }

    func waitForTickOrHotplug(until next: Int64) throws {
        while true {
            let left = next - nowNanoseconds()
            guard left > 0 else { return }
            var pfd = pollfd(fd: set.hotplugDescriptor ?? -1, events: Int16(POLLIN), revents: 0)
            let r = poll(&pfd, 1, Int32(left / 1_000_000) + 1)
            guard r > 0 else { continue }
            let at = nowNanoseconds()
            let changed = try set.refreshOutputs()
            if changed { lastRefreshDuration = nowNanoseconds() - at }
            for e in set.lastRefreshEvents where firstEventAt[e.path] == nil { firstEventAt[e.path] = at }
            if changed {
                lastChangeAt = at
                frames = frames.filter { name, _ in set.outputs.contains { $0.name == name } }
                reportOutputs()
                return  // present to the new set at once
            }
        }
    }

    func shot(_ name: String, output: String, device: String?) throws {
        guard let out = set.outputs.first(where: { $0.name == output }) else { throw GuestError("shot \(name): no output \(output)") }
        try set.waitForPendingFlips()  // present returns once the flip is queued
        port.info("SHOT \(name) \(output) \(number) \(out.frameWidth)x\(out.frameHeight)")
        port.send("SHOT \(name)" + (device.map { " device=\($0)" } ?? ""))
        let answer = try port.readLine()
        guard answer == "OK" else { throw GuestError("SHOT \(name): host answered \"\(answer)\"") }
    }

    func request(_ line: String) throws -> String {
        port.send(line)
        let answer = try port.readLine()
        guard answer.hasPrefix("OK") else { throw GuestError("\(line): host answered \"\(answer)\"") }
        return answer
    }

    /// Plugs a bochs-display as `id` and waits until its output shows; returns the output's name.
    func plug(_ id: String, size: (width: Int32, height: Int32), slot: String) throws -> String {
        let background = Pixmap(width: size.width, height: size.height)
        HotplugFrames.background(background.view, rect: background.view.bounds)
        backgrounds["\(size.width)x\(size.height)"] = background
        let before = Set(set.outputs.map(\.name))
        firstEventAt = [:]
        let asked = nowNanoseconds()
        _ = try request("DEVICE_ADD \(id) bochs-display bus=pci.0 addr=\(slot) xres=\(size.width) yres=\(size.height)")
        var added: String?
        try run("plug \(id)") {
            added = set.outputs.map(\.name).first { !before.contains($0) }
            return added != nil
        }
        let shown = nowNanoseconds()
        let name = added!
        let path = set.source(ofOutput: set.outputs.firstIndex { $0.name == name }!).devicePath
        let event = firstEventAt[path] ?? lastChangeAt
        let t = newOutputTimes[name] ?? (0, 0)
        port.info("PLUG \(id) \(path) \(name) uevent_to_shown_ms \(ms(shown - event)) add_to_shown_ms \(ms(shown - asked)) "
            + "refresh_ms \(ms(lastRefreshDuration)) draw_ms \(ms(t.draw)) present_ms \(ms(t.present))")
        return name
    }

    /// Unplugs `id` (whose output is `name`) and waits until the output is dropped.
    func unplug(_ id: String, output name: String) throws {
        let asked = nowNanoseconds()
        _ = try request("DEVICE_DEL \(id)")
        try run("unplug \(id)") { !set.outputs.contains { $0.name == name } }
        let dropped = nowNanoseconds()
        // QEMU deletes the device once the guest's ACPI code ejected the slot (_EJ0).
        let qemu = try request("WAIT_DELETED \(id) 10000")
        port.info("UNPLUG \(id) \(name) del_to_dropped_ms \(ms(dropped - asked)) qemu \(qemu)")
    }

    /// Forces card0's connector off and back through sysfs (the kernel sends HOTPLUG=1 uevents).
    func toggleConnector(_ sysfsName: String, output: String, other: String, otherDevice: String) throws {
        let path = "/sys/class/drm/\(sysfsName)/status"
        // bochs does not poll connectors (no drm_kms_helper_poll_init), so a forced status
        // change fires no HOTPLUG uevent by itself: a synthetic "change" on the card (what
        // `udevadm trigger` does) makes the kernel send one.
        let card = "/sys/class/drm/\(sysfsName.split(separator: "-")[0])/uevent"
        try writeSysfs(path, "off")
        try writeSysfs(card, "change")
        try run("connector off") { !set.outputs.contains { $0.name == output } }
        port.info("CONNECTOR off dropped \(output) outputs \(set.outputs.count)")
        try run("settle") { true }
        try shot("connector-off-\(otherDevice)", output: other, device: otherDevice)
        try writeSysfs(path, "detect")
        try writeSysfs(card, "change")
        try run("connector detect") { set.outputs.contains { $0.name == output } }
        port.info("CONNECTOR detect added \(output) outputs \(set.outputs.count)")
        try run("settle") { true }
        try shot("connector-on-bochs", output: output, device: nil)
    }

    func writeSysfs(_ path: String, _ text: String) throws {
        let fd = open(path, O_WRONLY)
        guard fd >= 0 else { throw GuestError("open \(path): \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        let n = text.withCString { write(fd, $0, strlen($0)) }
        guard n > 0 else { throw GuestError("write \(text) to \(path): \(String(cString: strerror(errno)))") }
    }

    func main() throws {
        guard set.hotplugDescriptor != nil else { throw GuestError("no uevent socket") }
        let bochs = set.outputs[0].name
        try run("start") { number >= 3 }
        try shot("start", output: bochs, device: nil)

        let first = try plug("gpu1", size: (800, 600), slot: "03.0")
        try shot("plugged-gpu1", output: first, device: "gpu1")
        try shot("plugged-bochs", output: bochs, device: nil)
        try run("both") { number % 4 == 0 }
        try shot("both-gpu1", output: first, device: "gpu1")

        try unplug("gpu1", output: first)
        try run("after unplug") { true }
        try shot("unplugged-bochs", output: bochs, device: nil)

        // Another slot: QEMU 7.2 never finalizes the unplugged bochs-display, whose RAMBlock
        // ("0000:00:03.0/bochs-display-vram") stays registered, so the same slot would abort QEMU.
        let second = try plug("gpu2", size: (720, 400), slot: "04.0")
        try shot("replugged-gpu2", output: second, device: "gpu2")

        try toggleConnector("card0-\(bochs.split(separator: "-", maxSplits: 1)[1])", output: bochs, other: second, otherDevice: "gpu2")
        reportOutputs()
        set.close(.restore)
    }
}

do {
    try HotplugGuest().main()
    exit(0)
} catch {
    print("splashhud-hotplug-guest: \(error)")
    exit(1)
}
