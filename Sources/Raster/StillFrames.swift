// Whether the frame the renderer would draw now is a still one (`StillFrame`): one colour with
// at most one picture whose pixels another process can map, which a host can have the
// compositor put together instead of drawing it into a window-size buffer.
import ScrollKit

extension Renderer {
    /// The frame `render` would draw of `root` into a `width`×`height` target, as a still frame
    /// when it is one; nil when it has anything else: a second picture, text, a pattern not
    /// hidden under an opaque picture, an indicator, a fill of another colour, or a picture
    /// whose pixels are not shared (`SharedPixelFile`) or are not shown as they are (a drawing
    /// between the scales it is rendered at) or enlarged from a quick rendition of itself.
    /// Walks the tree without taking its changes, and draws nothing.
    public func stillFrame(of root: View, width: Int, height: Int) -> StillFrame? {
        let target = PixelRect(x: 0, y: 0, width: width, height: height)
        guard width > 0, height > 0, clearColor >> 24 == 0xFF else { return nil }
        let walk = ViewWalk.walk(root, target: target, outputScale: outputScale, clearColor: clearColor, registry: registry,
                                 takesChanges: false)
        var background = clearColor
        var picture: (pixels: any SharedPixelFile, rect: PixelRect)?
        // Patterns where the picture must be, opaque, to hide them.
        var hidden: [PixelRect] = []
        for entry in walk.entries {
            switch entry {
            case .item(let item):
                switch item.kind {
                case .fill(let colour) where colour == background:
                    // Over the picture, only beside it (a page after it in the pager).
                    if let picture, picture.rect.intersects(item.bounds) { return nil }
                case .fill(let colour) where picture == nil && item.opaque && item.bounds.contains(target):
                    background = colour
                    hidden = []
                case .checker where picture == nil:
                    hidden.append(item.bounds)
                default:
                    return nil
                }
            case .content(let sighting):
                guard picture == nil, let shown = Self.shownPixels(sighting) else { return nil }
                picture = shown
            }
        }
        guard let picture else {
            return hidden.isEmpty ? StillFrame(background: background, picture: nil, rect: .zero) : nil
        }
        // Translucent pixels show as over black (XRGB): only over a black background, with no
        // pattern under them; an opaque picture hides the patterns it covers.
        if !picture.pixels.isOpaque {
            guard background & 0xFF_FFFF == 0, hidden.isEmpty else { return nil }
        } else {
            guard hidden.allSatisfy({ picture.rect.contains($0) }) else { return nil }
        }
        guard target.contains(picture.rect) else { return nil }
        return StillFrame(background: background, picture: picture.pixels, rect: picture.rect)
    }

    /// The shared pixels content shows and where, when the renderer shows exactly them: a
    /// drawing rendered whole at the scale shown, pixel for pixel, or its quick rendition (the
    /// level it paints enlarged), unclipped.
    private static func shownPixels(_ sighting: ContentSighting) -> (pixels: any SharedPixelFile, rect: PixelRect)? {
        let content = sighting.content, extent = sighting.extent
        let rect = extent.offsetBy(dx: sighting.originX, dy: sighting.originY)
        guard sighting.visible == rect, extent.x == 0, extent.y == 0 else { return nil }
        if let level = content.provisionalLevel {
            guard let stored = content.storedPixels(scale: LevelPolicy.levelScale(level)), let file = stored.sharedFile else { return nil }
            return (file, rect)
        }
        guard content.drawsAtAnyScale, let stored = content.storedPixels(scale: sighting.scale), let file = stored.sharedFile,
              file.width == extent.width, file.height == extent.height else { return nil }
        return (file, rect)
    }
}
