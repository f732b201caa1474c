// wp_presentation (presentation-time): the global that reports when a commit's frame reached
// the screen, and the clock its timestamps are on.
import CWaylandClient
import CWaylandProtocols

/// The bound `wp_presentation`.
final class Presentation {
    private let proxy: OpaquePointer
    /// The clock presentation times are on (a clockid_t: 1 is CLOCK_MONOTONIC); nil until the
    /// compositor says, which it does right after the bind.
    private(set) var clockID: UInt32?

    /// Listens to `proxy` (`struct wp_presentation *`).
    init(proxy: OpaquePointer) {
        self.proxy = proxy
        wp_presentation_add_listener(proxy, &Presentation.listener, Unmanaged.passUnretained(self).toOpaque())
    }

    /// Asks when the next commit of `surface` is shown (or that it never is); the answer goes
    /// to `result`. Nil when the connection is broken.
    func feedback(for surface: Surface, result: @escaping (PresentationFeedback.Outcome) -> Void) -> PresentationFeedback? {
        guard let feedback = wp_presentation_feedback(proxy, surface.proxy) else { return nil }
        return PresentationFeedback(proxy: feedback, result: result)
    }

    // Static storage: the listener must outlive every proxy pointing at it.
    nonisolated(unsafe) private static var listener = wp_presentation_listener(
        clock_id: { data, _, clock in
            Unmanaged<Presentation>.fromOpaque(data!).takeUnretainedValue().clockID = clock
        })
}
