// SPDX-License-Identifier: MIT
// bootc's progress lines as one bar. bootc is not in Debian 12: Fixtures/bootc-upgrade.jsonl is an
// upgrade written line by line in the shape bootc's serializer gives (containers/bootc
// lib/src/progress_jsonl.rs: the Start line of released bootc, then ProgressBytes while pulling
// three layers and ProgressSteps for staging's three steps, camelCase fields), not captured from a
// running bootc. The other forms are checked too: apiVersion in each event, the schema's snake_case.
import Foundation
import Testing
import UpdateSources

@Suite("bootc's progress on the HUD")
struct BootcProgressTests {
    static func fixture(_ name: String) throws -> [[UInt8]] {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/\(name)")
        return try String(contentsOf: url, encoding: .utf8).split(separator: "\n").map { Array($0.utf8) }
    }

    static func decode(_ line: String) throws -> BootcEvent { try BootcEvent.decode(Array(line.utf8)) }

    @Test("an upgrade: one bar from 0 through pulling (by bytes) and staging (by steps), held below 100 until bootc exits 0")
    func upgrade() throws {
        var p = BootcProgress()
        let views = try Self.fixture("bootc-upgrade.jsonl").compactMap { p.view(for: try BootcEvent.decode($0)) }
        let bar = views.compactMap { if case .progress(let n, let s) = $0 { return (n, s) } else { return nil } }
        #expect(bar.map(\.0) == [0, 10, 20, 30, 40, 46, 52, 58, 65, 68, 72, 76, 80, 80, 90, 93, 96, 99])
        #expect(bar[0].1 == "Updating the system")
        #expect(bar[1].1 == "Downloading update (10 of 80 MB)" && bar[12].1 == "Downloading update (80 of 80 MB)")
        #expect(bar[14].1 == "Staging update: Merging Image" && bar[15].1 == "Staging update: Deploying Image")
        #expect(bar[16].1 == "Staging update: Pulling Bound Images" && bar[17].1 == "Staging update")
        #expect(p.view(exitStatus: 0, signal: nil, errorOutput: []) == .succeeded(status: "Update installed"))
    }

    @Test("bootc failing: its last words on standard error, else how it ended")
    func failure() {
        var p = BootcProgress()
        let words = ["layer 3 of 3", "", "error: Upgrading: Pulling: Creating importer: failed to invoke method OpenImage: manifest unknown"]
        #expect(p.view(exitStatus: 1, signal: nil, errorOutput: words)
                == .failed(reason: "layer 3 of 3\nerror: Upgrading: Pulling: Creating importer: failed to invoke method OpenImage: manifest unknown"))
        #expect(p.view(exitStatus: 1, signal: nil, errorOutput: []) == .failed(reason: "bootc failed (exit status 1)"))
        #expect(p.view(exitStatus: nil, signal: 9, errorOutput: [" "]) == .failed(reason: "bootc was stopped (signal 9)"))
    }

    @Test("the other forms: apiVersion in each event, snake_case fields; a newer event type is skipped")
    func forms() throws {
        let api = #"{"type":"ProgressBytes","apiVersion":"org.containers.bootc.progress/v1","task":"pulling","description":"d","id":"i","bytesCached":0,"bytes":5,"bytesTotal":10,"stepsCached":0,"steps":0,"stepsTotal":1,"subtasks":[]}"#
        #expect(try Self.decode(api) == .bytes(task: "pulling", description: "d", bytes: 5, bytesTotal: 10, steps: 0, stepsTotal: 1))
        let snake = #"{"type":"ProgressSteps","task":"staging","description":"d","id":"i","steps_cached":0,"steps":1,"steps_total":3,"subtasks":[{"subtask":"s","description":"Merging Image","id":"s","completed":true},{"subtask":"t","description":"Deploying Image","id":"t","completed":false}]}"#
        #expect(try Self.decode(snake) == .steps(task: "staging", description: "d", steps: 1, stepsTotal: 3, running: "Deploying Image"))
        #expect(try Self.decode(#"{"type":"Finished","ok":true}"#) == .other(type: "Finished"))
        // Bytes unknown (0): the layers' steps fill the download's share.
        var p = BootcProgress()
        _ = p.view(for: .start(version: "0.1.0"))
        #expect(p.view(for: .bytes(task: "pulling", description: "", bytes: 7, bytesTotal: 0, steps: 1, stepsTotal: 2))
                == .progress(percent: 40, status: "Downloading update"))
    }

    @Test("what is not bootc's progress is a clear error", arguments: [
        ("[1]", "not an object"), (#"{"task":"pulling"}"#, "no \"type\""), ("{", "not JSON at byte 1: a member's name must be a string"),
        (#"{"type":"Start","version":"1.0.0"}"#, "progress format 1.0.0, not 0.x"), (#"{"type":"Start"}"#, "progress format with no version, not 0.x"),
        (#"{"type":"ProgressBytes","apiVersion":"org.containers.bootc.progress/v2"}"#, "API version org.containers.bootc.progress/v2, not org.containers.bootc.progress/v1"),
        (#"{"type":"ProgressBytes","bytes":-1}"#, "\"bytes\" is not a count"),
    ])
    func errors(line: String, reason: String) {
        #expect { try Self.decode(line) } throws: { ($0 as? BootcLineError)?.reason == reason }
    }
}
