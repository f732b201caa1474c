// Example: one photo fitted to the window, zoomed with a pinch, Ctrl+wheel or a double tap.
// Usage: zoomable-photo [PICTURE] (default: the bundled city photo, from the repository's root).
import Foundation
import Host
import Pictures
import Raster
import ScrollKit
import Wayland

/// A decoded picture as tiled content: its bounds are the picture's pixels, and the renderer
/// asks it for the tiles it shows, at the scale it shows them.
final class PhotoView: View, TiledContent {
    let picture: Picture

    init(picture: Picture) {
        self.picture = picture
        super.init(frame: CGRect(x: 0, y: 0, width: picture.width, height: picture.height))
    }

    func draw(_ rect: PixelRect, scale: Double, into target: Framebuffer) {
        picture.drawTile(rect, scale: scale, into: target)
    }

    var isOpaqueContent: Bool { picture.isOpaque }

    // A Picture is immutable and Sendable, so tiles can be drawn on both cores and ahead of need.
    var drawsConcurrently: Bool { true }

    func concurrentDrawing() -> TileDrawing? {
        let picture = self.picture
        return TileDrawing { rect, scale, target in picture.drawTile(rect, scale: scale, into: target) }
    }
}

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("zoomable-photo: \(message)\n".utf8))
    exit(1)
}

let path = CommandLine.arguments.count > 1 ? CommandLine.arguments[1] : "Assets/04-city-4000x3000.jpg"
let picture: Picture
do {
    picture = try ImageDecoder(path: path).decode()
} catch {
    fail("\(path): \(error)")
}

let root = View()
root.backgroundColor = .black
let photo = PhotoView(picture: picture)
// Fits and centres the photo, zooms from the fit up to four times its detail, and zooms to
// the detail and back with a double tap.
let zoomingView = ZoomingScrollView(zoomedView: photo)
root.addSubview(zoomingView)

let scene = ViewScene(root: root)
scene.onLayout = { size in
    zoomingView.frame = CGRect(origin: .zero, size: size)
    // One picture pixel per device pixel at "detail", whatever the output's scale.
    zoomingView.detailScale = 1 / scene.renderer.outputScale
    zoomingView.zoomedContentSize = CGSize(width: picture.width, height: picture.height)
    zoomingView.layoutZoom()
}

do {
    let app = try Application(scene: scene, title: "Zoomable photo", appID: "org.scrollkit.ZoomablePhoto")
    try app.run()
} catch {
    fail("\(error)")
}
