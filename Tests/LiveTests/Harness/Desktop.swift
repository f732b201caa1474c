// Desktops that draw no decorations, driven alike by the decoration tests: mutter headless (its
// remote-desktop input and screen cast) and weston nested in a headless sway (sway's injected
// input reaches weston's seat; grim captures weston's output in sway). And what a screenshot of a
// window with libdecor's decorations shows: where the content is, the title bar above it.
import CompositorHarness
import Foundation
import Glibc

/// One step of input on a desktop, in output pixels.
enum DesktopInput {
    /// The pointer to (x, y).
    case move(Int, Int)
    /// The left button pressed or released.
    case press, release
    /// A pause, in milliseconds.
    case pause(Int)
    /// A key pressed and released, by keysym name ("Right", "q").
    case key(String)

    /// A left-button drag from `from` to `to` in `steps` moves 16 ms apart, with pauses around it
    /// so the compositor sees the press settle before the motion and the motion stop before the
    /// release (no fling).
    static func drag(from: (Int, Int), to: (Int, Int), steps: Int = 12) -> [DesktopInput] {
        pressAndMove(from: from, to: to, steps: steps) + [.pause(200), .release, .pause(200)]
    }

    /// The press and the motion of `drag`, without the release.
    static func pressAndMove(from: (Int, Int), to: (Int, Int), steps: Int = 12) -> [DesktopInput] {
        var inputs: [DesktopInput] = [.move(from.0, from.1), .pause(100), .press, .pause(150)]
        for i in 1...steps {
            inputs += [.move(from.0 + (to.0 - from.0) * i / steps, from.1 + (to.1 - from.1) * i / steps), .pause(16)]
        }
        return inputs
    }

    /// A left click at (x, y).
    static func click(_ x: Int, _ y: Int) -> [DesktopInput] {
        [.move(x, y), .pause(100), .press, .pause(80), .release, .pause(100)]
    }

    /// The pointer to the bottom-left corner of a `size` output, off the windows the tests place
    /// (weston draws its pointer into its screenshots).
    static func park(_ size: (width: Int, height: Int)) -> [DesktopInput] { [.move(2, size.height - 2), .pause(100)] }
}

/// A compositor that draws no decorations, whose screen and input a test controls.
protocol Desktop: AnyObject {
    /// For messages: "mutter", "weston".
    var name: String { get }
    /// The output's size in pixels.
    var size: (width: Int, height: Int) { get }
    /// The environment a client needs to reach it.
    var clientEnvironment: [String: String] { get }
    /// The whole output.
    func screenshot() throws -> Screenshot
    /// Sends `inputs` in order and returns once the compositor has handled them.
    func perform(_ inputs: [DesktopInput]) throws
    /// Ends the compositor and everything started with it.
    func stop()
}

extension MutterHeadless: Desktop {
    var name: String { "mutter" }
    var size: (width: Int, height: Int) { (width, height) }

    /// X keysyms of the keys the tests press (xkbcommon-keysyms.h).
    private static let keysyms = ["Right": 0xFF53, "Left": 0xFF51, "f": 0x66, "q": 0x71]

    func perform(_ inputs: [DesktopInput]) throws {
        for input in inputs {
            switch input {
            case .move(let x, let y): try command("motion \(x) \(y)")
            case .press: try command("button 272 1")  // BTN_LEFT, linux/input-event-codes.h
            case .release: try command("button 272 0")
            case .pause(let ms): try command("sleep \(ms)")
            case .key(let name):
                guard let keysym = Self.keysyms[name] else { throw HarnessError(description: "no keysym known for \(name)") }
                try command("key \(keysym) 1")
                try command("key \(keysym) 0")
            }
        }
    }
}

/// weston 10 with its desktop shell, as a window of a headless sway: sway's injected pointer and
/// keys become weston's seat (headless weston has none). weston frames its window with borders
/// and a title bar of its own and sway centres it in its tile, so weston's output is a known
/// rectangle of sway's: screenshots are cut from grim's of sway (weston-screenshooter gives
/// black frames on weston's Wayland backend) and input is sent there.
final class WestonInSway: Desktop {
    let sway: SwayHeadless
    let weston: WestonHeadless
    let injector: Injector
    /// Where weston's output's top-left pixel is on sway's output.
    let origin: (x: Int, y: Int)
    var name: String { "weston" }
    var size: (width: Int, height: Int) { (weston.width, weston.height) }
    var clientEnvironment: [String: String] { weston.clientEnvironment }

    /// weston 10's frame around its output on the Wayland backend: 6-pixel borders and a 27-pixel
    /// title bar (measured: an 800×600 output makes an 812×633 window).
    static let frameBorder = 6, frameTitle = 27

    /// weston's output of `width`×`height` in a sway output `margin` pixels larger each way, room
    /// for weston's frame.
    init(width: Int = 1024, height: Int = 768, margin: Int = 64, timeout: Double = 15) throws {
        sway = try SwayHeadless(width: width + margin, height: height + margin)
        do {
            // The injector first: weston's seat follows sway's, which has a pointer only while one
            // is injected, and a seat that appears later would reach the viewer after its start.
            injector = try Injector(environment: sway.clientEnvironment, options: ["--extent", "\(width + margin)x\(height + margin)"])
            weston = try WestonHeadless(width: width, height: height, shell: .desktop, pixman: true, parent: sway)
        } catch {
            sway.stop()
            throw error
        }
        // sway centres a window smaller than its tile (rounding down).
        let window = (width: width + 2 * Self.frameBorder, height: height + Self.frameBorder + Self.frameTitle)
        origin = ((width + margin - window.width) / 2 + Self.frameBorder, (height + margin - window.height) / 2 + Self.frameTitle)
        // Mapped where expected: weston's light border just left of the output, its darker
        // background (or panel) just inside.
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            let shot = try sway.screenshot()
            let border = shot.pixel(origin.x - 1, origin.y + height / 2), inside = shot.pixel(origin.x, origin.y + height / 2)
            if luma(border) > 0xB0 && luma(inside) < 0xA0 { break }
            guard Date() < deadline else {
                stop()
                throw HarnessError(description: "weston's output is not at \(origin) on sway's: border \(hex(border)), inside \(hex(inside))")
            }
            usleep(100_000)
        }
    }

    deinit { stop() }

    /// Ends the injector, weston and sway.
    func stop() {
        injector.stop()
        weston.stop()
        sway.stop()
    }

    /// weston's output as sway shows it. weston draws its own pointer into it.
    func screenshot() throws -> Screenshot {
        try sway.screenshot().cropped(x: origin.x, y: origin.y, width: weston.width, height: weston.height)
    }

    func perform(_ inputs: [DesktopInput]) throws {
        var lines: [String] = []
        for input in inputs {
            switch input {
            case .move(let x, let y): lines.append("abs \(x + origin.x) \(y + origin.y)")
            case .press: lines.append("button left press")
            case .release: lines.append("button left release")
            case .pause(let ms): lines.append("sleep \(ms)")
            case .key(let name): lines.append("tap \(name)")
            }
        }
        try injector.run(lines)
    }
}

/// Whether the process `pid` has mapped libdecor's cairo plugin (libdecor loads it only to draw
/// decorations). Read to its end with a file handle: String(contentsOfFile:) stops after the
/// first page of a /proc file, whose size is 0.
func mapsDecorationPlugin(_ pid: pid_t) throws -> Bool {
    guard let maps = FileHandle(forReadingAtPath: "/proc/\(pid)/maps")?.readDataToEndOfFile(),
          String(decoding: maps, as: UTF8.self).contains("libc.so") else {
        throw HarnessError(description: "cannot read the memory map of process \(pid)")
    }
    return String(decoding: maps, as: UTF8.self).contains("libdecor-cairo")
}

/// A rectangle of screen pixels.
struct ScreenRect: Equatable, CustomStringConvertible {
    var x: Int, y: Int, width: Int, height: Int
    var maxX: Int { x + width }
    var maxY: Int { y + height }
    var description: String { "\(width)×\(height) at (\(x), \(y))" }
}

/// Whether `a` and `b` (0xRRGGBB) differ by at most `tolerance` in each channel.
func similar(_ a: UInt32, _ b: UInt32, tolerance: Int) -> Bool {
    for shift: UInt32 in [0, 8, 16] {
        let channelA = Int((a >> shift) & 0xFF), channelB = Int((b >> shift) & 0xFF)
        if abs(channelA - channelB) > tolerance { return false }
    }
    return true
}

/// The bounding box of the pixels within `tolerance` of `color` (0xRRGGBB), nil when there are none.
func boundingBox(of color: UInt32, in shot: Screenshot, tolerance: Int = 2) -> ScreenRect? {
    var minX = Int.max, minY = Int.max, maxX = -1, maxY = -1
    for y in 0..<shot.height {
        for x in 0..<shot.width where similar(shot.pixel(x, y), color, tolerance: tolerance) {
            minX = min(minX, x)
            maxX = max(maxX, x)
            minY = min(minY, y)
            maxY = max(maxY, y)
        }
    }
    return maxX < 0 ? nil : ScreenRect(x: minX, y: minY, width: maxX - minX + 1, height: maxY - minY + 1)
}

/// Perceived lightness of a pixel, 0…255 (ITU-R BT.601 weights).
func luma(_ pixel: UInt32) -> Int {
    (299 * Int(pixel >> 16 & 0xFF) + 587 * Int(pixel >> 8 & 0xFF) + 114 * Int(pixel & 0xFF)) / 1000
}

/// What libdecor's cairo plugin draws above a window's content (libdecor 0.1.1,
/// libdecor-cairo.c): a title bar 24 pixels high (TITLE_HEIGHT) as wide as the content, dark
/// (0x080706 for the active window, 0x303030 otherwise) with the title in light text (0xF4F4EF,
/// or 0x909090) centred on it, and three 32-pixel buttons (BUTTON_WIDTH) at its right end:
/// minimise, maximise, close.
enum CairoTitleBar {
    static let height = 24
    static let buttonWidth = 32

    /// The bar's rectangle above `content`.
    static func rect(above content: ScreenRect) -> ScreenRect {
        ScreenRect(x: content.x, y: content.y - height, width: content.width, height: height)
    }

    /// Where to grab the bar to move the window: left of the title, clear of the buttons.
    static func grabPoint(above content: ScreenRect) -> (Int, Int) { (content.x + 60, content.y - height / 2) }

    /// The middle of the close button, the bar's rightmost.
    static func closeButton(above content: ScreenRect) -> (Int, Int) {
        (content.maxX - buttonWidth / 2, content.y - height / 2)
    }

    /// The light pixels of the bar's middle half (where a title is drawn), as (x, y) from the
    /// bar's corner: the title's glyphs.
    static func glyphPixels(_ shot: Screenshot, above content: ScreenRect) -> Set<[Int]> {
        let bar = rect(above: content)
        var pixels: Set<[Int]> = []
        guard bar.y >= 0 else { return pixels }
        for y in bar.y..<bar.maxY {
            for x in (bar.x + bar.width / 4)..<(bar.x + bar.width * 3 / 4) where luma(shot.pixel(x, y)) >= 0x80 {
                pixels.insert([x - bar.x, y - bar.y])
            }
        }
        return pixels
    }

    /// The columns (from the bar's left end) that `glyphs` cover, nil when there are none.
    static func span(of glyphs: Set<[Int]>) -> ClosedRange<Int>? {
        guard let first = glyphs.map({ $0[0] }).min(), let last = glyphs.map({ $0[0] }).max() else { return nil }
        return first...last
    }

    /// What is wrong with the bar above `content` in `shot`: it must be there, dark, with light
    /// glyphs in its middle (at least `minGlyphPixels`) and none in its left fifth, since a title
    /// is centred.
    static func problems(_ shot: Screenshot, above content: ScreenRect, minGlyphPixels: Int = 40) -> [String] {
        let bar = rect(above: content)
        guard bar.y >= 0, bar.maxX <= shot.width else { return ["no room for a title bar above the content \(content)"] }
        var problems: [String] = []
        // The bar's left end: background only.
        var light = 0, notDark = 0
        for y in bar.y..<bar.maxY {
            for x in bar.x..<(bar.x + bar.width / 5) {
                let p = shot.pixel(x, y)
                if luma(p) >= 0x80 { light += 1 }
                if luma(p) > 0x40 { notDark += 1 }
            }
        }
        let area = bar.height * (bar.width / 5)
        if notDark * 10 > area { problems.append("the bar's left end \(bar) is not dark: \(notDark) of \(area) pixels are light") }
        if light > 0 { problems.append("\(light) light pixels in the bar's left fifth, where no title is drawn") }
        let glyphs = glyphPixels(shot, above: content).count
        if glyphs < minGlyphPixels { problems.append("only \(glyphs) light (glyph) pixels in the middle of the bar \(bar)") }
        return problems
    }
}
