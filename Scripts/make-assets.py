#!/usr/bin/env python3
"""Generates the demo images in Assets/ (procedural art, no third-party modules).

PNG files are written here with zlib; JPEG files go through libturbojpeg (the same
library the viewer decodes with) via ctypes, so no image tool is needed. Output is
deterministic: running the script again reproduces the committed files.

    python3 Scripts/make-assets.py [OUTPUT_DIR]        (default: Assets/)
    python3 Scripts/make-assets.py --fuzz-seeds        (base64 PNG seeds for the tests)
"""
import base64
import ctypes
import ctypes.util
import math
import os
import struct
import sys
import zlib


# ---------------------------------------------------------------- PNG writing

def png_chunk(kind, body):
    return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body) & 0xFFFFFFFF)


def paeth(a, b, c):
    # PNG specification §9.4: the predictor closest to a + b - c.
    p = a + b - c
    pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
    if pa <= pb and pa <= pc:
        return a
    return b if pb <= pc else c


def filter_row(kind, row, prev, bpp):
    """Applies PNG filter `kind` (0 None, 1 Sub, 2 Up, 3 Average, 4 Paeth) to one row."""
    out = bytearray(len(row))
    for i, x in enumerate(row):
        a = row[i - bpp] if i >= bpp else 0
        b = prev[i]
        c = prev[i - bpp] if i >= bpp else 0
        pred = (0, a, b, (a + b) >> 1, paeth(a, b, c))[kind]
        out[i] = (x - pred) & 0xFF
    return out


def encode_png(width, height, color_type, rows, bit_depth=8, palette=None, trns=None,
               filters=None, exif=None):
    """rows: list of bytes-like scanlines (already packed). filters: None picks per row
    the filter with the smallest sum of absolute differences (libpng's heuristic);
    a list cycles through the given filter types."""
    channels = {0: 1, 2: 3, 3: 1, 4: 2, 6: 4}[color_type]
    bpp = max(1, channels * bit_depth // 8)
    raw = bytearray()
    prev = bytes(len(rows[0]))
    for y, row in enumerate(rows):
        if filters is None:
            best = None
            for kind in (0, 1, 2, 4):
                candidate = filter_row(kind, row, prev, bpp)
                score = sum(v if v < 128 else 256 - v for v in candidate)
                if best is None or score < best[0]:
                    best = (score, kind, candidate)
            _, kind, data = best
        else:
            kind = filters[y % len(filters)]
            data = filter_row(kind, row, prev, bpp)
        raw.append(kind)
        raw += data
        prev = row
    out = b"\x89PNG\r\n\x1a\n"
    out += png_chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, bit_depth, color_type, 0, 0, 0))
    if exif is not None:
        out += png_chunk(b"eXIf", exif)
    if palette is not None:
        out += png_chunk(b"PLTE", bytes(c for rgb in palette for c in rgb))
    if trns is not None:
        out += png_chunk(b"tRNS", bytes(trns))
    out += png_chunk(b"IDAT", zlib.compress(bytes(raw), 9))
    out += png_chunk(b"IEND", b"")
    return out


# ---------------------------------------------------------------- JPEG writing

class TurboJPEG:
    """The three TurboJPEG 2.1 calls needed to compress an RGB buffer."""
    TJPF_RGB = 0
    TJSAMP_420 = 2

    def __init__(self):
        name = ctypes.util.find_library("turbojpeg") or "libturbojpeg.so.0"
        try:
            self.lib = ctypes.CDLL(name)
        except OSError as error:
            sys.exit(f"make-assets: cannot load libturbojpeg ({error}); install libturbojpeg0-dev")
        self.lib.tjInitCompress.restype = ctypes.c_void_p
        self.lib.tjCompress2.argtypes = [
            ctypes.c_void_p, ctypes.c_char_p, ctypes.c_int, ctypes.c_int, ctypes.c_int, ctypes.c_int,
            ctypes.POINTER(ctypes.c_void_p), ctypes.POINTER(ctypes.c_ulong), ctypes.c_int, ctypes.c_int,
            ctypes.c_int]
        self.lib.tjFree.argtypes = [ctypes.c_void_p]
        self.lib.tjDestroy.argtypes = [ctypes.c_void_p]
        self.lib.tjGetErrorStr2.argtypes = [ctypes.c_void_p]
        self.lib.tjGetErrorStr2.restype = ctypes.c_char_p

    def compress_rgb(self, width, height, rgb, quality):
        handle = self.lib.tjInitCompress()
        out = ctypes.c_void_p()
        size = ctypes.c_ulong(0)
        status = self.lib.tjCompress2(handle, bytes(rgb), width, 0, height, self.TJPF_RGB,
                                      ctypes.byref(out), ctypes.byref(size), self.TJSAMP_420, quality, 0)
        if status != 0:
            sys.exit("make-assets: tjCompress2 failed: " + self.lib.tjGetErrorStr2(handle).decode())
        data = ctypes.string_at(out, size.value)
        self.lib.tjFree(out)
        self.lib.tjDestroy(handle)
        return data


def exif_orientation_segment(value):
    """An APP1 segment holding a big-endian TIFF IFD0 with only the Orientation tag."""
    tiff = b"MM\x00\x2a" + struct.pack(">I", 8)
    tiff += struct.pack(">H", 1) + struct.pack(">HHIHH", 0x0112, 3, 1, value, 0) + struct.pack(">I", 0)
    body = b"Exif\x00\x00" + tiff
    return b"\xff\xe1" + struct.pack(">H", len(body) + 2) + body


# ---------------------------------------------------------------- the pictures

def clamp(v):
    return 0 if v < 0 else (255 if v > 255 else int(v))


def patch(rows, x0, y0, size, colour, channels):
    """Paints a flat square whose exact colour the tests assert after decoding."""
    for y in range(y0, y0 + size):
        row = rows[y]
        for x in range(x0, x0 + size):
            row[x * channels:(x + 1) * channels] = bytes(colour)


def sunset(width=1200, height=800):
    """Sky gradient, sun disc and layered hills: smooth areas for scrolling."""
    rows = []
    sun_x, sun_y, sun_r = width * 0.68, height * 0.52, height * 0.13
    for y in range(height):
        t = y / (height - 1)
        sky = (clamp(40 + 200 * t), clamp(30 + 110 * t * t), clamp(120 - 60 * t))
        row = bytearray(width * 3)
        hills = [height * (0.70 + 0.05 * math.sin(x / 97.0) + 0.03 * math.sin(x / 23.0 + 1.3)) for x in range(0, width, 1)]
        far = [height * (0.60 + 0.06 * math.sin(x / 151.0 + 2.0)) for x in range(width)]
        for x in range(width):
            d = math.hypot(x - sun_x, y - sun_y)
            if y > hills[x]:
                shade = (y - hills[x]) / height
                c = (clamp(30 - 20 * shade), clamp(70 - 40 * shade), clamp(45 - 20 * shade))
            elif y > far[x]:
                c = (70, 60, 110)
            elif d < sun_r:
                c = (255, 236, 170)
            else:
                glow = max(0.0, 1 - (d - sun_r) / (height * 0.5)) ** 2
                c = (clamp(sky[0] + 60 * glow), clamp(sky[1] + 70 * glow), clamp(sky[2] + 20 * glow))
            row[3 * x:3 * x + 3] = bytes(c)
        rows.append(row)
    patch(rows, 0, 0, 16, (12, 34, 56), 3)            # top-left: (12, 34, 56)
    patch(rows, width - 16, height - 16, 16, (250, 128, 4), 3)  # bottom-right: (250, 128, 4)
    return encode_png(width, height, 2, rows)


def bubbles(width=800, height=800):
    """Translucent overlapping discs on a transparent background: RGBA with real alpha."""
    discs = []
    state = 12345
    for _ in range(40):
        state = (state * 1103515245 + 12345) & 0x7FFFFFFF
        cx, cy = state % width, (state >> 10) % height
        state = (state * 1103515245 + 12345) & 0x7FFFFFFF
        r = 30 + state % 110
        hue = (state >> 8) % 360
        rgb = tuple(clamp(128 + 127 * math.cos(math.radians(hue + k * 120))) for k in range(3))
        discs.append((cx, cy, r, rgb))
    rows = []
    for y in range(height):
        row = bytearray(width * 4)
        for x in range(width):
            r = g = b = a = 0.0
            for cx, cy, rad, rgb in discs:
                if abs(x - cx) > rad or abs(y - cy) > rad:
                    continue
                d = math.hypot(x - cx, y - cy)
                if d < rad:
                    alpha = 0.45 * (1 - (d / rad) ** 4)
                    # "over" compositing in straight alpha.
                    na = alpha + a * (1 - alpha)
                    if na > 0:
                        r = (rgb[0] * alpha + r * a * (1 - alpha)) / na
                        g = (rgb[1] * alpha + g * a * (1 - alpha)) / na
                        b = (rgb[2] * alpha + b * a * (1 - alpha)) / na
                    a = na
            row[4 * x:4 * x + 4] = bytes((clamp(r), clamp(g), clamp(b), clamp(a * 255)))
        rows.append(row)
    patch(rows, 0, 0, 16, (0, 0, 0, 0), 4)              # top-left: fully transparent
    patch(rows, width - 16, 0, 16, (200, 100, 50, 128), 4)  # top-right: half-transparent orange
    return encode_png(width, height, 6, rows)


def tiles_palette(width=640, height=480):
    """A 16-colour palette mosaic of diamonds with a transparent palette entry (tRNS)."""
    palette = [(clamp(128 + 120 * math.cos(i * 0.4)), clamp(128 + 120 * math.cos(i * 0.4 + 2.1)),
                clamp(128 + 120 * math.cos(i * 0.4 + 4.2))) for i in range(15)] + [(0, 0, 0)]
    trns = [255] * 15 + [0]  # entry 15 is transparent
    rows = []
    for y in range(height):
        row = bytearray(width)
        for x in range(width):
            u, v = x % 40 - 20, y % 40 - 20
            if abs(u) + abs(v) < 14:
                row[x] = ((x // 40) + 3 * (y // 40)) % 15
            elif abs(u) + abs(v) < 17:
                row[x] = 15
            else:
                row[x] = 7
        rows.append(row)
    for y in range(16):
        for x in range(16):
            rows[y][x] = 0        # top-left: palette entry 0
    return encode_png(width, height, 3, rows, palette=palette, trns=trns)


def detailed_rgb(width, height):
    """Hue field, a fine grid every 100 px and rings inside each cell: detail to zoom into."""
    rgb = bytearray(width * height * 3)
    for y in range(height):
        cy = y % 100 - 50
        base = y * width * 3
        for x in range(width):
            cx = x % 100 - 50
            h = (x / width * 2.0 + y / height) * math.pi
            r, g, b = 150 + 90 * math.sin(h), 150 + 90 * math.sin(h + 2.094), 150 + 90 * math.sin(h + 4.189)
            if x % 100 == 0 or y % 100 == 0:
                r = g = b = 30
            else:
                d2 = cx * cx + cy * cy
                if d2 < 1600 and (int(math.sqrt(d2)) // 3) % 2 == 0:
                    r, g, b = r * 0.55, g * 0.55, b * 0.55
            rgb[base + 3 * x] = clamp(r)
            rgb[base + 3 * x + 1] = clamp(g)
            rgb[base + 3 * x + 2] = clamp(b)
    return rgb


def fill(rgb, width, x0, y0, w, h, colour):
    for y in range(y0, y0 + h):
        for x in range(x0, x0 + w):
            i = (y * width + x) * 3
            rgb[i:i + 3] = bytes(colour)


def city_map(tj, width=4000, height=3000):
    """The large one: 12 megapixels of fine detail to show zooming and tiles."""
    rgb = detailed_rgb(width, height)
    fill(rgb, width, 1000, 1000, 64, 64, (200, 30, 30))     # flat red block at (1000…1063, 1000…1063)
    fill(rgb, width, 3000, 2000, 64, 64, (30, 60, 200))     # flat blue block at (3000…, 2000…)
    return tj.compress_rgb(width, height, rgb, 85)


def arrow_exif6(tj, width=1200, height=800):
    """Stored sideways with EXIF orientation 6: the arrow points up only if rotation works.

    Orientation 6 shows the stored left column as the top row, so the arrow points to the
    stored left; the stored bottom-left corner (green) becomes the displayed top-left."""
    rgb = bytearray(width * height * 3)
    for y in range(height):
        for x in range(width):
            t = x / width
            i = (y * width + x) * 3
            rgb[i:i + 3] = bytes((clamp(60 + 120 * t), clamp(80 + 60 * t), clamp(160 - 40 * t)))
    mid = height // 2
    for y in range(height):
        for x in range(width):
            tip = 200 <= x < 500 and abs(y - mid) < (x - 200) * 0.9      # head, pointing left
            shaft = 500 <= x < 1000 and abs(y - mid) < 70
            if tip or shaft:
                i = (y * width + x) * 3
                rgb[i:i + 3] = b"\xf0\xf0\xf0"
    fill(rgb, width, 0, height - 96, 96, 96, (40, 200, 60))    # stored bottom-left: green
    fill(rgb, width, width - 96, 0, 96, 96, (220, 40, 40))     # stored top-right: red
    jpeg = tj.compress_rgb(width, height, rgb, 90)
    return jpeg[:2] + exif_orientation_segment(6) + jpeg[2:]


def fuzz_seeds():
    """Small real-zlib PNGs covering every filter type and colour type."""
    seeds = []
    for color_type, depth, channels in ((2, 8, 3), (6, 8, 4), (0, 16, 2), (4, 8, 2), (3, 8, 1)):
        w, h = 13, 10
        rows = [bytes(((x * 17 + y * 31 + c * 50) * (c + 1)) & 0xFF for x in range(w) for c in range(channels))
                for y in range(h)]
        palette = [(i * 20, 255 - i * 20, (i * 77) & 0xFF) for i in range(13)] if color_type == 3 else None
        if color_type == 3:
            rows = [bytes((x + y) % 13 for x in range(w)) for y in range(h)]
        trns = [255, 128, 0] if color_type == 3 else None
        seeds.append(encode_png(w, h, color_type, rows, bit_depth=depth, palette=palette, trns=trns,
                                filters=[0, 1, 2, 3, 4]))
    return seeds


def main():
    if "--fuzz-seeds" in sys.argv:
        for seed in fuzz_seeds():
            print(base64.b64encode(seed).decode())
        return
    out_dir = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "..", "Assets")
    os.makedirs(out_dir, exist_ok=True)
    tj = TurboJPEG()
    outputs = {
        "01-sunset.png": sunset,
        "02-bubbles-alpha.png": bubbles,
        "03-mosaic-palette.png": tiles_palette,
        "04-city-4000x3000.jpg": lambda: city_map(tj),
        "05-arrow-exif6.jpg": lambda: arrow_exif6(tj),
    }
    for name, make in outputs.items():
        data = make()
        with open(os.path.join(out_dir, name), "wb") as f:
            f.write(data)
        print(f"{name}: {len(data)} bytes")


if __name__ == "__main__":
    main()
