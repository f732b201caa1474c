// GIF through giflib's record-by-record API: one frame decoded at a time onto one canvas,
// with the disposal methods applied here (giflib decodes LZW; it does not composite).
import CGIF

/// GIF header reading and decoding of the first frame.
enum GIFCodec {
    /// What a walk over the block structure finds, without decoding any LZW data.
    struct Structure {
        var width = 0
        var height = 0
        /// Complete image descriptors with their data (a cut last frame is not counted).
        var frames = 0
        /// A frame has a transparent colour or does not cover the whole canvas.
        var hasTransparency = false
        var firstInterlaced = false
        /// The walk reached the trailer (0x3B); false for a file cut short.
        var complete = false
        /// Plays the file asks for: 0 forever; 1, played once, without the NETSCAPE2.0 (or
        /// ANIMEXTS1.0) block.
        var loopCount = 1
    }

    /// Walks the blocks (GIF89a specification §17–27) with every read bounds-checked.
    static func structure(_ b: [UInt8]) -> Structure {
        var s = Structure()
        guard b.count >= 13 else { return s }
        s.width = Int(b[6]) | Int(b[7]) << 8
        s.height = Int(b[8]) | Int(b[9]) << 8
        var pos = 13
        if b[10] & 0x80 != 0 { pos += 3 << ((Int(b[10]) & 7) + 1) }  // global colour table
        /// Skips data sub-blocks from `pos`; false when the data ends first.
        func skipSubBlocks() -> Bool {
            while pos < b.count {
                let size = Int(b[pos])
                pos += 1 + size
                if size == 0 { return pos <= b.count }
            }
            return false
        }
        while pos < b.count {
            switch b[pos] {
            case 0x21:  // extension: label, then sub-blocks
                guard pos + 1 < b.count else { return s }
                // A graphic control extension's packed byte: bit 0 is "transparent colour given".
                if b[pos + 1] == 0xF9, pos + 3 < b.count, b[pos + 3] & 1 != 0 { s.hasTransparency = true }
                // Application extension: an 11-byte identifier block, then [3, 1, count LE16].
                if b[pos + 1] == 0xFF, pos + 18 <= b.count, b[pos + 2] == 11,
                   ["NETSCAPE2.0", "ANIMEXTS1.0"].contains(where: { b[(pos + 3)..<(pos + 14)].elementsEqual($0.utf8) }),
                   b[pos + 14] >= 3, b[pos + 15] == 1 {
                    // The block counts repetitions after the first play, 0 meaning forever: browsers
                    // play a file saying 1 twice (Chromium bug 592735, Mozilla bug 1255497).
                    let repetitions = Int(b[pos + 16]) | Int(b[pos + 17]) << 8
                    s.loopCount = repetitions == 0 ? 0 : repetitions + 1
                }
                pos += 2
                guard skipSubBlocks() else { return s }
            case 0x2C:  // image descriptor: left, top, width, height (LE16), packed
                guard pos + 10 <= b.count else { return s }
                let left = Int(b[pos + 1]) | Int(b[pos + 2]) << 8, top = Int(b[pos + 3]) | Int(b[pos + 4]) << 8
                let w = Int(b[pos + 5]) | Int(b[pos + 6]) << 8, h = Int(b[pos + 7]) | Int(b[pos + 8]) << 8
                let packed = b[pos + 9]
                if s.frames == 0 {
                    s.firstInterlaced = packed & 0x40 != 0
                    if s.width == 0 || s.height == 0 { s.width = left + w; s.height = top + h }
                }
                if left > 0 || top > 0 || left + w < s.width || top + h < s.height { s.hasTransparency = true }
                pos += 10
                if packed & 0x80 != 0 { pos += 3 << ((Int(packed) & 7) + 1) }  // local colour table
                pos += 1  // LZW minimum code size
                guard pos <= b.count, skipSubBlocks() else { return s }
                s.frames += 1
            case 0x3B:
                s.complete = true
                return s
            default:
                return s  // not a block: what follows is garbage, decoders stop here too
            }
        }
        return s
    }

    static func header(_ data: [UInt8], file: String) throws(PictureError) -> CodecHeader {
        let s = structure(data)
        guard data.count >= 13 else { throw PictureError(file: file, kind: .truncated) }
        if s.frames == 0 {
            // Nothing complete: a file cut inside its first frame still shows that frame's
            // decoded rows, so only a file without any image descriptor is refused here.
            guard data.contains(0x2C) else {
                throw PictureError(file: file, kind: s.complete ? .corrupt(.gif, "no image in the file") : .truncated)
            }
        }
        var header = CodecHeader(width: s.width, height: s.height, hasAlpha: s.hasTransparency || !s.complete)
        header.isProgressive = s.firstInterlaced
        header.frameCount = max(1, s.frames)
        return header
    }

    /// The first frame on a transparent canvas.
    static func decode(_ data: [UInt8], file: String, header: CodecHeader) throws(PictureError) -> CodecOutput {
        let animation = try GIFAnimation(data: data, file: file, width: header.width, height: header.height)
        guard let first = try animation.next(handingOverCanvas: true) else {
            throw animation.damage?.error ?? PictureError(file: file, kind: .corrupt(.gif, "no image in the file"))
        }
        if let damage = animation.damage, damage.decodedFraction == 0 { throw damage.error }
        // Opaque colours and fully transparent pixels: premultiplied as they stand.
        return CodecOutput(pixels: first.pixels, premultiplied: true, color: nil, damage: animation.damage)
    }
}

/// Feeds giflib from memory through its InputFunc hook.
private final class GIFReader {
    let bytes: UnsafeBufferPointer<UInt8>
    var position = 0
    init(_ bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }
}

/// giflib's read callback: copies up to `count` bytes; fewer at the end of the data, which
/// giflib reports as a read error (D_GIF_ERR_READ_FAILED).
private let gifRead: InputFunc = { gif, out, count in
    guard let gif, let out, let user = gif.pointee.UserData else { return 0 }
    let reader = Unmanaged<GIFReader>.fromOpaque(user).takeUnretainedValue()
    let n = max(0, min(Int(count), reader.bytes.count - reader.position))
    if n > 0 { out.update(from: reader.bytes.baseAddress! + reader.position, count: n) }
    reader.position += n
    return Int32(n)
}

/// A GIF played frame by frame: each `next()` decodes one frame with giflib and draws it on
/// the canvas left by the previous one, after that one's disposal. Memory: the canvas, one
/// frame's row, and a saved copy of a frame's area when it asks to be restored afterwards.
final class GIFAnimation: AnimationSource {
    let width: Int
    let height: Int
    let frameCount: Int
    /// Plays: 0 forever; 1 when the NETSCAPE2.0 block is absent; its repetitions + 1 otherwise.
    let loopCount: Int
    let color: ColorDescription? = nil
    /// Set when a frame stopped part-way (cut or corrupt data); no frame follows it.
    private(set) var damage: PictureDamage?

    private let file: String
    private let bytes: UnsafeMutableBufferPointer<UInt8>
    private var reader: GIFReader
    private var gif: UnsafeMutablePointer<GifFileType>?
    private let canvas: ARGBPixels
    /// How the last frame wants its area treated before the next one is drawn.
    private var pendingDisposal: (mode: Int, rect: (x: Int, y: Int, w: Int, h: Int), saved: [UInt32]?)?
    private var finished = false
    /// Whether `next(handingOverCanvas:)` gave the canvas away: nothing may draw on it again.
    private var canvasGiven = false

    init(data: [UInt8], file: String, width: Int, height: Int) throws(PictureError) {
        self.file = file
        self.width = width
        self.height = height
        let structure = GIFCodec.structure(data)
        frameCount = max(1, structure.frames)
        loopCount = structure.loopCount
        bytes = .allocate(capacity: max(1, data.count))
        _ = bytes.initialize(from: data)
        reader = GIFReader(UnsafeBufferPointer(start: bytes.baseAddress, count: data.count))
        canvas = try ARGBPixels.make(width: width, height: height, file: file)
        // Every property is set: if this throws, deinit runs and frees `bytes`.
        try open()
    }

    deinit {
        if let gif { DGifCloseFile(gif, nil) }
        bytes.deallocate()
    }

    private func open() throws(PictureError) {
        reader.position = 0
        var status: Int32 = 0
        guard let gif = DGifOpen(Unmanaged.passUnretained(reader).toOpaque(), gifRead, &status) else {
            throw failure(status)
        }
        self.gif = gif
    }

    /// giflib's error code as a PictureError; running out of data is `.truncated`.
    private func failure(_ code: Int32) -> PictureError {
        if code == D_GIF_ERR_READ_FAILED || code == D_GIF_ERR_EOF_TOO_SOON {
            return PictureError(file: file, kind: .truncated)
        }
        let message = GifErrorString(code).map { String(cString: $0) } ?? "error \(code)"
        return PictureError(file: file, kind: .corrupt(.gif, message))
    }

    func reset() {
        guard !canvasGiven else { return }
        if let gif { DGifCloseFile(gif, nil) }
        gif = nil
        reader = GIFReader(reader.bytes)
        canvas.clearRows(from: 0)
        pendingDisposal = nil
        finished = false
        damage = nil
        try? open()
    }

    func next() throws(PictureError) -> (pixels: ARGBPixels, delayMs: Int)? {
        try next(handingOverCanvas: false)
    }

    /// The next frame, or nil after the last. `handingOverCanvas`: the frame is the canvas
    /// itself rather than a copy, for a still decode that wants no further frame (the whole
    /// picture once instead of twice); the animation ends there for good.
    func next(handingOverCanvas: Bool) throws(PictureError) -> (pixels: ARGBPixels, delayMs: Int)? {
        guard !finished, !canvasGiven, let gif else { return nil }
        var control = GraphicsControlBlock(DisposalMode: 0, UserInputFlag: false, DelayTime: 0, TransparentColor: -1)
        while true {
            var type = UNDEFINED_RECORD_TYPE
            guard DGifGetRecordType(gif, &type) == GIF_OK else { return endEarly(gif.pointee.Error) }
            switch type {
            case EXTENSION_RECORD_TYPE:
                var code: Int32 = 0
                var block: UnsafeMutablePointer<GifByteType>?
                guard DGifGetExtension(gif, &code, &block) == GIF_OK else { return endEarly(gif.pointee.Error) }
                var first = true
                while let b = block {
                    if code == GRAPHICS_EXT_FUNC_CODE, first {
                        _ = DGifExtensionToGCB(Int(b[0]), b + 1, &control)
                    }
                    first = false
                    guard DGifGetExtensionNext(gif, &block) == GIF_OK else { return endEarly(gif.pointee.Error) }
                }
            case IMAGE_DESC_RECORD_TYPE:
                guard DGifGetImageHeader(gif) == GIF_OK else { return endEarly(gif.pointee.Error) }
                disposePrevious()
                let delay = Int(control.DelayTime) * 10  // centiseconds
                let complete = drawFrame(gif, control: control)
                if !complete { finished = true }
                if handingOverCanvas {
                    canvasGiven = true
                    return (canvas, delay)
                }
                let out = ARGBPixels.small(width: width, height: height, zeroed: false)
                out.rawBytes.update(from: canvas.rawBytes, count: canvas.byteCount)
                return (out, delay)
            case TERMINATE_RECORD_TYPE:
                finished = true
                return nil
            default:
                return endEarly(D_GIF_ERR_WRONG_RECORD)
            }
        }
    }

    /// Stops at a broken record between frames: the frames so far stand, nothing follows.
    private func endEarly(_ code: Int32) -> (pixels: ARGBPixels, delayMs: Int)? {
        finished = true
        if damage == nil { damage = PictureDamage(error: failure(code), decodedFraction: nil) }
        return nil
    }

    /// Applies the previous frame's disposal (GIF89a §23): 2 clears its area to transparent
    /// (as browsers do, rather than to the background colour), 3 restores what was there.
    private func disposePrevious() {
        guard let d = pendingDisposal else { return }
        pendingDisposal = nil
        let r = d.rect
        for y in r.y..<(r.y + r.h) {
            let row = canvas.base + y * width + r.x
            switch Int32(d.mode) {
            case DISPOSE_BACKGROUND: row.update(repeating: 0, count: r.w)
            case DISPOSE_PREVIOUS:
                if let saved = d.saved { saved.withUnsafeBufferPointer { row.update(from: $0.baseAddress! + (y - r.y) * r.w, count: r.w) } }
            default: break
            }
        }
    }

    /// Decodes the current frame's rows onto the canvas; false when the data stopped
    /// part-way (the rows that decoded are drawn and `damage` says how much).
    private func drawFrame(_ gif: UnsafeMutablePointer<GifFileType>, control: GraphicsControlBlock) -> Bool {
        let desc = gif.pointee.Image
        let fw = Int(desc.Width), fh = Int(desc.Height), fx = Int(desc.Left), fy = Int(desc.Top)
        // The part of the frame on the canvas; frames may reach past it (browsers clip).
        let x0 = min(max(fx, 0), width), y0 = min(max(fy, 0), height)
        let x1 = min(max(fx + fw, 0), width), y1 = min(max(fy + fh, 0), height)
        let rect = (x: x0, y: y0, w: x1 - x0, h: y1 - y0)
        var saved: [UInt32]?
        if control.DisposalMode == DISPOSE_PREVIOUS, rect.w > 0, rect.h > 0 {
            var copy = [UInt32](repeating: 0, count: rect.w * rect.h)
            for y in 0..<rect.h { for x in 0..<rect.w { copy[y * rect.w + x] = canvas.base[(rect.y + y) * width + rect.x + x] } }
            saved = copy
        }
        pendingDisposal = (Int(control.DisposalMode), rect, saved)

        // The frame's palette as opaque ARGB; indices past its end show black.
        let map = desc.ColorMap ?? gif.pointee.SColorMap
        var palette = [UInt32](repeating: 0xFF00_0000, count: 256)
        if let map, let colors = map.pointee.Colors {
            for i in 0..<min(256, Int(map.pointee.ColorCount)) {
                let c = colors[i]
                palette[i] = 0xFF00_0000 | UInt32(c.Red) << 16 | UInt32(c.Green) << 8 | UInt32(c.Blue)
            }
        }
        let transparent = Int(control.TransparentColor)
        if transparent >= 0 && transparent < 256 { palette[transparent] = 0 }

        // Interlaced frames arrive in four passes of rows (GIF89a Appendix E).
        var order: [Int] = []
        if desc.Interlace {
            for (start, step) in [(0, 8), (4, 8), (2, 4), (1, 2)] { order += Array(stride(from: start, to: fh, by: step)) }
        } else {
            order = Array(0..<fh)
        }
        let line = UnsafeMutablePointer<GifPixelType>.allocate(capacity: max(1, fw))
        defer { line.deallocate() }
        var decodedRows = Set<Int>()
        for (n, y) in order.enumerated() {
            guard DGifGetLine(gif, line, Int32(fw)) == GIF_OK else {
                if desc.Interlace { fillInterlaceGaps(decoded: decodedRows, frameTop: fy, frameHeight: fh, rect: rect) }
                damage = PictureDamage(error: failure(gif.pointee.Error), decodedFraction: Double(n) / Double(max(1, fh)))
                return false
            }
            let cy = fy + y
            guard cy >= y0, cy < y1 else { continue }
            decodedRows.insert(y)
            let row = canvas.base + cy * width
            for cx in x0..<x1 {
                let p = palette[Int(line[cx - fx])]
                if p != 0 { row[cx] = p }  // 0 only for the transparent index: the canvas shows
            }
        }
        return true
    }

    /// For a cut interlaced frame, repeats each decoded row down over the rows its pass
    /// stands for (as browsers show interlaced GIFs while loading), instead of stripes.
    private func fillInterlaceGaps(decoded: Set<Int>, frameTop: Int, frameHeight: Int, rect: (x: Int, y: Int, w: Int, h: Int)) {
        var source: Int?
        for y in 0..<frameHeight {
            let cy = frameTop + y
            guard cy >= rect.y, cy < rect.y + rect.h else { continue }
            if decoded.contains(y) { source = cy; continue }
            guard let s = source else { continue }
            (canvas.base + cy * width + rect.x).update(from: canvas.base + s * width + rect.x, count: rect.w)
        }
    }
}
