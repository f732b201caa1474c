// The window's buffers with their memory, as the frame path uses them: a frame dropped because
// its buffer's memory could not be made gives the slot back (BufferPool.abandon), and released
// or outdated buffers lose their memory when the pool says so.
import Testing
@testable import Wayland

@Suite("Frame buffers")
struct FrameBuffersTests {
    /// Memory as the window's make closure creates it, counted.
    final class Memory {
        let id: Int
        init(id: Int) { self.id = id }
    }

    struct OutOfMemory: Error, Equatable {}

    @Test("A buffer whose memory fails is abandoned, not left busy: the next frame makes it again and repaints all")
    func droppedFrameFreesItsSlot() throws {
        var buffers = FrameBuffers<Memory>(capacity: 2)
        #expect(throws: OutOfMemory()) {
            _ = try buffers.acquire(width: 8, height: 8) { _ in throw OutOfMemory() }
        }
        #expect(buffers.pool.state(of: 1) == .free, "the dropped frame's slot is free again")
        #expect(!buffers.holdsDrawnFrame(width: 8, height: 8), "and holds no drawn frame")
        var made: [Int] = []
        guard case .draw(let id, let memory, let age, let created) = try buffers.acquire(width: 8, height: 8, make: { id in
            made.append(id)
            return Memory(id: id)
        }) else {
            Issue.record("no buffer after a dropped frame")
            return
        }
        #expect(id == 1 && memory.id == 1 && made == [1], "the same slot, with memory made now")
        #expect(age == 0 && created, "nothing drawn in it yet: repaint everything")
        // Before, the slot stayed busy: two failures filled this pool of two for good.
        _ = try? buffers.acquire(width: 8, height: 8) { _ in throw OutOfMemory() }
        _ = try? buffers.acquire(width: 8, height: 8) { _ in throw OutOfMemory() }
        guard case .draw(let again, _, _, _) = try buffers.acquire(width: 8, height: 8, make: { Memory(id: $0) }) else {
            Issue.record("the pool was exhausted by failed frames")
            return
        }
        #expect(again == 2)
    }

    @Test("Reuse keeps the memory and reports the age; exhaustion makes nothing")
    func reuseAndExhaustion() throws {
        var buffers = FrameBuffers<Memory>(capacity: 2)
        var made = 0
        let make: (Int) -> Memory = { made += 1; return Memory(id: $0) }
        _ = try buffers.acquire(width: 4, height: 4, make: make)
        _ = try buffers.acquire(width: 4, height: 4, make: make)
        guard case .exhausted = try buffers.acquire(width: 4, height: 4, make: make) else {
            Issue.record("a third buffer beyond the cap")
            return
        }
        buffers.released(1)
        guard case .draw(let id, let memory, let age, let created) = try buffers.acquire(width: 4, height: 4, make: make) else {
            Issue.record("no reuse after a release")
            return
        }
        #expect(id == 1 && memory.id == 1 && age == 2 && !created)
        #expect(made == 2)
    }

    @Test("Drawing ahead waits for a spare's pages: a buffer that held a frame is ready, a fresh spare only once its memory says so")
    func spareReadiness() throws {
        final class Paged {
            var pagesIn = false
        }
        var buffers = FrameBuffers<Paged>(capacity: 4)
        let ready: (Paged) -> Bool = { $0.pagesIn }
        #expect(!buffers.nextFreeIsReady(width: 4, height: 4, ready: ready), "nothing free, nothing ready")
        // The last two frames, both the compositor's.
        _ = try buffers.acquire(width: 4, height: 4) { _ in Paged() }
        _ = try buffers.acquire(width: 4, height: 4) { _ in Paged() }
        #expect(buffers.freeCount(width: 4, height: 4) == 0)
        // The spare a motion from rest makes ahead of its second frame: free, its pages not in.
        let spare = try #require(try buffers.addSpare(width: 4, height: 4) { _ in Paged() })
        #expect(buffers.freeCount(width: 4, height: 4) == 1)
        #expect(buffers.pool.nextFree(width: 4, height: 4)?.holdsFrame == false)
        #expect(!buffers.nextFreeIsReady(width: 4, height: 4, ready: ready), "a spare still faulting in is not drawn into")
        spare.pagesIn = true
        #expect(buffers.nextFreeIsReady(width: 4, height: 4, ready: ready), "its pages are in")
        #expect(!buffers.nextFreeIsReady(width: 8, height: 8, ready: ready), "none of another size")
        // A buffer given back holding a frame is what acquire picks, and ready whatever its memory says.
        spare.pagesIn = false
        buffers.released(1)
        #expect(buffers.freeCount(width: 4, height: 4) == 2)
        #expect(buffers.pool.nextFree(width: 4, height: 4).map { [$0.id] } == [1])
        #expect(buffers.pool.nextFree(width: 4, height: 4)?.holdsFrame == true)
        #expect(buffers.nextFreeIsReady(width: 4, height: 4, ready: ready))
    }

    @Test("A resize drops free buffers' memory at once and busy ones' on release")
    func resizeDropsMemory() throws {
        var buffers = FrameBuffers<Memory>()
        weak var first: Memory?
        weak var second: Memory?
        if case .draw(_, let memory, _, _) = try buffers.acquire(width: 4, height: 4, make: { Memory(id: $0) }) { first = memory }
        if case .draw(_, let memory, _, _) = try buffers.acquire(width: 4, height: 4, make: { Memory(id: $0) }) { second = memory }
        buffers.released(1)
        buffers.resize(width: 6, height: 6)
        #expect(first == nil, "free and outdated: gone now")
        #expect(second != nil, "busy: the compositor may still read it")
        buffers.released(2)
        #expect(second == nil)
        #expect(buffers.pool.slots.isEmpty)
    }
}

@Suite("Frame buffers at rest and made ahead")
struct SpareBufferTests {
    typealias Memory = FrameBuffersTests.Memory

    /// Three buffers as after a motion: 1 and 2 released, 3 (the newest frame) on screen.
    private func afterMotion() throws -> FrameBuffers<Memory> {
        var buffers = FrameBuffers<Memory>(capacity: 4)
        for _ in 1...3 { _ = try buffers.acquire(width: 4, height: 4) { Memory(id: $0) } }
        buffers.released(1)
        buffers.released(2)
        return buffers
    }

    @Test("At rest every free buffer goes but the one holding the newest frame; one on screen stays")
    func trimKeepsTheNewest() throws {
        var onScreen = try afterMotion()
        onScreen.trim()
        #expect(onScreen.pool.slots.map(\.id) == [3], "the compositor's buffer, which holds the newest frame, alone")
        #expect(onScreen.holdsDrawnFrame(width: 4, height: 4))
        guard case .draw(let id, _, let age, let created) = try onScreen.acquire(width: 4, height: 4, make: { Memory(id: $0) }) else {
            Issue.record("no buffer after the rest")
            return
        }
        #expect(id == 4 && age == 0 && created, "the next frame makes one and repaints it all")

        var released = try afterMotion()
        released.released(3)  // a compositor that copied the pixels gives every buffer back
        released.trim()
        #expect(released.pool.slots.map(\.id) == [3])
        guard case .draw(let reused, _, let reusedAge, let made) = try released.acquire(width: 4, height: 4, make: { Memory(id: $0) }) else {
            Issue.record("no buffer after the rest")
            return
        }
        #expect(reused == 3 && reusedAge == 1 && !made, "the kept buffer holds the last frame: only the change is drawn")
    }

    @Test("A spare is free, holds no frame and is drawn into whole; none beyond the cap")
    func spareBuffers() throws {
        var buffers = FrameBuffers<Memory>(capacity: 3)
        _ = try buffers.acquire(width: 4, height: 4) { Memory(id: $0) }
        #expect(!buffers.hasFree(width: 4, height: 4))
        let spare = try buffers.addSpare(width: 4, height: 4) { Memory(id: $0) }
        #expect(spare?.id == 2 && buffers.hasFree(width: 4, height: 4))
        #expect(!buffers.hasFree(width: 8, height: 4), "only of its size")
        guard case .draw(let id, let memory, let age, let created) = try buffers.acquire(width: 4, height: 4, make: { _ in
            Issue.record("the spare's memory is made again")
            return Memory(id: 0)
        }) else {
            Issue.record("the spare is not handed out")
            return
        }
        #expect(id == 2 && memory === spare && age == 0 && !created, "its memory, repainted whole")
        _ = try buffers.addSpare(width: 4, height: 4) { Memory(id: $0) }
        #expect(try buffers.addSpare(width: 4, height: 4) { Memory(id: $0) } == nil, "the cap of 3 is reached")
        #expect(buffers.pool.slots.count == 3)
    }

    @Test("A spare whose memory fails leaves a free slot that the next frame makes")
    func spareFailure() throws {
        var buffers = FrameBuffers<Memory>(capacity: 3)
        _ = try buffers.acquire(width: 4, height: 4) { Memory(id: $0) }
        #expect(throws: FrameBuffersTests.OutOfMemory()) {
            _ = try buffers.addSpare(width: 4, height: 4) { _ in throw FrameBuffersTests.OutOfMemory() }
        }
        guard case .draw(let id, _, let age, let created) = try buffers.acquire(width: 4, height: 4, make: { Memory(id: $0) }) else {
            Issue.record("no buffer after a failed spare")
            return
        }
        #expect(id == 2 && age == 0 && created)
    }
}
