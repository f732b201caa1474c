// The simulated frame clock: what is delivered when, in what order, and when it stops.
import Testing
@testable import Replay

/// A client that logs everything it is given and animates until `animateUntil`.
private final class LoggingClient: DisplayClient {
    var log: [String] = []
    /// Animation end time (ms) set by input "animate:<ms>"; frames are wanted until then.
    var animateUntil = -1.0
    /// A pending timer, cleared when it fires.
    var timer: Double?
    private var now = 0.0

    func perform(_ action: String, at time: Double) {
        now = time
        log.append("\(action)@\(ReplayOutput.number(time))")
        if action.hasPrefix("animate:") { animateUntil = Double(action.dropFirst(8))! }
        if action.hasPrefix("timer:") { timer = Double(action.dropFirst(6))! }
    }

    var wantsFrame: Bool { now < animateUntil }
    var nextWakeTime: Double? { timer }

    func wake(at time: Double) {
        now = time
        timer = nil
        log.append("wake@\(ReplayOutput.number(time))")
    }

    func tick(frameTime time: Double) {
        now = time
        log.append("frame@\(ReplayOutput.number(time))")
    }
}

@Suite("Simulated display")
struct SimulatedDisplayTests {
    @Test("an idle client gets its input and no frames")
    func idle() {
        let client = LoggingClient()
        let display = SimulatedDisplay(frameRate: 100)
        let outcome = display.run([TimedAction(time: 3, action: "a"), TimedAction(time: 12.5, action: "b")], on: client)
        #expect(client.log == ["a@3", "b@12.5"])
        #expect(outcome == .settled(time: 12.5))
        #expect(display.frameCount == 0)
    }

    @Test("frames fall on the grid while animating; input at a frame time comes before its tick")
    func gridAndOrder() {
        let client = LoggingClient()
        let display = SimulatedDisplay(frameRate: 100)  // 10 ms frames
        let outcome = display.run([TimedAction(time: 4, action: "animate:35"),
                                   TimedAction(time: 20, action: "x")], on: client)
        #expect(client.log == ["animate:35@4", "frame@10", "x@20", "frame@20", "frame@30", "frame@40"])
        #expect(outcome == .settled(time: 40))
        #expect(display.frameCount == 4)
    }

    @Test("the grid is anchored at t = 0, so 60 Hz frames land on multiples of 1000/60 ms without drift")
    func sixtyHertz() {
        let client = LoggingClient()
        let display = SimulatedDisplay(frameRate: 60)
        _ = display.run([TimedAction(time: 0, action: "animate:50000")], on: client)
        #expect(client.log[1] == "frame@0")
        #expect(client.log[2] == "frame@16.667")
        #expect(client.log.last == "frame@50000")  // frame 3000 is exactly 50 s
        #expect(display.frameCount == 3001)
        #expect(FrameClock(frameRate: 60).time(ofFrame: 6) == 100)
        #expect(FrameClock(frameRate: 60).time(ofFrame: 18) == 300)
        #expect(FrameClock(frameRate: 60).firstFrame(atOrAfter: 50) == 3)
        #expect(FrameClock(frameRate: 60).firstFrame(atOrAfter: 50.001) == 4)
    }

    @Test("at 60 Hz an event stamped with a frame's time (100 ms = frame 6) still comes before that tick")
    func sixtyHertzOrder() {
        let client = LoggingClient()
        let display = SimulatedDisplay(frameRate: 60)
        _ = display.run([TimedAction(time: 90, action: "animate:110"), TimedAction(time: 100, action: "x")], on: client)
        #expect(client.log == ["animate:110@90", "x@100", "frame@100", "frame@116.667"])
    }

    @Test("a timer wakes the client at its exact time, between frames")
    func timers() {
        let client = LoggingClient()
        let display = SimulatedDisplay(frameRate: 100)
        let outcome = display.run([TimedAction(time: 1, action: "timer:37"), TimedAction(time: 2, action: "animate:45")],
                                  on: client)
        #expect(client.log == ["timer:37@1", "animate:45@2", "frame@10", "frame@20", "frame@30", "wake@37", "frame@40",
                               "frame@50"])
        #expect(outcome == .settled(time: 50))
    }

    @Test("a client that never rests is stopped 60 s after the last input")
    func timeout() {
        let client = LoggingClient()
        let display = SimulatedDisplay(frameRate: 100)
        let outcome = display.run([TimedAction(time: 500, action: "animate:1e9")], on: client, settleLimit: 60_000)
        #expect(outcome == .timedOut(time: 60_500))
        #expect(display.frameCount == 6001)  // 500, 510, … 60500
        #expect(client.log.last == "frame@60500")
    }
}
