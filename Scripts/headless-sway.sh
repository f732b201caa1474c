# Sourced by the demo and the live benchmarks: a private headless sway for this shell (alone,
# or nested in a virtual KWin for touch), and one wl-inject connected for the whole run. Not a
# program of its own.
#
#   headless_sway WIDTH HEIGHT   starts sway, exports WAYLAND_DISPLAY and XDG_RUNTIME_DIR,
#                                sets $work (a temporary folder removed at exit)
#   touch_sway WIDTH HEIGHT      the same, nested in KWin --virtual, whose fake touch input
#                                becomes sway's touch; sets $kwin_socket
#   start_injector BIN           connects "$BIN/wl-inject --stdin" (devices appear now): to sway,
#                                or after touch_sway to KWin (touch, pointer and keys)
#   inject COMMAND...            sends wl-inject commands and waits until they were handled
#
# sway refuses to run as root, so root runs it as uid 4242; its runtime dir must belong to
# that uid with mode 0700. Everything started here ends when the shell exits.

sway_pid="" kwin_pid="" viewer_pid="" kwin_socket="" work=""
headless_sway_cleanup() {
    [ -n "$viewer_pid" ] && kill "$viewer_pid" 2>/dev/null || true
    [ -n "${INJECT_PID:-}" ] && kill "$INJECT_PID" 2>/dev/null || true
    # sway starts swaybg: end the whole process group; KWin after the sway nested in it.
    local pid
    for pid in "$sway_pid" "$kwin_pid"; do
        [ -n "$pid" ] || continue
        kill -- "-$pid" 2>/dev/null || true
        sleep 0.3
        kill -9 -- "-$pid" 2>/dev/null || true
    done
    [ -n "$work" ] && rm -rf "$work"
}

make_work_folder() {
    [ -n "$work" ] && return
    work=$(mktemp -d /tmp/scrollkit-sway.XXXXXX)
    # sway's uid passes through to its runtime dir; nobody else may list what is here.
    chmod 711 "$work"
    mkdir -p "$work/runtime" "$work/home"
    chmod 700 "$work/runtime"
    trap headless_sway_cleanup EXIT
}

# wait_for_socket PATH WHAT LOG: up to 20 s for PATH to appear, else WHAT's LOG and exit 1.
wait_for_socket() {
    for _ in $(seq 1 200); do [ -S "$1" ] && return; sleep 0.1; done
    echo "$2 did not start; its log:" >&2
    cat "$3" >&2
    exit 1
}

touch_sway() {
    local width=$1 height=$2
    make_work_folder
    mkdir -p "$work/kwin-runtime" "$work/bin"
    chmod 700 "$work/kwin-runtime"
    # /usr/bin/kwin_wayland carries a file capability containers refuse; a plain copy runs,
    # and it must keep the name kwin_wayland. Without the permission checks off, KWin
    # refuses fake input.
    cp /usr/bin/kwin_wayland "$work/bin/kwin_wayland"
    setsid env -i PATH=/usr/bin:/bin HOME="$work/home" XDG_RUNTIME_DIR="$work/kwin-runtime" \
        KWIN_COMPOSE=Q KWIN_WAYLAND_NO_PERMISSION_CHECKS=1 \
        "$work/bin/kwin_wayland" --virtual --width "$width" --height "$height" --socket kwin-0 \
        --no-lockscreen --no-global-shortcuts --no-kactivities >"$work/kwin.log" 2>&1 &
    kwin_pid=$!
    kwin_socket="$work/kwin-runtime/kwin-0"
    wait_for_socket "$kwin_socket" KWin "$work/kwin.log"
    # sway runs as an unprivileged uid and must reach KWin's socket, which takes fake input:
    # the socket and its folder are opened to that uid's group alone, never to other users.
    if [ "$(id -u)" -eq 0 ]; then
        chgrp 4242 "$work/kwin-runtime" "$kwin_socket"
        chmod 710 "$work/kwin-runtime"
        chmod 660 "$kwin_socket"
    fi
    headless_sway "$width" "$height" "$kwin_socket"
}

# headless_sway WIDTH HEIGHT [PARENT-SOCKET]: with a parent, sway is a window of it.
headless_sway() {
    local width=$1 height=$2 parent=${3:-}
    make_work_folder
    local output=HEADLESS-1 backend=(WLR_BACKENDS=headless WLR_LIBINPUT_NO_DEVICES=1)
    if [ -n "$parent" ]; then
        output=WL-1 backend=(WLR_BACKENDS=wayland WAYLAND_DISPLAY="$parent")
    fi
    cat >"$work/sway.config" <<CONF
output $output mode ${width}x${height} bg #202020 solid_color
default_border none
seat seat0 fallback true
xwayland disable
CONF
    chmod 644 "$work/sway.config"
    local run_as=()
    if [ "$(id -u)" -eq 0 ]; then
        chown 4242:4242 "$work/runtime" "$work/home"
        run_as=(setpriv --reuid=4242 --regid=4242 --clear-groups)
    fi
    setsid env -i PATH=/usr/bin:/bin HOME="$work/home" XDG_RUNTIME_DIR="$work/runtime" \
        WLR_RENDERER=pixman "${backend[@]}" \
        "${run_as[@]}" sway -c "$work/sway.config" >"$work/sway.log" 2>&1 &
    sway_pid=$!
    local socket="$work/runtime/wayland-1"
    wait_for_socket "$socket" sway "$work/sway.log"
    export WAYLAND_DISPLAY="$socket" XDG_RUNTIME_DIR="$work/runtime"
    sway_size="${width}x${height}"
}

# wait_for_touch: after touch_sway and start_injector, until sway has KWin's touch device
# (touch sent before that is lost).
wait_for_touch() {
    local ipc
    for _ in $(seq 1 200); do
        ipc=$(ls "$work"/runtime/sway-ipc.*.sock 2>/dev/null | head -1)
        [ -n "$ipc" ] && swaymsg -s "$ipc" -t get_inputs 2>/dev/null | grep -q '"touch"' && return
        sleep 0.1
    done
    echo "sway nested in KWin got no touch device; sway's log:" >&2
    tail -20 "$work/sway.log" >&2
    exit 1
}

# One injector for the whole run, connected before the viewer: devices appear when an
# injector connects, and input sent while a client re-binds its seat can be lost.
start_injector() {
    if [ -n "$kwin_socket" ]; then
        coproc INJECT { WAYLAND_DISPLAY="$kwin_socket" XDG_RUNTIME_DIR="$work/kwin-runtime" \
            "$1/wl-inject" --stdin --backend kwin 2>"$work/inject.log"; }
    else
        coproc INJECT { "$1/wl-inject" --stdin --extent "$sway_size" 2>"$work/inject.log"; }
    fi
}

inject() {
    local c
    for c in "$@"; do echo "$c" >&"${INJECT[1]}"; done
    echo sync >&"${INJECT[1]}"
    local reply=""
    read -r -t 20 reply <&"${INJECT[0]}" || true
    if [ "$reply" != ok ]; then
        echo "the input injector failed; its log:" >&2
        cat "$work/inject.log" >&2
        exit 1
    fi
}

# wait_for_first_frame LOG: waits up to 30 s for the viewer's first-frame line in LOG.
wait_for_first_frame() {
    for _ in $(seq 1 300); do grep -q '"first-frame"' "$1" 2>/dev/null && break; sleep 0.1; done
    if ! grep -q '"first-frame"' "$1"; then
        echo "the viewer showed no picture; its output:" >&2
        cat "$1" >&2
        exit 1
    fi
}
