// The event loop's wake: another thread ends a wait that would otherwise last seconds, a
// wake sent before the wait is not lost, and many wakes end one wait only. A pipe stands in
// for the compositor's socket.
import Foundation
import Glibc
import Testing
@testable import Wayland

@Suite("Event-loop waker")
struct WakerTests {
    /// A pipe whose read end stands in for the compositor socket: readable only when written.
    final class Pipe {
        let read: Int32, write: Int32
        init() throws {
            var fds: [Int32] = [-1, -1]
            guard pipe(&fds) == 0 else { throw POSIXError(.EMFILE) }
            read = fds[0]
            write = fds[1]
        }
        deinit {
            close(read)
            close(write)
        }
    }

    @Test("A wake from another thread ends a wait of 5 s within a second")
    func wakeFromAnotherThread() throws {
        let waker = try Waker()
        let socket = try Pipe()
        let start = monotonicMilliseconds()
        let thread = Thread { [waker] in
            usleep(50_000)  // 50 ms: the main thread is waiting by then
            waker.wake()
        }
        thread.start()
        let result = waker.wait(with: socket.read, timeout: 5000)
        let elapsed = monotonicMilliseconds() - start
        #expect(result == Waker.WaitResult(readable: false, woken: true, failure: nil))
        #expect(elapsed >= 40 && elapsed < 1000, "the wait took \(elapsed) ms")
    }

    @Test("Without a wake the wait lasts its timeout and reports nothing")
    func timeoutWithoutWake() throws {
        let waker = try Waker()
        let socket = try Pipe()
        let start = monotonicMilliseconds()
        let result = waker.wait(with: socket.read, timeout: 120)
        let elapsed = monotonicMilliseconds() - start
        #expect(result == Waker.WaitResult(readable: false, woken: false, failure: nil))
        #expect(elapsed >= 110, "the wait ended after \(elapsed) ms, before its 120 ms timeout")
    }

    @Test("A wake before the wait is kept; several wakes end one wait, and the next one sleeps")
    func wakesCoalesce() throws {
        let waker = try Waker()
        let socket = try Pipe()
        for _ in 0..<5 { waker.wake() }
        let first = waker.wait(with: socket.read, timeout: 5000)
        #expect(first.woken && !first.readable)
        let start = monotonicMilliseconds()
        let second = waker.wait(with: socket.read, timeout: 100)
        #expect(!second.woken, "the five wakes were cleared by the first wait")
        #expect(monotonicMilliseconds() - start >= 90)
    }

    @Test("Input on the socket ends the wait as readable, without a wake")
    func socketReadable() throws {
        let waker = try Waker()
        let socket = try Pipe()
        var byte: UInt8 = 1
        #expect(write(socket.write, &byte, 1) == 1)
        let result = waker.wait(with: socket.read, timeout: 5000)
        #expect(result == Waker.WaitResult(readable: true, woken: false, failure: nil))
    }

    @Test("Another library's descriptor in the same wait: readable ones are reported, a quiet one sleeps")
    func otherSources() throws {
        let waker = try Waker()
        let socket = try Pipe()
        let quiet = try Pipe(), busy = try Pipe()
        let start = monotonicMilliseconds()
        let idle = waker.wait(with: socket.read, others: [quiet.read, busy.read], timeout: 100)
        #expect(idle == Waker.WaitResult(readable: false, woken: false, failure: nil, readableOthers: []))
        #expect(monotonicMilliseconds() - start >= 90, "a quiet source must not end the wait")
        var byte: UInt8 = 1
        #expect(write(busy.write, &byte, 1) == 1)
        let result = waker.wait(with: socket.read, others: [quiet.read, busy.read], timeout: 5000)
        #expect(result == Waker.WaitResult(readable: false, woken: false, failure: nil, readableOthers: [busy.read]))
    }

    @Test("Many threads waking at once lose nothing and never block")
    func concurrentWakes() throws {
        let waker = try Waker()
        let socket = try Pipe()
        let group = DispatchGroup()
        for _ in 0..<8 {
            DispatchQueue.global().async(group: group) {
                for _ in 0..<1000 { waker.wake() }
            }
        }
        #expect(group.wait(timeout: .now() + 10) == .success, "wake() blocked")
        #expect(waker.wait(with: socket.read, timeout: 1000).woken)
        #expect(!waker.wait(with: socket.read, timeout: 0).woken)
    }
}
