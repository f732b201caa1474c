// The libraries the viewer opens on first use (libwebp, giflib, libtiff, libheif, libjxl,
// librsvg), opened for the first picture while the window is still being set up, instead of
// after it.
import Dispatch

/// Opens the decoding library of a picture ahead of its load.
public enum CodecWarmUp {
    /// A serial queue: its thread comes from libdispatch's overcommit pool, which, unlike the
    /// global queues, starts no once-a-second pool monitor (idle must cost nothing).
    private static let queue = DispatchQueue(label: "scrollkit.codec-warm-up", qos: .userInitiated)

    /// Starts opening, on another thread, the library that decodes the file at `path` when its
    /// format is one whose library is opened on first use. The load that follows finds it
    /// ready, or waits for it: each library opens once (Swift runs their initialisers exactly
    /// once). Nothing is reported: a file that cannot be read or a library that cannot be
    /// opened is named by the load itself.
    ///
    /// librsvg takes 6 ms to open, libheif 4 ms, and the window's set-up about 15 ms after the
    /// process starts. Measured (`Scripts/bench-formats.sh --formats svg --runs 7`, load 0.1):
    /// the SVG's first frame came at 58 ms (median, runs 52–64) against 61 ms in a run before
    /// it, a gain within the runs' spread. Also rendering a letter of text here, to set up the
    /// fonts ahead, made it 72 ms: that drawing has no text, and the fonts took a core from the
    /// window's set-up.
    public static func prepare(forFileAt path: String) {
        queue.async { warmUp(path) }
    }

    /// The work of `prepare`, on the calling thread; the format found, nil when none was.
    @discardableResult
    static func warmUp(_ path: String) -> ImageFormat? {
        // Opened as every picture is: a FIFO or a device in its place is refused, not waited on.
        guard let file = try? PictureFile.open(path: path),
              let head = file.bytes(at: 0, count: min(file.size, ImageFormat.svgSniffBytes)),
              let format = ImageFormat.recognise(head) else { return nil }
        switch format {
        case .webp: _ = WebPCodec.openLibrary()
        case .gif: _ = GIFCodec.openLibrary()
        case .tiff: _ = TIFFCodec.openLibrary()
        case .heif: _ = HEIFCodec.openLibrary()
        case .avif: _ = (HEIFCodec.openLibrary(), AVIFCodec.openLibrary())
        case .jxl: _ = JXLCodec.openLibrary()
        case .svg: _ = SVGCodec.openLibrary()
        case .png, .jpeg, .bmp: break  // linked (BMP: decoded here): nothing to open
        }
        return format
    }
}
