// When a window holds an idle inhibitor: exactly while the application wants the screen on and
// the surface is shown; a compositor without the protocol is named once.
import Testing
@testable import Wayland

@Suite("Idle inhibition")
struct IdleInhibitionTests {
    @Test("The inhibitor exists while wanted and shown: made once, released when not wanted or when hidden, made again")
    func sequence() {
        var state = IdleInhibition(available: true)
        let steps: [(wanted: Bool, hidden: Bool, action: IdleInhibition.Action)] = [
            (false, false, .none),
            (true, false, .inhibit),
            (true, false, .none),         // asked again every dispatch: nothing new is sent
            (true, true, .release),       // hidden: another workspace, the output gone
            (true, true, .none),
            (true, false, .inhibit),      // shown again
            (false, false, .release),     // the show paused
            (false, true, .none),
            (true, false, .inhibit),
        ]
        for (n, step) in steps.enumerated() {
            #expect(state.update(wanted: step.wanted, hidden: step.hidden) == step.action, "step \(n)")
            #expect(state.inhibiting == (step.wanted && !step.hidden), "step \(n)")
        }
    }

    @Test("Without the protocol: one warning the first time the screen should stay on, never again, and no inhibitor")
    func unavailable() {
        var state = IdleInhibition(available: false)
        #expect(state.update(wanted: false, hidden: false) == .none)
        #expect(state.update(wanted: true, hidden: true) == .none, "hidden: nothing to keep on yet")
        #expect(state.update(wanted: true, hidden: false) == .warnUnavailable)
        #expect(state.update(wanted: false, hidden: false) == .none)
        #expect(state.update(wanted: true, hidden: false) == .none)
        #expect(!state.inhibiting)
        #expect(IdleInhibition.unavailableWarning.contains("zwp_idle_inhibit_manager_v1"))
    }
}
