// Test driver: a scroll view in a root view, a delegate that records every call (and every
// control event) with the state flags at that moment, and a clock that interleaves events
// with 60 Hz frame ticks and the scroll view's timers the way the Wayland loop and the
// replay do.
import Foundation
import Replay
import Testing
@testable import ScrollKit

/// Delegate calls as compact strings: the method name, then the state flags (T = tracking,
/// D = dragging, E = decelerating, "-" = false), e.g. "didScroll TD-". The recording itself is
/// the replay's `RecordingDelegate` (set `scrollView.delegate = recorder.delegate`), so the
/// tests and `scroll-replay` see calls through the same code.
final class Recorder {
    struct Call {
        var name: String
        var offset: CGPoint
        var time: Double
        var isTracking: Bool
        var isDragging: Bool
        var isDecelerating: Bool
        var isZooming = false
        var isZoomBouncing = false
        var zoomScale: CGFloat = 1

        var line: String {
            name + " " + (isTracking ? "T" : "-") + (isDragging ? "D" : "-") + (isDecelerating ? "E" : "-")
        }

        /// `line` plus the zoom flags: Z = zooming, B = zoom bouncing.
        var zoomLine: String {
            line + (isZooming ? "Z" : "-") + (isZoomBouncing ? "B" : "-")
        }
    }

    /// The scroll view's delegate.
    let delegate = RecordingDelegate(sink: { _ in })
    private(set) var calls: [Call] = []
    /// Velocities and targets seen by `scrollViewWillEndDragging` (target after the override).
    private(set) var endDragging: [(velocity: CGPoint, target: CGPoint, proposed: CGPoint)] = []
    /// When set, `scrollViewWillEndDragging` moves the target here (the trace format's
    /// `delegate.targetContentOffset`).
    var targetOverride: CGPoint? {
        get { delegate.config.targetContentOffset }
        set { delegate.config.targetContentOffset = newValue }
    }
    /// The answer to `scrollViewShouldScrollToTop`.
    var shouldScrollToTop: Bool {
        get { delegate.config.shouldScrollToTop }
        set { delegate.config.shouldScrollToTop = newValue }
    }
    /// Runs inside every `scrollViewDidScroll`, to test re-entrant changes.
    var onDidScroll: ((ScrollView) -> Void)?
    /// Runs inside `scrollViewDidEndDecelerating`.
    var onDidEndDecelerating: ((ScrollView) -> Void)?
    /// Runs inside `scrollViewWillEndDragging` and `scrollViewDidEndDragging`.
    var onWillEndDragging: ((ScrollView) -> Void)?
    var onDidEndDragging: ((ScrollView) -> Void)?
    var now: () -> Double = { 0 }
    /// What `viewForZooming(in:)` returns (kept alive here; the delegate holds it weakly).
    var zoomView: View? {
        didSet { delegate.zoomingView = zoomView }
    }
    /// Runs inside every `scrollViewDidZoom`.
    var onDidZoom: ((ScrollView) -> Void)?

    init() {
        delegate.sink = { [unowned self] record in self.take(record) }
        delegate.onCall = { [unowned self] call, scrollView in self.after(call, in: scrollView) }
    }

    /// Records every event of `control` as "<id> <event>" among the delegate calls, with the
    /// scroll view's state at that moment.
    func watch(_ control: Control, as id: String, in scrollView: ScrollView) {
        delegate.watch(control, as: id, in: scrollView)
    }

    private func take(_ record: ReplayRecord) {
        switch record {
        case .delegate(_, let call, let state):
            calls.append(Call(name: Self.name(of: call), state: state, time: now()))
            if case .willEndDragging(let velocity, let target) = call {
                endDragging.append((velocity, target, delegate.lastProposedTarget ?? target))
            }
        case .control(_, let id, let event, let state):
            calls.append(Call(name: "\(id) \(event.rawValue)", state: state, time: now()))
        default:
            break
        }
    }

    /// The test's hooks, and what every zoom call must satisfy.
    private func after(_ call: DelegateCall, in scrollView: ScrollView) {
        switch call {
        case .didScroll: onDidScroll?(scrollView)
        case .willEndDragging: onWillEndDragging?(scrollView)
        case .didEndDragging: onDidEndDragging?(scrollView)
        case .didEndDecelerating: onDidEndDecelerating?(scrollView)
        case .didZoom: onDidZoom?(scrollView)
        case .willBeginZooming:
            #expect(delegate.zoomCallsNamingAnotherView == 0, "zoom calls name the view for zooming")
        case .didEndZooming(let scale):
            #expect(delegate.zoomCallsNamingAnotherView == 0, "zoom calls name the view for zooming")
            #expect(CGFloat(scale) == scrollView.zoomScale)
        default: break
        }
    }

    /// The compact name tests compare: the method without "scrollView", with its argument
    /// where the order contract depends on it.
    private static func name(of call: DelegateCall) -> String {
        switch call {
        case .didScroll: "didScroll"
        case .willBeginDragging: "willBeginDragging"
        case .willEndDragging: "willEndDragging"
        case .didEndDragging(let decelerate): "didEndDragging(\(decelerate))"
        case .willBeginDecelerating: "willBeginDecelerating"
        case .didEndDecelerating: "didEndDecelerating"
        case .didEndScrollingAnimation: "didEndScrollingAnimation"
        case .didZoom: "didZoom"
        case .willBeginZooming: "willBeginZooming"
        case .didEndZooming(let scale): "didEndZooming(\(CGFloat(scale)))"
        case .shouldScrollToTop: "shouldScrollToTop"
        case .didScrollToTop: "didScrollToTop"
        }
    }

    /// Every call, one string each.
    var lines: [String] { calls.map(\.line) }
    /// Every call with the zoom flags, runs of identical consecutive `didScroll` or `didZoom`
    /// lines folded into one "…" line each: the order contract without the frame count.
    var zoomFolded: [String] {
        var out: [String] = []
        for call in calls {
            let line = call.zoomLine
            if call.name == "didScroll" || call.name == "didZoom" {
                let marker = call.name + "… " + line.dropFirst(call.name.count + 1)
                if out.last == marker { continue }
                out.append(marker)
            } else {
                out.append(line)
            }
        }
        return out
    }
    /// Names only, runs of DidScroll and DidZoom (interleaved as a zoom frame sends them)
    /// folded into one "scroll/zoom…" entry.
    var zoomNames: [String] {
        var out: [String] = []
        for call in calls {
            if call.name == "didScroll" || call.name == "didZoom" {
                if out.last != "scroll/zoom…" { out.append("scroll/zoom…") }
            } else {
                out.append(call.name)
            }
        }
        return out
    }
    /// The calls named `name`.
    func calls(_ name: String) -> [Call] { calls.filter { $0.name == name } }
    /// Every call with runs of identical consecutive `didScroll` lines folded into one
    /// "didScroll… <flags>" line: the order contract without the frame count.
    var folded: [String] {
        var out: [String] = []
        for line in lines {
            if line.hasPrefix("didScroll ") {
                let marker = "didScroll… " + line.dropFirst("didScroll ".count)
                if out.last == marker { continue }
                out.append(marker)
            } else {
                out.append(line)
            }
        }
        return out
    }
    /// Names only, didScroll runs folded.
    var foldedNames: [String] { folded.map { String($0.split(separator: " ")[0]) }.reduce(into: []) { acc, n in
        if n == "didScroll…", acc.last == n { return }
        acc.append(n)
    } }
    func count(_ name: String) -> Int { calls.filter { $0.name == name }.count }
    func reset() {
        calls.removeAll()
        endDragging.removeAll()
    }
}

/// A scroll view at the origin of a root view, driven by events and 60 Hz frames.
final class Harness {
    let root: View
    let scrollView: ScrollView
    let recorder = Recorder()
    /// Milliseconds between frames (60 Hz).
    let frameInterval = 1000.0 / 60
    private(set) var frameIndex = 0
    private(set) var now = 0.0
    private(set) var framesNeeded = 0

    init(viewport: CGSize = CGSize(width: 400, height: 600), content: CGSize = CGSize(width: 400, height: 3000),
         scrollView custom: ScrollView? = nil, configure: (ScrollView) -> Void = { _ in }) {
        root = View(frame: CGRect(origin: .zero, size: viewport))
        scrollView = custom ?? ScrollView()
        scrollView.frame = CGRect(origin: .zero, size: viewport)
        scrollView.contentSize = content
        root.addSubview(scrollView)
        configure(scrollView)
        scrollView.delegate = recorder.delegate
        recorder.now = { [unowned self] in self.now }
        root.onNeedsFrame = { [unowned self] in self.framesNeeded += 1 }
    }

    var offset: CGPoint { scrollView.contentOffset }

    /// Ticks every frame up to and including `time`, and wakes the scroll view at its
    /// timers (`nextWakeTime`) in between, as a host's event loop does.
    func tick(through time: Double) {
        while true {
            let frame = Double(frameIndex + 1) * frameInterval
            if let wake = scrollView.nextWakeTime, wake > now, wake < frame, wake <= time + 1e-9 {
                now = wake
                scrollView.advance(to: wake)
                continue
            }
            guard frame <= time + 1e-9 else { break }
            frameIndex += 1
            now = frame
            scrollView.advance(to: now)
        }
        now = max(now, time)
    }

    /// The seat's state the events are stamped with, as a host's seat does.
    private var seat = SeatState()

    /// Delivers `kind` at `time`, after the frames before it, stamped with the seat's state
    /// (`modifiers` are those a key event states).
    func send(_ kind: InputEvent.Kind, at time: Double, modifiers: InputEvent.Modifiers = []) {
        tick(through: time)
        now = time
        scrollView.handle(seat.stamp(InputEvent(time: time, kind: kind, modifiers: modifiers)))
    }

    /// Calls `body` at `time`, after the frames before it, with the scroll view's clock set.
    func call(at time: Double, _ body: (ScrollView) -> Void) {
        tick(through: time)
        now = time
        scrollView.currentTime = time
        body(scrollView)
    }

    /// Ticks frames until nothing animates (at most `limit` ms more); returns the time.
    @discardableResult
    func settle(limit: Double = 60_000) -> Double {
        let end = now + limit
        while scrollView.isAnimating && now < end { tick(through: Double(frameIndex + 1) * frameInterval) }
        return now
    }

    /// A one-finger drag: down at `start` at `time`, `steps` moves of `delta/steps` every
    /// `stepInterval` ms, then (after `pause` ms) up unless `lift` is false. Returns the time
    /// of the last event.
    @discardableResult
    func drag(from start: CGPoint, by delta: CGPoint, at time: Double, steps: Int = 10, stepInterval: Double = 8,
              pause: Double = 0, lift: Bool = true, id: Int = 0) -> Double {
        send(.touchDown(id: id, location: start), at: time)
        var t = time
        for i in 1...steps {
            t = time + Double(i) * stepInterval
            let f = CGFloat(i) / CGFloat(steps)
            send(.touchMotion(id: id, location: CGPoint(x: start.x + delta.x * f, y: start.y + delta.y * f)), at: t)
        }
        if lift {
            t += pause
            send(.touchUp(id: id), at: t)
        }
        return t
    }
}

/// `abs(a - b) <= tolerance` for CGFloat/Double mixes.
func close(_ a: CGFloat, _ b: CGFloat, _ tolerance: CGFloat) -> Bool { abs(a - b) <= tolerance }
func close(_ a: Double, _ b: Double, _ tolerance: Double) -> Bool { abs(a - b) <= tolerance }

extension Recorder.Call {
    /// A call as the recording delegate saw it, at `time` ms.
    init(name: String, state: ScrollStateSnapshot, time: Double) {
        self.init(name: name, offset: state.offset, time: time, isTracking: state.tracking, isDragging: state.dragging,
                  isDecelerating: state.decelerating, isZooming: state.zooming, isZoomBouncing: state.zoomBouncing,
                  zoomScale: CGFloat(state.zoomScale))
    }
}
