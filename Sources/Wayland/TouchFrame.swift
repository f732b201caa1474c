// Groups wl_touch events into InputEvent values per wl_touch.frame, keeping only touch points
// that went down on our surface; pure, so hostile sequences are testable without a compositor.
import Foundation
import ScrollKit

/// Accumulates `wl_touch` events until `frame` and turns them into `InputEvent`s.
///
/// Ids are the compositor's touch point ids. Motion and up for an id that never went down
/// (or went down beyond `maxTouchPoints`) are dropped; `cancel` ends every touch point.
public struct TouchFrameBuilder: Sendable {
    /// Most touch points followed at once: ten fingers (decision); more downs are ignored,
    /// so a hostile compositor cannot grow the table without bound.
    public static let maxTouchPoints = 10
    /// Largest coordinate accepted, in surface points (see `PointerFrameBuilder.maxCoordinate`).
    public static let maxCoordinate: Double = PointerFrameBuilder.maxCoordinate

    /// Ids that are down, in the order they went down.
    public private(set) var activeIDs: [Int] = []
    /// Events dropped as out of protocol order or beyond the limits, for diagnostics and tests.
    public private(set) var droppedEvents = 0
    /// The latest event time seen, in ms.
    public private(set) var lastTime: Double = 0
    private var items: [InputEvent] = []

    /// Creates an empty builder with no finger down.
    public init() {}

    /// `wl_touch.down` at surface coordinates. A second down for an id that is already down
    /// (its up was lost) becomes a motion, so the finger is not counted twice.
    public mutating func down(time: Double, id: Int32, x: Double, y: Double) {
        guard let location = Self.location(x, y) else {
            droppedEvents += 1
            return
        }
        let id = Int(id)
        lastTime = time
        if activeIDs.contains(id) {
            items.append(InputEvent(time: time, kind: .touchMotion(id: id, location: location)))
            return
        }
        guard activeIDs.count < Self.maxTouchPoints else {
            droppedEvents += 1
            return
        }
        activeIDs.append(id)
        items.append(InputEvent(time: time, kind: .touchDown(id: id, location: location)))
    }

    /// `wl_touch.motion` of a touch point that is down.
    public mutating func motion(time: Double, id: Int32, x: Double, y: Double) {
        guard activeIDs.contains(Int(id)), let location = Self.location(x, y) else {
            droppedEvents += 1
            return
        }
        lastTime = time
        items.append(InputEvent(time: time, kind: .touchMotion(id: Int(id), location: location)))
    }

    /// `wl_touch.up` of a touch point that is down.
    public mutating func up(time: Double, id: Int32) {
        guard let index = activeIDs.firstIndex(of: Int(id)) else {
            droppedEvents += 1
            return
        }
        activeIDs.remove(at: index)
        lastTime = time
        items.append(InputEvent(time: time, kind: .touchUp(id: Int(id))))
    }

    /// `wl_touch.frame`: returns the frame's events in order and starts a new frame.
    public mutating func frame() -> [InputEvent] {
        defer { items = [] }
        return items
    }

    /// `wl_touch.cancel` (no timestamp: `now` is used): the compositor took the sequence
    /// away, so the unfinished frame is discarded and one `touchCancel` ends the gesture
    /// without a fling. Nothing is delivered when no finger was down.
    public mutating func cancel(now: Double) -> [InputEvent] {
        let hadTouches = !activeIDs.isEmpty
        items = []
        activeIDs = []
        guard hadTouches else { return [] }
        lastTime = max(now, lastTime)
        return [InputEvent(time: lastTime, kind: .touchCancel)]
    }

    /// The touch device went away: fingers still down are cancelled as by `cancel`, after the
    /// events of the unfinished frame, which did happen.
    public mutating func deviceRemoved(now: Double) -> [InputEvent] {
        let pending = frame()
        return pending + cancel(now: now)
    }

    private static func location(_ x: Double, _ y: Double) -> CGPoint? {
        guard x.isFinite, y.isFinite, abs(x) <= maxCoordinate, abs(y) <= maxCoordinate else { return nil }
        return CGPoint(x: x, y: y)
    }
}
