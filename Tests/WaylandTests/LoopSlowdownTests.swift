// SCROLLKIT_SLOW_LOOP_MS, the live tests' stand-in for a slow machine: a whole number of ms from
// 1 to 1,000 becomes the loop's sleep; anything else is ignored with a warning naming it.
import Testing
@testable import Wayland

@Suite("Loop slowdown for live tests")
struct LoopSlowdownTests {
    @Test("Unset or empty: no sleep and no warning")
    func unset() {
        #expect(Application.loopSlowdown([:]) == (0, nil))
        #expect(Application.loopSlowdown(["SCROLLKIT_SLOW_LOOP_MS": ""]) == (0, nil))
    }

    @Test("1 to 1,000 ms becomes seconds")
    func accepted() {
        #expect(Application.loopSlowdown(["SCROLLKIT_SLOW_LOOP_MS": "100"]) == (0.1, nil))
        #expect(Application.loopSlowdown(["SCROLLKIT_SLOW_LOOP_MS": "1"]) == (0.001, nil))
        #expect(Application.loopSlowdown(["SCROLLKIT_SLOW_LOOP_MS": "1000"]) == (1, nil))
    }

    @Test("Anything else is ignored, with a warning that names the variable and its value", arguments: [
        "0", "1001", "-5", "abc", "1.5", " 100", "99999999999999999999999",
    ])
    func refused(value: String) {
        let (seconds, warning) = Application.loopSlowdown(["SCROLLKIT_SLOW_LOOP_MS": value])
        #expect(seconds == 0)
        #expect(warning == "SCROLLKIT_SLOW_LOOP_MS=\(value) is not a whole number of milliseconds from 1 to 1000; ignored")
    }
}
