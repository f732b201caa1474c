// Huge-JPEG benchmark: first frame and peak memory against a plain full libjpeg-turbo decode.
// A measuring tool of pictures-bench, not part of the decoding library.
import Foundation
import Pictures
import Raster

/// Benchmark of issue 7's huge-JPEG budget; prints figures, asserts nothing.
public enum PictureBenchmark {
    /// Results of one run (seconds and bytes).
    public struct Figures: Sendable, CustomStringConvertible {
        /// Pixels in the test photo.
        public var pixels = 0
        /// Encoded size, in bytes.
        public var fileBytes = 0
        /// Reading the file and tjDecompress2 of all of it to BGRA into a newly allocated
        /// buffer (its page faults included, as a viewer pays them), in seconds (best of 3).
        public var freshDecodeSeconds = 0.0
        /// tjDecompress2 of the whole file to BGRA again, into the same buffer whose pages are
        /// already mapped: libjpeg-turbo's decoding alone, in seconds (best of 3).
        public var decodeOnlySeconds = 0.0
        /// The full-decode reference: the faster of the two above, so the first-frame budget is
        /// checked against the stricter one, in seconds.
        public var fullDecodeSeconds: Double { min(freshDecodeSeconds, decodeOnlySeconds) }
        /// Peak resident memory growth during the decode into a new buffer, in bytes.
        public var fullDecodePeakBytes = 0
        /// Read + DCT-scaled preview + first 1920×1080 frame drawn from it, in seconds (best of 3).
        public var firstFrameSeconds = 0.0
        /// Full-resolution decode into YCbCr planes after the preview, in seconds.
        public var planarDecodeSeconds = 0.0
        /// Peak resident memory growth of the viewer path (preview, then planes), in bytes.
        public var viewerPeakBytes = 0
        /// Drawing a 1920×1080 viewport at 1:1 as 256-px tiles from the planes, in seconds.
        public var viewportTilesSeconds = 0.0

        /// First frame time over full decode time; the budget is at most 0.8.
        public var firstFrameRatio: Double { firstFrameSeconds / max(fullDecodeSeconds, 1e-9) }

        /// One figure per line.
        public var description: String {
            func mib(_ b: Int) -> String { String(format: "%.1f MiB", Double(b) / 1_048_576) }
            func ms(_ s: Double) -> String { String(format: "%.1f ms", s * 1000) }
            return """
            photo: \(pixels) pixels (\(String(format: "%.1f", Double(pixels) / 1e6)) MP), \(mib(fileBytes)) JPEG
            full libjpeg-turbo decode (read + tjDecompress2 → BGRA, new buffer): \(ms(freshDecodeSeconds)), \
            peak +\(mib(fullDecodePeakBytes))
            full libjpeg-turbo decode alone (tjDecompress2 → BGRA, buffer already mapped): \(ms(decodeOnlySeconds))
            first frame (read + 1/8 DCT preview + 1920×1080 draw): \(ms(firstFrameSeconds)), \
            ratio \(String(format: "%.2f", firstFrameRatio)) to the faster full decode (budget ≤ 0.80)
            full resolution into YCbCr planes: \(ms(planarDecodeSeconds))
            viewer peak (preview + planes): +\(mib(viewerPeakBytes))
            1920×1080 viewport at 1:1 from planes (256-px tiles): \(ms(viewportTilesSeconds))
            """
        }
    }

    /// A photo-like test image: smooth diagonal colour gradients with per-pixel grain, so
    /// it compresses like a real photo (about 20 MB for 100 MP at quality 90).
    public static func makePhotoJPEG(width: Int, height: Int, quality: Int = 90) throws -> [UInt8] {
        var pixels = [UInt32](repeating: 0, count: width * height)
        var noise: UInt32 = 0x1234_5678
        for y in 0..<height {
            let v = Double(y) / Double(height)
            for x in 0..<width {
                let u = Double(x) / Double(width)
                // xorshift32 (Marsaglia 2003) grain, -16…+15 levels per channel.
                noise ^= noise << 13; noise ^= noise >> 17; noise ^= noise << 5
                let g = Int(noise & 0x1F) - 16
                let base = photoColour(u: u, v: v)
                let r = base.r + g, gr = base.g + (g >> 1), b = base.b - g
                pixels[y * width + x] = 0xFF00_0000 | UInt32(clamping(r)) << 16 | UInt32(clamping(gr)) << 8 | UInt32(clamping(b))
            }
        }
        return try JPEGEncoder.encode(argb: pixels, width: width, height: height, quality: quality, subsampling: .s420)
    }

    /// The test photo's colour without grain at (`u`, `v`), the position as a fraction of
    /// its width and height (0…1): what a viewer showing it scaled down shows there, give or
    /// take the grain (at most 16 levels per channel) and JPEG's loss.
    public static func photoColour(u: Double, v: Double) -> (r: Int, g: Int, b: Int) {
        (40 + Int(180 * u), 60 + Int(120 * v), 180 - Int(120 * u * v))
    }

    private static func clamping(_ v: Int) -> UInt8 { UInt8(max(0, min(255, v))) }

    /// Runs the benchmark on a generated `width`×`height` photo written to `directory`.
    public static func run(width: Int = 12_288, height: Int = 8_192, directory: String = NSTemporaryDirectory()) throws -> Figures {
        let path = (directory as NSString).appendingPathComponent("pictures-bench-\(width)x\(height).jpg")
        try Data(makePhotoJPEG(width: width, height: height)).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        return try run(path: path)
    }

    /// Runs the benchmark on the JPEG at `path` (the photo `makePhotoJPEG` makes, or any other).
    public static func run(path: String) throws -> Figures {
        var figures = Figures()
        let header = try ImageDecoder(path: path).readHeader()
        figures.pixels = header.pixelCount
        figures.fileBytes = Int((try FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber)?.intValue ?? 0)
        let clock = ContinuousClock()
        func seconds(_ d: Duration) -> Double {
            Double(d.components.seconds) + Double(d.components.attoseconds) / 1e18
        }

        // The viewer path: read, preview, first frame, then planes for the tiles. Timings
        // are the best of `repeats` runs (the machine is shared); memory is from the first.
        let repeats = 3
        figures.firstFrameSeconds = .infinity
        figures.planarDecodeSeconds = .infinity
        figures.freshDecodeSeconds = .infinity
        figures.decodeOnlySeconds = .infinity
        let screen = OwnedFramebuffer(width: 1920, height: 1080)!
        let tiles = OwnedFramebuffer(width: 256, height: 256)!
        for run in 0..<repeats {
            ResidentMemory.resetPeak()
            let base = ResidentMemory.current()
            var decoder: ImageDecoder?
            let firstFrame = try clock.measure {
                let d = try ImageDecoder(path: path)
                let preview = try d.decodePreview(maxPixels: 1920 * 1080)
                let fit = min(1920 / Double(preview.width), 1080 / Double(preview.height))
                preview.drawTile(PixelRect(x: 0, y: 0, width: 1920, height: 1080), scale: fit, into: screen.framebuffer)
                decoder = d
            }
            figures.firstFrameSeconds = min(figures.firstFrameSeconds, seconds(firstFrame))
            var picture: Picture?
            figures.planarDecodeSeconds = min(figures.planarDecodeSeconds, seconds(try clock.measure {
                picture = try decoder?.decode(storage: .planar)
            }))
            let viewport = seconds(clock.measure {
                for ty in stride(from: 0, to: 1080, by: 256) {
                    for tx in stride(from: 0, to: 1920, by: 256) {
                        picture?.drawTile(PixelRect(x: 4000 + tx, y: 3000 + ty, width: 256, height: 256),
                                          into: tiles.framebuffer)
                    }
                }
            })
            figures.viewportTilesSeconds = run == 0 ? viewport : min(figures.viewportTilesSeconds, viewport)
            if run == 0 { figures.viewerPeakBytes = ResidentMemory.peak() - base }
            picture = nil
            decoder = nil

            // The reference: one plain full decode to BGRA, as a conventional viewer does
            // (malloc, no clearing, tjDecompress2), then the decode alone into the same buffer.
            ResidentMemory.resetPeak()
            let referenceBase = ResidentMemory.current()
            var reference: ReferenceDecode?
            let fresh = try clock.measure { reference = try ReferenceDecode(path: path) }
            figures.freshDecodeSeconds = min(figures.freshDecodeSeconds, seconds(fresh))
            if run == 0 { figures.fullDecodePeakBytes = ResidentMemory.peak() - referenceBase }
            if let reference {
                let again = try clock.measure { try reference.decodeAgain() }
                figures.decodeOnlySeconds = min(figures.decodeOnlySeconds, seconds(again))
            }
            reference = nil
        }
        return figures
    }
}

/// Resident-set figures of this process from /proc (Linux).
enum ResidentMemory {
    /// VmRSS, in bytes.
    static func current() -> Int { field("VmRSS:") }
    /// VmHWM (peak RSS since start or the last reset), in bytes.
    static func peak() -> Int { field("VmHWM:") }
    /// Resets VmHWM to the current RSS ("5" to clear_refs, Linux 4.0+).
    static func resetPeak() {
        try? "5".write(toFile: "/proc/self/clear_refs", atomically: false, encoding: .utf8)
    }

    private static func field(_ name: String) -> Int {
        guard let text = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return 0 }
        for line in text.split(separator: "\n") where line.hasPrefix(name) {
            let parts = line.split(separator: " ", omittingEmptySubsequences: true)
            if parts.count >= 2, let kib = Int(parts[1]) { return kib * 1024 }
        }
        return 0
    }
}
