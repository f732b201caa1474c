// Keeping back a window's placeholder frame while the scene's content is on its way
// (Scene.awaitsContent), so the frame with the content is the first the compositor gets at the
// size it chose. Pure: the window reports what it drew and committed, this decides.

/// Whether a window commits a frame it drew or keeps it back because the scene's content will
/// replace it in a moment.
///
/// A frame that shows only a placeholder (the gallery's black page while the first picture
/// decodes) tells the user nothing when the content follows a few milliseconds later, and it
/// costs on the way to the content: the compositor composites it (in software on two cores,
/// beside the decoder), and the frame with the content must then go into another buffer, whose
/// fresh pages fault in while it is drawn (1920×1080, 8 MB: 7–19 ms here, measured by touching a
/// new memfd mapping). Kept back, the placeholder's buffer has its pages in when the content's
/// frame is drawn into it.
///
/// Only a size the compositor chose is waited at: a window that chose its own (a configure of
/// 0×0) must map at once, since a tiling compositor (sway) gives it its real size only after
/// the first buffer. Only once per window: after a frame at a size the compositor chose was
/// committed, or a wait of `maxWait` ended, every frame is committed as drawn.
public struct ContentWait: Equatable, Sendable {
    /// 100 ms: the longest a frame is kept back (decision: within the 0.1 s a response still
    /// feels immediate, and half of sway's 200 ms transaction timeout, so the compositor never
    /// gives up on the configure and shows the window with its old buffer).
    public static let maxWait = 100.0

    private enum State: Equatable, Sendable {
        /// No frame kept back yet.
        case ready
        /// Frames are kept back since this time (ms).
        case holding(since: Double)
        /// Every frame is committed.
        case over
    }

    private var state = State.ready

    /// A window that has kept nothing back.
    public init() {}

    /// Whether a frame drawn at `time` (ms) is kept back rather than committed: the scene
    /// `awaitsContent`, the window's size is one the compositor chose (`sizeChosenByCompositor`),
    /// and this wait began less than `maxWait` ago (it begins with the first frame kept back).
    public mutating func holds(at time: Double, awaitsContent: Bool, sizeChosenByCompositor: Bool) -> Bool {
        switch state {
        case .over:
            return false
        case .ready:
            guard awaitsContent, sizeChosenByCompositor else { return false }
            state = .holding(since: time)
            return true
        case .holding(let since):
            return awaitsContent && sizeChosenByCompositor && time - since < Self.maxWait
        }
    }

    /// Whether a frame is kept back now: nothing may be committed without a new buffer (the one
    /// attached has the old size) until the window commits one.
    public var isHolding: Bool {
        if case .holding = state { return true }
        return false
    }

    /// When the window must draw and commit even though the content has not come (ms), while a
    /// frame is kept back.
    public var deadline: Double? {
        if case .holding(let since) = state { return since + Self.maxWait }
        return nil
    }

    /// A frame was committed: one at a size the compositor chose, or one that ends a wait, ends
    /// waiting for good. (The first frame of a window that chose its own size maps it.)
    public mutating func committed(sizeChosenByCompositor: Bool) {
        if sizeChosenByCompositor || isHolding { state = .over }
    }
}
