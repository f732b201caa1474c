// Small PNG files for tests, written without a library: stored (uncompressed) deflate blocks,
// so any picture a test describes by a function of its pixels can be put on disk.
import Foundation

/// A PNG file (8-bit RGB, deflate's stored blocks) of `width`×`height` pixels from `rgb`.
public func pngData(width: Int, height: Int, rgb: (Int, Int) -> UInt32) -> Data {
    func be32(_ v: UInt32) -> [UInt8] { [UInt8(v >> 24), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] }
    func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 != 0 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }  // PNG's CRC-32 polynomial
        }
        return ~crc
    }
    func chunk(_ type: String, _ body: [UInt8]) -> [UInt8] {
        let typed = Array(type.utf8) + body
        return be32(UInt32(body.count)) + typed + be32(crc32(typed))
    }
    // Scanlines: filter byte 0 (none), then R, G, B per pixel.
    var raw: [UInt8] = []
    raw.reserveCapacity(height * (1 + width * 3))
    for y in 0..<height {
        raw.append(0)
        for x in 0..<width {
            let p = rgb(x, y)
            raw += [UInt8(p >> 16 & 0xFF), UInt8(p >> 8 & 0xFF), UInt8(p & 0xFF)]
        }
    }
    // zlib: header 0x78 0x01, stored blocks of at most 65535 bytes, Adler-32 of the data.
    var zlib: [UInt8] = [0x78, 0x01]
    var offset = 0
    repeat {
        let count = min(65535, raw.count - offset)
        let last: UInt8 = offset + count == raw.count ? 1 : 0
        zlib += [last, UInt8(count & 0xFF), UInt8(count >> 8), UInt8(~count & 0xFF), UInt8(~count >> 8 & 0xFF)]
        zlib += raw[offset..<(offset + count)]
        offset += count
    } while offset < raw.count
    var a: UInt32 = 1, b: UInt32 = 0
    for byte in raw {
        a = (a + UInt32(byte)) % 65521  // Adler-32's modulus, the largest prime below 2^16
        b = (b + a) % 65521
    }
    zlib += be32(b << 16 | a)
    let header = be32(UInt32(width)) + be32(UInt32(height)) + [8, 2, 0, 0, 0]  // 8-bit RGB
    return Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + chunk("IHDR", header) + chunk("IDAT", zlib)
                + chunk("IEND", []))
}
