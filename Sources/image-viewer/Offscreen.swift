// The viewer without a compositor: a trace's input drives the gallery (or the test card) on the
// simulated display, pictures decoded synchronously so every run draws the same frames.
import ArgumentParser
import Foundation
import Gallery
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
            guard case .input(let kind, let modifiers) = event.action else {
                emit("image-viewer: \(tracePath):\(event.line): method calls drive a bare scroll view; the viewer takes input events only")
                throw ExitCode(2)
            }
            frames.append(kind, at: event.time, modifiers: modifiers)
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
        if testCard {
            let card = makeTestCardScene(cacheBudget: cacheBudget)
            scene = card
            renderer = card.renderer
        } else {
            let gallery = GalleryScene(files: listFiles(), options: galleryOptions(loading: .waitForEach))
            gallery.onLoadFailure = { emit("image-viewer: \($0.description)") }
            scene = gallery
            renderer = gallery.renderer
        }
        let width = Int(trace.setup.viewport.width.rounded()), height = Int(trace.setup.viewport.height.rounded())
        guard let window = OffscreenWindow(scene: scene, width: width, height: height) else {
            screenshotFile?.unlink()
            emit("image-viewer: \(tracePath): a \(width)×\(height) window cannot be allocated")
            throw ExitCode(2)
        }
        let display = SimulatedDisplay(frameRate: trace.setup.frameRate)
        let outcome = display.run(timeline, on: window)
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
        if case .timedOut(let t) = outcome {
            emit("image-viewer: the scene was still animating 60 s after the last input (t = \(t) ms)")
            throw ExitCode(1)
        }
    }
}
