// PNG files of any size for tests, their rows deflated by zlib as they are made: a 16384² picture
// whose rows repeat takes tens of kilobytes and never its raw size in memory.
import CZlib
import Foundation

/// Writes a PNG file of `width`×`height` pixels to `path` (IHDR's `bitDepth` and `colorType`,
/// no interlacing), `row(y)` giving row y's raw bytes without the filter byte (PNG §7.2).
/// Rows are deflated at zlib's level 9 one at a time. Throws when zlib or the write fails.
public func writeDeflatedPNG(to path: String, width: Int, height: Int, bitDepth: UInt8, colorType: UInt8,
                             row: (Int) -> [UInt8]) throws {
    let file = try deflatedPNG(width: width, height: height, bitDepth: bitDepth, colorType: colorType, row: row)
    try Data(file).write(to: URL(fileURLWithPath: path))
}

/// The bytes of `writeDeflatedPNG`'s file, its image data cut into IDAT chunks of
/// `chunkBytes` (one chunk when nil), as encoders write them (libpng: 8 KiB each).
public func deflatedPNG(width: Int, height: Int, bitDepth: UInt8, colorType: UInt8, chunkBytes: Int? = nil,
                        row: (Int) -> [UInt8]) throws -> [UInt8] {
    struct ZlibFailure: Error { let status: Int32 }
    var stream = z_stream()
    // Level 9: zlib's best compression, as the files were made.
    var status = deflateInit_(&stream, 9, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size))
    guard status == Z_OK else { throw ZlibFailure(status: status) }
    defer { deflateEnd(&stream) }
    var deflated: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 1 << 16)
    func pump(_ input: [UInt8], flush: Int32) throws {
        var input = input
        try input.withUnsafeMutableBufferPointer { source in
            stream.next_in = source.baseAddress
            stream.avail_in = UInt32(source.count)
            repeat {
                status = chunk.withUnsafeMutableBufferPointer { out in
                    stream.next_out = out.baseAddress
                    stream.avail_out = UInt32(out.count)
                    return deflate(&stream, flush)
                }
                guard status != Z_STREAM_ERROR else { throw ZlibFailure(status: status) }
                deflated += chunk[0..<(chunk.count - Int(stream.avail_out))]
            } while stream.avail_out == 0
        }
    }
    for y in 0..<height { try pump([0] + row(y), flush: Z_NO_FLUSH) }
    try pump([], flush: Z_FINISH)
    let size = max(1, chunkBytes ?? deflated.count)
    let chunks = stride(from: 0, to: deflated.count, by: size).flatMap { pngChunk("IDAT", Array(deflated[$0..<min($0 + size, deflated.count)])) }
    return pngSignatureAndHeader(width: width, height: height, bitDepth: bitDepth, colorType: colorType) + chunks + pngChunk("IEND", [])
}

private func be32(_ v: Int) -> [UInt8] { [UInt8(v >> 24 & 0xFF), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] }

/// A PNG chunk: length, type, body and its CRC-32 (PNG §5.3).
public func pngChunk(_ type: String, _ body: [UInt8]) -> [UInt8] {
    let typed = Array(type.utf8) + body
    let crc = typed.withUnsafeBufferPointer { crc32(0, $0.baseAddress, UInt32($0.count)) }
    return be32(body.count) + typed + be32(Int(crc))
}

/// A PNG signature and IHDR chunk (with its CRC) for `width`×`height`, no image data: the
/// start of a crafted file.
public func pngSignatureAndHeader(width: Int, height: Int, bitDepth: UInt8, colorType: UInt8) -> [UInt8] {
    [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + pngChunk("IHDR", be32(width) + be32(height) + [bitDepth, colorType, 0, 0, 0])
}
