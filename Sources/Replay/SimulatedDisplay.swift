// An offscreen stand-in for the compositor's frame clock: it interleaves timed input with
// vsync ticks exactly as the Wayland event loop would, with no real time passing.
//
// Model (the same as the live window): frames fall on a fixed grid, frame k at
// k · 1000 / frameRate ms. A tick happens on a grid time only when the client asked for a
// frame (something animates or changed), as a frame callback would; an idle client costs
// nothing, so a day-long kiosk trace replays in moments. Input queued for the same instant as
// a vsync is dispatched first and the frame callback after it, because the compositor sends
// input as it arrives and the frame-done event only once the frame is presented. A client
// may also ask to be woken at a time that is not a frame (a timer, e.g. the delay before
// content touches are delivered): it is woken exactly then.

/// An action scheduled at a time, for the display to deliver.
public struct TimedAction<Action> {
    /// Milliseconds since the start of the run.
    public var time: Double
    /// What to deliver.
    public var action: Action

    /// Schedules `action` at `time` ms.
    public init(time: Double, action: Action) {
        self.time = time
        self.action = action
    }
}

/// What a `SimulatedDisplay` drives: a window's content, seen from the host's side.
public protocol DisplayClient: AnyObject {
    /// The kind of timed input this client receives.
    associatedtype Action
    /// Delivers one input action at `time` ms.
    func perform(_ action: Action, at time: Double)
    /// Whether the client needs a frame at the next vsync (it animates or something changed).
    var wantsFrame: Bool { get }
    /// When the client must run next even without a frame (a timer), in ms; nil when none.
    var nextWakeTime: Double? { get }
    /// A timer fired at `time` ms.
    func wake(at time: Double)
    /// A frame callback for the vsync at `time` ms: advance animations to `time` and draw.
    func tick(frameTime time: Double)
}

/// The fixed grid of vsync times.
public struct FrameClock: Equatable, Sendable {
    /// Frames per second.
    public let frameRate: Double

    /// A clock with `frameRate` frames per second (must be positive).
    public init(frameRate: Double) {
        precondition(frameRate > 0 && frameRate.isFinite, "frame rate must be positive")
        self.frameRate = frameRate
    }

    /// Milliseconds between frames.
    public var interval: Double { 1000 / frameRate }

    /// The time of frame `index`, in ms: `index · 1000 / frameRate`, divided last so that a
    /// frame whose time is a whole number is exactly that number (frame 6 at 60 Hz is 100 ms,
    /// not 100.00000000000001), and an event stamped with that time sorts before its tick;
    /// computed afresh, so times do not drift the way repeated addition would.
    public func time(ofFrame index: Int) -> Double { Double(index) * 1000 / frameRate }

    /// The index of the first frame at or after `time` ms.
    public func firstFrame(atOrAfter time: Double) -> Int {
        var index = Int((time * frameRate / 1000).rounded(.up))
        // The estimate can be off by one either way through rounding; settle it exactly.
        while index > 0, self.time(ofFrame: index - 1) >= time { index -= 1 }
        while self.time(ofFrame: index) < time { index += 1 }
        return index
    }
}

/// How a run ended.
public enum DisplayOutcome: Equatable, Sendable {
    /// All input was delivered and the client came to rest at `time` ms.
    case settled(time: Double)
    /// The client still wanted frames or timers `settleLimit` ms after the last input; the run
    /// stopped at `time` ms.
    case timedOut(time: Double)
    /// The run was stopped at `time` ms before the timeline was done: `frameLimit` ticks were
    /// delivered, or `stop()` was called (the host's own budget ran out).
    case stopped(time: Double)
}

/// Runs a client against a timeline of input on simulated frame times.
public final class SimulatedDisplay {
    /// The vsync grid.
    public let clock: FrameClock
    /// Frame ticks delivered so far.
    public private(set) var frameCount = 0
    /// The time of the last delivered input, timer or tick, in ms.
    public private(set) var now: Double = 0
    /// The most frame ticks one run delivers before it stops with `.stopped`: the bound on a
    /// run's work whatever its timeline asks (frames tick only while something moves, so it
    /// bounds time spent in motion, not idle stretches). Unlimited by default.
    public var frameLimit = Int.max

    private var lastFrameIndex = -1
    private var lastWake: Double?
    private var stopRequested = false

    /// A display refreshing `frameRate` times per second.
    public init(frameRate: Double) {
        clock = FrameClock(frameRate: frameRate)
    }

    /// Ends `run` after the input, timer or tick being delivered (from the client or the
    /// host, e.g. when its output budget is spent); the run returns `.stopped`.
    public func stop() { stopRequested = true }

    /// Delivers `timeline` (sorted by time) to `client`, ticking frames as the client asks,
    /// then keeps ticking until it rests, for at most `settleLimit` ms after the last input;
    /// stops early after `frameLimit` ticks or a `stop()`.
    public func run<Client: DisplayClient>(_ timeline: [TimedAction<Client.Action>], on client: Client,
                                           settleLimit: Double = 60_000) -> DisplayOutcome {
        var next = 0
        let deadline = (timeline.last?.time ?? 0) + settleLimit
        while true {
            if stopRequested || frameCount >= frameLimit { return .stopped(time: now) }
            let inputTime = next < timeline.count ? timeline[next].time : nil
            var wakeTime = client.nextWakeTime.map { max($0, now) }
            if let w = wakeTime, w == lastWake { wakeTime = nil }  // already woken for it; it is stuck until time moves
            var frameIndex: Int?
            if client.wantsFrame {
                frameIndex = max(lastFrameIndex + 1, clock.firstFrame(atOrAfter: now))
            }
            let frameTime = frameIndex.map(clock.time(ofFrame:))

            // Equal times: input, then timers, then the frame callback.
            if let t = inputTime, t <= (wakeTime ?? .infinity), t <= (frameTime ?? .infinity) {
                now = max(now, t)
                let action = timeline[next].action
                next += 1
                client.perform(action, at: now)
                continue
            }
            guard wakeTime != nil || frameTime != nil else { return .settled(time: now) }
            let t = min(wakeTime ?? .infinity, frameTime ?? .infinity)
            if inputTime == nil, t > deadline { return .timedOut(time: now) }
            now = t
            if let w = wakeTime, w <= t {
                lastWake = w
                client.wake(at: w)
            } else if let index = frameIndex {
                lastFrameIndex = index
                frameCount += 1
                client.tick(frameTime: t)
            }
        }
    }
}
