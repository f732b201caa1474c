// A scroll view with a delegate that logs its calls, driven by the events the seat's pure
// builders produce: tests check what a user would see, not just the events in between.
import Foundation
import ScrollKit
@testable import Wayland

/// Logs delegate calls by name; a run of `scrollViewDidScroll` is one "DidScroll…" entry, so
/// sequences compare whole without depending on the frame count.
final class DelegateLog: ScrollViewDelegate {
    private(set) var calls: [String] = []

    private func log(_ name: String) {
        if name == "DidScroll…", calls.last == name { return }
        calls.append(name)
    }

    func scrollViewDidScroll(_ scrollView: ScrollView) { log("DidScroll…") }
    func scrollViewWillBeginDragging(_ scrollView: ScrollView) { log("WillBeginDragging") }
    func scrollViewWillEndDragging(_ scrollView: ScrollView, withVelocity velocity: CGPoint,
                                   targetContentOffset: inout CGPoint) {
        log(velocity == .zero ? "WillEndDragging(still)" : "WillEndDragging(moving)")
    }
    func scrollViewDidEndDragging(_ scrollView: ScrollView, willDecelerate decelerate: Bool) {
        log("DidEndDragging(\(decelerate))")
    }
    func scrollViewWillBeginDecelerating(_ scrollView: ScrollView) { log("WillBeginDecelerating") }
    func scrollViewDidEndDecelerating(_ scrollView: ScrollView) { log("DidEndDecelerating") }
    func scrollViewDidEndScrollingAnimation(_ scrollView: ScrollView) { log("DidEndScrollingAnimation") }
}

/// A 400 × 600 pt scroll view over 400 × 3000 pt of content, its delegate log, and a clock.
final class ScrollHarness {
    let scrollView = ScrollView()
    let log = DelegateLog()
    /// 1000 / 60 ms: the frame interval of a 60 Hz display.
    static let frameInterval = 1000.0 / 60

    init(content: CGSize = CGSize(width: 400, height: 3000)) {
        scrollView.frame = CGRect(x: 0, y: 0, width: 400, height: 600)
        scrollView.contentSize = content
        scrollView.delegate = log
    }

    /// Delivers `events` in order, ticking 60 Hz frames up to each event's time first, as the
    /// live event loop interleaves frame callbacks with input.
    func deliver(_ events: [InputEvent]) {
        for event in events {
            tick(until: event.time)
            scrollView.handle(event)
        }
    }

    /// The time of the last frame tick, in ms; the first event starts the clock.
    private var lastFrame: Double?

    private func tick(until time: Double) {
        guard var frame = lastFrame else {
            lastFrame = time
            return
        }
        while frame + Self.frameInterval <= time {
            frame += Self.frameInterval
            scrollView.advance(to: frame)
        }
        lastFrame = frame
    }

    /// Ticks frames after the last event until nothing animates (at most 30 s).
    func settle() {
        var frame = lastFrame ?? 0
        let end = frame + 30_000
        while scrollView.isAnimating && frame < end {
            frame += Self.frameInterval
            scrollView.advance(to: frame)
        }
        lastFrame = frame
    }
}
