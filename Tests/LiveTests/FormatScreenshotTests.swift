// Every format as the viewer shows it: `image-viewer --offscreen --screenshot` on files of the
// generated corpus, each compared pixel by pixel with its reference decode (a decoder that is
// not ours) drawn at 1:1 in the middle of the window over the checkerboard.
import CompositorHarness
import Foundation
import Glibc
import Testing
import TestSupport

/// One screenshot to check: a corpus file, the trace's input, and which reference it shows.
struct ShownFile: CustomStringConvertible, Sendable {
    var file: String
    /// Trace lines after the setup (input that pages or lets an animation play).
    var input: [String] = []
    var page = 0
    var frame = 0

    var description: String { "\(file) page \(page + 1) frame \(frame + 1)" }
}

@Suite("Formats on screen (offscreen screenshots)", .ownThreads)
struct FormatScreenshotTests {
    /// 2 levels on top of each file's own tolerance: the viewer premultiplies the decoded
    /// pixels and blends them over the checkerboard in 8 bits, the reference in one step from
    /// straight alpha (decision: each step rounds once).
    static let blendTolerance = 2

    /// A handful of files of every format: lossy and lossless, alpha, animated (frames picked by
    /// the trace's last event), multi-page (a page turned with .), ICC.
    static let files: [ShownFile] = [
        ShownFile(file: "png-rgba.png"), ShownFile(file: "png-icc-p3.png"), ShownFile(file: "png-gamma-1.png"),
        ShownFile(file: "jpeg-icc-adobe.jpg"), ShownFile(file: "jpeg-gray-icc.jpg"),
        ShownFile(file: "webp-lossy.webp"), ShownFile(file: "webp-alpha-lossless.webp"), ShownFile(file: "webp-icc-p3.webp"),
        // The WebP animation's delays are 100, 40, 250, 70 ms: at 170 ms the third frame shows.
        ShownFile(file: "webp-animated.webp"), ShownFile(file: "webp-animated.webp", input: [motion(at: 170)], frame: 2),
        ShownFile(file: "gif-still.gif"), ShownFile(file: "gif-transparent.gif"),
        // The GIF's are 200, 100, 70, 500 ms: at 250 ms the second frame shows, at 450 the fourth (due at
        // 370, drawn on the next 60 Hz frame, 383 ms).
        ShownFile(file: "gif-animated.gif"), ShownFile(file: "gif-animated.gif", input: [motion(at: 250)], frame: 1),
        ShownFile(file: "gif-animated.gif", input: [motion(at: 450)], frame: 3),
        ShownFile(file: "tiff-rgb-lzw.tif"), ShownFile(file: "tiff-rgba-deflate.tif"), ShownFile(file: "tiff-tiled.tif"),
        ShownFile(file: "tiff-orientation6.tif"), ShownFile(file: "tiff-icc-adobe.tif"),
        ShownFile(file: "tiff-pages.tif", input: key("period", at: 100), page: 1),
        ShownFile(file: "tiff-pages.tif", input: key("period", at: 100) + key("period", at: 300), page: 2),
        ShownFile(file: "heif-lossy.heic"), ShownFile(file: "heif-alpha.heic"), ShownFile(file: "heif-icc-p3.heic"),
        ShownFile(file: "heif-two-images.heic", input: key("period", at: 100), page: 1),
        ShownFile(file: "avif-lossy.avif"), ShownFile(file: "avif-alpha.avif"), ShownFile(file: "avif-nclx-p3.avif"),
        ShownFile(file: "jxl-lossy.jxl"), ShownFile(file: "jxl-alpha.jxl"), ShownFile(file: "jxl-gray16.jxl"),
        ShownFile(file: "jxl-icc-p3.jxl"),
        ShownFile(file: "svg-shapes.svg"),
        ShownFile(file: "bmp-8bit.bmp"), ShownFile(file: "bmp-rle8.bmp"), ShownFile(file: "bmp-32bit-v5-alpha.bmp"),
        ShownFile(file: "bmp-v5-icc.bmp"),
    ]

    static func motion(at t: Double) -> String { #"{"t":\#(t),"kind":"pointer.motion","x":1,"y":1}"# }

    static func key(_ name: String, at t: Double) -> [String] {
        [#"{"t":\#(t),"kind":"key","key":"\#(name)","state":"pressed"}"#,
         #"{"t":\#(t + 50),"kind":"key","key":"\#(name)","state":"released"}"#]
    }

    /// The window: larger than every file picked, so each shows at 1:1.
    static let window = (width: 200, height: 150)

    @Test("Each file's screenshot is its reference at 1:1, centred, over the checkerboard", arguments: files)
    func screenshot(_ shown: ShownFile) throws {
        let (folder, entries) = try GeneratedCorpus.generated.get()
        let entry = try #require(entries.first { $0.file == shown.file }, "\(shown.file) is not in the corpus")
        let reference = try #require(entry.references.first { $0.page == shown.page && $0.frame == shown.frame })
        let rgba = try entry.referencePixels(in: folder, page: shown.page, frame: shown.frame)
        let scratch = URL(fileURLWithPath: NSTemporaryDirectory())
            .appendingPathComponent("scrollkit-formats-\(getpid())-\(UUID().uuidString.prefix(6))")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: false)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let trace = scratch.appendingPathComponent("show.jsonl"), shot = scratch.appendingPathComponent("shot.ppm")
        let (w, h) = Self.window
        let setup = #"{"kind":"setup","viewport":{"width":\#(w),"height":\#(h)},"content":{"width":\#(w),"height":\#(h)}}"#
        try ([setup] + shown.input).joined(separator: "\n").write(to: trace, atomically: true, encoding: .utf8)
        let path = folder.appendingPathComponent(shown.file).path
        let viewer = try ClientProcess("image-viewer", ["--offscreen", trace.path, "--screenshot", shot.path, path],
                                       environment: [:])
        #expect(viewer.waitForExit(timeout: 60) == 0, "stderr: \(viewer.stderr.lines)")
        #expect(viewer.stderr.lines.isEmpty, "a good file prints nothing: \(viewer.stderr.lines)")
        let picture = try Screenshot(ppm: try Data(contentsOf: shot))
        let problems = Self.compare(picture, reference: rgba, width: reference.width, height: reference.height,
                                    tolerance: entry.tolerance + Self.blendTolerance)
        #expect(problems.isEmpty, "\(shown): \(problems)")
    }

    /// The checkerboard under a picture whose top-left is at the window's (x0, y0): 8 px squares,
    /// #808080 at the corner, #CCCCCC next (PictureBackground).
    static func checker(_ x: Int, _ y: Int) -> Int { (x / 8 + y / 8) & 1 == 0 ? 128 : 204 }

    /// Compares the screenshot with straight RGBA `reference` of `width`×`height` composited
    /// over the checkerboard at the centre of the window, and the black page around it; returns
    /// the first problems found.
    static func compare(_ shot: Screenshot, reference: [UInt8], width: Int, height: Int, tolerance: Int) -> [String] {
        // Centred by the page's insets, half-pixel origins rounded up as the renderer places them.
        let x0 = (shot.width - width + 1) / 2, y0 = (shot.height - height + 1) / 2
        var problems: [String] = []
        var wrong = 0
        for y in 0..<height {
            for x in 0..<width {
                let i = 4 * (y * width + x)
                let a = Int(reference[i + 3])
                let under = a == 255 ? 0 : checker(x, y)
                let expected = (0..<3).map { c in (Int(reference[i + c]) * a + under * (255 - a) + 127) / 255 }
                let got = shot.pixel(x0 + x, y0 + y)
                let seen = [Int(got >> 16 & 0xFF), Int(got >> 8 & 0xFF), Int(got & 0xFF)]
                if zip(seen, expected).contains(where: { abs($0 - $1) > tolerance }) {
                    wrong += 1
                    if problems.count < 4 { problems.append("(\(x), \(y)) is \(seen), expected \(expected)") }
                }
            }
        }
        if wrong > problems.count { problems.append("… \(wrong) of \(width * height) pixels differ by more than \(tolerance)") }
        // The page around the picture is black.
        for (x, y) in [(x0 - 1, y0), (x0 + width, y0 + height - 1), (x0, y0 - 1), (x0 + width - 1, y0 + height)]
            where shot.pixel(x, y) & 0xFF_FFFF != 0 {
            problems.append("page pixel (\(x), \(y)) beside the picture is \(hex(shot.pixel(x, y))), expected black")
        }
        return problems
    }
}
