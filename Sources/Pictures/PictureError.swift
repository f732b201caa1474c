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
        /// The path names something other than a regular file, which could block or never
        /// end if read; the payload names its type ("FIFO", "character device").
        case notRegularFile(String)
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
        /// Decoding would hold more memory than the memory budget allows
        /// (`DecodeLimits.memoryBudget`), and the format cannot be decoded in parts, in bytes.
        case overBudget(width: Int, height: Int, needed: Int, budget: Int)
        /// Decoding would hold more memory while it runs than `DecodeLimits.wholeDecodeAllowance`,
        /// for a format whose library makes the whole picture at once, in bytes.
        case overAllowance(width: Int, height: Int, needed: Int, allowance: Int)
        /// The codec library rejected the data; the payload is its message.
        case corrupt(ImageFormat, String)
        /// Valid data this build cannot decode (a missing codec, an unhandled sample layout).
        case unsupportedVariant(ImageFormat, String)
        /// The format's library, opened on first use, cannot be loaded; the payload says why.
        case libraryMissing(ImageFormat, String)
        /// A page (TIFF directory, HEIF top-level image) past the file's last one.
        case noSuchPage(page: Int, count: Int)
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
        case .notRegularFile(let type): return "not a regular file (\(type))"
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
        case .overBudget(let w, let h, let needed, let budget):
            return "image too large for the memory budget: \(w)×\(h) needs \(Self.bytes(needed)) to decode, "
                + "the budget is \(Self.bytes(budget))"
        case .overAllowance(let w, let h, let needed, let allowance):
            return "image too large to decode within the memory budget: \(w)×\(h) needs \(Self.bytes(needed)) while "
                + "its library decodes it whole, the allowance for that is \(Self.bytes(allowance))"
        case .corrupt(let format, let message): return "corrupt \(format.name) data: \(message)"
        case .unsupportedVariant(let format, let message): return "unsupported \(format.name) file: \(message)"
        case .libraryMissing(let format, let message):
            return "cannot open \(format.name) files: \(message) (Scripts/install-deps.sh installs it)"
        case .noSuchPage(let page, let count):
            return "no page \(page + 1): the file has \(count) page\(count == 1 ? "" : "s")"
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

/// What went wrong in a picture that decoded only in part: the error a strict decode
/// throws, and how much of the picture came out before it.
///
/// The pixels that did decode are kept and the rest are transparent, so a viewer can show
/// them with `description` on a banner ("truncated: 47% of the picture"), as eog and Loupe do.
public struct PictureDamage: Sendable, Equatable, CustomStringConvertible {
    /// The problem, as a strict decode reports it (`.truncated`, `.corrupt`).
    public let error: PictureError
    /// Share of the picture's rows that decoded, 0…1; nil when the library cannot tell
    /// (a corrupt stretch somewhere in data that otherwise decoded to the end).
    public let decodedFraction: Double?

    /// Creates a damage report.
    public init(error: PictureError, decodedFraction: Double?) {
        self.error = error
        self.decodedFraction = decodedFraction.map { min(1, max(0, $0)) }
    }

    /// One line for a banner: "truncated: 47% of the picture", "corrupt GIF data: …; 80% of
    /// the picture", or the reason alone when the share is unknown.
    public var description: String {
        let share = decodedFraction.map { "\(Int(($0 * 100).rounded(.down)))% of the picture" }
        switch (error.kind, share) {
        case (.truncated, let share?): return "truncated: \(share)"
        case (_, let share?): return "\(error.reason); \(share)"
        case (_, nil): return error.reason
        }
    }
}
