// The slideshow and idle-reset clock: pure, fed with input and frame times, so a replayed
// kiosk day behaves exactly like the live one.

/// What the schedule asks the gallery to do at a tick.
public enum KioskAction: Hashable, Sendable {
    /// Show the next image (after the last, the first).
    case nextSlide
    /// Nobody touched the screen for the idle delay: back to the first image at fit.
    case idleReset
}

/// When the slideshow advances and when an idle screen returns to the start.
///
/// Times are milliseconds on the host's clock (input event and frame times). The slideshow
/// pauses while a finger or the pointer button is down and starts its count again when it
/// lifts, and stays paused when paused by command (the P key) until resumed or reset; any input
/// starts both counts again. The idle reset fires once per quiet spell and resumes a paused
/// show: the kiosk is back as it started.
public struct KioskSchedule: Equatable, Sendable {
    /// Milliseconds between slides, nil for no slideshow.
    public let slideInterval: Double?
    /// Milliseconds without input before the idle reset, nil for none.
    public let idleDelay: Double?

    /// When the next slide is due (nil: paused or no slideshow).
    public private(set) var nextSlide: Double?
    /// When the idle reset is due (nil: none pending).
    public private(set) var idleDeadline: Double?
    /// Whether a finger or the pointer button is down.
    public private(set) var isTouched = false
    /// Whether the slideshow was paused by command.
    public private(set) var isPaused = false
    private var started = false

    /// A schedule; intervals in milliseconds. Non-finite or non-positive values disable the
    /// feature (the command line refuses them before this point).
    public init(slideInterval: Double?, idleDelay: Double?) {
        self.slideInterval = slideInterval.flatMap { $0.isFinite && $0 > 0 ? $0 : nil }
        self.idleDelay = idleDelay.flatMap { $0.isFinite && $0 > 0 ? $0 : nil }
    }

    /// Whether there is anything to schedule at all.
    public var isActive: Bool { slideInterval != nil || idleDelay != nil }

    /// Whether a slideshow is playing: there is one and it is not paused by command (a finger
    /// down only holds the next slide back).
    public var isPlaying: Bool { slideInterval != nil && !isPaused }

    /// Pauses the slideshow (`paused`) or resumes it at `time`, the next slide one interval on.
    public mutating func setPaused(_ paused: Bool, at time: Double) {
        isPaused = paused
        nextSlide = paused || isTouched ? nil : slideInterval.map { time + $0 }
    }

    /// Input arrived at `time`; `touching` says whether a finger or button is down after it.
    public mutating func noteInput(at time: Double, touching: Bool) {
        started = true
        isTouched = touching
        nextSlide = touching || isPaused ? nil : slideInterval.map { time + $0 }
        idleDeadline = touching ? nil : idleDelay.map { time + $0 }
    }

    /// Advances to `time` and returns what is due, slides first.
    public mutating func advance(to time: Double) -> [KioskAction] {
        if !started {
            // The clock starts with the first tick: the first slide is one interval later.
            started = true
            nextSlide = isPaused ? nil : slideInterval.map { time + $0 }
            return []
        }
        guard !isTouched else { return [] }
        var due: [KioskAction] = []
        if let t = nextSlide, time >= t, let interval = slideInterval {
            due.append(.nextSlide)
            // From now, not from the missed deadline: a suspended machine shows one slide on
            // waking, not a burst.
            nextSlide = time + interval
        }
        if let t = idleDeadline, time >= t {
            due.append(.idleReset)
            idleDeadline = nil
            // The show starts over with the first image, playing again if it was paused.
            isPaused = false
            if let interval = slideInterval { nextSlide = time + interval }
        }
        return due
    }

    /// The earliest time something is due, for the host's timer; nil when nothing is.
    public var nextDeadline: Double? {
        guard !isTouched else { return nil }
        switch (nextSlide, idleDeadline) {
        case (let a?, let b?): return min(a, b)
        case (let a?, nil): return a
        case (nil, let b?): return b
        case (nil, nil): return nil
        }
    }
}
