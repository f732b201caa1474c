#!/usr/bin/env bash
# Does a kiosk hold steady over time? Runs the release image-viewer as a kiosk
# (--kiosk --slideshow 1 --idle-reset 5) under a private headless sway, drives it with injected
# pointer input (a drag to another picture, a double click in and out of 1:1, a wheel notch, then
# quiet long enough for the idle reset to fire), and prints the viewer's resident memory, open
# file descriptors and threads as it goes; at the end the first and last figures and the
# least-squares slope of each over the run after the warm-up.
# Usage: Scripts/soak.sh [--minutes N] [--every SECONDS] [--warm-up MINUTES] [--cache-mb N]
#                        [PICTURE-OR-FOLDER...]
#        (default: 30 minutes, a sample every 30 s, slopes from minute 2, the viewer's default
#        tile cache, the bundled Assets/ listed twice: 10 pictures); SCRATCH=DIR builds in DIR
#        instead of .build
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
scratch=${SCRATCH:-.build}
minutes=30 every=30 warmup=2
pictures=() cache=()
while [ $# -gt 0 ]; do
    case $1 in
        --minutes) minutes=${2:?--minutes needs a number}; shift 2 ;;
        --every) every=${2:?--every needs a number of seconds}; shift 2 ;;
        --warm-up) warmup=${2:?--warm-up needs a number of minutes}; shift 2 ;;
        --cache-mb) cache=(--cache-mb "${2:?--cache-mb needs a number of MiB}"); shift 2 ;;
        -h|--help) sed -n '2,12p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        -*) echo "soak: unknown option '$1' (see --help)" >&2; exit 2 ;;
        *) pictures+=("$1"); shift ;;
    esac
done
for value in "$minutes" "$every" "$warmup"; do
    [[ $value =~ ^[0-9]+([.][0-9]+)?$ ]] || { echo "soak: '$value' is not a positive number" >&2; exit 2; }
done
[ ${#pictures[@]} -gt 0 ] || pictures=("$root/Assets" "$root/Assets")

Scripts/install-deps.sh --demo >/dev/null
swift build -c release --static-swift-stdlib --scratch-path "$scratch" --product image-viewer >/dev/null
swift build -c release --static-swift-stdlib --scratch-path "$scratch" --product wl-inject >/dev/null
swift build -c release --static-swift-stdlib --scratch-path "$scratch" --product headless-session >/dev/null
bin=$(swift build -c release --static-swift-stdlib --scratch-path "$scratch" --show-bin-path)

. "$root/Scripts/headless-sway.sh"
headless_sway "$bin" 1280 800
start_injector "$bin"
inject "abs 640 400"

"$bin/image-viewer" --kiosk --slideshow 1 --idle-reset 5 --stats "${cache[@]}" "${pictures[@]}" 2>"$work/viewer.log" &
viewer_pid=$!
wait_for_first_frame "$work/viewer.log"

samples="$work/samples"
: >"$samples"
start=$(date +%s)
# sample: one line "SECONDS RSS-KIB FDS THREADS" of the viewer's figures now.
sample() {
    local now rss threads fds
    now=$(($(date +%s) - start))
    rss=$(awk '/^VmRSS:/ {print $2}' "/proc/$viewer_pid/status")
    threads=$(awk '/^Threads:/ {print $2}' "/proc/$viewer_pid/status")
    fds=$(ls "/proc/$viewer_pid/fd" | wc -l)
    echo "$now $rss $fds $threads" >>"$samples"
    printf 'soak: %3d:%02d  rss %6d KiB  fds %3d  threads %2d\n' $((now / 60)) $((now % 60)) "$rss" "$fds" "$threads"
}

# One round of input, about 9 s of it quiet: the idle reset (5 s) fires in every round.
drive() {
    inject "drag 1000 400 300 400 120 8" "sleep 1500" \
           "abs 640 400" "button left press" "button left release" "sleep 80" "button left press" "button left release" \
           "sleep 1200" \
           "button left press" "button left release" "sleep 80" "button left press" "button left release" \
           "sleep 800" "wheel vertical 1" "sleep 6000"
}

sample
next_sample=$((start + every))
end=$(awk -v s="$start" -v m="$minutes" 'BEGIN { printf "%d", s + m * 60 }')
while [ "$(date +%s)" -lt "$end" ]; do
    kill -0 "$viewer_pid" 2>/dev/null || { echo "soak: the viewer ended early; its log:" >&2; tail -20 "$work/viewer.log" >&2; exit 1; }
    drive
    if [ "$(date +%s)" -ge "$next_sample" ]; then
        sample
        next_sample=$((next_sample + every))
    fi
done
[ "$(tail -1 "$samples" | cut -d' ' -f1)" -eq $(($(date +%s) - start)) ] || sample

# Least-squares slopes per minute over the samples after the warm-up (the first pictures'
# decodes, the tile cache filling up to its working set).
awk -v warmup="$warmup" '
    { t[NR] = $1; rss[NR] = $2; fds[NR] = $3; thr[NR] = $4 }
    END {
        printf "soak: start  rss %d KiB, fds %d, threads %d\n", rss[1], fds[1], thr[1]
        printf "soak: end    rss %d KiB, fds %d, threads %d after %.1f min\n", rss[NR], fds[NR], thr[NR], t[NR] / 60
        n = 0
        for (i = 1; i <= NR; i++) if (t[i] >= warmup * 60) { n++; x[n] = t[i] / 60; a[n] = rss[i]; b[n] = fds[i]; c[n] = thr[i] }
        if (n < 3) { print "soak: too few samples after the warm-up for a slope (run longer, or sample more often)"; exit }
        mx = 0; for (i = 1; i <= n; i++) mx += x[i] / n
        sxx = 0; for (i = 1; i <= n; i++) sxx += (x[i] - mx) ^ 2
        split("a b c", names)
        for (k = 1; k <= 3; k++) {
            my = 0; sxy = 0
            for (i = 1; i <= n; i++) { v = (k == 1 ? a[i] : k == 2 ? b[i] : c[i]); my += v / n }
            for (i = 1; i <= n; i++) { v = (k == 1 ? a[i] : k == 2 ? b[i] : c[i]); sxy += (x[i] - mx) * (v - my) }
            slope[k] = sxy / sxx
        }
        printf "soak: slope from minute %s on (%d samples): rss %+.1f KiB/min, fds %+.2f/min, threads %+.2f/min\n", warmup, n, slope[1], slope[2], slope[3]
    }' "$samples"
