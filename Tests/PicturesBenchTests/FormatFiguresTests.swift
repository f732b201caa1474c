// The formats benchmark's table row: the note on pictures the two viewers showed at different sizes.
import Testing
@testable import pictures_bench

@Suite("Formats benchmark figures")
struct FormatFiguresTests {
    /// A row with the given shown sizes, both viewers within budget.
    private func row(ours: (Int, Int)?, theirs: (Int, Int)?) -> FormatFigures {
        FormatFigures(format: BenchFormat(name: "svg", fileExtension: "svg"), fileBytes: 27_000,
                      ourFirstMs: 48, theirFirstMs: 67, ourPeakKiB: 30_000, theirPeakKiB: 37_000,
                      ourFirstShowsPhoto: true,
                      ourShown: ours.map { (width: $0.0, height: $0.1) }, theirShown: theirs.map { (width: $0.0, height: $0.1) })
    }

    @Test("swayimg's 1024-pixel SVG against the fit is noted, with the pixels' ratio")
    func differentSizes() {
        #expect(row(ours: (1620, 1080), theirs: (1024, 714)).shownDifference
                == "shown 1620×1080 against 1024×714 (2.39× the pixels)")
        #expect(row(ours: (1024, 714), theirs: (1620, 1080)).shownDifference
                == "shown 1024×714 against 1620×1080 (0.42× the pixels)")
    }

    @Test("sizes a rounding apart, or one not found, give no note; the verdict ignores it")
    func sameSizes() {
        #expect(row(ours: (1620, 1080), theirs: (1620, 1080)).shownDifference == nil)
        #expect(row(ours: (1620, 1080), theirs: (1619, 1079)).shownDifference == nil)
        #expect(row(ours: (1620, 1080), theirs: nil).shownDifference == nil)
        #expect(row(ours: nil, theirs: (1024, 714)).shownDifference == nil)
        #expect(row(ours: (1620, 1080), theirs: (1024, 714)).withinBudget)
    }
}
