// Bookkeeping for a window's shm buffers, apart from the memory itself so it can be tested:
// states change only through wl_buffer.release, busy buffers are never handed out again.
import Foundation

/// The state machine of a set of shm buffers (foot's `shm.c`, sctk's `slot.rs` do the same).
///
/// A buffer is `free` (ours to draw into), `busy` (attached and committed: the compositor
/// may read it until it sends `wl_buffer.release`) or `destroyOnRelease` (busy, but of an
/// outdated size: destroy it as soon as it comes back). Only `released(_:)` makes a busy
/// buffer free again.
public struct BufferPool: Sendable {
    /// The state of one buffer.
    public enum State: Equatable, Sendable {
        case free, busy, destroyOnRelease
    }

    /// One buffer's record.
    public struct Slot: Equatable, Sendable {
        /// Stable identifier, used to find the memory that goes with it.
        public let id: Int
        /// Size in pixels.
        public let width: Int, height: Int
        /// Current state.
        public fileprivate(set) var state: State
        /// The frame number whose pixels the buffer holds (0: never drawn).
        public fileprivate(set) var frame: UInt64
    }

    /// What `acquire` decided.
    public enum Acquisition: Equatable, Sendable {
        /// Draw into the existing buffer `id`; it holds the frame `age` frames back (0: unknown).
        case reuse(id: Int, age: Int)
        /// Create buffer `id` of the requested size and draw all of it.
        case allocate(id: Int)
        /// Every buffer is busy and the cap is reached: wait for a release.
        case exhausted
    }

    /// Most buffers kept at once: wlroots may hold two while a third is drawn, and a fourth
    /// covers a compositor that holds one more (measured while building the harness: two buffers stall under sway).
    public let capacity: Int
    /// All buffers that exist, in creation order.
    public private(set) var slots: [Slot] = []
    /// The number of the last frame drawn (frames count from 1).
    public private(set) var frameCounter: UInt64 = 0
    private var nextID = 1

    /// Creates an empty pool that keeps at most `capacity` buffers (at least 2).
    public init(capacity: Int = 4) {
        self.capacity = max(capacity, 2)
    }

    /// Picks a buffer to draw the next frame of `width`×`height` into and marks it busy.
    /// Prefers the free buffer holding the most recent frame (smallest repaint); creates
    /// one when none is free and the cap allows.
    public mutating func acquire(width: Int, height: Int) -> Acquisition {
        frameCounter += 1
        let candidates = slots.indices.filter {
            slots[$0].state == .free && slots[$0].width == width && slots[$0].height == height
        }
        if let i = candidates.max(by: { slots[$0].frame < slots[$1].frame }) {
            let held = slots[i].frame
            slots[i].state = .busy
            slots[i].frame = frameCounter
            let age = held == 0 ? 0 : Int(frameCounter - held)
            return .reuse(id: slots[i].id, age: age)
        }
        guard slots.count < capacity else {
            frameCounter -= 1
            return .exhausted
        }
        let id = nextID
        nextID += 1
        slots.append(Slot(id: id, width: width, height: height, state: .busy, frame: frameCounter))
        return .allocate(id: id)
    }

    /// Marks buffer `id` as drawn but not committed after all (drawing was abandoned):
    /// it becomes free again and holds unknown pixels.
    public mutating func abandon(_ id: Int) {
        guard let i = slots.firstIndex(where: { $0.id == id }) else { return }
        slots[i].state = .free
        slots[i].frame = 0
    }

    /// Whether `acquire(width:height:)` would hand out a buffer now: one of that size is free,
    /// or the cap allows another.
    public func canAcquire(width: Int, height: Int) -> Bool {
        slots.count < capacity || hasFree(width: width, height: height)
    }

    /// Whether a buffer of `width`×`height` is free now (`acquire` would hand it out without
    /// making one).
    public func hasFree(width: Int, height: Int) -> Bool {
        freeCount(width: width, height: height) > 0
    }

    /// The buffer `acquire(width:height:)` would hand out now without making one: its id, and
    /// whether it holds a frame (a spare made ahead holds none yet); nil when none is free.
    public func nextFree(width: Int, height: Int) -> (id: Int, holdsFrame: Bool)? {
        let free = slots.filter { $0.state == .free && $0.width == width && $0.height == height }
        return free.max { $0.frame < $1.frame }.map { ($0.id, $0.frame > 0) }
    }

    /// How many buffers of `width`×`height` are free now.
    public func freeCount(width: Int, height: Int) -> Int {
        slots.count { $0.state == .free && $0.width == width && $0.height == height }
    }

    /// Adds a free buffer of `width`×`height` holding no frame, made before a frame needs it;
    /// its id, or nil when the cap is reached.
    public mutating func addSpare(width: Int, height: Int) -> Int? {
        guard slots.count < capacity else { return nil }
        let id = nextID
        nextID += 1
        slots.append(Slot(id: id, width: width, height: height, state: .free, frame: 0))
        return id
    }

    /// The window is at rest: returns the ids of the free buffers to destroy now, every one but
    /// the buffer holding the newest frame (busy or free), which the next frame repaints least
    /// of. Busy buffers stay: the compositor may still read them.
    public mutating func trim() -> [Int] {
        let newest = slots.max { $0.frame < $1.frame }?.id
        var destroyNow: [Int] = []
        slots.removeAll { slot in
            guard slot.state == .free, slot.id != newest else { return false }
            destroyNow.append(slot.id)
            return true
        }
        return destroyNow
    }

    /// The compositor released buffer `id`. Returns true when the buffer must now be
    /// destroyed (its size is outdated); unknown ids are ignored and return false.
    public mutating func released(_ id: Int) -> Bool {
        guard let i = slots.firstIndex(where: { $0.id == id }) else { return false }
        switch slots[i].state {
        case .busy:
            slots[i].state = .free
            return false
        case .destroyOnRelease:
            slots.remove(at: i)
            return true
        case .free:
            return false  // a duplicate release: nothing to do
        }
    }

    /// The window's size changed: returns the ids of free buffers of another size, which
    /// must be destroyed now; busy ones of another size are destroyed on release.
    public mutating func resize(width: Int, height: Int) -> [Int] {
        var destroyNow: [Int] = []
        slots = slots.compactMap { slot in
            guard slot.width != width || slot.height != height else { return slot }
            switch slot.state {
            case .free:
                destroyNow.append(slot.id)
                return nil
            case .busy, .destroyOnRelease:
                var s = slot
                s.state = .destroyOnRelease
                return s
            }
        }
        return destroyNow
    }

    /// The state of buffer `id`, nil when it does not exist.
    public func state(of id: Int) -> State? {
        slots.first { $0.id == id }?.state
    }
}

/// A window's buffers: the pool's bookkeeping together with the memory of each slot. Generic
/// over the memory (shm buffers in the window, plain objects in tests), so the frame path's
/// decisions, dropped frames included, are testable without a compositor.
struct FrameBuffers<Buffer> {
    /// The bookkeeping.
    private(set) var pool: BufferPool
    private var memory: [Int: Buffer] = [:]

    /// What `acquire` found.
    enum Acquisition {
        /// Draw into `buffer` (slot `id`), which holds the frame `age` frames back (0: repaint
        /// everything); `created` when its memory was made for this frame.
        case draw(id: Int, buffer: Buffer, age: Int, created: Bool)
        /// Every buffer is busy: draw after the next release.
        case exhausted
    }

    /// No buffers yet; at most `capacity` at once (see `BufferPool`).
    init(capacity: Int = 4) {
        pool = BufferPool(capacity: capacity)
    }

    /// A buffer for the next `width`×`height` frame, marked busy. A slot without memory (new, or
    /// one whose memory could not be made before) gets it from `make(id)`; when `make` throws,
    /// the frame is dropped: the slot is abandoned (free again, holding nothing) and the error
    /// passed on, so a failure does not leave a slot busy for good.
    mutating func acquire(width: Int, height: Int, make: (Int) throws -> Buffer) throws -> Acquisition {
        let id: Int
        var age = 0
        switch pool.acquire(width: width, height: height) {
        case .reuse(let reused, let reusedAge):
            id = reused
            age = reusedAge
        case .allocate(let allocated):
            id = allocated
        case .exhausted:
            return .exhausted
        }
        if let existing = memory[id] { return .draw(id: id, buffer: existing, age: age, created: false) }
        do {
            let buffer = try make(id)
            memory[id] = buffer
            return .draw(id: id, buffer: buffer, age: 0, created: true)
        } catch {
            pool.abandon(id)
            throw error
        }
    }

    /// The compositor released buffer `id`: it is free again, or destroyed when outdated.
    mutating func released(_ id: Int) {
        if pool.released(id) { memory[id] = nil }
    }

    /// Buffer `id` was drawn but will not be attached (a frame drawn ahead and given up): it is
    /// free again holding that frame, the newest, or destroyed when its size is outdated. The
    /// compositor never had it, so it sends no release.
    mutating func unused(_ id: Int) { released(id) }

    /// Whether `acquire` would hand out a buffer of `width`×`height` now.
    func canAcquire(width: Int, height: Int) -> Bool { pool.canAcquire(width: width, height: height) }

    /// Whether a buffer of `width`×`height` is free now, so `acquire` makes none.
    func hasFree(width: Int, height: Int) -> Bool { pool.hasFree(width: width, height: height) }

    /// How many buffers of `width`×`height` are free now.
    func freeCount(width: Int, height: Int) -> Int { pool.freeCount(width: width, height: height) }

    /// Whether the buffer `acquire` would hand out now for `width`×`height` can be drawn into at
    /// full speed: one that held a frame, or a spare whose memory `ready` says is in; false when
    /// none is free (or the spare's memory could not be made).
    func nextFreeIsReady(width: Int, height: Int, ready: (Buffer) -> Bool) -> Bool {
        guard let next = pool.nextFree(width: width, height: height) else { return false }
        return next.holdsFrame || memory[next.id].map(ready) ?? false
    }

    /// Makes a free buffer of `width`×`height` ahead of need, with `make(id)`; nil at the cap.
    /// When `make` throws, the error is passed on and the slot stays free without memory, which
    /// `acquire` then makes as for any such slot.
    mutating func addSpare(width: Int, height: Int, make: (Int) throws -> Buffer) throws -> Buffer? {
        guard let id = pool.addSpare(width: width, height: height) else { return nil }
        let buffer = try make(id)
        memory[id] = buffer
        return buffer
    }

    /// At rest: destroys every free buffer but the one holding the newest frame (`BufferPool.trim`).
    mutating func trim() {
        for id in pool.trim() { memory[id] = nil }
    }

    /// The frame size changed: free buffers of another size are destroyed now, busy ones when
    /// they come back.
    mutating func resize(width: Int, height: Int) {
        for id in pool.resize(width: width, height: height) { memory[id] = nil }
    }

    /// Whether any buffer is of another size than `width`×`height` (one for a frame at half
    /// resolution, or one outdated by a resize and still the compositor's).
    func holdsOtherSizes(width: Int, height: Int) -> Bool {
        pool.slots.contains { $0.width != width || $0.height != height }
    }

    /// Whether a buffer of `width`×`height` holds a frame drawn before.
    func holdsDrawnFrame(width: Int, height: Int) -> Bool {
        pool.slots.contains { $0.width == width && $0.height == height && $0.frame != 0 }
    }
}
