// The system-call layer without a compositor: shared memory is sealed at its size (neither side
// can shrink it under the other's reads), failures carry a typed errno and the call, and the
// event loop's timers fire in deadline order with the wait bounded by the next one.
import Foundation
import SystemPackage
import Testing
@testable import Wayland

@Suite("System calls")
struct SystemCallTests {
    @Test("Buffer memory is sealed: its size cannot change, no seal can be added, the pixels are shared")
    func sealedMemory() throws {
        let memory = try SharedMemory(name: "scrollkit-test", byteCount: 64 * 1024)
        let file = try #require(memory.file)
        let seals = try SystemCalls.seals(file)
        #expect(seals & SystemCalls.sizeSeals == SystemCalls.sizeSeals, "seals \(String(seals, radix: 16))")
        // What a compositor (or a bug here) would try: each is refused by the kernel.
        #expect(throws: Errno.notPermitted) { try file.resize(to: 4096) }
        #expect(throws: Errno.notPermitted) { try file.resize(to: 1 << 20) }
        #expect(throws: SystemCallError(call: "fcntl(F_ADD_SEALS)", errno: .notPermitted)) { try SystemCalls.sealSize(file) }
        #expect(try file.stat().size == 64 * 1024)
        // Writes through the mapping are what another mapping of the file reads.
        memory.base.storeBytes(of: 0xFF33_6699, toByteOffset: 40_000, as: UInt32.self)
        let other = try SystemCalls.map(file, byteCount: 64 * 1024, .privateReadOnly)
        defer { SystemCalls.unmap(other, byteCount: 64 * 1024) }
        #expect(other.load(fromByteOffset: 40_000, as: UInt32.self) == 0xFF33_6699)
        memory.closeFile()
        #expect(memory.file == nil)
        #expect(memory.base.load(fromByteOffset: 40_000, as: UInt32.self) == 0xFF33_6699, "the mapping outlives the fd")
    }

    @Test("A failed call names itself and the system's reason, as users read it")
    func typedFailure() throws {
        let closed = FileDescriptor(rawValue: -1)
        let error = try #require(throws: SystemCallError.self) { try SystemCalls.map(closed, byteCount: 4096, .privateReadOnly) }
        #expect(error.errno == .badFileDescriptor)
        #expect(error.description == "mmap(4096 bytes): Bad file descriptor")
        #expect(throws: SystemCallError(call: "fcntl(F_GET_SEALS)", errno: .badFileDescriptor)) { try SystemCalls.seals(closed) }
        // Memory too large for this process to have is refused with the call's own reason.
        let huge = try #require(throws: SystemCallError.self) { try SharedMemory(name: "huge", byteCount: Int(Int64.max)) }
        #expect(huge.call.hasPrefix("ftruncate(") || huge.call.hasPrefix("mmap("), "\(huge)")
    }

    @Test("Timers fire earliest first, once, and the wait is bounded by the next deadline")
    func timers() {
        var queue = TimerQueue()
        var fired: [String] = []
        #expect(queue.pollTimeout(now: 0) == -1, "no timer: wait without limit")
        _ = queue.schedule(at: 130) { fired.append("c") }
        let b = queue.schedule(at: 120.2) { fired.append("b") }
        _ = queue.schedule(at: 110) { fired.append("a") }
        #expect(queue.pollTimeout(now: 100) == 10)
        #expect(queue.pollTimeout(now: 109.5) == 1, "rounded up: the timer is due when the wait ends")
        #expect(queue.pollTimeout(now: 200) == 0, "overdue: do not wait")
        queue.cancel(b)
        for action in queue.takeDue(now: 125) { action() }
        #expect(fired == ["a"], "b was cancelled, c is not due")
        for action in queue.takeDue(now: 1000) { action() }
        #expect(fired == ["a", "c"])
        #expect(queue.takeDue(now: 2000).isEmpty && queue.isEmpty)
    }
}
