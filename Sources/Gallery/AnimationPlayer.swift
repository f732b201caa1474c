// Playing an animated picture on the frame clock: which frame shows, when the next one is due,
// and that next frame decoded ahead on a background queue, so a page holds its decoder's
// canvas, the frame shown and one frame ahead, never the whole animation.
import Dispatch
import Foundation
import Host
import Pictures
import Raster
import Synchronization

/// Plays one `AnimationDecoder` with its frames' delays, on times given by the scene.
///
/// Time is a parameter (ms on the scene's clock), never read here. While playing, each frame is
/// due `delayMs` after the one before it (counted from when that one was due, so timer and
/// frame-callback lateness do not add up; a player that fell a whole frame behind starts
/// counting afresh). The frame after the one shown is decoded as soon as the shown one is
/// taken, on the player's queue or, for repeatable runs, at once on the caller's thread. Not
/// playing (another page current, the window hidden, paused), it decodes and asks nothing, and
/// resumes with what was left of the frame's delay. After the loops the file asks for it stops
/// on its last frame.
final class AnimationPlayer {
    /// Where frames ahead are decoded.
    enum Decoding {
        /// On the player's background queue; `wake` is called from there when a frame the
        /// player is already waiting for arrives (a host that cannot be woken polls instead).
        case background(wake: @Sendable () -> Void)
        /// At once, on the caller's thread: every run shows the same frames at the same times.
        case inline
    }

    /// 16 ms: how often a host that cannot be woken is asked to look for a late frame (one
    /// 60 Hz frame, as `GalleryScene.loadPollInterval`).
    static let pollInterval = 16.0

    /// One serial queue for every player: only the current page plays, and a serial queue,
    /// unlike libdispatch's global ones, starts no once-a-second pool monitor (idle must cost
    /// nothing).
    private static let queue = DispatchQueue(label: "scrollkit.gallery.animation", qos: .userInitiated)

    /// What decoding the next frame gave.
    enum Outcome: Sendable {
        /// A frame; `looped` when it starts the animation over.
        case frame(AnimationFrame, looped: Bool)
        /// No more frames: the last loop ended (or the file's frames did).
        case end
        /// The frame could not be decoded.
        case failed(PictureError)
    }

    /// The frame ahead, handed from the decoding queue to the scene's thread.
    private final class Ahead: Sendable {
        private struct State {
            var outcome: Outcome?
            var waiting = false
            var wake: (@Sendable () -> Void)?
        }
        private let state: Mutex<State>

        init(wake: (@Sendable () -> Void)?) { state = Mutex(State(wake: wake)) }

        /// Stores a decoded outcome and wakes the host if the player is waiting for it.
        func deliver(_ outcome: Outcome) {
            let wake: (@Sendable () -> Void)? = state.withLock { s in
                s.outcome = outcome
                defer { s.waiting = false }
                return s.waiting ? s.wake : nil
            }
            wake?()
        }

        /// The outcome if it is there; otherwise notes that the player waits for it.
        func takeOrWait() -> Outcome? {
            state.withLock { s in
                guard let outcome = s.outcome else {
                    s.waiting = true
                    return nil
                }
                s.outcome = nil
                return outcome
            }
        }

        /// No more wakes (the player is gone).
        func detach() { state.withLock { $0.wake = nil } }
    }

    /// The frames' source.
    let decoder: AnimationDecoder
    /// 0-based index in the loop of the frame shown.
    private(set) var frameIndex = 0
    /// Loops played to their end so far.
    private(set) var loopsCompleted = 0
    /// Set once the animation stopped for good: its loops are played, or a frame failed
    /// (`failure` says why).
    private(set) var isFinished = false
    /// Why the animation stopped early, if a frame could not be decoded.
    private(set) var failure: PictureError?
    /// When the frame shown gives way to the next, ms; nil while not playing.
    private(set) var nextChange: Double?

    /// How long the frame shown stays, ms.
    private var delay: Double
    /// What was left of the frame's delay when play stopped, ms.
    private var remaining: Double?
    /// Whether the frame after the one shown has been asked for.
    private var requested = false
    /// Whether the frame due now is still being decoded.
    private var waiting = false
    private let decoding: Decoding
    private let ahead: Ahead

    /// A player whose first frame (shown already) stays `firstDelayMs`.
    init(decoder: AnimationDecoder, firstDelayMs: Int, decoding: Decoding) {
        self.decoder = decoder
        delay = Double(firstDelayMs)
        self.decoding = decoding
        if case .background(let wake) = decoding { ahead = Ahead(wake: wake) } else { ahead = Ahead(wake: nil) }
    }

    deinit { ahead.detach() }

    /// Advances to `time` (ms): while `playing`, returns the frame to show if one became due and
    /// is decoded (the caller shows it); otherwise nil. Not playing, it keeps what is left of
    /// the frame's delay.
    func advance(to time: Double, playing: Bool) -> AnimationFrame? {
        guard !isFinished else { return nil }
        guard playing else {
            if let due = nextChange { remaining = max(0, due - time) }
            nextChange = nil
            return nil
        }
        if nextChange == nil {
            nextChange = time + (remaining ?? delay)
            remaining = nil
        }
        requestNext()
        guard let due = nextChange, time >= due else { return nil }
        guard let outcome = ahead.takeOrWait() else {
            waiting = true
            return nil
        }
        waiting = false
        requested = false
        switch outcome {
        case .frame(let frame, let looped):
            if looped { loopsCompleted += 1 }
            frameIndex = frame.index
            delay = Double(frame.delayMs)
            // From when this frame was due; a frame behind by its whole delay or more starts afresh.
            nextChange = due + delay > time ? due + delay : time + delay
            requestNext()
            return frame
        case .end:
            stop(failure: nil)
        case .failed(let error):
            stop(failure: error)
        }
        return nil
    }

    /// When to be ticked again while `playing`: at the next frame's time; when the frame due is
    /// still decoding, never if its arrival wakes the host (`hostWakes`), else a poll a frame
    /// later; not playing or finished, never.
    func request(at time: Double, playing: Bool, hostWakes: Bool) -> FrameRequest {
        guard playing, !isFinished, let due = nextChange else { return .idle }
        if waiting { return hostWakes ? .idle : .at(time + Self.pollInterval) }
        return .at(due)
    }

    private func stop(failure: PictureError?) {
        isFinished = true
        self.failure = failure
        nextChange = nil
    }

    /// Asks for the frame after the one shown, once.
    private func requestNext() {
        guard !requested else { return }
        requested = true
        // The file's loop count is the number of plays (0: forever); the frame after the last
        // starts another play only while plays remain.
        let mayLoop = decoder.loopCount == 0 || loopsCompleted + 1 < decoder.loopCount
        let decoder = self.decoder, ahead = self.ahead
        switch decoding {
        case .inline:
            ahead.deliver(Self.decodeNext(decoder, mayLoop: mayLoop))
        case .background:
            Self.queue.async { ahead.deliver(Self.decodeNext(decoder, mayLoop: mayLoop)) }
        }
    }

    /// The frame after the decoder's last one, starting over when the loop ended and `mayLoop`.
    private static func decodeNext(_ decoder: AnimationDecoder, mayLoop: Bool) -> Outcome {
        do throws(PictureError) {
            if let frame = try decoder.next() { return .frame(frame, looped: false) }
            guard mayLoop else { return .end }
            decoder.reset()
            if let frame = try decoder.next() { return .frame(frame, looped: true) }
            return .end
        } catch {
            return .failed(error)
        }
    }
}
