// SPDX-License-Identifier: MIT
// `--profile NAME|PATH`: a path (it has a `/` or ends in `.conf`) is read as it is; a name is
// looked up as NAME.conf in the boards folders: ./boards (a source checkout), $SPLASHHUD_BOARDS,
// /etc/splashhud/boards (the admin's), /usr/share/splashhud/boards (the package's).
import LinuxSystem

/// Why `ProfileLocator` found no profile, or could not read it.
public struct ProfileLookupError: Error, Equatable, CustomStringConvertible {
    public var message: String
    public var description: String { message }
}

public enum ProfileLocator {
    public static func folders(boardsVariable: String? = Environment.value("SPLASHHUD_BOARDS")) -> [String] {
        var out = ["boards"]
        if let dir = boardsVariable, !dir.isEmpty { out.append(dir) }
        return out + ["/etc/splashhud/boards", "/usr/share/splashhud/boards"]
    }

    /// The file `nameOrPath` means, or an error listing where it looked and what exists.
    public static func path(for nameOrPath: String, folders: [String] = folders()) throws(ProfileLookupError) -> String {
        if nameOrPath.contains("/") || nameOrPath.hasSuffix(".conf") {
            guard exists(nameOrPath) else { throw ProfileLookupError(message: "--profile: no file \(nameOrPath)") }
            return nameOrPath
        }
        for dir in folders where exists("\(dir)/\(nameOrPath).conf") {
            return "\(dir)/\(nameOrPath).conf"
        }
        let known = Set(folders.flatMap { (try? Files.listDirectory($0)) ?? [] }
            .filter { $0.hasSuffix(".conf") }.map { String($0.dropLast(5)) }).sorted()
        throw ProfileLookupError(message: "--profile: no \(nameOrPath).conf in \(folders.joined(separator: ", "))"
            + (known.isEmpty ? "" : "; known profiles: \(known.joined(separator: ", "))"))
    }

    /// The parsed profile (errors name the file, line and key).
    public static func load(_ nameOrPath: String) throws(ProfileLookupError) -> BoardProfile {
        let file = try path(for: nameOrPath)
        let bytes: [UInt8]
        // A profile is a few kilobytes; 1 MiB is plenty.
        do { bytes = try Files.readFile(file, limit: 1 << 20) } catch { throw ProfileLookupError(message: "--profile: cannot read \(file): \(error)") }
        guard let text = String(validating: bytes, as: UTF8.self) else { throw ProfileLookupError(message: "--profile: \(file) is not UTF-8") }
        do { return try BoardProfile.parse(text, file: file) } catch { throw ProfileLookupError(message: "\(error)") }
    }

    static func exists(_ path: String) -> Bool { (try? Files.status(atPath: path)) != nil }
}
