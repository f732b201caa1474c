// Finding the test photo in a screenshot, so that no figure is reported for a window that does
// not actually show the picture (a blank window, or a preview drawn at the wrong size).
import CompositorHarness

/// Where a screenshot shows the test photo, and whether that is the photo fitted whole.
struct PhotoOnScreen: CustomStringConvertible {
    /// What to look for.
    struct Expectation {
        /// The photo's width over its height.
        var aspect: Double
        /// The photo's colour at its centre (no grain).
        var centre: (r: Int, g: Int, b: Int)
        /// How far a displayed pixel may stray from `centre` per channel (grain, JPEG, scaling).
        var tolerance: Int
        /// The compositor's background (sway's `bg`, 0xRRGGBB), which is not the photo.
        var background: UInt32
    }

    /// 2 levels: pixels this close to the background or to a pure grey (the viewer's black,
    /// its progress bar) are not the photo (decision: the photo has no flat or grey area).
    static let flatTolerance = 2
    /// 5 %: how far the shown box's aspect may stray from the photo's (rounding of the fit).
    static let aspectTolerance = 0.05
    /// A quarter of the output on the box's longer side: anything smaller is a thumbnail,
    /// not a picture shown to be looked at (decision).
    static let minimumShare = 0.25

    /// The bounding box of the pixels that are neither background nor grey.
    var box: (x: Int, y: Int, width: Int, height: Int)?
    /// The colour at the box's centre.
    var centre: (r: Int, g: Int, b: Int) = (0, 0, 0)
    /// Whether the box is the whole photo: its aspect, a sensible size and the right colour
    /// at its centre.
    var isPhoto = false

    /// Looks for the photo in `image`.
    init(_ image: Screenshot, expecting photo: Expectation) {
        var minX = Int.max, minY = Int.max, maxX = -1, maxY = -1
        let flat = Self.flatTolerance
        let bg = Self.channels(photo.background)
        for y in 0..<image.height {
            for x in 0..<image.width {
                let p = Self.channels(image.pixel(x, y))
                let grey = abs(p.r - p.g) <= flat && abs(p.g - p.b) <= flat
                let background = abs(p.r - bg.r) <= flat && abs(p.g - bg.g) <= flat && abs(p.b - bg.b) <= flat
                if grey || background { continue }
                minX = min(minX, x); maxX = max(maxX, x)
                minY = min(minY, y); maxY = max(maxY, y)
            }
        }
        guard maxX >= 0 else { return }
        let box = (x: minX, y: minY, width: maxX - minX + 1, height: maxY - minY + 1)
        self.box = box
        centre = Self.channels(image.pixel(box.x + box.width / 2, box.y + box.height / 2))
        let aspect = Double(box.width) / Double(box.height)
        let share = max(Double(box.width) / Double(image.width), Double(box.height) / Double(image.height))
        let e = photo.centre
        isPhoto = abs(aspect / photo.aspect - 1) <= Self.aspectTolerance && share >= Self.minimumShare
            && max(abs(centre.r - e.r), abs(centre.g - e.g), abs(centre.b - e.b)) <= photo.tolerance
    }

    /// The red, green and blue of a pixel 0xRRGGBB (any alpha above ignored).
    private static func channels(_ pixel: UInt32) -> (r: Int, g: Int, b: Int) {
        (Int(pixel >> 16 & 0xFF), Int(pixel >> 8 & 0xFF), Int(pixel & 0xFF))
    }

    /// "the photo, 1620×1080 at (150, 0)", or what was seen instead.
    var description: String {
        guard let box else { return "no picture, only background" }
        let seen = "\(box.width)×\(box.height) at (\(box.x), \(box.y)), centre rgb(\(centre.r), \(centre.g), \(centre.b))"
        return isPhoto ? "the photo \(seen)" : "NOT the photo: \(seen)"
    }
}
