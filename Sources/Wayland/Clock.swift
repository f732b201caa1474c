// The clocks of the Wayland host: local monotonic time, and each input device's event stamps
// mapped onto it (pure, so foreign and wrapping clocks are testable).
import Foundation

/// Milliseconds on CLOCK_MONOTONIC, the clock wlroots, weston and KWin stamp events with.
public func monotonicMilliseconds() -> Double { SystemCalls.monotonicMilliseconds() }

/// Maps one device's 32-bit millisecond event timestamps onto the local monotonic clock.
///
/// wl_pointer, wl_touch and wl_keyboard times have an undefined base: wlroots uses
/// CLOCK_MONOTONIC, but KWin's fake input is stamped with a clock hours apart from it (seen
/// here), and nested compositors pass such stamps through. Animations run on the frame
/// clock, so a fling started at an input time must be on that clock too. The mapping keeps
/// the device's spacing exactly (velocity needs it) and estimates the offset as the smallest
/// `now − time` seen: an event cannot arrive before it happened, so the fastest arrival is
/// the best estimate. Pure: `now` is a parameter.
public struct EventClock: Sendable {
    /// A jump of more than this between the estimated offset and an arrival means the
    /// device's clock changed (a new device, a suspended machine): start over. 1000 ms is
    /// far above any dispatch latency a smooth session has.
    public static let resetThreshold: Double = 1000

    private var lastRaw: UInt32?
    private var extended: Double = 0
    private var offset: Double?
    private var lastMapped = -Double.infinity

    /// A clock that has seen no event.
    public init() {}

    /// The local time (ms, the clock `now` is on) of an event stamped `time` by the device.
    public mutating func map(_ time: UInt32, now: Double) -> Double {
        if let last = lastRaw {
            // Signed difference: handles the 49.7-day wrap and slightly reordered stamps.
            extended += Double(Int32(bitPattern: time &- last))
        } else {
            extended = Double(time)
        }
        lastRaw = time
        let candidate = now - extended
        if let current = offset, candidate >= current, candidate - current <= Self.resetThreshold {
            // Slower arrival than the best seen: keep the estimate.
        } else if let current = offset, candidate < current {
            offset = candidate  // a faster arrival: a better estimate
        } else {
            offset = candidate  // first event, or the device's clock jumped
            lastMapped = -Double.infinity
        }
        // Never earlier than the previous event of this device: trackers expect order. Whole
        // milliseconds, the device's own resolution: the offset estimate's fractions (arrival
        // jitter) would otherwise spread a burst of events stamped in one millisecond over
        // made-up microseconds, which a velocity fit reads as absurd speeds, and a recording
        // (which keeps times to the microsecond) could not reproduce exactly.
        let mapped = max((extended + offset!).rounded(), lastMapped)
        lastMapped = mapped
        return mapped
    }
}

/// The input sources whose timestamps may each have their own base.
enum InputClock {
    case pointer, touch, keyboard, gesture
}

/// Per-source event clocks shared by the seat's devices (all on the event-loop thread).
enum EventClocks {
    nonisolated(unsafe) static var clocks: [InputClock: EventClock] = [:]
}

/// The local monotonic time of an event stamped `time` by `source`.
func unwrapEventTime(_ time: UInt32, source: InputClock, now: Double = monotonicMilliseconds()) -> Double {
    EventClocks.clocks[source, default: EventClock()].map(time, now: now)
}

/// When frame callbacks arrived, on the local monotonic clock (pure: `now` is a parameter).
///
/// A callback is dispatched when the loop gets to it, which may be well after it arrived
/// when the loop was drawing a frame ahead; the time a frame callback is answered in counts
/// from when the compositor sent it. `wl_callback.done` carries the compositor's time in ms,
/// CLOCK_MONOTONIC's in wlroots (sway, cage), weston, KWin and mutter: the local clock's
/// milliseconds, cut to 32 bits. No offset is estimated, as `EventClock` does for input: an
/// estimate from the fastest dispatch never learns when every callback comes while the loop
/// draws, which is when it matters.
public enum CallbackClock {
    /// The arrival (ms) of a callback stamped `stamp`, asked for by a commit at `requested` and
    /// dispatched at `now` (both ms on the local clock): the stamp as the local clock's
    /// milliseconds, kept between the two. A stamp that is not such a time (before the commit
    /// by more than its 1 ms resolution, or after the dispatch: a compositor on another clock,
    /// or sending none) cannot be believed: `now`, the dispatch, stands in.
    public static func arrival(stamp: UInt32, requested: Double, now: Double) -> Double {
        guard now.isFinite, now >= 0, now < 0x1p52 else { return now }
        let wrap = Double(1 << 32)
        // The time ending in `stamp` nearest below now (the stamp truncates to whole ms).
        var time = (now / wrap).rounded(.down) * wrap + Double(stamp)
        if time > now + 1 { time -= wrap }
        guard time >= requested - 1, time <= now + 1 else { return now }
        return min(max(time, requested), now)
    }
}
