// swift-tools-version: 6.0
// ScrollKit: iOS UIScrollView re-created for Linux as a software-rendered Wayland client.
// Module layering points one way: ScrollKit ← Raster ← Host ← Wayland, Replay and Gallery ←
// executables, and ScrollKit ← TraceFormat ← Replay, Gallery and Wayland.
import Foundation
import PackageDescription

/// `pkg-config --cflags PACKAGE`, split into arguments: the header flags of a library the viewer
/// opens on first use (Sources/CDynamicLibrary) instead of linking. SwiftPM's `pkgConfig:` would
/// link it too, and a linked library is loaded, with all it needs, at every start. When
/// pkg-config or the package is missing, a define the C file turns into an error that says so
/// (SwiftPM may keep this manifest's result: the error says to remove .build after installing).
func headerFlags(pkgConfig package: String) -> [String] {
    let missing = ["-DSCROLLKIT_NO_PKG_CONFIG"]
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["pkg-config", "--cflags", package]
    let output = Pipe()
    process.standardOutput = output
    process.standardError = FileHandle.nullDevice
    guard (try? process.run()) != nil else { return missing }
    let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    guard process.terminationStatus == 0 else { return missing }
    return text.split(whereSeparator: \.isWhitespace).map(String.init)
}

/// Link flags of the viewer: LLVM's lld with relative relocations packed (DT_RELR, glibc 2.36),
/// when the toolchain has lld beside swift. The viewer's 82,259 relative relocations then take
/// 15.5 KiB instead of gold's 1.9 MiB `.rela.dyn`, which the loader reads at every start: 1.7
/// MB less resident at rest (RssFile 21.4 to 19.7 MB on the first picture of a folder at
/// 1920×1080). Without lld the default linker is used, as before. Both with `noExportedSymbols`
/// and `staticLibstdcxx` below.
func viewerLinkFlags() -> [LinkerSetting] {
    let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
    let hasLLD = path.split(separator: ":").contains { FileManager.default.isExecutableFile(atPath: "\($0)/ld.lld") }
    let packed: [String] = hasLLD ? ["-use-ld=lld", "-Xlinker", "-z", "-Xlinker", "pack-relative-relocs"] : []
    let ordered: [String] = hasLLD ? symbolOrder : []
    return [.unsafeFlags(packed + noExportedSymbols + staticLibstdcxx + ordered)]
}

/// The functions people's sessions run, placed side by side at the start of the viewer's code
/// (lld's `--symbol-ordering-file`; `Packaging/symbol-order.txt`, written by
/// `Scripts/make-symbol-order.sh` from callgrind runs of the viewer). The binary holds 18 MB of
/// code, the Swift runtime and Foundation linked in, and a session runs about 2 MB of it spread
/// over all of it; the kernel maps a file's pages around each one touched (64 KiB, and whole
/// large folios where the page cache holds them), which kept 9.9 MB of the code resident at
/// rest on the first picture of a folder at 1920×1080; 5.0 MB with the list. What a launch runs
/// up to its first picture comes first, one launch per format: a 24 MP SVG's code resident at
/// rest went from 5.4 to 4.7 MiB with that (its peak 35.8–36.0 to 35.0–35.5 MiB). Names the linker
/// no longer finds are skipped without a word, and functions not listed follow the listed ones:
/// a stale list costs memory, never correctness.
let symbolOrder = ["-Xlinker", "--symbol-ordering-file=" + Context.packageDirectory + "/Packaging/symbol-order.txt",
                   "-Xlinker", "--no-warn-symbol-ordering"]

/// libstdc++ linked into the viewer as the Swift runtime that needs it is, from GCC's static
/// archive (the linker script in Packaging/static-libstdc++ turns the runtime's `-lstdc++` into
/// `-l:libstdc++.a`): only the parts the runtime calls come in, where the shared library was
/// loaded whole and ran its own start-up (its iostreams and locales). 1.3 MiB less resident
/// after paging through 30 pictures at 1920×1080 (VmHWM 62.5 to 61.1 MB, three runs each), and
/// nothing the viewer loads needs the shared one. A library opened later that does (libheif)
/// loads it for itself: the viewer's copy is not exported (`--exclude-libs ALL`).
let staticLibstdcxx = ["-L", Context.packageDirectory + "/Packaging/static-libstdc++"]

/// `--no-export-dynamic`: the viewer's own symbols stay out of its dynamic symbol table, which
/// SwiftPM's `-export-dynamic` for executables fills with every symbol of the project's modules
/// (219 KiB of .dynsym, 446 KiB of .dynstr). Nothing looks them up (no plugin calls back into
/// the viewer; the opened libraries are found with dlsym in them, not in it), yet the loader
/// searches the executable first for every symbol the libraries import, reading those tables
/// at each start: 0.7 MB less resident (the first read-only segment's 1,140 KiB resident to
/// 440 KiB, at the peak of paging through 30 pictures at 1920×1080).
let noExportedSymbols = ["-Xlinker", "--no-export-dynamic"]

let package = Package(
    name: "ScrollKit",
    products: [
        .library(name: "ScrollKit", targets: ["ScrollKit"]),
        .library(name: "Raster", targets: ["Raster"]),
        .library(name: "Host", targets: ["Host"]),
        .library(name: "Wayland", targets: ["Wayland"]),
        .library(name: "Pictures", targets: ["Pictures"]),
        .executable(name: "image-viewer", targets: ["image-viewer"]),
        .executable(name: "scroll-replay", targets: ["scroll-replay"]),
        .executable(name: "raster-bench", targets: ["raster-bench"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        // FileDescriptor, Stat and Errno: the system calls of every module, with typed errno values.
        .package(url: "https://github.com/apple/swift-system", from: "1.8.1"),
        // `swift package generate-documentation`: the DocC catalogs of ScrollKit and Raster.
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
    ],
    targets: [
        // System libraries, found through pkg-config; Scripts/install-deps.sh installs them.
        .systemLibrary(name: "CWaylandClient", pkgConfig: "wayland-client", providers: [.apt(["libwayland-dev"])]),
        .systemLibrary(name: "CWaylandCursor", pkgConfig: "wayland-cursor", providers: [.apt(["libwayland-dev"])]),
        .systemLibrary(name: "CXKBCommon", pkgConfig: "xkbcommon", providers: [.apt(["libxkbcommon-dev"])]),
        .systemLibrary(name: "CPNG", pkgConfig: "libpng", providers: [.apt(["libpng-dev"])]),
        .systemLibrary(name: "CTurboJPEG", pkgConfig: "libturbojpeg", providers: [.apt(["libturbojpeg0-dev"])]),
        // libjpeg-turbo's libjpeg API: scanline decoding of JPEGs too large to decode whole.
        .systemLibrary(name: "CJPEG", pkgConfig: "libjpeg", providers: [.apt(["libjpeg62-turbo-dev"])]),
        .systemLibrary(name: "CPixman", pkgConfig: "pixman-1", providers: [.apt(["libpixman-1-dev"])]),
        // The text layer: fonts found by fontconfig, rasterised by FreeType, shaped by HarfBuzz,
        // ordered by FriBiDi (UAX #9) and broken into lines by libunibreak (UAX #14).
        .systemLibrary(name: "CFontconfig", pkgConfig: "fontconfig", providers: [.apt(["libfontconfig-dev"])]),
        .systemLibrary(name: "CFreeType", pkgConfig: "freetype2", providers: [.apt(["libfreetype-dev"])]),
        .systemLibrary(name: "CHarfBuzz", pkgConfig: "harfbuzz", providers: [.apt(["libharfbuzz-dev"])]),
        .systemLibrary(name: "CFriBiDi", pkgConfig: "fribidi", providers: [.apt(["libfribidi-dev"])]),
        .systemLibrary(name: "CUnibreak", pkgConfig: "libunibreak", providers: [.apt(["libunibreak-dev"])]),
        // The other picture formats' decoders (WebP, GIF, TIFF, HEIF/AVIF, JPEG XL, SVG) and
        // LittleCMS for embedded colour profiles: opened on first use, not linked (see
        // headerFlags); a folder of JPEGs without profiles never loads them.
        .target(name: "CDynamicLibrary"),
        // Picture files mapped read-only, safe from the file shrinking under them (SIGBUS).
        .target(name: "CFileMapping"),
        .target(name: "CWebP", dependencies: ["CDynamicLibrary"], cSettings: [.unsafeFlags(headerFlags(pkgConfig: "libwebpdemux"))]),
        .target(name: "CGIF", dependencies: ["CDynamicLibrary"], cSettings: [.unsafeFlags(headerFlags(pkgConfig: "libgif"))]),
        .target(name: "CTIFF", dependencies: ["CDynamicLibrary"], cSettings: [.unsafeFlags(headerFlags(pkgConfig: "libtiff-4"))]),
        .target(name: "CHEIF", dependencies: ["CDynamicLibrary"],
                cSettings: [.unsafeFlags(headerFlags(pkgConfig: "libheif") + headerFlags(pkgConfig: "libde265"))]),
        .target(name: "CAVIF", dependencies: ["CDynamicLibrary"], cSettings: [.unsafeFlags(headerFlags(pkgConfig: "libavif"))]),
        .target(name: "CJXL", dependencies: ["CDynamicLibrary"], cSettings: [.unsafeFlags(headerFlags(pkgConfig: "libjxl"))]),
        .target(name: "CRSVG", dependencies: ["CDynamicLibrary"], cSettings: [.unsafeFlags(headerFlags(pkgConfig: "librsvg-2.0"))]),
        .target(name: "CLCMS", dependencies: ["CDynamicLibrary"], cSettings: [.unsafeFlags(headerFlags(pkgConfig: "lcms2"))]),
        // A picture's EXIF fields for the information panel.
        .systemLibrary(name: "CExif", pkgConfig: "libexif", providers: [.apt(["libexif-dev"])]),
        // Client-side window decorations where the compositor draws none (GNOME, weston).
        .systemLibrary(name: "CLibdecor", pkgConfig: "libdecor-0", providers: [.apt(["libdecor-0-dev"])]),
        // systemd's readiness and watchdog notifications (sd_notify) for the kiosk service: opened
        // only when the viewer runs as a service, not linked (see headerFlags).
        .target(name: "CSystemd", dependencies: ["CDynamicLibrary"], cSettings: [.unsafeFlags(headerFlags(pkgConfig: "libsystemd"))]),
        // glibc's malloc.h (malloc_trim), which the Glibc module leaves out: libc's own, no package.
        .systemLibrary(name: "CMalloc"),
        // zlib (libpng's own dependency): CPNGStream inflates with it, the tests' PNG writer deflates.
        .systemLibrary(name: "CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),
        // A large PNG's image data inflated on a second core while libpng unfilters its rows.
        .target(name: "CPNGStream", dependencies: ["CZlib"]),
        // wayland-scanner glue for Protocols/*.xml, regenerated by Scripts/gen-protocols.sh.
        .target(name: "CWaylandProtocols", dependencies: ["CWaylandClient"]),

        .target(name: "ScrollKit"),
        // Output that never traps, never overwrites and never prints raw control characters:
        // standard streams, files created for the user, private scratch folders.
        .target(name: "SafeOutput", dependencies: [.product(name: "ArgumentParser", package: "swift-argument-parser"),
                                                   .product(name: "SystemPackage", package: "swift-system")]),
        .target(name: "Raster", dependencies: ["ScrollKit", "CFontconfig", "CFreeType", "CHarfBuzz", "CFriBiDi", "CUnibreak"]),
        // What a window shows and when it is ticked, for every host (the Wayland window, the
        // offscreen window, the replay): Scene, ViewScene and the one frame scheduler.
        .target(name: "Host", dependencies: ["ScrollKit", "Raster"]),
        // The trace format (types, parser, JSON writer, recorded-input lines), one implementation
        // for the replay that reads traces and the live recording that writes them.
        .target(name: "TraceFormat", dependencies: ["ScrollKit"]),
        .target(name: "Wayland", dependencies: [
            "CWaylandClient", "CWaylandCursor", "CXKBCommon", "CWaylandProtocols", "CLibdecor", "Host", "Raster", "ScrollKit", "TraceFormat",
            "SafeOutput", .product(name: "SystemPackage", package: "swift-system"),
        ]),
        .target(name: "Pictures", dependencies: [
            "CPNG", "CPNGStream", "CTurboJPEG", "CWebP", "CGIF", "CTIFF", "CHEIF", "CAVIF", "CJXL", "CRSVG", "CLCMS", "CExif", "CPixman",
            "CJPEG", "CFileMapping", "Raster", .product(name: "SystemPackage", package: "swift-system"),
        ]),
        // The image viewer's scenes (gallery, picture pages, error cards), apart from Wayland so
        // they run offscreen and in tests.
        .target(name: "Gallery", dependencies: ["Host", "ScrollKit", "Raster", "Pictures", "SafeOutput", "TraceFormat", "CMalloc",
                                                .product(name: "SystemPackage", package: "swift-system")]),
        // The generated test card (every pixel known in closed form): content for the viewer's
        // --test-card and for the tests that check what reached the screen.
        .target(name: "TestCardContent", dependencies: ["Raster", "ScrollKit"]),
        // The simulated-display replay of traces, shared by scroll-replay and the tests.
        .target(name: "Replay", dependencies: ["Host", "ScrollKit", "Raster", "TraceFormat", "SafeOutput"]),

        .executableTarget(name: "image-viewer", dependencies: [
            "Wayland", "Host", "Raster", "ScrollKit", "Replay", "Gallery", "TraceFormat", "SafeOutput", "TestCardContent",
            "CSystemd",
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
        ], linkerSettings: viewerLinkFlags()),
        .executableTarget(name: "scroll-replay", dependencies: [
            "Replay", "TraceFormat", "SafeOutput",
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
        ]),
        .executableTarget(name: "raster-bench", dependencies: ["Raster", "ScrollKit", "CPixman"]),
        // Decoding figures for huge JPEGs (first frame vs a full decode, memory); the reference
        // decode calls libjpeg-turbo directly.
        .executableTarget(name: "pictures-bench", dependencies: [
            "Pictures", "Raster", "CTurboJPEG", "SafeOutput", "CompositorHarness",
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
        ]),
        // Headless compositors (sway, sway nested in KWin) in private folders, their processes,
        // screenshots: one harness for the live tests, pictures-bench and, through
        // headless-session, the shell scripts. Not part of the shipped programs.
        .target(name: "CompositorHarness", dependencies: ["SafeOutput"]),
        .executableTarget(name: "headless-session", dependencies: ["CompositorHarness", "SafeOutput",
                                                                   .product(name: "ArgumentParser", package: "swift-argument-parser")]),
        // Injects pointer/keyboard (wlr virtual pointer, virtual keyboard) and touch
        // (KWin fake input) for the live tests; not part of the shipped programs.
        .executableTarget(name: "wl-inject", dependencies: ["CWaylandClient", "CXKBCommon", "CWaylandProtocols", "SafeOutput",
                                                            .product(name: "SystemPackage", package: "swift-system")]),

        // Examples/: small apps on the public API alone (packageAccess: false hides the symbols
        // the modules share only among themselves). Targets here rather than a package of their
        // own, so every build compiles them against the modules it has built anyway.
        .executableTarget(name: "hello-scroll", dependencies: ["Host", "Raster", "ScrollKit", "Wayland"],
                          path: "Examples/HelloScroll", packageAccess: false),
        .executableTarget(name: "zoomable-photo", dependencies: ["Host", "Pictures", "Raster", "ScrollKit", "Wayland"],
                          path: "Examples/ZoomablePhoto", packageAccess: false),
        .executableTarget(name: "onboarding", dependencies: ["Host", "Raster", "ScrollKit", "Wayland"],
                          path: "Examples/Onboarding", packageAccess: false),
        .executableTarget(name: "text-list", dependencies: ["Host", "Raster", "ScrollKit", "Wayland"],
                          path: "Examples/TextList", packageAccess: false),

        .target(name: "TestSupport", dependencies: ["Raster", "CZlib", "CompositorHarness"], path: "Tests/TestSupport"),
        // The delegate calls are recorded by the replay's RecordingDelegate, the one recorder.
        .testTarget(name: "ScrollKitTests", dependencies: ["ScrollKit", "Replay"]),
        // The text tests render references with FreeType and HarfBuzz directly.
        .testTarget(name: "RasterTests", dependencies: ["Host", "Raster", "ScrollKit", "TestCardContent", "TestSupport", "CFontconfig",
                                                  "CFreeType", "CHarfBuzz", "CompositorHarness"]),
        .testTarget(name: "HostTests", dependencies: ["Host", "Raster", "ScrollKit"]),
        .testTarget(name: "WaylandTests", dependencies: [
            "Wayland", "Replay", "TraceFormat", "Host", "Raster", "ScrollKit", .product(name: "SystemPackage", package: "swift-system"),
        ]),
        // The details tests make ICC profiles with LittleCMS's own calls, linked here (the
        // viewer opens it on first use, through wrappers of the calls it makes).
        .testTarget(name: "PicturesTests", dependencies: ["Pictures", "Raster", "SafeOutput", "TestSupport", "CLCMS", "CDynamicLibrary"],
                    linkerSettings: [.linkedLibrary("lcms2")]),
        .testTarget(name: "ReplayTests", dependencies: ["Host", "Replay", "ScrollKit", "TestSupport", "TraceFormat", "SafeOutput", "Raster",
                                                  "CompositorHarness"],
                    exclude: ["Traces"]),
        .testTarget(name: "GalleryTests", dependencies: ["Gallery", "Host", "Pictures", "Raster", "ScrollKit", "Replay", "TestSupport",
                                                   "SafeOutput", "TraceFormat", "CompositorHarness"]),
        .testTarget(name: "LiveTests", dependencies: ["CompositorHarness", "TestSupport", "Raster", "Pictures", "Gallery", "ScrollKit", "SafeOutput",
                                                "TestCardContent"],
                    exclude: ["Harness/mutter-session.py"]),
        // The executables' own parts: the --stats figures, the huge-JPEG benchmark.
        .testTarget(name: "ImageViewerTests", dependencies: ["image-viewer", "Host", "Raster", "ScrollKit"]),
        .testTarget(name: "PicturesBenchTests", dependencies: ["pictures-bench", "SafeOutput"]),
    ]
)

// Each function of the project's modules in a section of its own (as Swift's runtime and
// standard library are built), so that the linker can place the ones `symbolOrder` lists
// without the rest of their file (its other functions, which a session may never run).
for target in package.targets where target.type == .regular || target.type == .executable {
    target.swiftSettings = (target.swiftSettings ?? []) + [.unsafeFlags(["-Xfrontend", "-function-sections"])]
}
