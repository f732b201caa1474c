// image-viewer: the ScrollKit demo, a window on the Wayland session showing the bundled
// pictures (the test card until decoding lands).
import ArgumentParser
import Foundation
import Raster
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

    mutating func run() throws {
        let start = ProcessInfo.processInfo.systemUptime * 1000
        let scene = TestCardScene()
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

/// One line on stderr.
func emit(_ line: String) {
    FileHandle.standardError.write(Data((line + "\n").utf8))
}

/// Prints the one-line reason and exits with status 1.
func fail(_ error: WaylandError) -> Never {
    emit("image-viewer: \(error)")
    exit(1)
}
