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
    private final class Level {
        let width: Int
        let height: Int
        var place: LevelPlace
        /// Two rows: the pair being filled.
        let pair: UnsafeMutablePointer<UInt32>
        /// The pair as a pixman image, which as a source halves (transform and filter below).
        let image: OpaquePointer
        var memory: ARGBPixels?
        var fileOffset = 0
        var rows = 0

        init?(width: Int, height: Int, place: LevelPlace) {
            self.width = width
            self.height = height
            self.place = place
            pair = .allocate(capacity: 2 * width)
            pair.initialize(repeating: 0, count: 2 * width)
            guard let image = pixman_image_create_bits(PIXMAN_a8r8g8b8, Int32(width), 2, pair, Int32(width * 4)) else {
                pair.deallocate()
                return nil
            }
            self.image = image
            var halving = pixman_transform()
            pixman_transform_init_scale(&halving, pixman_fixed_t(2 << 16), pixman_fixed_t(2 << 16))
            pixman_image_set_transform(image, &halving)
            pixman_image_set_filter(image, PIXMAN_FILTER_BILINEAR, nil, 0)
            pixman_image_set_repeat(image, PIXMAN_REPEAT_PAD)
        }

        deinit {
            pixman_image_unref(image)
            pair.deallocate()
        }

        /// The row being filled.
        var slot: UnsafeMutablePointer<UInt32> { pair + (rows & 1) * width }
    }

    private let levels: [Level]
    private let file: LevelFile?
    private let orientation: Orientation
    /// The straight-alpha row a decoder writes when its rows need premultiplying, as pixman
    /// images: its colour (alpha ignored) and its alpha.
    private var straight: (row: UnsafeMutablePointer<UInt32>, color: OpaquePointer, alpha: OpaquePointer)?

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
            pixman_image_unref(straight.color)
            pixman_image_unref(straight.alpha)
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
        // Width × 1 images over the same row: as x8r8g8b8 its colour with alpha 1, as
        // a8r8g8b8 the mask that multiplies it (pixman rounds c·a/255 to nearest, as
        // ARGBPixels.premultiply does).
        let color = pixman_image_create_bits(PIXMAN_x8r8g8b8, Int32(width), 1, row, Int32(width * 4))!
        let alpha = pixman_image_create_bits(PIXMAN_a8r8g8b8, Int32(width), 1, row, Int32(width * 4))!
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
        pixman_image_composite32(PIXMAN_OP_SRC, straight.color, straight.alpha, level.image, 0, 0, 0, 0,
                                 0, Int32(level.rows & 1), Int32(level.width), 1)
        commit(0)
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
        guard count > 0,
              let from = pixman_image_create_bits(PIXMAN_a8b8g8r8, Int32(count), 1, source, Int32(count * 4)),
              let to = pixman_image_create_bits(PIXMAN_a8r8g8b8, Int32(count), 1, target, Int32(count * 4)) else { return }
        pixman_image_composite32(PIXMAN_OP_SRC, from, nil, to, 0, 0, 0, 0, 0, 0, Int32(count), 1)
        pixman_image_unref(from)
        pixman_image_unref(to)
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

    /// The next level's row from level `k`'s pair.
    private func halve(_ k: Int) {
        let source = levels[k], target = levels[k + 1]
        pixman_image_composite32(PIXMAN_OP_SRC, source.image, nil, target.image, 0, 0, 0, 0,
                                 0, Int32(target.rows & 1), Int32(target.width), 1)
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
