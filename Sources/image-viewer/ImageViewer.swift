// image-viewer: the ScrollKit demo, a window on the Wayland session showing the bundled
// pictures (the test card until decoding lands).
import ArgumentParser
import Foundation
import Raster
import Replay
import ScrollKit
import Wayland

@main
struct ImageViewer: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "image-viewer",
        abstract: "View pictures with iOS-like scrolling and zooming on a Wayland desktop or kiosk.",
        version: "0.1.0")

    @Flag(help: "Ask the compositor for fullscreen.")
    var fullscreen = false

    @Flag(help: "Print one JSON line per frame on stderr, and a summary at exit.")
    var stats = false

    @Flag(help: "Show the generated test card instead of pictures.")
    var testCard = false

    @Option(name: .customLong("offscreen"), help: ArgumentHelp(
        "Run without a compositor: replay the input of this trace file (its setup's viewport is the window size) on a simulated display.",
        valueName: "trace"))
    var offscreenTrace: String?

    @Option(help: ArgumentHelp("With --offscreen: write the last frame to this file (binary PPM).", valueName: "file"))
    var screenshot: String?

    func validate() throws {
        if screenshot != nil && offscreenTrace == nil {
            throw ValidationError("--screenshot needs --offscreen (in a session, use your compositor's screenshot tool)")
        }
    }

    mutating func run() throws {
        if let offscreenTrace {
            try runOffscreen(tracePath: offscreenTrace)
            return
        }
        let start = ProcessInfo.processInfo.systemUptime * 1000
        let scene = makeTestCardScene()
        let app: Application
        do {
            app = try Application(scene: scene, title: "ScrollKit image viewer", appID: "org.scrollkit.ImageViewer",
                                  fullscreen: fullscreen)
        } catch let error as WaylandError {
            fail(error)
        }
        if stats {
            let launch = start
            var reportedFirst = false
            app.window.onFrameCommitted = { buffer, _ in
                let now = ProcessInfo.processInfo.systemUptime * 1000
                if !reportedFirst {
                    reportedFirst = true
                    emit(#"{"event":"first-frame","ms":\#(Int((now - launch).rounded())),"width":\#(buffer.width),"height":\#(buffer.height)}"#)
                }
                let render = app.window.statistics.renderMilliseconds.last ?? 0
                emit(#"{"event":"frame","ms":\#(Int((now - launch).rounded())),"renderMs":\#(String(format: "%.2f", render)),"width":\#(buffer.width),"height":\#(buffer.height)}"#)
            }
        }
        do {
            try app.run()
        } catch let error as WaylandError {
            fail(error)
        }
        if stats {
            let s = app.window.statistics
            emit(#"{"event":"summary","frames":\#(s.framesCommitted),"callbacks":\#(s.callbacksRequested),"buffers":\#(s.buffersCreated)}"#)
        }
    }
}

extension ImageViewer {
    /// Drives the scene from a trace's input on the simulated display, as the live window would.
    func runOffscreen(tracePath: String) throws {
        let trace: Trace
        do {
            trace = try TraceParser().parse(fileAt: tracePath)
        } catch {
            emit("image-viewer: \(error)")
            throw ExitCode(2)
        }
        var timeline: [TimedAction<InputEvent.Kind>] = []
        for event in trace.events {
            guard case .input(let kind) = event.action else {
                emit("image-viewer: \(tracePath):\(event.line): method calls drive a bare scroll view; the viewer takes input events only")
                throw ExitCode(2)
            }
            timeline.append(TimedAction(time: event.time, action: kind))
        }
        let width = Int(trace.setup.viewport.width.rounded()), height = Int(trace.setup.viewport.height.rounded())
        guard let window = OffscreenWindow(scene: makeTestCardScene(), width: width, height: height) else {
            emit("image-viewer: \(tracePath): a \(width)×\(height) window cannot be allocated")
            throw ExitCode(2)
        }
        let display = SimulatedDisplay(frameRate: trace.setup.frameRate)
        let outcome = display.run(timeline, on: window)
        if stats {
            emit(#"{"event":"summary","frames":\#(display.frameCount),"rendered":\#(window.framesRendered)}"#)
        }
        if let screenshot {
            do {
                try window.writePPM(to: URL(fileURLWithPath: screenshot))
            } catch {
                emit("image-viewer: cannot write \(screenshot): \(error.localizedDescription)")
                throw ExitCode(1)
            }
        }
        if case .timedOut(let t) = outcome {
            emit("image-viewer: the scene was still animating 60 s after the last input (t = \(t) ms)")
            throw ExitCode(1)
        }
    }
}

/// One line on stderr.
func emit(_ line: String) {
    FileHandle.standardError.write(Data((line + "\n").utf8))
}

/// Prints the one-line reason and exits with status 1.
func fail(_ error: WaylandError) -> Never {
    emit("image-viewer: \(error)")
    exit(1)
}
