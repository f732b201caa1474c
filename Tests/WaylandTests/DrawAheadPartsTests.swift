// The pure parts a window needs to draw frames ahead: how often the outputs it is on refresh.
import Testing
@testable import Wayland

@Suite("Drawing ahead: callback times, refresh, held buffers")
struct DrawAheadPartsTests {
    @Test("Refresh rates: 0 is unknown, absurd ones are refused with a warning", arguments: [
        (Int32(60_000), Int?.some(60_000), false), (0, nil, false), (59_940, 59_940, false), (1_000, 1_000, false),
        (999, nil, true), (-60_000, nil, true), (1_000_001, nil, true), (Int32.max, nil, true),
    ])
    func checkedRefresh(raw: Int32, refresh: Int?, warns: Bool) {
        let checked = SurfacePlacement.checked(refresh: raw)
        #expect(checked.refresh == refresh)
        #expect((checked.warning != nil) == warns)
        if warns { #expect(checked.warning?.contains("\(raw) mHz") == true) }
    }

    @Test("The refresh interval is the fastest output the surface is on, or of any output before it is on one")
    func refreshInterval() {
        var placement = SurfacePlacement()
        #expect(placement.refreshInterval(refreshes: [:]) == nil)
        let refreshes: [UInt32: Int] = [3: 60_000, 4: 144_000, 5: 30_000]
        #expect(placement.refreshInterval(refreshes: refreshes) == 1_000_000 / 144_000.0)
        placement.refresh(outputTransforms: [3: .normal, 4: .normal, 5: .normal])
        placement.enter(output: 5)
        #expect(placement.refreshInterval(refreshes: refreshes) == 1_000_000 / 30_000.0)
        placement.enter(output: 3)
        #expect(placement.refreshInterval(refreshes: refreshes) == 1_000_000 / 60_000.0)
        #expect(placement.refreshInterval(refreshes: [4: 144_000]) == nil, "the outputs it is on said nothing")
    }
}
