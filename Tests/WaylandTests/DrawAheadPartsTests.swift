// The pure parts a window needs to draw frames ahead: when a callback arrived (the compositor's
// stamp, not the dispatch), how often the outputs it is on refresh, and a drawn buffer that is
// never attached going back to the pool.
import Testing
@testable import Wayland

@Suite("Drawing ahead: callback times, refresh, held buffers")
struct DrawAheadPartsTests {
    @Test("A callback dispatched late (the loop was drawing) arrived when the compositor stamped it")
    func callbackArrival() {
        // sway stamps CLOCK_MONOTONIC in whole ms.
        #expect(CallbackClock.arrival(stamp: 10_016, requested: 10_001.5, now: 10_016.3) == 10_016)
        // Read 14 ms after it was sent: a frame ahead was being drawn.
        #expect(CallbackClock.arrival(stamp: 10_033, requested: 10_016.4, now: 10_047.2) == 10_033)
        // A slow frame: read 1.6 s late, still counted from the stamp.
        #expect(CallbackClock.arrival(stamp: 10_050, requested: 10_034, now: 11_650) == 10_050)
        // Never before the commit that asked for it, never after its dispatch.
        #expect(CallbackClock.arrival(stamp: 10_049, requested: 10_049.4, now: 10_050) == 10_049.4)
        #expect(CallbackClock.arrival(stamp: 10_067, requested: 10_050, now: 10_066.2) == 10_066.2)
        // Across the 32-bit wrap (49.7 days of uptime).
        let wrap = Double(1 << 32)
        #expect(CallbackClock.arrival(stamp: UInt32.max, requested: wrap - 20, now: wrap + 3) == wrap - 1)
        #expect(CallbackClock.arrival(stamp: 2, requested: wrap - 5, now: wrap + 3) == wrap + 2)
    }

    @Test("A compositor whose stamps are no local time (always 0, another clock) gets the dispatch time, as before")
    func unbelievableStamps() {
        #expect(CallbackClock.arrival(stamp: 0, requested: 5_000, now: 5_016) == 5_016)
        #expect(CallbackClock.arrival(stamp: 42_490_916, requested: 6_891_000, now: 6_891_016) == 6_891_016)
        #expect(CallbackClock.arrival(stamp: 5_030, requested: 5_000, now: 5_016) == 5_016, "stamped after it was read")
        #expect(CallbackClock.arrival(stamp: 5_030, requested: 5_000, now: .nan).isNaN)
    }

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

    @Test("A frame drawn ahead and given up frees its buffer holding the newest frame; an outdated one is destroyed")
    func unusedBuffer() throws {
        var buffers = FrameBuffers<FrameBuffersTests.Memory>(capacity: 3)
        let make: (Int) -> FrameBuffersTests.Memory = { FrameBuffersTests.Memory(id: $0) }
        _ = try buffers.acquire(width: 4, height: 4, make: make)  // committed; the compositor holds it
        _ = try buffers.acquire(width: 4, height: 4, make: make)  // drawn ahead, then given up
        #expect(buffers.canAcquire(width: 4, height: 4), "a third may be made")
        _ = try buffers.acquire(width: 4, height: 4, make: make)
        #expect(!buffers.canAcquire(width: 4, height: 4), "all three busy")
        buffers.unused(3)
        #expect(buffers.canAcquire(width: 4, height: 4) && !buffers.canAcquire(width: 8, height: 8))
        guard case .draw(let id, _, let age, let created) = try buffers.acquire(width: 4, height: 4, make: make) else {
            Issue.record("the given-up buffer was not handed out again")
            return
        }
        #expect(id == 3 && age == 1 && !created, "it holds the last frame drawn: only the next frame's changes are painted")
        weak var held: FrameBuffersTests.Memory?
        if case .draw(_, let memory, _, _)? = Optional(try buffers.acquire(width: 4, height: 4, make: make)) { held = memory }
        #expect(held == nil, "nothing free: exhausted")
        buffers.resize(width: 8, height: 8)
        buffers.unused(3)
        #expect(buffers.pool.state(of: 3) == nil, "of the old size: destroyed, since no release will ever come")
        #expect(buffers.canAcquire(width: 8, height: 8))
    }
}
