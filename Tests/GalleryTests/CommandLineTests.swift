// The image-viewer program itself, offscreen: paths become pages, a bad file's line goes to
// stderr once, a swipe in a trace turns the page, and bad options are refused clearly.
import CompositorHarness
import Foundation
import Gallery
import Testing
import TestSupport

@Suite("image-viewer command line")
struct CommandLineTests {
    private func viewer() throws -> URL {
        try #require(PackagePaths.builtExecutable("image-viewer"), "image-viewer must be built (swift build --product image-viewer)")
    }

    /// The RGB of pixel (x, y) of a binary PPM.
    private func ppmPixel(_ data: Data, width: Int, _ x: Int, _ y: Int) -> (Int, Int, Int) {
        // Header "P6\n<w> <h>\n255\n": the pixels follow the third newline.
        var newlines = 0, start = 0
        for (i, byte) in data.enumerated() where byte == 0x0A {
            newlines += 1
            if newlines == 3 { start = i + 1; break }
        }
        let o = data.startIndex + start + (y * width + x) * 3
        return (Int(data[o]), Int(data[o + 1]), Int(data[o + 2]))
    }

    @Test("A bad file's line on stderr, its card, and a swipe to the next picture")
    func offscreenGallery() throws {
        let folder = try TemporaryFolder()
        let bad = try folder.write("broken.jpg", [0xFF, 0xD8])
        let trace = try folder.write("swipe.jsonl", Array("""
            {"kind":"setup","viewport":{"width":800,"height":400},"content":{"width":800,"height":400}}
            {"t":100,"kind":"touch.down","id":0,"x":600,"y":200}
            {"t":108,"kind":"touch.motion","id":0,"x":540,"y":200}
            {"t":116,"kind":"touch.motion","id":0,"x":460,"y":200}
            {"t":124,"kind":"touch.motion","id":0,"x":380,"y":200}
            {"t":128,"kind":"touch.up","id":0}
            """.utf8))
        let before = folder.path + "/before.ppm", after = folder.path + "/after.ppm"
        let empty = try folder.write("empty.jsonl", Array(#"{"kind":"setup","viewport":{"width":800,"height":400},"content":{"width":800,"height":400}}"#.utf8))
        let first = try runProcess(try viewer(), ["--offscreen", empty, bad, Assets.sunset, "--screenshot", before])
        #expect(first.status == 0)
        #expect(first.stderr.split(separator: "\n") == ["image-viewer: broken.jpg: truncated file"])
        // The card (100 pt tall, centred) shows its panel colour in its top padding.
        let card = ppmPixel(try Data(contentsOf: URL(fileURLWithPath: before)), width: 800, 400, 160)
        #expect(card == (0x2C, 0x2C, 0x30), "\(card)")
        let second = try runProcess(try viewer(), ["--offscreen", trace, "--stats", bad, Assets.sunset, "--screenshot", after])
        #expect(second.status == 0)
        let lines = second.stderr.split(separator: "\n").map(String.init)
        #expect(lines.first == "image-viewer: broken.jpg: truncated file")
        #expect(lines.count == 2 && lines[1].hasPrefix(#"{"event":"summary","frames":"#), "\(lines)")
        let shot = try Data(contentsOf: URL(fileURLWithPath: after))
        #expect(ppmPixel(shot, width: 800, 101, 1) == (12, 34, 56) && ppmPixel(shot, width: 800, 99, 200) == (0, 0, 0))
    }

    @Test("--demo list offscreen: the first section's header band and the rows' separators where the list puts them")
    func listDemoOffscreen() throws {
        let folder = try TemporaryFolder()
        let trace = try folder.write("still.jsonl", Array(#"{"kind":"setup","viewport":{"width":800,"height":600},"content":{"width":800,"height":600}}"#.utf8))
        let shot = folder.path + "/list.ppm"
        let result = try runProcess(try viewer(), ["--offscreen", trace, "--demo", "list", "--screenshot", shot])
        #expect(result.status == 0 && result.stderr.isEmpty, "\(result.stderr)")
        let data = try Data(contentsOf: URL(fileURLWithPath: shot))
        // The header "A" fills 0..<28 pt in iOS's grouped grey; rows of 56 pt follow, each with
        // a hairline at its bottom from the 16 pt inset; the rows are white.
        #expect(ppmPixel(data, width: 800, 400, 10) == (0xF2, 0xF2, 0xF7))
        for row in 0..<9 {
            let y = 28 + 56 * (row + 1) - 1
            #expect(ppmPixel(data, width: 800, 400, y) == (0xC6, 0xC6, 0xC8), "row \(row)'s separator at y \(y)")
            #expect(ppmPixel(data, width: 800, 8, y) == (255, 255, 255) && ppmPixel(data, width: 800, 400, y - 2) == (255, 255, 255))
        }
    }

    @Test("A truncated picture's stderr line names what is missing, as its banner does; --background white fills its gap")
    func damagedLine() throws {
        let folder = try TemporaryFolder()
        try PillowPictures.make("""
            im = Image.new("RGB", (64, 64), (30, 120, 200))
            im.save(os.path.join(out, "whole.png"), compress_level=0)
            """, in: folder.path)
        let whole = try [UInt8](Data(contentsOf: URL(fileURLWithPath: folder.path + "/whole.png")))
        let cut = try folder.write("cut.png", Array(whole.prefix(whole.count / 2)))
        let empty = try folder.write("empty.jsonl", Array(#"{"kind":"setup","viewport":{"width":400,"height":200},"content":{"width":400,"height":200}}"#.utf8))
        let shot = folder.path + "/shot.ppm"
        let result = try runProcess(try viewer(), ["--offscreen", empty, "--background", "white", cut, "--screenshot", shot])
        #expect(result.status == 0)
        let lines = result.stderr.split(separator: "\n").map(String.init)
        #expect(lines.count == 1 && lines[0].hasPrefix("image-viewer: cut.png: truncated: ") && lines[0].hasSuffix("% of the picture"),
                "\(lines)")
        // 64×64 at 1:1 from (168, 68): its first row decoded, its last one is the white background.
        let data = try Data(contentsOf: URL(fileURLWithPath: shot))
        #expect(ppmPixel(data, width: 400, 170, 68) == (30, 120, 200) && ppmPixel(data, width: 400, 170, 131) == (255, 255, 255))
    }

    @Test("Bad options are refused with a line naming them", arguments: [
        (["--slideshow", "0"], "--slideshow must be"), (["--idle-reset", "nan"], "--idle-reset must be"),
        (["--cache-mb", "100000"], "--cache-mb must be between 1 and 65536"), (["--test-card", "x.png"], "--test-card shows"),
        (["--memory-mb", "16"], "--memory-mb must be between 32 and 65536"),
        (["--memory-mb", "64", "--cache-mb", "40"], "--cache-mb 40 leaves less than 32 MiB of --memory-mb 64 for pictures"),
        (["--screenshot", "x.ppm"], "--screenshot needs --offscreen"),
        (["--demo", "list", "x.png"], "--demo list shows generated content"),
        (["--demo", "list", "--test-card"], "--demo list and --test-card are two different scenes"),
        (["--show-info", "--demo", "list"], "--show-info shows information about pictures"),
        (["--demo", "grid"], "The value 'grid' is invalid for '--demo <name>'"),
        (["--background", "grey"], "--background must be checker, black, white or #rrggbb (six hex digits, e.g. #1e1e1e), not 'grey'"),
        (["--background", "#12345"], "--background must be checker, black, white or #rrggbb"),
        (["--background", ""], "--background must be checker, black, white or #rrggbb"),
    ])
    func badOptions(arguments: [String], message: String) throws {
        let result = try runProcess(try viewer(), arguments, environment: [:])
        #expect(result.status == 64)
        #expect(result.stderr.contains("Error: \(message)"), "\(result.stderr)")
    }

    @Test("--version and --help")
    func versionAndHelp() throws {
        #expect(try runProcess(try viewer(), ["--version"]).stdout == "0.2.0\n")
        let help = try runProcess(try viewer(), ["--help"]).stdout
        for option in ["--fullscreen", "--kiosk", "--slideshow", "--idle-reset", "--memory-mb", "--cache-mb", "--stats", "--demo",
                       "--show-info", "<path>", "--background", "--upscale"] {
            #expect(help.contains(option), "\(option) missing from --help")
        }
        // The keys, from the key table: each row's keys and words (the help wraps long lines).
        let words = help.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        for line in GalleryKeyBindings.helpText(in: GalleryKeyBindings.Context(isKiosk: false)).split(separator: "\n") {
            let row = line.split(whereSeparator: \.isWhitespace).joined(separator: " ")
            #expect(words.contains(row), "--help lacks the key row \"\(row)\"")
        }
    }
}
