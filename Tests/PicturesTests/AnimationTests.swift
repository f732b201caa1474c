// Animations one frame at a time, and multi-page files page by page: the API the viewer's
// playback and page keys will use.
import Dispatch
import Foundation
import Raster
import Testing
import TestSupport
@testable import Pictures

@Suite("Animations and pages")
struct AnimationTests {
    static func corpusFile(_ name: String) throws -> ImageDecoder {
        let (folder, _) = try GeneratedCorpus.generated.get()
        return try ImageDecoder(path: folder.appendingPathComponent(name).path)
    }

    static func frames(_ animation: AnimationDecoder) throws -> [AnimationFrame] {
        var frames: [AnimationFrame] = []
        while let frame = try animation.next() { frames.append(frame) }
        return frames
    }

    @Test("a GIF plays its frames in order, ends, and plays again after reset")
    func gifLoop() throws {
        let animation = try AnimationDecoder(decoder: try Self.corpusFile("gif-animated.gif"))
        #expect(animation.format == .gif && animation.frameCount == 4 && animation.loopCount == 0)
        #expect(animation.width == 40 && animation.height == 30)
        let first = try Self.frames(animation)
        #expect(first.map(\.index) == [0, 1, 2, 3])
        #expect(first.allSatisfy { !$0.picture.isOpaque }, "its frames have transparent pixels")
        #expect(try animation.next() == nil)
        animation.reset()
        let again = try Self.frames(animation)
        #expect(again.map(\.index) == [0, 1, 2, 3])
        for (a, b) in zip(first, again) { #expect(a.picture.render()!.pixels == b.picture.render()!.pixels) }
        // Each frame is its own picture: decoding the next leaves the earlier one unchanged.
        #expect(first[0].picture.render()!.pixels != first[1].picture.render()!.pixels)
        #expect(first[0].picture.render()!.pixels == again[0].picture.render()!.pixels)
    }

    @Test("a GIF's NETSCAPE2.0 count is repetitions after the first play, as browsers read it", arguments: [
        (nil, 1), (0, 0), (1, 2), (4, 5), (65535, 65536),
    ] as [(Int?, Int)])
    func gifLoopCount(repetitions: Int?, plays: Int) throws {
        // Two 1×1 frames (GIF89a §18–23), with the application block when `repetitions` is given.
        var gif: [UInt8] = Array("GIF89a".utf8) + [1, 0, 1, 0, 0x80, 0, 0] + [0, 0, 0, 255, 255, 255]
        if let repetitions {
            gif += [0x21, 0xFF, 11] + Array("NETSCAPE2.0".utf8) + [3, 1, UInt8(repetitions & 0xFF), UInt8(repetitions >> 8), 0]
        }
        for index: UInt8 in [0, 1] {
            gif += [0x21, 0xF9, 4, 0, 10, 0, 0, 0]
            gif += [0x2C, 0, 0, 0, 0, 1, 0, 1, 0, 0, 2, 2, 0x44 | index << 3, 0x01, 0]
        }
        gif += [0x3B]
        let animation = try AnimationDecoder(decoder: ImageDecoder(data: gif, file: "loops.gif"))
        #expect(animation.frameCount == 2 && animation.loopCount == plays)
        // Frames covering the canvas without a transparent colour are opaque pictures.
        #expect(try animation.next()?.picture.isOpaque == true)
    }

    @Test("a WebP animation gives its loop count and frame delays")
    func webp() throws {
        let animation = try AnimationDecoder(decoder: try Self.corpusFile("webp-animated.webp"))
        #expect(animation.format == .webp && animation.frameCount == 4 && animation.loopCount == 3)
        #expect(try Self.frames(animation).map(\.delayMs) == [100, 40, 250, 70])
    }

    @Test("delays of 10 ms or less show for 100 ms, as browsers do")
    func delays() {
        #expect([0, 1, 10, 11, 20, 1000].map(AnimationDecoder.displayDelay) == [100, 100, 100, 11, 20, 1000])
    }

    @Test("a still picture is no animation; a still GIF is one of a single frame")
    func stills() throws {
        let png = PNGWriter(width: 3, height: 2, colorType: 2).encode { _, _ in [1, 2, 3] }
        #expect(throws: PictureError(file: "s.png", kind: .unsupportedVariant(.png, "not an animation"))) {
            try AnimationDecoder(decoder: ImageDecoder(data: png, file: "s.png"))
        }
        let still = try AnimationDecoder(decoder: try Self.corpusFile("gif-still.gif"))
        #expect(still.frameCount == 1)
        #expect(try Self.frames(still).count == 1)
    }

    @Test("a GIF cut inside its third frame plays two frames whole, then the damaged third, then ends")
    func damagedGIF() throws {
        let (folder, _) = try GeneratedCorpus.generated.get()
        let bytes = [UInt8](try Data(contentsOf: folder.appendingPathComponent("gif-animated.gif")))
        // Frame 3 starts after the third image descriptor; cut 60 bytes into its data.
        let descriptors = bytes.indices.filter { bytes[$0] == 0x2C && $0 > 800 }
        let third = try #require(descriptors.dropFirst(2).first)
        let animation = try AnimationDecoder(decoder: ImageDecoder(data: Array(bytes.prefix(third + 70)), file: "cut.gif"))
        let frames = try Self.frames(animation)
        #expect(frames.count == 3)
        #expect(frames.prefix(2).allSatisfy { $0.picture.damage == nil })
        #expect(frames.last?.picture.damage?.error.kind == .truncated)
    }

    @Test("frames can be taken from a background queue while another thread holds the last one")
    func background() async throws {
        let animation = try AnimationDecoder(decoder: try Self.corpusFile("webp-animated.webp"))
        let count = await withCheckedContinuation { (done: CheckedContinuation<Int, Never>) in
            DispatchQueue.global().async {
                var n = 0
                while (try? animation.next()).flatMap({ $0 }) != nil { n += 1 }
                done.resume(returning: n)
            }
        }
        #expect(count == 4)
    }

    @Test("TIFF pages and HEIF images: counts, sizes per page, and a clear error past the last")
    func pages() throws {
        let tiff = try Self.corpusFile("tiff-pages.tif")
        #expect(try tiff.readHeader().pageCount == 3)
        let second = try tiff.readHeader(page: 1)
        #expect(second.width == 32 && second.height == 40 && second.page == 1)
        #expect(try tiff.decode(page: 2).width == 20)
        #expect(throws: PictureError(file: "tiff-pages.tif", kind: .noSuchPage(page: 3, count: 3))) { try tiff.decode(page: 3) }
        #expect(PictureError(file: "a.tif", kind: .noSuchPage(page: 3, count: 3)).reason == "no page 4: the file has 3 pages")
        let heif = try Self.corpusFile("heif-two-images.heic")
        #expect(try heif.readHeader().pageCount == 2)
        #expect(try heif.decode(page: 1).width == 40)
        #expect(throws: PictureError.self) { try heif.decode(page: 2) }
        // Single-page formats have page 0 only.
        #expect(throws: PictureError(file: "gif-still.gif", kind: .noSuchPage(page: 1, count: 1))) {
            try Self.corpusFile("gif-still.gif").decode(page: 1)
        }
    }

    @Test("APNG: Debian 12's libpng 1.6.39 has no APNG support, so the default image shows, as one frame")
    func apng() throws {
        // acTL says 2 frames; the IDAT default image is red, the fdAT frame green.
        var png = PNGWriter(width: 2, height: 2, colorType: 2).encode { _, _ in [255, 0, 0] }
        let iend = png.count - 12
        let actl = chunk("acTL", be32(2) + be32(0))
        let fctl = chunk("fcTL", be32(1) + be32(2) + be32(2) + be32(0) + be32(0) + [0, 10, 0, 100, 0, 0])
        let green = zlibStored([0, 0, 255, 0, 0, 255, 0, 0, 0, 255, 0, 0, 255, 0])
        png.insert(contentsOf: actl, at: 33)
        png.insert(contentsOf: fctl + chunk("fdAT", be32(2) + green), at: iend + actl.count)
        let decoder = ImageDecoder(data: png, file: "a.png")
        #expect(try decoder.readHeader().frameCount == 1)
        #expect(try decoder.decode().pixel(x: 1, y: 1) == argb(255, 0, 0))
    }
}
