// Pixels kept in a file another process can map (a memfd), so that a host can hand a picture to
// the compositor as it is instead of drawing it into a window-size buffer (the Wayland window's
// still frames, see `StillFrame` in Host).

/// Premultiplied ARGB pixels whose memory may be a file another process can map: its descriptor
/// and size, open and unchanged while the object lives. Rows are `width` pixels long.
public protocol SharedPixelFile: AnyObject, Sendable {
    /// The file's descriptor, or nil when the pixels are in private memory.
    var sharedFile: Int32? { get }
    /// The pixels' width.
    var width: Int { get }
    /// The pixels' height.
    var height: Int { get }
    /// Whether every pixel is opaque (alpha 255), as found when the pixels were made.
    var isOpaque: Bool { get }
}

extension StoredPixels {
    /// The owner as a file another process can map, when it is one (an SVG's render).
    public var sharedFile: (any SharedPixelFile)? {
        guard let file = owner as? any SharedPixelFile, file.sharedFile != nil,
              file.width == framebuffer.width, file.height == framebuffer.height, framebuffer.stride == file.width else { return nil }
        return file
    }
}

/// A frame that is one colour with at most one picture on it, the picture's pixels shown as
/// they are or enlarged evenly (a quick rendition). Whoever shows it must show what the
/// renderer would draw: the picture is opaque, or partly transparent over black (XRGB shows
/// premultiplied colour as over black).
public struct StillFrame {
    /// The colour everywhere outside the picture, opaque (0xFFRRGGBB).
    public var background: UInt32
    /// The picture's pixels; nil for a frame of the background alone.
    public var picture: (any SharedPixelFile)?
    /// Where the picture shows, in the frame's device pixels: its own size, or larger when it
    /// is enlarged.
    public var rect: PixelRect

    /// A frame of `background` with `picture` in `rect`.
    public init(background: UInt32, picture: (any SharedPixelFile)?, rect: PixelRect) {
        self.background = background
        self.picture = picture
        self.rect = rect
    }
}
