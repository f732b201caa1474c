// Where a window puts a still frame's picture in points, and how large the buffer of its
// background is, without a compositor.
import Raster
import Testing
@testable import Wayland

@Suite("Still frames in the window")
struct StillPlacementTests {
    @Test("A picture lands on whole points: at scale 1 anywhere inside the frame, at 2 on even pixels, at 1.5 where 120ths divide")
    func placement() {
        let rect = PixelRect(x: 150, y: 0, width: 1620, height: 1080)
        #expect(StillPlacement.of(rect, scale: .integer(1), frameWidth: 1920, frameHeight: 1080)
                == StillPlacement(x: 150, y: 0, size: SurfaceSize(width: 1620, height: 1080)))
        #expect(StillPlacement.of(rect, scale: .integer(2), frameWidth: 1920, frameHeight: 1080)
                == StillPlacement(x: 75, y: 0, size: SurfaceSize(width: 810, height: 540)))
        #expect(StillPlacement.of(PixelRect(x: 151, y: 0, width: 1620, height: 1080), scale: .integer(2), frameWidth: 1920,
                                  frameHeight: 1080) == nil, "x 75.5 points")
        // 1.5 (180/120): 150 px = 100 pt, 1620 px = 1080 pt; 151 px is 100.67 pt.
        #expect(StillPlacement.of(rect, scale: .fractional(180), frameWidth: 1920, frameHeight: 1080)
                == StillPlacement(x: 100, y: 0, size: SurfaceSize(width: 1080, height: 720)))
        #expect(StillPlacement.of(PixelRect(x: 151, y: 0, width: 1620, height: 1080), scale: .fractional(180), frameWidth: 1920,
                                  frameHeight: 1080) == nil)
    }

    @Test("Nothing outside the frame or empty: a subsurface past the window would widen it")
    func outside() {
        for rect in [PixelRect(x: 400, y: 0, width: 1620, height: 1080), PixelRect(x: -1, y: 0, width: 100, height: 100),
                     PixelRect(x: 0, y: 1000, width: 100, height: 81), PixelRect(x: 0, y: 0, width: 0, height: 10)] {
            #expect(StillPlacement.of(rect, scale: .integer(1), frameWidth: 1920, frameHeight: 1080) == nil, "\(rect)")
        }
    }

    @Test("The background buffer grows with the square of the frame's sides, so that 16.16 scaling never reaches past its last pixel")
    func backgroundSize() {
        #expect(StillBackground.size(width: 1920, height: 1080) == (113, 36))
        #expect(StillBackground.size(width: 3840, height: 2160) == (450, 143))
        #expect(StillBackground.size(width: 64, height: 1) == (1, 1))
        #expect(StillBackground.size(width: 16384, height: 16384) == (8192, 8192))
        // For every side up to 16384: a 16.16 scale of n/side, rounded either way, maps the last
        // destination pixel's centre inside the buffer (the pixman renderer's sampling).
        for side in [1, 17, 600, 1080, 1081, 2160, 4321, 9999, 16384] {
            let n = StillBackground.size(width: side, height: side).width
            let fixed = (Double(n) / Double(side) * 65536).rounded(.up) / 65536
            #expect((Double(side) - 0.5) * fixed < Double(n), "side \(side): \(n) pixels")
        }
    }
}
