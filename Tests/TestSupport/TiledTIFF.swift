// Tiled TIFF files of any size for tests, written tile by tile (uncompressed, TIFF 6.0 §15), so a
// picture past the pixel limits takes a file's worth of disk and a tile's worth of memory.
import Foundation

/// Writes a little-endian tiled TIFF of `width`×`height` pixels to `path`: `bitsPerSample` 1
/// or 8, gray (PhotometricInterpretation 1, black is 0), tiles of `tile`×`tile` pixels (a
/// multiple of 16), `tileBytes(column, row)` giving each tile's packed rows, MSB first, each
/// row padded to a byte. The tiles come first, then the one IFD.
public func writeTiledTIFF(to path: String, width: Int, height: Int, bitsPerSample: Int, tile: Int,
                           tileBytes: (Int, Int) -> [UInt8]) throws {
    guard FileManager.default.createFile(atPath: path, contents: nil), let out = FileHandle(forWritingAtPath: path) else {
        throw CocoaError(.fileWriteUnknown)
    }
    defer { try? out.close() }
    func le16(_ v: Int) -> [UInt8] { [UInt8(v & 0xFF), UInt8(v >> 8 & 0xFF)] }
    func le32(_ v: Int) -> [UInt8] { [UInt8(v & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v >> 16 & 0xFF), UInt8(v >> 24 & 0xFF)] }
    let across = (width + tile - 1) / tile, down = (height + tile - 1) / tile
    let size = tile * ((tile * bitsPerSample + 7) / 8)
    var offsets: [Int] = []
    var position = 8
    try out.write(contentsOf: Data([0x49, 0x49, 42, 0] + le32(0)))  // "II", 42, the IFD's offset later
    for row in 0..<down {
        for column in 0..<across {
            let bytes = tileBytes(column, row)
            precondition(bytes.count == size, "tile (\(column), \(row)) has \(bytes.count) bytes, not \(size)")
            try out.write(contentsOf: Data(bytes))
            offsets.append(position)
            position += size
        }
    }
    // The two arrays, then the IFD: entries of tag, type (3 SHORT, 4 LONG), count, value.
    let offsetsAt = position, countsAt = position + 4 * offsets.count
    try out.write(contentsOf: Data(offsets.flatMap(le32) + offsets.flatMap { _ in le32(size) }))
    let ifd = countsAt + 4 * offsets.count
    let entries: [(Int, Int, Int, Int)] = [
        (256, 4, 1, width), (257, 4, 1, height), (258, 3, 1, bitsPerSample), (259, 3, 1, 1),  // no compression
        (262, 3, 1, 1), (277, 3, 1, 1), (284, 3, 1, 1),  // black is zero; one sample; chunky
        (322, 4, 1, tile), (323, 4, 1, tile), (324, 4, offsets.count, offsetsAt), (325, 4, offsets.count, countsAt),
    ]
    var directory = le16(entries.count)
    for (tag, type, count, value) in entries {
        directory += le16(tag) + le16(type) + le32(count) + (type == 3 && count == 1 ? le16(value) + [0, 0] : le32(value))
    }
    try out.write(contentsOf: Data(directory + le32(0)))
    try out.seek(toOffset: 4)
    try out.write(contentsOf: Data(le32(ifd)))
}
