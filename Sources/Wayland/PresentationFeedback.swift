// wp_presentation_feedback: the answer for one commit, presented (when, at what refresh) or
// discarded. Either event ends the object.
import CWaylandClient
import CWaylandProtocols

/// The feedback object of one commit.
final class PresentationFeedback {
    /// What became of the commit.
    enum Outcome: Equatable {
        /// Shown at `time` (ms on the presentation clock), on an output refreshing every
        /// `refresh` ms (0: unknown or variable).
        case presented(time: Double, refresh: Double)
        /// Never shown: a later commit replaced it, or the surface was not visible.
        case discarded
    }

    private var proxy: OpaquePointer?
    private let result: (Outcome) -> Void

    /// Listens to `proxy` (`struct wp_presentation_feedback *`).
    init(proxy: OpaquePointer, result: @escaping (Outcome) -> Void) {
        self.proxy = proxy
        self.result = result
        wp_presentation_feedback_add_listener(proxy, &PresentationFeedback.listener, Unmanaged.passUnretained(self).toOpaque())
    }

    /// Feedback still awaited is given up with its holder.
    deinit { if let proxy { wp_presentation_feedback_destroy(proxy) } }

    private func finish(_ outcome: Outcome) {
        // Both events are destructors: the client destroys the proxy.
        if let proxy { wp_presentation_feedback_destroy(proxy) }
        proxy = nil
        result(outcome)
    }

    /// A presentation timestamp (seconds split in two words, nanoseconds) in ms.
    static func milliseconds(secondsHigh: UInt32, secondsLow: UInt32, nanoseconds: UInt32) -> Double {
        Double(UInt64(secondsHigh) << 32 | UInt64(secondsLow)) * 1000 + Double(nanoseconds) / 1_000_000
    }

    private static func from(_ data: UnsafeMutableRawPointer?) -> PresentationFeedback {
        Unmanaged<PresentationFeedback>.fromOpaque(data!).takeUnretainedValue()
    }

    // Static storage: the listener must outlive every proxy pointing at it.
    nonisolated(unsafe) private static var listener = wp_presentation_feedback_listener(
        sync_output: { _, _, _ in },
        presented: { data, _, secondsHigh, secondsLow, nanoseconds, refresh, _, _, _ in
            let time = milliseconds(secondsHigh: secondsHigh, secondsLow: secondsLow, nanoseconds: nanoseconds)
            PresentationFeedback.from(data).finish(.presented(time: time, refresh: Double(refresh) / 1_000_000))
        },
        discarded: { data, _ in PresentationFeedback.from(data).finish(.discarded) })
}
