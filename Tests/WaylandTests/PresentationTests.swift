// Presentation feedback as figures: which frames reached the screen, which were replaced
// before, and which animation frames came a refresh late; times as the compositor reports them.
import Testing
@testable import Wayland

@Suite("Presentation feedback")
struct PresentationTests {
    static let refresh = 1000.0 / 60  // ms: a 60 Hz output

    @Test("An animation presented one refresh apart is on time; a missed refresh makes the frame late")
    func lateFrames() {
        var tally = PresentationTally()
        // Commit 1 starts the animation (input), 2…6 each answer the callback of the one before.
        for commit in UInt64(1)...6 { tally.committed(commit, answersCallback: commit > 1) }
        let shown: [UInt64: Double] = [1: 1000, 2: 1000 + Self.refresh, 3: 1000 + 2 * Self.refresh,
                                       4: 1000 + 4 * Self.refresh,  // a refresh without a new frame
                                       5: 1000 + 5 * Self.refresh, 6: 1000 + 6.4 * Self.refresh]  // jitter, not late
        for commit in UInt64(1)...6 { tally.presented(commit, at: shown[commit]!, refresh: Self.refresh) }
        #expect(tally.presented == 6 && tally.discarded == 0)
        #expect(tally.late == 1, "only frame 4 missed a refresh")
        #expect(abs(tally.longestGapRefreshes - 2) < 1e-9)
    }

    @Test("Discarded frames are counted; a frame after one, or after a commit without feedback, is not judged")
    func discardedAndGaps() {
        var tally = PresentationTally()
        tally.committed(1, answersCallback: false)
        tally.committed(2, answersCallback: true)
        tally.committed(3, answersCallback: true)
        tally.presented(1, at: 0, refresh: Self.refresh)
        tally.discarded(2)
        tally.presented(3, at: 10 * Self.refresh, refresh: Self.refresh)
        // Commit 4 had no new pixels (no feedback asked); 5 answers its callback.
        tally.committed(5, answersCallback: true)
        tally.presented(5, at: 20 * Self.refresh, refresh: Self.refresh)
        #expect(tally.presented == 3 && tally.discarded == 1)
        #expect(tally.late == 0, "no frame followed a presented commit directly")
        // Feedback nobody asked for, or twice for one commit, changes nothing.
        tally.presented(5, at: 21 * Self.refresh, refresh: Self.refresh)
        tally.discarded(99)
        #expect(tally.presented == 3 && tally.discarded == 1)
    }

    @Test("An output without a refresh rate is judged at 60 Hz; a silent compositor cannot grow the table")
    func unknownRefreshAndBound() {
        var tally = PresentationTally()
        tally.committed(1, answersCallback: false)
        tally.committed(2, answersCallback: true)
        tally.presented(1, at: 500, refresh: 0)
        tally.presented(2, at: 500 + 2 * PresentationTally.assumedRefreshMilliseconds, refresh: 0)
        #expect(tally.late == 1)
        for commit in UInt64(3)...1000 { tally.committed(commit, answersCallback: true) }
        #expect(!tally.acceptsCommits, "\(PresentationTally.maxOutstanding) commits await feedback: no more are asked")
        #expect(tally.awaiting == PresentationTally.maxOutstanding)
        tally.discarded(3)
        #expect(tally.acceptsCommits)
    }

    @Test("Timestamps: seconds in two words and nanoseconds, in ms")
    func timestamps() {
        #expect(PresentationFeedback.milliseconds(secondsHigh: 0, secondsLow: 12, nanoseconds: 345_678_000) == 12_345.678)
        #expect(PresentationFeedback.milliseconds(secondsHigh: 1, secondsLow: 0, nanoseconds: 0) == 4_294_967_296_000)
    }
}
