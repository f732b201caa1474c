// The --stats figures and the error card's text layout.
import Foundation
@testable import Gallery
import Raster
import Testing

@Suite("Stats and cards")
struct StatsAndCardTests {
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

    /// What a 160×120 window shows for a file named .webp with a name in three scripts that
    /// holds a JPEG 2000 picture (WebP decodes now; JPEG 2000 is still refused, by content).
    static let webpName = "Urlaub ünïcödé 写真 2023.webp"
    static let webpBytes: [UInt8] = [0, 0, 0, 0x0C, 0x6A, 0x50, 0x20, 0x20, 0x0D, 0x0A, 0x87, 0x0A]

    /// Where `lines` split a word of `text`: every line must end at a space, after a hyphen or
    /// beside an ideograph (Chinese and Japanese break between characters); the lines with the
    /// spaces between them must be the text.
    static func wordSplits(_ lines: [String], of text: String) -> [String] {
        func ideograph(_ c: Character?) -> Bool {
            guard let v = c?.unicodeScalars.first?.value else { return false }
            return (0x3040...0x30FF).contains(v) || (0x3400...0x9FFF).contains(v)
        }
        var problems: [String] = []
        var rest = Substring(text)
        for (k, line) in lines.enumerated() {
            guard rest.hasPrefix(line) else { return ["line \(k) \"\(line)\" is not the text's next part"] }
            rest = rest.dropFirst(line.count)
            let spaced = rest.first == " "
            rest = rest.drop { $0 == " " }
            if k < lines.count - 1 && !spaced && line.last != "-" && !ideograph(line.last) && !ideograph(rest.first) {
                problems.append("\"\(line)\" splits a word")
            }
        }
        if !rest.isEmpty { problems.append("\"\(rest)\" is not shown") }
        return problems
    }

    @Test("Cards at any window size wrap at words, name the file in full in its own letters, and draw nothing outside",
          arguments: [(160, 120), (320, 240), (1280, 720), (3840, 2160)])
    func cardsAtWindowSizes(width: Int, height: Int) throws {
        let folder = try TemporaryFolder()
        let file = try folder.write(Self.webpName, Self.webpBytes)
        let h = Harness(files: [file], width: width, height: height)
        h.run([])
        let card = try #require(h.scene.currentPage?.card)
        #expect(card.title == Self.webpName && card.message == "unsupported image format: JPEG 2000")
        let labels = card.subviews.compactMap { $0 as? Label }.filter { !$0.isHidden }
        #expect(labels.count == 2, "the reason is not shown")
        for (label, text) in zip(labels, [card.title, card.message]) {
            let layout = label.textLayout
            #expect(Self.wordSplits(layout.lines.map(\.text), of: text).isEmpty, "\(layout.lines.map(\.text))")
            #expect(!layout.isTruncated && layout.missingGlyphs == 0)
            #expect(layout.lines.allSatisfy { $0.width <= Double(label.bounds.width) })
        }
        // The card lies in the window, and the page around it is black.
        let origin = card.convert(CGPoint.zero, to: nil)
        let rect = CGRect(origin: origin, size: card.bounds.size)
        #expect(rect.minX >= 0 && rect.minY >= 0 && rect.maxX <= CGFloat(width) && rect.maxY <= CGFloat(height), "\(rect)")
        var outside = 0, inked = 0
        for y in 0..<height {
            for x in 0..<width {
                let inCard = rect.contains(CGPoint(x: Double(x) + 0.5, y: Double(y) + 0.5))
                let c = h.rgb(x, y)
                if !inCard && (c.0 | c.1 | c.2) != 0 { outside += 1 }
                if inCard && c.0 > 180 && c.1 > 180 && c.2 > 180 { inked += 1 }
            }
        }
        #expect(outside == 0, "\(outside) pixels drawn outside the card")
        #expect(inked > 150, "only \(inked) bright text pixels")
    }

    @Test("Card lines wrap at spaces, after hyphens in long names, and a card too low for the reason cuts it")
    func wrapping() throws {
        let card = CardView(title: "x.jpg", message: "truncated file")
        card.layout(maxWidth: 170)
        #expect(card.frame.width <= 170)
        #expect(card.lines == ["x.jpg", "truncated file"])
        let long = CardView(title: "a-very-long-file-name-from-a-camera.jpg", message: "corrupt JPEG data: bogus marker length")
        long.layout(maxWidth: 200)
        #expect(long.frame.width <= 200 && long.lines.count > 3)
        let title = long.lines.prefix { !$0.hasPrefix("corrupt") }
        #expect(title.joined() == long.title && title.dropLast().allSatisfy { $0.hasSuffix("-") }, "\(title)")
        // Room for the name and one line of the reason: the reason ends with an ellipsis.
        long.layout(maxWidth: 200, maxHeight: 85)
        #expect(long.frame.height <= 85)
        #expect(long.lines.last?.hasSuffix("…") == true && long.lines.joined().contains("camera.jpg"), "\(long.lines)")
        // Narrow cards set smaller text, wide ones the full size.
        #expect(long.fontSizes.title < CardView.titleFont.size)
        long.layout(maxWidth: 2000)
        #expect(long.fontSizes == (CardView.titleFont.size, CardView.messageFont.size) && long.frame.width <= CardView.maximumWidth)
    }
}
