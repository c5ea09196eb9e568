// SPDX-License-Identifier: MIT
// `splashhud-fuzz`: libFuzzer's entry point over the fuzz targets (FuzzTarget), the target chosen
// by SPLASHHUD_FUZZ_TARGET. Built with `-sanitize=fuzzer,address -D FUZZING` (scripts/fuzz.sh),
// `main` hands over to libFuzzer's driver (SwiftPM links an executable's `main` to the module's
// entry point, so libFuzzer's own `main` is not used). A plain build replays files through a
// target instead: `splashhud-fuzz TARGET FILE...` (a crash's reproducer, a corpus).
import LinuxSystem
import SplashFuzzTargets

private let targets = FuzzTarget.allCases.map(\.rawValue).joined(separator: ", ")

private let chosen: FuzzTarget = {
    guard let t = Environment.value("SPLASHHUD_FUZZ_TARGET").flatMap(FuzzTarget.init(rawValue:)) else {
        fatalError("splashhud-fuzz: set SPLASHHUD_FUZZ_TARGET to one of \(targets)")
    }
    return t
}()

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOne(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    chosen.run(data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? [])
    return 0
}

#if FUZZING
@_silgen_name("LLVMFuzzerRunDriver")
func runDriver(
    _ argc: UnsafeMutablePointer<CInt>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
    _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt
) -> CInt

@_cdecl("splashhud_fuzz_main")
public func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    var count = argc, vector = argv
    return runDriver(&count, &vector, fuzzOne)
}
#else
struct Usage: Error, CustomStringConvertible {
    var description: String { "usage: splashhud-fuzz TARGET FILE... (targets: \(targets))" }
}

@main
struct Replay {
    static func main() throws {
        let args = Array(CommandLine.arguments.dropFirst())
        guard let name = args.first, let target = FuzzTarget(rawValue: name), args.count > 1 else { throw Usage() }
        for path in args.dropFirst() {
            target.run(try Files.readFile(path, limit: 1 << 26))
            print("\(path): ok")
        }
    }
}
#endif
