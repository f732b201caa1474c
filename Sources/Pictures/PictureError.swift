// Why a picture could not be shown, as one line a user can read on an error card or stderr.

/// A failure to read or decode one image file.
///
/// `reason` is a single user-facing line ("truncated file"); `description` prefixes the
/// file name ("beach.jpg: truncated file") so the same line works on stderr and on the
/// viewer's error card.
public struct PictureError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What went wrong, with the details the reason line needs.
    public enum Kind: Sendable, Equatable {
        /// The file could not be opened or read; the payload is the system's message.
        case unreadable(String)
        /// The file has no bytes at all.
        case empty
        /// The bytes match no image signature.
        case notAnImage
        /// An image format this module does not decode (GIF, WebP, …), by name.
        case unsupportedFormat(String)
        /// The data ends before the image does.
        case truncated
        /// The declared size exceeds the pixel limit (`limit` in pixels).
        case tooLarge(width: Int, height: Int, limit: Int)
        /// Decoding would need more memory than the machine has available, in bytes.
        case insufficientMemory(width: Int, height: Int, needed: Int, available: Int)
        /// The encoded file is larger than the file-size limit, in bytes.
        case fileTooLarge(bytes: Int, limit: Int)
        /// The codec library rejected the data; the payload is its message.
        case corrupt(ImageFormat, String)
        /// Decoding was cancelled before it finished.
        case cancelled
    }

    /// The file's name as the user knows it (last path component), or a label for memory.
    public let file: String
    /// What went wrong.
    public let kind: Kind

    /// Creates an error for `file`.
    public init(file: String, kind: Kind) {
        self.file = file
        self.kind = kind
    }

    /// The one-line reason without the file name, e.g. "empty file".
    public var reason: String {
        switch kind {
        case .unreadable(let message): return "cannot read: \(message)"
        case .empty: return "empty file"
        case .notAnImage: return "not an image"
        case .unsupportedFormat(let name): return "unsupported image format: \(name)"
        case .truncated: return "truncated file"
        case .tooLarge(let w, let h, let limit):
            return "image too large: \(w)×\(h) exceeds the \(Self.pixelCount(limit)) limit"
        case .insufficientMemory(let w, let h, let needed, let available):
            return "image too large for available memory: \(w)×\(h) needs \(Self.bytes(needed)), "
                + "\(Self.bytes(available)) available"
        case .fileTooLarge(let bytes, let limit):
            return "file too large: \(Self.bytes(bytes)) exceeds the \(Self.bytes(limit)) limit"
        case .corrupt(let format, let message): return "corrupt \(format.name) data: \(message)"
        case .cancelled: return "cancelled"
        }
    }

    /// "<file>: <reason>", the line for stderr and the error card.
    public var description: String { "\(file): \(reason)" }

    /// "268-megapixel" for limits of a million pixels or more, else "5000-pixel".
    static func pixelCount(_ pixels: Int) -> String {
        pixels >= 1_000_000 ? "\(pixels / 1_000_000)-megapixel" : "\(pixels)-pixel"
    }

    /// Bytes in binary units with one decimal, as `free -h` shows them ("1.5 GiB").
    static func bytes(_ count: Int) -> String {
        let units = ["bytes", "KiB", "MiB", "GiB", "TiB"]
        var value = Double(count)
        var unit = 0
        while value >= 1024, unit < units.count - 1 {
            value /= 1024
            unit += 1
        }
        if unit == 0 { return "\(count) bytes" }
        return "\((value * 10).rounded() / 10) \(units[unit])"
    }
}
