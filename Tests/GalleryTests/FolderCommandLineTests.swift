// The folder options of the image-viewer program itself, offscreen: one file opens among its
// folder's pictures, --sort and --reverse, --wrap, `-` with lists, -0 and a picture, names that
// are not UTF-8, and the options refused.
import CompositorHarness
import Foundation
import Testing
import TestSupport

@Suite("image-viewer folders on the command line")
struct FolderCommandLineTests {
    private func viewer() throws -> URL {
        try #require(PackagePaths.builtExecutable("image-viewer"), "image-viewer must be built (swift build --product image-viewer)")
    }

    /// A folder with three solid 80×40 pictures whose sizes differ: 1-red (largest), 2-green
    /// (smallest), 3-blue; and traces of no input and of keys.
    private final class Fixture {
        let folder: TemporaryFolder
        init() throws {
            folder = try TemporaryFolder()
            // Noise makes a stored-block PNG no larger, so sizes are set by appending bytes
            // after IEND, which decoders ignore.
            let colours: [(String, UInt32, Int)] = [("1-red.png", 0xFF0000, 3000), ("2-green.png", 0x00FF00, 0),
                                                    ("3-blue.png", 0x0000FF, 1000)]
            for (name, rgb, padding) in colours {
                var data = pngData(width: 80, height: 40) { _, _ in rgb }
                data.append(Data(count: padding))
                try data.write(to: URL(fileURLWithPath: folder.path + "/" + name))
            }
        }

        /// A trace pressing `keys` half a second apart (none: just the first frame).
        func trace(_ keys: [String] = []) throws -> String {
            var lines = [#"{"kind":"setup","viewport":{"width":800,"height":400},"content":{"width":800,"height":400}}"#]
            for (i, key) in keys.enumerated() {
                lines.append(#"{"t":\#(100 + 500 * i),"kind":"key","key":"\#(key)","state":"pressed"}"#)
                lines.append(#"{"t":\#(150 + 500 * i),"kind":"key","key":"\#(key)","state":"released"}"#)
            }
            return try folder.write("keys-\(keys.joined(separator: "-")).jsonl", Array(lines.joined(separator: "\n").utf8))
        }

        var shot: String { folder.path + "/shot-\(UUID().uuidString).ppm" }
    }

    /// The RGB in the middle of a binary PPM of 800×400.
    private func middle(_ path: String) throws -> (Int, Int, Int) {
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        var newlines = 0, start = 0
        for (i, byte) in data.enumerated() where byte == 0x0A {
            newlines += 1
            if newlines == 3 { start = i + 1; break }
        }
        let o = data.startIndex + start + (200 * 800 + 400) * 3
        return (Int(data[o]), Int(data[o + 1]), Int(data[o + 2]))
    }

    /// Runs the viewer through /bin/sh, for standard input and file names that are not UTF-8
    /// (Process takes arguments as Strings).
    private func shell(_ script: String, _ arguments: [String]) throws -> ProcessResult {
        try runProcess(URL(fileURLWithPath: "/bin/sh"), ["-c", script, try viewer().path] + arguments)
    }

    @Test("One file opens on its own page among its folder's pictures: Left shows the one before")
    func singleFile() throws {
        let f = try Fixture()
        let shot = f.shot, left = f.shot
        #expect(try runProcess(try viewer(), ["--offscreen", try f.trace(), f.folder.path + "/2-green.png", "--screenshot", shot]).status == 0)
        #expect(try middle(shot) == (0, 255, 0))
        #expect(try runProcess(try viewer(), ["--offscreen", try f.trace(["Left"]), f.folder.path + "/2-green.png", "--screenshot", left]).status == 0)
        #expect(try middle(left) == (255, 0, 0))
    }

    @Test("--sort size --reverse opens on the largest, --sort size on the smallest")
    func sortBySize() throws {
        let f = try Fixture()
        let largest = f.shot, smallest = f.shot
        let first = try runProcess(try viewer(), ["--offscreen", try f.trace(), "--sort", "size", "--reverse", f.folder.path, "--screenshot", largest])
        #expect(first.status == 0, "\(first.stderr)")
        #expect(try middle(largest) == (255, 0, 0))
        #expect(try runProcess(try viewer(), ["--offscreen", try f.trace(), "--sort=size", f.folder.path, "--screenshot", smallest]).status == 0)
        #expect(try middle(smallest) == (0, 255, 0))
        let bad = try runProcess(try viewer(), ["--sort", "colour", f.folder.path])
        #expect(bad.status == 64 && bad.stderr.contains("colour"), "\(bad.stderr)")
    }

    @Test("--wrap: Right on the last picture shows the first; without it the last stays")
    func wrap() throws {
        let f = try Fixture()
        let wrapped = f.shot, stopped = f.shot
        #expect(try runProcess(try viewer(), ["--offscreen", try f.trace(["End", "Right"]), "--wrap", f.folder.path, "--screenshot", wrapped]).status == 0)
        #expect(try middle(wrapped) == (255, 0, 0))
        #expect(try runProcess(try viewer(), ["--offscreen", try f.trace(["End", "Right"]), f.folder.path, "--screenshot", stopped]).status == 0)
        #expect(try middle(stopped) == (0, 0, 255))
    }

    @Test("- reads a list of paths (newlines, or NULs with -0), or a picture's bytes")
    func standardInput() throws {
        let f = try Fixture()
        let listed = f.shot, nul = f.shot, picture = f.shot
        // The list names the blue one, then one that does not exist: shown as given, blue first.
        let list = try f.folder.write("list.txt", Array("\(f.folder.path)/3-blue.png\n\(f.folder.path)/nope.png\n".utf8))
        let run = try shell(#""$0" --offscreen "$1" - --screenshot "$2" < "$3""#, [try f.trace(), listed, list])
        // The second page is loaded as the first one's neighbour: its line is printed.
        #expect(run.status == 0 && run.stderr == "image-viewer: nope.png: cannot read: No such file or directory\n", "\(run.stderr)")
        #expect(try middle(listed) == (0, 0, 255))
        let nulList = try f.folder.write("list0", Array("\(f.folder.path)/2-green.png\0".utf8))
        #expect(try shell(#""$0" --offscreen "$1" -0 - --screenshot "$2" < "$3""#, [try f.trace(), nul, nulList]).status == 0)
        #expect(try middle(nul) == (0, 255, 0))
        let viaPipe = try shell(#"cat "$3" | "$0" --offscreen "$1" - --screenshot "$2""#,
                                [try f.trace(), picture, f.folder.path + "/1-red.png"])
        #expect(viaPipe.status == 0 && viaPipe.stderr == "", "\(viaPipe.stderr)")
        #expect(try middle(picture) == (255, 0, 0))
    }

    @Test("A picture on standard input that is not one says so under the name stdin")
    func brokenPictureOnStandardInput() throws {
        let f = try Fixture()
        let truncated = try f.folder.write("cut.png", Array(try Data(contentsOf: URL(fileURLWithPath: f.folder.path + "/1-red.png")).prefix(60)))
        let run = try shell(#""$0" --offscreen "$1" - < "$2""#, [try f.trace(), truncated])
        #expect(run.status == 0)
        #expect(run.stderr.hasPrefix("image-viewer: stdin: "), "\(run.stderr)")
    }

    @Test("A file whose name is not UTF-8, named alone, opens among its folder's pictures; messages escape the name")
    func rawName() throws {
        let f = try Fixture()
        // caf\351.png (Latin-1 é) sorts after 3-blue: it is the last page, and Left shows blue.
        let shot = f.shot
        let copy = try shell(#"cp "$1/1-red.png" "$1/$(printf 'caf\351.png')""#, [f.folder.path])
        #expect(copy.status == 0, "\(copy.stderr)")
        let run = try shell(#""$0" --offscreen "$1" --screenshot "$2" "$3/$(printf 'caf\351.png')""#,
                            [try f.trace(["Left"]), shot, f.folder.path])
        #expect(run.status == 0 && run.stderr == "", "\(run.stderr)")
        #expect(try middle(shot) == (0, 0, 255))
        // A broken one is named escaped, with no raw byte on stderr.
        let broken = try shell(#"printf 'x' > "$1/$(printf 'bad\351\033[31m.png')" && "$0" --offscreen "$2" "$1/$(printf 'bad\351\033[31m.png')""#,
                               [f.folder.path, try f.trace()])
        #expect(broken.stderr.contains(#"image-viewer: bad\xE9\x1B[31m.png: "#), "\(broken.stderr)")
    }

    @Test("- and -0 are refused when they cannot mean anything", arguments: [
        (["-0", "x.png"], "-0 says how the paths on standard input are separated: give - too"),
        (["-", "-"], "- (standard input) can be given once"),
    ])
    func refused(arguments: [String], message: String) throws {
        let result = try runProcess(try viewer(), arguments, environment: [:])
        #expect(result.status == 64)
        #expect(result.stderr.contains("Error: \(message)"), "\(result.stderr)")
    }

    @Test("--help names the folder options and the turn keys")
    func help() throws {
        let help = try runProcess(try viewer(), ["--help"]).stdout
        for text in ["--recursive", "--sort", "--reverse", "--wrap", "-0"] {
            #expect(help.contains(text), "\(text) missing from --help")
        }
        // The key list is generated from the gallery's key table: one row per command.
        let rows = help.split(separator: "\n").map { $0.split(separator: " ").joined(separator: " ") }
        for row in ["[ F5 Turn a quarter anticlockwise", "] F6 Turn a quarter clockwise",
                    "F7 Flip top to bottom", "F8 Flip left to right"] {
            #expect(rows.contains(row), "the row '\(row)' missing from --help")
        }
    }
}
