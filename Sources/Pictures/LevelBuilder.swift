// Builds a picture's levels from its rows as a decoder delivers them, top to bottom, halving
// with pixman: only two rows of each level are ever held beyond the levels kept.
import CPixman
#if canImport(Glibc)
import Glibc
#endif

/// Takes a picture's full-size rows one at a time and keeps the levels a `LevelPlan` asks for.
///
/// Each level holds a pair of rows; when a pair is complete pixman's bilinear filter sampled
/// midway between the four pixels (a 2×2 average, exactly) makes the next level's row. The
/// pixel work is pixman's (SIMD C), so building the levels of 268 megapixels costs about as
/// much as decoding them, in debug builds too; Swift only moves whole rows.
final class LevelBuilder {
    /// 16384 pixels: pixman works on images whose extents fit 16-bit coordinates (it skips a
    /// composite that reaches 32768, analyze_extent in pixman.c), so rows are handled in
    /// pieces this wide. Even, so a halved piece starts where its source piece's half does.
    static let piece = 16384

    /// `count` pixels from `start` as pixman images of at most `piece` pixels, each `rows` high
    /// over rows `stride` pixels apart.
    private static func pieces(_ format: pixman_format_code_t, _ start: UnsafeMutablePointer<UInt32>, count: Int,
                               rows: Int, stride rowPixels: Int) -> [OpaquePointer]? {
        var images: [OpaquePointer] = []
        for x in stride(from: 0, to: count, by: piece) {
            guard let image = pixman_image_create_bits(format, Int32(min(piece, count - x)), Int32(rows), start + x,
                                                       Int32(rowPixels * 4)) else {
                images.forEach { pixman_image_unref($0) }
                return nil
            }
            images.append(image)
        }
        return images
    }

    private final class Level {
        let width: Int
        let height: Int
        var place: LevelPlace
        /// Two rows: the pair being filled.
        let pair: UnsafeMutablePointer<UInt32>
        /// The pair in pieces as pixman images, which as sources halve (transform and filter
        /// below); as destinations those are ignored.
        let pieces: [OpaquePointer]
        var memory: ARGBPixels?
        var fileOffset = 0
        var rows = 0

        init?(width: Int, height: Int, place: LevelPlace) {
            self.width = width
            self.height = height
            self.place = place
            pair = .allocate(capacity: 2 * width)
            pair.initialize(repeating: 0, count: 2 * width)
            guard let pieces = LevelBuilder.pieces(PIXMAN_a8r8g8b8, pair, count: width, rows: 2, stride: width) else {
                pair.deallocate()
                return nil
            }
            self.pieces = pieces
            var halving = pixman_transform()
            pixman_transform_init_scale(&halving, pixman_fixed_t(2 << 16), pixman_fixed_t(2 << 16))
            for image in pieces {
                pixman_image_set_transform(image, &halving)
                pixman_image_set_filter(image, PIXMAN_FILTER_BILINEAR, nil, 0)
                pixman_image_set_repeat(image, PIXMAN_REPEAT_PAD)
            }
        }

        deinit {
            pieces.forEach { pixman_image_unref($0) }
            pair.deallocate()
        }

        /// The row being filled.
        var slot: UnsafeMutablePointer<UInt32> { pair + (rows & 1) * width }
    }

    private let levels: [Level]
    private let file: LevelFile?
    private let orientation: Orientation
    /// The straight-alpha row a decoder writes when its rows need premultiplying, as pixman
    /// images in pieces: its colour (alpha ignored) and its alpha.
    private var straight: (row: UnsafeMutablePointer<UInt32>, color: [OpaquePointer], alpha: [OpaquePointer])?

    /// A builder for `plan`, whose memory levels are allocated now (the caller checked them
    /// against the budget) and whose file levels go to a new file in `folder`. Levels meant
    /// for a file that cannot be made are not kept. Nil when memory is refused.
    init?(plan: LevelPlan, orientation: Orientation, folder: String?, adopting full: ARGBPixels? = nil) {
        self.orientation = orientation
        // Levels past the last one kept are never made.
        let count = (plan.places.lastIndex { $0 != .none } ?? 0) + 1
        let fileBytes = plan.fileBytes
        file = fileBytes > 0 ? folder.flatMap { LevelFile(folder: $0, bytes: fileBytes) } : nil
        var levels: [Level] = []
        var offset = 0
        for k in 0..<count {
            var place = plan.places[k]
            if place == .file && file == nil { place = .none }
            guard let level = Level(width: plan.widths[k], height: plan.heights[k], place: place) else { return nil }
            if place == .memory {
                if k == 0, let full {
                    level.memory = full
                } else {
                    guard let pixels = ARGBPixels(width: level.width, height: level.height) else { return nil }
                    level.memory = pixels
                }
            }
            if place == .file {
                level.fileOffset = offset
                offset += plan.bytes(k)
            }
            levels.append(level)
        }
        self.levels = levels
        adopted = full != nil && plan.places[0] == .memory
    }

    /// Whether level 0's memory is the caller's picture, already filled.
    private let adopted: Bool

    deinit {
        if let straight {
            (straight.color + straight.alpha).forEach { pixman_image_unref($0) }
            straight.row.deallocate()
        }
    }

    /// Where the decoder writes the next full-size row: premultiplied ARGB (opaque rows are).
    var nextRow: UnsafeMutablePointer<UInt32> { levels[0].slot }

    /// Where the decoder writes the next row when it is straight alpha; `commitStraightRow`
    /// premultiplies it into place.
    var nextStraightRow: UnsafeMutablePointer<UInt32> {
        if let straight { return straight.row }
        let width = levels[0].width
        let row = UnsafeMutablePointer<UInt32>.allocate(capacity: width)
        row.initialize(repeating: 0, count: width)
        // Images over the same row: as x8r8g8b8 its colour with alpha 1, as a8r8g8b8 the mask
        // that multiplies it (pixman rounds c·a/255 to nearest, as ARGBPixels.premultiply does).
        // Only a small allocation can fail here, which means no memory at all.
        let color = Self.pieces(PIXMAN_x8r8g8b8, row, count: width, rows: 1, stride: width)!
        let alpha = Self.pieces(PIXMAN_a8r8g8b8, row, count: width, rows: 1, stride: width)!
        straight = (row, color, alpha)
        return row
    }

    /// Rows of the full picture taken so far.
    var rowsTaken: Int { levels[0].rows }

    /// The row at `nextRow` is complete.
    func commitRow() { commit(0) }

    /// The row at `nextStraightRow` is complete: premultiplied into `nextRow`, then taken.
    func commitStraightRow() {
        guard let straight else { preconditionFailure("commitStraightRow before nextStraightRow") }
        let level = levels[0]
        for (i, target) in level.pieces.enumerated() {
            pixman_image_composite32(PIXMAN_OP_SRC, straight.color[i], straight.alpha[i], target, 0, 0, 0, 0,
                                     0, Int32(level.rows & 1), Int32(min(Self.piece, level.width - i * Self.piece)), 1)
        }
        commit(0)
    }

    /// How a decoder's rows hold alpha.
    enum RowAlpha {
        /// Every pixel opaque, or already premultiplied and within its alpha.
        case premultiplied
        /// Straight (unassociated) alpha: premultiplied as the row is taken.
        case straight
        /// Premultiplied by a library that may leave colours above alpha (a file's
        /// associated alpha): clamped to it as the row is taken.
        case clamped

        /// A library's rows: opaque without alpha, else clamped when the file's alpha is
        /// associated (premultiplied), straight otherwise.
        init(hasAlpha: Bool, premultiplied: Bool) {
            self = !hasAlpha ? .premultiplied : premultiplied ? .clamped : .straight
        }
    }

    /// Takes the next full-size row, which `fill` writes (B, G, R, A; alpha as `alpha` says)
    /// and `transform` then converts to sRGB.
    func take(_ alpha: RowAlpha, transform: ColorTransform?, _ fill: (UnsafeMutablePointer<UInt32>) -> Void) {
        let row = alpha == .straight ? nextStraightRow : nextRow
        fill(row)
        transform?.apply(row: UnsafeMutableRawPointer(row).assumingMemoryBound(to: UInt8.self), count: levels[0].width)
        switch alpha {
        case .straight: commitStraightRow()
        case .clamped: ARGBPixels.clampToAlpha(row, count: levels[0].width); commitRow()
        case .premultiplied: commitRow()
        }
    }

    /// Takes `count` transparent rows: the part of a damaged picture that did not decode.
    func takeTransparentRows(_ count: Int) {
        for _ in 0..<count {
            nextRow.update(repeating: 0, count: levels[0].width)
            commitRow()
        }
    }

    /// Takes every row of `pixels` (the full picture, premultiplied).
    func commitRows(of pixels: ARGBPixels) {
        for y in 0..<pixels.height {
            memcpy(nextRow, pixels.base + y * pixels.width, pixels.width * 4)
            commit(0)
        }
    }

    /// Copies `count` pixels from `source` to `target` with red and blue swapped (R, G, B, A
    /// bytes, as libtiff delivers them, to B, G, R, A), by pixman: a conversion between its
    /// a8b8g8r8 and a8r8g8b8 formats.
    static func copySwappingRedBlue(_ source: UnsafeMutablePointer<UInt32>, to target: UnsafeMutablePointer<UInt32>, count: Int) {
        convert(source, PIXMAN_a8b8g8r8, bytesPerPixel: 4, to: target, count: count)
    }

    /// Converts `count` pixels of R, G, B, A floats (nominal range 0…1, as libjxl hands them
    /// out) at `source` to B, G, R, A bytes at `target`, by pixman: each value clamped and
    /// rounded to the nearest of 0…255.
    static func convertFloats(_ source: UnsafeRawPointer, to target: UnsafeMutablePointer<UInt32>, count: Int) {
        convert(UnsafeMutableRawPointer(mutating: source).assumingMemoryBound(to: UInt32.self), PIXMAN_rgba_float,
                bytesPerPixel: 16, to: target, count: count)
    }

    /// Converts `count` pixels of `format` at `source` to a8r8g8b8 at `target`, in pieces that
    /// pixman's coordinates reach.
    private static func convert(_ source: UnsafeMutablePointer<UInt32>, _ format: pixman_format_code_t, bytesPerPixel: Int,
                                to target: UnsafeMutablePointer<UInt32>, count: Int) {
        for x in stride(from: 0, to: count, by: piece) {
            let n = min(piece, count - x)
            let from = UnsafeMutableRawPointer(source) + x * bytesPerPixel
            guard let image = pixman_image_create_bits(format, Int32(n), 1, from.assumingMemoryBound(to: UInt32.self),
                                                       Int32(n * bytesPerPixel)),
                  let to = pixman_image_create_bits(PIXMAN_a8r8g8b8, Int32(n), 1, target + x, Int32(n * 4)) else { return }
            pixman_image_composite32(PIXMAN_OP_SRC, image, nil, to, 0, 0, 0, 0, 0, 0, Int32(n), 1)
            pixman_image_unref(image)
            pixman_image_unref(to)
        }
    }

    private func commit(_ k: Int) {
        let level = levels[k]
        let row = level.slot, y = level.rows
        switch level.place {
        case .memory:
            if !(k == 0 && adopted), let memory = level.memory { memcpy(memory.base + y * level.width, row, level.width * 4) }
        case .file:
            // A full disk loses the level, not the picture: it is drawn from coarser ones.
            if file?.write(row, count: level.width * 4, at: level.fileOffset + y * level.width * 4) != true {
                level.place = .none
            }
        case .none:
            break
        }
        level.rows += 1
        if level.rows & 1 == 0, k + 1 < levels.count { halve(k) }
    }

    /// The next level's row from level `k`'s pair, piece by piece: source piece i (pixels
    /// from i·piece) halves into the target's pixels from i·piece/2, which lie in its piece
    /// i/2. A piece's pixels pair up within it (it starts at an even pixel), so no halving
    /// reaches across pieces; the last piece pads an odd width with its own last pixel.
    private func halve(_ k: Int) {
        let source = levels[k], target = levels[k + 1]
        for (i, piece) in source.pieces.enumerated() {
            let from = i * Self.piece
            let count = (min(Self.piece, source.width - from) + 1) / 2
            pixman_image_composite32(PIXMAN_OP_SRC, piece, nil, target.pieces[i / 2], 0, 0, 0, 0,
                                     Int32(from / 2 - (i / 2) * Self.piece), Int32(target.rows & 1), Int32(count), 1)
        }
        commit(k + 1)
    }

    /// The levels, once every row is in (`complete`), or after the decoder stopped early: the
    /// rows not taken stay transparent, in every level.
    func finish(complete: Bool) -> PixelPyramid {
        for k in 0..<(levels.count - 1) where levels[k].rows & 1 == 1 {
            // A last row without a partner: alone it stands for itself (a picture of odd
            // height), paired with transparency where rows are missing.
            let level = levels[k]
            let partner = level.pair + level.width
            if complete {
                memcpy(partner, level.pair, level.width * 4)
            } else {
                memset(partner, 0, level.width * 4)
            }
            level.rows += 1
            halve(k)
        }
        let kept: [LevelPixels?] = levels.map { level in
            switch level.place {
            case .memory: return level.memory.map { .memory($0) }
            case .file: return file.map { .file($0, offset: level.fileOffset, width: level.width, height: level.height) }
            case .none: return nil
            }
        }
        return PixelPyramid(levels: kept, orientation: orientation)
    }
}
