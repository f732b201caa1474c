// Compares a screenshot with a decoded picture drawn at a known scale and position: the
// viewer's pages are checked against the asset's own pixels, not against hard-coded colours.
import CompositorHarness
import Foundation
import Pictures
import Raster
import TestSupport

/// A picture decoded by the project's decoders, as premultiplied ARGB at 1:1.
struct DecodedImage {
    /// The file's name (for messages).
    let name: String
    let width: Int
    let height: Int
    private let pixels: [UInt32]

    /// Whether any pixel is not opaque: the viewer then shows its checkerboard under it.
    let hasTransparency: Bool

    /// Decodes the file at `path` (what decodes of a damaged one, with `acceptsDamage`); throws
    /// the decoder's one-line reason.
    init(path: String, acceptsDamage: Bool = false) throws {
        let picture = try ImageDecoder(path: path).decode(acceptsDamage: acceptsDamage)
        guard let rendered = picture.render() else {
            throw HarnessError(description: "\(path): too large to render for a comparison")
        }
        name = URL(fileURLWithPath: path).lastPathComponent
        width = picture.width
        height = picture.height
        pixels = rendered.pixels
        hasTransparency = pixels.contains { $0 >> 24 != 0xFF }
    }

    /// The bundled asset `name` (Assets/ at the package root).
    static func asset(_ name: String) throws -> DecodedImage {
        try DecodedImage(path: assetPath(name))
    }

    /// The path of the bundled asset `name`.
    static func assetPath(_ name: String) -> String {
        PackagePaths.packageRoot().appendingPathComponent("Assets").appendingPathComponent(name).path
    }

    /// The pixel at (x, y), premultiplied ARGB.
    subscript(x: Int, y: Int) -> UInt32 { pixels[y * width + x] }
}

/// Where a picture is on screen: image pixel (u, v) covers the screen square from
/// `origin + (u, v)·scale` to `origin + (u + 1, v + 1)·scale` (screen pixels).
struct Placement: CustomStringConvertible {
    var scale: Double
    var originX: Double
    var originY: Double

    /// The picture fitted and centred in a `width`×`height` window (device pixels), as the
    /// viewer's pages show it: the whole image, centred on both axes, and never enlarged past
    /// one image pixel per device pixel (`upscale` fills the window, as --upscale does).
    static func fit(_ image: DecodedImage, width: Int, height: Int, upscale: Bool = false) -> Placement {
        let fill = min(Double(width) / Double(image.width), Double(height) / Double(image.height))
        let scale = upscale ? fill : min(fill, 1)
        return Placement(scale: scale, originX: (Double(width) - Double(image.width) * scale) / 2,
                         originY: (Double(height) - Double(image.height) * scale) / 2)
    }

    /// The image point under screen point (x, y).
    func imagePoint(_ x: Double, _ y: Double) -> (x: Double, y: Double) {
        ((x - originX) / scale, (y - originY) / scale)
    }

    /// The screen point showing image point (u, v).
    func screenPoint(_ u: Double, _ v: Double) -> (x: Double, y: Double) {
        (originX + u * scale, originY + v * scale)
    }

    /// The placement at `scale` that shows image point (u, v) at screen point (x, y).
    static func keeping(_ u: Double, _ v: Double, at x: Double, _ y: Double, scale: Double) -> Placement {
        Placement(scale: scale, originX: x - u * scale, originY: y - v * scale)
    }

    /// This placement moved by (dx, dy) screen pixels.
    func shifted(_ dx: Double, _ dy: Double) -> Placement {
        Placement(scale: scale, originX: originX + dx, originY: originY + dy)
    }

    var description: String {
        String(format: "scale %.4f at (%.2f, %.2f)", scale, originX, originY)
    }
}

/// A regular grid of screen points every `step` pixels, offset by half a step.
func gridPoints(width: Int, height: Int, step: Int) -> [(Int, Int)] {
    stride(from: step / 2, to: height, by: step).flatMap { y in
        stride(from: step / 2, to: width, by: step).map { x in (x, y) }
    }
}

/// 8 per channel: what the renderer may add beyond the range of the source pixels a screen
/// pixel covers (decision). A picture shown between two levels is drawn from the coarser one
/// (its pixels 2×2 averages, rounded down by pixman's halving) enlarged, so a screen pixel
/// mixes in source pixels up to two beyond the ones it covers, and rounding (premultiplied
/// averaging, 8-bit blending) adds a little more: measured 7 on the sunset at its fit, where
/// the sky meets the hill (6 before the levels were built by pixman, which rounds down).
let pictureTolerance = 8

/// The viewer's checkerboard under transparent pictures (Gallery's PictureBackground): 8-point
/// squares (8 px at output scale 1, 16 at scale 2) from the picture's top-left corner, #808080
/// there and #CCCCCC beside it.
enum Checkerboard {
    /// 8 points: the side of a square (PictureBackground.squareSide); device pixels at `scale`.
    static let side = 8.0
    static let dark = 0xFF80_8080 as UInt32, light = 0xFFCC_CCCC as UInt32

    /// The square colours the screen area from `x0`…`x1` × `y0`…`y1` (pixels, inclusive) covers
    /// for a picture whose top-left is at (`originX`, `originY`), on an output of `scale`.
    static func colors(x0: Double, x1: Double, y0: Double, y1: Double, originX: Double, originY: Double,
                       scale: Double) -> Set<UInt32> {
        let side = Self.side * scale
        let columns = Int(((x0 - originX) / side).rounded(.down))...Int(((x1 - originX) / side).rounded(.down))
        let rows = Int(((y0 - originY) / side).rounded(.down))...Int(((y1 - originY) / side).rounded(.down))
        var found = Set<UInt32>()
        for column in columns {
            for row in rows { found.insert((column + row) & 1 == 0 ? dark : light) }
        }
        return found
    }
}

/// Compares the screenshot with `image` placed as `placement` over `background`, at `points`.
///
/// A screen pixel covers an area of the image; its colour must lie, channel by channel, within
/// the range of the image pixels of that area widened by `slack` screen pixels on every side
/// (plus `pictureTolerance`), the background counting where the area leaves the image. The
/// slack absorbs the resampling filter and the renderer snapping the picture to whole device
/// pixels; edges of flat areas still pin the placement to about `slack` pixels. A picture with
/// transparent pixels is seen over the viewer's checkerboard (`checkerboard`, its default), whose
/// squares are 8 points of an output of `outputScale`.
func placementProblems(_ shot: Screenshot, _ image: DecodedImage, _ placement: Placement, points: [(Int, Int)],
                       background: UInt32 = 0xFF00_0000, checkerboard: Bool = true, outputScale: Double = 1,
                       slack: Double = 1) -> [String] {
    let (count, examples) = placementMismatches(shot, image, placement, points: points, background: background,
                                                checkerboard: checkerboard, outputScale: outputScale, slack: slack, examples: 8)
    return count > examples.count ? examples + ["… \(count) of \(points.count) points in all"] : examples
}

/// How many of `points` do not match (see `placementProblems`), with up to `examples` of them described.
func placementMismatches(_ shot: Screenshot, _ image: DecodedImage, _ placement: Placement, points: [(Int, Int)],
                         background: UInt32 = 0xFF00_0000, checkerboard: Bool = true, outputScale: Double = 1,
                         slack: Double = 1, examples: Int) -> (count: Int, examples: [String]) {
    var problems: [String] = []
    var failures = 0
    let s = placement.scale
    for (x, y) in points where x >= 0 && y >= 0 && x < shot.width && y < shot.height {
        let u0 = (Double(x) - slack - placement.originX) / s, u1 = (Double(x) + 1 + slack - placement.originX) / s
        let v0 = (Double(y) - slack - placement.originY) / s, v1 = (Double(y) + 1 + slack - placement.originY) / s
        let iu0 = Int(u0.rounded(.down)), iu1 = Int(u1.rounded(.up)) - 1
        let iv0 = Int(v0.rounded(.down)), iv1 = Int(v1.rounded(.up)) - 1
        var low = (255, 255, 255), high = (0, 0, 0)
        // Under the picture: the checkerboard squares of the area (the renderer snaps the
        // picture, and its backdrop with it, to whole pixels), or the page.
        let underlays: Set<UInt32> = checkerboard && image.hasTransparency
            ? Checkerboard.colors(x0: Double(x) - slack, x1: Double(x) + slack, y0: Double(y) - slack, y1: Double(y) + slack,
                                  originX: placement.originX.rounded(), originY: placement.originY.rounded(), scale: outputScale)
            : [background]
        func include(_ pixel: UInt32, over under: UInt32) {
            // Premultiplied ARGB over what is under it: colour + (1 − α)·under.
            let alpha = Int(pixel >> 24)
            func channel(_ shift: UInt32) -> Int {
                Int((pixel >> shift) & 0xFF) + (255 - alpha) * Int((under >> shift) & 0xFF) / 255
            }
            let r = channel(16), g = channel(8), b = channel(0)
            low = (min(low.0, r), min(low.1, g), min(low.2, b))
            high = (max(high.0, r), max(high.1, g), max(high.2, b))
        }
        func include(_ pixel: UInt32) { for under in underlays { include(pixel, over: under) } }
        if iu0 < 0 || iv0 < 0 || iu1 >= image.width || iv1 >= image.height { include(background, over: background) }
        let cu0 = max(iu0, 0), cu1 = min(iu1, image.width - 1), cv0 = max(iv0, 0), cv1 = min(iv1, image.height - 1)
        if cu0 <= cu1 && cv0 <= cv1 {
            for v in cv0...cv1 {
                for u in cu0...cu1 { include(image[u, v]) }
            }
        }
        let got = shot.pixel(x, y)
        let r = Int((got >> 16) & 0xFF), g = Int((got >> 8) & 0xFF), b = Int(got & 0xFF)
        let t = pictureTolerance
        let fits = r >= low.0 - t && r <= high.0 + t && g >= low.1 - t && g <= high.1 + t && b >= low.2 - t && b <= high.2 + t
        if !fits {
            failures += 1
            if problems.count < examples {
                problems.append("(\(x), \(y)) is \(hex(got)), expected within \(low)…\(high) (image area from \(String(format: "%.1f, %.1f", u0, v0)))")
            }
        }
    }
    return (failures, problems)
}

/// The placement among `placement` shifted by whole pixels up to `radius` each way that
/// matches the screenshot at the most `points` (the nearest one among equals), with its
/// problems at `verify` (empty: a full match).
func bestPlacement(_ shot: Screenshot, _ image: DecodedImage, near placement: Placement, radius: Int,
                   points: [(Int, Int)], verify: [(Int, Int)]) -> (placement: Placement, problems: [String]) {
    var best = (placement: placement, count: Int.max, distance: Int.max)
    for dy in -radius...radius {
        for dx in -radius...radius {
            let candidate = placement.shifted(Double(dx), Double(dy))
            let count = placementMismatches(shot, image, candidate, points: points, examples: 0).count
            let distance = abs(dx) + abs(dy)
            if count < best.count || (count == best.count && distance < best.distance) {
                best = (candidate, count, distance)
            }
        }
    }
    return (best.placement, placementProblems(shot, image, best.placement, points: verify))
}
