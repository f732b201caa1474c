// GIF through giflib's record-by-record API: one frame decoded at a time onto one canvas,
// with the disposal methods applied here (giflib decodes LZW; it does not composite).
import CGIF

/// GIF header reading and decoding of the first frame.
enum GIFCodec {
    private static let library: String? = scrollkit_gif_open().map { String(cString: $0) }

    /// Opens giflib on first use: nil when ready, else why it cannot be used.
    static func openLibrary() -> String? { library }

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
        // A still decode holds a line (at most 65535 indices), or an interlaced first frame's
        // indices on the canvas, at most a byte a pixel.
        if s.firstInterlaced { header.workingBytesPerPixel = 1 } else { header.workingBytes = 1 << 16 }
        return header
    }

    /// The first frame on a transparent canvas, its rows straight into `plan`'s levels: only a
    /// row is held beside them, or for an interlaced frame, whose rows come in four passes, its
    /// palette indices on the canvas (a byte a pixel; see `header`'s working bytes). A frame cut short keeps
    /// its decoded rows (an interlaced one each decoded row repeated over the rows its pass
    /// stands for, as browsers show them while loading), the rest transparent.
    static func decodeLevels(_ data: [UInt8], file: String, header: CodecHeader, plan: LevelPlan, folder: String?,
                             isCancelled: () -> Bool) throws(PictureError) -> (pyramid: PixelPyramid, damage: PictureDamage?) {
        try data.withBytes { (buffer) throws(PictureError) -> (pyramid: PixelPyramid, damage: PictureDamage?) in
            let records = try GIFRecords(buffer, file: file, canvasWidth: header.width)
            let control: GraphicsControlBlock
            switch records.next() {
            case .image(let c): control = c
            case .end: throw PictureError(file: file, kind: .corrupt(.gif, "no image in the file"))
            case .failed(let error): throw error
            }
            guard let builder = LevelBuilder(plan: plan, orientation: .up, folder: folder) else {
                throw PictureError(file: file, kind: .insufficientMemory(width: header.width, height: header.height,
                                                                         needed: plan.memoryBytes, available: SystemMemory.available() ?? 0))
            }
            let frame = records.frame
            let palette = records.palette(control)
            let width = header.width
            // The frame's rows and columns on the canvas.
            let rows = max(0, min(frame.y + frame.height, header.height) - frame.y)
            let (x0, x1) = frame.clipped
            let line = UnsafeMutablePointer<GifPixelType>.allocate(capacity: max(1, frame.width))
            defer { line.deallocate() }
            /// Canvas row `y`, whose on-canvas frame columns start at `indices` (nil: none).
            func take(_ y: Int, _ indices: UnsafePointer<GifPixelType>?) {
                builder.take(.premultiplied, transform: nil) { row in
                    row.update(repeating: 0, count: width)
                    guard let indices else { return }
                    for x in x0..<x1 { row[x] = palette[Int(indices[x - x0])] }
                }
            }
            var damage: PictureDamage?
            if !records.interlaced {
                var n = 0  // the frame's lines read
                for y in 0..<header.height {
                    if y % 64 == 0, isCancelled() { throw PictureError(file: file, kind: .cancelled) }
                    guard y >= frame.y, n < rows, damage == nil else { take(y, nil); continue }
                    if let problem = records.readLine(line, count: frame.width) {
                        damage = PictureDamage(error: problem, decodedFraction: Double(n) / Double(frame.height))
                        take(y, nil)
                        continue
                    }
                    n += 1
                    take(y, line + (x0 - frame.x))
                }
                // Lines past the canvas's bottom are read too: a file cut there is damaged.
                while damage == nil, n < frame.height {
                    if let problem = records.readLine(line, count: frame.width) {
                        damage = PictureDamage(error: problem, decodedFraction: Double(n) / Double(frame.height))
                    }
                    n += 1
                }
            } else {
                // Interlaced frames arrive in four passes of rows (GIF89a Appendix E): the
                // indices on the canvas are kept until the last pass has filled them in.
                let columns = x1 - x0
                let indices = UnsafeMutablePointer<GifPixelType>.allocate(capacity: max(1, columns * rows))
                defer { indices.deallocate() }
                var decoded = [Bool](repeating: false, count: rows)
                var n = 0
                passes: for (start, step) in [(0, 8), (4, 8), (2, 4), (1, 2)] {
                    for y in stride(from: start, to: frame.height, by: step) {
                        if let problem = records.readLine(line, count: frame.width) {
                            damage = PictureDamage(error: problem, decodedFraction: Double(n) / Double(frame.height))
                            break passes
                        }
                        n += 1
                        guard y < rows else { continue }
                        (indices + y * columns).update(from: line + (x0 - frame.x), count: columns)
                        decoded[y] = true
                    }
                }
                var source: Int?
                for y in 0..<header.height {
                    if y % 64 == 0, isCancelled() { throw PictureError(file: file, kind: .cancelled) }
                    let row = y - frame.y
                    guard row >= 0, row < rows else { take(y, nil); continue }
                    if decoded[row] { source = row }
                    take(y, source.map { UnsafePointer(indices + $0 * columns) })
                }
            }
            if let damage, damage.decodedFraction == 0 { throw damage.error }
            return (builder.finish(complete: true), damage)
        }
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

/// giflib over bytes the caller keeps alive, read record by record: each `next()` goes on to the
/// next image descriptor, whose frame's lines `readLine` then gives. Closed with this object.
final class GIFRecords {
    /// What `next()` found.
    enum Record {
        /// An image descriptor, with the graphic control block that came before it.
        case image(GraphicsControlBlock)
        /// The trailer: no frame follows.
        case end
        /// A broken record, or data that ends early.
        case failed(PictureError)
    }

    /// The current frame's place on the canvas: its rectangle (which may reach past the canvas)
    /// and the part of its columns on it.
    struct Frame {
        var x = 0, y = 0, width = 0, height = 0
        var clipped = (x0: 0, x1: 0)
    }

    private let gif: UnsafeMutablePointer<GifFileType>
    private let reader: GIFReader
    private let file: String
    /// The canvas's width, in pixels (the header's: the first frame's extent when the screen
    /// descriptor gives none).
    private let canvasWidth: Int
    /// The current frame (after `next()` gave `.image`).
    private(set) var frame = Frame()
    /// Whether the current frame's rows come in interlaced passes.
    var interlaced: Bool { gif.pointee.Image.Interlace }

    init(_ bytes: UnsafeBufferPointer<UInt8>, file: String, canvasWidth: Int) throws(PictureError) {
        self.file = file
        self.canvasWidth = canvasWidth
        reader = GIFReader(bytes)
        var status: Int32 = 0
        guard let gif = scrollkit_DGifOpen(Unmanaged.passUnretained(reader).toOpaque(), gifRead, &status) else {
            throw Self.failure(status, file: file)
        }
        self.gif = gif
    }

    deinit { scrollkit_DGifCloseFile(gif, nil) }

    /// giflib's error code as a PictureError; running out of data is `.truncated`.
    static func failure(_ code: Int32, file: String) -> PictureError {
        if code == D_GIF_ERR_READ_FAILED || code == D_GIF_ERR_EOF_TOO_SOON {
            return PictureError(file: file, kind: .truncated)
        }
        let message = scrollkit_GifErrorString(code).map { String(cString: $0) } ?? "error \(code)"
        return PictureError(file: file, kind: .corrupt(.gif, message))
    }

    private var failed: Record { .failed(Self.failure(gif.pointee.Error, file: file)) }

    /// Reads on to the next image descriptor (or the trailer), taking the graphic control
    /// extension before it.
    func next() -> Record {
        var control = GraphicsControlBlock(DisposalMode: 0, UserInputFlag: false, DelayTime: 0, TransparentColor: -1)
        while true {
            var type = UNDEFINED_RECORD_TYPE
            guard scrollkit_DGifGetRecordType(gif, &type) == GIF_OK else { return failed }
            switch type {
            case EXTENSION_RECORD_TYPE:
                var code: Int32 = 0
                var block: UnsafeMutablePointer<GifByteType>?
                guard scrollkit_DGifGetExtension(gif, &code, &block) == GIF_OK else { return failed }
                var first = true
                while let b = block {
                    if code == GRAPHICS_EXT_FUNC_CODE, first {
                        _ = scrollkit_DGifExtensionToGCB(Int(b[0]), b + 1, &control)
                    }
                    first = false
                    guard scrollkit_DGifGetExtensionNext(gif, &block) == GIF_OK else { return failed }
                }
            case IMAGE_DESC_RECORD_TYPE:
                guard scrollkit_DGifGetImageHeader(gif) == GIF_OK else { return failed }
                let desc = gif.pointee.Image
                frame = Frame(x: Int(desc.Left), y: Int(desc.Top), width: Int(desc.Width), height: Int(desc.Height))
                // The part of the frame on the canvas; frames may reach past it (browsers clip).
                frame.clipped = (min(max(frame.x, 0), canvasWidth), min(max(frame.x + frame.width, 0), canvasWidth))
                return .image(control)
            case TERMINATE_RECORD_TYPE:
                return .end
            default:
                return .failed(Self.failure(D_GIF_ERR_WRONG_RECORD, file: file))
            }
        }
    }

    /// The current frame's palette as opaque ARGB, with its transparent index (if `control`
    /// gives one) 0; indices past the colour table's end show black.
    func palette(_ control: GraphicsControlBlock) -> [UInt32] {
        let map = gif.pointee.Image.ColorMap ?? gif.pointee.SColorMap
        var palette = [UInt32](repeating: 0xFF00_0000, count: 256)
        if let map, let colors = map.pointee.Colors {
            for i in 0..<min(256, Int(map.pointee.ColorCount)) {
                let c = colors[i]
                palette[i] = 0xFF00_0000 | UInt32(c.Red) << 16 | UInt32(c.Green) << 8 | UInt32(c.Blue)
            }
        }
        let transparent = Int(control.TransparentColor)
        if transparent >= 0 && transparent < 256 { palette[transparent] = 0 }
        return palette
    }

    /// The current frame's next line of `count` indices into `line`; the problem when the data
    /// stopped or broke.
    func readLine(_ line: UnsafeMutablePointer<GifPixelType>, count: Int) -> PictureError? {
        scrollkit_DGifGetLine(gif, line, Int32(count)) == GIF_OK ? nil : Self.failure(gif.pointee.Error, file: file)
    }
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
    private var records: GIFRecords?
    private let canvas: ARGBPixels
    /// How the last frame wants its area treated before the next one is drawn.
    private var pendingDisposal: (mode: Int, rect: (x: Int, y: Int, w: Int, h: Int), saved: [UInt32]?)?
    private var finished = false

    init(data: [UInt8], file: String, width: Int, height: Int) throws(PictureError) {
        self.file = file
        self.width = width
        self.height = height
        let structure = GIFCodec.structure(data)
        frameCount = max(1, structure.frames)
        loopCount = structure.loopCount
        bytes = .allocate(capacity: max(1, data.count))
        _ = bytes.initialize(from: data)
        canvas = try ARGBPixels.make(width: width, height: height, file: file)
        // Every property is set: if this throws, deinit runs and frees `bytes`.
        records = try GIFRecords(UnsafeBufferPointer(start: bytes.baseAddress, count: data.count), file: file, canvasWidth: width)
    }

    deinit {
        records = nil
        bytes.deallocate()
    }

    func reset() {
        records = nil
        canvas.clearRows(from: 0)
        pendingDisposal = nil
        finished = false
        damage = nil
        records = try? GIFRecords(UnsafeBufferPointer(start: bytes.baseAddress, count: bytes.count), file: file, canvasWidth: width)
    }

    /// The next frame, or nil after the last.
    func next() throws(PictureError) -> (pixels: ARGBPixels, delayMs: Int)? {
        guard !finished, let records else { return nil }
        switch records.next() {
        case .image(let control):
            disposePrevious()
            let delay = Int(control.DelayTime) * 10  // centiseconds
            if !drawFrame(records, control: control) { finished = true }
            let out = ARGBPixels.small(width: width, height: height, zeroed: false)
            out.rawBytes.update(from: canvas.rawBytes, count: canvas.byteCount)
            return (out, delay)
        case .end:
            finished = true
            return nil
        case .failed(let error):
            // A broken record between frames: the frames so far stand, nothing follows.
            finished = true
            if damage == nil { damage = PictureDamage(error: error, decodedFraction: nil) }
            return nil
        }
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
    private func drawFrame(_ records: GIFRecords, control: GraphicsControlBlock) -> Bool {
        let frame = records.frame
        let (fw, fh, fx, fy) = (frame.width, frame.height, frame.x, frame.y)
        // The part of the frame on the canvas.
        let x0 = frame.clipped.x0, x1 = frame.clipped.x1
        let y0 = min(max(fy, 0), height), y1 = min(max(fy + fh, 0), height)
        let rect = (x: x0, y: y0, w: x1 - x0, h: y1 - y0)
        var saved: [UInt32]?
        if control.DisposalMode == DISPOSE_PREVIOUS, rect.w > 0, rect.h > 0 {
            var copy = [UInt32](repeating: 0, count: rect.w * rect.h)
            for y in 0..<rect.h { for x in 0..<rect.w { copy[y * rect.w + x] = canvas.base[(rect.y + y) * width + rect.x + x] } }
            saved = copy
        }
        pendingDisposal = (Int(control.DisposalMode), rect, saved)
        let palette = records.palette(control)

        // Interlaced frames arrive in four passes of rows (GIF89a Appendix E).
        var order: [Int] = []
        if records.interlaced {
            for (start, step) in [(0, 8), (4, 8), (2, 4), (1, 2)] { order += Array(stride(from: start, to: fh, by: step)) }
        } else {
            order = Array(0..<fh)
        }
        let line = UnsafeMutablePointer<GifPixelType>.allocate(capacity: max(1, fw))
        defer { line.deallocate() }
        var decodedRows = Set<Int>()
        for (n, y) in order.enumerated() {
            if let problem = records.readLine(line, count: fw) {
                if records.interlaced { fillInterlaceGaps(decoded: decodedRows, frameTop: fy, frameHeight: fh, rect: rect) }
                damage = PictureDamage(error: problem, decodedFraction: Double(n) / Double(max(1, fh)))
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
