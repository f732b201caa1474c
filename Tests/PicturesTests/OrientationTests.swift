// All eight EXIF orientations, checked against rotations and mirrors done on plain grids.
import Raster
import Testing
@testable import Pictures

@Suite("EXIF orientation")
struct OrientationTests {
    typealias Grid = [[UInt32]]

    static func rotateClockwise(_ g: Grid) -> Grid {
        (0..<g[0].count).map { x in (0..<g.count).reversed().map { y in g[y][x] } }
    }
    static func mirror(_ g: Grid) -> Grid { g.map { $0.reversed() } }

    /// The upright grid a viewer must show for stored grid `g`, from the EXIF definitions:
    /// 2 mirror, 3 rotate 180°, 4 flip, 5 mirror + rotate 270° CW, 6 rotate 90° CW,
    /// 7 mirror + rotate 90° CW, 8 rotate 270° CW.
    static func expected(_ g: Grid, _ orientation: Int) -> Grid {
        let r = rotateClockwise
        switch orientation {
        case 2: return mirror(g)
        case 3: return r(r(g))
        case 4: return mirror(r(r(g)))
        case 5: return r(r(r(mirror(g))))
        case 6: return r(g)
        case 7: return r(mirror(g))
        case 8: return r(r(r(g)))
        default: return g
        }
    }

    @Test("PNG with eXIf shows every pixel where the orientation puts it", arguments: 1...8)
    func pngOrientation(orientation: Int) throws {
        let w = 5, h = 3
        let stored: Grid = (0..<h).map { y in (0..<w).map { x in argb(x * 50, y * 100, 7) } }
        var writer = PNGWriter(width: w, height: h, colorType: 2)
        writer.exif = tiffOrientation(orientation, bigEndian: orientation % 2 == 0)
        let picture = try decodeOrFail(writer.encode { x, y in [x * 50, y * 100, 7] })
        let want = Self.expected(stored, orientation)
        #expect(picture.width == want[0].count && picture.height == want.count)
        let shown: Grid = (0..<picture.height).map { y in (0..<picture.width).map { x in picture.pixel(x: x, y: y) } }
        #expect(shown == want)
    }

    @Test("JPEG with an Exif APP1 segment is oriented, in packed and planar storage",
          arguments: 1...8, [true, false])
    func jpegOrientation(orientation: Int, bigEndian: Bool) throws {
        // 3×2 blocks of 16 px, each flat so JPEG keeps its colour.
        let top: [UInt32] = [argb(230, 20, 20), argb(20, 230, 20), argb(20, 20, 230)]
        let bottom: [UInt32] = [argb(230, 230, 20), argb(20, 230, 230), argb(240, 240, 240)]
        let colours: Grid = [top, bottom]
        let source: [UInt32] = (0..<(48 * 32)).map { (i: Int) -> UInt32 in
            let row: Int = i / 48 / 16, column: Int = i % 48 / 16
            return colours[row][column]
        }
        let plain = try JPEGEncoder.encode(argb: source, width: 48, height: 32, quality: 95, subsampling: .s444)
        let bytes = withExif(plain, orientation: orientation, bigEndian: bigEndian)
        #expect(try ImageDecoder(data: bytes, file: "o.jpg").readHeader().orientation.rawValue == orientation)
        let want = Self.expected(colours, orientation)
        for storage in [StoragePreference.argb, .planar] {
            let picture = try decodeOrFail(bytes, storage: storage)
            #expect(picture.width == want[0].count * 16 && picture.height == want.count * 16)
            for (by, row) in want.enumerated() { for (bx, colour) in row.enumerated() {
                let shown = picture.pixel(x: bx * 16 + 8, y: by * 16 + 8)
                #expect(channelDistance(shown, colour) <= 4, "block \(bx),\(by) orientation \(orientation)")
            } }
        }
    }

    @Test("malformed Exif leaves the picture upright")
    func malformedExif() throws {
        let plain = try JPEGEncoder.encode(argb: blockPattern(width: 16, height: 8), width: 16, height: 8)
        var invalidValue = withExif(plain, orientation: 9)
        #expect(try ImageDecoder(data: invalidValue, file: "x.jpg").readHeader().orientation == .up)
        // IFD0 offset pointing past the segment.
        let tiffStart = 2 + 4 + 6
        invalidValue[tiffStart + 4 ..< tiffStart + 8] = [0x7F, 0xFF, 0xFF, 0xFF]
        #expect(try ImageDecoder(data: invalidValue, file: "x.jpg").readHeader().orientation == .up)
        #expect(Metadata.exifOrientation([0x4D, 0x4D, 0, 42], start: 0, end: 4) == nil)
        #expect(Metadata.exifOrientation(tiffOrientation(3), start: 0, end: 20) == nil)  // entry cut off
        #expect(Metadata.exifOrientation(tiffOrientation(3), start: 0, end: tiffOrientation(3).count) == .down)
    }

    @Test("drawTile of a rotated picture equals the matching crop of the whole rotated picture")
    func rotatedTiles() throws {
        var writer = PNGWriter(width: 23, height: 17, colorType: 6)
        writer.exif = tiffOrientation(7)
        let picture = try decodeOrFail(writer.encode { x, y in [x * 11, y * 15, (x ^ y) * 7 & 0xFF, 255 - x] })
        let whole = picture.render()!
        let tile = OwnedFramebuffer(width: 6, height: 5)!
        for (tx, ty) in [(0, 0), (3, 4), (11, 18), (14, 20)] {
            picture.drawTile(PixelRect(x: tx, y: ty, width: 6, height: 5), into: tile.framebuffer)
            for y in 0..<5 { for x in 0..<6 {
                let inside = tx + x < picture.width && ty + y < picture.height
                let expected = inside ? whole.framebuffer[tx + x, ty + y] : 0
                #expect(tile.framebuffer[x, y] == expected, "tile \(tx),\(ty) pixel \(x),\(y)")
            } }
        }
    }
}

@Suite("Orientation algebra")
struct OrientationAlgebraTests {
    /// Where displayed pixel (x, y) of a `w`×`h` stored grid shown in `o` lives.
    private func stored(_ o: Orientation, _ w: Int, _ h: Int, _ x: Int, _ y: Int) -> (Int, Int) {
        let p = o.storedMapping(storedWidth: w, storedHeight: h).stored(x, y)
        return (p.x, p.y)
    }

    @Test("Each orientation is its quarter turns after its mirror, and back")
    func turnsAndMirror() {
        for o in Orientation.allCases {
            #expect(Orientation(quarterTurns: o.quarterTurns, mirrored: o.isMirrored) == o)
        }
        #expect(Orientation(quarterTurns: -1, mirrored: false) == .left && Orientation(quarterTurns: 5, mirrored: true) == .rightMirrored)
    }

    @Test("followed(by:) maps pixels as the two mappings in turn, for all 64 pairs")
    func composition() {
        // A 3×2 grid: no symmetry hides a wrong answer.
        let (w, h) = (3, 2)
        for first in Orientation.allCases {
            for second in Orientation.allCases {
                let middle = first.displaySize(storedWidth: w, storedHeight: h)
                let both = first.followed(by: second)
                let shown = both.displaySize(storedWidth: w, storedHeight: h)
                for y in 0..<shown.height {
                    for x in 0..<shown.width {
                        let viaMiddle = stored(second, middle.width, middle.height, x, y)
                        let expected = stored(first, w, h, viaMiddle.0, viaMiddle.1)
                        #expect(stored(both, w, h, x, y) == expected, "\(first) then \(second) at (\(x), \(y))")
                    }
                }
            }
        }
    }
}
