// The viewer's first frames under sway, read from its protocol log: the window maps with a
// buffer of its own size, and the first buffer of the size sway tiles it at shows the picture
// (the black page drawn while the picture decodes is kept back, see the Wayland window's
// ContentWait).
import CompositorHarness
import Foundation
import Testing
import TestSupport

/// What a `WAYLAND_DEBUG=client` log of the viewer (with `--stats`) says about its window's
/// first frames.
private struct WindowLog {
    /// One commit of the window's surface with a buffer attached.
    struct Commit: CustomStringConvertible {
        /// libwayland's stamp, in ms.
        var ms: Double
        var width: Int, height: Int
        /// Whether the first-frame line follows this commit (it is the first to show content).
        var showsContent: Bool
        /// The viewport's destination in points when it was made (nil: unset).
        var destination: (width: Int, height: Int)?
        var description: String {
            "\(width)×\(height)\(destination.map { " shown at \($0.width)×\($0.height)" } ?? "") at \(ms) ms\(showsContent ? " with content" : "")"
        }
        /// The size it shows at in points (at scale 1): the viewport's destination, or the buffer's.
        var shown: (width: Int, height: Int) { destination ?? (width, height) }
    }

    private(set) var commits: [Commit] = []
    /// The sizes of the buffers attached to other surfaces (a still frame's picture), in order;
    /// 0×0 when one was emptied.
    private(set) var pictures: [(width: Int, height: Int)] = []
    /// The size of every buffer made, in order.
    private(set) var made: [(width: Int, height: Int)] = []
    /// When the toplevel was configured at a size the compositor chose, by size (the first time).
    private(set) var configured: [String: Double] = [:]

    init(_ lines: [String]) {
        var surface: String?, toplevel: String?, pictureSurface: String?
        var sizes: [String: (Int, Int)] = [:]
        var attached: (Int, Int)?
        var destination: (width: Int, height: Int)?
        for line in lines {
            if isStats(line, "first-frame"), !commits.isEmpty { commits[commits.count - 1].showsContent = true }
            guard line.hasPrefix("["), let close = line.firstIndex(of: "]") else { continue }
            let stamp = line[line.index(after: line.startIndex)..<close].trimmingCharacters(in: .whitespaces)
            guard let ms = Double(stamp) else { continue }
            let message = line[line.index(after: close)...].trimmingCharacters(in: .whitespaces)
            let request = message.hasPrefix("-> ")
            let call = request ? String(message.dropFirst(3)) : message
            guard let open = call.firstIndex(of: "("), let dot = call[..<open].lastIndex(of: ".") else { continue }
            let object = String(call[..<dot]), name = String(call[call.index(after: dot)..<open])
            let arguments = call[call.index(after: open)...].dropLast().split(separator: ",")
                .map { $0.trimmingCharacters(in: .whitespaces) }
            func objects(_ prefix: String) -> [String] {
                arguments.compactMap { argument in
                    argument.split(separator: " ").last.map(String.init).flatMap { $0.hasPrefix(prefix) ? $0 : nil }
                }
            }
            switch (request, name) {
            case (true, "get_xdg_surface"): surface = objects("wl_surface@").first
            case (true, "get_toplevel"): toplevel = objects("xdg_toplevel@").first
            case (true, "create_buffer"):
                if let buffer = objects("wl_buffer@").first, arguments.count >= 4, let w = Int(arguments[2]), let h = Int(arguments[3]) {
                    sizes[buffer] = (w, h)
                    made.append((w, h))
                }
            case (true, "attach") where object == surface: attached = objects("wl_buffer@").first.flatMap { sizes[$0] }
            case (true, "get_subsurface"):
                // (new subsurface, its surface, the parent): the still frames' picture surface.
                let surfaces = objects("wl_surface@")
                if surfaces.count == 2, surfaces[1] == surface { pictureSurface = surfaces[0] }
            case (true, "attach") where object == pictureSurface:
                pictures.append(objects("wl_buffer@").first.flatMap { sizes[$0] } ?? (0, 0))
            case (true, "commit") where object == surface:
                if let (w, h) = attached {
                    commits.append(Commit(ms: ms, width: w, height: h, showsContent: false, destination: destination))
                }
                attached = nil
            case (true, "set_destination") where object.hasPrefix("wp_viewport@"):
                // −1, −1 unsets it.
                if arguments.count == 2, let w = Int(arguments[0]), let h = Int(arguments[1]) {
                    destination = w > 0 && h > 0 ? (w, h) : nil
                }
            case (false, "configure") where object == toplevel:
                if arguments.count >= 2, let w = Int(arguments[0]), let h = Int(arguments[1]), w > 0, h > 0,
                   configured["\(w)×\(h)"] == nil {
                    configured["\(w)×\(h)"] = ms
                }
            default: break
            }
        }
    }
}

/// 100 ms: how long the window keeps a placeholder back at most (`ContentWait.maxWait`).
private let contentWaitMs = 100.0

@Suite("The first frames under sway", .timeLimit(.minutes(2)), .ownThreads)
struct FirstFrameLiveTests {
    @Test("Tiled at 1024×768 while its picture decodes, the window maps at 800×600 and its first 1024×768 buffer shows the picture, unless the decode outlasted the 100 ms wait")
    func firstTiledBufferShowsPicture() throws {
        let sway = try SwayHeadless(width: 1024, height: 768)
        defer { sway.stop() }
        var environment = sway.clientEnvironment
        environment["WAYLAND_DEBUG"] = "client"  // libwayland logs every request and event on stderr
        let viewer = try ClientProcess("image-viewer", [DecodedImage.assetPath(sunsetAsset), "--stats"], environment: environment)
        defer { viewer.terminate() }
        let first = statsFields(try viewer.waitForStderr(timeout: 30) { isStats($0, "first-frame") })
        #expect(first["width"] == 1024 && first["height"] == 768, "first frame \(first)")
        let log = WindowLog(viewer.stderr.lines)
        // sway's first configure is 0×0: the window maps at its own default size (the black page
        // a still frame: a small buffer a viewport shows at that size).
        let mapping = try #require(log.commits.first, "no commit with a buffer")
        #expect(mapping.shown == (800, 600), "\(log.commits)")
        let configured = try #require(log.configured["1024×768"], "sway never tiled the window at 1024×768")
        let tiled = try #require(log.commits.first { $0.shown == (1024, 768) }, "\(log.commits)")
        // A busy machine may decode for longer than the wait: then the black page is committed
        // when the wait ends, never before.
        #expect(tiled.showsContent || tiled.ms - configured >= contentWaitMs,
                "the first 1024×768 buffer, \(tiled.ms - configured) ms after the configure, shows no picture: \(log.commits)")
        // What the user sees: the picture, fitted.
        let sunset = try DecodedImage.asset(sunsetAsset)
        let fit = Placement.fit(sunset, width: 1024, height: 768)
        let (problems, _) = try awaitShot(timeout: 10, sway.screenshot) { placementProblems($0, sunset, fit, points: coarseGrid) }
        #expect(problems.isEmpty, "\(fit): \(problems)")
    }

    /// A 2000×1000 drawing: top, the left half blue, the right half yellow, a 4-pixel white bar
    /// at x 998…1001; below, 1200 translucent circles, so that librsvg takes far longer for the
    /// drawing than for its quick rendition, which shows first. `translucentLeft` makes the blue
    /// half translucent, so that nothing of it shows as a still frame over the checkerboard.
    /// Alone in a folder of its own (no neighbours to load); remove the file's folder after.
    static func drawing(translucentLeft: Bool) throws -> String {
        var svg = ##"<svg xmlns="http://www.w3.org/2000/svg" width="2000" height="1000">"##
            + ##"<rect width="1000" height="1000" fill="#2040c0" fill-opacity="\##(translucentLeft ? "0.5" : "1")"/>"##
            + ##"<rect x="1000" width="1000" height="1000" fill="#e0c020"/><rect x="998" width="4" height="1000" fill="#ffffff"/>"##
        for i in 0..<1200 {
            let fill = i % 2 == 0 ? "c03020" : "20a040"
            svg += ##"<circle cx="\##(i * 37 % 2000)" cy="\##(600 + i * 53 % 380)" r="40" fill="#\##(fill)" fill-opacity="0.4"/>"##
        }
        svg += "</svg>"
        let folder = URL(fileURLWithPath: NSTemporaryDirectory())
            .appendingPathComponent("scrollkit-\(getpid())-\(translucentLeft ? "translucent" : "opaque")")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: false)
        let path = folder.appendingPathComponent("drawing.svg").path
        try Data(svg.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// The drawing's middle on screen at 1920×1080 (fitted at 0.96, its 960 rows from y 60):
    /// what differs from `colours`, each (x, y, 0xRRGGBB).
    static func problems(_ shot: Screenshot, _ colours: [(Int, Int, Int)]) -> [String] {
        colours.compactMap { x, y, colour in
            let pixel = shot.pixel(x, y) & 0xFF_FFFF
            return pixel == UInt32(colour) ? nil : "(\(x), \(y)) is \(String(pixel, radix: 16)), not \(String(colour, radix: 16))"
        }
    }

    /// The drawing (`drawing`) shown by `image-viewer --stats` under sway at 1920×1080 with
    /// `WAYLAND_DEBUG`, once its first frame is committed; the caller stops both and removes the
    /// drawing's folder.
    static func showDrawing(translucentLeft: Bool) throws -> (path: String, sway: SwayHeadless, viewer: ClientProcess) {
        let path = try drawing(translucentLeft: translucentLeft)
        var sway: SwayHeadless?
        do {
            let started = try SwayHeadless(width: 1920, height: 1080)
            sway = started
            var environment = started.clientEnvironment
            environment["WAYLAND_DEBUG"] = "client"
            let viewer = try ClientProcess("image-viewer", [path, "--stats"], environment: environment)
            _ = try viewer.waitForStderr(timeout: 30) { isStats($0, "first-frame") }
            return (path, started, viewer)
        } catch {
            sway?.stop()
            try? FileManager.default.removeItem(atPath: (path as NSString).deletingLastPathComponent)
            throw error
        }
    }

    @Test("An opaque drawing at rest is a still frame: its quick rendition, then the drawing, shown from their own memory in a subsurface over a small buffer of the black page, with no buffer of the window's size; a double click on it zooms in, drawn again")
    func drawingShownStill() throws {
        let (path, sway, viewer) = try Self.showDrawing(translucentLeft: false)
        defer {
            viewer.terminate()
            sway.stop()
            try? FileManager.default.removeItem(atPath: (path as NSString).deletingLastPathComponent)
        }
        // Sharp on screen: both middle columns of the bar white (x 958.08…961.92 at 0.96), the
        // halves their colours, the page black above the drawing.
        let fitted = [(959, 300, 0xFFFFFF), (960, 300, 0xFFFFFF), (480, 300, 0x2040C0), (1440, 300, 0xE0C020), (960, 30, 0)]
        var (problems, _) = try awaitShot(timeout: 15, sway.screenshot) { Self.problems($0, fitted) }
        #expect(problems.isEmpty, "\(problems)")
        _ = try viewer.waitForStderr(timeout: 15) { isStats($0, "frame") && statsFields($0)["width"] == 1920 && statsFields($0)["still"] == 1 }
        var log = WindowLog(viewer.stderr.lines)
        // The pictures: the quick rendition (0.25: 500×250), then the drawing at the fit.
        #expect(log.pictures.count == 2 && log.pictures.first.map { $0 == (500, 250) } == true
                    && log.pictures.last.map { $0 == (1920, 960) } == true, "\(log.pictures)")
        // The window's own buffers: small ones a viewport shows at its size, never its size.
        #expect(!log.made.contains { $0.width * $0.height >= 800 * 600 && $0 != (1920, 960) }, "buffers made: \(log.made)")
        #expect(log.commits.allSatisfy { $0.destination != nil && $0.width * $0.height < 200 * 100 }, "\(log.commits)")
        let stills = viewer.stderr.lines.filter { isStats($0, "frame") && statsFields($0)["still"] == 1 }
        #expect(stills.count >= 2 && !viewer.stderr.lines.contains { isStats($0, "frame") && statsFields($0)["halved"] == 1 },
                "\(stills)")

        // A double click on the picture (the subsurface takes no input: the window gets it)
        // zooms in about the bar: drawn frames of the window's size, the subsurface emptied.
        let inject = try Injector(environment: sway.clientEnvironment, options: ["--extent", "1920x1080"])
        defer { inject.stop() }
        for line in ["sleep 100", "abs 960 300", "sleep 50", "button left press", "button left release", "sleep 80",
                     "button left press", "button left release"] {
            inject.send(line)
        }
        try inject.sync()
        // Zoomed to at least 1: the bar covers x 958…961 whole (960 ± 2 × the scale), below the
        // pointer (which grim draws).
        (problems, _) = try awaitShot(timeout: 15, sway.screenshot) { Self.problems($0, [(958, 500, 0xFFFFFF), (961, 500, 0xFFFFFF)]) }
        #expect(problems.isEmpty, "after the double click: \(problems)")
        log = WindowLog(viewer.stderr.lines)
        #expect(log.commits.last.map { $0.width == 1920 && $0.height == 1080 && $0.destination == nil } == true,
                "\(String(describing: log.commits.last))")
        #expect(log.pictures.last.map { $0 == (0, 0) } == true, "the subsurface emptied: \(log.pictures)")

        // Another double click zooms back out: at rest at the fit, the drawing is still again.
        for line in ["button left press", "button left release", "sleep 80", "button left press", "button left release"] {
            inject.send(line)
        }
        try inject.sync()
        // Below the pointer, which grim draws.
        let fittedBelow = fitted.map { x, y, colour in (x, y == 300 ? 500 : y, colour) }
        (problems, _) = try awaitShot(timeout: 15, sway.screenshot) { Self.problems($0, fittedBelow) }
        #expect(problems.isEmpty, "back at the fit: \(problems)")
        let deadline = Date().addingTimeInterval(15)
        while WindowLog(viewer.stderr.lines).pictures.last.map({ $0 == (1920, 960) }) != true, Date() < deadline {
            Thread.sleep(forTimeInterval: 0.2)
        }
        #expect(WindowLog(viewer.stderr.lines).pictures.last.map { $0 == (1920, 960) } == true,
                "the drawing still again: \(WindowLog(viewer.stderr.lines).pictures)")
    }

    @Test("A translucent drawing's quick rendition over the checkerboard is committed at half resolution, a viewport showing it at the window's size, and the drawing follows at the full size, sharp")
    func quickRenditionAtHalfResolution() throws {
        // Fitted at 0.96 into 1920×1080 (1.8 MP): its quick rendition is at 0.25, 500×250, a
        // fifteenth of the fit's pixels; translucent, it is drawn over the checkerboard.
        let (path, sway, viewer) = try Self.showDrawing(translucentLeft: true)
        defer {
            viewer.terminate()
            sway.stop()
            try? FileManager.default.removeItem(atPath: (path as NSString).deletingLastPathComponent)
        }
        // Sharp on screen: both middle columns of the bar white, the opaque half its colour.
        let (problems, _) = try awaitShot(timeout: 15, sway.screenshot) {
            Self.problems($0, [(959, 300, 0xFFFFFF), (960, 300, 0xFFFFFF), (1440, 300, 0xE0C020)])
        }
        #expect(problems.isEmpty, "\(problems)")
        let log = WindowLog(viewer.stderr.lines)
        // The window maps at 800×600 before sway tiles it; its first frame at the tiled size is
        // the quick rendition's.
        let tiled = try #require(log.commits.first { $0.shown == (1920, 1080) }, "no commit at the tiled size: \(log.commits)")
        #expect(tiled.width == 960 && tiled.height == 540 && tiled.destination.map { $0 == (1920, 1080) } == true,
                "the quick rendition's frame: \(tiled); all: \(log.commits)")
        let full = try #require(log.commits.last, "\(log.commits)")
        #expect(full.width == 1920 && full.height == 1080 && full.destination == nil, "the last frame: \(full)")
        #expect(log.pictures.isEmpty, "no still picture: \(log.pictures)")
        let halvedLines = viewer.stderr.lines.filter { isStats($0, "frame") && statsFields($0)["halved"] == 1 }
        #expect(halvedLines.count == 1 && statsFields(halvedLines[0])["width"] == 960, "\(halvedLines)")
        // No buffer of the window's size before the quick rendition's half-size one: the black
        // page before it was a still frame (a small buffer a viewport enlarges).
        let half = try #require(log.made.firstIndex { $0 == (960, 540) }, "\(log.made)")
        #expect(!log.made[..<half].contains { $0 == (1920, 1080) }, "buffers made: \(log.made)")
    }
}
