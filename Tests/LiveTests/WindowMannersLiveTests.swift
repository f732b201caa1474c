// Window manners under real compositors: the title names the file shown (sway's tree shows each
// window's title) and follows page changes, hostile names escaped; a floating window keeps its
// minimum size when sway shrinks it; the first size fits KWin's configure_bounds; and a window
// with libdecor's decorations idles without waking.
import CompositorHarness
import Foundation
import Glibc
import SafeOutput
import Testing
import TestSupport

/// The title and app id of the viewer's window in sway's tree, and the size sway gives it.
private struct SwayWindow {
    var title: String
    var appID: String
    var width: Int, height: Int

    /// The viewer's window (app id org.scrollkit.ImageViewer) in `sway`'s tree, nil when not mapped.
    static func find(in sway: SwayHeadless) throws -> SwayWindow? {
        let tree = try sway.swaymsg(["-t", "get_tree", "--raw"])
        guard let root = try JSONSerialization.jsonObject(with: Data(tree.utf8)) as? [String: Any] else {
            throw HarnessError(description: "swaymsg -t get_tree gave no JSON object")
        }
        func search(_ node: [String: Any]) -> SwayWindow? {
            if let appID = node["app_id"] as? String, appID == "org.scrollkit.ImageViewer",
               let rect = node["rect"] as? [String: Any] {
                return SwayWindow(title: node["name"] as? String ?? "", appID: appID,
                                  width: rect["width"] as? Int ?? 0, height: rect["height"] as? Int ?? 0)
            }
            let children = (node["nodes"] as? [[String: Any]] ?? []) + (node["floating_nodes"] as? [[String: Any]] ?? [])
            return children.lazy.compactMap(search).first
        }
        return search(root)
    }

    /// Waits until the window's title is `title`; returns the window as last seen.
    static func await(title: String, in sway: SwayHeadless, timeout: Double = 10) throws -> SwayWindow? {
        var window: SwayWindow?
        _ = try awaitTrue(timeout: timeout, interval: 0.05) {
            window = try find(in: sway)
            return window?.title == title
        }
        return window
    }
}

/// Writes `data` to a new file named by the bytes `name` in `folder` (names need not be UTF-8).
private func writeFile(named name: [UInt8], in folder: PrivateFolder, _ data: Data) throws {
    let path = RawPath(folder.path).appending(name)
    let fd = path.withCString { open($0, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644) }
    guard fd >= 0 else { throw HarnessError(description: "cannot create \(path): errno \(errno)") }
    let handle = FileHandle(fileDescriptor: fd, closeOnDealloc: true)
    try handle.write(contentsOf: data)
}

@Suite("Live window manners: title, minimum size, bounds, idle", .timeLimit(.minutes(3)), .ownThreads)
struct WindowMannersLiveTests {
    @Test("sway's tree shows the file and its place as the title, on every page change; hostile names escaped; the app id stays")
    func titleFollowsPages() throws {
        let folder = try PrivateFolder(prefix: "titles")
        // Natural order: "caf\xE9" (Latin-1, not UTF-8), "first picture", "red<ESC>[31m".
        for (name, colour) in [(Array("caf".utf8) + [0xE9] + Array(".png".utf8), UInt32(0x80_2020)),
                               (Array("first picture.png".utf8), 0x20_8020), (Array("red\u{1B}[31m.png".utf8), 0x20_2080)] {
            try writeFile(named: name, in: folder, pngData(width: 40, height: 30) { _, _ in colour })
        }
        let sway = try SwayHeadless(width: 800, height: 600)
        defer { sway.stop() }
        let inject = try Injector(environment: sway.clientEnvironment, options: ["--extent", "800x600"])
        defer { inject.stop() }
        let viewer = try ClientProcess("image-viewer", ["--stats", folder.path], environment: sway.clientEnvironment)
        defer { viewer.terminate() }
        try viewer.waitForStderr(timeout: 30) { isStats($0, "first-frame") }
        let expected = ["caf\\xE9.png (1/3) — ScrollKit", "first picture.png (2/3) — ScrollKit",
                        "red\\x1B[31m.png (3/3) — ScrollKit"]
        let first = try SwayWindow.await(title: expected[0], in: sway)
        #expect(first?.title == expected[0])
        #expect(first?.appID == "org.scrollkit.ImageViewer")
        // A motion into the window gives it the pointer and the keyboard.
        try inject.run(["abs 400 300", "sleep 100"])
        for (key, page) in [("Right", 1), ("Right", 2), ("Right", 2), ("Left", 1), ("Home", 0)] {
            try inject.run(["tap \(key)", "sleep 50"])
            let window = try SwayWindow.await(title: expected[page], in: sway)
            #expect(window?.title == expected[page], "after \(key)")
            #expect(window?.appID == "org.scrollkit.ImageViewer", "after \(key)")
        }
    }

    @Test("A floating window sway resizes to 100×60 keeps the 320×240 minimum")
    func minimumSizeUnderSway() throws {
        let sway = try SwayHeadless(width: 800, height: 600)
        defer { sway.stop() }
        let viewer = try ClientProcess("image-viewer", ["--test-card", "--stats"], environment: sway.clientEnvironment)
        defer { viewer.terminate() }
        try viewer.waitForStderr { isStats($0, "first-frame") }
        let criteria = "[app_id=\"org.scrollkit.ImageViewer\"]"
        try sway.swaymsg([criteria, "floating", "enable"])
        try sway.swaymsg([criteria, "resize", "set", "100", "60"])
        try awaitQuiet(viewer, quiet: 1, timeout: 30)
        let frames = viewer.stderr.lines.filter { isStats($0, "frame") }.map(statsFields)
        let smallest = frames.map { (Int($0["width"] ?? 0), Int($0["height"] ?? 0)) }
        #expect(smallest.allSatisfy { $0.0 >= 320 && $0.1 >= 240 }, "frames: \(smallest)")
        #expect(smallest.last.map { $0 == (320, 240) } ?? false, "the last frame is \(String(describing: smallest.last))")
        // sway sizes a floating window by what it commits: the minimum, not 100×60.
        let window = try SwayWindow.find(in: sway)
        #expect(window.map { ($0.width, $0.height) == (320, 240) } ?? false, "sway shows \(String(describing: window))")
    }

    @Test("On a 640×480 KWin the first buffer fits configure_bounds instead of the 800×600 default")
    func firstSizeFitsKWinBounds() throws {
        let kwin = try KWinVirtual(width: 640, height: 480)
        defer { kwin.stop() }
        var environment = kwin.clientEnvironment
        environment["WAYLAND_DEBUG"] = "client"  // libwayland logs every event: the bounds KWin sends
        let viewer = try ClientProcess("image-viewer", ["--test-card", "--stats"], environment: environment)
        defer { viewer.terminate() }
        let first = statsFields(try viewer.waitForStderr(timeout: 30) { isStats($0, "first-frame") })
        let boundsLine = try #require(viewer.stderr.lines.first { $0.contains("xdg_toplevel@") && $0.contains(".configure_bounds(") })
        // "…configure_bounds(640, 480)": the numbers between the parentheses.
        let numbers = boundsLine.split(separator: "(").last?.split(separator: ")").first?
            .split(separator: ",").compactMap { Int($0.trimmingCharacters(in: .whitespaces)) } ?? []
        #expect(numbers.count == 2 && numbers[0] <= 640 && numbers[1] <= 480, "\(boundsLine)")
        guard numbers.count == 2 else { return }
        let width = Int(first["width"] ?? 0), height = Int(first["height"] ?? 0)
        #expect(width == min(800, numbers[0]) && height == min(600, numbers[1]),
                "first frame \(width)×\(height) for bounds \(numbers[0])×\(numbers[1])")
        // KWin draws the decorations (xdg-decoration): libdecor's plugin is never loaded.
        #expect(try !mapsDecorationPlugin(viewer.process.processIdentifier), "libdecor's plugin was loaded under KWin")
    }

    @Test("Under weston, with libdecor's decorations and the pictures loaded, no thread of the viewer wakes for 10 s")
    func decoratedWindowIdles() throws {
        let weston = try WestonHeadless(width: 1024, height: 768, shell: .desktop)
        defer { weston.stop() }
        let viewer = try ClientProcess("image-viewer", ["--stats", DecodedImage.assetPath("")], environment: weston.clientEnvironment)
        defer { viewer.terminate() }
        try viewer.waitForStderr(timeout: 30) { isStats($0, "first-frame") }
        try awaitQuiet(viewer, quiet: 3, timeout: 60)
        let pid = viewer.process.processIdentifier
        #expect(try mapsDecorationPlugin(pid), "not decorated by libdecor")
        let (woke, threads) = threadsWaking(in: pid, during: 10)
        #expect(viewer.isRunning)
        #expect(woke.isEmpty, "threads that woke during 10 s of idle: \(woke); all threads: \(threads)")
    }
}
