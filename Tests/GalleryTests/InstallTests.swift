// Scripts/install.sh: the built programs, the pictures, a valid .desktop file with the MIME types
// of every format the viewer opens, and the icon installed into a temporary prefix; the
// installed viewer runs and finds its pictures; --uninstall leaves the prefix as it was.
import CompositorHarness
import Foundation
import Testing
import TestSupport

@Suite("Install script", .timeLimit(.minutes(2)))
struct InstallTests {
    /// Every file and folder below `folder`, relative to it, sorted.
    private func tree(_ folder: String) -> [String] {
        ((FileManager.default.enumerator(atPath: folder)?.allObjects as? [String]) ?? []).sorted()
    }

    /// The width and height a PNG's IHDR declares.
    private func pngSize(_ path: String) throws -> (Int, Int) {
        let b = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)).prefix(24))
        func be32(_ o: Int) -> Int { Int(b[o]) << 24 | Int(b[o + 1]) << 16 | Int(b[o + 2]) << 8 | Int(b[o + 3]) }
        return (be32(16), be32(20))
    }

    @Test("Installs into a prefix, validates the .desktop file, runs the installed viewer, and uninstalls leaving nothing")
    func installAndUninstall() throws {
        let script = PackagePaths.packageRoot().appendingPathComponent("Scripts/install.sh")
        let viewer = try #require(PackagePaths.builtExecutable("image-viewer"), "image-viewer must be built")
        let built = viewer.deletingLastPathComponent().path
        let folder = try TemporaryFolder()
        // A prefix with a space in it: the Exec line must quote it.
        let prefix = folder.path + "/my prefix"
        try FileManager.default.createDirectory(atPath: prefix, withIntermediateDirectories: false)

        let install = try runProcess(script, ["--prefix", prefix, "--from", built])
        #expect(install.status == 0, "\(install.stdout)\(install.stderr)")
        let app = "org.scrollkit.ImageViewer"
        let desktop = prefix + "/share/applications/\(app).desktop"
        for file in ["bin/image-viewer", "bin/scroll-replay", "share/scrollkit/Assets/01-sunset.png",
                     "share/icons/hicolor/scalable/apps/\(app).svg"] {
            #expect(FileManager.default.fileExists(atPath: prefix + "/" + file), "\(file) missing")
        }

        // desktop-file-validate is silent and succeeds on a valid file.
        let validation = try runProcess(URL(fileURLWithPath: "/usr/bin/desktop-file-validate"), [desktop])
        #expect(validation.status == 0 && validation.stdout.isEmpty, "\(validation.stdout)\(validation.stderr)")
        let entry = try String(contentsOfFile: desktop, encoding: .utf8).split(separator: "\n")
        #expect(entry.contains("Exec=\"\(prefix)/bin/image-viewer\" %F"), "\(entry)")
        let mime = Set((entry.first { $0.hasPrefix("MimeType=") } ?? "").dropFirst("MimeType=".count).split(separator: ";").map(String.init))
        let formats = ["image/png", "image/jpeg", "image/webp", "image/gif", "image/tiff", "image/heic", "image/heif",
                       "image/avif", "image/jxl", "image/svg+xml", "image/bmp"]
        #expect(mime == Set(formats), "\(mime.symmetricDifference(formats))")
        // "Open with" finds it through the MIME cache.
        let cache = try String(contentsOfFile: prefix + "/share/applications/mimeinfo.cache", encoding: .utf8)
        #expect(cache.contains("image/jxl=\(app).desktop;"), "\(cache)")
        for size in [16, 24, 32, 48, 64, 128, 256, 512] {
            #expect(try pngSize(prefix + "/share/icons/hicolor/\(size)x\(size)/apps/\(app).png") == (size, size))
        }

        // The installed viewer runs, and without a path shows the installed pictures.
        let help = try runProcess(URL(fileURLWithPath: prefix + "/bin/image-viewer"), ["--help"], environment: [:])
        #expect(help.status == 0 && help.stdout.contains("USAGE: image-viewer"))
        let trace = try folder.write("t.jsonl", Array(#"{"kind":"setup","viewport":{"width":300,"height":200},"content":{"width":300,"height":200}}"#.utf8))
        let shot = folder.path + "/shot.ppm"
        let run = try runProcess(URL(fileURLWithPath: prefix + "/bin/image-viewer"), ["--offscreen", trace, "--screenshot", shot],
                                 environment: [:])
        #expect(run.status == 0 && run.stderr.isEmpty, "\(run.stderr)")
        // The sunset fitted: 300×200, its top-left block (12, 34, 56).
        let pixels = [UInt8](try Data(contentsOf: URL(fileURLWithPath: shot)))
        let header = "P6\n300 200\n255\n".utf8.count
        #expect(Array(pixels[header..<(header + 3)]) == [12, 34, 56])

        let uninstall = try runProcess(script, ["--prefix", prefix, "--uninstall"])
        #expect(uninstall.status == 0, "\(uninstall.stderr)")
        #expect(tree(prefix).isEmpty, "left behind: \(tree(prefix))")
    }

    @Test("A manifest naming a file outside the prefix cannot make --uninstall remove it")
    func tamperedManifest() throws {
        let script = PackagePaths.packageRoot().appendingPathComponent("Scripts/install.sh")
        let folder = try TemporaryFolder()
        let prefix = folder.path + "/prefix"
        let victim = try folder.write("victim", [1, 2, 3])
        try FileManager.default.createDirectory(atPath: prefix + "/share/scrollkit", withIntermediateDirectories: true)
        try Data("f \(victim)\nf \(prefix)/../victim\nd \(prefix)/share/scrollkit\n".utf8)
            .write(to: URL(fileURLWithPath: prefix + "/share/scrollkit/install-manifest"))
        let result = try runProcess(script, ["--prefix", prefix, "--uninstall"])
        #expect(result.status == 0)
        #expect(FileManager.default.fileExists(atPath: victim))
        #expect(result.stderr.split(separator: "\n").count == 2, "\(result.stderr)")
        #expect(tree(prefix) == ["share"])
    }
}
