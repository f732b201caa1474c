// The programs' files without a compositor: --record and --screenshot never overwrite or follow a
// link, names that are not UTF-8 open, an offscreen run's work is bounded, and pictures-bench
// keeps its scratch files where nobody can plant a link.
import CompositorHarness
import Foundation
import Glibc
import SafeOutput
import Testing
import TestSupport

private func viewer() throws -> URL {
    try #require(PackagePaths.builtExecutable("image-viewer"), "image-viewer was not built beside the tests")
}

/// This process's environment without a compositor: the viewer must refuse before connecting.
private var noCompositor: [String: String] {
    var environment = ProcessInfo.processInfo.environment
    environment["WAYLAND_DISPLAY"] = nil
    environment["WAYLAND_SOCKET"] = nil
    return environment
}

private let oneMotion = """
    {"kind":"setup","viewport":{"width":320,"height":240},"content":{"width":320,"height":240}}
    {"t":0,"kind":"pointer.motion","x":10,"y":10}
    """

@Suite("Viewer files without a compositor", .timeLimit(.minutes(2)), .ownThreads)
struct ViewerFileSafetyTests {
    @Test("--record refuses the picture being shown, a symbolic link even with --force, and a FIFO at once")
    func recordRefuses() throws {
        let folder = try PrivateFolder(prefix: "viewer-record")
        let picture = folder.appending("pic.png")
        let original = try Data(contentsOf: URL(fileURLWithPath: DecodedImage.assetPath(sunsetAsset)))
        try original.write(to: URL(fileURLWithPath: picture))
        let same = try runProcess(try viewer(), ["--record", picture, picture], environment: noCompositor)
        #expect(same.status == 1)
        #expect(same.stderr == "image-viewer: --record: \(picture) already exists; name a new file, or add --force to replace it\n")
        #expect(try Data(contentsOf: URL(fileURLWithPath: picture)) == original, "the picture is untouched")

        let link = folder.appending("link.trace")
        #expect(symlink(picture, link) == 0)
        let linked = try runProcess(try viewer(), ["--force", "--record", link, picture], environment: noCompositor)
        #expect(linked.status == 1 && linked.stderr.contains("is a symbolic link (never followed)"), "\(linked.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: picture)) == original)

        let fifo = folder.appending("fifo.trace")
        #expect(mkfifo(fifo, 0o600) == 0)
        let piped = try runProcess(try viewer(), ["--force", "--record", fifo, picture], environment: noCompositor)
        #expect(piped.status == 1 && piped.stderr.contains("is not a regular file"), "\(piped.stderr)")
    }

    @Test("--screenshot refuses an existing file without --force and a symbolic link always; with --force it replaces a file")
    func screenshotRefuses() throws {
        let folder = try PrivateFolder(prefix: "viewer-shot")
        let trace = folder.appending("t.jsonl"), shot = folder.appending("shot.ppm"), victim = folder.appending("victim")
        try oneMotion.write(toFile: trace, atomically: false, encoding: .utf8)
        try "keep me".write(toFile: shot, atomically: false, encoding: .utf8)
        try "keep me".write(toFile: victim, atomically: false, encoding: .utf8)
        let refused = try runProcess(try viewer(), ["--offscreen", trace, "--screenshot", shot, "--test-card"])
        #expect(refused.status == 1 && refused.stderr.contains("already exists"), "\(refused.stderr)")
        #expect(try String(contentsOfFile: shot, encoding: .utf8) == "keep me")
        let link = folder.appending("link.ppm")
        #expect(symlink(victim, link) == 0)
        let linked = try runProcess(try viewer(), ["--offscreen", trace, "--screenshot", link, "--test-card", "--force"])
        #expect(linked.status == 1 && linked.stderr.contains("symbolic link"), "\(linked.stderr)")
        #expect(try String(contentsOfFile: victim, encoding: .utf8) == "keep me")
        let replaced = try runProcess(try viewer(), ["--offscreen", trace, "--screenshot", shot, "--test-card", "--force"])
        #expect(replaced.status == 0, "\(replaced.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: shot)).starts(with: Array("P6\n320 240\n255\n".utf8)))
    }

    @Test("A picture whose name is not UTF-8 opens, and a bad one is named with its bytes escaped")
    func rawNameOpens() throws {
        let folder = try PrivateFolder(prefix: "viewer-names")
        let trace = folder.appending("t.jsonl")
        try oneMotion.write(toFile: trace, atomically: false, encoding: .utf8)
        let sunset = try Data(contentsOf: URL(fileURLWithPath: DecodedImage.assetPath(sunsetAsset)))
        // The same picture under a UTF-8 name and a Latin-1 one: both screenshots must match.
        try sunset.write(to: URL(fileURLWithPath: folder.appending("plain.png")))
        let latin1 = RawPath(folder.path).appending(Array("caf".utf8) + [0xE9] + Array(".png".utf8))
        let fd = latin1.withCString { open($0, O_WRONLY | O_CREAT | O_EXCL, 0o600) }
        #expect(fd >= 0)
        #expect(Array(sunset).withUnsafeBytes { write(fd, $0.baseAddress!, $0.count) } == sunset.count)
        close(fd)
        // Passed as raw bytes through a shell, as a user's shell passes them.
        let result = try runProcess(URL(fileURLWithPath: "/bin/bash"), ["-c", #"""
            "$0" --offscreen "$1" --screenshot "$2/raw.ppm" "$2/caf"$'\xe9'".png" &&
            "$0" --offscreen "$1" --screenshot "$2/plain.ppm" "$2/plain.png" &&
            printf 'x' >"$2/bad"$'\xff\e'"[31m.png" &&
            "$0" --offscreen "$1" "$2/bad"$'\xff\e'"[31m.png"
            """#, try viewer().path, trace, folder.path])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: folder.appending("raw.ppm")))
                == Data(contentsOf: URL(fileURLWithPath: folder.appending("plain.ppm"))), "the Latin-1 name shows the picture")
        #expect(result.stderr == "image-viewer: bad\\xFF\\x1B[31m.png: not an image\n")
    }

    @Test("An offscreen day of 50 ms slides stops at the load limit with status 3 instead of running for hours")
    func offscreenBounded() throws {
        let folder = try PrivateFolder(prefix: "viewer-bounded")
        let mosaic = try Data(contentsOf: URL(fileURLWithPath: DecodedImage.assetPath("03-mosaic-palette.png")))
        for i in 1...6 { try mosaic.write(to: URL(fileURLWithPath: folder.appending("\(i).png"))) }
        let trace = folder.appending("day.jsonl")
        try """
            {"kind":"setup","viewport":{"width":160,"height":120},"content":{"width":160,"height":120}}
            {"t":0,"kind":"pointer.motion","x":10,"y":10}
            {"t":86400000,"kind":"pointer.motion","x":20,"y":10}
            """.write(toFile: trace, atomically: false, encoding: .utf8)
        let result = try runProcess(try viewer(), ["--offscreen", trace, "--slideshow", "0.05", folder.path])
        #expect(result.status == 3, "\(result.stderr)")
        #expect(result.stderr.contains("--offscreen is limited to 50 picture loads"), "\(result.stderr)")
    }

    @Test("pictures-bench writes into a folder of its own, never through a link planted at a predictable name")
    func benchScratchFolder() throws {
        let tmp = try PrivateFolder(prefix: "bench-tmp")
        let victim = try PrivateFolder(prefix: "bench-victim")
        let bench = try #require(PackagePaths.builtExecutable("pictures-bench"), "pictures-bench was not built beside the tests")
        var environment = ProcessInfo.processInfo.environment
        environment["TMPDIR"] = tmp.path
        // exec keeps the shell's pid, so the link is planted at exactly the name a pid-named
        // folder would have.
        let result = try runProcess(URL(fileURLWithPath: "/bin/sh"), ["-c", #"""
            ln -s "$1" "$TMPDIR/pictures-bench-$$" && exec "$0" --in-process-only --width 64 --height 48
            """#, bench.path, victim.path], environment: environment)
        #expect(result.status == 0 || result.status == 2, "stderr: \(result.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: victim.path).isEmpty, "nothing written through the link")
    }
}
