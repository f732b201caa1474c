// systemd's service notifications for the kiosk unit (Type=notify, WatchdogSec=): READY=1 (and
// MAINPID=, the viewer being cage's client) once the first frame with content is committed, and
// WATCHDOG=1 from a timer of the event loop
// every half watchdog interval, so a viewer whose loop hangs stops feeding it and is restarted,
// while an idle one wakes for that timer only. libsystemd's sd_notify speaks the protocol
// (NOTIFY_SOCKET, abstract or path sockets, WATCHDOG_PID checked against this process); it is
// opened only when a service manager started the viewer (CSystemd), not linked.
import CSystemd
import Foundation
import Glibc
import Wayland

/// How often to feed the watchdog (pure).
struct WatchdogInterval: Equatable {
    /// Milliseconds between WATCHDOG=1 messages: half the timeout systemd gave
    /// (WATCHDOG_USEC), the cadence sd_watchdog_enabled(3) recommends, so one late ping still
    /// arrives in time.
    let milliseconds: Double

    /// 1 ms: the shortest interval kept. A WatchdogSec in microseconds is a typo, and pinging
    /// more often would keep a core busy for nothing (decision).
    static let minimum = 1.0

    /// The interval for a watchdog timeout of `microseconds`; nil for 0 (no watchdog).
    init?(watchdogMicroseconds microseconds: UInt64) {
        guard microseconds > 0 else { return nil }
        milliseconds = max(Double(microseconds) / 2000, Self.minimum)
    }
}

/// Tells the service manager that started the viewer how it is doing, when one did.
final class ServiceNotifier {
    /// The watchdog's cadence, nil when the service has no WatchdogSec (or another process
    /// is the one watched: WATCHDOG_PID).
    let watchdog: WatchdogInterval?
    private var readySent = false
    private var failureReported = false

    /// A notifier when `environment` names a notification socket (NOTIFY_SOCKET); nil
    /// otherwise, and then the viewer sends nothing. libsystemd reads the process's own
    /// environment for the socket and the watchdog (`environment` is the process's but in tests).
    /// libsystemd is opened here, and only here: when it cannot be, that is said on stderr and
    /// the answer is nil too (a service waiting for READY=1 then times out, the line in its log).
    init?(environment: [String: String] = ProcessInfo.processInfo.environment) {
        guard let socket = environment["NOTIFY_SOCKET"], !socket.isEmpty else { return nil }
        if let problem = scrollkit_systemd_open() {
            emit("image-viewer: cannot notify the service manager: \(String(cString: problem)) (Scripts/install-deps.sh installs it)")
            return nil
        }
        var microseconds: UInt64 = 0
        // Checks WATCHDOG_PID against this process and parses WATCHDOG_USEC; the variables stay
        // set (nothing this viewer starts reads them).
        let enabled = scrollkit_sd_watchdog_enabled(0, &microseconds)
        watchdog = enabled > 0 ? WatchdogInterval(watchdogMicroseconds: microseconds) : nil
        if enabled < 0 {
            // Set by hand and unreadable: a service manager waiting for pings would kill us.
            emit("image-viewer: WATCHDOG_USEC=\(environment["WATCHDOG_USEC"] ?? "") or WATCHDOG_PID=\(environment["WATCHDOG_PID"] ?? "") "
                 + "cannot be used (\(String(cString: strerror(-enabled)))): the watchdog is not fed")
        }
    }

    /// READY=1, once: the first frame is on its way to the screen. With it MAINPID= names this
    /// process: under cage the service's main process is cage, which exits with status 0
    /// whatever became of its client, so systemd must watch the viewer itself to see it fail
    /// (accepted from a process of the service with NotifyAccess=all).
    func ready() {
        guard !readySent else { return }
        readySent = true
        send("READY=1\nMAINPID=\(getpid())")
    }

    /// Feeds the watchdog from `display`'s event loop: a timer every interval, which runs only
    /// when the loop comes round, so a loop stuck in a render, a blocked call or a deadlock stops
    /// the pings and systemd restarts the service.
    func startWatchdog(on display: Display) {
        guard let watchdog else { return }
        send("WATCHDOG=1")
        display.schedule(at: monotonicMilliseconds() + watchdog.milliseconds) { [weak self, unowned display] in
            self?.startWatchdog(on: display)
        }
    }

    private func send(_ state: String) {
        let result = scrollkit_sd_notify(0, state)
        guard result < 0, !failureReported else { return }
        // The service manager will notice the silence; say why once.
        failureReported = true
        emit("image-viewer: cannot notify the service manager (\(state)): \(String(cString: strerror(-result)))")
    }
}
