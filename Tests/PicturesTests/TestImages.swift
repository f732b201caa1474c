// Test-time file builders: a PNG writer for every variant, TurboJPEG JPEGs, Exif injection.
@testable import Pictures

/// Writes PNG files byte by byte (stored deflate blocks, so no zlib is needed), giving
/// tests exact control over colour type, depth, palette, tRNS, interlacing and chunks.
struct PNGWriter {
    var width: Int
    var height: Int
    /// 0 gray, 2 RGB, 3 palette, 4 gray+alpha, 6 RGBA (PNG specification §11.2.2).
    var colorType: UInt8
    var bitDepth: UInt8 = 8
    var interlaced = false
    /// PLTE entries as (r, g, b).
    var palette: [(UInt8, UInt8, UInt8)] = []
    /// Raw tRNS chunk body.
    var transparency: [UInt8]?
    /// Raw eXIf chunk body (a TIFF structure).
    var exif: [UInt8]?

    var channels: Int { [0: 1, 2: 3, 3: 1, 4: 2, 6: 4][Int(colorType)]! }

    /// Encodes samples from `sample(x, y)`, which returns `channels` values in 0..<2^bitDepth.
    func encode(_ sample: (Int, Int) -> [Int]) -> [UInt8] {
        var out = ImageFormat.pngSignature
        var ihdr = be32(width) + be32(height)
        ihdr += [bitDepth, colorType, 0, 0, interlaced ? 1 : 0]
        out += chunk("IHDR", ihdr)
        if let exif { out += chunk("eXIf", exif) }
        if !palette.isEmpty { out += chunk("PLTE", palette.flatMap { [$0.0, $0.1, $0.2] }) }
        if let transparency { out += chunk("tRNS", transparency) }
        out += chunk("IDAT", zlibStored(scanlines(sample)))
        out += chunk("IEND", [])
        return out
    }

    /// Filter-type-0 scanlines, in Adam7 pass order when interlaced.
    func scanlines(_ sample: (Int, Int) -> [Int]) -> [UInt8] {
        // Adam7 passes: (x0, y0, dx, dy), PNG specification §8.2.
        let passes = interlaced
            ? [(0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4), (0, 2, 2, 4), (1, 0, 2, 2), (0, 1, 1, 2)]
            : [(0, 0, 1, 1)]
        var data: [UInt8] = []
        for (x0, y0, dx, dy) in passes {
            let xs = Array(stride(from: x0, to: width, by: dx)), ys = Array(stride(from: y0, to: height, by: dy))
            guard !xs.isEmpty, !ys.isEmpty else { continue }
            for y in ys {
                data.append(0)
                var bits = 0, acc = 0
                for x in xs {
                    for v in sample(x, y) {
                        switch bitDepth {
                        case 16: data += [UInt8(v >> 8), UInt8(v & 0xFF)]
                        case 8: data.append(UInt8(v))
                        default:
                            acc = acc << Int(bitDepth) | v
                            bits += Int(bitDepth)
                            if bits == 8 { data.append(UInt8(acc)); bits = 0; acc = 0 }
                        }
                    }
                }
                if bits > 0 { data.append(UInt8(acc << (8 - bits))) }
            }
        }
        return data
    }
}

func be32(_ v: Int) -> [UInt8] { [UInt8(v >> 24 & 0xFF), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] }

func chunk(_ type: String, _ body: [UInt8]) -> [UInt8] {
    let typeBytes = Array(type.utf8)
    return be32(body.count) + typeBytes + body + be32(Int(crc32(typeBytes + body)))
}

/// CRC-32 (ISO 3309, polynomial 0xEDB88320 reflected), as PNG chunks use.
func crc32(_ bytes: [UInt8]) -> UInt32 {
    var crc: UInt32 = 0xFFFF_FFFF
    for b in bytes {
        crc ^= UInt32(b)
        for _ in 0..<8 { crc = crc & 1 != 0 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
    }
    return ~crc
}

/// A zlib stream of stored (uncompressed) deflate blocks, RFC 1950/1951.
func zlibStored(_ data: [UInt8]) -> [UInt8] {
    var out: [UInt8] = [0x78, 0x01]
    var offset = 0
    repeat {
        let n = min(65_535, data.count - offset)
        let final: UInt8 = offset + n == data.count ? 1 : 0
        out += [final, UInt8(n & 0xFF), UInt8(n >> 8), UInt8(~n & 0xFF), UInt8((~n >> 8) & 0xFF)]
        out += data[offset..<(offset + n)]
        offset += n
    } while offset < data.count
    var a: UInt32 = 1, b: UInt32 = 0
    for byte in data { a = (a + UInt32(byte)) % 65_521; b = (b + a) % 65_521 }
    return out + be32(Int(b << 16 | a))
}

/// A TIFF structure whose IFD0 holds only the Orientation tag.
func tiffOrientation(_ value: Int, bigEndian: Bool = true) -> [UInt8] {
    func u16(_ v: Int) -> [UInt8] { bigEndian ? [UInt8(v >> 8), UInt8(v & 0xFF)] : [UInt8(v & 0xFF), UInt8(v >> 8)] }
    func u32(_ v: Int) -> [UInt8] { bigEndian ? be32(v) : be32(v).reversed() }
    var tiff: [UInt8] = bigEndian ? [0x4D, 0x4D] : [0x49, 0x49]
    tiff += u16(42) + u32(8)                    // header, IFD0 at offset 8
    tiff += u16(2)                               // two entries: a decoy, then Orientation
    tiff += u16(0x010F) + u16(2) + u32(4) + u32(0x4143_4D45)  // Make = "ACME" (ASCII, inline)
    tiff += u16(0x0112) + u16(3) + u32(1) + u16(value) + u16(0)
    tiff += u32(0)                               // no next IFD
    return tiff
}

/// `jpeg` with an Exif APP1 segment carrying `orientation` inserted after SOI.
func withExif(_ jpeg: [UInt8], orientation: Int, bigEndian: Bool = true) -> [UInt8] {
    let body: [UInt8] = Array("Exif".utf8) + [0, 0] + tiffOrientation(orientation, bigEndian: bigEndian)
    let length = body.count + 2
    return Array(jpeg[0..<2]) + [0xFF, 0xE1, UInt8(length >> 8), UInt8(length & 0xFF)] + body + Array(jpeg[2...])
}

/// Opaque ARGB from 8-bit channels.
func argb(_ r: Int, _ g: Int, _ b: Int, _ a: Int = 255) -> UInt32 {
    UInt32(a) << 24 | UInt32(r) << 16 | UInt32(g) << 8 | UInt32(b)
}

/// Channels of a pixel, for tolerant comparisons.
func channels(_ p: UInt32) -> [Int] { [Int(p >> 24), Int(p >> 16 & 0xFF), Int(p >> 8 & 0xFF), Int(p & 0xFF)] }

/// Largest per-channel difference between two pixels.
func channelDistance(_ a: UInt32, _ b: UInt32) -> Int {
    zip(channels(a), channels(b)).map { abs($0 - $1) }.max()!
}

/// A test pattern with smooth areas and edges, so JPEG keeps colours close.
func blockPattern(width: Int, height: Int) -> [UInt32] {
    (0..<(width * height)).map { i in
        let x = i % width, y = i / width
        // Quadrants of flat colour: red, green, blue, white.
        switch (x < width / 2, y < height / 2) {
        case (true, true): return argb(220, 30, 30)
        case (false, true): return argb(30, 200, 40)
        case (true, false): return argb(40, 50, 210)
        case (false, false): return argb(245, 245, 245)
        }
    }
}

/// Decodes bytes with standard limits, failing the test on error.
func decodeOrFail(_ bytes: [UInt8], storage: StoragePreference = .argb) throws -> Picture {
    try ImageDecoder(data: bytes, file: "test").decode(storage: storage)
}

/// The error a decode throws, or nil when it succeeds.
func decodeError(_ bytes: [UInt8], file: String = "test.bin", limits: DecodeLimits = .standard) -> PictureError? {
    do {
        _ = try ImageDecoder(data: bytes, file: file, limits: limits).decode()
        return nil
    } catch {
        return error
    }
}
