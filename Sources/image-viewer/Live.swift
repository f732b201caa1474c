// The viewer in a Wayland session: the gallery (or test card) in a window, keys asking for
// fullscreen or quit, and the --stats lines as frames are committed.
import Dispatch
import Foundation
import Gallery
import Glibc
import Host
import Raster
import SafeOutput
import ScrollKit
import Synchronization
import TraceFormat
import Wayland

extension ImageViewer {
    /// Opens the window and runs until it is closed, Q is pressed or the compositor goes away.
    func runLive(launch: Double) throws {
        let scene: Scene
        let renderer: Renderer
        var gallery: GalleryScene?
        var card: ViewScene?
        var watcher: FolderWatcher?
        var list: ListDemo?
        if testCard {
            let testCardScene = makeTestCardScene(cacheBudget: cacheBudget)
            scene = testCardScene
            renderer = testCardScene.renderer
            card = testCardScene
        } else if demo == .list {
            let demo = ListDemo(cacheBudget: cacheBudget)
            scene = demo.scene
            renderer = demo.scene.renderer
            card = demo.scene
            list = demo
        } else {
            let (source, listing) = listFiles()
            let g = makeGallery(listing, loading: .background)
            if let source, !listing.watchedFolders.isEmpty {
                do {
                    watcher = try FolderWatcher(source: source, listing: listing) { emit("image-viewer: \($0)") }
                    g.folderChanges = watcher?.changes
                } catch {
                    emit("image-viewer: folders will not be watched for changes: \(error)")
                }
            }
            scene = g
            renderer = g.renderer
            gallery = g
        }
        // The recording's file first: one that cannot be written is refused before any window.
        var recorder: InputRecorder?
        if let record {
            let describe: () -> TraceSetupDescription
            if let gallery {
                // The pager and every page: a replay routes input between them as the gallery does.
                describe = { [unowned gallery] in gallery.traceSetup() }
            } else if let card, ViewScene.scrollViews(in: card.root).first != nil {
                describe = { [unowned card] in
                    ViewScene.scrollViews(in: card.root).first.map { TraceSetupDescription(describing: $0) }
                        ?? TraceSetupDescription(content: .zero)
                }
            } else {
                emit("image-viewer: \(RecordingError.noScrollView)")
                Glibc.exit(1)
            }
            do {
                recorder = try InputRecorder(path: record, replacing: force, setup: describe)
            } catch {
                emit("image-viewer: \(error)")
                Glibc.exit(1)
            }
            if let gallery, let recorder {
                // The gallery's keys are commands: it reports their effect (and its slideshow's,
                // and its pages' new content) for the recording.
                recorder.sceneReportsKeys = true
                gallery.onTraceAction = { [unowned recorder] action, time in recorder.record(action, at: time) }
            }
        }
        let app: Application
        do {
            // The title names what is shown; the app id stays the same for desktop files and rules.
            // A kiosk is always fullscreen: its decorations would never show, so libdecor's
            // plugin is not loaded for it.
            app = try Application(scene: scene, title: gallery?.title ?? WindowTitle.showing("Test card"),
                                  appID: "org.scrollkit.ImageViewer", fullscreen: fullscreen || kiosk,
                                  decorations: kiosk ? .serverSideOnly : .automatic)
        } catch let error as WaylandError {
            recorder?.discard()
            fail(error)
        }
        if let gallery {
            app.cursorProvider = { [unowned gallery] in
                switch gallery.pointerAppearance {
                case .arrow: .arrow
                case .openHand: .openHand
                case .closedHand: .closedHand
                case .hidden: .hidden
                }
            }
        }
        gallery?.onWindowRequest = { [unowned app] request in app.perform(request) }
        gallery?.screenSize = { [unowned app] in app.display.largestOutputPixels }
        gallery?.onTitleChange = { [unowned app] in app.window.setTitle($0) }
        app.window.drawsAhead = !noDrawAhead
        if let gallery {
            // The screen stays on while the slideshow plays or a finger is down.
            app.keepsScreenOn = { [unowned gallery] in gallery.keepsScreenOn }
        }
        if let card {
            app.cursorProvider = { [unowned app, unowned card] in
                cursorShape(over: card, dragging: app.seat?.isDraggingWithPointer ?? false, location: app.seat?.pointerLocation)
            }
        }
        // The test card and the list answer the gallery's window keys too (Q quits, F fullscreen).
        let kiosk = kiosk
        let windowKey: (Key, InputEvent.Modifiers) -> Void = { [unowned app] key, modifiers in
            switch GalleryKeyBindings.command(forKey: key, modifiers: modifiers, kiosk: kiosk) {
            case .toggleFullscreen: app.perform(.toggleFullscreen)
            case .leaveFullscreen: app.perform(.leaveFullscreen)
            case .quit: app.perform(.quit)
            default: break
            }
        }
        if let list {
            list.onKey = windowKey
        } else if let card {
            card.inputHandler = { [unowned card] events in
                for event in events {
                    if case .key(let key, true) = event.kind { windowKey(key, event.modifiers) }
                }
                card.router.handle(frame: events)
            }
        }
        if let recorder { app.attach(recorder) }
        let log = stats ? StatsLog(launch: launch) : nil
        let termination = TerminationSignals(app: app, log: log)
        if let log {
            var lastTiles = 0
            app.window.onFrameCommitted = { [unowned app] frame, commitTime in
                let tilesNow = renderer.statistics.tilesDrawn + renderer.statistics.tilesResampled
                log.frameCommitted(at: commitTime, renderMs: app.window.statistics.lastRenderMilliseconds,
                                   answerMs: app.window.statistics.lastAnswerMilliseconds,
                                   drawnAhead: app.window.statistics.lastFrameDrawnAhead,
                                   newBuffer: app.window.statistics.lastFrameNewBuffer,
                                   halved: app.window.statistics.lastFrameHalved, still: frame.isStill,
                                   tiles: tilesNow - lastTiles, width: frame.width, height: frame.height,
                                   showsContent: gallery?.hasRenderedContent ?? true,
                                   cacheBytes: renderer.cacheBytes, cachedTiles: renderer.cachedTileCount,
                                   callbacks: app.window.statistics.callbackFigures)
                lastTiles = tilesNow
            }
        }
        // Under systemd (Type=notify, WatchdogSec=): ready once the first frame with content is
        // committed, and the watchdog fed from the loop while it turns.
        if let notifier = ServiceNotifier() {
            let previous = app.window.onFrameCommitted
            app.window.onFrameCommitted = { frame, time in
                previous?(frame, time)
                if gallery?.hasRenderedContent ?? true { notifier.ready() }
            }
            notifier.startWatchdog(on: app.display)
        }
        do {
            try withExtendedLifetime((termination, watcher, list)) { try app.run() }
        } catch let error as WaylandError {
            reportIncompleteRecording(app.recorder)
            fail(error)
        }
        log?.emitSummary(callbacks: app.window.statistics.callbackFigures)
        let recordingFailed = reportIncompleteRecording(app.recorder)
        if let number = termination.received { Glibc.exit(128 + number) }
        if recordingFailed { Glibc.exit(1) }
    }

    /// Says again, at exit, that the recording is incomplete (the first failure was reported
    /// as it happened); returns whether it is.
    @discardableResult
    private func reportIncompleteRecording(_ recorder: InputRecorder?) -> Bool {
        guard let recorder, let failure = recorder.failure else { return false }
        emit("image-viewer: the recording \(recorder.path) is incomplete: it holds the first \(recorder.linesWritten) lines only (\(failure))")
        return true
    }
}

/// SIGINT and SIGTERM end the viewer as closing its window does: the event loop is woken and
/// quits, so the recording gets its end comment and `--stats` its summary. A second signal, or
/// a loop that has not quit 2 s later, ends the process at once (after the summary).
final class TerminationSignals {
    /// The first signal's number, 0 before one arrives; shared with the handlers.
    private final class Received: Sendable {
        let number = Atomic<Int32>(0)
    }

    private let first = Received()
    private let sources: [DispatchSourceSignal]
    /// 2 s: how long a signalled loop has to quit before the process ends anyway (decision).
    static let grace = DispatchTimeInterval.seconds(2)

    /// The signal that ended the run, if one did.
    var received: Int32? {
        let value = first.number.load(ordering: .acquiring)
        return value == 0 ? nil : value
    }

    init(app: Application, log: StatsLog?) {
        // A serial queue: its thread comes from libdispatch's overcommit pool, which, unlike
        // the global queues, starts no once-a-second pool monitor (idle must cost nothing).
        let queue = DispatchQueue(label: "scrollkit.signals")
        let waker = app.display.waker
        let received = first
        var sources: [DispatchSourceSignal] = []
        for signalNumber in [SIGINT, SIGTERM] {
            signal(signalNumber, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: queue)
            source.setEventHandler {
                let isFirst = received.number.compareExchange(expected: 0, desired: signalNumber,
                                                              ordering: .acquiringAndReleasing).exchanged
                guard isFirst else {
                    log?.emitSummary()
                    exit(128 + signalNumber)
                }
                waker.wake()
                queue.asyncAfter(deadline: .now() + Self.grace) {
                    log?.emitSummary()
                    exit(128 + signalNumber)
                }
            }
            source.resume()
            sources.append(source)
        }
        self.sources = sources
        app.display.addWakeHandler { [unowned app] in
            if received.number.load(ordering: .acquiring) != 0 { app.quit() }
        }
    }
}

/// The `--stats` output of a live run. Frames are recorded on the event loop's thread; the
/// summary may also be printed from a signal handler's thread, so the figures sit behind a lock.
final class StatsLog: Sendable {
    private struct Figures {
        var recorder = FrameStatsRecorder()
        var firstFrameShown = false
        var cacheBytes = 0
        var cachedTiles = 0
        var callbacks = FrameStatsRecorder.CallbackFigures(answered: 0, late: 0, slowestMs: 0)
        var summaryPrinted = false
    }

    /// Monotonic ms when the process started.
    let launch: Double
    private let figures = Mutex(Figures())

    init(launch: Double) {
        self.launch = launch
    }

    /// One committed frame. Lines start with the first frame showing content (`first-frame`),
    /// so that line comes first; earlier frames (the black window while the first picture
    /// decodes) count in the summary only.
    func frameCommitted(at time: Double, renderMs: Double, answerMs: Double?, drawnAhead: Bool, newBuffer: Bool, halved: Bool, still: Bool,
                        tiles: Int, width: Int, height: Int, showsContent: Bool,
                        cacheBytes: Int, cachedTiles: Int, callbacks: FrameStatsRecorder.CallbackFigures) {
        var lines: [String] = []
        figures.withLock { f in
            f.recorder.record(renderMs: renderMs)
            f.cacheBytes = cacheBytes
            f.cachedTiles = cachedTiles
            f.callbacks = callbacks
            if !f.firstFrameShown {
                guard showsContent else { return }
                f.firstFrameShown = true
                lines.append(FrameStatsRecorder.firstFrameLine(ms: time - launch, width: width, height: height))
            }
            lines.append(FrameStatsRecorder.frameLine(ms: time - launch, renderMs: renderMs, tiles: tiles,
                                                      width: width, height: height, answerMs: answerMs,
                                                      drawnAhead: drawnAhead, newBuffer: newBuffer, halved: halved, still: still))
        }
        for line in lines { emit(line) }
    }

    /// Prints the summary once (at exit, or when a signal ends the process). `callbacks` are
    /// the window's final figures when the caller can read them (the event loop's thread);
    /// otherwise those seen at the last commit are printed.
    func emitSummary(callbacks: FrameStatsRecorder.CallbackFigures? = nil) {
        let line: String? = figures.withLock { f in
            guard !f.summaryPrinted else { return nil }
            f.summaryPrinted = true
            if let callbacks { f.callbacks = callbacks }
            return f.recorder.summaryLine(peakMemoryKiB: ProcessFigures.peakResidentKiB(), cacheBytes: f.cacheBytes,
                                          cachedTiles: f.cachedTiles, callbacks: f.callbacks)
        }
        if let line { emit(line) }
    }
}

extension Application {
    /// Carries out a window request of the gallery's keys.
    func perform(_ request: GalleryScene.WindowRequest) {
        switch request {
        case .toggleFullscreen: window.setFullscreen(!window.isFullscreen)
        case .leaveFullscreen: if window.isFullscreen { window.setFullscreen(false) }
        case .quit: quit()
        }
    }
}

extension FrameStatistics {
    /// The callback figures the `--stats` summary prints.
    var callbackFigures: FrameStatsRecorder.CallbackFigures {
        .init(answered: callbacksAnswered, late: lateCallbackAnswers, slowestMs: maxCallbackAnswerMilliseconds,
              presentation: presentation.map {
                  .init(presented: $0.presented, discarded: $0.discarded, late: $0.late,
                        longestGapRefreshes: $0.longestGapRefreshes, awaiting: $0.awaiting)
              }, drawnAhead: framesDrawnAhead, aheadDiscarded: heldFramesDiscarded)
    }
}

/// Prints the one-line reason and exits with status 1.
func fail(_ error: WaylandError) -> Never {
    emit("image-viewer: \(error)")
    exit(1)
}
