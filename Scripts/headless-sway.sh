# Sourced by the demo and the live benchmarks: a private headless sway for this shell (alone,
# or nested in a virtual KWin for touch), and one wl-inject connected for the whole run. Not a
# program of its own. The compositors are started by headless-session, on the harness the live
# tests use (Sources/CompositorHarness): one implementation of their folders, users, sockets
# and teardown.
#
#   headless_sway BIN WIDTH HEIGHT  starts "$BIN/headless-session": sway, with WAYLAND_DISPLAY,
#                                   XDG_RUNTIME_DIR and SWAYSOCK exported; sets $work (a
#                                   temporary folder for the script's logs, removed at exit)
#   touch_sway BIN WIDTH HEIGHT     the same, nested in KWin --virtual, whose fake touch input
#                                   becomes sway's touch; sets $kwin_socket
#   start_injector BIN              connects "$BIN/wl-inject --stdin" (devices appear now): to sway,
#                                   or after touch_sway to KWin (touch, pointer and keys)
#   inject COMMAND...               sends wl-inject commands and waits until they were handled
#   quiet PID MS LIMIT              waits until PID has used no CPU for MS ms (cpu PID: its ticks)
#   build_release NAME PRODUCT...   builds the products as every script does (release, Swift's
#                                   runtime linked in) in $SCRATCH or .build and sets $bin to
#                                   their folder; a failed build prints its output, exits 1
#
# Everything started here ends when the shell exits (headless-session also ends its compositors
# by itself when the shell is killed).

# $bin is kept: bench-fling, demo and soak set it before sourcing this file (build_release sets it after).
session_pid="" viewer_pid="" kwin_socket="" work="" sway_size="" bin=${bin:-}

# build_release NAME PRODUCT...: NAME (the script's) begins its lines.
build_release() {
    local name=$1 scratch=${SCRATCH:-.build} product log
    shift
    echo "$name: building $* (release, in $scratch)"
    for product in "$@"; do
        if ! log=$(swift build -c release --static-swift-stdlib --scratch-path "$scratch" --product "$product" 2>&1); then
            echo "$log" >&2
            echo "$name: the build of $product failed" >&2
            exit 1
        fi
    done
    bin=$(swift build -c release --static-swift-stdlib --scratch-path "$scratch" --show-bin-path)
}
headless_sway_cleanup() {
    [ -n "$viewer_pid" ] && kill "$viewer_pid" 2>/dev/null || true
    [ -n "${INJECT_PID:-}" ] && kill "$INJECT_PID" 2>/dev/null || true
    # headless-session ends the compositors and everything they started before it exits.
    if [ -n "$session_pid" ]; then
        kill "$session_pid" 2>/dev/null || true
        for _ in $(seq 1 100); do kill -0 "$session_pid" 2>/dev/null || break; sleep 0.1; done
    fi
    [ -n "$work" ] && rm -rf "$work"
}

# headless_sway BIN WIDTH HEIGHT [--touch]
headless_sway() {
    local bin=$1 width=$2 height=$3 line
    work=$(mktemp -d /tmp/scrollkit-script.XXXXXX)
    trap headless_sway_cleanup EXIT
    # #202020: the demo's screenshots show the viewer on a dark desktop.
    exec {session_out}< <(exec "$bin/headless-session" --size "${width}x${height}" --background 202020 "${@:4}" \
        2>"$work/session.log")
    session_pid=$!
    while IFS= read -r -u "$session_out" line; do
        case $line in
            ready) sway_size="${width}x${height}"; return ;;
            KWIN_DISPLAY=*) kwin_socket=${line#KWIN_DISPLAY=} ;;
            *=*) export "${line?}" ;;
        esac
    done
    echo "the headless compositor did not start; its log:" >&2
    cat "$work/session.log" >&2
    exit 1
}

touch_sway() {
    headless_sway "$1" "$2" "$3" --touch
}

# wait_for_touch: after touch_sway and start_injector, until sway has KWin's touch device
# (touch sent before that is lost).
wait_for_touch() {
    for _ in $(seq 1 200); do
        swaymsg -t get_inputs 2>/dev/null | grep -q '"touch"' && return
        sleep 0.1
    done
    echo "sway nested in KWin got no touch device; its inputs:" >&2
    swaymsg -t get_inputs >&2 || true
    exit 1
}

# One injector for the whole run, connected before the viewer: devices appear when an
# injector connects, and input sent while a client re-binds its seat can be lost.
start_injector() {
    if [ -n "$kwin_socket" ]; then
        coproc INJECT { WAYLAND_DISPLAY="$kwin_socket" "$1/wl-inject" --stdin --backend kwin 2>"$work/inject.log"; }
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

# cpu PID: the process's CPU time in clock ticks (user + system, every thread); "gone" once it
# exited.
cpu() { awk '{print $14 + $15}' "/proc/$1/stat" 2>/dev/null || echo gone; }

# quiet PID MS LIMIT: waits until PID used no CPU time for MS ms (polled every 50 ms), at most
# LIMIT s; fails when PID is gone.
quiet() {
    local pid=$1 need=$(( $2 / 50 )) last="" same=0 now
    for _ in $(seq 1 $(( $3 * 20 ))); do
        now=$(cpu "$pid")
        [ "$now" = gone ] && return 1
        if [ "$now" = "$last" ]; then same=$((same + 1)); else same=0; fi
        last=$now
        [ "$same" -ge "$need" ] && return 0
        sleep 0.05
    done
    return 0
}

# wait_for_first_frame LOG [TENTHS]: waits up to TENTHS tenths of a second (default 300: 30 s) for
# the viewer's first-frame line in LOG.
wait_for_first_frame() {
    for _ in $(seq 1 "${2:-300}"); do grep -q '"first-frame"' "$1" 2>/dev/null && break; sleep 0.1; done
    if ! grep -q '"first-frame"' "$1"; then
        echo "the viewer showed no picture; its output:" >&2
        cat "$1" >&2
        exit 1
    fi
}
