// Loading pictures off the frame loop: read, header, preview, full image, progress, cancel.
import Dispatch
import Foundation
import Synchronization

/// What a load reports, in order: `progress` values (non-decreasing, 0…1) interleaved
/// with `header`, then `preview` (large JPEGs only) or `animation` (animated GIF and WebP,
/// when `PictureLoader.Options.opensAnimations` asks for it), and finally exactly one of
/// `loaded` or `failed`. Nothing follows the final event, and nothing is delivered after
/// `cancel()`.
public enum PictureLoadEvent: Sendable {
    /// Fraction of the work done, 0…1 (an estimate while the decoder runs).
    case progress(Double)
    /// The file's size and orientation, known before any pixel is decoded.
    case header(PictureHeader)
    /// A reduced picture to show while the full one decodes.
    case preview(Picture)
    /// The player of an animated file, positioned after its first frame, which the `loaded`
    /// that follows carries; `firstFrameDelayMs` is how long that frame shows (already
    /// `AnimationDecoder.displayDelay`). Only sent when `Options.opensAnimations` is set.
    case animation(AnimationDecoder, firstFrameDelayMs: Int)
    /// The full-resolution picture.
    case loaded(Picture)
    /// The load failed; the error's `description` is the line for stderr and the error card.
    case failed(PictureError)
}

/// A load in progress; cancel it when its page scrolls away.
public final class PictureLoadTask: Sendable {
    private let cancelled = Atomic<Bool>(false)

    init() {}

    /// Stops the load at the next stage boundary and suppresses all further events.
    /// A decoder call already running finishes in the background (libjpeg-turbo and
    /// libpng cannot be interrupted), but its result is dropped.
    public func cancel() { cancelled.store(true, ordering: .releasing) }

    /// True once `cancel()` was called.
    public var isCancelled: Bool { cancelled.load(ordering: .acquiring) }
}

/// Decodes files on a background queue so the frame loop never waits for a decoder.
///
/// Loads run one after another on the loader's own serial queue (two cores do not gain
/// from decoding several huge files at once); events go to the handler from background
/// threads, one at a time and in order. The frame loop should copy them into its own state
/// and request a frame, never block on them.
public final class PictureLoader: Sendable {
    /// Tuning of a load.
    public struct Options: Sendable {
        /// Largest preview, in pixels: about one 1080p screen.
        public var previewMaxPixels = 1920 * 1080
        /// JPEGs with at least this many pixels get a preview first (4 megapixels: below
        /// that a full decode takes well under 100 ms here).
        public var previewThreshold = 1 << 22
        /// Size and memory ceilings.
        public var limits = DecodeLimits.standard
        /// How the full image is kept.
        public var storage = StoragePreference.automatic
        /// Truncated or corrupt files that decode in part arrive as `loaded` pictures with
        /// `Picture.damage` set (for a viewer that shows them with a banner) instead of
        /// `failed`. Off by default: the caller must be ready to say what is missing.
        public var acceptsDamage = false
        /// Animated GIF and WebP files arrive as their first frame (`loaded`) with the
        /// `AnimationDecoder` that plays the rest (`animation`), made from the bytes already
        /// read. Off by default: `loaded` then carries the first frame alone.
        public var opensAnimations = false

        /// Default options.
        public init() {}
    }

    /// Full-decode throughput used to animate progress while a decoder runs, in pixels per
    /// second: 120 M/s, rounded down from PictureBenchmark's 100.7 MP in 0.59–0.76 s on one
    /// core of the development machine (libjpeg-turbo 2.1 with SIMD).
    static let assumedPixelsPerSecond = 120_000_000.0
    /// Share of the progress bar for reading the file (real progress, by bytes).
    static let readShare = 0.1
    /// Where the bar stands once the preview is shown.
    static let previewDone = 0.3
    /// 50 ms: progress updates while decoding, about 3 frames apart at 60 Hz.
    static let progressInterval = DispatchTimeInterval.milliseconds(50)

    private let options: Options
    private let queue = DispatchQueue(label: "scrollkit.pictures.loader", qos: .userInitiated)
    /// Where the progress estimates of running decodes tick.
    private static let progressQueue = DispatchQueue(label: "scrollkit.pictures.progress", qos: .utility)

    /// Creates a loader.
    public init(options: Options = Options()) {
        self.options = options
    }

    /// Starts loading page `page` (0-based: a TIFF directory, a HEIF image; see
    /// `PictureHeader.pageCount`) of `path`; `handler` receives the events (see `PictureLoadEvent`).
    ///
    /// - Parameters:
    ///   - detail: how much of the picture to keep (see `PictureDetail`): `.screen` loads
    ///     deliver the reduced picture as `loaded`, without a preview (but for an SVG, whose
    ///     drawing is the same at any detail).
    ///   - preview: whether a large JPEG, or an SVG whose fit on the screen is large, sends a
    ///     preview first (a caller already showing a reduction of the picture needs none).
    ///   - screen: the screen the picture is shown on, in device pixels, when it is not the
    ///     one in `Options.limits`.
    @discardableResult
    public func load(path: String, page: Int = 0, detail: PictureDetail = .full, preview: Bool = true,
                     screen: (width: Int, height: Int)? = nil,
                     handler: @escaping @Sendable (PictureLoadEvent) -> Void) -> PictureLoadTask {
        let task = PictureLoadTask()
        let sink = EventSink(task: task, handler: handler)
        var shown = self.options
        if let screen { (shown.limits.screenWidth, shown.limits.screenHeight) = screen }
        let options = shown
        queue.async { Self.run(path: path, page: page, detail: detail, preview: preview, options: options, sink: sink) }
        return task
    }

    /// Renders `picture`, a vector drawing, whole at `scale` (see `Picture.isRenderedWhole`) on
    /// the loader's queue, after the loads started before, then calls `done` there: for a
    /// drawing that arrived rendered at another scale than the one it is shown at (the window
    /// is not the screen the load was sized for).
    public func render(_ picture: Picture, scale: Double, then done: @escaping @Sendable () -> Void) {
        queue.async {
            picture.renderAhead(scale: scale)
            done()
        }
    }

    /// The same events as an async stream; ending iteration cancels the load.
    public func events(path: String) -> AsyncStream<PictureLoadEvent> {
        AsyncStream { continuation in
            let task = load(path: path) { event in
                continuation.yield(event)
                switch event {
                case .loaded, .failed: continuation.finish()
                default: break
                }
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }

    /// Serialises delivery, keeps progress monotonic and drops everything after the final
    /// event or a cancel.
    private final class EventSink: Sendable {
        let task: PictureLoadTask
        let handler: @Sendable (PictureLoadEvent) -> Void
        private let state = Mutex<(progress: Double, finished: Bool)>((0, false))

        init(task: PictureLoadTask, handler: @escaping @Sendable (PictureLoadEvent) -> Void) {
            self.task = task
            self.handler = handler
        }

        func send(_ event: PictureLoadEvent) {
            state.withLock { s in
                guard !s.finished, !task.isCancelled else { return }
                switch event {
                case .progress(let fraction):
                    guard fraction > s.progress else { return }
                    s.progress = fraction
                case .loaded, .failed:
                    if s.progress < 1 { handler(.progress(1)) }
                    s.progress = 1
                    s.finished = true
                default:
                    break
                }
                handler(event)
            }
        }
    }

    /// The animation of `decoder`'s file and its first frame; nil when either cannot be had
    /// (too little memory for the canvases, a first frame that is damaged when damage is not
    /// accepted): the still decode that follows then reports the file's problem, or shows it.
    private static func openAnimation(_ decoder: ImageDecoder, acceptsDamage: Bool) -> (AnimationDecoder, AnimationFrame)? {
        guard let animation = try? AnimationDecoder(decoder: decoder), let first = try? animation.next(),
              acceptsDamage || first.picture.damage == nil else { return nil }
        return (animation, first)
    }

    /// Runs `work` while a timer reports estimated progress from `from` toward `to`,
    /// expecting it to take `seconds`; the estimate stops short of `to` until work returns.
    private static func withEstimatedProgress<T>(
        from: Double, to: Double, seconds: Double, sink: EventSink, _ work: () throws(PictureError) -> T
    ) throws(PictureError) -> T {
        // A serial queue, not a global one: on Linux the first block libdispatch runs on a
        // global queue starts its pool monitor, which wakes the process every second for good
        // (src/event/workqueue.c); a serial queue runs on the overcommit pool, which has none.
        let timer = DispatchSource.makeTimerSource(queue: progressQueue)
        let start = DispatchTime.now()
        timer.setEventHandler {
            let elapsed = Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e9
            // Approaches 95 % of the span asymptotically, so a slow decode never "finishes" early.
            let share = 0.95 * (1 - exp(-elapsed / max(seconds, 0.001)))
            sink.send(.progress(from + (to - from) * share))
        }
        timer.schedule(deadline: .now() + progressInterval, repeating: progressInterval)
        timer.resume()
        defer { timer.cancel() }
        let result = try work()
        sink.send(.progress(to))
        return result
    }

    /// Device pixels per picture pixel of `header`'s picture fitted to the screen of `limits`,
    /// not enlarged past 1:1: the scale a gallery filling that screen shows it at.
    static func screenFit(_ header: PictureHeader, _ limits: DecodeLimits) -> Double {
        guard header.width > 0, header.height > 0 else { return 1 }
        return min(1, Double(limits.screenWidth) / Double(header.width), Double(limits.screenHeight) / Double(header.height))
    }

    private static func run(path: String, page: Int, detail: PictureDetail, preview: Bool, options: Options, sink: EventSink) {
        let task = sink.task
        guard !task.isCancelled else { return }
        do throws(PictureError) {
            // Reading is real progress; decoding is estimated from the pixel count. The bytes
            // are held while the picture decodes: the memory budget holds them too.
            // A PNG, JPEG, TIFF or BMP too large to hold is read in place as it decodes.
            let limits = options.limits
            let file = try PictureFile.open(path: path)
            let decoder: ImageDecoder
            if let streaming = ImageDecoder.streaming(file, limits: limits) {
                decoder = streaming
            } else {
                let bytes = try FileSource.read(file, maxBytes: limits.maxFileBytes, maxHeldBytes: limits.memoryBudget,
                                                progress: { sink.send(.progress(readShare * $0)) },
                                                isCancelled: { task.isCancelled })
                decoder = ImageDecoder(data: bytes, file: file.name, limits: limits)
            }
            let header = try decoder.readHeader(page: page)
            sink.send(.header(header))
            var done = readShare
            let pixels = Double(header.pixelCount)
            // An animation plays its frames at full size, within the budget (AnimationDecoder).
            if options.opensAnimations, header.frameCount > 1,
               let (animation, first) = openAnimation(decoder, acceptsDamage: options.acceptsDamage) {
                sink.send(.animation(animation, firstFrameDelayMs: first.delayMs))
                sink.send(.loaded(first.picture))
                return
            }
            let fit = Self.screenFit(header, limits)
            if preview, header.format == .svg,
               let scale = SVGDocument.previewScale(width: header.width, height: header.height, fit: fit) {
                guard !task.isCancelled else { return }
                // A quick rendition first; then the drawing, rendered whole at the screen's fit
                // here, not on the frame loop's thread when its tiles are asked for.
                sink.send(.preview(try decoder.decodeVectorPreview(scale: scale)))
                let picture = try decoder.decode(page: page, storage: options.storage, detail: detail,
                                                 acceptsDamage: options.acceptsDamage, isCancelled: { task.isCancelled })
                guard !task.isCancelled else { return }
                picture.renderAhead(scale: fit)
                sink.send(.loaded(picture))
                return
            }
            if detail == .screen {
                // DCT scaling or halving as rows arrive: about a third of a full decode.
                let picture = try withEstimatedProgress(
                    from: done, to: 1, seconds: pixels / assumedPixelsPerSecond / 3, sink: sink
                ) { () throws(PictureError) in
                    try decoder.decode(page: page, detail: .screen, acceptsDamage: options.acceptsDamage, isCancelled: { task.isCancelled })
                }
                sink.send(.loaded(picture))
                return
            }
            if preview, header.format == .jpeg, header.pixelCount >= options.previewThreshold, decoder.stream == nil {
                guard !task.isCancelled else { return }
                // DCT-scaled decoding still entropy-decodes every block: about a third of
                // a full decode.
                let preview = try withEstimatedProgress(
                    from: done, to: previewDone, seconds: pixels / assumedPixelsPerSecond / 3, sink: sink
                ) { () throws(PictureError) in try decoder.decodePreview(maxPixels: options.previewMaxPixels) }
                sink.send(.preview(preview))
                done = previewDone
            }
            let picture = try withEstimatedProgress(
                from: done, to: 1, seconds: pixels / assumedPixelsPerSecond, sink: sink
            ) { () throws(PictureError) in
                try decoder.decode(page: page, storage: options.storage, detail: detail, acceptsDamage: options.acceptsDamage,
                                   isCancelled: { task.isCancelled })
            }
            sink.send(.loaded(picture))
        } catch {
            if error.kind != .cancelled { sink.send(.failed(error)) }
        }
    }
}
