// The grid tiled content is cut into: which cells a rect covers, which tiles of a source level
// a resampled rect reads, and content pixels resampled out of those tiles. Geometry shared by
// every stage of the renderer; pure apart from the target pixels `resample` writes.
import Foundation

/// Tile geometry and resampling from tiles.
enum TileGrid {
    /// Tile edge in device pixels: 256 (issue 6), confirmed by raster-bench: one-core 1080p
    /// composition took 1.42× memcpy with 128-pixel tiles (more, shorter row copies), 1.11× with
    /// 256 and 1.14× with 512, whose tiles also draw four times the pixels past the visible edge.
    static let size = 256

    /// The content pixels tile `key` covers.
    static func rect(of key: TileKey) -> PixelRect {
        PixelRect(x: key.column * size, y: key.row * size, width: size, height: size)
    }

    /// Keys of the grid cells at `scale` that intersect `rect` (content pixels), row by row.
    static func cells(of rect: PixelRect, view: UInt64, scale: Double) -> [TileKey] {
        guard !rect.isEmpty else { return [] }
        var keys: [TileKey] = []
        for row in floorDiv(rect.y, size)...floorDiv(rect.maxY - 1, size) {
            for column in floorDiv(rect.x, size)...floorDiv(rect.maxX - 1, size) {
                keys.append(TileKey(view: view, scale: scale, column: column, row: row))
            }
        }
        return keys
    }

    /// The axes mapping content pixels at `p.scale` onto pixels of `p`'s source level.
    static func axes(_ p: ContentPlacement) -> (x: ResampleAxis, y: ResampleAxis)? {
        let step = p.sourceScale / p.scale
        guard let x = ResampleAxis(step: step, lower: p.sourceExtent.x, upper: p.sourceExtent.maxX),
              let y = ResampleAxis(step: step, lower: p.sourceExtent.y, upper: p.sourceExtent.maxY) else { return nil }
        return (x, y)
    }

    /// The filter for resampling `p`: bilinear when enlarging, box when shrinking. While a zoom
    /// is under way the provisional frames use bilinear both ways: it reads two source pixels
    /// per axis instead of three, and a shrink by at most half (`LevelPolicy.placementMode`)
    /// does not alias enough to show in frames that are replaced when the zoom settles.
    static func filter(_ p: ContentPlacement) -> ResampleFilter {
        p.scale > p.sourceScale || p.transient ? .bilinear : .box
    }

    /// The source pixels that content pixels `rect` (at `p.scale`) are resampled from.
    static func sourceRect(_ p: ContentPlacement, for rect: PixelRect) -> PixelRect {
        guard !rect.isEmpty, let (ax, ay) = axes(p) else { return .zero }
        let bilinear = filter(p) == .bilinear
        let xs = ax.sourceRange(for: rect.x..<rect.maxX, bilinear: bilinear)
        let ys = ay.sourceRange(for: rect.y..<rect.maxY, bilinear: bilinear)
        return PixelRect(x: xs.lowerBound, y: ys.lowerBound, width: xs.count, height: ys.count)
    }

    /// Keys of the source-level tiles that content pixels `rect` (at `p.scale`) are resampled from.
    static func sourceKeys(_ p: ContentPlacement, for rect: PixelRect) -> [TileKey] {
        cells(of: sourceRect(p, for: rect), view: p.view, scale: p.sourceScale)
    }

    /// Output rows whose sources are gathered at once, bounding the memory they take.
    static let gatherBand = 64

    /// Resamples content pixels `output` of `p` from its source tiles into `target` at `at`,
    /// writing (`blend` false) or drawing over (`blend` true); the sources are gathered into
    /// `scratch` when one is given, `gatherBand` rows at a time.
    static func resample(_ p: ContentPlacement, output: PixelRect, sources: [TileKey: Tile], into target: Framebuffer,
                         at: (x: Int, y: Int), blend: Bool, scratch: ScratchPixels? = nil) {
        guard !output.isEmpty, let (ax, ay) = axes(p) else { return }
        let src = sourceRect(p, for: output)
        guard !src.isEmpty else { return }
        let keys = cells(of: src, view: p.view, scale: p.sourceScale)
        // Every pixel is copied from a tile when all are there: no need to clear them first
        // (a frame of a zoom gathers about as many pixels as it shows).
        let complete = keys.allSatisfy { sources[$0] != nil }
        if complete, !blend || scratch != nil, filter(p) == .bilinear, ax.upper - ax.lower >= 2 {
            // Zoom frames and stand-ins: straight from the tiles, nothing gathered (copying
            // the sources took about a quarter of a zoom frame, perf).
            // The tiles as a grid, looked up once (hashing keys per row and run cost ~10%).
            let c0 = floorDiv(src.x, size), r0 = floorDiv(src.y, size)
            let columns = floorDiv(src.maxX - 1, size) - c0 + 1
            let grid = keys.sorted { ($0.row, $0.column) < ($1.row, $1.column) }.map { sources[$0]!.framebuffer }
            func bilinear(_ part: PixelRect, into out: Framebuffer, at: (x: Int, y: Int)) {
                withExtendedLifetime(sources) {
                    Resampler.bilinear(tiles: { column, row in grid[(row - r0) * columns + (column - c0)] },
                                       tileSize: size, xAxis: ax, yAxis: ay, output: part, into: out, at: at)
                }
            }
            guard blend, let scratch else {
                bilinear(output, into: target, at: at)
                return
            }
            // Content that is not opaque (a picture's reduction, which may fall short of its
            // bounds by a rounding), painted from its level in every frame of a slide: each band
            // resampled into the scratch memory and drawn over. Gathering its sources and
            // resampling them into a band made anew took 8–9 ms a frame at 1920×1080.
            var y = output.y
            while y < output.maxY {
                let band = PixelRect(x: output.x, y: y, width: output.width, height: min(gatherBand, output.maxY - y))
                guard let out = scratch.framebuffer(width: band.width, height: band.height) else { return }
                bilinear(band, into: out, at: (0, 0))
                target.blend(from: out, sourceRect: out.bounds, to: (at.x, at.y + y - output.y))
                y += band.height
            }
            return
        }
        if output.height > gatherBand {
            // One band at a time. (Straight from the tiles, above, a whole piece is one call: its
            // taps are worked out per call, and a 4K pinch frame took 18–19 ms of one core in
            // 64-row bands, 16–17 ms in one.)
            var y = output.y
            while y < output.maxY {
                let h = min(gatherBand, output.maxY - y)
                resample(p, output: PixelRect(x: output.x, y: y, width: output.width, height: h), sources: sources,
                         into: target, at: (at.x, at.y + y - output.y), blend: blend, scratch: scratch)
                y += h
            }
            return
        }
        let owned = complete && scratch != nil ? nil
            : complete ? OwnedFramebuffer(uninitializedWidth: src.width, height: src.height)
            : OwnedFramebuffer(width: src.width, height: src.height)
        guard let g = owned?.framebuffer ?? scratch?.framebuffer(width: src.width, height: src.height) else { return }
        withExtendedLifetime(owned) {
            for key in keys {
                guard let tile = sources[key] else { continue }
                let cell = rect(of: key)
                let part = cell.intersection(src)
                withExtendedLifetime(tile) {
                    g.copy(from: tile.framebuffer, sourceRect: part.offsetBy(dx: -cell.x, dy: -cell.y),
                           to: (part.x - src.x, part.y - src.y))
                }
            }
            // The gathered source is exactly `sourceRect`, so a refusal is a renderer bug.
            do throws(ResampleError) {
                if blend {
                    guard let out = OwnedFramebuffer(width: output.width, height: output.height) else { return }
                    try out.withFramebuffer { o throws(ResampleError) in
                        try Resampler.resample(filter(p), source: g, sourceOrigin: (src.x, src.y), xAxis: ax, yAxis: ay,
                                               output: output, into: o, at: (0, 0))
                        target.blend(from: o, sourceRect: o.bounds, to: at)
                    }
                } else {
                    try Resampler.resample(filter(p), source: g, sourceOrigin: (src.x, src.y), xAxis: ax, yAxis: ay,
                                           output: output, into: target, at: at)
                }
            } catch {
                assertionFailure("\(error)")
            }
        }
    }
}

/// Floor division (rounds toward −∞, unlike `/`).
@inline(__always)
func floorDiv(_ a: Int, _ b: Int) -> Int {
    let q = a / b
    return (a % b != 0 && (a < 0) != (b < 0)) ? q - 1 : q
}
