// The systemd side of the kiosk without systemd: the watchdog's cadence from WATCHDOG_USEC, no
// notifier at all when no service manager listens, and libsystemd opened when one does.
import Foundation
import Testing
@testable import image_viewer

@Suite("Service notifications")
struct ServiceNotifierTests {
    @Test("Pings every half WatchdogSec, in ms; none without a watchdog; never more often than every millisecond",
          arguments: [(UInt64(600_000), 300.0), (10_000_000, 5000), (3_000_000_000, 1_500_000), (2000, 1), (1, 1)])
    func cadence(_ microseconds: UInt64, _ milliseconds: Double) {
        #expect(WatchdogInterval(watchdogMicroseconds: microseconds)?.milliseconds == milliseconds)
    }

    @Test("A watchdog of 0 is none; UInt64.max stays finite")
    func edges() {
        #expect(WatchdogInterval(watchdogMicroseconds: 0) == nil)
        #expect(WatchdogInterval(watchdogMicroseconds: .max).map { $0.milliseconds.isFinite } == true)
    }

    @Test("No NOTIFY_SOCKET (or an empty one): not started by a service manager, nothing to notify")
    func noSocket() {
        #expect(ServiceNotifier(environment: [:]) == nil)
        #expect(ServiceNotifier(environment: ["NOTIFY_SOCKET": "", "WATCHDOG_USEC": "1000000"]) == nil)
    }

    @Test("A socket named: libsystemd opens (the viewer does not link it), and reads this process's own watchdog, none")
    func socket() throws {
        try #require(ProcessInfo.processInfo.environment["WATCHDOG_USEC"] == nil, "the tests run under a watchdog")
        // Nothing is sent: a notifier sends only when the viewer is ready or feeds the watchdog.
        let notifier = try #require(ServiceNotifier(environment: ["NOTIFY_SOCKET": "/run/scrollkit-absent/notify"]))
        #expect(notifier.watchdog == nil)
    }
}
