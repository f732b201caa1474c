// A scroll view with a delegate that logs its calls, driven by the events the seat's pure
// builders produce: tests check what a user would see, not just the events in between.
import Foundation
import Replay
import ScrollKit
@testable import Wayland

/// Delegate calls by name, as the replay's `RecordingDelegate` records them (the scroll view's
/// delegate is `log.delegate`); a run of `scrollViewDidScroll` is one "DidScroll…" entry, so
/// sequences compare whole without depending on the frame count.
final class DelegateLog {
    /// The scroll view's delegate.
    let delegate = RecordingDelegate(sink: { _ in })
    private(set) var calls: [String] = []

    init() {
        delegate.sink = { [unowned self] record in
            guard case .delegate(_, let call, _) = record else { return }
            let name = Self.name(of: call)
            if name == "DidScroll…", self.calls.last == name { return }
            self.calls.append(name)
        }
    }

    private static func name(of call: DelegateCall) -> String {
        switch call {
        case .didScroll: "DidScroll…"
        case .willEndDragging(let velocity, _): velocity == .zero ? "WillEndDragging(still)" : "WillEndDragging(moving)"
        case .didEndDragging(let decelerate): "DidEndDragging(\(decelerate))"
        default: String(call.name.dropFirst("scrollView".count))
        }
    }
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
        scrollView.delegate = log.delegate
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
