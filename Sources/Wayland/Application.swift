// Runs one window on the compositor: connect, map, route seat input to the scene, and
// loop until the window is closed or the connection breaks.
import Foundation
import Raster
import ScrollKit

/// The live host of a `Scene`: a Wayland connection with one toplevel window.
public final class Application {
    /// The connection.
    public let display: Display
    /// The window.
    public let window: Window
    private var seat: Seat?

    /// Connects (throwing a one-line `WaylandError` on failure) and maps a window for `scene`.
    public init(scene: Scene, title: String, appID: String, fullscreen: Bool = false,
                environment: [String: String] = ProcessInfo.processInfo.environment) throws {
        display = try Display.connect(environment: environment)
        window = try Window(display: display, scene: scene, title: title, appID: appID)
        if fullscreen { window.setFullscreen(true) }
        window.onClose = { [unowned self] in self.display.stop() }
        display.onSeatChange = { [unowned self] in self.attachSeat() }
        attachSeat()
    }

    private func attachSeat() {
        guard let bound = display.globals.seat else {
            seat = nil
            return
        }
        let newSeat = Seat(proxy: bound.proxy, version: bound.version)
        let scene = window.scene
        newSeat.onInput = { event in scene.handle(event) }
        seat = newSeat
    }

    /// Runs until the window is closed (returns) or the compositor goes away (throws).
    public func run() throws {
        try display.run { [unowned self] in try self.window.afterDispatch() }
    }

    /// Ends `run` after the current dispatch.
    public func quit() { display.stop() }
}
