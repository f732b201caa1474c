// The 1/8-scale first frame of a baseline JPEG, its Huffman data decoded on several threads at once.
//
// Hand-written, because no library does this: libjpeg-turbo (like every JPEG decoder here) can
// split a scan only at restart markers, and the camera files this is for have none, so its 1/8
// decode reads every Huffman code of a 22 MB file on one thread. Here thread 1 decodes from the
// scan's start while each further thread starts at a byte further on, assumes an MCU starts there
// and records, for every MCU it believes starts, the bit position and its blocks' DC differences
// (ITU T.81 F.2.2.1). Huffman codes resynchronise within a few codes, and where a code starts
// depends only on the bit position and the block's place in the MCU, never on the DC predictors:
// from the first MCU start both threads share, the later thread's parse is the true one, and its
// DC values follow from the true predictors there by prefix sums. With restart intervals (DRI)
// the later threads start after a restart marker instead, where nothing needs guessing.
//
// The output is libjpeg-turbo 2.1's own 1/8 DCT-scaled decode (tjDecompress2 to BGRA), pixel for
// pixel: jdmaster.c gives every component DCT_scaled_size 1, except the chroma of 4:2:0 files,
// which it scales up through the IDCT (size 2, jidctred.c jpeg_idct_2x2 or its SSE2 twin
// jsimd_idct_2x2, which agree wherever this decoder accepts the values) instead of upsampling;
// 4:2:2 and 4:4:0 chroma samples are repeated (jdsample.c turns fancy upsampling off at 1/8);
// jdcolor.c's integer tables convert (`YCbCrTables`). Whatever else a file holds (progressive or arithmetic coding,
// 12 bits, CMYK, several scans, other sampling factors, a damaged or truncated stream) gives nil
// and the caller decodes with libjpeg-turbo as before, which also reports damage as before.
import Foundation
import Synchronization

/// The parallel 1/8 decoder of baseline Huffman JPEGs (see the file's header comment).
enum JPEGPreviewDecoder {
    /// Bits the Huffman lookup tables resolve at once: 2^11 two-byte entries (4 KiB) per table,
    /// so the four a 4:2:0 scan uses stay in a 32 KiB L1 cache. Longer codes take a slow path.
    static let lookahead = 11
    /// Slots of the per-table arrays: DC tables 0–3, AC tables 4–7 (T.81 B.2.4.2: Th is 0–3).
    static let tableSlots = 8
    /// Start of the symbol values in `Tables.fast`, after the eight symbol tables.
    static let symbolBase = tableSlots << lookahead
    /// Records a speculative thread may throw away and start again after a decoding error
    /// (a false parse can meet a code no table holds) before it gives up.
    static let maxRestarts = 64
    /// File size from which the viewer decodes on two threads: 256 KiB take ~2.5 ms to decode
    /// (about 100 MB/s per thread measured on the 100 MP file), 25 times what starting a
    /// thread costs.
    static let bytesPerExtraThread = 256 << 10
    /// Restart markers RST0–RST7 (T.81 Table B.1).
    static let rst0: UInt8 = 0xD0
    /// End of image (T.81 Table B.1).
    static let eoi: UInt8 = 0xD9

    /// Zigzag index → natural index (T.81 Figure A.6), with libjpeg's 16 extra entries of 63
    /// (jutils.c jpeg_natural_order): a run past the block's end stores at 63, as libjpeg does.
    static let naturalOrder: [Int] = [
        0, 1, 8, 16, 9, 2, 3, 10, 17, 24, 32, 25, 18, 11, 4, 5,
        12, 19, 26, 33, 40, 48, 41, 34, 27, 20, 13, 6, 7, 14, 21, 28,
        35, 42, 49, 56, 57, 50, 43, 36, 29, 22, 15, 23, 30, 37, 44, 51,
        58, 59, 52, 45, 38, 31, 39, 46, 53, 60, 61, 54, 47, 55, 62, 63,
        63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63,
    ]

    // MARK: Markers

    /// Huffman tables in lookup form, in two arrays so the hot loop holds two spans.
    struct Tables: Sendable {
        /// Eight symbol tables (slot << lookahead + next bits → code length << 8 | symbol, 0
        /// when the code is longer), then 256 symbol values per slot.
        var fast = [UInt16](repeating: 0, count: symbolBase + tableSlots * 256)
        /// Per AC slot, next bits → up to two whole AC coefficients (code and magnitude bits)
        /// those bits hold, so that skipping usually costs one lookup per two coefficients:
        /// bits of both | bits of the first << 6 | its zigzag advance << 11 | the second's
        /// advance << 17 | the first's magnitude size << 23 | the second's << 27; 0 when even
        /// the first does not fit (the slow path). An end of block advances 63 (k is at least
        /// 1, so the block ends as at 64), ZRL 16, a coefficient run + 1; without a second
        /// coefficient, bits of both are the first's and its advance 0. Bits of both sit at
        /// the bottom with bit 5 clear, so the entry itself is the shift count (`Pair.both`):
        /// a 64-bit shift takes the count's low six bits, and the hot loop's chain from one
        /// lookup to the next is a shift, a load and a shift.
        var pairs = [UInt32](repeating: 0, count: 4 << lookahead)
        /// Per slot, 18 largest codes of each length (−1: none), then 18 value offsets
        /// (T.81 F.2.2.3 MAXCODE and VALPTR − MINCODE).
        var slow = [Int32](repeating: -1, count: tableSlots * 36)
        var defined = [Bool](repeating: false, count: tableSlots)

        /// Builds slot `slot` from a DHT's 16 counts and its symbols (T.81 Annex C); false
        /// for a table libjpeg refuses (jdhuff.c jpeg_make_d_derived_tbl): a code that does
        /// not fit its length, or a DC symbol over 15.
        mutating func define(slot: Int, counts: [Int], symbols: [UInt8]) -> Bool {
            let isDC = slot < 4
            if isDC && symbols.contains(where: { $0 > 15 }) { return false }
            for i in 0..<(1 << lookahead) { fast[slot << lookahead + i] = 0 }
            for i in 0..<256 { fast[symbolBase + slot * 256 + i] = i < symbols.count ? UInt16(symbols[i]) : 0 }
            var code = 0, index = 0
            for length in 1...16 {
                let first = code
                slow[slot * 36 + length] = -1
                slow[slot * 36 + 18 + length] = Int32(index - first)
                for _ in 0..<counts[length - 1] {
                    guard code < 1 << length else { return false }
                    let symbol = Int(symbols[index])
                    if length <= lookahead {
                        let shift = lookahead - length
                        for suffix in 0..<(1 << shift) {
                            fast[slot << lookahead + (code << shift | suffix)] = UInt16(length << 8 | symbol)
                        }
                    }
                    code += 1
                    index += 1
                }
                if code > first { slow[slot * 36 + length] = Int32(code - 1) }
                // No code may be all ones (jdhuff.c: code must still fit in `length` bits).
                if code >= 1 << length { return false }
                code <<= 1
            }
            defined[slot] = true
            return true
        }

        /// Fills `pairs` for AC slot `slot` from its symbol table.
        mutating func pair(slot: Int) {
            /// One coefficient at the top of `bits` (lookahead wide): bits, advance, size.
            func first(_ bits: Int) -> (bits: Int, advance: Int, size: Int)? {
                let e = Int(fast[slot << lookahead | bits])
                guard e != 0 else { return nil }
                let symbol = e & 0xFF, size = symbol & 15, run = symbol >> 4
                guard e >> 8 + size <= lookahead else { return nil }
                return (e >> 8 + size, size != 0 ? run + 1 : (run == 15 ? 16 : 63), size)
            }
            let mask = 1 << lookahead - 1
            for bits in 0...mask {
                guard let a = first(bits) else {
                    pairs[(slot - 4) << lookahead | bits] = 0
                    continue
                }
                var both = a.bits, second = 0, secondSize = 0
                if a.advance < 63, let b = first(bits << a.bits & mask), a.bits + b.bits <= lookahead {
                    both += b.bits
                    second = b.advance
                    secondSize = b.size
                }
                pairs[(slot - 4) << lookahead | bits] = UInt32(both | a.bits << 6 | a.advance << 11 | second << 17
                                                              | a.size << 23 | secondSize << 27)
            }
        }
    }

    /// One block of an MCU: where its sample goes and how it is coded.
    struct Block: Sendable {
        /// Frame component (0 luma or grey, 1 Cb, 2 Cr).
        var component: Int
        /// Block offset inside the component's part of the MCU.
        var dx: Int, dy: Int
        /// Table slots of its DC (0–3) and AC (4–7) codes.
        var dc: Int, ac: Int
        /// 0 or 1 for the chroma blocks of a 4:2:0 file, which need AC coefficients for their
        /// 2×2 IDCT; −1 for blocks whose AC coefficients are only skipped.
        var chroma: Int
    }

    /// Frame and scan as the markers describe them, checked against what this decoder takes.
    struct Layout: Sendable {
        var width = 0, height = 0
        /// Frame components: 1 (grey) or 3 (YCbCr).
        var components = 0
        /// Luma sampling factors (grey: 1×1, whatever the file says, its scan is not interleaved).
        var lumaH = 1, lumaV = 1
        var mcusX = 0, mcusY = 0
        var blocks: [Block] = []
        /// MCUs per restart interval, 0 without DRI.
        var restartInterval = 0
        /// First byte of the entropy-coded data.
        var scanStart = 0
        /// Per component, the DC quantiser as libjpeg's ISLOW_MULT_TYPE (a short with SIMD).
        var dcQuant: [Int32] = [0, 0, 0]
        /// For 4:2:0, Cb's then Cr's quantisers of the 25 places of `zigzagSlot`, as shorts like `dcQuant`.
        var chromaQuant: [Int32] = []
        var tables = Tables()

        var totalMCUs: Int { mcusX * mcusY }
        var isH2V2Chroma: Bool { components == 3 && lumaH == 2 && lumaV == 2 }
        /// Samples per row and rows of each component's plane (a 2×2 IDCT gives 2×2 per block).
        func plane(_ c: Int) -> (stride: Int, rows: Int) {
            if c == 0 { return (mcusX * lumaH, mcusY * lumaV) }
            return isH2V2Chroma ? (2 * mcusX, 2 * mcusY) : (mcusX, mcusY)
        }
    }

    /// Bytes the decode of a file with `header` holds besides the file and its output, at
    /// most, known before the markers are read: planes of one (grey) or three samples per
    /// output pixel, and the later threads' records, at most 14 bytes per 8×8 block (4:4:4:
    /// an 8-byte position and three 2-byte DC differences per MCU of three blocks; 4:2:0 has
    /// 44 bytes per MCU of six).
    static func workingBytes(_ header: JPEGCodec.Header) -> Int {
        let blocks = ((header.width + 15) / 16 * 2) * ((header.height + 15) / 16 * 2)
        return blocks * (header.isGray ? 1 : 3) + blocks * 14
    }

    /// Reads the markers up to the scan (T.81 Annex B); nil for anything this decoder does not
    /// take, and for what libjpeg would warn about (any warning is damage to the caller).
    /// `header` is what TurboJPEG read, which this must agree with.
    static func layout(_ d: Span<UInt8>, header: JPEGCodec.Header) -> Layout? {
        let width = header.width, height = header.height, grey = header.isGray
        guard grey || header.isYCbCr else { return nil }
        let n = d.count
        var sawJFIF = false
        var adobeTransform: Int? = nil
        guard n >= 4, d[0] == 0xFF, d[1] == 0xD8 else { return nil }
        var out = Layout()
        var quant = [Int32](repeating: 0, count: 4 * 64)
        var quantDefined = [Bool](repeating: false, count: 4)
        var frame: [(id: UInt8, h: Int, v: Int, tq: Int)] = []
        var p = 2
        while true {
            guard p + 3 < n, d[p] == 0xFF else { return nil }
            while p + 3 < n, d[p + 1] == 0xFF { p += 1 }  // fill bytes (T.81 B.1.1.2)
            guard p + 3 < n else { return nil }
            let marker = d[p + 1]
            let length = Int(d[p + 2]) << 8 | Int(d[p + 3])
            guard length >= 2, p + 2 + length <= n else { return nil }
            let body = p + 4, bodyEnd = p + 2 + length
            switch marker {
            case 0xC0, 0xC1:  // SOF0 baseline, SOF1 extended sequential, both Huffman
                guard frame.isEmpty, length >= 8, d[body] == 8 else { return nil }
                let h = Int(d[body + 1]) << 8 | Int(d[body + 2]), w = Int(d[body + 3]) << 8 | Int(d[body + 4])
                let count = Int(d[body + 5])
                guard h == height, w == width, h > 0, count == (grey ? 1 : 3), length == 8 + 3 * count else { return nil }
                for i in 0..<count {
                    let at = body + 6 + 3 * i
                    let id = d[at], hv = Int(d[at + 1]), tq = Int(d[at + 2])
                    guard hv >> 4 >= 1, hv >> 4 <= 4, hv & 15 >= 1, hv & 15 <= 4, tq <= 3,
                          !frame.contains(where: { $0.id == id }) else { return nil }
                    frame.append((id, hv >> 4, hv & 15, tq))
                }
            case 0xC4:  // DHT
                var q = body
                while q < bodyEnd {
                    guard q + 17 <= bodyEnd else { return nil }
                    let tc = Int(d[q] >> 4), th = Int(d[q] & 15)
                    guard tc <= 1, th <= 3 else { return nil }
                    var counts: [Int] = []
                    for i in 0..<16 { counts.append(Int(d[q + 1 + i])) }
                    let total = counts.reduce(0, +)
                    guard total <= 256, q + 17 + total <= bodyEnd else { return nil }
                    var symbols: [UInt8] = []
                    symbols.reserveCapacity(total)
                    for i in 0..<total { symbols.append(d[q + 17 + i]) }
                    guard out.tables.define(slot: tc * 4 + th, counts: counts, symbols: symbols) else { return nil }
                    q += 17 + total
                }
            case 0xDB:  // DQT, 8- or 16-bit entries in zigzag order
                var q = body
                while q < bodyEnd {
                    let precision = Int(d[q] >> 4), tq = Int(d[q] & 15)
                    let size = precision == 0 ? 1 : 2
                    guard precision <= 1, tq <= 3, q + 1 + 64 * size <= bodyEnd else { return nil }
                    for i in 0..<64 {
                        let at = q + 1 + i * size
                        let value = size == 1 ? Int(d[at]) : Int(d[at]) << 8 | Int(d[at + 1])
                        // libjpeg keeps UINT16 and multiplies as ISLOW_MULT_TYPE, a short with SIMD.
                        quant[tq * 64 + naturalOrder[i]] = Int32(Int16(truncatingIfNeeded: value))
                    }
                    quantDefined[tq] = true
                    q += 1 + 64 * size
                }
            case 0xDD:  // DRI
                guard length == 4 else { return nil }
                out.restartInterval = Int(d[body]) << 8 | Int(d[body + 1])
            case 0xDA:  // SOS
                guard !frame.isEmpty, length >= 6 else { return nil }
                let count = Int(d[body])
                guard count == frame.count, length == 6 + 2 * count else { return nil }
                let tail = body + 1 + 2 * count
                // Sequential DCT: spectral selection 0–63, no successive approximation.
                guard d[tail] == 0, d[tail + 1] == 63, d[tail + 2] == 0 else { return nil }
                var order: [(component: Int, dc: Int, ac: Int)] = []
                for i in 0..<count {
                    let id = d[body + 1 + 2 * i], tables = Int(d[body + 2 + 2 * i])
                    guard let c = frame.firstIndex(where: { $0.id == id }), !order.contains(where: { $0.component == c }),
                          tables >> 4 <= 3, tables & 15 <= 3 else { return nil }
                    order.append((c, tables >> 4, 4 + (tables & 15)))
                }
                guard order.allSatisfy({ out.tables.defined[$0.dc] && out.tables.defined[$0.ac] }),
                      frame.allSatisfy({ quantDefined[$0.tq] }) else { return nil }
                // jdapimin.c default_decompress_parms: an Adobe transform other than YCbCr (1) or
                // RGB (0, which TurboJPEG reported) is a warning.
                if !grey, !sawJFIF, let t = adobeTransform, t != 1 { return nil }
                out.scanStart = bodyEnd
                for ac in Set(order.map(\.ac)) { out.tables.pair(slot: ac) }
                return finish(&out, frame: frame, order: order, quant: quant, width: width, height: height)
            case 0xE0:
                // JFIF (jdmarker.c examine_app0): a major version other than 1 is a warning.
                if length - 2 >= 14, d[body] == 0x4A, d[body + 1] == 0x46, d[body + 2] == 0x49, d[body + 3] == 0x46,
                   d[body + 4] == 0 {
                    guard d[body + 5] == 1 else { return nil }
                    sawJFIF = true
                }
            case 0xEE:
                // Adobe (examine_app14): its transform decides the colour space without JFIF.
                if length - 2 >= 12, d[body] == 0x41, d[body + 1] == 0x64, d[body + 2] == 0x6F, d[body + 3] == 0x62,
                   d[body + 4] == 0x65 {
                    adobeTransform = Int(d[body + 11])
                }
            case 0xE1...0xED, 0xEF, 0xFE:  // other APPn, COM
                break
            default:  // other SOFs (progressive, lossless, arithmetic), DAC, DNL, RSTn, SOI, EOI, JPGn
                return nil
            }
            p = bodyEnd
        }
    }

    /// The MCU geometry of a checked frame and scan, or nil for sampling factors not taken.
    private static func finish(_ out: inout Layout, frame: [(id: UInt8, h: Int, v: Int, tq: Int)],
                               order: [(component: Int, dc: Int, ac: Int)], quant: [Int32],
                               width: Int, height: Int) -> Layout? {
        out.width = width
        out.height = height
        out.components = frame.count
        for (c, f) in frame.enumerated() { out.dcQuant[c] = quant[f.tq * 64] }
        if frame.count == 1 {
            // A single-component scan is never interleaved: one block per MCU (T.81 A.2.2).
            let w = (width * frame[0].h + frame[0].h - 1) / frame[0].h
            let h = (height * frame[0].v + frame[0].v - 1) / frame[0].v
            out.mcusX = (w + 7) / 8
            out.mcusY = (h + 7) / 8
            out.blocks = [Block(component: 0, dx: 0, dy: 0, dc: order[0].dc, ac: order[0].ac, chroma: -1)]
            return out
        }
        let luma = frame[0]
        guard luma.h <= 2, luma.v <= 2, frame[1].h == 1, frame[1].v == 1, frame[2].h == 1, frame[2].v == 1 else { return nil }
        out.lumaH = luma.h
        out.lumaV = luma.v
        out.mcusX = (width + 8 * luma.h - 1) / (8 * luma.h)
        out.mcusY = (height + 8 * luma.v - 1) / (8 * luma.v)
        for s in order {
            let f = frame[s.component]
            for dy in 0..<f.v {
                for dx in 0..<f.h {
                    let chroma = s.component > 0 && out.isH2V2Chroma ? s.component - 1 : -1
                    out.blocks.append(Block(component: s.component, dx: dx, dy: dy, dc: s.dc, ac: s.ac, chroma: chroma))
                }
            }
        }
        if out.isH2V2Chroma {
            out.chromaQuant = [1, 2].flatMap { c in slotNatural.map { quant[frame[c].tq * 64 + $0] } }
        }
        return out
    }

    /// The fields of a `Tables.pairs` entry.
    enum Pair {
        @inline(__always) static func both(_ e: UInt32) -> Int { Int(e & 63) }
        @inline(__always) static func firstBits(_ e: UInt32) -> Int { Int(e >> 6 & 31) }
        @inline(__always) static func firstAdvance(_ e: UInt32) -> Int { Int(e >> 11 & 63) }
        @inline(__always) static func secondAdvance(_ e: UInt32) -> Int { Int(e >> 17 & 63) }
        @inline(__always) static func firstSize(_ e: UInt32) -> Int { Int(e >> 23 & 15) }
        @inline(__always) static func secondSize(_ e: UInt32) -> Int { Int(e >> 27 & 15) }
    }

    // MARK: Bits

    /// A 64-bit MSB-first bit buffer over the entropy-coded bytes, removing the 0x00 stuffed
    /// after each 0xFF (T.81 F.1.2.3). At a marker it feeds zero bits, as libjpeg does, but
    /// counts them: a decode that consumed any of them has failed.
    struct BitReader {
        var bits: UInt64 = 0
        /// Valid bits at the top of `bits`, the made-up zeros included.
        var count = 0
        /// Next byte to load.
        var pos: Int
        /// Zero bits fed after the data stopped at a marker (or at the end of the file).
        var fake = 0
        var atMarker = false

        init(at pos: Int) { self.pos = pos }

        /// Real bits not yet consumed; negative after a decode used made-up bits.
        var real: Int { count - fake }

        @inline(__always)
        func peek(_ n: Int) -> Int { Int(truncatingIfNeeded: bits &>> UInt64(64 - n)) }

        @inline(__always)
        mutating func consume(_ n: Int) {
            bits = bits &<< UInt64(n)
            count -= n
        }

        /// Consumes both coefficients of a pairs entry: the shift takes the entry whole (its
        /// low six bits are the count), so no field extraction delays the next lookup.
        @inline(__always)
        mutating func consumeBoth(_ entry: UInt32) {
            bits = bits &<< UInt64(truncatingIfNeeded: entry)
            count &-= Pair.both(entry)
        }

        /// Tops the buffer up to at least 57 bits: eight bytes at once when none of them is
        /// 0xFF (one load from the span's bytes, bounds-checked), else byte by byte.
        @inline(__always)
        mutating func refill(_ d: Span<UInt8>) {
            if !atMarker, pos + 8 <= d.count {
                let word = UInt64(bigEndian: d.bytes.unsafeLoadUnaligned(fromByteOffset: pos, as: UInt64.self))
                let n = (64 - count) >> 3
                let top = ~UInt64(0) &<< UInt64(64 - 8 * n)
                // A zero byte of ~word is an 0xFF byte of word (Hacker's Delight 6-1; a borrow
                // can only add false alarms above a real one, which take the slow way).
                let x = ~word
                if (x &- 0x0101_0101_0101_0101) & ~x & 0x8080_8080_8080_8080 & top == 0 {
                    bits |= (word & top) &>> UInt64(count)
                    pos += n
                    count += 8 * n
                    return
                }
            }
            self = Self.refilledBytes(self, d)
        }

        /// The byte-by-byte refill, which handles stuffing, markers and the data's end; by
        /// value, so that the hot loop's reader never needs an address and stays in registers.
        @inline(never)
        static func refilledBytes(_ reader: BitReader, _ d: Span<UInt8>) -> BitReader {
            var r = reader
            r.refillByteByByte(d)
            return r
        }

        private mutating func refillByteByByte(_ d: Span<UInt8>) {
            let end = d.count
            while count <= 56 {
                if atMarker {
                    fake += 64 - count
                    count = 64
                    return
                }
                guard pos < end else { atMarker = true; continue }
                let byte = d[unchecked: pos]
                if byte == 0xFF {
                    // 0xFF 0x00 is a data 0xFF; anything else (fill bytes too) ends the data.
                    guard pos + 1 < end, d[unchecked: pos + 1] == 0 else { atMarker = true; continue }
                    pos += 2
                } else {
                    pos += 1
                }
                bits |= UInt64(byte) &<< UInt64(56 - count)
                count += 8
            }
        }

        /// The file bit position of the next real bit (byte offset × 8 + bit), found by
        /// walking back over the buffered bytes and their stuffing.
        func position(_ d: Span<UInt8>) -> Int {
            let real = max(0, self.real)
            let bytes = (real + 7) / 8
            var p = pos
            for _ in 0..<bytes {
                p -= 1
                if d[p] == 0, d[p - 1] == 0xFF { p -= 1 }
            }
            return p * 8 + (bytes * 8 - real)
        }

        /// After the last MCU of an interval or scan, the marker that must follow, with only
        /// the padding bits of the last byte unread (libjpeg would skip whole bytes with a
        /// warning: those files go the old way). Returns the byte after the marker.
        func marker(_ d: Span<UInt8>) -> (code: UInt8, next: Int)? {
            guard real < 8 else { return nil }
            var p = pos
            guard p + 1 < d.count, d[p] == 0xFF else { return nil }
            while p + 2 < d.count, d[p + 1] == 0xFF { p += 1 }
            let code = d[p + 1]
            guard code != 0 else { return nil }
            return (code, p + 2)
        }
    }

    /// HUFF_EXTEND (T.81 F.2.2.1 EXTEND): the signed value of `size` magnitude bits.
    @inline(__always)
    static func extend(_ v: Int, _ size: Int) -> Int {
        v < 1 << (size - 1) ? v - (1 << size) + 1 : v
    }

    /// One Huffman symbol of table `slot`; nil for a code the table does not hold. The
    /// caller has refilled (≥ 32 bits).
    @inline(__always)
    static func symbol(_ r: inout BitReader, _ fast: Span<UInt16>, _ slow: Span<Int32>, slot: Int) -> Int? {
        let e = Int(fast[unchecked: slot << lookahead | r.peek(lookahead)])
        if e != 0 {
            r.consume(e >> 8)
            return e & 0xFF
        }
        guard let (symbol, length) = longSymbol(r.peek(16), slow, slot: slot), symbol >= 0, symbol < 256 else { return nil }
        r.consume(length)
        return Int(fast[symbolBase + slot * 256 + symbol])
    }

    /// Codes longer than the lookahead (T.81 F.2.2.3 DECODE, from length lookahead + 1): the
    /// symbol's index among the slot's values and the code length, for the next 16 bits.
    @inline(never)
    static func longSymbol(_ bits: Int, _ slow: Span<Int32>, slot: Int) -> (index: Int, length: Int)? {
        for length in (lookahead + 1)...16 {
            let code = bits >> (16 - length)
            if code <= Int(slow[slot * 36 + length]) {
                return (Int(slow[slot * 36 + 18 + length]) + code, length)
            }
        }
        return nil
    }

    // MARK: MCUs

    /// What one MCU holds for the preview: each block's DC difference and, for 4:2:0 chroma,
    /// the DC-free parts of its 2×2 IDCT (see `chromaParts`).
    struct MCU: Sendable {
        var diffs = InlineArray<6, Int32>(repeating: 0)
        var parts = InlineArray<6, Int32>(repeating: 0)
    }

    /// Decodes the MCU at the reader; false for a code no table holds, made-up bits used, or
    /// chroma coefficients outside the range where libjpeg's C and SIMD 2×2 IDCTs agree.
    @inline(never)
    static func decodeMCU(_ reader: inout BitReader, _ d: Span<UInt8>, _ fast: Span<UInt16>, _ pairs: Span<UInt32>,
                          _ slow: Span<Int32>,
                          _ layout: Layout, _ chromaQuant: Span<Int32>, into mcu: inout MCU) -> Bool {
        // A local copy, written back once: the compiler keeps it in registers.
        var r = reader
        defer { reader = r }
        for b in 0..<layout.blocks.count {
            let block = layout.blocks[b]
            if r.count < 32 { r.refill(d) }
            guard let size = symbol(&r, fast, slow, slot: block.dc) else { return false }
            var diff = 0
            if size != 0 {
                diff = extend(r.peek(size), size)
                r.consume(size)
            }
            mcu.diffs[b] = Int32(diff)
            if block.chroma < 0 {
                guard skipAC(&r, d, fast, pairs, slow, slot: block.ac) else { return false }
            } else {
                guard let parts = chromaAC(&r, d, fast, pairs, slow, slot: block.ac, quant: chromaQuant, offset: block.chroma * 25)
                else { return false }
                mcu.parts[block.chroma * 3] = parts.0
                mcu.parts[block.chroma * 3 + 1] = parts.1
                mcu.parts[block.chroma * 3 + 2] = parts.2
            }
        }
        return r.real >= 0
    }

    /// Reads past a block's AC coefficients: one `Tables.pairs` lookup per one or two
    /// coefficients whose codes and magnitudes fit the lookahead, the symbol table for longer ones.
    @inline(__always)
    static func skipAC(_ r: inout BitReader, _ d: Span<UInt8>, _ fast: Span<UInt16>, _ pairs: Span<UInt32>,
                       _ slow: Span<Int32>, slot: Int) -> Bool {
        let base = (slot - 4) << lookahead
        var k = 1
        while k < 64 {
            if r.count < 32 { r.refill(d) }
            let e = pairs[unchecked: base | r.peek(lookahead)]
            if e != 0 {
                // libjpeg stops a block once k reaches 64: the second coefficient only counts before.
                k += Pair.firstAdvance(e)
                if k < 64 {
                    r.consumeBoth(e)
                    k += Pair.secondAdvance(e)
                } else {
                    r.consume(Pair.firstBits(e))
                }
                continue
            }
            guard let symbol = symbol(&r, fast, slow, slot: slot) else { return false }
            let run = symbol >> 4, size = symbol & 15
            if size != 0 {
                r.consume(size)
                k += run + 1
            } else if run == 15 {
                k += 16
            } else {
                break
            }
        }
        return true
    }

    /// Zigzag index (with libjpeg's overflow entries) → place among the 25 coefficients the
    /// 2×2 IDCT reads (rows and columns 0, 1, 3, 5, 7 of the natural order, row-major), −1 for
    /// the others.
    static let zigzagSlot: [Int] = naturalOrder.map { n in
        let row = n / 8, col = n % 8
        guard row == 0 || row & 1 == 1, col == 0 || col & 1 == 1 else { return -1 }
        return (row + 1) / 2 * 5 + (col + 1) / 2
    }

    /// The natural-order index of each of the 25 places of `zigzagSlot`.
    static let slotNatural: [Int] = (0..<25).map { s in max(0, 2 * (s / 5) - 1) * 8 + max(0, 2 * (s % 5) - 1) }

    /// A 4:2:0 chroma block's AC coefficients, reduced to what its 2×2 IDCT needs besides DC.
    @inline(__always)
    static func chromaAC(_ r: inout BitReader, _ d: Span<UInt8>, _ fast: Span<UInt16>, _ pairs: Span<UInt32>,
                         _ slow: Span<Int32>, slot: Int, quant: Span<Int32>, offset: Int) -> (Int32, Int32, Int32)? {
        let base = (slot - 4) << lookahead
        let places = zigzagSlot.span
        var coef = InlineArray<25, Int32>(repeating: 0)
        // Places written: most chroma blocks leave all 24 AC places empty.
        var used: UInt32 = 0
        var k = 1
        while k < 64 {
            if r.count < 32 { r.refill(d) }
            let bits = r.peek(lookahead)
            let e = pairs[unchecked: base | bits]
            if e != 0 {
                // Codes and magnitudes within the lookahead: the values are in `bits` already.
                let first = Pair.firstBits(e), size = Pair.firstSize(e)
                k += Pair.firstAdvance(e)
                if size != 0 { keep(places[k - 1], bits, end: first, size: size, &coef, &used) }
                guard k < 64 else {
                    r.consume(first)
                    break
                }
                let secondSize = Pair.secondSize(e)
                k += Pair.secondAdvance(e)
                if secondSize != 0 { keep(places[k - 1], bits, end: Pair.both(e), size: secondSize, &coef, &used) }
                r.consumeBoth(e)
                continue
            }
            guard let symbol = symbol(&r, fast, slow, slot: slot) else { return nil }
            let run = symbol >> 4, size = symbol & 15
            if size != 0 {
                k += run
                let place = places[k]
                if place >= 0 {
                    coef[place] = Int32(extend(r.peek(size), size))
                    used |= 1 << place
                }
                r.consume(size)
                k += 1
            } else if run == 15 {
                k += 16
            } else {
                break
            }
        }
        return used == 0 ? (0, 0, 0) : chromaParts(coef, used: used, quant: quant, offset: offset)
    }

    /// Stores the coefficient whose magnitude bits end `end` bits into `bits` (lookahead wide)
    /// at `place`, when the 2×2 IDCT reads that place (≥ 0). JCOEF is a short; a 15-bit
    /// magnitude always fits.
    @inline(__always)
    static func keep(_ place: Int, _ bits: Int, end: Int, size: Int, _ coef: inout InlineArray<25, Int32>, _ used: inout UInt32) {
        guard place >= 0 else { return }
        coef[place] = Int32(extend(bits >> (lookahead - end) & (1 << size - 1), size))
        used |= 1 << place
    }

    // MARK: Reduced IDCTs

    /// jidctred.c constants (CONST_BITS 13): FIX(3.624509785), FIX(1.272758580),
    /// FIX(0.850430095), FIX(0.720959822), the odd part of the 2-point IDCT.
    static let c1: Int = 29692, c3: Int = 10426, c5: Int = 6967, c7: Int = 5906

    /// The DC-independent parts of jpeg_idct_2x2 for one block (`coef` and `quant` in the
    /// places of `zigzagSlot`, `used` the places written, the others zero): the odd part of pass 1's column 0 and pass 2's odd parts of
    /// both rows. Pass 1 of column 0 is 4·DC·q plus a DC-free term, exactly (DC·q << 15 is a
    /// multiple of 2^13), so the DC joins later.
    ///
    /// libjpeg-turbo runs jsimd_idct_2x2 (SSE2) here, which dequantises with 16-bit products
    /// and saturates pass 1 to 16 bits, where jpeg_idct_2x2 keeps ints: nil when any value
    /// leaves the range where both give the same result, and the old path decides.
    @inline(__always)
    static func chromaParts(_ coef: InlineArray<25, Int32>, used: UInt32, quant: Span<Int32>, offset: Int) -> (Int32, Int32, Int32)? {
        var z = InlineArray<25, Int>(repeating: 0)
        var places = used
        while places != 0 {
            let i = places.trailingZeroBitCount
            places &= places - 1
            let v = Int(coef[i]) * Int(quant[offset + i])
            guard fits16(v) else { return nil }
            z[i] = v
        }
        // Odd part of column place 0 (rows 1, 3, 5, 7 are places 5, 10, 15, 20).
        let t0 = c1 * z[5] - c3 * z[10] + c5 * z[15] - c7 * z[20]
        // Pass 1 of columns 1, 3, 5, 7: rows A (tmp10 + tmp0) and B (tmp10 − tmp0), descaled by 13.
        var a = InlineArray<4, Int>(repeating: 0), b = InlineArray<4, Int>(repeating: 0)
        for i in 0..<4 {
            let col = i + 1
            let tmp10 = z[col] << 15
            let t = c1 * z[5 + col] - c3 * z[10 + col] + c5 * z[15 + col] - c7 * z[20 + col]
            guard fits32(tmp10 + t + 4096), fits32(tmp10 - t + 4096) else { return nil }
            a[i] = (tmp10 + t + 4096) >> 13
            b[i] = (tmp10 - t + 4096) >> 13
            guard fits16(a[i]), fits16(b[i]) else { return nil }
        }
        let p0 = c1 * a[0] - c3 * a[1] + c5 * a[2] - c7 * a[3]
        let p1 = c1 * b[0] - c3 * b[1] + c5 * b[2] - c7 * b[3]
        return (Int32(t0), Int32(p0), Int32(p1))
    }

    @inline(__always) static func fits32(_ v: Int) -> Bool { v == Int(Int32(truncatingIfNeeded: v)) }
    @inline(__always) static func fits16(_ v: Int) -> Bool { v == Int(Int16(truncatingIfNeeded: v)) }

    /// The IDCT's range limit (jdmaster.c prepare_range_limit_table, post-IDCT part): a
    /// value wraps at 1024, then −128…127 map to 0…255 and the rest clamp.
    @inline(__always)
    static func rangeLimit(_ v: Int) -> UInt8 {
        let i = v & 1023
        if i < 128 { return UInt8(i + 128) }
        if i < 512 { return 255 }
        if i < 896 { return 0 }
        return UInt8(i - 896)
    }

    /// jpeg_idct_1x1: the block's mean, DC·q/8 rounded; the DC as JCOEF (a short).
    @inline(__always)
    static func idct1(_ dc: Int32, quant: Int32) -> UInt8 {
        let v = Int(Int16(truncatingIfNeeded: dc)) * Int(quant)
        return rangeLimit((v + 4) >> 3)
    }

    /// jpeg_idct_2x2 from the DC and `chromaParts`: row-major 2×2 samples; nil outside the
    /// range where libjpeg's C and SIMD versions agree.
    @inline(__always)
    static func idct2(_ dc: Int32, quant: Int32, _ t0: Int32, _ p0: Int32, _ p1: Int32) -> InlineArray<4, UInt8>? {
        let z0 = Int(Int16(truncatingIfNeeded: dc)) * Int(quant)
        if t0 == 0, p0 == 0, p1 == 0 {
            // A flat block: every output is (4·z0 << 15 + 2^19) >> 20 = (z0 + 4) >> 3.
            let v = (z0 + 4) >> 3
            guard fits16(z0), v >= -512, v < 512 else { return nil }
            return InlineArray(repeating: rangeLimit(v))
        }
        guard fits16(z0), fits32(z0 << 15 + Int(t0) + 4096), fits32(z0 << 15 - Int(t0) + 4096) else { return nil }
        var out = InlineArray<4, UInt8>(repeating: 0)
        for row in 0..<2 {
            // Pass 1's column 0 for this row, then pass 2's two outputs.
            let w = 4 * z0 + (((row == 0 ? Int(t0) : -Int(t0)) + 4096) >> 13)
            let p = row == 0 ? Int(p0) : Int(p1)
            guard w < 1 << 16, w >= -(1 << 16) else { return nil }
            for col in 0..<2 {
                let sum = (col == 0 ? w << 15 + p : w << 15 - p) + (1 << 19)
                guard fits32(sum) else { return nil }
                let v = sum >> 20
                guard v >= -512, v < 512 else { return nil }
                out[row * 2 + col] = rangeLimit(v)
            }
        }
        return out
    }

    // MARK: Sinks

    /// Where the reduced samples of each MCU go (planes one after the other in one array,
    /// `samples`), filled MCU by MCU with the true DC predictors.
    struct Planes: Sendable {
        /// Per component: its first sample, samples per row, and how far its part of the MCU
        /// moves per MCU across (samples) and down (rows).
        let start: InlineArray<3, Int>, stride: InlineArray<3, Int>, stepX: InlineArray<3, Int>, stepY: InlineArray<3, Int>
        /// Per block of the MCU: component, 0 or 1 for 4:2:0 chroma (else −1), offset from
        /// its component's part of the MCU.
        let component: InlineArray<6, Int>, chroma: InlineArray<6, Int>, offset: InlineArray<6, Int>
        let blocks: Int, mcusX: Int, sampleCount: Int
        /// The first MCU row these planes hold (a part of the picture's rows, for a helper thread).
        let firstRow: Int
        let quant: InlineArray<3, Int32>
        var predictors = InlineArray<3, Int32>(repeating: 0)
        /// MCUs written so far, and the next one's place.
        private(set) var index = 0
        private var mx = 0, my = 0

        /// Planes for MCU rows `firstRow..<firstRow + rows` (all by default).
        init(_ layout: Layout, firstRow: Int = 0, rows: Int? = nil) {
            var start = InlineArray<3, Int>(repeating: 0), stride = InlineArray<3, Int>(repeating: 0)
            var stepX = InlineArray<3, Int>(repeating: 1), stepY = InlineArray<3, Int>(repeating: 1)
            var quant = InlineArray<3, Int32>(repeating: 0)
            var total = 0
            for c in 0..<layout.components {
                let plane = layout.plane(c)
                stepX[c] = c == 0 ? layout.lumaH : (layout.isH2V2Chroma ? 2 : 1)
                stepY[c] = c == 0 ? layout.lumaV : (layout.isH2V2Chroma ? 2 : 1)
                start[c] = total
                stride[c] = plane.stride
                total += plane.stride * (rows ?? layout.mcusY) * stepY[c]
                quant[c] = layout.dcQuant[c]
            }
            var component = InlineArray<6, Int>(repeating: 0), chroma = InlineArray<6, Int>(repeating: -1)
            var offset = InlineArray<6, Int>(repeating: 0)
            for (b, block) in layout.blocks.enumerated() {
                component[b] = block.component
                chroma[b] = block.chroma
                offset[b] = block.dy * stride[block.component] + block.dx
            }
            sampleCount = total
            (self.start, self.stride, self.stepX, self.stepY, self.quant) = (start, stride, stepX, stepY, quant)
            (self.component, self.chroma, self.offset) = (component, chroma, offset)
            blocks = layout.blocks.count
            mcusX = layout.mcusX
            self.firstRow = firstRow
        }

        /// Continues at MCU `index`.
        mutating func seek(_ index: Int) {
            self.index = index
            mx = index % mcusX
            my = index / mcusX - firstRow
        }

        /// Writes the next MCU from its differences into `samples`; false outside the IDCT's
        /// agreed range.
        @inline(__always)
        mutating func write(_ mcu: MCU, reset: Bool, into samples: inout MutableSpan<UInt8>) -> Bool {
            if reset { predictors = InlineArray(repeating: 0) }
            for b in 0..<blocks {
                let c = component[b]
                predictors[c] &+= mcu.diffs[b]
                let at = start[c] + my * stepY[c] * stride[c] + mx * stepX[c] + offset[b]
                let part = chroma[b]
                if part < 0 {
                    samples[at] = idct1(predictors[c], quant: quant[c])
                } else {
                    guard let s = idct2(predictors[c], quant: quant[c], mcu.parts[part * 3], mcu.parts[part * 3 + 1],
                                        mcu.parts[part * 3 + 2])
                    else { return false }
                    samples[at] = s[0]
                    samples[at + 1] = s[1]
                    samples[at + stride[c]] = s[2]
                    samples[at + stride[c] + 1] = s[3]
                }
            }
            index += 1
            mx += 1
            if mx == mcusX {
                mx = 0
                my += 1
            }
            return true
        }
    }

    /// A speculative thread's MCUs: bit position << 1 | predictors reset before it, then per
    /// block its DC difference (a 16-bit value: T.81 F.1.2.1 sizes reach 15 bits) and for
    /// 4:2:0 chroma the three `chromaParts`.
    struct Records: Sendable {
        var positions: [Int] = []
        var diffs: [Int16] = []
        var parts: [Int32] = []

        mutating func append(_ mcu: MCU, position: Int, reset: Bool, _ layout: Layout) {
            positions.append(position << 1 | (reset ? 1 : 0))
            for b in 0..<layout.blocks.count { diffs.append(Int16(truncatingIfNeeded: mcu.diffs[b])) }
            if layout.isH2V2Chroma { for i in 0..<6 { parts.append(mcu.parts[i]) } }
        }

        mutating func removeAll() {
            positions.removeAll(keepingCapacity: true)
            diffs.removeAll(keepingCapacity: true)
            parts.removeAll(keepingCapacity: true)
        }
    }

    // MARK: Threads

    /// How a thread's decode ended.
    enum End: Sendable {
        /// It decoded to the scan's end, which an EOI follows.
        case complete
        /// Its MCU `own` (thread 1: MCU index; others: record index) starts at bit `position`
        /// of the file, where the next thread's record `next` does; thread 1 also gives its
        /// predictors there.
        case synced(own: Int, next: Int, position: Int, predictors: InlineArray<3, Int32>)
        case failed

        var isFailed: Bool { if case .failed = self { true } else { false } }
    }

    /// A thread started mid-scan: where, and what it left when done.
    final class Speculation: Sendable {
        /// First byte it decodes.
        let start: Int
        /// Whether `start` follows a restart marker (an MCU certainly starts there).
        let afterRestart: Bool
        /// The restart marker number expected at the end of its first interval.
        let nextRestart: Int
        let done = Atomic<Bool>(false)
        let cancelled = Atomic<Bool>(false)
        let result = Mutex<(records: Records, end: End)?>(nil)

        init(start: Int, afterRestart: Bool, nextRestart: Int) {
            self.start = start
            self.afterRestart = afterRestart
            self.nextRestart = nextRestart
        }
    }

    /// What the last decode did, for the benchmark and the tests.
    struct Report: Sendable {
        /// Per meeting of thread 1 (then each later thread) with the next: bytes read past
        /// the next thread's start before their parses met.
        var syncBytesPastSplit: [Int] = []
        /// MCUs whose DC values came from a later thread's records.
        var speculativeMCUs = 0
        /// Whether a helper wrote and converted the bottom rows (`finishInParallel`).
        var finishedInParallel = false
        /// Milliseconds until every thread was done, then writing the later threads'
        /// records (with the colour conversion when finished in parallel), then the colour
        /// conversion.
        var decodeMilliseconds = 0.0, recordsMilliseconds = 0.0, colourMilliseconds = 0.0
    }

    /// Where a thread starts: thread 1 at the scan's start, a later one at its byte.
    private struct Start {
        var pos: Int
        /// An MCU certainly starts at `pos` (the scan's start or after a restart marker).
        var knownMCU: Bool
        var nextRestart: Int
        var speculative: Bool
    }

    /// Decodes from `start` until the scan's end, or until it meets `next`'s parse. Thread 1
    /// (`planes` non-nil) writes planes, the others fill `records`.
    private static func run(_ d: Span<UInt8>, _ layout: Layout, start: Start, next: Speculation?,
                            planes: inout Planes?, samples: inout [UInt8], records: inout Records, own: Speculation?,
                            awaitNext: Bool, isCancelled: () -> Bool = { false }) -> End {
        let fast = layout.tables.fast.span, pairs = layout.tables.pairs.span, slow = layout.tables.slow.span
        let chromaQuant = layout.chromaQuant.span
        let total = layout.totalMCUs, interval = layout.restartInterval
        let isFirst = planes != nil
        var r = BitReader(at: start.pos)
        var intervalLeft = interval
        var expectedRestart = start.nextRestart
        // Predictors reset before the next MCU: at a restart, not at a guessed start.
        var reset = start.knownMCU
        var restarts = 0
        var mcu = MCU()
        var next = next
        // MCU starts past `next.start` while `next` still runs: position, MCU, predictors.
        var pending: [(position: Int, index: Int, predictors: InlineArray<3, Int32>)] = []
        var cursor = -1
        var nextRecords: [Int] = []
        while true {
            let count = isFirst ? planes!.index : records.positions.count
            if isFirst && count == total {
                guard let m = r.marker(d), m.code == eoi else { return .failed }
                return .complete
            }
            if interval > 0 && intervalLeft == 0 {
                guard let m = r.marker(d) else { return .failed }
                if m.code == eoi, !isFirst { return .complete }
                guard m.code == rst0 + UInt8(expectedRestart) else { return .failed }
                r = BitReader(at: m.next)
                expectedRestart = (expectedRestart + 1) & 7
                intervalLeft = interval
                reset = true
            }
            if let own, count & 63 == 0, own.cancelled.load(ordering: .relaxed) { return .failed }
            // Thread 1 asks its caller every 1024 MCUs (about 1/50 of a 100 MP picture's scan).
            if isFirst, count & 1023 == 0, isCancelled() { return .failed }
            let position = !isFirst || (next.map { r.pos > $0.start } ?? false) ? r.position(d) : 0
            if let nx = next, position >= nx.start * 8 {
                let predictors = planes?.predictors ?? InlineArray(repeating: 0)
                if cursor < 0 {
                    if nx.done.load(ordering: .acquiring) {
                        let result = nx.result.withLock { $0 }
                        if let result, !result.end.isFailed {
                            nextRecords = result.records.positions
                            // The first start both saw, among those passed while waiting.
                            var i = 0
                            for p in pending {
                                while i < nextRecords.count, nextRecords[i] >> 1 < p.position { i += 1 }
                                if i < nextRecords.count, nextRecords[i] >> 1 == p.position {
                                    return .synced(own: p.index, next: i, position: p.position, predictors: p.predictors)
                                }
                            }
                            cursor = i
                        } else {
                            next = nil  // it failed: decode to the end alone
                        }
                        pending = []
                    } else if awaitNext {
                        while !nx.done.load(ordering: .acquiring) { Thread.sleep(forTimeInterval: 0.0001) }
                        continue
                    } else {
                        pending.append((position, count, predictors))
                    }
                }
                if cursor >= 0 {
                    while cursor < nextRecords.count, nextRecords[cursor] >> 1 < position { cursor += 1 }
                    if cursor == nextRecords.count {
                        next = nil
                    } else if nextRecords[cursor] >> 1 == position {
                        return .synced(own: count, next: cursor, position: position, predictors: predictors)
                    }
                }
            }
            let saved = r
            if decodeMCU(&r, d, fast, pairs, slow, layout, chromaQuant, into: &mcu) {
                if isFirst {
                    var out = samples.mutableSpan
                    guard planes!.write(mcu, reset: reset, into: &out) else { return .failed }
                } else {
                    records.append(mcu, position: position, reset: reset, layout)
                    // More MCUs than the frame has: a false parse to give up.
                    guard count < total else { return .failed }
                }
                reset = false
                intervalLeft -= 1
                continue
            }
            guard start.speculative else { return .failed }
            // The data's end: padding bits only, then EOI.
            if saved.real < 8, let m = saved.marker(d), m.code == eoi { return .complete }
            // A false parse met a code no table holds: forget it and guess again a byte on.
            guard !start.knownMCU, restarts < maxRestarts else { return .failed }
            restarts += 1
            records.removeAll()
            pending = []
            cursor = -1
            var p = position / 8 + 1
            while p < d.count, d[p - 1] == 0xFF { p += 1 }
            guard p < d.count else { return .failed }
            r = BitReader(at: p)
            reset = false
        }
    }

    /// Decodes `data`'s 1/8 preview with `threads` threads (TurboJPEG read `header`); `splits` (for tests) overrides where the later threads start,
    /// as byte offsets into the file, and `awaitMeetings` makes each thread that reaches the
    /// next one's start wait for it, so that they meet even where a small file would be
    /// done before a thread starts. Nil for a file this does not take or that does not
    /// decode cleanly, or once `isCancelled` (asked on the calling thread) says so; the later
    /// threads then stop too.
    static func decode(_ data: some SharedBytes, header: JPEGCodec.Header, threads: Int = 2,
                       splits: [Int]? = nil, awaitMeetings: Bool = false, report: inout Report,
                       isCancelled: () -> Bool = { false }) -> ARGBPixels? {
        data.withSpan { d in
            decode(d, shared: data, header: header, threads: threads, splits: splits, awaitMeetings: awaitMeetings,
                   report: &report, isCancelled: isCancelled)
        }
    }

    /// `decode` with `data`'s span (`d`) held for this thread.
    private static func decode(_ d: Span<UInt8>, shared data: some SharedBytes, header: JPEGCodec.Header, threads: Int,
                               splits: [Int]?, awaitMeetings: Bool, report: inout Report,
                               isCancelled: () -> Bool) -> ARGBPixels? {
        guard let layout = layout(d, header: header) else { return nil }
        let total = layout.totalMCUs
        // Later threads: at even shares of the scan, or after the first restart marker there.
        var specs: [Speculation] = []
        let scanLength = d.count - layout.scanStart
        let count = max(1, threads)
        for s in splits ?? (1..<count).map({ layout.scanStart + scanLength * $0 / count }) {
            var p = max(s, (specs.last?.start ?? layout.scanStart) + 1)
            if layout.restartInterval > 0 {
                while p + 1 < d.count, !(d[p] == 0xFF && d[p + 1] >= rst0 && d[p + 1] < rst0 + 8) { p += 1 }
                guard p + 1 < d.count else { break }
                specs.append(Speculation(start: p + 2, afterRestart: true, nextRestart: Int(d[p + 1] - rst0 + 1) & 7))
            } else {
                while p < d.count, d[p - 1] == 0xFF { p += 1 }
                guard p < d.count - 2 else { break }
                specs.append(Speculation(start: p, afterRestart: false, nextRestart: 0))
            }
        }
        // The later threads, each racing the one after it; Foundation threads, not the global
        // dispatch pool, whose Linux monitor would wake the process every second.
        let finished = NSCondition()
        for (i, spec) in specs.enumerated() {
            let next: Speculation? = i + 1 < specs.count ? specs[i + 1] : nil
            let thread = Thread {
                var records = Records()
                // Sized from the checked frame: a share of its MCUs, never more than all.
                let share = Double(data.count - spec.start) / Double(max(1, scanLength))
                let expected = min(total + 1, Int(Double(total) * share * 1.1) + 64)
                records.positions.reserveCapacity(expected)
                records.diffs.reserveCapacity(expected * layout.blocks.count)
                if layout.isH2V2Chroma { records.parts.reserveCapacity(expected * 6) }
                var none: Planes? = nil
                var noSamples: [UInt8] = []
                let end = data.withSpan { span in
                    run(span, layout, start: Start(pos: spec.start, knownMCU: spec.afterRestart,
                                                   nextRestart: spec.nextRestart, speculative: true),
                        next: next, planes: &none, samples: &noSamples, records: &records, own: spec, awaitNext: awaitMeetings)
                }
                spec.result.withLock { $0 = (records, end) }
                finished.lock()
                spec.done.store(true, ordering: .releasing)
                finished.broadcast()
                finished.unlock()
            }
            thread.start()
        }
        let clock = ContinuousClock()
        let started = clock.now
        func milliseconds(since t: ContinuousClock.Instant) -> Double {
            let d = clock.now - t
            return Double(d.components.seconds) * 1000 + Double(d.components.attoseconds) / 1e15
        }
        var planes: Planes? = Planes(layout)
        var samples = [UInt8](repeating: 0, count: planes!.sampleCount)
        var none = Records()
        let end = run(d, layout, start: Start(pos: layout.scanStart, knownMCU: true, nextRestart: 0, speculative: false),
                      next: specs.first, planes: &planes, samples: &samples, records: &none, own: nil,
                      awaitNext: awaitMeetings, isCancelled: isCancelled)
        for spec in specs { spec.cancelled.store(true, ordering: .relaxed) }
        finished.lock()
        while !specs.allSatisfy({ $0.done.load(ordering: .acquiring) }) { finished.wait() }
        finished.unlock()
        guard var planes else { return nil }
        report.decodeMilliseconds = milliseconds(since: started)
        let joined = clock.now
        // Follow the chain of meetings: which records of which later thread make which MCUs.
        var segments: [(records: Records, from: Int, to: Int)] = []
        var link = end
        var i = 0
        var next = planes.index
        while case .synced(let own, let nextRecord, let position, let predictors) = link {
            report.syncBytesPastSplit.append(position / 8 - specs[i].start)
            if i == 0 {
                planes.seek(own)
                planes.predictors = predictors
                next = own
            }
            guard let result = specs[i].result.withLock({ $0 }) else { return nil }
            let stop: Int
            switch result.end {
            case .failed: return nil
            case .complete: stop = result.records.positions.count
            case .synced(let own, _, _, _): stop = own
            }
            guard stop >= nextRecord, next + stop - nextRecord <= total else { return nil }
            segments.append((result.records, nextRecord, stop))
            next += stop - nextRecord
            link = result.end
            i += 1
        }
        guard case .complete = link, next == total else { return nil }
        report.speculativeMCUs = total - planes.index
        let w = (layout.width + 7) / 8, h = (layout.height + 7) / 8
        guard let pixels = ARGBPixels(width: w, height: h, zeroed: false) else { return nil }
        // One later thread's records: a helper writes and converts the bottom MCU rows while
        // this thread does the rest; both take about half of the time this used to take alone.
        if segments.count == 1, let helped = finishInParallel(segments[0], planes: planes, samples: &samples, layout,
                                                              into: pixels) {
            guard helped else { return nil }
            report.finishedInParallel = true
            report.recordsMilliseconds = milliseconds(since: joined)
            return pixels
        }
        for segment in segments {
            guard write(segment.records, from: segment.from, to: segment.to, into: &planes, &samples, layout) else { return nil }
        }
        report.recordsMilliseconds = milliseconds(since: joined)
        let written = clock.now
        pixels.withMutableSpan { out in convert(planes, samples, layout, rows: 0..<h, into: &out) }
        report.colourMilliseconds = milliseconds(since: written)
        return pixels
    }

    /// The speculative MCUs (`segment`, from `planes.index` on) written and all rows
    /// converted into `pixels` on two threads: this one takes the MCUs up to an MCU row R and
    /// the rows above it, a helper those from R on into planes of its own. R balances the
    /// two: writing a record costs about three times converting an MCU's pixels (measured,
    /// 55 against 18 ns on the 100 MP file). Nil when the records are too few to share;
    /// false when an IDCT leaves the agreed range.
    private static func finishInParallel(_ segment: (records: Records, from: Int, to: Int), planes: Planes,
                                         samples: inout [UInt8], _ layout: Layout, into pixels: ARGBPixels) -> Bool? {
        let first = planes.index, total = layout.totalMCUs, mcusX = layout.mcusX
        let firstFullRow = (first + mcusX - 1) / mcusX
        let balanced = (total / 2 + first * 3 / 8) / mcusX
        let row = min(layout.mcusY - 1, max(firstFullRow, balanced))
        // The helper's rows hold speculative MCUs only, and enough of them to be worth a thread.
        guard row >= firstFullRow, total - row * mcusX >= 4 * mcusX else { return nil }
        let split = row * mcusX, splitRecord = segment.from + split - first
        // The predictors at the split: those at `first` plus the differences up to it.
        var predictors = planes.predictors
        let blocks = layout.blocks.count
        let positions = segment.records.positions.span, diffs = segment.records.diffs.span
        for r in segment.from..<splitRecord {
            if positions[r] & 1 != 0 { predictors = InlineArray(repeating: 0) }
            for b in 0..<blocks { predictors[planes.component[b]] &+= Int32(diffs[r * blocks + b]) }
        }
        let h = pixels.height, outputRow = row * layout.lumaV
        let atSplit = predictors
        let helper = Helper()
        let thread = Thread {
            var own = Planes(layout, firstRow: row, rows: layout.mcusY - row)
            own.seek(split)
            own.predictors = atSplit
            var ownSamples = [UInt8](repeating: 0, count: own.sampleCount)
            let ok = write(segment.records, from: splitRecord, to: segment.to, into: &own, &ownSamples, layout)
            if ok {
                pixels.withMutableSpan(rows: outputRow..<h) { out in
                    convert(own, ownSamples, layout, rows: outputRow..<h, into: &out)
                }
            }
            helper.finish(ok)
        }
        thread.start()
        // `samples` is written in place: a copy of it (the caller's is still referenced) cost
        // its 2.3 MB again at 100 MP, every page of it a first touch.
        var planes = planes
        var ok = write(segment.records, from: segment.from, to: splitRecord, into: &planes, &samples, layout)
        if ok {
            pixels.withMutableSpan(rows: 0..<outputRow) { out in convert(planes, samples, layout, rows: 0..<outputRow, into: &out) }
        }
        ok = helper.wait() && ok
        return ok
    }

    /// A helper thread's outcome, waited for.
    private final class Helper: Sendable {
        private let condition = NSCondition()
        private let state = Mutex<(done: Bool, ok: Bool)>((false, false))

        func finish(_ ok: Bool) {
            condition.lock()
            state.withLock { $0 = (true, ok) }
            condition.broadcast()
            condition.unlock()
        }

        func wait() -> Bool {
            condition.lock()
            while !state.withLock({ $0.done }) { condition.wait() }
            condition.unlock()
            return state.withLock { $0.ok }
        }
    }

    /// Writes records `from..<to` as the next MCUs of `planes`.
    private static func write(_ records: Records, from: Int, to: Int, into planes: inout Planes, _ samples: inout [UInt8],
                              _ layout: Layout) -> Bool {
        var mcu = MCU()
        let blocks = layout.blocks.count, chroma = layout.isH2V2Chroma
        let positions = records.positions.span, diffs = records.diffs.span, parts = records.parts.span
        var out = samples.mutableSpan
        for r in from..<to {
            for b in 0..<blocks { mcu.diffs[b] = Int32(diffs[r * blocks + b]) }
            if chroma { for k in 0..<6 { mcu.parts[k] = parts[r * 6 + k] } }
            guard planes.write(mcu, reset: positions[r] & 1 != 0, into: &out) else { return false }
        }
        return true
    }

    // MARK: Colour

    /// Upsamples (jdsample.c) and converts (jdcolor.c) output rows `rows` from `planes`
    /// (which start at their `firstRow`) into `out`, which holds just those rows.
    static func convert(_ planes: Planes, _ samples: [UInt8], _ layout: Layout, rows: Range<Int>,
                        into out: inout MutableSpan<UInt32>) {
        let w = (layout.width + 7) / 8
        let lumaStride = planes.stride[0]
        let luma = samples.span
        // Output row y is row y − skipped of these planes.
        let skipped = planes.firstRow * layout.lumaV
        if layout.components == 1 {
            for y in rows {
                let row = (y - skipped) * lumaStride, o = (y - rows.lowerBound) * w
                for x in 0..<w {
                    let v = UInt32(luma[row + x])
                    out[o + x] = 0xFF00_0000 | v << 16 | v << 8 | v
                }
            }
            return
        }
        let t = YCbCrTables.values.span
        let cb = planes.start[1], cr = planes.start[2]
        let stride = planes.stride[1]
        // 4:2:0 chroma is full size after its 2×2 IDCT; at 1/8 libjpeg never upsamples
        // fancily (jdsample.c: do_fancy needs min_DCT_scaled_size > 1), so 4:2:2 and 4:4:0
        // chroma samples repeat.
        let (sx, sy) = layout.isH2V2Chroma ? (0, 0) : (layout.lumaH - 1, layout.lumaV - 1)
        for y in rows {
            let row = (y - skipped) * lumaStride, chromaRow = ((y - skipped) >> sy) * stride, o = (y - rows.lowerBound) * w
            for x in 0..<w {
                let at = chromaRow + (x >> sx)
                let l = Int(luma[row + x]), b = Int(luma[cb + at]), r = Int(luma[cr + at])
                // b and r are bytes: the four 256-entry tables take them unchecked.
                let red = clamp(l + t[unchecked: r]), blue = clamp(l + t[unchecked: 256 + b])
                let green = clamp(l + ((t[unchecked: 512 + b] + t[unchecked: 768 + r]) >> YCbCrTables.scaleBits))
                out[o + x] = 0xFF00_0000 | UInt32(red) << 16 | UInt32(green) << 8 | UInt32(blue)
            }
        }
    }

    @inline(__always)
    static func clamp(_ v: Int) -> Int { v < 0 ? 0 : (v > 255 ? 255 : v) }
}
