// JPEG encoding with tjCompress2, so tools and tests make their JPEGs instead of committing them.
import CTurboJPEG

/// Encodes pixels as baseline or progressive JPEG with libjpeg-turbo.
public enum JPEGEncoder {
    /// Chroma subsampling of the encoded file.
    public enum Subsampling: Sendable, CaseIterable {
        /// Full chroma resolution.
        case s444
        /// Chroma halved horizontally.
        case s422
        /// Chroma halved both ways (typical camera output).
        case s420
        /// Chroma halved vertically.
        case s440
        /// Chroma quartered horizontally.
        case s411
        /// Luma only (grayscale file).
        case gray

        var tj: Int32 {
            switch self {
            case .s444: return Int32(TJSAMP_444.rawValue)
            case .s422: return Int32(TJSAMP_422.rawValue)
            case .s420: return Int32(TJSAMP_420.rawValue)
            case .s440: return Int32(TJSAMP_440.rawValue)
            case .s411: return Int32(TJSAMP_411.rawValue)
            case .gray: return Int32(TJSAMP_GRAY.rawValue)
            }
        }
    }

    /// Encoding failure, with TurboJPEG's message.
    public struct EncodeError: Error, Sendable, CustomStringConvertible {
        /// TurboJPEG's message.
        public let description: String
    }

    /// Encodes opaque ARGB8888 pixels (`width`×`height`, row-major, alpha ignored).
    ///
    /// - Parameters:
    ///   - quality: 1…100, libjpeg's quality scale.
    ///   - progressive: emit a progressive (SOF2) file instead of baseline (SOF0).
    public static func encode(
        argb: [UInt32], width: Int, height: Int, quality: Int = 90,
        subsampling: Subsampling = .s420, progressive: Bool = false
    ) throws(EncodeError) -> [UInt8] {
        precondition(argb.count == width * height, "pixel count does not match \(width)×\(height)")
        // Little-endian 0xAARRGGBB is B, G, R, A in memory.
        let result = argb.withUnsafeBytes { raw in
            compress(raw.baseAddress!.assumingMemoryBound(to: UInt8.self), width: width, height: height,
                     format: Int32(TJPF_BGRA.rawValue), subsampling: subsampling.tj, quality: quality,
                     progressive: progressive)
        }
        return try result.get()
    }

    /// Encodes CMYK samples (4 bytes per pixel, Adobe convention: 255 = no ink) as a YCCK
    /// JPEG, which is what TurboJPEG writes for CMYK input.
    public static func encode(
        cmyk: [UInt8], width: Int, height: Int, quality: Int = 90, subsampling: Subsampling = .s444
    ) throws(EncodeError) -> [UInt8] {
        precondition(cmyk.count == width * height * 4, "sample count does not match \(width)×\(height)×4")
        let result = cmyk.withUnsafeBufferPointer { buf in
            compress(buf.baseAddress!, width: width, height: height, format: Int32(TJPF_CMYK.rawValue),
                     subsampling: subsampling.tj, quality: quality, progressive: false)
        }
        return try result.get()
    }

    private static func compress(
        _ source: UnsafePointer<UInt8>, width: Int, height: Int, format: Int32,
        subsampling: Int32, quality: Int, progressive: Bool
    ) -> Result<[UInt8], EncodeError> {
        guard let handle = tjInitCompress() else { return .failure(EncodeError(description: "tjInitCompress failed")) }
        defer { tjDestroy(handle) }
        var output: UnsafeMutablePointer<UInt8>?
        var size: UInt = 0
        defer { tjFree(output) }
        let flags = progressive ? Int32(TJFLAG_PROGRESSIVE) : 0
        let status = tjCompress2(handle, source, Int32(width), 0, Int32(height), format,
                                 &output, &size, subsampling, Int32(quality), flags)
        guard status == 0, let output else {
            return .failure(EncodeError(description: String(cString: tjGetErrorStr2(handle))))
        }
        return .success(Array(UnsafeBufferPointer(start: output, count: Int(size))))
    }
}
