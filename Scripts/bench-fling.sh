#!/usr/bin/env bash
# Does the frame loop keep up during a live fling or zoom? Runs the release image-viewer
# under a private headless sway at 1920×1080 and then at 3840×2160 (or at each --size given),
# drives it with the injected pointer (flings of the test card, flings of the gallery of
# bundled pictures, then Ctrl+wheel and double-click zooms of the 4000×3000 city picture,
# which resample every frame, then flings of the list demo's 10,000 rows of text) and prints,
# from the viewer's --stats frame lines, how many frame callbacks were answered while driven,
# how many late (slower than one 60 Hz refresh, 16.7 ms, from the callback's arrival to the
# commit answering it) and the slowest answer, then the slowest frames' render times and tile
# counts (which frames are slow: new tiles revealed, a zoom settling), then the summary's
# figures for the whole run, start-up included. With --compare each scenario runs again right
# after with --no-draw-ahead (every frame drawn when its callback comes), as the reference.
# Usage: Scripts/bench-fling.sh [--size WxH ...] [--compare] [test-card|gallery|zoom|list ...]   (all four
#        when none is named; each --size runs them all at that size, 1920x1080 and 3840x2160
#        when none is given; exit status 1 when a callback was answered late while driven)
#        SCRATCH=DIR builds in DIR instead of .build (e.g. SCRATCH=.build-perf)
#        LOGS=DIR keeps each run's --stats log there as SCENARIO-WxH.log (its frame lines)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
scratch=${SCRATCH:-.build}
width=1920 height=1080
sizes=() scenarios=() compare=()
while [ $# -gt 0 ]; do
    case $1 in
        --compare) compare=(--compare); shift ;;
        --size)
            [[ ${2:-} =~ ^([0-9]+)x([0-9]+)$ ]] || { echo "bench-fling: --size wants WIDTHxHEIGHT (e.g. 3840x2160), not '${2:-}'" >&2; exit 2; }
            width=${BASH_REMATCH[1]} height=${BASH_REMATCH[2]}
            (( width >= 640 && width <= 7680 && height >= 480 && height <= 4320 )) \
                || { echo "bench-fling: --size $2 is outside 640x480...7680x4320" >&2; exit 2; }
            sizes+=("${width}x${height}")
            shift 2 ;;
        test-card|gallery|zoom|list) scenarios+=("$1"); shift ;;
        *) echo "bench-fling: unknown scenario '$1' (expected test-card, gallery, zoom or list, or --size WxH)" >&2; exit 2 ;;
    esac
done
[ ${#scenarios[@]} -gt 0 ] || scenarios=(test-card gallery zoom list)
[ ${#sizes[@]} -gt 0 ] || sizes=(1920x1080 3840x2160)
if [ ${#sizes[@]} -gt 1 ]; then
    # One run of this script per size, each under a sway of its own; late anywhere fails.
    status=0
    for size in "${sizes[@]}"; do
        "$root/Scripts/bench-fling.sh" --size "$size" "${compare[@]}" "${scenarios[@]}" || status=$(( $? > status ? $? : status ))
    done
    exit "$status"
fi

Scripts/install-deps.sh --demo >/dev/null
swift build -c release --static-swift-stdlib --scratch-path "$scratch" --product image-viewer >/dev/null
swift build -c release --static-swift-stdlib --scratch-path "$scratch" --product wl-inject >/dev/null
swift build -c release --static-swift-stdlib --scratch-path "$scratch" --product headless-session >/dev/null
bin=$(swift build -c release --static-swift-stdlib --scratch-path "$scratch" --show-bin-path)
city="$root/Assets/04-city-4000x3000.jpg"

. "$root/Scripts/headless-sway.sh"
headless_sway "$bin" "$width" "$height"
start_injector "$bin"
inject "abs 10 10"

late_total=0
# fling NAME VIEWER-ARGUMENTS... : one viewer run, driven as scenario NAME, then quit with Q;
# prints its figures. With reference=1 the viewer draws no frame ahead, and is labelled so.
reference=0
fling() {
    local name=$1; shift
    local label=$name log="$work/$name.log"
    if [ "$reference" = 1 ]; then
        set -- "$@" --no-draw-ahead
        label="$name-ref" log="$work/$name-ref.log"
    fi
    "$bin/image-viewer" --stats "$@" 2>"$log" &
    viewer_pid=$!
    wait_for_first_frame "$log"
    sleep 1  # the first picture's full-resolution load, which is not what is measured
    local before
    before=$(grep -c '"event":"frame"' "$log" || true)
    case $name in
        test-card) inject "drag 1500 900 900 200 80 6" "sleep 4500" "drag 400 300 1400 900 70 6" "sleep 4500" ;;
        gallery) inject "drag 1600 540 500 540 90 6" "sleep 1500" "drag 1600 540 400 540 70 6" "sleep 1500" \
                        "drag 300 540 1700 540 80 6" "sleep 1500" ;;
        # Ctrl+wheel: notches one by one (each extends the running step, 2^(1/4) per notch),
        # then four at once in and eight out; then a double click to 1:1 and one back to the
        # fit (animations of about 0.3 s whose every frame is resampled).
        zoom) inject "abs 1100 500" "sleep 30" "key Control_L press" \
                     "wheel vertical -1" "sleep 120" "wheel vertical -1" "sleep 120" "wheel vertical -1" "sleep 120" \
                     "wheel vertical -1" "sleep 900" "wheel vertical -4" "sleep 900" "wheel vertical 8" "sleep 900" \
                     "key Control_L release" "sleep 100" \
                     "button left press" "button left release" "sleep 80" "button left press" "button left release" \
                     "sleep 1200" \
                     "button left press" "button left release" "sleep 80" "button left press" "button left release" \
                     "sleep 1200" ;;
        # Flings of the list: two quick upward flicks (the second adds to the first's speed,
        # as on iOS), a downward one, each left to glide, then a catch and a fling back; away
        # from the section index on the right edge.
        list) local x=$((width / 2)) low=$((height * 5 / 6)) high=$((height / 5))
              inject "drag $x $low $x $high 80 6" "sleep 250" "drag $x $low $x $high 70 6" "sleep 3000" \
                     "drag $x $high $x $low 80 6" "sleep 600" "drag $x $high $x $low 60 6" "sleep 4000" ;;
    esac
    inject "tap q"
    wait "$viewer_pid" || true
    viewer_pid=""
    local summary frames
    summary=$(grep '"event":"summary"' "$log" | tail -1)
    frames=$(( $(grep -c '"event":"frame"' "$log" || true) - before ))
    python3 - "$label" "$frames" "$summary" "$log" "$before" "$work/$label.late" "${width}x${height}" <<'PY'
import json, sys
name, frames, s, log, before = sys.argv[1], int(sys.argv[2]), json.loads(sys.argv[3]), sys.argv[4], int(sys.argv[5])
size = sys.argv[7]
lines = [json.loads(l) for l in open(log) if '"event":"frame"' in l][before:]
# The frames of the scenario itself: the summary counts the whole run, start-up included
# (the first 1920x1080 frame draws every tile, the first picture's full resolution arrives).
answers = [l["answerMs"] for l in lines if "answerMs" in l]
late = sum(1 for a in answers if a > 1000 / 60)
ahead = sum(1 for l in lines if l.get("ahead"))
print(f"{name:13} {size} while driven: {frames} frames ({ahead} drawn ahead), {len(answers)} frame callbacks answered, "
      f"{late} late (> 16.7 ms), slowest answer {max(answers, default=0):.2f} ms")
# The five slowest renders while driven, in frame order: when they came and how many tiles
# each drew or resampled.
worst = sorted(sorted(range(len(lines)), key=lambda i: -lines[i]["renderMs"])[:5])
if worst:
    slow = sum(1 for l in lines if l["renderMs"] > 1000 / 60)
    print(f"          {slow} renders over 16.7 ms; slowest: " + ", ".join(
        f"#{i + 1} {lines[i]['renderMs']:.1f} ms ({lines[i]['tiles']} tiles)" for i in worst))
print(f"          whole run, start-up included: {s['callbacksAnswered']} answered, {s['lateCallbacks']} late, "
      f"slowest {s['slowestCallbackMs']:.2f} ms; render p50 {s['renderP50Ms']:.2f} ms, p99 {s['renderP99Ms']:.2f} ms")
open(sys.argv[6], "w").write(f"{late}\n")
PY
    # The reference's late callbacks are figures to compare with, not a failure.
    [ "$reference" = 1 ] || late_total=$((late_total + $(cat "$work/$label.late")))
    if [ -n "${LOGS:-}" ]; then mkdir -p "$LOGS" && cp "$log" "$LOGS/$label-${width}x${height}.log"; fi
}

for s in "${scenarios[@]}"; do
    for reference in 0 ${compare:+1}; do
        case $s in
            test-card) fling test-card --test-card ;;
            gallery) fling gallery ;;
            zoom) fling zoom "$city" ;;
            list) fling list --demo list ;;
        esac
    done
done
reference=0
if [ "$late_total" -gt 0 ]; then
    echo "bench-fling: $late_total frame callbacks were answered late" >&2
    exit 1
fi
echo "bench-fling: no frame callback answered late"
