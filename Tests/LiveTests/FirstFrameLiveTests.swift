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
    }

    private(set) var commits: [Commit] = []
    /// The most bytes of wl_buffers the window held at once (made and not yet destroyed).
    private(set) var mostBufferBytes = 0
    /// When the toplevel was configured at a size the compositor chose, by size (the first time).
    private(set) var configured: [String: Double] = [:]

    init(_ lines: [String]) {
        var surface: String?, toplevel: String?
        var sizes: [String: (Int, Int)] = [:]
        var attached: (Int, Int)?
        var destination: (width: Int, height: Int)?
        var live: [String: Int] = [:]
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
                if let buffer = objects("wl_buffer@").first, arguments.count >= 5, let w = Int(arguments[2]), let h = Int(arguments[3]),
                   let stride = Int(arguments[4]) {
                    sizes[buffer] = (w, h)
                    live[buffer] = stride * h
                    mostBufferBytes = max(mostBufferBytes, live.values.reduce(0, +))
                }
            case (true, "destroy") where object.hasPrefix("wl_buffer@"): live[object] = nil
            case (true, "attach") where object == surface: attached = objects("wl_buffer@").first.flatMap { sizes[$0] }
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
        // sway's first configure is 0×0: the window maps with a buffer of its own default size.
        let mapping = try #require(log.commits.first, "no commit with a buffer")
        #expect(mapping.width == 800 && mapping.height == 600, "\(log.commits)")
        let configured = try #require(log.configured["1024×768"], "sway never tiled the window at 1024×768")
        let tiled = try #require(log.commits.first { $0.width == 1024 && $0.height == 768 }, "\(log.commits)")
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

    @Test("A large drawing's quick rendition is committed at half resolution, a viewport showing it at the window's size, and the drawing follows at the full size, sharp")
    func quickRenditionAtHalfResolution() throws {
        // 2000×1000, fitted at 0.96 into 1920×1080 (1.8 MP): its quick rendition is at 0.25,
        // 500×250, a fifteenth of the fit's pixels. Top: the left half blue, the right half
        // yellow, a 4-pixel white bar at x 998…1001; below, 1200 translucent circles, so that
        // the drawing takes librsvg far longer than its rendition and the rendition shows first.
        var svg = ##"<svg xmlns="http://www.w3.org/2000/svg" width="2000" height="1000">"##
            + ##"<rect width="1000" height="1000" fill="#2040c0"/><rect x="1000" width="1000" height="1000" fill="#e0c020"/>"##
            + ##"<rect x="998" width="4" height="1000" fill="#ffffff"/>"##
        for i in 0..<1200 {
            let fill = i % 2 == 0 ? "c03020" : "20a040"
            svg += ##"<circle cx="\##(i * 37 % 2000)" cy="\##(600 + i * 53 % 380)" r="40" fill="#\##(fill)" fill-opacity="0.4"/>"##
        }
        svg += "</svg>"
        let path = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("scrollkit-\(getpid())-quick.svg").path
        try Data(svg.utf8).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let sway = try SwayHeadless(width: 1920, height: 1080)
        defer { sway.stop() }
        var environment = sway.clientEnvironment
        environment["WAYLAND_DEBUG"] = "client"
        let viewer = try ClientProcess("image-viewer", [path, "--stats"], environment: environment)
        defer { viewer.terminate() }
        _ = try viewer.waitForStderr(timeout: 30) { isStats($0, "first-frame") }
        // Sharp on screen: both middle columns of the bar white (x 958.08…961.92 at 0.96; the
        // picture's 960 rows are centred, from y 60), the halves their colours.
        let (problems, _) = try awaitShot(timeout: 15, sway.screenshot) { shot in
            var found: [String] = []
            for (x, y, colour) in [(959, 300, 0xFFFFFF), (960, 300, 0xFFFFFF), (480, 300, 0x2040C0), (1440, 300, 0xE0C020)] {
                let pixel = shot.pixel(x, y) & 0xFF_FFFF
                if pixel != UInt32(colour) { found.append("(\(x), \(y)) is \(String(pixel, radix: 16)), not \(String(colour, radix: 16))") }
            }
            return found
        }
        #expect(problems.isEmpty, "\(problems)")
        let log = WindowLog(viewer.stderr.lines)
        // The window maps at 800×600 before sway tiles it; its first frame at the tiled size is
        // the quick rendition's.
        let tiled = try #require(log.commits.first {
            ($0.width == 1920 && $0.height == 1080) || $0.destination.map { $0 == (1920, 1080) } == true
        }, "no commit at the tiled size: \(log.commits)")
        #expect(tiled.width == 960 && tiled.height == 540 && tiled.destination.map { $0 == (1920, 1080) } == true,
                "the quick rendition's frame: \(tiled); all: \(log.commits)")
        let full = try #require(log.commits.last, "\(log.commits)")
        #expect(full.width == 1920 && full.height == 1080 && full.destination == nil, "the last frame: \(full)")
        let halvedLines = viewer.stderr.lines.filter { isStats($0, "frame") && statsFields($0)["halved"] == 1 }
        #expect(halvedLines.count == 1 && statsFields(halvedLines[0])["width"] == 960, "\(halvedLines)")
        // At most a full-size buffer and a half-size one's bytes at once: the placeholder kept
        // back at 1920×1080 goes before the half-size buffer is made (beside the 800×600 one the
        // window mapped with, until sway gives that back), and the drawing's is made after.
        #expect(log.mostBufferBytes <= 1920 * 1080 * 4 + 960 * 540 * 4, "\(log.mostBufferBytes) bytes of buffers at once")
    }
}
