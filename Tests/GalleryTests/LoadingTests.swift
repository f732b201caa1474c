// Loading off the frame loop, and output scales: the frame loop never waits for a decoder,
// large files show progress and a preview, and 1:1 means one image pixel per device pixel.
import Foundation
import Gallery
import Pictures
import Raster
import ScrollKit
import Testing

@Suite("Gallery loading and scale")
struct LoadingTests {
    /// A 5000×3000 JPEG (15 megapixels: previewed, with the progress bar) of a smooth gradient.
    static func largeJPEG(in folder: TemporaryFolder) throws -> String {
        let width = 5000, height = 3000
        var pixels = [UInt32](repeating: 0, count: width * height)
        for y in 0..<height {
            for x in 0..<width {
                pixels[y * width + x] = 0xFF00_0000 | UInt32(x * 255 / width) << 16 | UInt32(y * 255 / height) << 8 | 0x40
            }
        }
        return try folder.write("large.jpg", try JPEGEncoder.encode(argb: pixels, width: width, height: height, quality: 80))
    }

    @Test("A large file loads in the background: the frame loop polls, the bar shows progress, then the picture")
    func backgroundLoad() throws {
        let folder = try TemporaryFolder()
        let large = try Self.largeJPEG(in: folder)
        var options = GalleryScene.Options()
        options.loading = .background
        let scene = GalleryScene(files: [large], options: options)
        scene.resize(width: 500, height: 300, scale: 1)
        let buffer = try #require(OwnedFramebuffer(width: 500, height: 300))
        var time = 0.0
        var sawBar = false
        var states: [PageView.LoadState] = []
        let deadline = Date().addingTimeInterval(60)
        // Tick like a host would, without ever waiting for the decoder.
        while Date() < deadline {
            let request = scene.advance(to: time)
            let page = try #require(scene.currentPage)
            if states.last != page.loadState { states.append(page.loadState) }
            if page.loadState == .loaded { break }
            #expect(request == .at(time + GalleryScene.loadPollInterval) || request == .nextFrame, "\(request)")
            if scene.needsRender { _ = scene.render(into: buffer.framebuffer, bufferAge: 1) }
            // The bar: a white track along the top edge while a large file loads.
            if page.isLarge && page.isLoading {
                _ = scene.render(into: buffer.framebuffer, bufferAge: 0)
                let track = buffer.framebuffer[499, 1]
                if track & 0xFF == 51 || track & 0xFF == 217 { sawBar = true }
            }
            time += 16
            Thread.sleep(forTimeInterval: 0.001)
        }
        let page = try #require(scene.currentPage)
        #expect(page.loadState == .loaded)
        #expect(states.first == .loading && states.last == .loaded, "\(states)")
        #expect(sawBar, "no frame showed the progress bar")
        // Loaded: nothing to poll for any more, and the picture fills the width (fit 0.1).
        #expect(scene.advance(to: time + 5000) == .idle || scene.needsRender)
        _ = scene.render(into: buffer.framebuffer, bufferAge: 0)
        let corner = buffer.framebuffer[2, 32]  // the image fills the window at fit 0.1
        #expect(corner >> 24 == 0xFF && (corner >> 16 & 0xFF) < 20, "\(String(corner, radix: 16))")
        // Kept at the size shown: at least a picture pixel per screen pixel of the fit.
        let shown = try #require(page.pictureView.picture)
        #expect(Double(shown.width) >= Double(shown.fullWidth) * Double(page.zoomScale * page.outputScale), "\(shown.width) of \(shown.fullWidth)")
    }

    @Test("A drawing of 24 megapixels loads without the progress bar: it is rendered at the size shown, in one step")
    func drawingWithoutProgressBar() throws {
        let folder = try TemporaryFolder()
        // 6000×4000, green all over: the bar (white over it) would show along the top edge.
        let svg = try folder.write("large.svg", Array("""
            <svg xmlns="http://www.w3.org/2000/svg" width="6000" height="4000"><rect width="6000" height="4000" fill="#20a040"/></svg>
            """.utf8))
        var options = GalleryScene.Options()
        options.loading = .background
        options.background = .color(Color(red: 0, green: 0, blue: 0, alpha: 1))
        let scene = GalleryScene(files: [svg], options: options)
        // 600×400: the drawing fits it exactly (0.1), so its top edge is the window's.
        scene.resize(width: 600, height: 400, scale: 1)
        let buffer = try #require(OwnedFramebuffer(width: 600, height: 400))
        var time = 0.0, edges: Set<UInt32> = []
        let deadline = Date().addingTimeInterval(60)
        while Date() < deadline {
            _ = scene.advance(to: time)
            let page = try #require(scene.currentPage)
            #expect(!page.isLarge, "a drawing never counts as large")
            _ = scene.render(into: buffer.framebuffer, bufferAge: 0)
            edges.insert(buffer.framebuffer[300, 1] & 0xFF_FFFF)
            if page.loadState == .loaded { break }
            time += 16
            Thread.sleep(forTimeInterval: 0.001)
        }
        #expect(scene.currentPage?.loadState == .loaded)
        // Black before the first rendition, the drawing's green after: never the bar's white.
        #expect(edges.isSubset(of: [0x000000, 0x20A040]), "\(edges.map { String($0, radix: 16) })")
        #expect(edges.contains(0x20A040))
    }

    @Test("At output scale 2 the fit and 1:1 are in device pixels, and a double tap zooms to image pixels")
    func outputScaleTwo() throws {
        let scene = GalleryScene(files: [Assets.sunset], options: .synchronous)
        // 600×400 points at scale 2: 1200×800 device pixels, the sunset's own size.
        scene.resize(width: 600, height: 400, scale: 2)
        let buffer = try #require(OwnedFramebuffer(width: 1200, height: 800))
        _ = scene.advance(to: 0)
        let page = try #require(scene.currentPage)
        #expect(page.fitScale == 0.5 && page.pixelExactScale == 0.5)
        _ = scene.render(into: buffer.framebuffer, bufferAge: 0)
        // Fit at scale 2 is exactly 1:1: every known pixel lands on its own device pixel.
        func rgb(_ x: Int, _ y: Int) -> (Int, Int, Int) {
            let p = buffer.framebuffer[x, y]
            return (Int(p >> 16 & 0xFF), Int(p >> 8 & 0xFF), Int(p & 0xFF))
        }
        #expect(rgb(0, 0) == (12, 34, 56) && rgb(15, 15) == (12, 34, 56) && rgb(1199, 799) == (250, 128, 4))
        let picture = try ImageDecoder(path: Assets.sunset).decode()
        for (x, y) in [(600, 400), (123, 456), (1000, 100)] {
            #expect(buffer.framebuffer[x, y] == picture.pixel(x: x, y: y), "(\(x), \(y))")
        }
        // The fit is 1:1 already: a double tap doubles it instead.
        for (t, kind) in [(0.0, InputEvent.Kind.touchDown(id: 0, location: CGPoint(x: 300, y: 200))), (50, .touchUp(id: 0)),
                          (150, .touchDown(id: 0, location: CGPoint(x: 300, y: 200))), (200, .touchUp(id: 0))] {
            scene.handle(InputEvent(time: t, kind: kind))
        }
        var t = 200.0
        while scene.advance(to: t) == .nextFrame { t += 16 }
        #expect(page.zoomScale == 1)
    }
}
