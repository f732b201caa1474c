// libdecor's context: the library that draws client-side decorations (title bar, buttons,
// borders, shadows) through a plugin it loads at run time, on our connection's default queue.
import CLibdecor
import CWaylandClient
import SafeOutput

/// One `struct libdecor`: its plugin, and the plugin's own bindings of the compositor's globals.
final class LibdecorContext {
    /// `struct libdecor *`.
    let proxy: OpaquePointer
    /// Strong: libdecor's proxies must go before the connection is closed.
    private let display: Display
    /// The loop's source for a plugin that reads a descriptor of its own; nil for the cairo
    /// plugin, whose descriptor is the connection's socket.
    private var source: Int?
    /// Runs with libdecor's message when it reports an error.
    var onError: ((String) -> Void)?
    /// libdecor's first error; once set, the context must not be used or released (see deinit).
    private(set) var error: String?

    /// Starts libdecor on `display`: it looks for its globals and loads its plugin (dlopen), which
    /// is ready after two roundtrips. Nil when libdecor cannot be started.
    init?(display: Display) {
        guard let context = libdecor_new(display.proxy, &LibdecorContext.interface) else { return nil }
        proxy = context
        self.display = display
        // libdecor's error callback carries no user data: the context is found by its pointer.
        LibdecorContext.live[context] = LiveContext(self)
        // libdecor_get_fd and libdecor_dispatch are the integration libdecor offers: the plugin's
        // descriptor and a dispatch that polls it. The cairo plugin (the one Debian 12 ships)
        // hands out the connection's own socket and dispatches the default queue, which the
        // event loop already waits on and dispatches: calling libdecor_dispatch as well would
        // poll the socket a second time. A plugin with another descriptor gets it added to the
        // loop's single poll and is dispatched without waiting when it is readable.
        let fd = libdecor_get_fd(context)
        if fd >= 0 && fd != display.socket {
            source = display.addReadableSource(fd) { [unowned self] in
                if self.error == nil { _ = libdecor_dispatch(self.proxy, 0) }
            }
        }
    }

    deinit {
        if let source { display.removeReadableSource(source) }
        LibdecorContext.live[proxy] = nil
        // libdecor 0.1.1 destroys its plugin when it reports an error and again in
        // libdecor_unref: after an error the context is left as it is (the process is ending).
        if error == nil { libdecor_unref(proxy) }
    }

    private func failed(_ message: String) {
        guard error == nil else { return }
        error = message
        onError?(message)
    }

    /// A weak reference, so the table of live contexts keeps none alive.
    private struct LiveContext {
        weak var context: LibdecorContext?
        init(_ context: LibdecorContext) { self.context = context }
    }

    /// The live contexts by their `struct libdecor *`, for the error callback (loop thread only).
    nonisolated(unsafe) private static var live: [OpaquePointer: LiveContext] = [:]

    // Static storage: libdecor keeps the pointer for the context's life.
    nonisolated(unsafe) private static var interface = libdecor_interface(
        error: { context, _, message in
            guard let context, let owner = LibdecorContext.live[context]?.context else { return }
            owner.failed(message.map { TerminalText.escaped(String(cString: $0)) } ?? "unknown error")
        },
        reserved0: nil, reserved1: nil, reserved2: nil, reserved3: nil, reserved4: nil,
        reserved5: nil, reserved6: nil, reserved7: nil, reserved8: nil, reserved9: nil)
}
