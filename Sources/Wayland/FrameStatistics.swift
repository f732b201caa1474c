// Figures about a window's frame loop, for `--stats` and the live tests: commits, buffers, how
// promptly frame callbacks were answered, and when frames reached the screen (presentation time).
import Foundation

/// Figures about the frame loop, for `--stats` and the live tests.
public struct FrameStatistics: Sendable {
    /// Frames committed with new pixels.
    public internal(set) var framesCommitted = 0
    /// Frame callbacks requested in total (one per commit).
    public internal(set) var callbacksRequested = 0
    /// Monotonic ms of the first commit with content, nil before it.
    public internal(set) var firstCommitTime: Double?
    /// Milliseconds spent in `Scene.render` for the last committed frame (only the last is
    /// kept: a kiosk animating for weeks would otherwise grow a list by 60 entries a second).
    public internal(set) var lastRenderMilliseconds = 0.0
    /// For the last committed frame: how long after the frame callback it answers it was
    /// committed, in ms; nil when it answered none (the first frame, a configure, a wake-up).
    public internal(set) var lastAnswerMilliseconds: Double?
    /// Whether the last committed frame was drawn ahead of its callback (see `FrameScheduler`).
    public internal(set) var lastFrameDrawnAhead = false
    /// Whether the last committed frame was drawn into a buffer made for it.
    public internal(set) var lastFrameNewBuffer = false
    /// Whether the last committed frame was drawn at half resolution for the compositor to
    /// enlarge (`Scene.prefersHalfResolution`): a quick rendition's.
    public internal(set) var lastFrameHalved = false
    /// Whether the last committed frame was a still one the compositor put together
    /// (`Scene.stillFrame`): nothing drawn, no buffer of the window's size.
    public internal(set) var lastFrameStill = false
    /// Frames drawn ahead of their callback, committed or not.
    public internal(set) var framesDrawnAhead = 0
    /// Frames drawn ahead and given up: something changed before their callback came.
    public internal(set) var heldFramesDiscarded = 0
    /// Buffers created over the window's life (reuse keeps this small).
    public internal(set) var buffersCreated = 0
    /// Frame callbacks answered with a commit (the frames of an animation).
    public internal(set) var callbacksAnswered = 0
    /// The longest time from a frame callback's arrival to the commit answering it, in ms.
    public internal(set) var maxCallbackAnswerMilliseconds = 0.0
    /// Callbacks answered later than `lateAnswerMilliseconds`: frames that missed the
    /// compositor's next refresh.
    public internal(set) var lateCallbackAnswers = 0
    /// 1000/60 ms: one refresh at 60 Hz, the rate frame callbacks run at in every compositor
    /// measured here (the project's budget: every frame of a fling committed before the next callback).
    public static let lateAnswerMilliseconds = 1000.0 / 60
    /// What the compositor said about each frame's presentation; nil when it does not offer
    /// wp_presentation (KWin 5.27 does not; sway, cage and weston do).
    public internal(set) var presentation: PresentationTally?
}

/// Frames as they reached the screen, from `wp_presentation_feedback`: presented or discarded,
/// and which frames of an animation came a refresh late. Pure: the window feeds it commits and
/// feedback events, with times on the compositor's presentation clock.
///
/// A frame answering the frame callback of the commit before it (one animation step) should
/// be on screen one refresh after that commit's frame. More than one and a half refreshes
/// between the two presentations means a refresh went by without our new frame: it is late,
/// whatever the reason (drawn too slowly, committed too late, the compositor busy).
public struct PresentationTally: Sendable {
    /// Frames the compositor put on screen.
    public private(set) var presented = 0
    /// Frames replaced by a later commit before they were shown, or never shown.
    public private(set) var discarded = 0
    /// Animation frames presented more than 1.5 refreshes after the frame before them.
    public private(set) var late = 0
    /// The longest gap between an animation frame's presentation and the previous frame's, in
    /// refreshes (1 is on time; 0 before any animation frame pair was presented).
    public private(set) var longestGapRefreshes = 0.0

    /// 1.5 refreshes: a gap beyond it means at least one refresh was missed, with room for the
    /// jitter of a compositor's timestamps (decision).
    public static let lateGapRefreshes = 1.5
    /// 1000/60 ms: the refresh assumed when the compositor reports none (`refresh` 0, as
    /// headless outputs may).
    public static let assumedRefreshMilliseconds = 1000.0 / 60
    /// Most commits awaiting feedback that are remembered: a compositor that never answers
    /// cannot grow the table (decision; one second of frames at 60 Hz).
    public static let maxOutstanding = 60

    private struct Commit: Equatable, Sendable {
        let answersCallback: Bool
    }
    /// Commits awaiting feedback, by commit number.
    private var outstanding: [UInt64: Commit] = [:]
    /// The latest commit presented and its time (ms): frames are presented in commit order.
    private var lastPresented: (commit: UInt64, time: Double)?

    /// Nothing committed yet.
    public init() {}

    /// Commits whose feedback has not come (yet): all of them on a compositor that advertises
    /// wp_presentation but never answers, as sway 1.7's headless output does.
    public var awaiting: Int { outstanding.count }

    /// Whether feedback for another commit can be asked for (fewer than `maxOutstanding` await it).
    public var acceptsCommits: Bool { outstanding.count < Self.maxOutstanding }

    /// Commit number `commit` (every commit counts, with feedback or not) asked for feedback;
    /// `answersCallback` when it answered the frame callback of commit `commit − 1`.
    public mutating func committed(_ commit: UInt64, answersCallback: Bool) {
        guard acceptsCommits else { return }
        outstanding[commit] = Commit(answersCallback: answersCallback)
    }

    /// Commit `commit` was shown at `time` (ms), on an output refreshing every `refresh` ms (0:
    /// unknown). Feedback for a commit not awaiting any is ignored.
    public mutating func presented(_ commit: UInt64, at time: Double, refresh: Double) {
        guard let entry = outstanding.removeValue(forKey: commit) else { return }
        presented += 1
        if entry.answersCallback, let previous = lastPresented, previous.commit + 1 == commit {
            let interval = refresh > 0 ? refresh : Self.assumedRefreshMilliseconds
            let gap = (time - previous.time) / interval
            longestGapRefreshes = max(longestGapRefreshes, gap)
            if gap > Self.lateGapRefreshes { late += 1 }
        }
        lastPresented = (commit, time)
    }

    /// Commit `commit` was not shown.
    public mutating func discarded(_ commit: UInt64) {
        guard outstanding.removeValue(forKey: commit) != nil else { return }
        discarded += 1
    }
}
