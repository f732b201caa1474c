#!/usr/bin/env bash
# The demo: installs what it needs, builds the image viewer and runs it. Inside a Wayland
# session it opens a window; without one it starts headless sway, drives a short tour and
# writes screenshots to a folder it names. Extra arguments go to image-viewer.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"

Scripts/install-deps.sh --demo
echo "demo: building image-viewer (release)"
swift build -c release --product image-viewer >/dev/null
swift build -c release --product wl-inject >/dev/null
bin=$(swift build -c release --show-bin-path)

if [ -n "${WAYLAND_DISPLAY:-}" ] || [ -n "${WAYLAND_SOCKET:-}" ]; then
    exec "$bin/image-viewer" "$@"
fi

# No session: a private headless sway. sway refuses to run as root, so root runs it as an
# unprivileged uid; its runtime dir must belong to that uid with mode 0700.
shots="$root/screenshots"
work=$(mktemp -d /tmp/scrollkit-demo.XXXXXX)
chmod 755 "$work"
mkdir -p "$shots" "$work/runtime" "$work/home"
chmod 700 "$work/runtime"
width=1280 height=800
cat >"$work/sway.config" <<CONF
output HEADLESS-1 mode ${width}x${height} bg #202020 solid_color
default_border none
seat seat0 fallback true
xwayland disable
CONF
chmod 644 "$work/sway.config"
run_as=()
if [ "$(id -u)" -eq 0 ]; then
    chown 4242:4242 "$work/runtime" "$work/home"
    run_as=(setpriv --reuid=4242 --regid=4242 --clear-groups)
fi
sway_pid="" viewer_pid=""
cleanup() {
    # sway starts swaybg: end the whole process group.
    [ -n "$viewer_pid" ] && kill "$viewer_pid" 2>/dev/null || true
    [ -n "${INJECT_PID:-}" ] && kill "$INJECT_PID" 2>/dev/null || true
    [ -n "$sway_pid" ] && kill -- "-$sway_pid" 2>/dev/null || true
    sleep 0.3
    [ -n "$sway_pid" ] && kill -9 -- "-$sway_pid" 2>/dev/null || true
    rm -rf "$work"
}
trap cleanup EXIT

setsid env -i PATH=/usr/bin:/bin HOME="$work/home" XDG_RUNTIME_DIR="$work/runtime" \
    WLR_BACKENDS=headless WLR_RENDERER=pixman WLR_LIBINPUT_NO_DEVICES=1 \
    "${run_as[@]}" sway -c "$work/sway.config" >"$work/sway.log" 2>&1 &
sway_pid=$!
socket="$work/runtime/wayland-1"
for _ in $(seq 1 150); do [ -S "$socket" ] && break; sleep 0.1; done
if [ ! -S "$socket" ]; then
    echo "demo: headless sway did not start; its log:" >&2
    cat "$work/sway.log" >&2
    exit 1
fi
export WAYLAND_DISPLAY="$socket" XDG_RUNTIME_DIR="$work/runtime"

# One injector for the whole tour, connected before the viewer: devices appear when an
# injector connects, and input sent while a client re-binds its seat can be lost.
coproc INJECT { "$bin/wl-inject" --stdin --extent "${width}x${height}" 2>"$work/inject.log"; }
inject() {  # inject COMMAND...: send commands, wait until the compositor has handled them
    local c
    for c in "$@"; do echo "$c" >&"${INJECT[1]}"; done
    echo sync >&"${INJECT[1]}"
    local reply=""
    read -r -t 20 reply <&"${INJECT[0]}" || true
    if [ "$reply" != ok ]; then
        echo "demo: the input injector failed; its log:" >&2
        cat "$work/inject.log" >&2
        exit 1
    fi
}
inject "abs 10 10"

"$bin/image-viewer" --stats "$@" 2>"$work/viewer.log" &
viewer_pid=$!
for _ in $(seq 1 300); do grep -q '"first-frame"' "$work/viewer.log" 2>/dev/null && break; sleep 0.1; done
if ! grep -q '"first-frame"' "$work/viewer.log"; then
    echo "demo: the viewer showed no picture; its output:" >&2
    cat "$work/viewer.log" >&2
    exit 1
fi

n=0
shot() {  # shot NAME: a screenshot once motion has settled
    sleep "${2:-1.2}"
    n=$((n + 1))
    local file
    file=$(printf '%s/%02d-%s.png' "$shots" "$n" "$1")
    grim "$file"
    echo "demo: wrote $file"
}

rm -f "$shots"/*.png
shot first-picture 0.5
# The tour: swipe to the next picture, zoom in with Ctrl+wheel at the centre, pan the
# zoomed picture, then double-click to toggle the zoom back.
inject "drag 1000 400 350 400 120 8"
shot swiped-to-second
inject "abs 640 400" "key Control_L press" "wheel vertical -4" "key Control_L release"
shot zoomed-in
inject "drag 800 500 500 300 400 20" "sleep 300"
shot panned
inject "abs 640 400" "button left press" "button left release" "sleep 80" "button left press" "button left release"
shot double-tapped
echo "demo: done; screenshots are in $shots"
