// The viewer without a compositor: a trace's input drives the gallery (or the test card) on the
// simulated display, pictures decoded synchronously so every run draws the same frames.
import ArgumentParser
import Foundation
import Gallery
import Host
import Raster
import Replay
import SafeOutput
import ScrollKit
import TraceFormat

extension ImageViewer {
    /// Drives the scene from a trace's input on the simulated display, as the live window would.
    func runOffscreen(tracePath: String) throws {
        // The trace first: a bad one is refused before anything is loaded.
        let trace: Trace
        do {
            trace = try TraceParser().parse(fileAt: tracePath)
        } catch {
            emit("image-viewer: \(error)")
            throw ExitCode(2)
        }
        var frames = InputFrameBuilder()
        for event in trace.events {
            switch event.action {
            case .input(let kind, let modifiers, _):
                frames.append(kind, at: event.time, modifiers: modifiers, frame: event.frame)
            case .layout:
                // The viewer lays its pages out from the pictures it loads itself.
                continue
            case .call:
                emit("image-viewer: \(tracePath):\(event.line): method calls drive a bare scroll view; the viewer takes input events only")
                throw ExitCode(2)
            }
        }
        let timeline = frames.frames
        // The screenshot's file before any work: one that exists (without --force) or cannot be
        // created is refused at once, and nothing is overwritten or followed.
        var screenshotFile: OutputFile?
        if let screenshot {
            do {
                screenshotFile = try OutputFile(creating: screenshot, replacing: force)
            } catch {
                let hint = error.reason == .exists ? "; name a new file, or add --force to replace it" : ""
                emit("image-viewer: --screenshot: \(error)\(hint)")
                throw ExitCode(1)
            }
        }
        let scene: Scene
        let renderer: Renderer
        var list: ListDemo?
        if testCard {
            let card = makeTestCardScene(cacheBudget: cacheBudget)
            scene = card
            renderer = card.renderer
        } else if demo == .list {
            let demo = ListDemo(cacheBudget: cacheBudget)
            scene = demo.scene
            renderer = demo.scene.renderer
            list = demo
        } else {
            // No folder watch: an offscreen run replays the same frames whatever happens to the files.
            let gallery = makeGallery(listFiles().listing, loading: .waitForEach)
            scene = gallery
            renderer = gallery.renderer
            // The simulated display ticks without waiting, so a background worker would only
            // run between frames that wait for it (stale tiles left to it after a picture is
            // refined at 1:1 kept hundreds of frames asking for one more): drawn within the
            // frames, every run draws the same frames.
            renderer.prefetchesInBackground = false
        }
        let width = Int(trace.setup.viewport.width.rounded()), height = Int(trace.setup.viewport.height.rounded())
        guard width <= OffscreenLimits.side, height <= OffscreenLimits.side else {
            screenshotFile?.unlink()
            emit("image-viewer: \(tracePath): the viewport is \(width)×\(height); --offscreen draws windows of at most \(OffscreenLimits.side)×\(OffscreenLimits.side) pixels")
            throw ExitCode(2)
        }
        guard let window = OffscreenWindow(scene: scene, width: width, height: height) else {
            screenshotFile?.unlink()
            emit("image-viewer: \(tracePath): a \(width)×\(height) window cannot be allocated")
            throw ExitCode(2)
        }
        // Animations play while the trace's input lasts: the run then rests on the frame shown at
        // its last event.
        window.hidesAfter = timeline.last?.time ?? 0
        let display = SimulatedDisplay(frameRate: trace.setup.frameRate)
        display.frameLimit = OffscreenLimits.frames
        var exceeded: String?
        let pixelsPerFrame = width * height
        window.onFrame = { [unowned window, unowned display] _, _ in
            if window.framesRendered * pixelsPerFrame > OffscreenLimits.pixels {
                exceeded = "\(OffscreenLimits.pixels / 1_000_000) megapixels drawn"
                display.stop()
            } else if let gallery = scene as? GalleryScene, gallery.loadsStarted > OffscreenLimits.loads {
                exceeded = "\(OffscreenLimits.loads) picture loads"
                display.stop()
            }
        }
        let outcome = withExtendedLifetime(list) { display.run(timeline, on: window) }
        if stats {
            // Simulated time has no render durations to report: counts and memory only.
            let peak = ProcessFigures.peakResidentKiB().map(String.init) ?? "null"
            emit(#"{"event":"summary","frames":\#(display.frameCount),"rendered":\#(window.framesRendered),"peakMemoryKiB":\#(peak),"tileCacheBytes":\#(renderer.cacheBytes),"tileCacheTiles":\#(renderer.cachedTileCount)}"#)
        }
        if let screenshotFile {
            do {
                try window.writePPM(to: screenshotFile)
            } catch {
                screenshotFile.unlink()
                emit("image-viewer: --screenshot: writing \(screenshotFile.path) failed: \(error)")
                throw ExitCode(1)
            }
        }
        if case .stopped(let t) = outcome {
            let what = exceeded ?? "\(OffscreenLimits.frames) frame ticks"
            emit("image-viewer: \(tracePath): stopped at t = \(ReplayOutput.number(t)) ms: --offscreen is limited to \(what) (see --help)")
            throw ExitCode(3)
        }
        if case .timedOut(let t) = outcome {
            emit("image-viewer: the scene was still animating 60 s after the last input (t = \(t) ms)")
            throw ExitCode(1)
        }
    }
}

/// The bounds of an offscreen run's work, so any accepted trace ends within seconds (a day-long
/// trace with a 1 s slideshow decoded 86 400 pictures; a 16384-point viewport took 17 s and
/// 2.7 GB for one frame). Decisions, issue 12: each keeps a run under about 10 s here.
enum OffscreenLimits {
    /// Largest window side, in pixels (4096: a 64 MiB frame).
    static let side = 4096
    /// Most frame ticks (83 s of motion at 60 Hz).
    static let frames = 5_000
    /// Most pixels drawn over the run, frames × window area (1 gigapixel: 480 frames at 1080p).
    static let pixels = 1_000_000_000
    /// Most picture loads (each a decode: pages met while swiping, slides).
    static let loads = 50
}
