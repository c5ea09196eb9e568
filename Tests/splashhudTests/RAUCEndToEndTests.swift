// SPDX-License-Identifier: MIT
// splashhud-updates following Debian 12's real RAUC (1.8) service on a system bus of the test's
// own (dbus-daemon with a system-type configuration, reached through DBUS_SYSTEM_BUS_ADDRESS as
// on a board's /run/dbus/system_bus_socket), while `rauc install` installs real signed bundles
// (scripts/updates/rauc-bundle.sh) into a file-backed raw slot, a daemon on the memory display
// showing them. Started before the bus exists, it waits for it, then for RAUC; the HUD shows
// RAUC's steps on one bar that ends only at `Completed`: success for the good bundle, RAUC's
// LastError for one signed by a key it does not know (RAUC reports 100 % for that one too); RAUC
// restarted and the bus lost are waited out. Installing mounts the bundle over a loop device:
// root only.
import Foundation
import HUDProtocol
import LinuxSystem
import Testing

@Suite("splashhud-updates with Debian's RAUC", .serialized)
struct RAUCEndToEndTests {
    typealias Program = SWUpdateEndToEndTests.Program
    typealias Daemon = DaemonProcessTests.Running

    static var isRoot: Bool { getuid() == 0 }

    static func requireTools() throws {
        for tool in ["rauc", "dbus-daemon", "mksquashfs", "openssl"] {
            let found = ["/usr/bin", "/usr/sbin", "/bin", "/sbin"].contains { FileManager.default.isExecutableFile(atPath: "\($0)/\(tool)") }
            try #require(found, "\(tool) is not installed: run scripts/setup.sh --tests")
        }
    }

    @Test("real bundles, a bad signature, RAUC restarted and the bus lost, on the HUD",
          .enabled(if: isRoot, "RAUC mounts the bundle over a loop device: root only"))
    func installs() throws {
        try Self.requireTools()
        let dir = try temporaryDirectory("rauc")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let (made, madeLog) = try SplashBinary.run("/bin/bash", ["\(DocumentationTests.root.path)/scripts/updates/rauc-bundle.sh", dir, "32"])
        try #require(made == 0, "\(madeLog)")
        let env = ["DBUS_SYSTEM_BUS_ADDRESS": "unix:path=\(dir)/bus"]
        func rauc(_ arguments: [String]) throws -> (Int32, String) {
            try SplashBinary.run("/usr/bin/env", ["DBUS_SYSTEM_BUS_ADDRESS=unix:path=\(dir)/bus", "rauc", "--conf=\(dir)/system.conf"] + arguments)
        }

        // Neither bus nor daemon yet: the adapter waits for both.
        let updates = try Program(try SplashBinary.path("splashhud-updates"), ["rauc", "--socket", "\(dir)/control"],
                                  environment: env, log: "\(dir)/updates.log")
        defer { updates.end() }
        #expect(SWUpdateEndToEndTests.eventually { updates.output.contains("the system bus is not there") }, "\(updates.output)")
        var bus = try Program("/usr/bin/dbus-daemon", ["--config-file=\(dir)/bus.conf", "--nofork", "--nopidfile"], environment: [:],
                              log: "\(dir)/bus.log")
        defer { bus.end() }
        #expect(SWUpdateEndToEndTests.eventually { updates.output.contains("waiting for RAUC (de.pengutronix.rauc) on the system bus") },
                "\(updates.output)\n\(bus.output)")
        func startRAUC(_ n: Int) -> Program? {
            let p = try? Program("/usr/bin/rauc", ["--conf=\(dir)/system.conf", "service", "--override-boot-slot=A"], environment: env,
                                 log: "\(dir)/rauc-\(n).log")
            #expect(SWUpdateEndToEndTests.eventually { updates.output.components(separatedBy: "following RAUC's installer").count == n + 1 },
                    "\(updates.output)\n\(p?.output ?? "")")
            return p
        }
        var service = try #require(startRAUC(1))
        let daemon = try Daemon(extra: ["--display", "memory:320x240", "--duration", "300"], dir: dir)
        defer { daemon.end() }
        let recorder = SWUpdateEndToEndTests.StateRecorder(socket: daemon.socket)
        defer { recorder.end() }
        func shown() -> [String] {
            daemon.log.split(separator: "\n").compactMap { line in line.range(of: "HUD: ").map { String(line[$0.upperBound...]) } }
        }

        let (good, goodLog) = try rauc(["install", "\(dir)/good.raucb"])
        #expect(good == 0, "\(goodLog)\n\(service.output)")
        #expect(SWUpdateEndToEndTests.eventually { recorder.recorded.last?.status == "Update installed" }, "\(recorder.recorded)\n\(updates.output)")
        let bar = recorder.recorded.compactMap { $0.mode == "ring" ? $0.progress : nil }
        // (Its start may share a PropertiesChanged with the first steps, and so a view the adapter
        // coalesces: the bar need not be seen at 0.)
        #expect(!bar.isEmpty && bar.allSatisfy { $0 < 1 }, "held below 100 % until Completed: \(bar)")
        #expect(zip(bar, bar.dropFirst()).allSatisfy { $0 <= $1 }, "the bar went back: \(bar)")
        #expect(recorder.recorded.last?.mode == "image", "\(recorder.recorded)")
        // RAUC's own steps as the HUD's text (the announcements: every text it took), in order.
        let texts = shown()
        #expect(texts.last == "Update installed", "\(texts)")
        #expect(texts.contains { $0.hasPrefix("Copying image to rootfs.1") || $0.hasPrefix("Checking") || $0.hasPrefix("Updating slots") }, "\(texts)")
        #expect(!texts.contains { $0.hasSuffix(" done.") || $0 == "Installing" }, "\(texts)")
        // The image really is in the other slot (B: the booted one is A).
        let image = try Data(contentsOf: URL(fileURLWithPath: "\(dir)/content/rootfs.img"))
        let slot = try Data(contentsOf: URL(fileURLWithPath: "\(dir)/slot-b.img"))
        #expect(slot.prefix(image.count) == image, "slot B does not hold the bundle's image")

        // A bundle signed by a key RAUC does not trust: its LastError under the error icon.
        recorder.clear()
        let (bad, badLog) = try rauc(["install", "\(dir)/bad.raucb"])
        #expect(bad != 0, "\(badLog)")
        #expect(SWUpdateEndToEndTests.eventually { recorder.recorded.last?.mode == "image" && recorder.recorded.last?.status != "Update installed" },
                "\(recorder.recorded)")
        let reason = recorder.recorded.last?.status ?? ""
        #expect(reason.hasPrefix("signature verification failed"), "\(reason)\n\(badLog)")
        // (The state before this install, still the last one's success, is recorded first.)
        #expect(!recorder.recorded.drop { $0.mode != "ring" }.contains { $0.status == "Update installed" }, "\(recorder.recorded)")

        // RAUC restarted: waited for, followed again.
        service.end()
        #expect(SWUpdateEndToEndTests.eventually { updates.output.components(separatedBy: "waiting for RAUC").count == 3 }, "\(updates.output)")
        service = try #require(startRAUC(2))
        defer { service.end() }
        recorder.clear()
        let (again, againLog) = try rauc(["install", "\(dir)/good.raucb"])
        #expect(again == 0, "\(againLog)")
        #expect(SWUpdateEndToEndTests.eventually { recorder.recorded.last?.status == "Update installed" }, "\(recorder.recorded)\n\(updates.output)")

        // The bus gone: said once, waited for; the adapter never exits on its own.
        service.end()
        bus.end()
        #expect(SWUpdateEndToEndTests.eventually { updates.output.contains("lost the system bus") }, "\(updates.output)")
        func waits() -> Int { updates.output.components(separatedBy: "waiting for RAUC").count }
        let before = waits()
        bus = try Program("/usr/bin/dbus-daemon", ["--config-file=\(dir)/bus.conf", "--nofork", "--nopidfile"], environment: [:],
                          log: "\(dir)/bus-2.log")
        #expect(SWUpdateEndToEndTests.eventually { waits() > before }, "\(updates.output)")
        #expect(updates.process.isRunning, "\(updates.output)")
    }
}
