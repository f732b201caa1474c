#!/usr/bin/env bash
# The demo: installs what it needs, builds the image viewer and runs it. Inside a Wayland
# session it opens a window; without one it starts a headless sway (nested in a virtual KWin
# for touch), drives a short tour with the fingers and writes screenshots to a folder it
# names. Extra arguments go to image-viewer.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"

Scripts/install-deps.sh --demo
echo "demo: building image-viewer (release)"
swift build -c release --static-swift-stdlib --product image-viewer >/dev/null
swift build -c release --static-swift-stdlib --product wl-inject >/dev/null
swift build -c release --static-swift-stdlib --product headless-session >/dev/null
bin=$(swift build -c release --static-swift-stdlib --show-bin-path)

if [ -n "${WAYLAND_DISPLAY:-}" ] || [ -n "${WAYLAND_SOCKET:-}" ]; then
    exec "$bin/image-viewer" "$@"
fi

# No session: a private sway nested in a virtual KWin (whose fake touch becomes sway's touch),
# one touch injector connected before the viewer, and a tour with the fingers.
shots="$root/screenshots"
mkdir -p "$shots"
. "$root/Scripts/headless-sway.sh"
touch_sway "$bin" 1280 800
start_injector "$bin"
wait_for_touch
inject "sleep 200"

"$bin/image-viewer" --stats "$@" 2>"$work/viewer.log" &
viewer_pid=$!
wait_for_first_frame "$work/viewer.log"

n=0
shot() {  # shot NAME [SECONDS]: a screenshot once motion has settled
    sleep "${2:-1.2}"
    n=$((n + 1))
    local file
    file=$(printf '%s/%02d-%s.png' "$shots" "$n" "$1")
    grim "$file"
    echo "demo: wrote $file"
}
tap() {  # tap X Y: one finger down and up
    inject "touch down 0 $1 $2" "touch frame" "sleep 40" "touch up 0" "touch frame"
}
pan() {  # pan X0 Y0 X1 Y1: one finger moves, then rests before lifting (no fling)
    local steps=20 i commands=("touch down 0 $1 $2" "touch frame")
    for i in $(seq 1 $steps); do
        commands+=("sleep 20" "touch move 0 $(($1 + ($3 - $1) * i / steps)) $(($2 + ($4 - $2) * i / steps))" "touch frame")
    done
    inject "${commands[@]}" "sleep 250" "touch up 0" "touch frame"
}

rm -f "$shots"/*.png
shot first-picture 0.5
# The tour: swipe to the next picture, pinch it open around the middle, pan the zoomed
# picture with one finger, then double-tap to go back to the fit.
inject "swipe 0 1000 400 300 400 150 8"
shot swiped-to-second
inject "pinch 640 400 60 260 500 15"
shot pinched-open
pan 800 550 500 300
shot panned
tap 640 400
inject "sleep 80"
tap 640 400
shot double-tapped
echo "demo: done; screenshots are in $shots"
