#!/usr/bin/python3
"""Writes the picture corpus the decoder tests compare against: every format the viewer reads,
in its main variants (lossy, lossless, alpha, animated, 16-bit, gray, tiled, multi-page, with
an ICC profile...), each with reference pixels from a decoder that is not ours.

Usage:
    Scripts/make-corpus.py OUTDIR        the files, their references and OUTDIR/manifest.json
    Scripts/make-corpus.py --bench FORMAT PHOTO OUT
                                          PHOTO (a JPEG) in FORMAT (png, jpeg, webp, gif, tiff,
                                          heif, avif, jxl, svg, bmp) for pictures-bench --formats
    Scripts/make-corpus.py --bench-animation OUT WIDTH HEIGHT FRAMES DELAY_MS
                                          an animated GIF of moving gradients and grain
    Scripts/make-corpus.py --fuzz-seeds  small seed files as base64, one per line (for
                                          Tests/PicturesTests/Corpus/FuzzSeeds.swift)
    Scripts/make-corpus.py --hostile     crafted files as "name decodes base64" lines (for
                                          Tests/PicturesTests/Corpus/RegressionCorpus.swift)

References are straight-alpha RGBA, 8 bits a sample, in displayed orientation, converted to
sRGB when the file carries a colour description. They come from Pillow (PNG, JPEG, GIF stills,
WebP, TIFF, BMP), from each library's own tool (heif-convert, avifdec, djxl, rsvg-convert), or,
for the files written here byte by byte (GIF animations, BMP variants, 16-bit TIFF), from the
pixels that were encoded. Colour conversions of references go through Pillow's ImageCms. Needs
Debian's python3-pil, webp, libheif-examples, libavif-bin, libjxl-tools, librsvg2-bin and libtiff-tools
(Scripts/install-deps.sh installs them). Runs with /usr/bin/python3, where python3-pil lives.
"""
import base64
import io
import json
import math
import os
import struct
import subprocess
import sys
import tempfile
import zlib

from PIL import Image, ImageCms

# ---------------------------------------------------------------- test pictures

def pattern(width, height, alpha=False, gray=False):
    """Gradients, hard edges and saturated patches: colour shifts, misplaced rows and lost
    alpha all show. Straight RGBA."""
    im = Image.new("RGBA", (width, height))
    px = im.load()
    for y in range(height):
        for x in range(width):
            r = (x * 255) // max(1, width - 1)
            g = (y * 255) // max(1, height - 1)
            b = 255 - (r + g) // 2
            if (x // 8 + y // 8) % 5 == 0:
                r, g, b = (230, 40, 30) if (x // 8) % 2 else (20, 180, 60)
            if x < 6:
                r = g = b = 255 if y % 2 else 0
            a = 255
            if alpha:
                # Radial fade with a fully transparent corner and an opaque centre.
                d = math.hypot(x - width / 2, y - height / 2) / math.hypot(width / 2, height / 2)
                a = max(0, min(255, int(300 * (1 - d))))
                if x > width - 6 and y < 6:
                    a = 0
            if gray:
                r = g = b = (r * 299 + g * 587 + b * 114) // 1000
            px[x, y] = (r, g, b, a)
    return im


def rgba_bytes(im):
    return im.convert("RGBA").tobytes()

# ---------------------------------------------------------------- ICC profiles

def s15(v):
    return struct.pack(">i", int(round(v * 65536)))


def mat_mul(a, b):
    return [[sum(a[i][k] * b[k][j] for k in range(3)) for j in range(3)] for i in range(3)]


def mat_vec(a, v):
    return [sum(a[i][k] * v[k] for k in range(3)) for i in range(3)]


def mat_inv(m):
    (a, b, c), (d, e, f), (g, h, i) = m
    det = a * (e * i - f * h) - b * (d * i - f * g) + c * (d * h - e * g)
    return [[(e * i - f * h) / det, (c * h - b * i) / det, (b * f - c * e) / det],
            [(f * g - d * i) / det, (a * i - c * g) / det, (c * d - a * f) / det],
            [(d * h - e * g) / det, (b * g - a * h) / det, (a * e - b * d) / det]]


def xy_to_xyz(x, y):
    return [x / y, 1.0, (1 - x - y) / y]


D50 = [0.9642, 1.0, 0.8249]
BRADFORD = [[0.8951, 0.2664, -0.1614], [-0.7502, 1.7135, 0.0367], [0.0389, -0.0685, 1.0296]]


def rgb_to_d50_matrix(white, red, green, blue):
    """RGB → XYZ for the given xy chromaticities, adapted to D50 with Bradford (ICC v4 §D.3)."""
    cols = [xy_to_xyz(*red), xy_to_xyz(*green), xy_to_xyz(*blue)]
    m = [[cols[j][i] for j in range(3)] for i in range(3)]
    w = xy_to_xyz(*white)
    s = mat_vec(mat_inv(m), w)
    m = [[m[i][j] * s[j] for j in range(3)] for i in range(3)]
    src = mat_vec(BRADFORD, w)
    dst = mat_vec(BRADFORD, D50)
    scale = [[dst[i] / src[i] if i == j else 0 for j in range(3)] for i in range(3)]
    adapt = mat_mul(mat_inv(BRADFORD), mat_mul(scale, BRADFORD))
    return mat_mul(adapt, m)


def icc_profile(space, tags):
    """An ICC v2.1 display profile: header, tag table, tag data (ICC.1:2001-04 §6)."""
    body = b""
    table = []
    offset = 128 + 4 + 12 * len(tags)
    for sig, data in tags:
        while (offset + len(body)) % 4:
            body += b"\0"
        table.append((sig, offset + len(body), len(data)))
        body += data
    size = offset + len(body)
    header = struct.pack(">I4sI4s4s4s", size, b"lcms", 0x02100000, b"mntr", space, b"XYZ ")
    header += struct.pack(">6H", 2024, 1, 1, 0, 0, 0) + b"acsp" + b"APPL" + b"\0" * 4
    header += b"\0" * 4 + b"\0" * 4 + b"\0" * 8 + struct.pack(">I", 0)
    header += s15(D50[0]) + s15(D50[1]) + s15(D50[2]) + b"lcms" + b"\0" * 16 + b"\0" * 28
    assert len(header) == 128
    out = header + struct.pack(">I", len(tags))
    for sig, off, length in table:
        out += sig + struct.pack(">II", off, length)
    return out + body


def xyz_tag(v):
    return b"XYZ \0\0\0\0" + s15(v[0]) + s15(v[1]) + s15(v[2])


def desc_tag(text):
    ascii_text = text.encode() + b"\0"
    return b"desc\0\0\0\0" + struct.pack(">I", len(ascii_text)) + ascii_text + b"\0" * 12 + b"\0" * 67


def gamma_curve(gamma):
    return b"curv\0\0\0\0" + struct.pack(">IH", 1, int(round(gamma * 256))) + b"\0\0"


def srgb_curve():
    # parametricCurveType function 3: the sRGB curve (IEC 61966-2-1).
    params = [2.4, 1 / 1.055, 0.055 / 1.055, 1 / 12.92, 0.04045]
    return b"para\0\0\0\0" + struct.pack(">HH", 3, 0) + b"".join(s15(p) for p in params)


def rgb_icc(name, white, red, green, blue, curve):
    m = rgb_to_d50_matrix(white, red, green, blue)
    return icc_profile(b"RGB ", [
        (b"desc", desc_tag(name)), (b"cprt", b"text\0\0\0\0" + b"No copyright, generated\0"),
        (b"wtpt", xyz_tag(D50)),
        (b"rXYZ", xyz_tag([m[0][0], m[1][0], m[2][0]])),
        (b"gXYZ", xyz_tag([m[0][1], m[1][1], m[2][1]])),
        (b"bXYZ", xyz_tag([m[0][2], m[1][2], m[2][2]])),
        (b"rTRC", curve), (b"gTRC", curve), (b"bTRC", curve)])


def gray_icc(name, gamma):
    return icc_profile(b"GRAY", [(b"desc", desc_tag(name)), (b"cprt", b"text\0\0\0\0none\0"),
                                 (b"wtpt", xyz_tag(D50)), (b"kTRC", gamma_curve(gamma))])


D65 = (0.3127, 0.3290)
# Display P3: DCI-P3 primaries, D65 white, the sRGB curve (what phones write).
P3_ICC = rgb_icc("Display P3 (generated)", D65, (0.680, 0.320), (0.265, 0.690), (0.150, 0.060), srgb_curve())
# Adobe RGB (1998) primaries and its 563/256 gamma.
ADOBE_ICC = rgb_icc("Adobe RGB compatible (generated)", D65, (0.64, 0.33), (0.21, 0.71), (0.15, 0.06), gamma_curve(563 / 256))
GRAY_ICC = gray_icc("Gray gamma 1.5 (generated)", 1.5)
SRGB = ImageCms.createProfile("sRGB")


def to_srgb(im, icc):
    """Converts straight RGBA or L through `icc` to sRGB, perceptual intent, as LittleCMS does."""
    profile = ImageCms.ImageCmsProfile(io.BytesIO(icc))
    if im.mode in ("L", "LA"):
        alpha = im.getchannel("A") if im.mode == "LA" else None
        rgb = ImageCms.profileToProfile(im.convert("L"), profile, SRGB, renderingIntent=0, outputMode="RGB")
        out = rgb.convert("RGBA")
        if alpha is not None:
            out.putalpha(alpha)
        return out
    rgba = im.convert("RGBA")
    rgb = ImageCms.profileToProfile(rgba.convert("RGB"), profile, SRGB, renderingIntent=0, outputMode="RGB")
    out = rgb.convert("RGBA")
    out.putalpha(rgba.getchannel("A"))
    return out

# ---------------------------------------------------------------- byte-level writers

def gif_lzw(indices):
    """LZW data at 8-bit minimum code size that never grows the table past 9-bit codes: a
    clear code every 250 literals (valid GIF; what "uncompressed GIF" writers do)."""
    clear, end = 256, 257
    codes = []
    for i, v in enumerate(indices):
        if i % 250 == 0:
            codes.append(clear)
        codes.append(v)
    codes.append(end)
    out, acc, bits = bytearray(), 0, 0
    for c in codes:
        acc |= c << bits
        bits += 9
        while bits >= 8:
            out.append(acc & 0xFF)
            acc >>= 8
            bits -= 8
    if bits:
        out.append(acc & 0xFF)
    blocks = b"".join(bytes([len(out[i:i + 255])]) + out[i:i + 255] for i in range(0, len(out), 255))
    return bytes([8]) + blocks + b"\0"


def gif_file(width, height, palette, frames, loop=0):
    """frames: dicts with x, y, w, h, rows (lists of indices), delay (cs), disposal,
    transparent (index or None), interlace."""
    out = b"GIF89a" + struct.pack("<HHBBB", width, height, 0xF7, 0, 0)
    out += b"".join(bytes(c) for c in palette) + b"\0\0\0" * (256 - len(palette))
    out += b"\x21\xFF\x0BNETSCAPE2.0\x03\x01" + struct.pack("<H", loop) + b"\0"
    for f in frames:
        t = f.get("transparent")
        packed = (f.get("disposal", 0) << 2) | (1 if t is not None else 0)
        out += b"\x21\xF9\x04" + struct.pack("<BHB", packed, f.get("delay", 10), t or 0) + b"\0"
        interlace = f.get("interlace", False)
        out += b"\x2C" + struct.pack("<HHHHB", f["x"], f["y"], f["w"], f["h"], 0x40 if interlace else 0)
        order = list(range(f["h"]))
        if interlace:
            order = [y for start, step in ((0, 8), (4, 8), (2, 4), (1, 2)) for y in range(start, f["h"], step)]
        out += gif_lzw([i for y in order for i in f["rows"][y]])
    return out + b"\x3B"


def composite_gif(width, height, palette, frames):
    """The canvases a browser shows after each frame (GIF89a §23: disposal 2 clears to
    transparent, 3 restores what was under the frame)."""
    canvas = [(0, 0, 0, 0)] * (width * height)
    shown, pending = [], None
    for f in frames:
        if pending:
            mode, rect, saved = pending
            x0, y0, x1, y1 = rect
            for y in range(y0, y1):
                for x in range(x0, x1):
                    if mode == 2:
                        canvas[y * width + x] = (0, 0, 0, 0)
                    elif mode == 3:
                        canvas[y * width + x] = saved[(y - y0) * (x1 - x0) + (x - x0)]
        x0, y0 = max(0, f["x"]), max(0, f["y"])
        x1, y1 = min(width, f["x"] + f["w"]), min(height, f["y"] + f["h"])
        saved = [canvas[y * width + x] for y in range(y0, y1) for x in range(x0, x1)]
        pending = (f.get("disposal", 0), (x0, y0, x1, y1), saved)
        for y in range(y0, y1):
            for x in range(x0, x1):
                i = f["rows"][y - f["y"]][x - f["x"]]
                if i != f.get("transparent"):
                    canvas[y * width + x] = tuple(palette[i]) + (255,)
        shown.append(b"".join(bytes(p) for p in canvas))
    return shown


def bmp_file(im, bits, compression=0, topdown=False, v5=False, icc=None, masks=None, rle_skip=False):
    """A BMP of `im` (RGBA); returns the file and the RGBA a decoder must show. bits 1/4/8
    use a palette of the picture's colours (quantised), 16 uses 5-6-5 bit fields, 32 BGRA
    with an alpha mask in a V5 header."""
    w, h = im.size
    px = list(im.getdata())
    expected = list(px)
    palette = []
    if bits <= 8:
        q = im.convert("RGB").quantize(colors=min(256, 1 << bits), dither=Image.Dither.NONE)
        pal = q.getpalette()[:3 * (1 << bits)]
        palette = [tuple(pal[i:i + 3]) for i in range(0, len(pal), 3)]
        while len(palette) < (1 << bits):
            palette.append((0, 0, 0))
        idx = list(q.getdata())
        expected = [palette[i] + (255,) for i in idx]
    rows = []
    for y in range(h):
        if bits <= 8:
            line = idx[y * w:(y + 1) * w]
            if compression in (1, 2):
                rows.append(line)
                continue
            data, acc, n = bytearray(), 0, 0
            for v in line:
                acc = (acc << bits) | v
                n += bits
                if n == 8:
                    data.append(acc)
                    acc, n = 0, 0
            if n:
                data.append(acc << (8 - n))
        elif bits == 16:
            data = bytearray()
            for (r, g, b, a) in px[y * w:(y + 1) * w]:
                v = (r >> 3) << 11 | (g >> 2) << 5 | (b >> 3)
                data += struct.pack("<H", v)
        elif bits == 24:
            data = bytearray(b"".join(bytes((b, g, r)) for (r, g, b, a) in px[y * w:(y + 1) * w]))
        else:
            data = bytearray(b"".join(bytes((b, g, r, a)) for (r, g, b, a) in px[y * w:(y + 1) * w]))
        while len(data) % 4:
            data.append(0)
        rows.append(bytes(data))
    if bits == 16:
        # 5-6-5 scaled back to 8 bits as v·255/max, rounded.
        expected = [(((r >> 3) * 255 + 15) // 31, ((g >> 2) * 255 + 31) // 63, ((b >> 3) * 255 + 15) // 31, 255)
                    for (r, g, b, a) in px]
    if bits == 24:
        expected = [(r, g, b, 255) for (r, g, b, a) in px]
    stored = rows if topdown else rows[::-1]
    if compression == 1:  # RLE8
        data = bytearray()
        for r, line in enumerate(stored):
            x = 0
            if rle_skip and r == 1:
                # A delta escape skips 5 pixels: they stay transparent.
                data += bytes([0, 2, 5, 0])
                x = 5
            while x < w:
                run = 1
                while x + run < w and line[x + run] == line[x] and run < 255:
                    run += 1
                if run >= 3 or w - x < 3:
                    data += bytes([run, line[x]])
                    x += run
                else:
                    lit = min(255, w - x)
                    data += bytes([0, lit]) + bytes(line[x:x + lit]) + (b"\0" if lit % 2 else b"")
                    x += lit
            data += b"\0\0"
        data += b"\0\1"
        pixel_data = bytes(data)
        if rle_skip:
            y = h - 2  # stored row 1 of a bottom-up file
            for x in range(5):
                expected[y * w + x] = (0, 0, 0, 0)
    elif compression == 2:  # RLE4: runs of alternating nibble pairs, here one index each
        data = bytearray()
        for line in stored:
            x = 0
            while x < w:
                run = 1
                while x + run < w and line[x + run] == line[x] and run < 255:
                    run += 1
                data += bytes([run, line[x] << 4 | line[x]])
                x += run
            data += b"\0\0"
        data += b"\0\1"
        pixel_data = bytes(data)
    else:
        pixel_data = b"".join(stored)
    info_size = 124 if v5 else 40
    colours = len(palette)
    comp_field = compression
    if bits == 16 or (bits == 32 and v5):
        comp_field = 3
    info = struct.pack("<IiiHHIIiiII", info_size, w, -h if topdown else h, 1, bits, comp_field,
                       len(pixel_data), 2835, 2835, colours, 0)
    extra = b""
    mask = masks or ((0xF800, 0x07E0, 0x001F, 0) if bits == 16 else (0xFF0000, 0xFF00, 0xFF, 0xFF000000))
    if v5:
        info += struct.pack("<IIII", *mask)
        info += b"MBED"[::-1] if False else struct.pack("<I", 0x4D424544 if icc else 0x73524742)  # 'MBED' or 'sRGB'
        info += b"\0" * 36 + b"\0" * 12  # endpoints, gamma
        info += struct.pack("<IIII", 4, 0, 0, 0)  # intent, profile offset/size (patched below), reserved
    elif bits == 16:
        extra = struct.pack("<III", *mask[:3])
    pal = b"".join(bytes((b, g, r, 0)) for (r, g, b) in palette)
    offset = 14 + len(info) + len(extra) + len(pal)
    profile_at = offset + len(pixel_data)
    if v5 and icc:
        info = info[:112] + struct.pack("<II", profile_at - 14, len(icc)) + info[120:]
    tail = icc if (v5 and icc) else b""
    size = profile_at + len(tail)
    header = b"BM" + struct.pack("<IHHI", size, 0, 0, offset)
    exp = b"".join(bytes(p) for p in expected)
    return header + info + extra + pal + pixel_data + tail, exp


def tiff_rgb(width, height, samples, bits=16, rows_per_strip=None):
    """An uncompressed big-endian RGB TIFF (TIFF 6.0 baseline) with its directory first, as
    cameras and scanners write them (libtiff puts it last), in strips of `rows_per_strip`."""
    rows_per_strip = rows_per_strip or height
    fmt = ">HHH" if bits == 16 else ">BBB"
    data = b"".join(struct.pack(fmt, *px) for px in samples)
    row_bytes = width * 3 * bits // 8
    strips = [(y, min(rows_per_strip, height - y)) for y in range(0, height, rows_per_strip)]
    entries = [(256, 4, 1, width), (257, 4, 1, height), (258, 3, 3, None), (259, 3, 1, 1), (262, 3, 1, 2),
               (273, 4, len(strips), None), (277, 3, 1, 3), (278, 4, 1, rows_per_strip), (279, 4, len(strips), None)]
    ifd_at = 8
    extra_at = ifd_at + 2 + 12 * len(entries) + 4
    bps_at = extra_at
    offsets_at = bps_at + 6
    counts_at = offsets_at + 4 * len(strips)
    data_at = counts_at + 4 * len(strips)
    out = b"MM\0*" + struct.pack(">I", ifd_at) + struct.pack(">H", len(entries))
    for tag, typ, count, value in entries:
        if tag == 258:
            out += struct.pack(">HHII", tag, typ, count, bps_at)
        elif tag in (273, 279):
            if count == 1:
                value = data_at if tag == 273 else strips[0][1] * row_bytes
                out += struct.pack(">HHII", tag, typ, count, value)
            else:
                out += struct.pack(">HHII", tag, typ, count, offsets_at if tag == 273 else counts_at)
        elif typ == 3:
            out += struct.pack(">HHIHH", tag, typ, count, value, 0)
        else:
            out += struct.pack(">HHII", tag, typ, count, value)
    out += struct.pack(">I", 0) + struct.pack(">HHH", bits, bits, bits)
    out += b"".join(struct.pack(">I", data_at + y * row_bytes) for y, _ in strips)
    out += b"".join(struct.pack(">I", n * row_bytes) for _, n in strips)
    return out + data


# ---------------------------------------------------------------- the corpus

class Corpus:
    def __init__(self, out):
        self.out = out
        self.entries = []

    def path(self, name):
        return os.path.join(self.out, name)

    def run(self, *args):
        subprocess.run(args, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

    def add(self, name, fmt, variant, references, tolerance, pages=1, frames=1, delays=None, scale=1):
        """references: list of (page, frame, RGBA image or bytes, width, height)."""
        refs = []
        for page, frame, ref, w, h in references:
            ref_name = f"{name}.p{page}.f{frame}.rgba"
            data = ref if isinstance(ref, (bytes, bytearray)) else rgba_bytes(ref)
            assert len(data) == w * h * 4, (name, len(data), w, h)
            with open(self.path(ref_name), "wb") as f:
                f.write(data)
            refs.append({"page": page, "frame": frame, "rgba": ref_name, "width": w, "height": h})
        self.entries.append({"file": name, "format": fmt, "variant": variant, "pages": pages, "frames": frames,
                             "delays": delays, "tolerance": tolerance, "scale": scale, "references": refs})

    def save(self, im, name, fmt, **params):
        im.save(self.path(name), fmt, **params)

    def reference_png(self, png_path, icc_to_srgb=True):
        """A PNG written by a library's own tool, as RGBA, converted to sRGB if it says it is not."""
        im = Image.open(png_path)
        im.load()
        icc = im.info.get("icc_profile")
        if im.mode in ("I;16", "I;16B", "I"):
            im = im.point(lambda v: v / 257).convert("L")
        if im.mode not in ("RGBA", "RGB", "L", "LA"):
            im = im.convert("RGBA")
        if icc and icc_to_srgb:
            return to_srgb(im, icc)
        return im.convert("RGBA")

    # ------------------------------------------------------------ formats

    def png(self):
        base = pattern(64, 48, alpha=True)
        self.save(base, "png-rgba.png", "PNG")
        self.add("png-rgba.png", "png", "RGBA", [(0, 0, base, 64, 48)], 0)
        rgb = pattern(64, 48).convert("RGB")
        self.save(rgb, "png-icc-p3.png", "PNG", icc_profile=P3_ICC)
        self.add("png-icc-p3.png", "png", "ICC Display P3", [(0, 0, to_srgb(rgb, P3_ICC), 64, 48)], 2)
        gray = pattern(64, 48, gray=True).convert("L")
        self.save(gray, "png-gray-icc.png", "PNG", icc_profile=GRAY_ICC)
        self.add("png-gray-icc.png", "png", "gray with gray ICC", [(0, 0, to_srgb(gray, GRAY_ICC), 64, 48)], 2)
        # 1-bit gray and 1-bit palette at 400² and beyond (issue 12 reported valid 1-bit files
        # of these sizes as truncated).
        for n in (400, 1000):
            bits = Image.new("1", (n, n))
            bits.putdata([((x // 7 + y // 5) % 2) * 255 for y in range(n) for x in range(n)])
            self.save(bits, f"png-1bit-{n}.png", "PNG", optimize=True)
            self.add(f"png-1bit-{n}.png", "png", f"1-bit gray {n}²", [(0, 0, bits.convert("RGBA"), n, n)], 0)
        two = Image.new("P", (400, 400))
        two.putpalette([20, 40, 200, 250, 240, 10])
        two.putdata([(x * y // 97) % 2 for y in range(400) for x in range(400)])
        self.save(two, "png-1bit-palette-400.png", "PNG", bits=1)
        self.add("png-1bit-palette-400.png", "png", "1-bit palette 400²", [(0, 0, two.convert("RGBA"), 400, 400)], 0)
        # gAMA 1.0 (linear samples) without cHRM: shown through a gamma-1.0 sRGB-primaries profile.
        linear_icc = rgb_icc("linear", D65, (0.64, 0.33), (0.30, 0.60), (0.15, 0.06), gamma_curve(1.0))
        raw = rgb.tobytes()
        rows = b"".join(b"\0" + raw[y * 64 * 3:(y + 1) * 64 * 3] for y in range(48))
        def chunk(t, b):
            return struct.pack(">I", len(b)) + t + b + struct.pack(">I", zlib.crc32(t + b) & 0xFFFFFFFF)
        png = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", 64, 48, 8, 2, 0, 0, 0))
        png += chunk(b"gAMA", struct.pack(">I", 100000)) + chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b"")
        with open(self.path("png-gamma-1.png"), "wb") as f:
            f.write(png)
        self.add("png-gamma-1.png", "png", "gAMA 1.0", [(0, 0, to_srgb(rgb, linear_icc), 64, 48)], 2)

    def jpeg(self):
        rgb = pattern(64, 48).convert("RGB")
        self.save(rgb, "jpeg-icc-adobe.jpg", "JPEG", quality=95, icc_profile=ADOBE_ICC)
        ref = Image.open(self.path("jpeg-icc-adobe.jpg")).convert("RGB")
        self.add("jpeg-icc-adobe.jpg", "jpeg", "ICC Adobe RGB", [(0, 0, to_srgb(ref, ADOBE_ICC), 64, 48)], 3)
        gray = pattern(64, 48, gray=True).convert("L")
        self.save(gray, "jpeg-gray-icc.jpg", "JPEG", quality=95, icc_profile=GRAY_ICC)
        ref = Image.open(self.path("jpeg-gray-icc.jpg")).convert("L")
        self.add("jpeg-gray-icc.jpg", "jpeg", "gray with gray ICC", [(0, 0, to_srgb(ref, GRAY_ICC), 64, 48)], 3)

    def webp(self):
        rgba = pattern(96, 64, alpha=True)
        rgb = pattern(96, 64).convert("RGB")
        for name, im, params, tol in [
            ("webp-lossy.webp", rgb, {"quality": 80}, 1),
            ("webp-lossless.webp", rgb, {"lossless": True}, 0),
            ("webp-alpha-lossy.webp", rgba, {"quality": 80}, 1),
            # 1: libwebp premultiplies with its own rounding.
            ("webp-alpha-lossless.webp", rgba, {"lossless": True}, 1),
        ]:
            self.save(im, name, "WEBP", **params)
            ref = Image.open(self.path(name))
            ref.load()
            self.add(name, "webp", name[5:-5], [(0, 0, ref.convert("RGBA"), 96, 64)], tol)
        self.save(rgb, "webp-icc-p3.webp", "WEBP", lossless=True, icc_profile=P3_ICC)
        self.add("webp-icc-p3.webp", "webp", "ICC Display P3", [(0, 0, to_srgb(rgb, P3_ICC), 96, 64)], 2)
        # Animation: full-canvas lossless frames; the encoder turns them into sub-rectangles
        # with blending and disposal, and decoding must give the frames back.
        frames = []
        for i in range(4):
            im = pattern(80, 60, alpha=True)
            px = im.load()
            for y in range(10 + 8 * i, 26 + 8 * i):
                for x in range(5 + 12 * i, 25 + 12 * i):
                    px[x, y] = (255, 255 - 60 * i, 0, 255 if i % 2 else 128)
            frames.append(im)
        durations = [100, 40, 250, 70]
        frames[0].save(self.path("webp-animated.webp"), "WEBP", save_all=True, append_images=frames[1:],
                       duration=durations, loop=3, lossless=True)
        self.add("webp-animated.webp", "webp", "animated lossless",
                 [(0, i, f, 80, 60) for i, f in enumerate(frames)], 1, frames=4, delays=durations)

    def gif(self):
        w, h = 40, 30
        palette = [(0, 0, 0), (255, 255, 255), (230, 30, 30), (30, 200, 40), (40, 60, 220), (250, 220, 0)]
        def block(fw, fh, fn):
            return [[fn(x, y) for x in range(fw)] for y in range(fh)]
        background = {"x": 0, "y": 0, "w": w, "h": h, "rows": block(w, h, lambda x, y: 1 + ((x // 5 + y // 5) % 2)),
                      "delay": 20, "disposal": 1}
        frames = [
            background,
            # disposal 2: its square is cleared to transparent before the next frame
            {"x": 5, "y": 5, "w": 10, "h": 8, "rows": block(10, 8, lambda x, y: 3), "delay": 0, "disposal": 2},
            # disposal 3, with a transparent index: the canvas under it comes back afterwards
            {"x": 20, "y": 10, "w": 12, "h": 12, "rows": block(12, 12, lambda x, y: 0 if (x + y) % 3 == 0 else 4),
             "delay": 7, "disposal": 3, "transparent": 0},
            # reaches past the canvas (browsers clip), interlaced
            {"x": 30, "y": 20, "w": 20, "h": 15, "rows": block(20, 15, lambda x, y: 5 if y % 2 else 2),
             "delay": 50, "disposal": 0, "interlace": True},
        ]
        data = gif_file(w, h, palette, frames, loop=0)
        with open(self.path("gif-animated.gif"), "wb") as f:
            f.write(data)
        shown = composite_gif(w, h, palette, frames)
        # Delays as shown: 0 cs and 7 cs, 10 ms or less → 100 ms (browsers' rule).
        self.add("gif-animated.gif", "gif", "animated: disposal 1, 2, 3, transparency, clipping, interlace",
                 [(0, i, s, w, h) for i, s in enumerate(shown)], 0, frames=4, delays=[200, 100, 70, 500])
        # A still GIF written by Pillow, and one with a transparent colour.
        still = pattern(50, 40).convert("RGB").quantize(colors=64, dither=Image.Dither.NONE)
        self.save(still, "gif-still.gif", "GIF")
        ref = Image.open(self.path("gif-still.gif")).convert("RGBA")
        self.add("gif-still.gif", "gif", "still, 64 colours", [(0, 0, ref, 50, 40)], 0)
        self.save(still, "gif-transparent.gif", "GIF", transparency=0)
        ref = Image.open(self.path("gif-transparent.gif")).convert("RGBA")
        self.add("gif-transparent.gif", "gif", "still with a transparent colour", [(0, 0, ref, 50, 40)], 0)

    def tiff(self):
        rgb = pattern(64, 48).convert("RGB")
        rgba = pattern(64, 48, alpha=True)
        gray = pattern(64, 48, gray=True).convert("L")
        for name, im, params in [
            ("tiff-rgb-lzw.tif", rgb, {"compression": "tiff_lzw"}),
            ("tiff-rgba-deflate.tif", rgba, {"compression": "tiff_adobe_deflate"}),
            ("tiff-gray.tif", gray, {}),
            ("tiff-jpeg.tif", rgb, {"compression": "jpeg", "quality": 90}),
        ]:
            self.save(im, name, "TIFF", **params)
            ref = Image.open(self.path(name)).convert("RGBA")
            self.add(name, "tiff", name[5:-4], [(0, 0, ref, 64, 48)], 2 if "jpeg" in name else 1)
        self.save(rgb, "tiff-icc-adobe.tif", "TIFF", icc_profile=ADOBE_ICC)
        self.add("tiff-icc-adobe.tif", "tiff", "ICC Adobe RGB", [(0, 0, to_srgb(rgb, ADOBE_ICC), 64, 48)], 2)
        # Tiled 16×16 (libtiff's own tiffcp retiles it).
        self.run("tiffcp", "-t", "-w", "16", "-l", "16", self.path("tiff-rgb-lzw.tif"), self.path("tiff-tiled.tif"))
        self.add("tiff-tiled.tif", "tiff", "tiled 16×16", [(0, 0, rgb.convert("RGBA"), 64, 48)], 0)
        # 16 bits a sample, written here; libtiff keeps the high byte, rounded.
        samples = [(x * 1000 % 65536, y * 1300 % 65536, (x * y * 50) % 65536) for y in range(20) for x in range(30)]
        with open(self.path("tiff-rgb16.tif"), "wb") as f:
            f.write(tiff_rgb(30, 20, samples))
        exp = b"".join(bytes((r >> 8, g >> 8, b >> 8, 255)) for r, g, b in samples)
        self.add("tiff-rgb16.tif", "tiff", "16-bit RGB", [(0, 0, exp, 30, 20)], 1)
        # 8-bit, directory first, four rows a strip: what a damaged-file test can cut.
        px = list(rgb.getdata())
        with open(self.path("tiff-strips.tif"), "wb") as f:
            f.write(tiff_rgb(64, 48, [p[:3] for p in px], bits=8, rows_per_strip=4))
        self.add("tiff-strips.tif", "tiff", "4-row strips, directory first", [(0, 0, rgb.convert("RGBA"), 64, 48)], 0)
        # Orientation 6 (rotate 90° clockwise to display).
        self.save(rgb, "tiff-orientation6.tif", "TIFF", tiffinfo={274: 6})
        self.add("tiff-orientation6.tif", "tiff", "orientation 6", [(0, 0, rgb.transpose(Image.Transpose.ROTATE_270), 48, 64)], 0)
        # Three pages of different sizes and kinds, then a reduced-resolution copy that is
        # not a page (NewSubfileType 1, set with libtiff's tiffset).
        pages = [rgb, gray.resize((32, 40)), pattern(20, 30, alpha=True)]
        thumb = rgb.resize((16, 12))
        pages[0].save(self.path("tiff-pages.tif"), "TIFF", save_all=True, append_images=pages[1:] + [thumb])
        self.run("tiffset", "-d", "3", "-s", "254", "1", self.path("tiff-pages.tif"))
        self.add("tiff-pages.tif", "tiff", "3 pages and a thumbnail",
                 [(i, 0, p.convert("RGBA"), p.size[0], p.size[1]) for i, p in enumerate(pages)], 0, pages=3)

    def heif(self):
        src, alpha_src, p3_src, second = (self.path(n) for n in ("heif-src.png", "heif-src-alpha.png",
                                                                    "heif-src-p3.png", "heif-src-2.png"))
        pattern(64, 48).convert("RGB").save(src)
        pattern(64, 48, alpha=True).save(alpha_src)
        pattern(64, 48).convert("RGB").save(p3_src, icc_profile=P3_ICC)
        pattern(40, 30, gray=True).convert("RGB").save(second)
        for ext, fmt, flag in [("heic", "heif", []), ("avif", "avif", ["-A"])]:
            # heif-enc embeds a PNG's ICC profile as a "prof" colour box.
            for name, source, tol in [(f"{fmt}-lossy.{ext}", src, 1), (f"{fmt}-alpha.{ext}", alpha_src, 1),
                                      (f"{fmt}-icc-p3.{ext}", p3_src, 3)]:
                self.run("heif-enc", *flag, "-q", "90", source, "-o", self.path(name))
                ref = self.avif_reference(name) if fmt == "avif" else self.tool_reference(name)
                self.add(name, fmt, name.split("-", 1)[1].rsplit(".", 1)[0], [(0, 0, ref, 64, 48)], tol)
            # Two pictures in one file: pages in the primary-first order heif-convert numbers them.
            name = f"{fmt}-two-images.{ext}"
            self.run("heif-enc", *flag, "-q", "90", src, second, "-o", self.path(name))
            out = self.path(name + ".ref.png")
            self.run("heif-convert", self.path(name), out)
            refs = []
            for i, (w, h) in enumerate([(64, 48), (40, 30)]):
                page_png = f"{out[:-4]}-{i + 1}.png"
                refs.append((i, 0, self.reference_png(page_png), w, h))
                os.remove(page_png)
            self.add(name, fmt, "two images", refs, 1, pages=2)
        # nclx colour codes: heif-enc 1.15 ignores its --colour_primaries option, so the AVIF's
        # colr box is patched to Display P3 (primaries 12) with the sRGB curve (transfer 13).
        data = bytearray(open(self.path("avif-lossy.avif"), "rb").read())
        at = data.find(b"colrnclx")
        assert at > 0, "no nclx box in heif-enc's AVIF"
        struct.pack_into(">HH", data, at + 8, 12, 13)
        with open(self.path("avif-nclx-p3.avif"), "wb") as f:
            f.write(data)
        ref = self.avif_reference("avif-lossy.avif")
        self.add("avif-nclx-p3.avif", "avif", "nclx Display P3", [(0, 0, to_srgb(ref, P3_ICC), 64, 48)], 3)
        for leftover in (src, alpha_src, p3_src, second):
            os.remove(leftover)

    def tool_reference(self, name):
        """heif-convert's decode of `name`, in sRGB."""
        out = self.path(name + ".ref.png")
        self.run("heif-convert", self.path(name), out)
        ref = self.reference_png(out)
        os.remove(out)
        return ref

    def avif(self):
        """AVIF variants libavif decodes in the viewer (one image, not turned), written by its own
        encoder: grey (4:0:0), 10-bit 4:4:4, 4:2:2, an odd size in 4:2:0 (the last chroma row
        and column cover one pixel), limited range, and alpha premultiplied in the file."""
        src, alpha_src, odd_src = (self.path(n) for n in ("avif-src.png", "avif-src-alpha.png", "avif-src-odd.png"))
        pattern(64, 48).convert("RGB").save(src)
        pattern(64, 48, alpha=True).save(alpha_src)
        pattern(63, 47).convert("RGB").save(odd_src)
        for name, source, args, size, tol in [
            ("avif-gray.avif", src, ["--yuv", "400"], (64, 48), 1),
            # Down to 8 bits a sample: rounded a level apart from avifdec's here and there.
            ("avif-10bit-444.avif", src, ["--depth", "10", "--yuv", "444"], (64, 48), 2),
            ("avif-422.avif", src, ["--yuv", "422"], (64, 48), 1),
            ("avif-odd-420.avif", odd_src, ["--yuv", "420"], (63, 47), 1),
            ("avif-limited-range.avif", src, ["--yuv", "420", "--range", "limited"], (64, 48), 1),
            ("avif-premultiplied.avif", alpha_src, ["--premultiply"], (64, 48), 2),
        ]:
            self.run("avifenc", "--min", "8", "--max", "8", "--speed", "8", *args, source, self.path(name))
            self.add(name, "avif", name[5:-5], [(0, 0, self.avif_reference(name), *size)], tol)
        for leftover in (src, alpha_src, odd_src):
            os.remove(leftover)

    def avif_reference(self, name):
        """avifdec's decode of `name`, in sRGB: libavif decodes an AVIF of one image in the
        viewer, each chroma sample covering its pixels as there (`-u nearest`). Its conversion
        rounds a level apart from libheif's here and there, which Display P3's red near 0
        makes 13 levels of sRGB."""
        out = self.path(name + ".ref.png")
        self.run("avifdec", "-u", "nearest", "-d", "8", self.path(name), out)
        ref = self.reference_png(out)
        os.remove(out)
        return ref

    def jxl(self):
        src = self.path("jxl-src.png")
        for name, im, args, tol in [
            ("jxl-lossy.jxl", pattern(64, 48).convert("RGB"), ["-d", "1"], 1),
            ("jxl-lossless.jxl", pattern(64, 48).convert("RGB"), ["-d", "0"], 0),
            ("jxl-alpha.jxl", pattern(64, 48, alpha=True), ["-d", "0"], 0),
            ("jxl-gray.jxl", pattern(64, 48, gray=True).convert("L"), ["-d", "0"], 0),
        ]:
            im.save(src)
            self.run("cjxl", src, self.path(name), *args)
            out = self.path(name + ".ref.png")
            self.run("djxl", self.path(name), out)
            self.add(name, "jxl", name[4:-4], [(0, 0, self.reference_png(out), 64, 48)], tol)
            os.remove(out)
        # A 16-bit source, and one in Display P3 kept losslessly (its profile travels along).
        im16 = Image.new("I;16", (64, 48))
        im16.putdata([(x * 1024 + y * 37) % 65536 for y in range(48) for x in range(64)])
        im16.save(src)
        self.run("cjxl", src, self.path("jxl-gray16.jxl"), "-d", "0")
        out = self.path("jxl-gray16.ref.png")
        self.run("djxl", self.path("jxl-gray16.jxl"), out)
        self.add("jxl-gray16.jxl", "jxl", "16-bit gray", [(0, 0, self.reference_png(out), 64, 48)], 1)
        os.remove(out)
        pattern(64, 48).convert("RGB").save(src, icc_profile=P3_ICC)
        self.run("cjxl", src, self.path("jxl-icc-p3.jxl"), "-d", "0")
        out = self.path("jxl-icc-p3.ref.png")
        self.run("djxl", self.path("jxl-icc-p3.jxl"), out)
        self.add("jxl-icc-p3.jxl", "jxl", "lossless Display P3", [(0, 0, self.reference_png(out), 64, 48)], 2)
        os.remove(out)
        os.remove(src)

    def svg(self):
        svg = """<?xml version="1.0" encoding="UTF-8"?>
<!-- a comment before the root -->
<svg xmlns="http://www.w3.org/2000/svg" width="60" height="40" viewBox="0 0 30 20">
  <rect x="0" y="0" width="30" height="20" fill="#3060c0"/>
  <circle cx="10" cy="10" r="7" fill="#f0d020" fill-opacity="0.75"/>
  <path d="M16 3 L28 17 L16 17 Z" fill="#e02020"/>
  <text x="2" y="19" font-size="3" fill="white">zoom</text>
</svg>
"""
        with open(self.path("svg-shapes.svg"), "w") as f:
            f.write(svg)
        refs = []
        for scale in (1, 4):
            out = self.path(f"svg-shapes.{scale}.png")
            self.run("rsvg-convert", "-w", str(60 * scale), "-h", str(40 * scale), self.path("svg-shapes.svg"), "-o", out)
            refs.append((0, 0 if scale == 1 else 1, Image.open(out).convert("RGBA"), 60 * scale, 40 * scale))
            os.remove(out)
        # Frame 1 stands for "the same document drawn at scale 4" (see the test).
        self.add("svg-shapes.svg", "svg", "shapes at 1× and 4×", refs, 2)

    def bmp(self):
        rgba = pattern(37, 23, alpha=True)
        rgb = pattern(37, 23)
        variants = [
            ("bmp-1bit.bmp", rgb, dict(bits=1)),
            ("bmp-4bit.bmp", rgb, dict(bits=4)),
            ("bmp-8bit.bmp", rgb, dict(bits=8)),
            ("bmp-rle8.bmp", rgb, dict(bits=8, compression=1, rle_skip=True)),
            ("bmp-rle4.bmp", rgb, dict(bits=4, compression=2)),
            ("bmp-565.bmp", rgb, dict(bits=16)),
            ("bmp-24bit.bmp", rgb, dict(bits=24)),
            ("bmp-24bit-topdown.bmp", rgb, dict(bits=24, topdown=True)),
            ("bmp-32bit-v5-alpha.bmp", rgba, dict(bits=32, v5=True)),
        ]
        for name, im, kw in variants:
            data, exp = bmp_file(im, **kw)
            with open(self.path(name), "wb") as f:
                f.write(data)
            # Pillow, an independent decoder, must agree with the encoded pixels where it reads them.
            # (5-6-5 within 1: Pillow widens by bit replication, the test expects rounding).
            tolerance = 1 if kw.get("bits") == 16 else 0
            if kw.get("bits") != 32 and not kw.get("rle_skip"):
                theirs = Image.open(self.path(name)).convert("RGBA").tobytes()
                worst = max(abs(a - b) for a, b in zip(theirs, exp))
                assert worst <= tolerance, f"Pillow disagrees on {name} by {worst}"
            self.add(name, "bmp", name[4:-4], [(0, 0, exp, 37, 23)], tolerance)
        data, _ = bmp_file(rgb, bits=32, v5=True, icc=ADOBE_ICC)
        with open(self.path("bmp-v5-icc.bmp"), "wb") as f:
            f.write(data)
        self.add("bmp-v5-icc.bmp", "bmp", "V5 with embedded Adobe RGB", [(0, 0, to_srgb(rgb, ADOBE_ICC), 37, 23)], 2)


def fuzz_seeds():
    """Small valid files of the formats beyond PNG and JPEG, for the mutation fuzzer."""
    seeds = []
    with tempfile.TemporaryDirectory() as d:
        c = Corpus(d)
        small = pattern(12, 9, alpha=True)
        def saved(fmt, name, im=small, **kw):
            im.save(os.path.join(d, name), fmt, **kw)
            return open(os.path.join(d, name), "rb").read()
        seeds.append(saved("WEBP", "a.webp", quality=50))
        seeds.append(saved("WEBP", "b.webp", lossless=True))
        frames = [pattern(12, 9, alpha=True), pattern(12, 9)]
        frames[0].save(os.path.join(d, "c.webp"), "WEBP", save_all=True, append_images=frames[1:], duration=[50, 60], lossless=True)
        seeds.append(open(os.path.join(d, "c.webp"), "rb").read())
        seeds.append(gif_file(8, 6, [(0, 0, 0), (255, 0, 0), (0, 0, 255)], [
            {"x": 0, "y": 0, "w": 8, "h": 6, "rows": [[(x + y) % 3 for x in range(8)] for y in range(6)], "disposal": 3},
            {"x": 2, "y": 1, "w": 4, "h": 4, "rows": [[1] * 4] * 4, "disposal": 2, "transparent": 0, "interlace": True}]))
        seeds.append(saved("TIFF", "d.tif", compression="tiff_lzw"))
        seeds.append(saved("TIFF", "e.tif", im=small.convert("L"), compression="packbits"))
        seeds.append(tiff_rgb(4, 3, [(i * 5000, i * 300, 65535 - i) for i in range(12)]))
        seeds.append(bmp_file(pattern(12, 9), bits=8, compression=1)[0])
        seeds.append(bmp_file(pattern(12, 9), bits=4)[0])
        seeds.append(bmp_file(small, bits=32, v5=True)[0])
        seeds.append(bmp_file(pattern(12, 9), bits=16)[0])
        small.convert("RGB").save(os.path.join(d, "f.png"))
        c.run("cjxl", os.path.join(d, "f.png"), os.path.join(d, "f.jxl"), "-d", "0")
        seeds.append(open(os.path.join(d, "f.jxl"), "rb").read())
        c.run("heif-enc", "-q", "30", os.path.join(d, "f.png"), "-o", os.path.join(d, "f.heic"))
        seeds.append(open(os.path.join(d, "f.heic"), "rb").read())
        c.run("heif-enc", "-A", "-q", "30", os.path.join(d, "f.png"), "-o", os.path.join(d, "f.avif"))
        seeds.append(open(os.path.join(d, "f.avif"), "rb").read())
        seeds.append(b'<svg xmlns="http://www.w3.org/2000/svg" width="8" height="6"><rect width="5" height="4" fill="red"/>'
                     b'<circle cx="5" cy="3" r="2" fill="blue" opacity=".5"/></svg>')
    return seeds


def hostile_files():
    """Crafted files that attack one structure each: (name, whether it must decode, bytes)."""
    out = []
    tiny = [[1]]
    # GIF: a 65535² screen (refused from the header), a frame far off the canvas whose LZW
    # data is one pixel, no colour table at all, an LZW code size past 8.
    gif = gif_file(1, 1, [(0, 0, 0), (255, 0, 0)], [{"x": 0, "y": 0, "w": 1, "h": 1, "rows": tiny}])
    out.append(("gif-screen-65535", False, gif[:6] + struct.pack("<HH", 65535, 65535) + gif[10:]))
    far = bytearray(gif)
    at = far.index(b"\x2C")
    struct.pack_into("<HHHH", far, at + 1, 65000, 65000, 65535, 1)
    out.append(("gif-frame-off-canvas-short-data", False, bytes(far)))
    bare = b"GIF89a" + struct.pack("<HHBBB", 2, 1, 0, 0, 0) + b"\x2C" + struct.pack("<HHHHB", 0, 0, 2, 1, 0)
    out.append(("gif-no-colour-table", True, bare + gif_lzw([0, 1]) + b"\x3B"))
    bad_code = bytearray(gif)
    bad_code[bad_code.index(b"\x2C") + 10] = 12
    out.append(("gif-lzw-code-size-12", False, bytes(bad_code)))
    # BMP: impossible sizes, a palette count of 2³²−1, pixels past the end, a delta escape
    # far outside the picture, a bit mask with a hole.
    bmp, _ = bmp_file(pattern(4, 3), bits=24)
    def patched(fmt, offset, value, data=bmp):
        b = bytearray(data)
        struct.pack_into(fmt, b, offset, value)
        return bytes(b)
    out.append(("bmp-height-int-min", False, patched("<i", 22, -2**31)))
    out.append(("bmp-width-negative", False, patched("<i", 18, -4)))
    out.append(("bmp-pixels-past-end", False, patched("<I", 10, 0xFFFFFF00)))
    out.append(("bmp-16384-square-no-rows", False, patched("<i", 22, 16384, patched("<i", 18, 16384))))
    pal, _ = bmp_file(pattern(4, 3), bits=8)
    out.append(("bmp-palette-count-4G", True, patched("<I", 46, 0xFFFFFFFF, pal)))
    rle, _ = bmp_file(pattern(6, 4), bits=8, compression=1)
    off = struct.unpack_from("<I", rle, 10)[0]
    out.append(("bmp-rle-delta-far-away", True, rle[:off] + bytes([0, 2, 255, 255, 3, 1]) + rle[off:]))
    field, _ = bmp_file(pattern(4, 3), bits=16, masks=(0xF00F, 0x07E0, 0x001F, 0))
    out.append(("bmp-mask-with-hole", False, field))
    # TIFF: a directory chain that loops, a strip offset past the end, a 65535² page.
    t = tiff_rgb(2, 2, [(1, 2, 3)] * 4)
    ifd = struct.unpack_from(">I", t, 4)[0]
    count = struct.unpack_from(">H", t, ifd)[0]
    loop = bytearray(t)
    struct.pack_into(">I", loop, ifd + 2 + 12 * count, ifd)
    out.append(("tiff-directory-loop", True, bytes(loop)))
    far_strip = bytearray(t)
    for i in range(count):
        tag = struct.unpack_from(">H", far_strip, ifd + 2 + 12 * i)[0]
        if tag == 273:
            struct.pack_into(">I", far_strip, ifd + 2 + 12 * i + 8, 0xFFFFFFF0)
    out.append(("tiff-strip-past-end", False, bytes(far_strip)))
    huge = bytearray(t)
    for i in range(count):
        tag = struct.unpack_from(">H", huge, ifd + 2 + 12 * i)[0]
        if tag in (256, 257):
            struct.pack_into(">I", huge, ifd + 2 + 12 * i + 8, 65535)
    out.append(("tiff-65535-square", False, bytes(huge)))
    # WebP: an extended header declaring a 2²⁴ × 2²⁴ canvas.
    vp8x = b"VP8X" + struct.pack("<I", 10) + bytes([0x10, 0, 0, 0]) + (2**24 - 1).to_bytes(3, "little") * 2
    out.append(("webp-canvas-16M-square", False, b"RIFF" + struct.pack("<I", 4 + len(vp8x)) + b"WEBP" + vp8x))
    # JPEG XL: a codestream header declaring 2³⁰ × 2³⁰ (SizeHeader: not small, 30-bit
    # height, ratio 1, default metadata), whose size times any per-pixel figure overflows.
    bits = []
    for value, count in ((0, 1), (3, 2), ((1 << 30) - 1, 30), (1, 3), (1, 1)):
        bits += [(value >> i) & 1 for i in range(count)]
    bits += [0] * (-len(bits) % 8)
    size_header = bytes(sum(bits[i + j] << j for j in range(8)) for i in range(0, len(bits), 8))
    out.append(("jxl-2^30-square", False, b"\xFF\x0A" + size_header + bytes(16)))
    # SVG: entity expansion ("billion laughs"), an absurd size, an external file reference.
    laughs = '<?xml version="1.0"?><!DOCTYPE svg [<!ENTITY a "lollollollollollollollollollol">'
    for i in range(1, 9):
        laughs += f'<!ENTITY {chr(97 + i)} "' + f"&{chr(96 + i)};" * 10 + '">'
    laughs += ']><svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><text>&i;</text></svg>'
    out.append(("svg-billion-laughs", False, laughs.encode()))
    out.append(("svg-width-1e9", False, b'<svg xmlns="http://www.w3.org/2000/svg" width="1e9" height="1e9"/>'))
    out.append(("svg-external-file", True, b'<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" '
                b'width="4" height="4"><image xlink:href="file:///etc/passwd" width="4" height="4"/></svg>'))
    return out


# ---------------------------------------------------------------- benchmark pictures

def bench_picture(fmt, photo, out):
    """The benchmark's photo (a JPEG pictures-bench writes) in `fmt`, through the format's own
    encoder where Debian has one (cwebp, heif-enc, cjxl) and Pillow otherwise. SVG is drawn
    anew: a document of the photo's size whose gradient has the photo's colours at its corners
    and centre (PictureBenchmark.photoColour), under a few hundred translucent shapes."""
    run = lambda *args: subprocess.run(args, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    if fmt == "jpeg":
        with open(photo, "rb") as src, open(out, "wb") as dst:
            dst.write(src.read())
    elif fmt == "webp":
        run("cwebp", "-quiet", "-q", "85", photo, "-o", out)
    elif fmt == "heif":
        run("heif-enc", "-q", "80", photo, "-o", out)
    elif fmt == "avif":
        # aom at speed 6: minutes rather than hours for 24 MP; the decoder's work is the same.
        run("heif-enc", "-A", "-q", "60", "-p", "speed=6", photo, "-o", out)
    elif fmt == "jxl":
        # VarDCT from the pixels (not cjxl's lossless JPEG transcoding), effort 3.
        run("cjxl", "--quiet", "--lossless_jpeg=0", "-d", "1", "-e", "3", photo, out)
    elif fmt == "svg":
        w, h = Image.open(photo).size
        shapes = []
        for i in range(400):
            x, y = (i * 7919) % w, (i * 104729) % h
            # Keep the centre (where the benchmark checks the colour) clear.
            if abs(x - w / 2) < w / 8 and abs(y - h / 2) < h / 8:
                continue
            shapes.append(f'<circle cx="{x}" cy="{y}" r="{w // 60}" fill="#{(i * 40503) % 0xFFFFFF:06x}" '
                          f'fill-opacity="0.35"/>')
        with open(out, "w") as f:
            f.write(f"""<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}">
<defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1">
<stop offset="0" stop-color="rgb(40,60,180)"/><stop offset="1" stop-color="rgb(220,180,120)"/></linearGradient></defs>
<rect width="{w}" height="{h}" fill="url(#g)"/>
{chr(10).join(shapes)}
</svg>
""")
    else:
        im = Image.open(photo)
        im.load()
        if fmt == "png":
            im.save(out, "PNG")
        elif fmt == "gif":
            im.quantize(colors=256, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE).save(out, "GIF")
        elif fmt == "tiff":
            im.save(out, "TIFF", compression="tiff_lzw")
        elif fmt == "bmp":
            im.save(out, "BMP")
        else:
            sys.exit(f"make-corpus: no benchmark picture for format {fmt!r}")


def bench_animation(out, width, height, frames, delay):
    """An animated GIF whose every frame changes everywhere (shifting gradients and grain): the
    worst case for a player, each frame a whole new canvas."""
    ramp = Image.linear_gradient("L")
    across, down = ramp.rotate(90).resize((width, height)), ramp.resize((width, height))
    shown = []
    for i in range(frames):
        r = across.point(lambda v, i=i: (v + i * 255 // frames) % 256)
        b = Image.effect_noise((width, height), 30 + i * 3)
        shown.append(Image.merge("RGB", (r, down, b)).quantize(colors=256, method=Image.Quantize.FASTOCTREE))
    shown[0].save(out, "GIF", save_all=True, append_images=shown[1:], duration=delay, loop=0, disposal=1)


def main():
    if len(sys.argv) == 5 and sys.argv[1] == "--bench":
        bench_picture(sys.argv[2], sys.argv[3], sys.argv[4])
        return
    if len(sys.argv) == 7 and sys.argv[1] == "--bench-animation":
        bench_animation(sys.argv[2], *(int(a) for a in sys.argv[3:]))
        return
    if len(sys.argv) == 2 and sys.argv[1] == "--fuzz-seeds":
        for seed in fuzz_seeds():
            print(base64.b64encode(seed).decode())
        return
    if len(sys.argv) == 2 and sys.argv[1] == "--hostile":
        for name, decodes, data in hostile_files():
            print(name, "true" if decodes else "false", base64.b64encode(data).decode())
        return
    if len(sys.argv) != 2 or sys.argv[1].startswith("-"):
        print(__doc__.strip(), file=sys.stderr)
        sys.exit(2)
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    c = Corpus(out)
    for section in (c.png, c.jpeg, c.webp, c.gif, c.tiff, c.heif, c.avif, c.jxl, c.svg, c.bmp):
        section()
    with open(os.path.join(out, "manifest.json"), "w") as f:
        json.dump(c.entries, f, indent=1)
    print(f"make-corpus: {len(c.entries)} files in {out}")


if __name__ == "__main__":
    main()
