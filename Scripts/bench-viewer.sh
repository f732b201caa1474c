#!/usr/bin/env bash
# Issue 18's table in one command: image-viewer against swayimg, side by side, measured in the
# same run. Builds the release image-viewer and wl-inject, writes its pictures into a private
# folder (mktemp, removed at exit): one 2560×1600 photo-like JPEG alone in a folder, and a folder
# of 2,000 such pictures (32 different ones, the rest hard links to them: listing costs per name,
# and paging through 30 decodes 30 different files). Then, alternating the two viewers, each run
# under a fresh headless sway (Scripts/headless-sway.sh), it measures:
#   - the first frame of the one JPEG, and of the folder;
#   - the resident memory once the folder's first picture is shown and the viewer is idle
#     (VmRSS after 5 s at rest, the last of them without CPU time);
#   - the peak memory (VmHWM) after paging through 30 pictures of the folder with Page Down,
#     each page left until the viewer is idle (at most 5 s), checking the 31st is shown.
# First frame, for both viewers alike (read from the log once the viewer is idle): from the exec of the viewer (bash's $EPOCHREALTIME just
# before it) to its wl_surface.commit of the first buffer that shows the picture at the size
# sway configured (sway shows the window only then), both times on CLOCK_REALTIME: libwayland's
# WAYLAND_DEBUG=client stamps every request it sends. swayimg decodes before it connects, so its
# first buffer of the configured size is the picture; image-viewer commits a black window first
# and says which commit showed the picture (--stats' first-frame line follows that commit). A
# screenshot then checks the picture's centre colour. Each figure is the median of --runs runs.
# Unless --quick, it also runs the rows other scripts measure: bench-fling.sh's zoom at
# 3840×2160 (late frame callbacks), bench-huge-image.sh (the 100 MP JPEG's first frame against a
# full decode), bench-gigapixel.sh (1-gigapixel PNG, JPEG and tiled TIFF within 400 MB) and
# raster-bench's bilinear against pixman. It prints the whole table with the load average, and
# exits 1 when a budget is missed (or a figure could not be measured), 2 on a bad option.
# Usage: Scripts/bench-viewer.sh [--quick] [--runs N] [--size WxH]
#        (--runs: 5 by default; --size: sway's output, 1920x1080 by default)
# SCRATCH=DIR builds in DIR instead of .build. Needs sway, grim, swayimg, python3 and cjpeg
# (Scripts/install-deps.sh installs them).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
runs=5 quick=0 width=1920 height=1080
# Issue 18's goals: each of these at most 0.8 of swayimg's.
goal=0.8
# The pictures: 2560×1600 (a 4-megapixel photo), 2,000 in the folder, 30 page turns.
photo_w=2560 photo_h=1600 folder_count=2000 distinct=32 pages=30

while [ $# -gt 0 ]; do
    case $1 in
        --quick) quick=1; shift ;;
        --runs)
            [[ ${2:-} =~ ^[0-9]+$ ]] && (( $2 >= 1 && $2 <= 50 )) \
                || { echo "bench-viewer: --runs wants a number of runs from 1 to 50, not '${2:-}'" >&2; exit 2; }
            runs=$2; shift 2 ;;
        --size)
            [[ ${2:-} =~ ^([0-9]+)x([0-9]+)$ ]] || { echo "bench-viewer: --size wants WIDTHxHEIGHT (e.g. 1920x1080), not '${2:-}'" >&2; exit 2; }
            width=${BASH_REMATCH[1]} height=${BASH_REMATCH[2]}
            (( width >= 640 && width <= 7680 && height >= 480 && height <= 4320 )) \
                || { echo "bench-viewer: --size $2 is outside 640x480...7680x4320" >&2; exit 2; }
            shift 2 ;;
        -h|--help) sed -n '2,29p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        *) echo "bench-viewer: unknown option '$1' (see --help)" >&2; exit 2 ;;
    esac
done
for tool in sway grim swayimg python3 cjpeg; do
    command -v "$tool" >/dev/null || { echo "bench-viewer: $tool is missing (Scripts/install-deps.sh installs it)" >&2; exit 1; }
done

. "$root/Scripts/headless-sway.sh"
build_release bench-viewer image-viewer wl-inject headless-session
viewer="$bin/image-viewer"
swayimg=$(command -v swayimg)

# mkdtemp's folder (mode 0700): the viewers run as this user; sway's uid reads nothing here.
pictures=$(mktemp -d /var/tmp/bench-viewer.XXXXXX)
trap 'rm -rf "$pictures"' EXIT
mkdir "$pictures/single" "$pictures/folder"

# photo SEED FILE: a photo-like JPEG (gradients whose colours follow SEED, grain of 0–31 levels,
# quality 90: about 1.2 MB), its rows piped into cjpeg. Prints the colour at its centre without
# grain plus the grain's mean ("R G B"), what a viewer shows there give or take JPEG and scaling.
photo() {
    python3 - "$photo_w" "$photo_h" "$1" "$2" <<'PY'
import random, subprocess, sys
w, h, seed, out = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
rnd = random.Random(seed)
a, b, c = rnd.randint(20, 60), rnd.randint(40, 80), rnd.randint(100, 180)
red = bytes(a + 160 * x // w for x in range(w))
ramp = bytes(c - 90 * i // (w + h) for i in range(w + h))
grain = bytes(rnd.randrange(32) for _ in range(3 * w + 4096))
cjpeg = subprocess.Popen(['cjpeg', '-quality', '90', '-outfile', out], stdin=subprocess.PIPE)
cjpeg.stdin.write(b'P6\n%d %d\n255\n' % (w, h))
line = bytearray(3 * w)
for y in range(h):
    line[0::3] = red
    line[1::3] = bytes([b + 120 * y // h]) * w
    line[2::3] = ramp[y:y + w]
    # The grain added as one big integer: no byte exceeds 255, so no carry crosses a byte.
    at = rnd.randrange(4096)
    row = int.from_bytes(line, 'big') + int.from_bytes(grain[at:at + 3 * w], 'big')
    cjpeg.stdin.write(row.to_bytes(3 * w, 'big'))
cjpeg.stdin.close()
if cjpeg.wait() != 0:
    sys.exit('cjpeg failed')
print(a + 80 + 15, b + 60 + 15, ramp[h // 2 + w // 2] + 15)
PY
}

echo "bench-viewer: writing the pictures (${photo_w}×${photo_h} JPEG) into $pictures"
colours=()
single_colour=$(photo 1000 "$pictures/single/photo.jpg")
for i in $(seq 1 "$distinct"); do
    colours[i]=$(photo "$i" "$(printf '%s/folder/photo-%04d.jpg' "$pictures" "$i")")
done
for i in $(seq $((distinct + 1)) "$folder_count"); do
    ln "$(printf '%s/folder/photo-%04d.jpg' "$pictures" $(( (i - 1) % distinct + 1 )))" \
       "$(printf '%s/folder/photo-%04d.jpg' "$pictures" "$i")"
done
first_colour=${colours[1]}
last_colour=${colours[pages + 1]}

# A /proc/PID/status field in KiB (VmRSS, VmHWM).
status_kib() { awk -v f="$2:" '$1 == f {print $2}' "/proc/$1/status"; }

# centre_matches "R G B": whether the middle of the output shows that colour, within 24 levels
# per channel (the grain's spread, JPEG's loss and each viewer's scaling).
centre_matches() {
    grim -g "$((width / 2)),$((height / 2)) 1x1" -t ppm - 2>/dev/null | python3 -c '
import sys
data = sys.stdin.buffer.read()
want = [int(v) for v in sys.argv[1].split()]
got = list(data[-3:])
print(" ".join(map(str, got)))
sys.exit(0 if len(data) >= 3 and all(abs(g - w) <= 24 for g, w in zip(got, want)) else 1)' "$1"
}

# first_frame LOG LAUNCH-µs WHICH: the ms from launch to the commit of the first buffer showing
# the picture (see the top of this file), or nothing while there is none yet.
first_frame() {
    python3 - "$1" "$2" "$3" <<'PY'
import re, sys
log, launch, which = sys.argv[1], int(sys.argv[2]) % (1 << 32), sys.argv[3]
surface = toplevel = None
configured = None
sizes, attached, commits = {}, None, []
marker = None
for line in open(log, errors='replace'):
    if '"event":"first-frame"' in line:
        marker = len(commits)
        break
    m = re.match(r'\[\s*(\d+)\.(\d{3})\]\s+(->\s+)?(\w+)@(\d+)\.(\w+)\((.*)\)\s*$', line)
    if not m:
        continue
    stamp = int(m[1]) * 1000 + int(m[2])
    iface, oid, request, args = m[4], int(m[5]), m[6], m[7]
    if iface == 'xdg_wm_base' and request == 'get_xdg_surface':
        surface = int(re.search(r'wl_surface@(\d+)', args)[1])
    elif iface == 'xdg_surface' and request == 'get_toplevel':
        toplevel = int(re.search(r'xdg_toplevel@(\d+)', args)[1])
    elif iface == 'xdg_toplevel' and request == 'configure' and oid == toplevel and not m[3]:
        w, h = (int(v) for v in args.split(',')[:2])
        if w > 0 and h > 0:
            configured = (w, h)
    elif iface == 'wl_shm_pool' and request == 'create_buffer':
        parts = [p.strip() for p in args.split(',')]
        sizes[int(re.search(r'@(\d+)', parts[0])[1])] = (int(parts[2]), int(parts[3]))
    elif iface == 'wl_surface' and oid == surface and request == 'attach':
        b = re.search(r'wl_buffer@(\d+)', args)
        attached = sizes.get(int(b[1])) if b else None
    elif iface == 'wl_surface' and oid == surface and request == 'commit' and attached is not None:
        commits.append((stamp, attached, configured))
        attached = None
if which == 'image-viewer':
    # The commit its first-frame line follows.
    chosen = commits[marker - 1] if marker else None
else:
    # A viewer that draws only what it has decoded: its first buffer of the configured size.
    chosen = next((c for c in commits if c[2] is not None and c[1] == c[2]), None)
if chosen:
    print('%.1f' % (((chosen[0] - launch) % (1 << 32)) / 1000))
PY
}

# one_run WHICH CASE: one viewer (image-viewer or swayimg) on CASE (single or folder) under a
# fresh sway; prints "first_ms idle_kib peak_kib" (the last two for the folder only).
one_run() {
    local which=$1 case=$2
    (
        headless_sway "$bin" "$width" "$height"
        [ "$case" = folder ] && start_injector "$bin"
        local target=$pictures/single/photo.jpg colour=$single_colour
        [ "$case" = folder ] && target=$pictures/folder colour=$first_colour
        local command=("$swayimg" "$target")
        [ "$which" = image-viewer ] && command=("$viewer" --stats "$target")
        local log=$work/viewer.log
        # The stamp is taken in the child just before it becomes the viewer.
        ( printf '%s\n' "${EPOCHREALTIME/./}" >"$work/launch"; export WAYLAND_DEBUG=client; exec "${command[@]}" ) \
            >/dev/null 2>"$log" &
        viewer_pid=$!
        # Parsed once the viewer is idle: a parser run every few ms would take CPU from the
        # viewer it measures (two cores here).
        quiet "$viewer_pid" 1000 20 || { echo "bench-viewer: $which exited on $case; its output:" >&2; grep -v '^\[' "$log" | tail -20 >&2; exit 1; }
        local first
        first=$(first_frame "$log" "$(cat "$work/launch")" "$which")
        if [ -z "$first" ]; then
            echo "bench-viewer: $which showed no picture of $case within 20 s; its output:" >&2
            grep -v '^\[' "$log" | tail -20 >&2
            exit 1
        fi
        local seen
        if ! seen=$(centre_matches "$colour"); then
            echo "bench-viewer: $which does not show the picture of $case (centre rgb $seen, expected $colour)" >&2
            exit 1
        fi
        local idle="" peak=""
        if [ "$case" = folder ]; then
            # Idle: once the viewer has had 5 s without input (well past the neighbours' loads
            # and anything a rest sets off) and used no CPU for the last second.
            sleep 4
            quiet "$viewer_pid" 1000 10 || { echo "bench-viewer: $which exited while idle" >&2; exit 1; }
            idle=$(status_kib "$viewer_pid" VmRSS)
            for _ in $(seq 1 "$pages"); do
                inject "tap Page_Down"
                quiet "$viewer_pid" 300 5 || { echo "bench-viewer: $which exited while paging" >&2; exit 1; }
            done
            quiet "$viewer_pid" 1000 10 || true
            peak=$(status_kib "$viewer_pid" VmHWM)
            if ! seen=$(centre_matches "$last_colour"); then
                echo "bench-viewer: $which does not show picture $((pages + 1)) after $pages page turns (centre rgb $seen, expected $last_colour)" >&2
                exit 1
            fi
        fi
        echo "$first $idle $peak"
    )
}

echo "bench-viewer: load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
declare -A figures
for run in $(seq 1 "$runs"); do
    # Alternating, so that load from other processes falls on both alike.
    for which in image-viewer swayimg; do
        for case in single folder; do
            result=$(one_run "$which" "$case") || exit 1
            echo "bench-viewer: run $run $which $case: first frame ${result%% *} ms$(
                [ "$case" = folder ] && set -- $result && echo ", idle $2 KiB, peak after $pages pages $3 KiB")"
            figures[$which.$case]+="$result"$'\n'
        done
    done
done
echo "bench-viewer: load average after: $(cut -d' ' -f1-3 /proc/loadavg)"

# median WHICH CASE FIELD: the median of a figure over the runs.
median() {
    printf '%s' "${figures[$1.$2]}" | awk -v f="$3" 'NF >= f {print $f}' | sort -g \
        | awk '{v[NR] = $1} END {if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2}'
}

status=0
rows=()
# row CASE OURS THEIRS UNIT: a table row with the ratio against the goal.
row() {
    local verdict
    verdict=$(awk -v a="$2" -v b="$3" -v g="$goal" 'BEGIN { r = a / b; printf "%.2f× | ≤ %.1f× | %s", r, g, (r <= g ? "met" : "MISSED") }')
    [[ $verdict == *MISSED ]] && status=1
    rows+=("| $1 | $2 $4 | $3 $4 | $verdict |")
}
row "first frame, one ${photo_w}×${photo_h} JPEG" "$(median image-viewer single 1)" "$(median swayimg single 1)" ms
row "first frame, a folder of $folder_count pictures" "$(median image-viewer folder 1)" "$(median swayimg folder 1)" ms
# mib WHICH FIELD: a memory median in MiB (a median of an even count may be a half KiB).
mib() { median "$1" folder "$2" | awk '{ printf "%.1f", $1 / 1024 }'; }
row "peak memory after paging through $pages pictures" "$(mib image-viewer 3)" "$(mib swayimg 3)" MiB
row "idle memory on the first picture" "$(mib image-viewer 2)" "$(mib swayimg 2)" MiB

# other_row CASE OURS THEIRS GOAL VERDICT: a row measured by another script (no ratio to swayimg).
other_row() {
    [ "$5" = met ] || status=1
    rows+=("| $1 | $2 | $3 | | $4 | $5 |")
}
# run_script LOG COMMAND...: runs another benchmark of the table, its output into LOG (its exit
# status is its own verdict: the figures are read from its output).
run_script() {
    local log=$1; shift
    echo "bench-viewer: running ${*#$root/} (load average $(cut -d' ' -f1-3 /proc/loadavg))"
    "$@" >"$log" 2>&1 || true
}
if [ "$quick" = 0 ]; then
    log=$pictures/fling.log
    run_script "$log" "$root/Scripts/bench-fling.sh" --size 3840x2160 zoom
    zoom=$(grep -m1 '^zoom .* while driven:' "$log" || true)
    if [[ $zoom =~ ([0-9]+)\ frame\ callbacks\ answered,\ ([0-9]+)\ late.*slowest\ answer\ ([0-9.]+) ]]; then
        other_row "zoom scenario at 3840×2160 (bench-fling.sh)" \
            "${BASH_REMATCH[2]} late of ${BASH_REMATCH[1]} callbacks, slowest ${BASH_REMATCH[3]} ms" "no pinch or fling" "0 late" \
            "$([ "${BASH_REMATCH[2]}" = 0 ] && echo met || echo MISSED)"
    else
        other_row "zoom scenario at 3840×2160 (bench-fling.sh)" "not measured (see below)" "" "0 late" MISSED
        tail -20 "$log" >&2
    fi

    log=$pictures/huge.log
    # The same number of live runs as the rows above (pictures-bench takes at most 20), medians.
    run_script "$log" "$root/Scripts/bench-huge-image.sh" --runs "$(( runs < 20 ? runs : 20 ))"
    # The in-process pipeline (read, DCT-scaled preview, first draw) is shown beside the
    # verdict's figure, the first frame on screen from launch.
    pipeline=$(grep -m1 -o "first frame, the viewer's pipeline: [0-9]* ms = [0-9.]*×" "$log" | grep -o '[0-9.]*×$' || true)
    live=$(grep -m1 'from launch, with process start' "$log" || true)
    if [[ $live =~ image-viewer\ ([0-9]+)\ ms\ =\ ([0-9.]+)×,\ swayimg\ ([0-9]+)\ ms\ =\ ([0-9.]+)× ]]; then
        other_row "100 MP JPEG first frame, from launch (bench-huge-image.sh)" \
            "${BASH_REMATCH[2]}× full decode (${BASH_REMATCH[1]} ms; in process ${pipeline:-?})" \
            "${BASH_REMATCH[4]}× full decode (${BASH_REMATCH[3]} ms)" "≤ 0.5× full decode" \
            "$(awk -v r="${BASH_REMATCH[2]}" 'BEGIN { print (r <= 0.5 ? "met" : "MISSED") }')"
    else
        other_row "100 MP JPEG first frame (bench-huge-image.sh)" "not measured (see below)" "" "≤ 0.5× full decode" MISSED
        tail -20 "$log" >&2
    fi

    log=$pictures/gigapixel.log
    run_script "$log" "$root/Scripts/bench-gigapixel.sh"
    giga=$(grep -o '^bench-gigapixel: [a-z]* [0-9]*²: .*peak [0-9]* KiB' "$log" | sed -E 's/^bench-gigapixel: ([a-z]+) .*peak ([0-9]+) KiB/\1 \2/' || true)
    if [ "$(printf '%s\n' "$giga" | grep -c .)" = 3 ]; then
        worst=$(printf '%s\n' "$giga" | awk '$2 > m { m = $2 } END { print m }')
        other_row "1-gigapixel PNG, JPEG and tiled TIFF, panned and zoomed (bench-gigapixel.sh)" \
            "peak $(printf '%s\n' "$giga" | awk '{ printf "%s%s %d MB", (NR > 1 ? ", " : ""), $1, $2 * 1024 / 1e6 }')" \
            "not run (the whole RGBA: 4 GB)" "peak ≤ 400 MB" "$([ "$worst" -le $((400000000 / 1024)) ] && echo met || echo MISSED)"
    else
        other_row "1-gigapixel pictures (bench-gigapixel.sh)" "not measured (see below)" "" "peak ≤ 400 MB" MISSED
        tail -20 "$log" >&2
    fi

    log=$pictures/raster.log
    echo "bench-viewer: building raster-bench (release)"
    (build_release bench-viewer raster-bench) >/dev/null 2>&1 || true
    run_script "$log" "$bin/raster-bench" --only resample
    bilinear=$(grep -o 'ratio bilinear_1080p/pixman_bilinear_1080p: [0-9.]*' "$log" | head -1 | grep -o '[0-9.]*$' || true)
    if [ -n "$bilinear" ]; then
        other_row "bilinear resampling, one core (raster-bench)" "${bilinear}× pixman" "" "≤ 1.0× pixman" \
            "$(awk -v r="$bilinear" 'BEGIN { print (r <= 1.0 ? "met" : "MISSED") }')"
    else
        other_row "bilinear resampling, one core (raster-bench)" "not measured (see below)" "" "≤ 1.0× pixman" MISSED
        tail -20 "$log" >&2
    fi
fi

echo
echo "Issue 18's table, medians of $runs runs at ${width}×${height} (load average now $(cut -d' ' -f1-3 /proc/loadavg)):"
echo
echo "| case | ScrollKit | swayimg 1.10 | ratio | goal | |"
echo "|---|---|---|---|---|---|"
printf '%s\n' "${rows[@]}"
exit $status
