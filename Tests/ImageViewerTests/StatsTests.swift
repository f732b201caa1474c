// The --stats figures: render percentiles in bounded memory, the JSON lines the tools read, and
// the process's peak memory and start time from /proc.
import Foundation
import Testing
@testable import image_viewer

@Suite("Stats figures")
struct StatsTests {
    @Test("Render percentiles and late frames")
    func percentiles() {
        var stats = FrameStatsRecorder()
        #expect(stats.renderPercentile(0.5) == 0)
        for ms in 1...100 { stats.record(renderMs: Double(ms) / 10) }  // 0.1 … 10 ms
        stats.record(renderMs: 40)
        stats.record(renderMs: 400)  // beyond the histogram: its own time
        #expect(stats.frames == 102 && stats.lateFrames == 2)
        // The 51st of 102 is 5.1 ms; buckets are 0.1 ms wide.
        #expect(abs(stats.renderPercentile(0.5) - 5.1) <= 0.1 + 1e-9, "\(stats.renderPercentile(0.5))")
        #expect(stats.renderPercentile(0.99) == 40.1 || stats.renderPercentile(0.99) == 40)
        #expect(stats.renderPercentile(1) == 400)
        stats.record(renderMs: .nan)
        #expect(stats.frames == 102)
    }

    @Test("Stats lines are JSON with the fields the tools read")
    func lines() throws {
        var stats = FrameStatsRecorder()
        stats.record(renderMs: 3.25)
        let frame = FrameStatsRecorder.frameLine(ms: 812.4, renderMs: 3.256, tiles: 12, width: 800, height: 600)
        #expect(frame == #"{"event":"frame","ms":812,"renderMs":3.26,"tiles":12,"width":800,"height":600}"#)
        let answering = FrameStatsRecorder.frameLine(ms: 830, renderMs: 3, tiles: 0, width: 800, height: 600,
                                                     answerMs: 4.567)
        #expect(answering == #"{"event":"frame","ms":830,"renderMs":3.00,"tiles":0,"width":800,"height":600,"answerMs":4.57}"#)
        #expect(FrameStatsRecorder.firstFrameLine(ms: 99.5, width: 1, height: 2)
                == #"{"event":"first-frame","ms":100,"width":1,"height":2}"#)
        let summary = stats.summaryLine(peakMemoryKiB: 5120, cacheBytes: 262_144, cachedTiles: 1)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(summary.utf8)) as? [String: Any])
        #expect(object["event"] as? String == "summary" && object["frames"] as? Int == 1 && object["lateFrames"] as? Int == 0)
        #expect(object["renderP50Ms"] as? Double == 3.25 && object["peakMemoryKiB"] as? Int == 5120)
        #expect(object["tileCacheBytes"] as? Int == 262_144)
        #expect(stats.summaryLine(peakMemoryKiB: nil, cacheBytes: 0, cachedTiles: 0).contains(#""peakMemoryKiB":null"#))
        #expect(object["callbacksAnswered"] == nil, "offscreen summaries have no frame callbacks")
        let live = stats.summaryLine(peakMemoryKiB: 1, cacheBytes: 0, cachedTiles: 0,
                                     callbacks: .init(answered: 308, late: 2, slowestMs: 17.125))
        let liveObject = try #require(try JSONSerialization.jsonObject(with: Data(live.utf8)) as? [String: Any])
        #expect(liveObject["callbacksAnswered"] as? Int == 308 && liveObject["lateCallbacks"] as? Int == 2)
        #expect(liveObject["slowestCallbackMs"] as? Double == 17.13 && liveObject["frames"] as? Int == 1)
        #expect(FrameStatsRecorder.decimal(-0.004) == "0.00" && FrameStatsRecorder.decimal(-1.5) == "-1.50")
    }

    @Test("A live summary with presentation feedback carries the presented, discarded and late frames")
    func presentationFields() throws {
        let stats = FrameStatsRecorder()
        let shown = FrameStatsRecorder.PresentationFigures(presented: 180, discarded: 2, late: 3, longestGapRefreshes: 2.004,
                                                           awaiting: 1)
        let line = stats.summaryLine(peakMemoryKiB: 1, cacheBytes: 0, cachedTiles: 0,
                                     callbacks: .init(answered: 181, late: 1, slowestMs: 9, presentation: shown))
        let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        #expect(object["presented"] as? Int == 180 && object["discarded"] as? Int == 2 && object["latePresented"] as? Int == 3)
        #expect(object["longestPresentGap"] as? Double == 2 && object["awaitingPresentation"] as? Int == 1)
        #expect(object["callbacksAnswered"] as? Int == 181)
        let without = stats.summaryLine(peakMemoryKiB: 1, cacheBytes: 0, cachedTiles: 0,
                                        callbacks: .init(answered: 181, late: 1, slowestMs: 9))
        #expect(!without.contains("presented"), "a compositor without wp_presentation: no such fields")
    }

    @Test("A frame drawn ahead of its callback says so; a live summary counts those drawn ahead and given up")
    func drawnAhead() throws {
        let ahead = FrameStatsRecorder.frameLine(ms: 830, renderMs: 9.5, tiles: 0, width: 3840, height: 2160, answerMs: 0.42,
                                                 drawnAhead: true)
        #expect(ahead == #"{"event":"frame","ms":830,"renderMs":9.50,"tiles":0,"width":3840,"height":2160,"answerMs":0.42,"ahead":true}"#)
        let fresh = FrameStatsRecorder.frameLine(ms: 40, renderMs: 17.7, tiles: 0, width: 3840, height: 2160, newBuffer: true)
        #expect(fresh == #"{"event":"frame","ms":40,"renderMs":17.70,"tiles":0,"width":3840,"height":2160,"newBuffer":true}"#,
                "a frame drawn into a buffer made for it says so: its render time includes the new pages")
        let halved = FrameStatsRecorder.frameLine(ms: 53, renderMs: 5.6, tiles: 6, width: 960, height: 540, newBuffer: true,
                                                  halved: true)
        #expect(halved == #"{"event":"frame","ms":53,"renderMs":5.60,"tiles":6,"width":960,"height":540,"newBuffer":true,"halved":true}"#,
                "a frame drawn at half resolution says so, with its buffer's size")
        let line = FrameStatsRecorder().summaryLine(peakMemoryKiB: 1, cacheBytes: 0, cachedTiles: 0,
                                                    callbacks: .init(answered: 180, late: 0, slowestMs: 6, drawnAhead: 171,
                                                                     aheadDiscarded: 4))
        let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        #expect(object["drawnAhead"] as? Int == 171 && object["aheadDiscarded"] as? Int == 4)
    }

    @Test("Peak memory and start time from /proc text")
    func procFigures() throws {
        #expect(ProcessFigures.peakResidentKiB(statusText: "Name:\tx\nVmPeak:\t  900 kB\nVmHWM:\t   1234 kB\n") == 1234)
        #expect(ProcessFigures.peakResidentKiB(statusText: "Name: x\n") == nil)
        let live = try #require(ProcessFigures.peakResidentKiB())
        #expect(live > 1000)
        // Field 22 is 500 ticks (5 s at 100 Hz) after boot; the machine is up 12 s: the process
        // is 7 s old.
        var fields = ["S"] + (4...21).map { _ in "0" } + ["500"] + ["0", "0"]
        let stat = "42 (a name) with) " + fields.joined(separator: " ")
        #expect(ProcessFigures.startTime(statText: stat, uptimeSeconds: 12, ticksPerSecond: 100, monotonicNow: 50_000) == 43_000)
        fields.removeLast(6)
        #expect(ProcessFigures.startTime(statText: "1 (x) " + fields.joined(separator: " "), uptimeSeconds: 1,
                                         ticksPerSecond: 100, monotonicNow: 0) == nil)
        let now = ProcessInfo.processInfo.systemUptime * 1000
        let start = try #require(ProcessFigures.startTime(monotonicNow: now))
        #expect(start <= now && start > now - 3_600_000)
    }
}
