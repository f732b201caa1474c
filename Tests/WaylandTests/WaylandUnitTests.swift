// The Wayland module's pure parts without a compositor: the buffer pool, the frame
// scheduler, event times and connect errors (input batching has files of its own).
import Foundation
import ScrollKit
import Testing
@testable import Wayland

@Suite("Buffer pool state machine")
struct BufferPoolTests {
    @Test("A busy buffer is never handed out; a third is allocated when two are held")
    func thirdBufferWhenTwoAreBusy() {
        var pool = BufferPool()
        let r1 = pool.acquire(width: 800, height: 600)
        #expect(r1 == .allocate(id: 1))
        let r2 = pool.acquire(width: 800, height: 600)
        #expect(r2 == .allocate(id: 2))
        let r3 = pool.acquire(width: 800, height: 600)
        #expect(r3 == .allocate(id: 3))
        #expect(pool.slots.map(\.state) == [.busy, .busy, .busy])
    }

    @Test("A released buffer is reused, with its age in frames")
    func reuseAfterRelease() {
        var pool = BufferPool()
        _ = pool.acquire(width: 10, height: 10)  // frame 1 → buffer 1
        _ = pool.acquire(width: 10, height: 10)  // frame 2 → buffer 2
        let r4 = pool.released(1)
        #expect(r4 == false)
        #expect(pool.state(of: 1) == .free)
        // Frame 3 reuses buffer 1, which holds frame 1: two frames old.
        let r5 = pool.acquire(width: 10, height: 10)
        #expect(r5 == .reuse(id: 1, age: 2))
        let r6 = pool.released(2)
        #expect(r6 == false)
        let r7 = pool.acquire(width: 10, height: 10)
        #expect(r7 == .reuse(id: 2, age: 2))
    }

    @Test("The free buffer holding the newest frame is preferred")
    func newestFreeBufferFirst() {
        var pool = BufferPool()
        _ = pool.acquire(width: 10, height: 10)  // 1 holds frame 1
        _ = pool.acquire(width: 10, height: 10)  // 2 holds frame 2
        _ = pool.released(1)
        _ = pool.released(2)
        let r8 = pool.acquire(width: 10, height: 10)
        #expect(r8 == .reuse(id: 2, age: 1))
    }

    @Test("Only a release frees a buffer; duplicate and unknown releases change nothing")
    func onlyReleaseFrees() {
        var pool = BufferPool(capacity: 2)
        _ = pool.acquire(width: 4, height: 4)
        _ = pool.acquire(width: 4, height: 4)
        let r9 = pool.acquire(width: 4, height: 4)
        #expect(r9 == .exhausted)
        let r10 = pool.released(99)
        #expect(r10 == false)
        let r11 = pool.acquire(width: 4, height: 4)
        #expect(r11 == .exhausted)
        _ = pool.released(2)
        _ = pool.released(2)
        let r12 = pool.acquire(width: 4, height: 4)
        #expect(r12 == .reuse(id: 2, age: 1))
        let r13 = pool.acquire(width: 4, height: 4)
        #expect(r13 == .exhausted)
    }

    @Test("A resize destroys free buffers now and busy ones on release; new size is allocated")
    func recreateOnResize() {
        var pool = BufferPool()
        _ = pool.acquire(width: 800, height: 600)  // 1
        _ = pool.acquire(width: 800, height: 600)  // 2
        _ = pool.released(1)
        let r14 = pool.resize(width: 1024, height: 768)
        #expect(r14 == [1])
        #expect(pool.state(of: 1) == nil)
        #expect(pool.state(of: 2) == .destroyOnRelease)
        let r15 = pool.acquire(width: 1024, height: 768)
        #expect(r15 == .allocate(id: 3))
        let r16 = pool.released(2)
        #expect(r16 == true)
        #expect(pool.state(of: 2) == nil)
        #expect(pool.slots.map(\.width) == [1024])
    }

    @Test("An abandoned buffer is free again and counts as holding nothing")
    func abandonedBuffer() {
        var pool = BufferPool()
        _ = pool.acquire(width: 8, height: 8)
        pool.abandon(1)
        let r17 = pool.acquire(width: 8, height: 8)
        #expect(r17 == .reuse(id: 1, age: 0))
    }
}

@Suite("Connection set-up")
struct ConnectionTests {
    @Test("No WAYLAND_DISPLAY and no WAYLAND_SOCKET: a typed error naming the variable")
    func noDisplay() {
        #expect(throws: WaylandError.noDisplayVariable) { try Display.connect(environment: [:]) }
        #expect(WaylandError.noDisplayVariable.description.hasPrefix("WAYLAND_DISPLAY is not set"))
    }

    @Test("A relative WAYLAND_DISPLAY needs XDG_RUNTIME_DIR")
    func noRuntimeDir() {
        #expect(throws: WaylandError.noRuntimeDir(display: "wayland-1")) {
            try Display.connect(environment: ["WAYLAND_DISPLAY": "wayland-1"])
        }
    }

    @Test("A socket that does not exist names the path and the reason")
    func missingSocket() {
        let path = "/nonexistent-\(getpid())/wayland-7"
        setenv("WAYLAND_DISPLAY", path, 1)  // libwayland reads the process environment
        defer { unsetenv("WAYLAND_DISPLAY") }
        #expect(throws: WaylandError.connectFailed(socket: path, reason: "No such file or directory")) {
            try Display.connect(environment: ["WAYLAND_DISPLAY": path])
        }
    }

    @Test("Globals bind at min(advertised, supported) and too-old ones are typed errors")
    func bindVersions() {
        let compositor = GlobalRequirement.all.first { $0.interface == "wl_compositor" }!
        #expect(compositor.bindVersion(advertised: 6) == .success(4))
        #expect(compositor.bindVersion(advertised: 3) == .failure(.unsupportedVersion(interface: "wl_compositor", required: 4, available: 3)))
        let seat = GlobalRequirement.all.first { $0.interface == "wl_seat" }!
        #expect(seat.bindVersion(advertised: 7) == .success(7))
        #expect(seat.bindVersion(advertised: 9) == .success(8))
        let gestures = GlobalRequirement.all.first { $0.interface == "zwp_pointer_gestures_v1" }!
        #expect(gestures.bindVersion(advertised: 3) == .success(3), "v3 brings hold gestures")
        let output = GlobalRequirement.all.first { $0.interface == "wl_output" }!
        #expect(output.bindVersion(advertised: 4) == .success(4))
        #expect(!output.required && !seat.required, "a compositor without outputs or seats still shows the window")
    }

    @Test("Event stamps on a foreign clock land on the local clock with their spacing kept")
    func foreignClock() {
        var clock = EventClock()
        // KWin stamped these about 11.8 h while the local clock read about 1.9 h (seen here).
        let t0 = clock.map(42_490_916, now: 6_891_000)
        let t1 = clock.map(42_490_926, now: 6_891_012)
        let t2 = clock.map(42_490_996, now: 6_891_150)  // a late batch: spacing must stay 70 ms
        #expect(t0 == 6_891_000)
        #expect(t1 - t0 == 10 && t2 - t1 == 70)
        #expect(t2 <= 6_891_150)
    }

    @Test("A faster arrival improves the estimate without running time backwards")
    func fasterArrival() {
        var clock = EventClock()
        let a = clock.map(1000, now: 50_020)  // the first estimate: no latency assumed
        let b = clock.map(1010, now: 50_025)  // only 5 ms after a by the local clock: a was late
        let c = clock.map(1020, now: 50_035)
        #expect(a == 50_020)
        #expect(b == 50_025, "b cannot have happened before it arrived")
        #expect(c == 50_035)
        #expect(a <= b && b <= c)
    }

    @Test("The 32-bit wrap and a clock jump are handled")
    func wrapAndJump() {
        var clock = EventClock()
        let a = clock.map(UInt32.max - 4, now: 10_000)
        let b = clock.map(5, now: 10_010)  // 10 ms later across the wrap
        #expect(b - a == 10)
        let c = clock.map(900_000, now: 10_020)  // the device's clock jumped: start over at now
        #expect(c == 10_020)
        #expect(clock.map(900_016, now: 10_040) == 10_036)
    }
}
