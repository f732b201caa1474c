// A stand-in for systemd's notification socket: a unix datagram socket the test binds, whose
// path goes to the viewer as NOTIFY_SOCKET; every datagram is kept with the time it arrived.
import CompositorHarness
import Foundation
import Glibc

/// The service manager's end of sd_notify(3), for one test.
final class NotifySocket: @unchecked Sendable {
    /// The socket's path, for NOTIFY_SOCKET.
    let path: String
    private let folder: String
    private let fd: Int32
    private let lock = NSLock()
    private var received: [(time: Date, message: String)] = []
    private var closed = false

    /// Binds a fresh socket in a private folder and starts collecting datagrams; with `owner`
    /// (tests running as root), the folder and socket are that uid's, so its processes may send.
    init(owner: uid_t? = nil) throws {
        var template = Array("/tmp/scrollkit-notify-XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else { throw HarnessError(description: "mkdtemp: \(String(cString: strerror(errno)))") }
        folder = String(cString: made)
        path = folder + "/notify"
        fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw HarnessError(description: "socket: \(String(cString: strerror(errno)))") }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else { throw HarnessError(description: "socket path too long: \(path)") }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: bytes)
            raw[bytes.count] = 0
        }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard bound == 0 else { throw HarnessError(description: "bind \(path): \(String(cString: strerror(errno)))") }
        if let owner, getuid() == 0 {
            chown(folder, owner, owner)
            chown(path, owner, owner)
        }
        Thread.detachNewThread { [self] in collect() }
    }

    deinit { close() }

    /// Stops collecting and removes the socket.
    func close() {
        lock.lock()
        let wasClosed = closed
        closed = true
        lock.unlock()
        guard !wasClosed else { return }
        // shutdown wakes the collecting thread's recv.
        shutdown(fd, Int32(SHUT_RDWR))
        Glibc.close(fd)
        unlink(path)
        rmdir(folder)
    }

    private func collect() {
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            lock.lock()
            defer { lock.unlock() }
            if closed || (n < 0 && errno != EINTR) { return }
            if n > 0 { received.append((Date(), String(decoding: buffer[0..<n], as: UTF8.self))) }
        }
    }

    /// Every datagram so far, with its arrival time.
    var messages: [(time: Date, message: String)] {
        lock.lock()
        defer { lock.unlock() }
        return received
    }

    /// Arrival times of the datagrams whose lines include `line` (e.g. "WATCHDOG=1").
    func times(of line: String) -> [Date] {
        messages.filter { $0.message.split(separator: "\n").contains(Substring(line)) }.map(\.time)
    }
}
