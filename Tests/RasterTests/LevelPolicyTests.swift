// The level policy on its own: which level a scale settles on, how a frame places content
// during and after a zoom, and which cached level stands in for a missing sharp tile.
import Foundation
@testable import Raster
import Testing

@Suite("Level policy")
struct LevelPolicyTests {
    /// One step of a view's zoom: its history before, the scale shown, and what the policy must
    /// decide and remember.
    struct Step: Sendable, CustomTestStringConvertible {
        var name: String
        var before: ZoomHistory
        var scale: Double
        var outputScale = 1.0
        var mode: PlacementMode
        var after: ZoomHistory
        var testDescription: String { name }
    }

    static let steps: [Step] = [
        Step(name: "first frame at the output scale: drawn at it, levels −1 and −2 (scales ½ and ¼) may stand in",
             before: ZoomHistory(), scale: 1,
             mode: PlacementMode(level: nil, transient: false, standIns: [-1, -2], zooming: false),
             after: ZoomHistory(lastScale: 1, level: 0, zoomLevel: nil)),
        Step(name: "settled at 1.7: resampled from the nearest level, 1 (scale 2); levels 0 and −1 stand in",
             before: ZoomHistory(lastScale: 1.7, level: 1, zoomLevel: nil), scale: 1.7,
             mode: PlacementMode(level: 1, transient: false, standIns: [0, -1], zooming: false),
             after: ZoomHistory(lastScale: 1.7, level: 1, zoomLevel: nil)),
        Step(name: "a pinch from 1 to 1.25: level 0's tiles are scaled, afresh each frame; coarser levels stand in for missing ones",
             before: ZoomHistory(lastScale: 1, level: 0, zoomLevel: nil), scale: 1.25,
             mode: PlacementMode(level: 0, transient: true, standIns: [-1, -2], zooming: true),
             after: ZoomHistory(lastScale: 1.25, level: 0, zoomLevel: 0)),
        Step(name: "a pinch to just under twice the settled level still scales that level",
             before: ZoomHistory(lastScale: 1.8, level: 0, zoomLevel: 0), scale: 1.99,
             mode: PlacementMode(level: 0, transient: true, standIns: [-1, -2], zooming: true),
             after: ZoomHistory(lastScale: 1.99, level: 0, zoomLevel: 0)),
        Step(name: "a pinch onto exactly twice the settled level draws level 1 directly, the zoom's level standing in",
             before: ZoomHistory(lastScale: 1.8, level: 0, zoomLevel: 0), scale: 2,
             mode: PlacementMode(level: nil, transient: false, standIns: [0, -1], zooming: true),
             after: ZoomHistory(lastScale: 2, level: 0, zoomLevel: 0)),
        Step(name: "a pinch past twice the settled level switches to the nearest level, the settled one standing in",
             before: ZoomHistory(lastScale: 2, level: 0, zoomLevel: 0), scale: 2.5,
             mode: PlacementMode(level: 1, transient: true, standIns: [0, -1], zooming: true),
             after: ZoomHistory(lastScale: 2.5, level: 0, zoomLevel: 1)),
        Step(name: "a pinch back onto the settled level draws it directly, coarser levels standing in",
             before: ZoomHistory(lastScale: 1.3, level: 0, zoomLevel: 0), scale: 1,
             mode: PlacementMode(level: nil, transient: false, standIns: [-1, -2], zooming: true),
             after: ZoomHistory(lastScale: 1, level: 0, zoomLevel: 0)),
        Step(name: "a zoom out of settled level 1 ending exactly at 1 draws level 0 directly, not level 1 halved",
             before: ZoomHistory(lastScale: 1.41, level: 1, zoomLevel: 1), scale: 1,
             mode: PlacementMode(level: nil, transient: false, standIns: [1, -1, -2], zooming: true),
             after: ZoomHistory(lastScale: 1, level: 1, zoomLevel: 1)),
        Step(name: "the pinch holds at 1.7: settles on level 1, the zoom's level 0 stands in first",
             before: ZoomHistory(lastScale: 1.7, level: 0, zoomLevel: 0), scale: 1.7,
             mode: PlacementMode(level: 1, transient: false, standIns: [0, -1], zooming: false),
             after: ZoomHistory(lastScale: 1.7, level: 1, zoomLevel: 0)),
        Step(name: "fractional output scale 1.5, unzoomed: drawn at 1.5 itself",
             before: ZoomHistory(), scale: 1.5, outputScale: 1.5,
             mode: PlacementMode(level: nil, transient: false, standIns: [0, -1], zooming: false),
             after: ZoomHistory(lastScale: 1.5, level: 1, zoomLevel: nil)),
        Step(name: "far beyond the levels: clamped to level 16, stand-ins inside the range only",
             before: ZoomHistory(), scale: 0x1p20,
             mode: PlacementMode(level: 16, transient: false, standIns: [15, 14], zooming: false),
             after: ZoomHistory(lastScale: 0x1p20, level: 16, zoomLevel: nil)),
        Step(name: "at the lowest level the coarser stand-ins do not exist",
             before: ZoomHistory(), scale: 0x1p-16,
             mode: PlacementMode(level: nil, transient: false, standIns: [], zooming: false),
             after: ZoomHistory(lastScale: 0x1p-16, level: -16, zoomLevel: nil)),
    ]

    @Test("Placement modes through a zoom", arguments: steps)
    func placementMode(step: Step) {
        var history = step.before
        let mode = LevelPolicy.placementMode(scale: step.scale, outputScale: step.outputScale, history: &history)
        #expect(mode == step.mode)
        #expect(history == step.after)
    }

    @Test("A whole pinch, frame by frame: scaled while it moves, sharp once it holds")
    func pinchSequence() {
        var history = ZoomHistory()
        var modes: [PlacementMode] = []
        for scale in [1.0, 1.2, 1.6, 2.1, 2.4, 2.4] {
            modes.append(LevelPolicy.placementMode(scale: scale, outputScale: 1, history: &history))
        }
        #expect(modes.map(\.level) == [nil, 0, 0, 1, 1, 1])
        #expect(modes.map(\.transient) == [false, true, true, true, true, false])
        #expect(modes.map(\.zooming) == [false, true, true, true, true, false])
        #expect(modes.last?.standIns == [1, 0, -1], "the level the zoom showed, then the two below the settled one")
    }

    @Test("Off screen a changed scale counts as settled: no zoom, no stand-in history")
    func offscreen() {
        var history = ZoomHistory(lastScale: 1, level: 0, zoomLevel: nil)
        #expect(LevelPolicy.offscreenLevel(scale: 1.7, outputScale: 1, history: &history) == 1)
        #expect(history == ZoomHistory(lastScale: 1.7, level: 1, zoomLevel: nil))
        #expect(LevelPolicy.offscreenLevel(scale: 2, outputScale: 1, history: &history) == nil, "a level is drawn directly")
        #expect(LevelPolicy.offscreenLevel(scale: 1.5, outputScale: 1.5, history: &history) == nil, "so is the output scale")
        // Back on screen at the same scale: nothing is under way.
        #expect(!LevelPolicy.placementMode(scale: 1.5, outputScale: 1.5, history: &history).zooming)
    }

    @Test("Settled levels, drawn scales and the drawable range")
    func scales() {
        #expect([0.7, 0.75, 1, 1.41, 1.42, 3, 0x1p30].map(LevelPolicy.settledLevel) == [-1, 0, 0, 0, 1, 2, 16])
        #expect(LevelPolicy.drawnScale(ofTile: 1.5, outputScale: 1.5) == 1.5, "the output scale is drawn directly")
        #expect(LevelPolicy.drawnScale(ofTile: 1.5, outputScale: 1) == 2, "other scales come from their nearest level")
        #expect(LevelPolicy.drawnScale(ofTile: 0.75, outputScale: 1) == 1)
        #expect(LevelPolicy.drawableScales.contains(0x1p-16) && LevelPolicy.drawableScales.contains(0x1p16 * 1.4))
        #expect(!LevelPolicy.drawableScales.contains(0x1p-17) && !LevelPolicy.drawableScales.contains(0x1p17))
    }

    @Test("Stand-in choice: the first level whose tiles under the cell are all cached")
    func standIn() {
        // Content at 1.6 (settled, resampled from level 1) with levels 0 and −1 as stand-ins.
        let p = ContentPlacement(view: 7, scale: 1.6, originX: 0, originY: 0,
                                 extent: PixelRect(x: 0, y: 0, width: 1600, height: 1600), sourceLevel: 1, transient: false,
                                 opaque: true, sourceExtent: PixelRect(x: 0, y: 0, width: 2000, height: 2000),
                                 standInLevels: [StandInLevel(level: 0, extent: PixelRect(x: 0, y: 0, width: 1000, height: 1000)),
                                                 StandInLevel(level: -1, extent: PixelRect(x: 0, y: 0, width: 500, height: 500))])
        // Cell (1, 1) at 1.6 covers content pixels 256…512, points 160…320: level-0 tiles 0 and 1
        // of both axes (the bilinear filter reaches one pixel beyond), level −1's tile 0.
        let cell = PixelRect(x: 256, y: 256, width: 256, height: 256)
        var asked: [TileKey] = []
        func cached(_ keys: Set<TileKey>) -> (TileKey) -> Bool {
            { key in asked.append(key); return keys.contains(key) }
        }
        let level0 = Set([0, 1].flatMap { c in [0, 1].map { r in TileKey(view: 7, scale: 1, column: c, row: r) } })
        let levelHalf = TileKey(view: 7, scale: 0.5, column: 0, row: 0)
        #expect(LevelPolicy.standIn(for: cell, p, isCached: cached(level0)) == 0)
        #expect(LevelPolicy.standIn(for: cell, p, isCached: cached([levelHalf])) == -1)
        #expect(LevelPolicy.standIn(for: cell, p, isCached: cached(level0.subtracting([TileKey(view: 7, scale: 1, column: 1, row: 1)])
                                                                      .union([levelHalf]))) == -1,
                "one missing level-0 tile rules level 0 out")
        asked.removeAll()
        #expect(LevelPolicy.standIn(for: cell, p, isCached: cached([])) == nil)
        #expect(asked == [TileKey(view: 7, scale: 1, column: 0, row: 0), levelHalf], "asking stops at the first missing tile")
        // A stand-in level at the content's own scale is no stand-in.
        var atOwnScale = p
        atOwnScale.scale = 1
        #expect(LevelPolicy.standIn(for: cell, atOwnScale, isCached: { _ in true }) == -1)
    }
}
