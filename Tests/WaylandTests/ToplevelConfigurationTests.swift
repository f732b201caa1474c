// What the shell role hands the window, without a compositor: a toplevel's configure, bounds and
// capabilities events as values, and the size the window takes from them.
import Testing
@testable import Wayland

@Suite("Toplevel configuration")
struct ToplevelConfigurationTests {
    static let defaultSize = SurfaceSize(width: 800, height: 600)

    @Test("A configure's size and states; unknown states of later versions are left out")
    func configure() {
        var configuration = ToplevelConfiguration()
        #expect(!configuration.isFullscreen && configuration.states.isEmpty)
        // xdg_toplevel.state: 2 fullscreen, 4 activated, 9 suspended (xdg_wm_base v6), 77 nothing.
        configuration.configure(width: 1024, height: 768, states: [2, 4, 9, 77])
        #expect(configuration.requestedSize == SurfaceSize(width: 1024, height: 768))
        #expect(configuration.states == [.fullscreen, .activated])
        #expect(configuration.isFullscreen)
        configuration.configure(width: 0, height: 0, states: [1, 5, 6, 7, 8, 3])
        #expect(configuration.states == [.maximized, .tiledLeft, .tiledRight, .tiledTop, .tiledBottom, .resizing])
        #expect(!configuration.isFullscreen)
    }

    @Test("configure_bounds and wm_capabilities are kept until changed; 0×0 bounds mean unknown")
    func boundsAndCapabilities() {
        var configuration = ToplevelConfiguration()
        #expect(configuration.bounds == nil && configuration.capabilities == nil, "never sent: nil, not empty")
        configuration.configureBounds(width: 640, height: 480)
        // xdg_toplevel.wm_capabilities: 1 window menu, 3 fullscreen, 4 minimize (no 2: cannot maximise).
        configuration.wmCapabilities([1, 3, 4, 0, 12])
        configuration.configure(width: 0, height: 0, states: [])
        #expect(configuration.bounds == SurfaceSize(width: 640, height: 480))
        #expect(configuration.capabilities == [.windowMenu, .fullscreen, .minimize])
        #expect(configuration.capabilities?.contains(.maximize) == false)
        configuration.configureBounds(width: 0, height: 0)
        #expect(configuration.bounds == nil)
        configuration.configureBounds(width: -5, height: 300)
        #expect(configuration.bounds == nil, "a negative side is as unknown as 0")
        configuration.wmCapabilities([])
        #expect(configuration.capabilities == [], "sent empty: the compositor offers none")
    }

    @Test("The size taken: asked sides, else the current ones, else the default; clamped to the largest edge")
    func windowSize() {
        var configuration = ToplevelConfiguration()
        let none = SurfaceSize(width: 0, height: 0)
        // The first configure of sway and KWin is 0×0: the default size.
        #expect(configuration.windowSize(current: none, defaultSize: Self.defaultSize, maxEdge: 16384) == Self.defaultSize)
        configuration.configure(width: 1280, height: 0, states: [])
        #expect(configuration.windowSize(current: SurfaceSize(width: 800, height: 500), defaultSize: Self.defaultSize, maxEdge: 16384)
                == SurfaceSize(width: 1280, height: 500), "a side of 0 keeps the current one")
        #expect(configuration.windowSize(current: none, defaultSize: Self.defaultSize, maxEdge: 16384)
                == SurfaceSize(width: 1280, height: 600), "before the first configure, the default one")
        configuration.configure(width: -3, height: 900_000, states: [])
        #expect(configuration.windowSize(current: SurfaceSize(width: 300, height: 200), defaultSize: Self.defaultSize, maxEdge: 16384)
                == SurfaceSize(width: 300, height: 16384), "a hostile size is clamped, a negative one ignored")
        // Bounds are kept for the window to use; the size taken does not follow them yet.
        configuration.configureBounds(width: 640, height: 480)
        configuration.configure(width: 0, height: 0, states: [])
        #expect(configuration.windowSize(current: none, defaultSize: Self.defaultSize, maxEdge: 16384) == Self.defaultSize)
    }
}
