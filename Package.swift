// swift-tools-version:6.0
// SPDX-License-Identifier: MIT
// SplashHUD: a progress HUD for Linux displays without a window system.
// Layers point downward only: Raster <- Assets, HUDProtocol <- HUD <- Display <- Board <- Runtime
// <- executables (Display needs Raster only; docs/architecture.md has the whole tree).
// The benchmarks and what only they need (cairo) are a package of their own, Benchmarks/, which
// depends on this one by path: building or depending on SplashHUD never evaluates them.
import PackageDescription

let package = Package(
    name: "SplashHUD",
    products: [
        .library(name: "Raster", targets: ["Raster"]),
        .library(name: "Images", targets: ["Images"]),
        .library(name: "Assets", targets: ["Assets"]),
        .library(name: "HUDProtocol", targets: ["HUDProtocol"]),
        .library(name: "HUD", targets: ["HUD"]),
        // Talking to a running splashhudd: the protocol and the system layer only.
        .library(name: "HUDClient", targets: ["HUDClient"]),
        // The Swift API with a HUD the program owns too (the runtime, on a display it opens).
        .library(name: "SplashHUDKit", targets: ["SplashHUDKit", "HUDClient"]),
        .executable(name: "splashhud", targets: ["splashhud"]),
        .executable(name: "splashhudd", targets: ["splashhudd"]),
        .executable(name: "splashhud-tools", targets: ["splashhud-tools"]),
        // The fleet bridge: a daemon's control socket carried to an MQTT broker (never at boot).
        .executable(name: "splashhud-mqtt", targets: ["splashhud-mqtt"]),
        .executable(name: "splashhud-updates", targets: ["splashhud-updates"]),
        .executable(name: "splashhud-fuzz", targets: ["splashhud-fuzz"]),
        // For the benchmark package (Benchmarks/Package.swift), which can only use products: not an API.
        .library(name: "Gallery", targets: ["Gallery"]),
        .library(name: "Display", targets: ["Display"]),
        .library(name: "LinuxSystem", targets: ["LinuxSystem"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-system", from: "1.4.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.5.0"),
        // `swift package generate-documentation --target HUDClient|SplashHUDKit` (the DocC catalogues).
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
    ],
    targets: [
        // C libraries, through pkg-config; apt names the Debian package that provides each.
        .systemLibrary(name: "CFreeType", pkgConfig: "freetype2", providers: [.apt(["libfreetype-dev"])]),
        .systemLibrary(name: "CPNG", pkgConfig: "libpng16", providers: [.apt(["libpng-dev"])]),
        .systemLibrary(name: "CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),
        .systemLibrary(name: "CDRM", pkgConfig: "libdrm", providers: [.apt(["libdrm-dev"])]),
        // Text: shaping (HarfBuzz), bidi (FriBidi), UAX #14 line breaks (libunibreak), Thai words (libthai).
        .systemLibrary(name: "CHarfBuzz", pkgConfig: "harfbuzz", providers: [.apt(["libharfbuzz-dev"])]),
        .systemLibrary(name: "CFriBidi", pkgConfig: "fribidi", providers: [.apt(["libfribidi-dev"])]),
        .systemLibrary(name: "CUnibreak", pkgConfig: "libunibreak", providers: [.apt(["libunibreak-dev"])]),
        .systemLibrary(name: "CThai", pkgConfig: "libthai", providers: [.apt(["libthai-dev"])]),
        // MQTT for the fleet bridge alone (the daemon never links it: it runs before any network).
        .systemLibrary(name: "CMosquitto", pkgConfig: "libmosquitto", providers: [.apt(["libmosquitto-dev"])]),
        // sd-bus for splashhud-updates' RAUC source alone (RAUC's progress is a D-Bus property).
        .systemLibrary(name: "CSystemd", pkgConfig: "libsystemd", providers: [.apt(["libsystemd-dev"])]),
        // QR codes for the daemon's support code (a failed update's address to scan) alone.
        .systemLibrary(name: "CQREncode", pkgConfig: "libqrencode", providers: [.apt(["libqrencode-dev"])]),
        // libpng behind setjmp: its errors are longjmps, which must not cross Swift frames.
        .target(name: "CPNGCodec", dependencies: ["CPNG", "CZlib"]),
        // Only what Swift cannot import: ioctl request numbers built by function-like macros; DRM's
        // apart, so that libdrm is linked by what opens a display and nothing else.
        .target(name: "CLinuxShim"),
        .target(name: "CDRMShim", dependencies: ["CDRM"]),

        // The one funnel for system calls and ioctls (libdrm's calls keep their own in Display/DRM):
        // one trampoline per call, EINTR retried in one place, one error type; debug builds let
        // tests make any call fail (MockingDriver).
        .target(
            name: "LinuxSystem",
            dependencies: ["CLinuxShim", .product(name: "SystemPackage", package: "swift-system")],
            swiftSettings: [.define("ENABLE_MOCKING", .when(configuration: .debug))]),

        // Command lines for the daemon and the client, which run in early boot and so link no
        // Foundation (swift-argument-parser needs FoundationEssentials): a table of options read
        // by glibc's getopt_long, whose global state CGetOpt scans under a lock.
        .target(name: "CGetOpt"),
        // Runs before the Swift runtime starts: no waiting for the kernel's random pool in early boot.
        .target(name: "CEarlyStart"),
        .target(name: "CommandLineOptions", dependencies: ["CGetOpt"]),

        // Pure Swift: fixed point, paths, stroker, scan converter, paints, surfaces, pixel formats.
        .target(name: "Raster", linkerSettings: [.linkedLibrary("m", .when(platforms: [.linux]))]),
        // PNG through libpng, and the checks every image or font file passes before it is read.
        .target(name: "Images", dependencies: ["LinuxSystem", "Raster", "CPNGCodec", "CZlib",
                                               .product(name: "SystemPackage", package: "swift-system")]),
        // Fonts through FreeType, feeding the rasterizer; text shaped, reordered and broken into
        // lines by the libraries made for it. Re-exports Images.
        .target(name: "Assets", dependencies: ["Images", "LinuxSystem", "Raster", "CFreeType",
                                               "CHarfBuzz", "CFriBidi", "CUnibreak", "CThai"]),
        // The command language (lexer, parser, printer), the service verbs, HUDEvent and time
        // values: all a client needs, without the display stack, fonts or images.
        .target(name: "HUDProtocol", dependencies: ["Raster", .product(name: "SystemPackage", package: "swift-system")]),
        // The HUD: SVProgressHUD/MBProgressHUD behaviour on a Clock, layout, indicators and the
        // damage-tracking scene renderer.
        .target(name: "HUD", dependencies: ["HUDProtocol", "Raster", "Assets", "QRCode"]),
        // A QR code's modules through libqrencode (QRMatrix.swift, the one file that calls it).
        .target(name: "QRCode", dependencies: ["CQREncode"]),
        // Screens: the Display protocol and its capabilities, the memory, fbdev and DRM/KMS
        // backends, page damage, uevents, the VT and the probe.
        .target(
            name: "Display",
            dependencies: ["LinuxSystem", "Raster", "CLinuxShim", "CDRM", "CDRMShim", .product(name: "SystemPackage", package: "swift-system")]),
        // Input devices through evdev: records decoded into pointer and key actions, mapped to an
        // output's frame pixels.
        .target(name: "Input", dependencies: ["LinuxSystem", "Raster", "CLinuxShim", .product(name: "SystemPackage", package: "swift-system")]),
        // Board profiles: a file in boards/ turned into display options and HUD settings.
        .target(
            name: "Board",
            dependencies: ["Display", "HUD", "HUDProtocol", "Assets", "Raster", "LinuxSystem", .product(name: "Logging", package: "swift-log")]),
        // The reference frame and the primitive gallery, shared by the demo, tests and benchmark.
        .target(name: "Gallery", dependencies: ["Raster", "Assets"]),
        // The HUD on a Display: the event loop, message queue, frame scheduler, one scene per
        // output, the session (script, endings, retain hand-over) and the command FIFO.
        .target(
            name: "Runtime",
            dependencies: [
                "LinuxSystem", "Board", "HUDProtocol", "HUD", "Display", "Raster", "Assets", "Input",
                .product(name: "SystemPackage", package: "swift-system"),
                .product(name: "Logging", package: "swift-log"),
            ]),

        // The client: one verb per request to a running splashhudd. It runs at boot, so it links
        // no Foundation (CommandLineOptions, not swift-argument-parser). Its own small binary, and
        // in the initramfs the daemon's (called splashhud).
        .target(
            name: "ClientCommand",
            dependencies: ["HUDProtocol", "HUDClient", "LinuxSystem", "CommandLineOptions", "CEarlyStart", .product(name: "SystemPackage", package: "swift-system")]),
        .executableTarget(name: "splashhud", dependencies: ["ClientCommand"]),
        // What never runs at boot: the demo, headless renders and the probe (`splashhud demo|render|probe`).
        .executableTarget(
            name: "splashhud-tools",
            dependencies: [
                "Gallery", "Board", "HUDProtocol", "HUD", "Assets", "Raster", "Display", "Runtime", "LinuxSystem",
                .product(name: "SystemPackage", package: "swift-system"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]),

        // The control socket's client side (the CLI's verbs, the Swift API's remote HUD).
        .target(name: "HUDClient", dependencies: ["HUDProtocol", "LinuxSystem", .product(name: "SystemPackage", package: "swift-system")]),
        .target(
            name: "SplashHUDKit",
            dependencies: ["HUDClient", "HUDProtocol", "Runtime", "Board", "Display", "LinuxSystem", .product(name: "Logging", package: "swift-log")]),
        // An example program using the Swift API (docs/swift.md, the DocC article), built and run by the tests.
        .executableTarget(name: "splashhud-example", dependencies: ["SplashHUDKit", "HUDClient", "HUDProtocol"], path: "Examples/HUDExample"),
        // The fleet bridge (issue 26): HUDClient on one side, libmosquitto on the other, driven from
        // one epoll loop; PNG (Images) only to scale a snapshot down to the broker's packet limit.
        // No Foundation and no swift-argument-parser: it stays resident on every kiosk, so its
        // options go through CommandLineOptions like the client's (the config file merges in as
        // the same options).
        .target(
            name: "MQTTBridge",
            dependencies: ["HUDClient", "HUDProtocol", "LinuxSystem", "CMosquitto", "CommandLineOptions", "Images", "Raster",
                           .product(name: "SystemPackage", package: "swift-system")]),
        .executableTarget(name: "splashhud-mqtt", dependencies: ["MQTTBridge"]),
        // Update frameworks on the splash (issue 35): their wire formats and what each event shows
        // (UpdateSources, no system calls), and the program that follows them and talks to the
        // daemon's control socket. The daemon links none of it.
        .target(name: "UpdateSources", dependencies: ["HUDProtocol", "Raster"]),
        .target(
            name: "UpdatesCommand",
            dependencies: ["UpdateSources", "HUDClient", "HUDProtocol", "LinuxSystem", "CommandLineOptions", "CSystemd",
                           .product(name: "SystemPackage", package: "swift-system")]),
        .executableTarget(name: "splashhud-updates", dependencies: ["UpdatesCommand"]),
        // The daemon: the runtime, the control socket and the FIFOs on the best display.
        .executableTarget(
            name: "splashhudd",
            dependencies: [
                "Board", "HUDProtocol", "HUD", "Assets", "Raster", "Display", "Runtime", "LinuxSystem", "CommandLineOptions", "CEarlyStart",
                "ClientCommand", .product(name: "Logging", package: "swift-log"),
                .product(name: "SystemPackage", package: "swift-system"),
            ]),

        // Fuzzing (scripts/fuzz.sh): the targets, libFuzzer's entry point over them, and their replay in the tests.
        .target(name: "SplashFuzzTargets", dependencies: ["Assets", "Board", "Display", "HUDProtocol", "Input", "LinuxSystem", "Raster", "Runtime"],
                path: "Fuzz/Targets"),
        .executableTarget(name: "splashhud-fuzz", dependencies: ["SplashFuzzTargets"], path: "Fuzz/Entry"),
        .testTarget(name: "FuzzTargetsTests", dependencies: ["SplashFuzzTargets"]),

        .target(name: "GoldenSupport", dependencies: ["Raster", "Assets"], path: "Tests/GoldenSupport"),
        // Peers of another user (setpriv + python3) for the connection-slot tests.
        .target(name: "PeerSupport", path: "Tests/PeerSupport"),
        .testTarget(name: "CommandLineOptionsTests", dependencies: ["CommandLineOptions"]),
        .testTarget(name: "UpdateSourcesTests", dependencies: ["UpdateSources", "UpdatesCommand", "HUDProtocol", "HUDClient", "LinuxSystem", "Raster"],
                    exclude: ["Fixtures"]),
        .testTarget(name: "LinuxSystemTests", dependencies: ["LinuxSystem", .product(name: "SystemPackage", package: "swift-system")]),
        .testTarget(name: "RasterTests", dependencies: ["Raster", "GoldenSupport"], exclude: ["Golden"]),
        .testTarget(name: "AssetsTests", dependencies: ["Assets", "Images", "Raster", "GoldenSupport", "CZlib"], exclude: ["Golden", "Fixtures"]),
        .testTarget(name: "GalleryTests", dependencies: ["Gallery", "GoldenSupport"], exclude: ["Golden"]),
        .testTarget(name: "HUDProtocolTests", dependencies: ["HUDProtocol", "Raster", "GoldenSupport"]),
        .testTarget(name: "HUDTests", dependencies: ["HUDProtocol", "HUD", "Raster", "Assets", "QRCode", "GoldenSupport"], exclude: ["Golden"]),
        .testTarget(name: "BoardTests", dependencies: ["Board", "Display", "HUD", "Raster", .product(name: "Logging", package: "swift-log")]),
        .testTarget(name: "DisplayTests", dependencies: ["HUDProtocol", "Display", "Raster", "CLinuxShim", "GoldenSupport", "LinuxSystem", .product(name: "SystemPackage", package: "swift-system")]),
        .testTarget(name: "InputTests", dependencies: ["Input", "Raster"]),
        .testTarget(name: "PlatformTests", dependencies: ["Raster", "CDRM", "CDRMShim", "CLinuxShim"]),
        // End-to-end display tests boot real kernel drivers under QEMU through scripts/qemu/vmtest.py
        // (qemu-system-x86, linux-image-amd64, busybox-static: scripts/setup.sh --tests).
        // The guests' end of vmtest.py's control channel, shared by every guest program.
        .target(name: "VMGuestSupport", path: "Tests/VMGuestSupport"),
        // HUD frames through FBDevDisplay, and the console.
        .executableTarget(name: "splashhud-display-guest", dependencies: ["HUDProtocol", "Display", "HUD", "Raster", "Assets", "CLinuxShim", "VMGuestSupport"], path: "Tests/DisplayGuest"),
        // The same for KMS: known frames through DRMDisplay (atomic and legacy commits).
        .executableTarget(name: "splashhud-drm-guest", dependencies: ["Display", "Raster", "CLinuxShim", "VMGuestSupport"], path: "Tests/DRMGuest"),
        // The frame scheduler's CPU cost on a real fbdev driver: static HUD vs animating spinner.
        .executableTarget(name: "splashhud-pacer-guest", dependencies: ["LinuxSystem", "HUDProtocol", "Display", "HUD", "Raster", "Runtime", "VMGuestSupport"], path: "Tests/PacerGuest"),
        // Hotplug: outputs (whole cards under QEMU) coming and going while the HUD runs.
        .executableTarget(name: "splashhud-hotplug-guest", dependencies: ["Display", "Raster", "VMGuestSupport"], path: "Tests/HotplugGuest"),
        .testTarget(
            name: "QEMUTests",
            dependencies: [
                "splashhud-display-guest", "splashhud-drm-guest", "splashhud-pacer-guest", "splashhud-hotplug-guest",
                "Display", "HUDProtocol", "HUD", "Raster", "Assets", "GoldenSupport",
                "CZlib",  // vkms's CRCs (zlib's crc32), VKMSEndToEndTests
            ],
            path: "Tests/QEMUTests"),
        .testTarget(name: "RuntimeTests", dependencies: ["PeerSupport", "HUDClient", "LinuxSystem", "Board", "HUDProtocol", "Runtime", "Input", "HUD", "Display", "Raster", "Assets", "GoldenSupport"]),
        .testTarget(name: "splashhudTests", dependencies: ["GoldenSupport", "PeerSupport", "Board", "HUDProtocol", "HUDClient", "ClientCommand", "splashhud", "splashhudd", "splashhud-tools", "splashhud-mqtt", "splashhud-updates", "UpdatesCommand", "MQTTBridge", "CommandLineOptions", "splashhud-example", "SplashHUDKit", "HUD", "Assets", "Raster", "Display", "Runtime", "LinuxSystem",
                                                       .product(name: "ArgumentParser", package: "swift-argument-parser")]),
    ],
    swiftLanguageModes: [.v6]
)
