// EXIF orientation: how the stored pixel grid maps onto the upright picture a user sees.

/// The eight values of the EXIF/TIFF Orientation tag (0x0112), named like
/// `UIImage.Orientation` (EXIF 6, "rotate 90° clockwise to display", is `.right`).
public enum Orientation: Int, Sendable, Equatable, CaseIterable {
    /// 1: stored upright.
    case up = 1
    /// 2: mirrored left–right.
    case upMirrored = 2
    /// 3: rotated 180°.
    case down = 3
    /// 4: mirrored top–bottom.
    case downMirrored = 4
    /// 5: transposed (stored row 0 is the displayed left column, top first).
    case leftMirrored = 5
    /// 6: displayed after a 90° clockwise turn (typical phone photo held upright).
    case right = 6
    /// 7: transverse (stored row 0 is the displayed right column, bottom first).
    case rightMirrored = 7
    /// 8: displayed after a 90° counter-clockwise turn.
    case left = 8

    /// True when displayed width is the stored height (orientations 5–8).
    public var swapsAxes: Bool { rawValue >= 5 }

    /// Displayed size for a stored size, in pixels.
    public func displaySize(storedWidth: Int, storedHeight: Int) -> (width: Int, height: Int) {
        swapsAxes ? (storedHeight, storedWidth) : (storedWidth, storedHeight)
    }

    /// Where displayed pixel (dx, dy) lives in the stored grid, as an affine map:
    /// stored = origin + dx·xStep + dy·yStep (all steps are unit vectors or zero).
    ///
    /// Derived from the TIFF 6.0 definitions ("the 0th row represents the visual right-hand
    /// side…"), so drawing code walks stored memory without materialising a rotated copy.
    public func storedMapping(storedWidth w: Int, storedHeight h: Int) -> StoredMapping {
        switch self {
        case .up: return StoredMapping(origin: (0, 0), xStep: (1, 0), yStep: (0, 1))
        case .upMirrored: return StoredMapping(origin: (w - 1, 0), xStep: (-1, 0), yStep: (0, 1))
        case .down: return StoredMapping(origin: (w - 1, h - 1), xStep: (-1, 0), yStep: (0, -1))
        case .downMirrored: return StoredMapping(origin: (0, h - 1), xStep: (1, 0), yStep: (0, -1))
        case .leftMirrored: return StoredMapping(origin: (0, 0), xStep: (0, 1), yStep: (1, 0))
        case .right: return StoredMapping(origin: (0, h - 1), xStep: (0, -1), yStep: (1, 0))
        case .rightMirrored: return StoredMapping(origin: (w - 1, h - 1), xStep: (0, -1), yStep: (-1, 0))
        case .left: return StoredMapping(origin: (w - 1, 0), xStep: (0, 1), yStep: (-1, 0))
        }
    }
}

/// An integer affine map from displayed pixel coordinates to stored ones.
public struct StoredMapping: Sendable {
    /// Stored (x, y) of displayed pixel (0, 0).
    public let origin: (x: Int, y: Int)
    /// Stored step for one displayed pixel to the right.
    public let xStep: (x: Int, y: Int)
    /// Stored step for one displayed row down.
    public let yStep: (x: Int, y: Int)

    /// Stored (x, y) of displayed pixel (dx, dy).
    @inline(__always)
    public func stored(_ dx: Int, _ dy: Int) -> (x: Int, y: Int) {
        (origin.x + dx * xStep.x + dy * yStep.x, origin.y + dx * xStep.y + dy * yStep.y)
    }
}

extension Orientation {
    /// Quarter turns clockwise (0–3) after the left–right mirror of `isMirrored`: every
    /// orientation is one of these eight turns of the picture or of its mirror image.
    public var quarterTurns: Int {
        switch self {
        case .up, .upMirrored: 0
        case .right, .rightMirrored: 1
        case .down, .downMirrored: 2
        case .left, .leftMirrored: 3
        }
    }

    /// Whether the picture is mirrored left to right before the turns.
    public var isMirrored: Bool {
        switch self {
        case .upMirrored, .rightMirrored, .downMirrored, .leftMirrored: true
        default: false
        }
    }

    /// The orientation that mirrors left to right when `mirrored`, then turns `quarterTurns`
    /// times clockwise (any integer; taken modulo 4).
    public init(quarterTurns: Int, mirrored: Bool) {
        let turns = (quarterTurns % 4 + 4) % 4
        self = mirrored ? [.upMirrored, .rightMirrored, .downMirrored, .leftMirrored][turns] : [.up, .right, .down, .left][turns]
    }

    /// This orientation, then `next` applied to the picture it displays (a user's turn on top
    /// of the file's EXIF orientation). A mirror reverses the sense of the turns before it.
    public func followed(by next: Orientation) -> Orientation {
        Orientation(quarterTurns: next.quarterTurns + (next.isMirrored ? -quarterTurns : quarterTurns),
                    mirrored: isMirrored != next.isMirrored)
    }
}
