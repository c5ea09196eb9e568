// SPDX-License-Identifier: MIT
// bootc's progress (`bootc upgrade|switch --progress-fd N`, containers/bootc lib/src/progress_jsonl.rs):
// one JSON object a line. Released bootc (1.1.4 on) starts with {"type":"Start","version":"0.1.0"};
// builds from December 2024 put "apiVersion":"org.containers.bootc.progress/v1" in every event
// instead. Then "ProgressBytes" (a download: bytes of bytesTotal, 0 meaning unknown, and steps of
// stepsTotal layers) and "ProgressSteps" (discrete steps, with subtasks that start and complete).
// Fields are camelCase (serde's rename_all_fields); the published schema's snake_case is read too.
// Tasks run pulling → importing → staging (3 steps); lossy events come at most 5 a second.
//
// One bar: pulling fills 0-80 %, importing 80-90 %, staging 90-99 %, never going back; 100 %
// and the success only once bootc exits 0, the failure with bootc's own last words when it does
// not (the runner reads its standard error).

/// One line of bootc's progress.
public enum BootcEvent: Equatable, Sendable {
    case start(version: String)
    case bytes(task: String, description: String, bytes: UInt64, bytesTotal: UInt64, steps: UInt64, stepsTotal: UInt64)
    /// `running`: the description of the first subtask not completed yet, if any.
    case steps(task: String, description: String, steps: UInt64, stepsTotal: UInt64, running: String?)
    /// A type this release does not know (a newer bootc's): skipped.
    case other(type: String)
}

public struct BootcLineError: Error, Equatable, Sendable, CustomStringConvertible {
    public let reason: String
    public var description: String { "not a bootc progress line: \(reason)" }
}

extension BootcEvent {
    static let apiVersion = "org.containers.bootc.progress/v1"

    /// The event `line` (without its newline) holds.
    public static func decode(_ line: [UInt8]) throws(BootcLineError) -> BootcEvent {
        let json: JSONValue
        do { json = try JSONValue.parse(line) } catch { throw BootcLineError(reason: "\(error)") }
        guard case .object = json else { throw BootcLineError(reason: "not an object") }
        guard let type = json["type"]?.string else { throw BootcLineError(reason: "no \"type\"") }
        if let api = field(json, "apiVersion", "api_version")?.string, api != apiVersion {
            throw BootcLineError(reason: "API version \(api), not \(apiVersion)")
        }
        func text(_ camel: String, _ snake: String) -> String { field(json, camel, snake)?.string ?? "" }
        func count(_ camel: String, _ snake: String) throws(BootcLineError) -> UInt64 {
            guard let v = field(json, camel, snake) else { return 0 }
            guard let n = v.count else { throw BootcLineError(reason: "\"\(camel)\" is not a count") }
            return n
        }
        switch type {
        case "Start":
            let version = json["version"]?.string ?? ""
            guard version.hasPrefix("0.") else { throw BootcLineError(reason: "progress format \(version.isEmpty ? "with no version" : version), not 0.x") }
            return .start(version: version)
        case "ProgressBytes":
            return .bytes(task: text("task", "task"), description: text("description", "description"),
                          bytes: try count("bytes", "bytes"), bytesTotal: try count("bytesTotal", "bytes_total"),
                          steps: try count("steps", "steps"), stepsTotal: try count("stepsTotal", "steps_total"))
        case "ProgressSteps":
            let running = json["subtasks"]?.array?.first { $0["completed"] == .bool(false) }?["description"]?.string
            return .steps(task: text("task", "task"), description: text("description", "description"),
                          steps: try count("steps", "steps"), stepsTotal: try count("stepsTotal", "steps_total"),
                          running: running.flatMap { $0.isEmpty ? nil : $0 })
        default:
            return .other(type: type)
        }
    }

    private static func field(_ json: JSONValue, _ camel: String, _ snake: String) -> JSONValue? {
        json[camel] ?? json[snake]
    }
}

public struct BootcProgress: Sendable {
    public private(set) var percent = 0
    public private(set) var status = ""

    public init() {}

    /// Each task's share of the bar: where it starts and how much it fills.
    static func share(_ task: String) -> (from: Int, width: Int)? {
        switch task {
        case "pulling": return (0, 80)
        case "importing": return (80, 10)
        case "staging": return (90, 9)
        default: return nil
        }
    }

    /// What the HUD should show after `event`; nil when it changes nothing there.
    public mutating func view(for event: BootcEvent) -> UpdateView? {
        switch event {
        case .start:
            percent = 0
            status = "Updating the system"
            return .progress(percent: 0, status: status)
        case .bytes(let task, let description, let bytes, let bytesTotal, let steps, let stepsTotal):
            let done = bytesTotal > 0 ? (bytes, bytesTotal) : (steps, stepsTotal)
            status = task == "pulling"
                ? "Downloading update" + (bytesTotal > 0 ? " (\(Self.megabytes(bytes)) of \(Self.megabytes(bytesTotal)) MB)" : "")
                : Self.label(task, description)
            return advance(task, done)
        case .steps(let task, let description, let steps, let stepsTotal, let running):
            status = Self.label(task, description) + (running.map { ": \($0)" } ?? "")
            return advance(task, (steps, stepsTotal))
        case .other:
            return nil
        }
    }

    /// How bootc's end shows: its exit status (nil: killed by `signal`), and its last words on
    /// standard error.
    public mutating func view(exitStatus: Int32?, signal: Int32?, errorOutput: [String]) -> UpdateView {
        if exitStatus == 0 {
            percent = 100
            return .succeeded(status: "Update installed")
        }
        let ending = exitStatus.map { "bootc failed (exit status \($0))" } ?? "bootc was stopped (signal \(signal ?? 0))"
        return .failed(reason: FailureReason.bounded(errorOutput) ?? ending)
    }

    /// `done` (part, whole) of `task`'s share, the bar never going back nor past 99.
    private mutating func advance(_ task: String, _ done: (UInt64, UInt64)) -> UpdateView {
        if let share = Self.share(task) {
            let (part, whole) = done
            let within = whole == 0 ? 0 : Int(UInt64(share.width) * min(part, whole) / whole)
            percent = max(percent, min(share.from + within, 99))
        }
        return .progress(percent: percent, status: status)
    }

    private static func label(_ task: String, _ description: String) -> String {
        switch task {
        case "pulling": return "Downloading update"
        case "importing": return "Importing update"
        case "staging": return "Staging update"
        default: return description.isEmpty ? task : description
        }
    }

    /// Bytes in decimal megabytes, rounded down.
    static func megabytes(_ bytes: UInt64) -> UInt64 { bytes / 1_000_000 }
}
