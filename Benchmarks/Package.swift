// swift-tools-version:6.0
// SPDX-License-Identifier: MIT
// SplashHUD's benchmarks, in a package of their own as SwiftNIO and swift-collections keep theirs:
// cairo (the rasterizer's comparison engine) and everything else only a benchmark needs live here,
// so building or depending on SplashHUD never evaluates them. This package depends on the main
// one by path and uses its products.
//
//   swift build -c release --package-path Benchmarks --product splashhud-bench
//   Benchmarks/.build/release/splashhud-bench
//
// docs/performance.md says what each benchmark measures, how to rerun it and its latest figures.
import PackageDescription

let package = Package(
    name: "SplashHUDBenchmarks",
    products: [
        .executable(name: "splashhud-bench", targets: ["splashhud-bench"]),
        .executable(name: "splashhud-control-bench", targets: ["splashhud-control-bench"]),
    ],
    dependencies: [
        .package(name: "SplashHUD", path: ".."),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-system", from: "1.4.0"),
    ],
    targets: [
        // cairo through pkg-config (its flags bring FreeType's headers; the module map links both).
        .systemLibrary(name: "CCairo", path: "CCairo", pkgConfig: "cairo", providers: [.apt(["libcairo2-dev"])]),
        // The reference frame drawn with cairo, in C.
        .target(name: "CCairoScene", dependencies: ["CCairo"], path: "CCairoScene"),
        // The rasterizer against cairo and memset/memcpy, the HUD's steady state, presenting, and
        // `splashhud-bench text-layout` (paragraph layout; Pango's side is text-layout/pango-layout.c).
        .executableTarget(
            name: "splashhud-bench",
            dependencies: [
                "CCairoScene",
                .product(name: "Gallery", package: "SplashHUD"),
                .product(name: "HUDProtocol", package: "SplashHUD"),
                .product(name: "HUD", package: "SplashHUD"),
                .product(name: "Assets", package: "SplashHUD"),
                .product(name: "Raster", package: "SplashHUD"),
                .product(name: "Display", package: "SplashHUD"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            path: "splashhud-bench"),
        // The control socket's round trip and throughput against a bare socket echo (not a test).
        .executableTarget(
            name: "splashhud-control-bench",
            dependencies: [
                .product(name: "HUDClient", package: "SplashHUD"),
                .product(name: "LinuxSystem", package: "SplashHUD"),
                .product(name: "SystemPackage", package: "swift-system"),
            ],
            path: "splashhud-control-bench"),
    ],
    swiftLanguageModes: [.v6]
)
