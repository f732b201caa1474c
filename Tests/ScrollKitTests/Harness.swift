// Test driver: a scroll view in a root view, a delegate that records every call (and every
// control event) with the state flags at that moment, and a clock that interleaves events
// with 60 Hz frame ticks and the scroll view's timers the way the Wayland loop and the
// replay do.
import Foundation
import Testing
@testable import ScrollKit

/// Records delegate calls as compact strings: the method name, then the state flags
/// (T = tracking, D = dragging, E = decelerating, "-" = false), e.g. "didScroll TD-".
final class Recorder: ScrollViewDelegate {
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

    private(set) var calls: [Call] = []
    /// Velocities and targets seen by `scrollViewWillEndDragging` (target after the override).
    private(set) var endDragging: [(velocity: CGPoint, target: CGPoint, proposed: CGPoint)] = []
    /// When set, `scrollViewWillEndDragging` moves the target here (the trace format's
    /// `delegate.targetContentOffset`).
    var targetOverride: CGPoint?
    /// The answer to `scrollViewShouldScrollToTop`.
    var shouldScrollToTop = true
    /// Runs inside every `scrollViewDidScroll`, to test re-entrant changes.
    var onDidScroll: ((ScrollView) -> Void)?
    /// Runs inside `scrollViewDidEndDecelerating`.
    var onDidEndDecelerating: ((ScrollView) -> Void)?
    /// Runs inside `scrollViewWillEndDragging` and `scrollViewDidEndDragging`.
    var onWillEndDragging: ((ScrollView) -> Void)?
    var onDidEndDragging: ((ScrollView) -> Void)?
    var now: () -> Double = { 0 }
    /// What `viewForZooming(in:)` returns.
    var zoomView: View?
    /// Runs inside every `scrollViewDidZoom`.
    var onDidZoom: ((ScrollView) -> Void)?

    private func record(_ name: String, _ s: ScrollView) {
        calls.append(Call(name: name, offset: s.contentOffset, time: now(), isTracking: s.isTracking,
                          isDragging: s.isDragging, isDecelerating: s.isDecelerating, isZooming: s.isZooming,
                          isZoomBouncing: s.isZoomBouncing, zoomScale: s.zoomScale))
    }

    /// Records every event of `control` as "<id> <event>" among the delegate calls, with the
    /// scroll view's state at that moment.
    func watch(_ control: Control, as id: String, in scrollView: ScrollView) {
        control.addAction(for: Control.Event.allCases) { [unowned self, unowned scrollView] _, event in
            self.record("\(id) \(event.rawValue)", scrollView)
        }
    }

    func scrollViewDidScroll(_ s: ScrollView) {
        record("didScroll", s)
        onDidScroll?(s)
    }
    func scrollViewWillBeginDragging(_ s: ScrollView) { record("willBeginDragging", s) }
    func scrollViewWillEndDragging(_ s: ScrollView, withVelocity velocity: CGPoint, targetContentOffset: inout CGPoint) {
        record("willEndDragging", s)
        let proposed = targetContentOffset
        if let targetOverride { targetContentOffset = targetOverride }
        endDragging.append((velocity, targetContentOffset, proposed))
        onWillEndDragging?(s)
    }
    func scrollViewDidEndDragging(_ s: ScrollView, willDecelerate decelerate: Bool) {
        record("didEndDragging(\(decelerate))", s)
        onDidEndDragging?(s)
    }
    func scrollViewWillBeginDecelerating(_ s: ScrollView) { record("willBeginDecelerating", s) }
    func scrollViewDidEndDecelerating(_ s: ScrollView) {
        record("didEndDecelerating", s)
        onDidEndDecelerating?(s)
    }
    func scrollViewDidEndScrollingAnimation(_ s: ScrollView) { record("didEndScrollingAnimation", s) }
    func scrollViewShouldScrollToTop(_ s: ScrollView) -> Bool {
        record("shouldScrollToTop", s)
        return shouldScrollToTop
    }
    func scrollViewDidScrollToTop(_ s: ScrollView) { record("didScrollToTop", s) }
    func viewForZooming(in s: ScrollView) -> View? { zoomView }
    func scrollViewWillBeginZooming(_ s: ScrollView, with view: View?) {
        #expect(view === zoomView)
        record("willBeginZooming", s)
    }
    func scrollViewDidZoom(_ s: ScrollView) {
        record("didZoom", s)
        onDidZoom?(s)
    }
    func scrollViewDidEndZooming(_ s: ScrollView, with view: View?, atScale scale: CGFloat) {
        #expect(view === zoomView)
        #expect(scale == s.zoomScale)
        record("didEndZooming(\(scale))", s)
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
        scrollView.delegate = recorder
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
