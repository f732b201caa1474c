// What the shell role hands the window, without a compositor: a toplevel's configure, bounds and
// capabilities events (and libdecor's window states) as values, the size the window takes from
// them, and which role a window gets.
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
    }

    @Test("The first size fits the default into configure_bounds; sizes the compositor asks for are its own")
    func bounds() {
        let none = SurfaceSize(width: 0, height: 0)
        var configuration = ToplevelConfiguration()
        // KWin on a 640×480 output: a default of 800×600 would not fit.
        configuration.configureBounds(width: 640, height: 480)
        configuration.configure(width: 0, height: 0, states: [])
        #expect(configuration.windowSize(current: none, defaultSize: Self.defaultSize, maxEdge: 16384)
                == SurfaceSize(width: 640, height: 480))
        // A work area narrower than the default only: each side on its own.
        configuration.configureBounds(width: 1024, height: 540)
        #expect(configuration.windowSize(current: none, defaultSize: Self.defaultSize, maxEdge: 16384)
                == SurfaceSize(width: 800, height: 540))
        // Later configures keep the current size: the bounds only shape the first.
        #expect(configuration.windowSize(current: SurfaceSize(width: 900, height: 700), defaultSize: Self.defaultSize,
                                         maxEdge: 16384) == SurfaceSize(width: 900, height: 700))
        // A size the compositor asks for is taken even beyond its bounds (a maximised window on
        // a screen whose work area shrank): the bounds are advice for the window's own choice.
        configuration.configure(width: 1200, height: 900, states: [])
        #expect(configuration.windowSize(current: none, defaultSize: Self.defaultSize, maxEdge: 16384)
                == SurfaceSize(width: 1200, height: 900))
        configuration.configureBounds(width: 0, height: 0)
        configuration.configure(width: 0, height: 0, states: [])
        #expect(configuration.windowSize(current: none, defaultSize: Self.defaultSize, maxEdge: 16384) == Self.defaultSize,
                "unknown bounds: the default")
    }

    @Test("A floating window never takes less than its minimum; maximised, fullscreen and tiled ones take what they get")
    func minimumSize() {
        let minimum = SurfaceSize(width: 320, height: 240)
        let current = SurfaceSize(width: 800, height: 600)
        var configuration = ToplevelConfiguration()
        // sway's `resize set 71 21` on a floating window: a hint, below the minimum.
        configuration.configure(width: 71, height: 21, states: [4])
        #expect(configuration.states.isFloating)
        #expect(configuration.windowSize(current: current, defaultSize: Self.defaultSize, minimumSize: minimum, maxEdge: 16384)
                == minimum)
        configuration.configure(width: 500, height: 100, states: [])
        #expect(configuration.windowSize(current: current, defaultSize: Self.defaultSize, minimumSize: minimum, maxEdge: 16384)
                == SurfaceSize(width: 500, height: 240), "each side on its own")
        // xdg_toplevel.state 1 maximized, 2 fullscreen, 5–8 tiled: the size is the compositor's.
        for states: [UInt32] in [[1], [2], [5], [6, 7], [8, 4]] {
            configuration.configure(width: 200, height: 150, states: states)
            #expect(!configuration.states.isFloating, "states \(states)")
            #expect(configuration.windowSize(current: current, defaultSize: Self.defaultSize, minimumSize: minimum, maxEdge: 16384)
                    == SurfaceSize(width: 200, height: 150), "states \(states)")
        }
        // Bounds smaller than the minimum (a tiny screen): the window fits the screen.
        configuration.configureBounds(width: 300, height: 200)
        configuration.configure(width: 100, height: 100, states: [])
        #expect(configuration.windowSize(current: current, defaultSize: Self.defaultSize, minimumSize: minimum, maxEdge: 16384)
                == SurfaceSize(width: 300, height: 200))
        configuration.configure(width: 0, height: 0, states: [])
        #expect(configuration.windowSize(current: SurfaceSize(width: 0, height: 0), defaultSize: Self.defaultSize,
                                         minimumSize: minimum, maxEdge: 16384) == SurfaceSize(width: 300, height: 200))
    }

    @Test("Leaving fullscreen or maximised with a 0×0 configure returns to the floating size; never floating, to the default")
    func floatingSizeRestored() {
        var sizing = ToplevelSizing(defaultSize: Self.defaultSize, minimumSize: SurfaceSize(width: 320, height: 240), maxEdge: 16384)
        var configuration = ToplevelConfiguration()
        configuration.configure(width: 0, height: 0, states: [4])
        #expect(sizing.take(configuration) == Self.defaultSize)
        configuration.configure(width: 900, height: 700, states: [4, 3])  // an interactive resize
        #expect(sizing.take(configuration) == SurfaceSize(width: 900, height: 700))
        // weston: fullscreen at the output's size, then 0×0 when it ends.
        configuration.configure(width: 1024, height: 768, states: [2, 4])
        #expect(sizing.take(configuration) == SurfaceSize(width: 1024, height: 768))
        configuration.configure(width: 0, height: 0, states: [4])
        #expect(sizing.take(configuration) == SurfaceSize(width: 900, height: 700), "not the fullscreen size")
        configuration.configure(width: 1024, height: 740, states: [1])
        #expect(sizing.take(configuration) == SurfaceSize(width: 1024, height: 740))
        configuration.configure(width: 0, height: 600, states: [])
        #expect(sizing.take(configuration) == SurfaceSize(width: 900, height: 600), "a side asked for is taken, the other restored")
        // A window that starts fullscreen (--fullscreen) has no floating size yet: the default,
        // fitted into the bounds.
        var started = ToplevelSizing(defaultSize: Self.defaultSize, minimumSize: SurfaceSize(width: 320, height: 240), maxEdge: 16384)
        var fullscreen = ToplevelConfiguration()
        fullscreen.configureBounds(width: 1024, height: 500)
        fullscreen.configure(width: 1024, height: 768, states: [2])
        #expect(started.take(fullscreen) == SurfaceSize(width: 1024, height: 768))
        fullscreen.configure(width: 0, height: 0, states: [])
        #expect(started.take(fullscreen) == SurfaceSize(width: 800, height: 500))
        // A non-floating configure that leaves a side to the window keeps the current one.
        fullscreen.configure(width: 0, height: 0, states: [5])
        #expect(started.take(fullscreen) == SurfaceSize(width: 800, height: 500))
    }

    @Test("libdecor's window states become the toplevel's")
    func libdecorStates() {
        // libdecor.h: active 1, maximized 2, fullscreen 4, tiled left 8, right 16, top 32, bottom 64.
        #expect(LibdecorFrame.states(windowState: 0) == [])
        #expect(LibdecorFrame.states(windowState: 1 | 4) == [.activated, .fullscreen])
        #expect(LibdecorFrame.states(windowState: 2 | 8 | 16 | 32 | 64) == [.maximized, .tiled])
        #expect(LibdecorFrame.states(windowState: 1 << 7 | 1 << 20) == [], "bits of later versions are left out")
        #expect(!LibdecorFrame.states(windowState: 8).isFloating && LibdecorFrame.states(windowState: 1).isFloating)
    }

    @Test("Server-side decorations where offered, libdecor elsewhere, never libdecor for a kiosk")
    func shellRoleChoice() {
        #expect(ShellRoleKind.choose(.automatic, decorationManagerOffered: true) == .xdgShell(serverSideDecorations: true))
        #expect(ShellRoleKind.choose(.automatic, decorationManagerOffered: false) == .libdecor)
        #expect(ShellRoleKind.choose(.serverSideOnly, decorationManagerOffered: true) == .xdgShell(serverSideDecorations: true))
        #expect(ShellRoleKind.choose(.serverSideOnly, decorationManagerOffered: false) == .xdgShell(serverSideDecorations: false))
    }
}
