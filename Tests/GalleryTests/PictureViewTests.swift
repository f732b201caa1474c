// A huge photo's preview on screen: stretched over the full picture's bounds, and still used
// for the small scales it covers once the full picture has arrived.
import Foundation
import Gallery
@testable import Pictures
import Raster
import Testing

@Suite("Picture view")
struct PictureViewTests {
    /// The (r, g, b) of `buffer` at (x, y).
    private func rgb(_ buffer: Framebuffer, _ x: Int, _ y: Int) -> (Int, Int, Int) {
        let p = buffer[x, y]
        return (Int(p >> 16 & 0xFF), Int(p >> 8 & 0xFF), Int(p & 0xFF))
    }

    private func near(_ a: (Int, Int, Int), _ b: (Int, Int, Int), _ tolerance: Int) -> Bool {
        abs(a.0 - b.0) <= tolerance && abs(a.1 - b.1) <= tolerance && abs(a.2 - b.2) <= tolerance
    }

    /// The whole 4000×3000 city photo drawn by `view` at 1/8 (500×375 device pixels).
    private func drawEighth(_ view: PictureView) throws -> OwnedFramebuffer {
        let out = try #require(OwnedFramebuffer(width: 500, height: 375))
        view.draw(PixelRect(x: 0, y: 0, width: 500, height: 375), scale: 0.125, into: out.framebuffer)
        return out
    }

    @Test("A preview covers the full picture's bounds: its known patches land where the full picture's are")
    func previewStretched() throws {
        let decoder = try ImageDecoder(path: Assets.city)
        let preview = try decoder.decodePreview(maxPixels: 200_000)
        #expect(preview.isPreview && preview.width < 1000, "a DCT-scaled preview: \(preview.width)×\(preview.height)")
        let view = PictureView()
        view.show(preview)
        let shot = try drawEighth(view)
        // Assets/README.md: (1000…1063, 1000…1063) ≈ (200, 30, 30); (3000…3063, 2000…2063) ≈ (30, 60, 200);
        // at 1/8 their middles are (129, 129) and (379, 254).
        #expect(near(rgb(shot.framebuffer, 129, 129), (200, 30, 30), 24), "\(rgb(shot.framebuffer, 129, 129))")
        #expect(near(rgb(shot.framebuffer, 379, 254), (30, 60, 200), 24), "\(rgb(shot.framebuffer, 379, 254))")
        // The far corner is drawn too (a thumbnail in the top-left corner would leave it empty).
        #expect(shot.framebuffer[499, 374] >> 24 == 0xFF)
    }

    @Test("After the full picture arrives, small scales still draw from the preview, 1:1 from the full picture")
    func previewKeptForSmallScales() throws {
        let decoder = try ImageDecoder(path: Assets.city)
        let preview = try decoder.decodePreview(maxPixels: 200_000)
        let full = try decoder.decode()
        let view = PictureView()
        view.show(preview)
        view.show(full)
        let ratio = Double(preview.width) / Double(preview.fullWidth)
        #expect(view.source(forScale: ratio) === preview && view.source(forScale: ratio / 2) === preview)
        #expect(view.source(forScale: ratio * 1.01) === full && view.source(forScale: 1) === full)
        // At 1/8 (not more than the preview's density) the preview is drawn, and it agrees with
        // averaging the full picture (7 per channel measured; JPEG's DCT scaling is not a box filter).
        let fromView = try drawEighth(view)
        let fromFull = try #require(OwnedFramebuffer(width: 500, height: 375))
        full.drawTile(PixelRect(x: 0, y: 0, width: 500, height: 375), scale: 0.125, into: fromFull.framebuffer)
        var worst = 0
        for y in stride(from: 4, to: 375, by: 23) {
            for x in stride(from: 4, to: 500, by: 17) {
                let a = rgb(fromView.framebuffer, x, y), b = rgb(fromFull.framebuffer, x, y)
                worst = max(worst, abs(a.0 - b.0), abs(a.1 - b.1), abs(a.2 - b.2))
            }
        }
        #expect(worst <= 12, "preview and full picture differ by up to \(worst) per channel at 1/8")
        view.show(nil)
        #expect(view.preview == nil && view.source(forScale: 0.01) == nil)
    }

    @Test("An SVG's quick rendition is painted from its level until the drawing replaces it, which is new content, not a refinement")
    func vectorRendition() throws {
        let svg = Array("""
            <svg xmlns="http://www.w3.org/2000/svg" width="1600" height="1200"><rect width="1600" height="1200" fill="#3070a0"/></svg>
            """.utf8)
        let decoder = ImageDecoder(data: svg, file: "drawing.svg")
        let rendition = try decoder.decodeVectorPreview(scale: 0.25)
        let drawing = try decoder.decode()
        let view = PictureView()
        view.show(rendition)
        #expect(view.provisionalLevel == -2 && !view.drawsAtAnyScale)
        view.orientation = .right
        #expect(view.provisionalLevel == nil, "turned, its pixels are not stored as tiles show them")
        view.orientation = .up
        _ = view.takeRefinement()
        view.show(drawing)
        #expect(view.provisionalLevel == nil && view.drawsAtAnyScale)
        #expect(view.takeRefinement() == nil, "every tile is drawn afresh")
        #expect(view.preview == nil)
    }

    @Test("The screen-size picture is offered as stored pixels at its own scale only, as the view draws it, and not once turned")
    func storedPixelsAtTheScreenLevel() throws {
        let screen = try ImageDecoder(path: Assets.city).decode(detail: .screen)
        let view = PictureView()
        view.show(screen)
        let scale = Double(screen.width) / Double(screen.fullWidth)
        #expect(scale < 1, "a reduced picture: \(screen.width)×\(screen.height)")
        let stored = try #require(view.storedPixels(scale: scale))
        #expect(stored.framebuffer.width == screen.width && stored.framebuffer.height == screen.height)
        // A tile the view draws at that scale holds exactly the stored pixels.
        let tile = try #require(OwnedFramebuffer(width: 256, height: 256))
        view.draw(PixelRect(x: 256, y: 256, width: 256, height: 256), scale: scale, into: tile.framebuffer)
        var differing = 0
        for y in 0..<256 { for x in 0..<256 where tile.framebuffer[x, y] != stored.framebuffer[256 + x, 256 + y] { differing += 1 } }
        #expect(differing == 0)
        // Any other scale resamples; a turned picture is drawn turned.
        #expect(view.storedPixels(scale: scale / 2) == nil && view.storedPixels(scale: scale * 1.5) == nil)
        view.orientation = .right
        #expect(view.storedPixels(scale: scale) == nil)
    }
}
