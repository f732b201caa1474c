// Runs a gallery offscreen: the real scene, real decoded assets, input on the simulated
// display's frame clock, and the pixels it drew.
import Foundation
import Gallery
import Raster
import Replay
import SafeOutput
import ScrollKit
import TestSupport

/// The bundled demo pictures (see Assets/README.md for the pixels they are known to have).
enum Assets {
    static let folder = PackagePaths.packageRoot().appendingPathComponent("Assets").path
    static let sunset = folder + "/01-sunset.png"            // 1200×800
    static let bubbles = folder + "/02-bubbles-alpha.png"    // 800×800, translucent
    static let mosaic = folder + "/03-mosaic-palette.png"    // 640×480
    static let city = folder + "/04-city-4000x3000.jpg"      // 4000×3000
    static let arrow = folder + "/05-arrow-exif6.jpg"        // displayed 800×1200
}

/// An input event at a time, for `Harness.run`; `modifiers` are those a key event states.
struct Step {
    var time: Double
    var kind: InputEvent.Kind
    var modifiers: InputEvent.Modifiers = []

    static func down(_ t: Double, _ id: Int, _ x: Double, _ y: Double) -> Step {
        Step(time: t, kind: .touchDown(id: id, location: CGPoint(x: x, y: y)))
    }
    static func move(_ t: Double, _ id: Int, _ x: Double, _ y: Double) -> Step {
        Step(time: t, kind: .touchMotion(id: id, location: CGPoint(x: x, y: y)))
    }
    static func up(_ t: Double, _ id: Int) -> Step { Step(time: t, kind: .touchUp(id: id)) }
    static func key(_ t: Double, _ name: String, modifiers: InputEvent.Modifiers = []) -> [Step] {
        [Step(time: t, kind: .key(Key(keysymName: name), pressed: true), modifiers: modifiers),
         Step(time: t + 50, kind: .key(Key(keysymName: name), pressed: false), modifiers: modifiers)]
    }

    /// A one-finger drag from `from` to `to` starting at `t`, `steps` moves 8 ms apart; with
    /// `hold` the finger rests before lifting (no fling).
    static func drag(_ t: Double, id: Int = 0, from: CGPoint, to: CGPoint, steps: Int = 12, hold: Double = 0) -> [Step] {
        var out = [down(t, id, from.x, from.y)]
        for i in 1...steps {
            let f = Double(i) / Double(steps)
            out.append(move(t + 8 * Double(i), id, from.x + (to.x - from.x) * f, from.y + (to.y - from.y) * f))
        }
        out.append(up(t + 8 * Double(steps) + hold, id))
        return out
    }

    /// Two taps at (x, y), 100 ms apart, starting at `t`.
    static func doubleTap(_ t: Double, _ x: Double, _ y: Double) -> [Step] {
        [down(t, 0, x, y), up(t + 60, 0), down(t + 160, 0, x, y), up(t + 220, 0)]
    }
}

extension GalleryScene.Options {
    /// Pictures load synchronously, so runs repeat frame for frame.
    static var synchronous: GalleryScene.Options {
        var options = GalleryScene.Options()
        options.loading = .waitForEach
        return options
    }
}

/// A gallery in an offscreen window.
final class Harness {
    let scene: GalleryScene
    let window: OffscreenWindow
    let display = SimulatedDisplay(frameRate: 60)

    init(files: [String], width: Int = 800, height: Int = 400, options: GalleryScene.Options = .synchronous,
         startingAt start: Int = 0) {
        scene = GalleryScene(files: files, options: options, startingAt: start)
        window = OffscreenWindow(scene: scene, width: width, height: height)!
    }

    /// Groups input into frames and stamps it with the seat's state, across runs, as a seat does.
    private var input = InputFrameBuilder()

    /// Delivers `steps` (sorted by time) and ticks frames until the gallery rests, at most
    /// `settleLimit` ms after the last step.
    @discardableResult
    func run(_ steps: [Step], settleLimit: Double = 60_000) -> DisplayOutcome {
        for step in steps.sorted(by: { $0.time < $1.time }) { input.append(step.kind, at: step.time, modifiers: step.modifiers) }
        return display.run(input.takeFrames(), on: window, settleLimit: settleLimit)
    }

    /// The (r, g, b) shown at window pixel (x, y).
    func rgb(_ x: Int, _ y: Int) -> (Int, Int, Int) {
        let p = window.buffer.framebuffer[x, y]
        return (Int(p >> 16 & 0xFF), Int(p >> 8 & 0xFF), Int(p & 0xFF))
    }

    /// Whether pixel (x, y) is within `tolerance` of `color` on every channel.
    func shows(_ x: Int, _ y: Int, _ color: (Int, Int, Int), tolerance: Int = 3) -> Bool {
        let c = rgb(x, y)
        return abs(c.0 - color.0) <= tolerance && abs(c.1 - color.1) <= tolerance && abs(c.2 - color.2) <= tolerance
    }

    /// A readable account of pixel checks that failed, empty when all passed.
    func problems(_ checks: [(Int, Int, (Int, Int, Int))], tolerance: Int = 3) -> [String] {
        checks.compactMap { x, y, color in
            shows(x, y, color, tolerance: tolerance) ? nil : "(\(x), \(y)) is \(rgb(x, y)), expected \(color)"
        }
    }
}

/// A temporary folder removed when the value is dropped.
final class TemporaryFolder {
    let path: String
    /// Made by mkdtemp, mode 0700: no name another user could plant beforehand.
    private let folder: PrivateFolder

    init() throws {
        folder = try PrivateFolder(prefix: "gallery-tests")
        path = folder.path
    }

    /// Writes `bytes` to `name` in the folder and returns its path.
    @discardableResult
    func write(_ name: String, _ bytes: [UInt8]) throws -> String {
        let file = path + "/" + name
        try Data(bytes).write(to: URL(fileURLWithPath: file))
        return file
    }
}
