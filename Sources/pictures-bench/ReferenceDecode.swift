// The benchmark's reference: a whole JPEG decoded the plain way, straight through libjpeg-turbo
// and not through the Pictures module, as a conventional viewer decodes (read the file, one
// tjDecompress2 to BGRA into a buffer it allocates). The only file of the bench holding C pointers.
import CTurboJPEG
import Foundation

/// One full decode of a JPEG file to 4-byte pixels, and the same decode again into its buffer.
final class ReferenceDecode {
    /// Why a reference decode failed, with TurboJPEG's own message.
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// The file's bytes as read.
    let bytes: Data
    /// Size in pixels.
    let width: Int, height: Int
    private let format: TJPF
    private let handle: tjhandle
    /// The decoded pixels: allocated without clearing, as malloc hands them out.
    private let pixels: UnsafeMutableRawPointer

    /// Reads `path` and decodes all of it.
    init(path: String) throws {
        bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        guard let handle = tjInitDecompress() else { throw Failure(description: "cannot create a TurboJPEG decompressor") }
        self.handle = handle
        var w: Int32 = 0, h: Int32 = 0, subsampling: Int32 = 0, colorspace: Int32 = 0
        let status = bytes.withUnsafeBytes { raw in
            tjDecompressHeader3(handle, raw.bindMemory(to: UInt8.self).baseAddress, UInt(raw.count), &w, &h, &subsampling, &colorspace)
        }
        guard status == 0, w > 0, h > 0 else {
            let message = String(cString: tjGetErrorStr2(handle))
            tjDestroy(handle)
            throw Failure(description: "\(path): \(message)")
        }
        width = Int(w)
        height = Int(h)
        // CMYK files can only be received as CMYK: still one 4-byte pixel each.
        let cmyk = colorspace == Int32(TJCS_CMYK.rawValue) || colorspace == Int32(TJCS_YCCK.rawValue)
        format = cmyk ? TJPF_CMYK : TJPF_BGRA
        pixels = .allocate(byteCount: width * height * 4, alignment: 16)
        try decodeAgain()
    }

    deinit {
        pixels.deallocate()
        tjDestroy(handle)
    }

    /// Decodes the whole file again into the same buffer, whose pages are mapped by now:
    /// libjpeg-turbo's decoding alone.
    func decodeAgain() throws {
        // TJFLAG_LIMITSCANS: the flags the viewer decodes with, so both do the same work.
        let status = bytes.withUnsafeBytes { raw in
            tjDecompress2(handle, raw.bindMemory(to: UInt8.self).baseAddress, UInt(raw.count),
                          pixels.assumingMemoryBound(to: UInt8.self), Int32(width), Int32(width * 4), Int32(height),
                          Int32(format.rawValue), Int32(TJFLAG_LIMITSCANS))
        }
        // A warning (stray bytes, say) still decoded the picture.
        if status != 0, tjGetErrorCode(handle) != Int32(TJERR_WARNING.rawValue) {
            throw Failure(description: String(cString: tjGetErrorStr2(handle)))
        }
    }
}
