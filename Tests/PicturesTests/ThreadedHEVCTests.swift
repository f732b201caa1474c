// HEIC pictures through the viewer's own HEVC decoder (Sources/CHEIF/de265.c): libde265 on every
// CPU, registered with libheif ahead of libheif's own decoder.
import Foundation
import Raster
import Testing
import TestSupport
@testable import Pictures

@Suite("HEVC decoded on libde265's worker threads")
struct ThreadedHEVCTests {
    @Test("every HEIC of the corpus is decoded by the threaded decoder, pixel for pixel as heif-convert decodes it")
    func decodesCorpusExactly() throws {
        let (folder, _) = try GeneratedCorpus.generated.get()
        let entries = GeneratedCorpus.entries("heif")
        #expect(entries.count >= 4)
        for entry in entries {
            let decoder = try ImageDecoder(path: folder.appendingPathComponent(entry.file).path)
            for reference in entry.references {
                // The count is the whole process's (other suites decode HEICs at the same time):
                // it rises by at least the picture (and its alpha plane, when it has one).
                let before = HEIFCodec.threadedHEVCPictures
                let picture = try decoder.decode(page: reference.page)
                #expect(HEIFCodec.threadedHEVCPictures > before, "\(entry): not decoded by the threaded decoder")
                let tile = try #require(OwnedFramebuffer(width: reference.width, height: reference.height))
                picture.drawTile(PixelRect(x: 0, y: 0, width: reference.width, height: reference.height), into: tile.framebuffer)
                let bytes = [UInt8](try Data(contentsOf: folder.appendingPathComponent(reference.rgba)))
                let (worst, at) = CorpusTests.compare({ tile.framebuffer[$0, $1] }, width: reference.width,
                                                      height: reference.height, reference: bytes)
                // heif-convert runs libheif's own libde265 decoder: the same samples, the same
                // conversion. The ICC entry's reference went through LittleCMS in Pillow, the
                // viewer's through its own LittleCMS transform: the corpus's tolerance for it.
                let allowed = entry.variant.contains("icc") ? entry.tolerance : 0
                #expect(worst <= allowed, "\(entry) page \(reference.page): off by \(worst) at \(at)")
            }
        }
    }
}
