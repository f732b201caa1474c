// One picture viewer shown the huge JPEG under its own headless sway: when its first frame came,
// when it went quiet, and its peak resident memory read from /proc just before it is ended.
import CompositorHarness
import Foundation
import Glibc
import Pictures

/// Why the benchmark cannot go on: one line, plus a log excerpt where that helps.
struct BenchError: Error, CustomStringConvertible {
    let description: String
}

/// What one live run measured.
struct LiveFigures {
    /// From launch to the first frame with the picture, in ms (nil when not measurable).
    var firstFrameMs: Double?
    /// The photo as a screenshot taken as soon as that frame was seen shows it.
    var firstFrame: PhotoOnScreen?
    /// From launch to the last frame before the program went quiet, in ms (image-viewer:
    /// the frame showing the full-resolution picture, after which nothing more is drawn).
    var lastFrameMs: Double?
    /// VmHWM of the process read just before it was ended, in KiB.
    var peakKiB: Int
    /// The peak the program reported itself (image-viewer's --stats summary), in KiB.
    var reportedPeakKiB: Int?
    /// The photo as a screenshot shows it once settled.
    var settled: PhotoOnScreen
}

/// Settings shared by the live runs.
struct LiveSettings {
    /// sway's executable.
    var sway: String
    /// swaymsg's executable (window events for swayimg's first frame).
    var swaymsg: String
    /// The output's size, in pixels.
    var width: Int, height: Int
    /// Seconds without a new frame line and without VmHWM growing that count as "done".
    var settle: Double
    /// Seconds a program may take to show its picture and settle.
    var timeout: Double
    /// What the photo looks like, to recognise it in screenshots.
    var photo: PhotoOnScreen.Expectation
}

/// A field of /proc/PID/status in KiB (VmHWM, VmRSS), or nil once the process is gone.
func procStatusKiB(_ pid: pid_t, _ field: String) -> Int? {
    guard let text = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return nil }
    for line in text.split(separator: "\n") where line.hasPrefix(field + ":") {
        return line.split(whereSeparator: { $0 == " " || $0 == "\t" }).dropFirst().first.flatMap { Int($0) }
    }
    return nil
}

/// The key `"name":value` of a one-line JSON object, as a number.
func jsonNumber(_ line: String, _ name: String) -> Double? {
    guard let data = line.data(using: .utf8),
          let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else { return nil }
    return (object[name] as? NSNumber)?.doubleValue
}

/// The key `"name":"value"` of a one-line JSON object, as a string.
func jsonString(_ line: String, _ name: String) -> String? {
    guard let data = line.data(using: .utf8),
          let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else { return nil }
    return object[name] as? String
}

enum LiveRun {
    /// Runs `image-viewer --stats FILE` under a fresh sway until its full-resolution load has
    /// been drawn. The viewer prints no line when a load ends, so "done" is: the first frame
    /// was shown, and then for `settle` seconds no frame line was printed (the load's progress
    /// bar redraws about every 50 ms until the full picture replaces the preview), VmHWM did
    /// not grow and the process used no CPU time (the frame from the full-resolution picture
    /// can take longer to draw than `settle`). Then SIGTERM makes it print its summary.
    static func viewer(_ executable: String, file: String, settings: LiveSettings) throws -> LiveFigures {
        let sway = try SwayHeadless(width: settings.width, height: settings.height, background: background, executable: settings.sway)
        defer { sway.stop() }
        let logURL = sway.folder.appendingPathComponent("viewer.log")
        let home = try privateHome(in: sway)
        let child = try GroupProcess(executable: executable, arguments: ["--stats", file],
                                     environment: clientEnvironment(sway, home: home), log: logURL)
        defer { if child.isRunning { child.stop(signal: SIGKILL) } }
        func log() -> String { (try? String(contentsOf: logURL, encoding: .utf8)) ?? "" }
        func lines() -> [String] { log().split(separator: "\n").map(String.init) }

        var firstFrameMs: Double?
        var first: PhotoOnScreen?
        try waitUntilSettled(child, settings: settings, describe: "image-viewer", log: log, progress: {
            let all = lines()
            if let problem = all.first(where: { $0.hasPrefix("image-viewer:") }) {
                throw BenchError(description: "image-viewer could not show the file: \(problem)")
            }
            if firstFrameMs == nil, let line = all.first(where: { jsonString($0, "event") == "first-frame" }) {
                firstFrameMs = jsonNumber(line, "ms")
            }
            return (firstFrameMs != nil, all.count)
        }, onShown: {
            first = try lookAfterFirstFrame(at: sway, settings: settings)
        })
        let settled = try look(at: sway, settings: settings)
        try requirePhoto(settled, program: "image-viewer", log: log())
        let peak = procStatusKiB(child.pid, "VmHWM") ?? 0
        child.stop(signal: SIGTERM, grace: 5)
        let all = lines()
        let lastFrame = all.last { jsonString($0, "event") == "frame" }.flatMap { jsonNumber($0, "ms") }
        let reported = all.last { jsonString($0, "event") == "summary" }.flatMap { jsonNumber($0, "peakMemoryKiB") }
        return LiveFigures(firstFrameMs: firstFrameMs, firstFrame: first, lastFrameMs: lastFrame,
                           peakKiB: peak, reportedPeakKiB: reported.map { Int($0) }, settled: settled)
    }

    /// Runs `swayimg FILE` under a fresh sway. swayimg decodes the whole file before it
    /// connects to the compositor, so its window's mapping (sway's `new` window event, sent
    /// for the first commit with a buffer) is its first frame. It is ended once it has been
    /// idle as `viewer` defines it (VmHWM and CPU time) for `settle` seconds after that.
    static func swayimg(_ executable: String, file: String, settings: LiveSettings) throws -> LiveFigures {
        let sway = try SwayHeadless(width: settings.width, height: settings.height, background: background, executable: settings.sway)
        defer { sway.stop() }
        // Window events, plus tick: subscribing to tick answers at once with `"first": true`,
        // which shows the subscription is in place before swayimg starts (sway-ipc(7)).
        let pipe = Pipe()
        let watcher = try GroupProcess(executable: settings.swaymsg,
                                       arguments: ["-s", sway.ipcSocket, "-t", "subscribe", "-m", "--raw", #"["window","tick"]"#],
                                       environment: clientEnvironment(sway, home: sway.folder), output: pipe.fileHandleForWriting)
        defer { watcher.stop() }
        let events = LineCollector()
        events.drain(pipe.fileHandleForReading)
        let ready = monotonicMilliseconds() + 5000
        while !events.stampedLines.contains(where: { $0.text.contains(#""first": true"#) || $0.text.contains(#""first":true"#) }) {
            guard monotonicMilliseconds() < ready, watcher.isRunning else {
                throw BenchError(description: "swaymsg did not subscribe to sway's window events within 5 s")
            }
            usleep(10_000)
        }
        let logURL = sway.folder.appendingPathComponent("swayimg.log")
        let home = try privateHome(in: sway)
        let launch = monotonicMilliseconds()
        let child = try GroupProcess(executable: executable, arguments: [file], environment: clientEnvironment(sway, home: home),
                                     log: logURL)
        defer { if child.isRunning { child.stop(signal: SIGKILL) } }
        func log() -> String { (try? String(contentsOf: logURL, encoding: .utf8)) ?? "" }
        func mapped() -> Double? {
            events.stampedLines.first { jsonString($0.text, "change") == "new" }.map { $0.ms - launch }
        }
        var first: PhotoOnScreen?
        try waitUntilSettled(child, settings: settings, describe: "swayimg", log: log,
                             progress: { (mapped() != nil, 0) },
                             onShown: { first = try lookAfterFirstFrame(at: sway, settings: settings) })
        let settled = try look(at: sway, settings: settings)
        try requirePhoto(settled, program: "swayimg", log: log())
        let peak = procStatusKiB(child.pid, "VmHWM") ?? 0
        child.stop(signal: SIGTERM)
        return LiveFigures(firstFrameMs: mapped(), firstFrame: first, lastFrameMs: nil, peakKiB: peak,
                           reportedPeakKiB: nil, settled: settled)
    }

    /// The output's background, sway's default (decision: a colour the test photo never has).
    static let background = SwayHeadless.defaultBackground

    /// The environment of a client of `sway`: its sockets (SWAYSOCK too) and a private HOME, so
    /// no user configuration changes what is measured.
    private static func clientEnvironment(_ sway: SwayHeadless, home: URL) -> [String: String] {
        var environment = sway.clientEnvironment
        environment["SWAYSOCK"] = sway.ipcSocket
        environment["HOME"] = home.path
        environment.removeValue(forKey: "XDG_CONFIG_HOME")
        return environment
    }

    /// A HOME of its own for a client, so no user configuration changes what is measured.
    private static func privateHome(in sway: SwayHeadless) throws -> URL {
        let home = sway.folder.appendingPathComponent("client-home")
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        return home
    }

    /// 2 clock ticks (20 ms at Linux's 100 Hz USER_HZ): CPU time a settled process may still
    /// use over the settle window (a stray wakeup), in ticks (decision).
    static let idleTicks = 2

    /// Polls every 20 ms until `progress` says the first frame is shown, then until for
    /// `settle` seconds neither its line count nor VmHWM changed and the process used at
    /// most `idleTicks` of CPU. `progress` returns whether the first frame was seen and a
    /// count of output lines (0 when there are none to watch); `onShown` runs once, as soon
    /// as the first frame is seen.
    private static func waitUntilSettled(
        _ child: GroupProcess, settings: LiveSettings, describe name: String, log: () -> String,
        progress: () throws -> (shown: Bool, lines: Int), onShown: () throws -> Void
    ) throws {
        let start = monotonicMilliseconds()
        var peak = 0, lines = 0, ticks = 0
        var shown = false
        var lastChange = start
        while true {
            usleep(20_000)
            let now = monotonicMilliseconds()
            guard child.isRunning, let hwm = procStatusKiB(child.pid, "VmHWM"), let cpu = cpuTicks(child.pid) else {
                throw BenchError(description: "\(name) exited before it had settled; its output:\n\(log().suffix(3000))")
            }
            let state = try progress()
            if state.shown && !shown {
                shown = true
                try onShown()
            }
            if hwm != peak || state.lines != lines || cpu > ticks + Self.idleTicks {
                peak = hwm
                lines = state.lines
                ticks = cpu
                lastChange = monotonicMilliseconds()
            }
            if shown && now - lastChange >= settings.settle * 1000 { return }
            if now - start > settings.timeout * 1000 {
                let what = shown ? "did not settle" : "showed no picture"
                throw BenchError(description: "\(name) \(what) within \(Int(settings.timeout)) s; its output:\n\(log().suffix(3000))")
            }
        }
    }

    /// User plus system CPU time of process `pid` (/proc/PID/stat fields 14 and 15), in
    /// clock ticks; nil once it is gone.
    static func cpuTicks(_ pid: pid_t) -> Int? {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let close = text.lastIndex(of: ")") else { return nil }
        // Fields after the command name (which may hold spaces) start with field 3, the state.
        let fields = text[text.index(after: close)...].split(separator: " ")
        guard fields.count > 12, let user = Int(fields[11]), let system = Int(fields[12]) else { return nil }
        return user + system
    }

    /// 4 screenshots, 50 ms apart: sway shows a newly mapped window only once the client has
    /// answered the tiling configure (or after its 200 ms transaction timeout), so the frame
    /// a first-frame signal announces may reach the screen a little later (decision).
    static let firstFrameLooks = 4

    /// Screenshots until one shows the photo, at most `firstFrameLooks`; the last one seen.
    private static func lookAfterFirstFrame(at sway: SwayHeadless, settings: LiveSettings) throws -> PhotoOnScreen {
        var seen = try look(at: sway, settings: settings)
        for _ in 1..<firstFrameLooks where !seen.isPhoto {
            usleep(50_000)
            seen = try look(at: sway, settings: settings)
        }
        return seen
    }

    /// A screenshot of the whole output (grim), searched for the photo.
    private static func look(at sway: SwayHeadless, settings: LiveSettings) throws -> PhotoOnScreen {
        PhotoOnScreen(try sway.screenshot(), expecting: settings.photo)
    }

    /// Refuses to report figures for a window that, settled, does not show the photo.
    private static func requirePhoto(_ seen: PhotoOnScreen, program: String, log: String) throws {
        guard !seen.isPhoto else { return }
        throw BenchError(description: "\(program) does not show the photo once settled (\(seen)); its output:\n\(log.suffix(2000))")
    }
}
