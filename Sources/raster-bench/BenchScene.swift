// The benchmark's view tree: a window, a clipping scroller and large opaque tiled content.
import Foundation
import Raster
import ScrollKit

/// Opaque content that draws fast (the benchmark measures compositing, not drawing).
final class StripeContent: View, TiledContent {
    var isOpaqueContent: Bool { true }
    var drawsConcurrently: Bool { true }

    func draw(_ rect: PixelRect, scale: Double, into target: Framebuffer) {
        for y in 0..<min(rect.height, target.height) {
            let row = UInt32(truncatingIfNeeded: (rect.y + y) / 8) & 0xFF
            for x in 0..<min(rect.width, target.width) {
                target[x, y] = 0xFF00_0000 | row << 16 | UInt32(truncatingIfNeeded: rect.x + x) & 0xFF
            }
        }
    }
}

/// A scroller that shows whatever indicators the benchmark sets.
final class BenchScroller: View, ScrollIndicatorSource {
    var indicators: [IndicatorAppearance] = []
    var indicatorsForDisplay: [IndicatorAppearance] { indicators }
}

/// Window → scroller (clips) → content three screens wide and tall.
struct BenchScene {
    let root: View
    let scroller: BenchScroller
    let content: StripeContent

    init(width: Int, height: Int) {
        root = View(frame: CGRect(x: 0, y: 0, width: width, height: height))
        root.backgroundColor = Color(rgb: 0x202020)
        scroller = BenchScroller(frame: root.frame)
        scroller.clipsToBounds = true
        content = StripeContent(frame: CGRect(x: 0, y: 0, width: 3 * width, height: 3 * height))
        root.addSubview(scroller)
        scroller.addSubview(content)
    }

    func zoom(_ scale: Double) {
        let size = content.bounds.size
        content.transformScale = CGFloat(scale)
        content.frame = CGRect(x: 0, y: 0, width: size.width * CGFloat(scale), height: size.height * CGFloat(scale))
    }
}
