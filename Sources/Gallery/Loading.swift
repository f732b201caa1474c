// Handing decoded pictures from the loader's threads to the frame loop: loads post their events
// into a locked mailbox that the single-threaded scene empties on its own thread.
import Dispatch
import Foundation
import Pictures
import Synchronization

/// One event of one picture load, tagged with its load's token.
public struct LoadDelivery: Sendable {
    /// The load it belongs to.
    public var token: UInt64
    /// What happened.
    public var event: PictureLoadEvent
}

/// Messages from other threads waiting for the frame loop: picture load events, folder
/// changes.
///
/// Other threads `post`; the scene `drain`s on the frame loop's thread. Nothing else is
/// shared, so the scene's views are only ever touched by one thread.
public final class Mailbox<Message: Sendable>: Sendable {
    private let queue = Mutex<[Message]>([])
    private let wake = Mutex<(@Sendable () -> Void)?>(nil)

    /// An empty mailbox.
    public init() {}

    /// Called after each `post`, on the posting thread: the host's wake, so the frame loop
    /// drains the mailbox soon without polling it.
    public var onPost: (@Sendable () -> Void)? {
        get { wake.withLock { $0 } }
        set { wake.withLock { $0 = newValue } }
    }

    /// Adds a message (any thread) and calls `onPost`.
    public func post(_ message: Message) {
        queue.withLock { $0.append(message) }
        // Outside the lock: the wake may take its own locks or write to a descriptor.
        wake.withLock { $0 }?()
    }

    /// Takes every waiting message, oldest first.
    public func drain() -> [Message] {
        queue.withLock { q in
            defer { q.removeAll(keepingCapacity: true) }
            return q
        }
    }

    /// Whether messages are waiting.
    public var isEmpty: Bool { queue.withLock { $0.isEmpty } }
}

extension Mailbox where Message == LoadDelivery {
    /// Adds a load's event (any thread) and calls `onPost`.
    public func post(_ event: PictureLoadEvent, token: UInt64) {
        post(LoadDelivery(token: token, event: event))
    }
}

/// Starts picture loads for the gallery's pages and routes their events to a mailbox.
public final class PageLoader: Sendable {
    /// When the caller sees a load's events.
    public enum Mode: Sendable {
        /// Loads run on the loader's background queue; the frame loop never waits. The live
        /// viewer's mode.
        case background
        /// `load` returns only once the load has finished (its events are in the mailbox):
        /// runs are repeatable frame for frame, as offscreen replays and screenshots need.
        case waitForEach
    }

    /// Where events go.
    public let mailbox = Mailbox<LoadDelivery>()
    /// How loads are run.
    public let mode: Mode
    private let loader: PictureLoader

    /// A loader decoding with `options`, in `mode`.
    public init(options: PictureLoader.Options = PictureLoader.Options(), mode: Mode = .background) {
        loader = PictureLoader(options: options)
        self.mode = mode
    }

    /// Starts loading page `page` of `path` (see `PictureLoader.load`) with `detail` (a
    /// JPEG's preview first when `preview`) for a view on `screen` (device pixels); its events
    /// reach the mailbox tagged with `token`. Returns the task, to cancel when the page goes away.
    @discardableResult
    public func load(path: String, page: Int = 0, token: UInt64, detail: PictureDetail = .full, preview: Bool = true,
                     screen: (width: Int, height: Int)? = nil) -> PictureLoadTask {
        let mailbox = self.mailbox
        switch mode {
        case .background:
            return loader.load(path: path, page: page, detail: detail, preview: preview, screen: screen) { event in
                mailbox.post(event, token: token)
            }
        case .waitForEach:
            let done = DispatchSemaphore(value: 0)
            let task = loader.load(path: path, page: page, detail: detail, preview: preview, screen: screen) { event in
                mailbox.post(event, token: token)
                switch event {
                case .loaded, .failed: done.signal()
                default: break
                }
            }
            // The loader always ends an uncancelled load with `loaded` or `failed`.
            done.wait()
            return task
        }
    }

    /// Renders `picture`, a vector drawing a load delivered, whole at `scale` in the background
    /// (see `PictureLoader.render`) and delivers it again as `loaded` tagged with `token`.
    public func render(_ picture: Picture, scale: Double, token: UInt64) {
        let mailbox = self.mailbox
        loader.render(picture, scale: scale) { mailbox.post(.loaded(picture), token: token) }
    }
}
