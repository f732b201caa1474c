// The formats whose libraries open on first use: a library that is missing, or lacks a
// function, is named in the error; one that opens finds its functions; and a build of the
// viewer links none of them.
import CDynamicLibrary
import Foundation
import SafeOutput
import Testing
import TestSupport
@testable import Pictures

@Suite("Libraries opened on first use")
struct LibraryLoadingTests {
    /// Opens `soname` for `names` through a fresh scrollkit_library, twice: returns both answers
    /// (nil: open) and whether the first function was found.
    static func open(_ soname: String, _ names: [String]) -> (first: String?, second: String?, found: Bool) {
        let sonameC = strdup(soname)!
        let namesC = names.map { UnsafePointer(strdup($0)!) }
        defer {
            free(sonameC)
            namesC.forEach { free(UnsafeMutablePointer(mutating: $0)) }
        }
        var functions = [UnsafeMutableRawPointer?](repeating: nil, count: names.count)
        return namesC.withUnsafeBufferPointer { nameList in
            functions.withUnsafeMutableBufferPointer { table in
                var library = scrollkit_library()
                library.soname = UnsafePointer(sonameC)
                library.names = UnsafePointer(OpaquePointer(nameList.baseAddress))
                library.functions = table.baseAddress
                library.count = names.count
                let first = scrollkit_library_open(&library).map { String(cString: $0) }
                let second = scrollkit_library_open(&library).map { String(cString: $0) }
                return (first, second, table[0] != nil)
            }
        }
    }

    @Test("a library that is not installed: its soname and the loader's reason, the same on every try")
    func missingLibrary() throws {
        let result = Self.open("libscrollkit-absent.so.9", ["absent_function"])
        let message = try #require(result.first)
        #expect(message.hasPrefix("libscrollkit-absent.so.9 cannot be loaded ("))
        #expect(message.contains("No such file"))
        #expect(result.second == result.first)
        #expect(!result.found)
    }

    @Test("a library without one of the functions: named, and not used")
    func missingFunction() {
        let result = Self.open("libc.so.6", ["strlen", "scrollkit_no_such_function"])
        #expect(result.first == "libc.so.6 has no function scrollkit_no_such_function")
        #expect(result.second == result.first)
    }

    @Test("a library with every function opens, and its functions are found")
    func presentLibrary() {
        let result = Self.open("libc.so.6", ["strlen", "memcpy"])
        #expect(result.first == nil && result.second == nil)
        #expect(result.found)
    }

    @Test("the error a picture of a format whose library is missing ends in")
    func missingLibraryError() {
        let error = PictureError(file: "photo.heic", kind: .libraryMissing(.heif, "libheif.so.1 cannot be loaded (not found)"))
        #expect(error.description
            == "photo.heic: cannot open HEIF files: libheif.so.1 cannot be loaded (not found) (Scripts/install-deps.sh installs it)")
    }

    @Test("The libraries opened on first use are installed here, and the viewer does not link them")
    func openedNotLinked() throws {
        #expect(WebPCodec.openLibrary() == nil)
        #expect(GIFCodec.openLibrary() == nil)
        #expect(TIFFCodec.openLibrary() == nil)
        #expect(HEIFCodec.openLibrary() == nil)
        #expect(AVIFCodec.openLibrary() == nil)
        #expect(JXLCodec.openLibrary() == nil)
        #expect(JXLCodec.openThreadsLibrary() == nil)
        #expect(SVGCodec.openLibrary() == nil)
        #expect(ColorTransform.openLibrary() == nil)
        // The viewer built beside this test bundle: the libraries its dynamic section needs
        // (readelf -d) are loaded at every start, and none of these may be among them (nor
        // libsystemd, which it opens only as a service: ServiceNotifierTests).
        let viewer = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("image-viewer")
        try #require(FileManager.default.isExecutableFile(atPath: viewer.path), "no image-viewer at \(viewer.path)")
        let readelf = Process()
        readelf.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        readelf.arguments = ["readelf", "-d", viewer.path]
        let output = Pipe()
        readelf.standardOutput = output
        try readelf.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        readelf.waitUntilExit()
        let needed = text.split(separator: "\n").filter { $0.contains("(NEEDED)") }
        #expect(needed.contains { $0.contains("[libpng16.so.16]") }, "readelf's output: \(text)")
        for soname in ["libwebp.so", "libwebpdemux.so", "libgif.so", "libtiff.so", "libheif.so", "libavif.so", "libjxl.so", "libjxl_threads.so",
                       "librsvg-2.so", "libcairo.so",
                       "liblcms2.so", "libsystemd.so"] {
            #expect(!needed.contains { $0.contains("[\(soname)") }, "image-viewer needs \(soname)")
        }
    }
}

@Suite("A picture's library opened ahead of its load")
struct CodecWarmUpTests {
    @Test("The format is read from the file's first bytes and its library opened; other files are left alone, a FIFO or a missing file at once")
    func warmUp() throws {
        let folder = try PrivateFolder(prefix: "codec-warm-up")
        func path(_ name: String) -> String { folder.path + "/" + name }
        let svg = path("drawing")  // no extension: the content decides
        try Data(#"<svg xmlns="http://www.w3.org/2000/svg" width="4" height="4"><rect width="4" height="4"/></svg>"#.utf8)
            .write(to: URL(fileURLWithPath: svg))
        #expect(CodecWarmUp.warmUp(svg) == .svg)
        #expect(SVGCodec.openLibrary() == nil, "librsvg is open after it")
        let png = path("picture.png")
        try Data(PNGWriter(width: 2, height: 2, colorType: 2).encode { x, y in [x, y, 0] }).write(to: URL(fileURLWithPath: png))
        #expect(CodecWarmUp.warmUp(png) == .png)
        let text = path("notes.svg")
        try Data("not a drawing".utf8).write(to: URL(fileURLWithPath: text))
        #expect(CodecWarmUp.warmUp(text) == nil)
        #expect(CodecWarmUp.warmUp(path("missing.avif")) == nil)
        // Nobody writes to this FIFO: opening it for reading without O_NONBLOCK would wait forever.
        let fifo = path("fifo.svg")
        #expect(mkfifo(fifo, 0o600) == 0)
        let start = Date()
        #expect(CodecWarmUp.warmUp(fifo) == nil)
        #expect(Date().timeIntervalSince(start) < 1)
        #expect(CodecWarmUp.warmUp(folder.path) == nil, "a folder is not a picture")
    }
}
