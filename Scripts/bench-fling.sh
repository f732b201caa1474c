#!/usr/bin/env bash
# Does the frame loop keep up during a live fling? Runs the release image-viewer under a
# private headless sway at 1920×1080, flings it with the injected pointer (the test card,
# then the gallery of bundled pictures) and prints, from the viewer's --stats summary, how
# many frame callbacks were answered, how many late (slower than one 60 Hz refresh,
# 16.7 ms, from the callback's arrival to the commit answering it) and the slowest answer.
# Usage: Scripts/bench-fling.sh      (exit status 1 when a fling had late frames)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"

Scripts/install-deps.sh --demo >/dev/null
swift build -c release --product image-viewer >/dev/null
swift build -c release --product wl-inject >/dev/null
bin=$(swift build -c release --show-bin-path)

. "$root/Scripts/headless-sway.sh"
headless_sway 1920 1080
start_injector "$bin"
inject "abs 10 10"

late_total=0
# fling NAME FLING-COMMANDS... : one viewer run, flung, then quit with Q; prints its figures.
fling() {
    local name=$1; shift
    local log="$work/$name.log"
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
    esac
    inject "tap q"
    wait "$viewer_pid" || true
    viewer_pid=""
    local summary frames
    summary=$(grep '"event":"summary"' "$log" | tail -1)
    frames=$(( $(grep -c '"event":"frame"' "$log" || true) - before ))
    python3 - "$name" "$frames" "$summary" <<'PY'
import json, sys
name, frames, s = sys.argv[1], int(sys.argv[2]), json.loads(sys.argv[3])
print(f"{name:9} 1920x1080: {frames} frames during the flings, "
      f"{s['callbacksAnswered']} frame callbacks answered, {s['lateCallbacks']} late (> 16.7 ms), "
      f"slowest answer {s['slowestCallbackMs']:.2f} ms; render p50 {s['renderP50Ms']:.2f} ms, p99 {s['renderP99Ms']:.2f} ms")
PY
    local late
    late=$(python3 -c 'import json,sys; print(json.loads(sys.argv[1])["lateCallbacks"])' "$summary")
    late_total=$((late_total + late))
}

fling test-card --test-card
fling gallery
if [ "$late_total" -gt 0 ]; then
    echo "bench-fling: $late_total frame callbacks were answered late" >&2
    exit 1
fi
echo "bench-fling: no frame callback answered late"
