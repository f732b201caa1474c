// The figures behind `--stats`: per-frame JSON lines, render-time percentiles in bounded memory,
// and the process's own start time and peak memory from /proc.
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Collects frame figures and formats the `--stats` lines.
///
/// Render times go into a histogram of 0.1 ms buckets, so a kiosk running for weeks keeps a
/// fixed few kilobytes and the percentiles stay exact to 0.1 ms.
public struct FrameStatsRecorder: Sendable {
    /// 16.7 ms: a frame whose render takes longer than one 60 Hz refresh interval is late
    /// (decision: the budget the design sets for every frame of a fling at 60 Hz).
    public static let defaultLateThreshold = 1000.0 / 60
    /// 0.1 ms: the histogram's bucket width.
    static let bucketWidth = 0.1
    /// 2000 buckets: render times up to 200 ms are told apart; slower ones share the last.
    static let bucketCount = 2000

    /// Frames recorded.
    public private(set) var frames = 0
    /// Frames whose render took longer than `lateThreshold`.
    public private(set) var lateFrames = 0
    /// Milliseconds of render time above which a frame counts as late.
    public let lateThreshold: Double
    private var histogram = [Int](repeating: 0, count: FrameStatsRecorder.bucketCount)
    private var slowest = 0.0

    /// A recorder counting frames slower than `lateThreshold` ms as late.
    public init(lateThreshold: Double = FrameStatsRecorder.defaultLateThreshold) {
        self.lateThreshold = lateThreshold
    }

    /// Records one committed frame that took `renderMs` milliseconds to render.
    public mutating func record(renderMs: Double) {
        guard renderMs.isFinite, renderMs >= 0 else { return }
        frames += 1
        if renderMs > lateThreshold { lateFrames += 1 }
        slowest = max(slowest, renderMs)
        histogram[min(Int(renderMs / Self.bucketWidth), Self.bucketCount - 1)] += 1
    }

    /// The render time below which a fraction `p` (0…1) of the frames fall, in ms: the upper
    /// edge of the bucket holding the nearest-rank frame (the slowest frame's own time for
    /// the last bucket); 0 before any frame.
    public func renderPercentile(_ p: Double) -> Double {
        guard frames > 0 else { return 0 }
        let rank = max(1, Int((min(max(p, 0), 1) * Double(frames)).rounded(.up)))
        var seen = 0
        for (bucket, count) in histogram.enumerated() {
            seen += count
            if seen >= rank {
                return bucket == Self.bucketCount - 1 ? slowest : min(Double(bucket + 1) * Self.bucketWidth, slowest)
            }
        }
        return slowest
    }

    /// The line for one frame: `{"event":"frame","ms":…,"renderMs":…,"tiles":…,"width":…,"height":…}`,
    /// `ms` since process start, `tiles` drawn or resampled for this frame; `answerMs` follows
    /// when the frame answered a frame callback: ms from the callback's arrival to the commit;
    /// `"ahead":true` when the frame was drawn ahead of its callback (`renderMs` then passed
    /// before the callback came); `"newBuffer":true` when its buffer was made for it (`renderMs`
    /// then includes faulting in the buffer's pages); `"halved":true` when it was drawn at half
    /// resolution for the compositor to enlarge (`width` and `height` are its buffer's);
    /// `"still":true` when the compositor put it together from a still frame, nothing drawn
    /// (`width` and `height` are the frame's on screen).
    public static func frameLine(ms: Double, renderMs: Double, tiles: Int, width: Int, height: Int,
                                 answerMs: Double? = nil, drawnAhead: Bool = false, newBuffer: Bool = false,
                                 halved: Bool = false, still: Bool = false) -> String {
        var line = #"{"event":"frame","ms":\#(Int(ms.rounded())),"renderMs":\#(decimal(renderMs)),"tiles":\#(tiles),"width":\#(width),"height":\#(height)"#
        if let answerMs { line += #","answerMs":\#(decimal(answerMs))"# }
        if drawnAhead { line += #","ahead":true"# }
        if newBuffer { line += #","newBuffer":true"# }
        if halved { line += #","halved":true"# }
        if still { line += #","still":true"# }
        return line + "}"
    }

    /// The first line: `{"event":"first-frame","ms":…,"width":…,"height":…}`, `ms` from
    /// process start to the first commit showing image content.
    public static func firstFrameLine(ms: Double, width: Int, height: Int) -> String {
        #"{"event":"first-frame","ms":\#(Int(ms.rounded())),"width":\#(width),"height":\#(height)}"#
    }

    /// How the frame loop answered the compositor's frame callbacks, and how its frames reached
    /// the screen (live windows only).
    public struct CallbackFigures: Equatable, Sendable {
        /// Callbacks answered with a commit: the frames of animations.
        public var answered: Int
        /// Answers that took longer than one refresh: frames that missed the next vblank.
        public var late: Int
        /// The slowest answer, in ms from the callback's arrival to the commit.
        public var slowestMs: Double
        /// What presentation feedback said, nil when the compositor gives none.
        public var presentation: PresentationFigures?
        /// Frames drawn ahead of their callback, and how many of them were given up (something
        /// changed before the callback came).
        public var drawnAhead: Int, aheadDiscarded: Int

        /// Figures as counted by the window.
        public init(answered: Int, late: Int, slowestMs: Double, presentation: PresentationFigures? = nil,
                    drawnAhead: Int = 0, aheadDiscarded: Int = 0) {
            self.answered = answered
            self.late = late
            self.slowestMs = slowestMs
            self.presentation = presentation
            self.drawnAhead = drawnAhead
            self.aheadDiscarded = aheadDiscarded
        }
    }

    /// Frames as the compositor reported them shown (wp_presentation_feedback).
    public struct PresentationFigures: Equatable, Sendable {
        /// Frames shown.
        public var presented: Int
        /// Frames never shown (replaced by a later commit first).
        public var discarded: Int
        /// Animation frames shown more than 1.5 refreshes after the frame before them.
        public var late: Int
        /// The longest gap between consecutive animation frames on screen, in refreshes.
        public var longestGapRefreshes: Double
        /// Frames whose feedback had not come (a compositor that never answers has them all).
        public var awaiting: Int

        /// Figures as the window tallied them.
        public init(presented: Int, discarded: Int, late: Int, longestGapRefreshes: Double, awaiting: Int = 0) {
            self.presented = presented
            self.discarded = discarded
            self.late = late
            self.longestGapRefreshes = longestGapRefreshes
            self.awaiting = awaiting
        }
    }

    /// The summary at exit: frames, late frames, render p50/p99 (ms), peak memory (KiB, null
    /// when unknown), the tile cache's bytes and tiles and, for a live window, the frame
    /// callbacks answered, how many of them late and the slowest answer (ms), the frames drawn
    /// ahead of their callback and how many of those were given up, then, where the
    /// compositor reports presentation, the frames presented, discarded, presented late, the
    /// longest gap between animation frames on screen (refreshes) and those still unanswered.
    public func summaryLine(peakMemoryKiB: Int?, cacheBytes: Int, cachedTiles: Int,
                            callbacks: CallbackFigures? = nil) -> String {
        let peak = peakMemoryKiB.map(String.init) ?? "null"
        var line = #"{"event":"summary","frames":\#(frames),"lateFrames":\#(lateFrames),"renderP50Ms":\#(Self.decimal(renderPercentile(0.5))),"renderP99Ms":\#(Self.decimal(renderPercentile(0.99))),"peakMemoryKiB":\#(peak),"tileCacheBytes":\#(cacheBytes),"tileCacheTiles":\#(cachedTiles)"#
        if let callbacks {
            line += #","callbacksAnswered":\#(callbacks.answered),"lateCallbacks":\#(callbacks.late),"slowestCallbackMs":\#(Self.decimal(callbacks.slowestMs)),"drawnAhead":\#(callbacks.drawnAhead),"aheadDiscarded":\#(callbacks.aheadDiscarded)"#
            if let shown = callbacks.presentation {
                line += #","presented":\#(shown.presented),"discarded":\#(shown.discarded),"latePresented":\#(shown.late),"longestPresentGap":\#(Self.decimal(shown.longestGapRefreshes)),"awaitingPresentation":\#(shown.awaiting)"#
            }
        }
        return line + "}"
    }

    /// Two decimals, always with a dot (JSON), whatever the locale.
    static func decimal(_ value: Double) -> String {
        guard value.isFinite else { return "0" }
        let hundredths = Int((value * 100).rounded())
        let sign = hundredths < 0 ? "-" : ""
        let magnitude = abs(hundredths)
        let fraction = magnitude % 100
        return "\(sign)\(magnitude / 100).\(fraction < 10 ? "0" : "")\(fraction)"
    }
}

/// Figures about this process from the kernel.
public enum ProcessFigures {
    /// Peak resident memory (VmHWM in /proc/self/status), in KiB; nil when unreadable.
    public static func peakResidentKiB(statusText: String? = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) -> Int? {
        guard let text = statusText else { return nil }
        for line in text.split(separator: "\n") where line.hasPrefix("VmHWM:") {
            return line.split(whereSeparator: { $0 == " " || $0 == "\t" }).dropFirst().first.flatMap { Int($0) }
        }
        return nil
    }

    /// When this process started, in ms on the monotonic clock whose current time is
    /// `monotonicNow` (ms): the kernel's start time (/proc/self/stat field 22, clock ticks
    /// since boot) against the time since boot (/proc/uptime). Resolution one clock tick
    /// (10 ms on Linux); nil when /proc cannot be read.
    public static func startTime(monotonicNow: Double) -> Double? {
        guard let stat = try? String(contentsOfFile: "/proc/self/stat", encoding: .utf8),
              let uptimeText = try? String(contentsOfFile: "/proc/uptime", encoding: .utf8),
              let uptime = uptimeText.split(separator: " ").first.flatMap({ Double($0) }) else { return nil }
        return startTime(statText: stat, uptimeSeconds: uptime, ticksPerSecond: Double(sysconf(Int32(_SC_CLK_TCK))),
                         monotonicNow: monotonicNow)
    }

    /// The computation behind `startTime(monotonicNow:)`, from the files' text.
    static func startTime(statText: String, uptimeSeconds: Double, ticksPerSecond: Double, monotonicNow: Double) -> Double? {
        // The command name (field 2) is in parentheses and may hold spaces: count from after it.
        guard let close = statText.lastIndex(of: ")"), ticksPerSecond > 0 else { return nil }
        let fields = statText[statText.index(after: close)...].split(separator: " ")
        // Field 3 (state) is the first after the name; field 22 (starttime) is 19 further.
        guard fields.count > 19, let ticks = Double(fields[19]) else { return nil }
        let age = uptimeSeconds - ticks / ticksPerSecond
        guard age >= 0, age.isFinite else { return nil }
        return monotonicNow - age * 1000
    }
}
