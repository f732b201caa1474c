// Figures about a window's frame loop, for `--stats` and the live tests: commits, buffers, and
// how promptly frame callbacks were answered.
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
    /// measured here (design.md budget: every frame of a fling committed before the next callback).
    public static let lateAnswerMilliseconds = 1000.0 / 60
}
