#!/usr/bin/env bash
# Writes Packaging/symbol-order.txt: the functions of image-viewer's own binary that run when
# people use it, for the linker to place side by side (lld's --symbol-ordering-file, see
# viewerLinkFlags in Package.swift).
#
# Why: the viewer's binary holds 18 MB of code (the Swift runtime and Foundation linked in), and
# what a session runs of it is about 2 MB scattered across all of it. The kernel maps a file's
# pages around each one touched (64 KiB of fault-around, more where the page cache holds large
# folios), so the scattered code kept 9.9 MB of the binary resident; packed together, 5.0 MB.
#
# How: the release viewer (debug info stripped, which valgrind cannot read) runs under
# callgrind in a headless sway nested in KWin (Scripts/headless-sway.sh), driven with injected
# touch, pointer and keys through what users do: one picture of each format opened alone (the
# launches, first in the list), a folder of photos paged, zoomed, panned,
# flung, turned and its overlays shown (touchpad scrolling, which KWin's fake input cannot send,
# shares its code with the wheel); every format of the test corpus (Scripts/make-corpus.py)
# paged through, animations paused and pages turned; the list demo scrolled; a kiosk slideshow.
# The functions the launches executed come first, then the browsing run's, each run's hottest
# first, and those each next run added (a comment line names each run); a name the binary defines more than once (a local
# symbol of several files) is left out, since the linker would move every file that has one.
# A name the linker no longer finds is skipped, and functions missing from the list are placed after the
# listed ones, so a stale list costs memory, never correctness: run this again after changes
# that add much code to what the viewer runs (the result is reviewed like code, as a diff).
# Usage: Scripts/make-symbol-order.sh [OUT]   (default Packaging/symbol-order.txt)
# SCRATCH=DIR builds in DIR instead of .build. Needs valgrind, sway, KWin, Pillow and the corpus
# tools (Scripts/install-deps.sh installs them). Takes about fifteen minutes on two cores.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
out=${1:-Packaging/symbol-order.txt}
command -v valgrind >/dev/null || { echo "make-symbol-order: valgrind is missing (Scripts/install-deps.sh installs it)" >&2; exit 1; }

. "$root/Scripts/headless-sway.sh"
build_release make-symbol-order image-viewer wl-inject headless-session

profiles=$(mktemp -d /var/tmp/symbol-order.XXXXXX)
trap 'rm -rf "$profiles"' EXIT
viewer=$profiles/image-viewer
objcopy --strip-debug "$bin/image-viewer" "$viewer"

echo "make-symbol-order: writing pictures into $profiles"
mkdir "$profiles/photos" "$profiles/corpus"
/usr/bin/python3 - "$profiles/photos" <<'PY'
# Eight photo-like JPEGs of the sizes cameras and phones make, landscape and portrait, none a
# power-of-two multiple of the window (so that fitting them resamples): gradients under grain.
import sys
from PIL import Image, ImageChops
sizes = [(2560, 1600), (4032, 3024), (3000, 2000), (1600, 2400), (2560, 1600), (1200, 800), (4000, 3000), (2048, 1536)]
for i, (w, h) in enumerate(sizes):
    gradient = Image.linear_gradient('L').resize((w, h)).rotate(45 * i, expand=False)
    grain = Image.effect_noise((w, h), 24 + 4 * i)
    Image.merge('RGB', (gradient, ImageChops.invert(gradient), grain)).save(
        f'{sys.argv[1]}/photo-{i + 1}.jpg', quality=90)
PY
/usr/bin/python3 Scripts/make-corpus.py "$profiles/corpus-all" >/dev/null
find "$profiles/corpus-all" -maxdepth 1 -type f ! -name '*.rgba' ! -name '*.json' -exec mv {} "$profiles/corpus" \;

# The benchmarks' screen size (bench-viewer.sh): the code that fits a picture to it is the code
# its runs page through.
touch_sway "$bin" 1920 1080
start_injector "$bin"
wait_for_touch
inject "sleep 200"

# profile NAME ARGS...: the viewer under callgrind in the background ($viewer_pid), once it has
# drawn its first frame; its counts go to $profiles/NAME.out when it ends.
profile() {
    local name=$1; shift
    valgrind --tool=callgrind --demangle=no --dump-instr=no --compress-strings=no --compress-pos=no \
        --callgrind-out-file="$profiles/$name.out" "$viewer" --stats "$@" 2>"$work/$name.log" &
    viewer_pid=$!
    wait_for_first_frame "$work/$name.log" 1200
    settle
}
# settle: until the viewer has used no CPU for half a second (everything runs some 50 times
# slower under callgrind), at most 60 s.
settle() { quiet "$viewer_pid" 500 60 || true; }
finish() {
    kill -TERM "$viewer_pid"
    wait "$viewer_pid" || true
    [ -s "$profiles/$1.out" ] || { echo "make-symbol-order: no profile from the $1 run; its log:" >&2; cat "$work/$1.log" >&2; exit 1; }
}
keys() { local k; for k in "$@"; do inject "tap $k"; settle; done; }
swipe() { inject "swipe 0 $1 $2 $3 $4 ${5:-150} 10"; settle; }

# First what every launch runs up to its first picture at rest, one launch per format, so that
# a viewer opened on one picture touches only the front of the code: a photo of a phone's size
# (12 MP, where the large-picture paths run: previews, the SVG's quick rendition) in each format,
# 4 MP for the slowest decoders (under callgrind a 12 MP HEIC takes minutes).
mkdir "$profiles/launch"
launches=()
for fmt in jpeg png svg webp heif avif jxl tiff gif bmp; do
    ext=$fmt; [ "$fmt" = jpeg ] && ext=jpg; [ "$fmt" = heif ] && ext=heic
    photo=photo-2.jpg; case $fmt in heif|avif|jxl) photo=photo-5.jpg ;; esac
    /usr/bin/python3 Scripts/make-corpus.py --bench "$fmt" "$profiles/photos/$photo" "$profiles/launch/photo.$ext"
    echo "make-symbol-order: launch ($fmt)"
    profile "launch-$fmt" "$profiles/launch/photo.$ext"
    finish "launch-$fmt"
    launches+=("$profiles/launch-$fmt.out")
done

# Then what every session does, so that it ends up contiguous: open a folder, page through it.
echo "make-symbol-order: browsing"
profile browse "$profiles/photos"
keys Page_Down Page_Down Page_Down Page_Down Page_Down Page_Down Page_Up Page_Up
finish browse

echo "make-symbol-order: photos"
profile photos "$profiles/photos"
swipe 1500 540 300 540
swipe 1500 540 300 540 80
swipe 300 540 1500 540
inject "touch down 0 960 540" "touch frame" "sleep 40" "touch up 0" "touch frame" "sleep 120" \
       "touch down 0 960 540" "touch frame" "sleep 40" "touch up 0" "touch frame"
settle
swipe 960 540 800 400 300
swipe 960 540 400 300 60
inject "pinch 960 540 300 120 400 12"; settle
inject "pinch 960 540 120 450 400 12"; settle
keys Page_Down Page_Down Page_Up End Home plus plus Left Up Right Down minus 0 1 0
keys bracketright bracketleft F7 F8 o i question question i f Escape
inject "abs 960 540" "wheel vertical 3" "wheel vertical -3" "key Control_L press" "wheel vertical -4" \
       "key Control_L release"
settle
inject "drag 1400 540 400 540 200 10"
settle
inject "abs 960 540" "button left press" "button left release" "sleep 100" "button left press" "button left release"
settle
finish photos

echo "make-symbol-order: every format"
profile formats "$profiles/corpus"
for _ in $(ls "$profiles/corpus"); do
    keys Page_Down s s period comma
done
finish formats

echo "make-symbol-order: list"
profile list --demo list
swipe 960 900 960 150 80
swipe 960 900 960 150 80
swipe 960 150 960 900 300
inject "abs 960 540" "wheel vertical 10"
settle
finish list

echo "make-symbol-order: kiosk"
profile kiosk --kiosk --slideshow 1 "$profiles/photos"
sleep 3; settle
inject "touch down 0 960 540" "touch frame" "sleep 300" "touch up 0" "touch frame"
settle
finish kiosk

# Every function of the viewer's binary (callgrind's object name is its path) that ran: those of
# the first run, hottest first (the instructions each executed itself), then those the next run
# added, and so on: the launches first, then the sessions.
nm --defined-only "$viewer" > "$profiles/symbols"
python3 - "$viewer" "$out" "$profiles/symbols" "${launches[@]}" "$profiles"/browse.out "$profiles"/photos.out "$profiles"/formats.out "$profiles"/list.out "$profiles"/kiosk.out <<'PY'
import collections, re, sys
viewer, out, symbols, paths = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:]
# A name defined more than once in the binary is a local symbol of several files (a value
# witness, an outlined copy, a merged thunk): the linker would move every file's code that holds
# one, so such names are left out.
definitions = collections.Counter(line.rstrip('\n').split(' ', 2)[-1] for line in open(symbols))
lines = ['# The functions of image-viewer that sessions run, for lld --symbol-ordering-file',
         '# (Package.swift). Written by Scripts/make-symbol-order.sh; run it again, do not edit.']
seen = set()
for path in paths:
    lines.append('# ' + path.rsplit('/', 1)[-1].removesuffix('.out'))
    cost = collections.Counter()
    ob = fn = None
    after_calls = False
    for line in open(path, errors='replace'):
        if line.startswith('ob='):
            ob = line[3:].strip()
        elif line.startswith('fn='):
            fn = line[3:].strip() if ob == viewer else None
            if fn is not None:
                cost[fn] += 0
            after_calls = False
        elif line.startswith('calls='):
            after_calls = True   # the next cost line is the call's inclusive cost, not this function's
        elif fn is not None and line[:1].isdigit():
            if after_calls:
                after_calls = False
            else:
                cost[fn] += int(line.split()[1])
    for fn, _ in sorted(cost.items(), key=lambda kv: (-kv[1], kv[0])):
        fn = re.sub(r"'\d+$", '', fn)   # callgrind's suffix for a second context of one function
        if fn.startswith('0x') or fn in seen or definitions[fn] != 1:
            continue                      # 0x...: no symbol, nothing the linker could name
        lines.append(fn)
        seen.add(fn)
with open(out, 'w') as f:
    f.write(''.join(line + '\n' for line in lines))
print(f'make-symbol-order: {len(seen)} functions into {out}')
PY
