#!/usr/bin/env bash
# The gigapixel row of issue 18's table in one command: builds image-viewer (release), writes a
# 1-gigapixel PNG, JPEG and tiled TIFF (their rows generated as they are written, never the whole
# picture in memory) and shows each with image-viewer --stats under its own headless sway: the
# fit, then 1 (1:1 around the middle) until full resolution has loaded, pans with the arrow keys,
# 0 back to the fit. Prints the first frame, the seconds until the zoomed view settled, and the
# peak memory (--stats' peakMemoryKiB, VmHWM) against the budget of 400 MB, and exits 1 when a
# picture passes it. The files are deleted afterwards.
# Usage: Scripts/bench-gigapixel.sh [--side N]   (N×N pixels, default 31623: 1.0 gigapixel)
# SCRATCH=DIR builds in DIR instead of .build. Needs sway, python3 and cjpeg
# (Scripts/install-deps.sh installs them).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
side=31623
# 400 MB (10⁶ bytes) in KiB: issue 18's budget for gigapixel pictures, panned and zoomed.
budget_kib=$((400000000 / 1024))

while [ $# -gt 0 ]; do
    case "$1" in
        --side) side=$2; shift 2 ;;
        -h|--help) sed -n '2,12p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        *) echo "bench-gigapixel: unknown option $1 (see --help)" >&2; exit 2 ;;
    esac
done
for tool in sway python3 cjpeg; do
    command -v "$tool" >/dev/null || { echo "bench-gigapixel: $tool is missing (Scripts/install-deps.sh installs it)" >&2; exit 1; }
done

. Scripts/headless-sway.sh
build_release bench-gigapixel image-viewer wl-inject headless-session

pictures=$(mktemp -d /var/tmp/bench-gigapixel.XXXXXX)
trap 'rm -rf "$pictures"' EXIT

# The pictures: a photo-like gradient with a grid, so every format decodes real work.
echo "bench-gigapixel: writing ${side}² PNG, JPEG and tiled TIFF into $pictures"
generate() {
    python3 - "$side" "$pictures" "$1" <<'PY'
import struct, sys, zlib
side, folder, kind = int(sys.argv[1]), sys.argv[2], sys.argv[3]

def row(y):
    # R rises along x, G along y in 64 bands, B marks a grid every 1024 pixels.
    band = y * 64 // side
    g = band * 255 // 63
    b = 255 if y % 1024 < 4 else 96
    line = bytearray(side * 3)
    line[0::3] = bytes(x * 255 // side for x in range(side))
    line[1::3] = bytes([g]) * side
    line[2::3] = bytes(255 if x % 1024 < 4 else b for x in range(side))
    return bytes(line)

rows = {}
def cached(y):
    key = (y * 64 // side, y % 1024 < 4)
    if key not in rows: rows[key] = row(y)
    return rows[key]

def chunk(name, body):
    return struct.pack('>I', len(body)) + name + body + struct.pack('>I', zlib.crc32(name + body))

if kind == 'png':
    with open(f'{folder}/giga.png', 'wb') as f:
        f.write(b'\x89PNG\r\n\x1a\n' + chunk(b'IHDR', struct.pack('>IIBBBBB', side, side, 8, 2, 0, 0, 0)))
        z = zlib.compressobj(1)
        for y in range(side):
            data = z.compress(b'\x00' + cached(y))
            if data: f.write(chunk(b'IDAT', data))
        f.write(chunk(b'IDAT', z.flush()) + chunk(b'IEND', b''))
elif kind == 'ppm':
    out = sys.stdout.buffer
    out.write(b'P6\n%d %d\n255\n' % (side, side))
    for y in range(side): out.write(cached(y))
else:
    # Tiled TIFF of 256² deflate tiles, each one flat colour from its place.
    tile = 256
    across = down = (side + tile - 1) // tile
    offsets, counts = [], []
    with open(f'{folder}/giga.tif', 'wb') as f:
        f.write(b'II*\x00' + struct.pack('<I', 0))
        for ty in range(down):
            for tx in range(across):
                data = zlib.compress(bytes([tx * 255 // across, ty * 255 // down, 128]) * (tile * tile), 6)
                offsets.append(f.tell()); counts.append(len(data))
                f.write(data)
        at = f.tell()
        f.write(b''.join(struct.pack('<I', o) for o in offsets) + b''.join(struct.pack('<I', c) for c in counts))
        bps = f.tell(); f.write(struct.pack('<HHH', 8, 8, 8))
        ifd = f.tell()
        entries = [(256, 4, 1, side), (257, 4, 1, side), (258, 3, 3, bps), (259, 3, 1, 8), (262, 3, 1, 2), (277, 3, 1, 3),
                   (284, 3, 1, 1), (322, 4, 1, tile), (323, 4, 1, tile), (324, 4, len(offsets), at),
                   (325, 4, len(counts), at + 4 * len(offsets))]
        d = struct.pack('<H', len(entries))
        for tag, t, count, value in entries:
            d += struct.pack('<HHI', tag, t, count) + (struct.pack('<HH', value, 0) if t == 3 and count == 1 else struct.pack('<I', value))
        f.write(d + struct.pack('<I', 0)); f.seek(4); f.write(struct.pack('<I', ifd))
PY
}
generate png
generate tif
# The JPEG's rows go through a pipe into cjpeg: no file or memory ever holds them all.
generate ppm | cjpeg -quality 90 -outfile "$pictures/giga.jpg"
ls -l "$pictures"

# Waits until the viewer's CPU time stops growing for 3 s (a load and its frames done), at
# most $2 s (quiet and cpu: Scripts/headless-sway.sh).
settle() { quiet "$1" 3000 "$2" || true; }
ticks=$(getconf CLK_TCK)

status=0
for kind in png jpg tif; do
    (
        headless_sway "$bin" 1280 800
        start_injector "$bin"
        "$bin/image-viewer" --stats "$pictures/giga.$kind" >"$work/viewer.log" 2>&1 &
        viewer=$!
        wait_for_first_frame "$work/viewer.log"
        first=$(grep -o '"first-frame","ms":[0-9]*' "$work/viewer.log" | grep -o '[0-9]*$')
        settle "$viewer" 120
        before=$(cpu "$viewer")
        inject "abs 640 400" "tap 1"
        start=$(date +%s.%N)
        settle "$viewer" 600
        zoomed=$(awk -v a="$start" -v b="$(date +%s.%N)" 'BEGIN { print b - a - 3 }')
        # The full-resolution decode, as CPU seconds: that it ran, and what it cost.
        decode_cpu=$(awk -v a="$before" -v b="$(cpu "$viewer")" -v t="$ticks" 'BEGIN { print (b - a) / t }')
        for key in Right Right Down Left Up 0; do inject "tap $key"; sleep 1; done
        settle "$viewer" 120
        inject "tap q"
        wait "$viewer" || true
        peak=$(grep -o '"peakMemoryKiB":[0-9]*' "$work/viewer.log" | tail -1 | grep -o '[0-9]*$')
        answered=$(grep -o '"callbacksAnswered":[0-9]*' "$work/viewer.log" | tail -1 | grep -o '[0-9]*$')
        late=$(grep -o '"lateCallbacks":[0-9]*' "$work/viewer.log" | tail -1 | grep -o '[0-9]*$')
        errors=$(grep '^image-viewer:' "$work/viewer.log" || true)
        verdict=ok
        [ -n "$errors" ] && verdict="failed: $errors"
        [ "${peak:-999999999}" -gt "$budget_kib" ] && verdict="over the budget"
        printf 'bench-gigapixel: %s %s²: first frame %s ms, 1:1 settled after %.1f s (%.1f s of CPU), %s of %s frame callbacks late, peak %s KiB (budget %s KiB): %s\n' \
            "$kind" "$side" "$first" "$zoomed" "$decode_cpu" "${late:-?}" "${answered:-?}" "${peak:-?}" "$budget_kib" "$verdict"
        [ "$verdict" = ok ]
    ) || status=1
done
exit $status
