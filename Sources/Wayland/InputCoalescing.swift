// Input frames read in one go, merged where only the last position or the sum of the scrolling
// matters: a burst of thousands of wheel events becomes a few events for the scene (pure).
import Foundation
import ScrollKit

/// Merges input frames that arrived together (one read of the socket), as `Seat` hands them
/// over after each dispatch. Only frames of a single event merge, and only with the frame just
/// before them, so the order of everything else is kept:
/// - pointer motion: the later position replaces the earlier (positions are absolute);
/// - wheel, tilt and continuous axis events of the same source: values and notches add up.
///
/// Touchpad finger scrolling is left alone: its samples feed the velocity of the glide after
/// `axis_stop`, and a touchpad sends about a hundred a second, never a burst.
enum InputCoalescing {
    /// `frames` in order, adjacent mergeable ones merged; every event keeps the seat state it
    /// was stamped with, and a merged event takes the time of the later one.
    static func coalesced(_ frames: [[InputEvent]]) -> [[InputEvent]] {
        var out: [[InputEvent]] = []
        out.reserveCapacity(frames.count)
        for frame in frames {
            if frame.count == 1, let previous = out.last, previous.count == 1,
               let merged = merge(previous[0], frame[0]) {
                out[out.count - 1] = [merged]
            } else {
                out.append(frame)
            }
        }
        return out
    }

    /// The one event `first` then `second` amount to, or nil when both must be delivered.
    static func merge(_ first: InputEvent, _ second: InputEvent) -> InputEvent? {
        guard first.modifiers == second.modifiers else { return nil }
        switch (first.kind, second.kind) {
        case (.pointerMotion, .pointerMotion):
            return second
        case (.pointerAxis(let source, let dx1, let dy1, let x1, let y1),
              .pointerAxis(let source2, let dx2, let dy2, let x2, let y2)):
            // Sums only within one kind of amount: notches with notches, plain values with
            // plain values (InputEvent.notches reads value120 when present, else the value).
            guard source == source2, source != .finger, first.pointerLocation == second.pointerLocation,
                  (x1 == nil) == (x2 == nil), (y1 == nil) == (y2 == nil) else { return nil }
            var event = second
            event.kind = .pointerAxis(source: source, dx: dx1 + dx2, dy: dy1 + dy2,
                                      value120X: sum(x1, x2), value120Y: sum(y1, y2))
            return event
        default:
            return nil
        }
    }

    /// Two notch counts (value120) added, or nil when the frames carried none; each is a wl_fixed
    /// or int32 from the protocol, so the sum of any burst fits an Int.
    private static func sum(_ a: Int?, _ b: Int?) -> Int? {
        guard let a, let b else { return nil }
        return a + b
    }
}
