// A vector picture rendered whole at the scale its tiles are asked for: the document drawn in
// one piece, rendered once per scale, and never past a 4K screen's pixels.
import Foundation
@testable import Pictures
import Raster
import Testing

@Suite("SVG rendered whole for its tiles")
struct SVGStoredPixelsTests {
    /// A 900×700 drawing with anti-aliased edges everywhere: circles, a rotated square, text-free.
    private func picture() throws -> Picture {
        let svg = """
        <svg xmlns="http://www.w3.org/2000/svg" width="900" height="700">
        <rect width="900" height="700" fill="#203040"/>
        <circle cx="450" cy="350" r="301.3" fill="#e04020"/>
        <rect x="100" y="80" width="333.3" height="222.7" fill="#20c060" opacity="0.6" transform="rotate(17 260 190)"/>
        <circle cx="777.7" cy="111.1" r="55.5" fill="none" stroke="#ffffff" stroke-width="3.3"/>
        </svg>
        """
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("scrollkit-svg-\(UUID().uuidString).svg")
        try svg.write(to: url, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: url) }
        return try ImageDecoder(path: url.path).decode()
    }

    /// One piece, as the corpus's reference (rsvg-convert) draws it: tiles drawn one at a time
    /// differed from it here by up to 11 levels along the anti-aliased edges of the translucent
    /// turned square, so tiles cut from it are the truer pixels.
    @Test("At a scale, the whole render is the document drawn at that size in one piece", arguments: [0.37, 1.0, 1.9])
    func sameAsOnePiece(scale: Double) throws {
        let picture = try picture()
        let stored = try #require(picture.storedPixels(scale: scale))
        let (w, h) = (Int((900 * scale).rounded(.up)), Int((700 * scale).rounded(.up)))
        #expect(stored.framebuffer.width == w && stored.framebuffer.height == h)
        let whole = try #require(OwnedFramebuffer(width: w, height: h))
        picture.drawTile(PixelRect(x: 0, y: 0, width: w, height: h), scale: scale, into: whole.framebuffer)
        let mismatch = Self.firstDifference(whole.framebuffer, stored.framebuffer, width: w, height: h)
        #expect(mismatch == nil, "scale \(scale): \(mismatch ?? "")")
    }

    @Test("A scale asked again gets the same render; past a 4K screen's pixels there is none")
    func keptAndBounded() throws {
        let picture = try picture()
        let first = try #require(picture.storedPixels(scale: 0.5))
        let again = try #require(picture.storedPixels(scale: 0.5))
        let (firstOwner, againOwner) = (ObjectIdentifier(first.owner), ObjectIdentifier(again.owner))
        #expect(firstOwner == againOwner)
        #expect(first.framebuffer.base == again.framebuffer.base)
        // 900×700 at 3.6: 3240×2520, 8.2 MP, within 3840×2160 (8.29 MP); at 3.7 it is past it.
        #expect(picture.storedPixels(scale: 3.6) != nil)
        #expect(picture.storedPixels(scale: 3.7) == nil)
        #expect(picture.storedPixels(scale: 0) == nil && picture.storedPixels(scale: .infinity) == nil)
    }

    /// Where the `width`×`height` pixels of `a` and `b` first differ, if anywhere.
    private static func firstDifference(_ a: Framebuffer, _ b: Framebuffer, width: Int, height: Int) -> String? {
        for y in 0..<height {
            for x in 0..<width {
                let pa: UInt32 = a[x, y]
                let pb: UInt32 = b[x, y]
                if pa != pb { return "(\(x), \(y)) is \(pb) stored, \(pa) drawn" }
            }
        }
        return nil
    }
}
