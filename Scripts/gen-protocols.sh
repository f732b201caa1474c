#!/usr/bin/env bash
# Regenerates the C glue in Sources/CWaylandProtocols from Protocols/*.xml with wayland-scanner.
# --check: regenerate into a temporary folder and fail if the committed glue differs.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
out="$root/Sources/CWaylandProtocols"
mode=${1:-write}
command -v wayland-scanner >/dev/null || { echo "gen-protocols: wayland-scanner not found (Debian package libwayland-bin; run Scripts/install-deps.sh)" >&2; exit 1; }

gen_into() {
    local dest=$1
    mkdir -p "$dest/include"
    for xml in "$root"/Protocols/*.xml; do
        local base
        base=$(basename "$xml" .xml)
        wayland-scanner client-header "$xml" "$dest/include/$base-client-protocol.h"
        # private-code keeps the interface symbols inside our module.
        wayland-scanner private-code "$xml" "$dest/$base-protocol.c"
    done
}

case "$mode" in
    write)
        rm -f "$out"/*-protocol.c "$out"/include/*-client-protocol.h
        gen_into "$out"
        echo "gen-protocols: wrote glue for $(ls "$root"/Protocols/*.xml | wc -l) protocols into Sources/CWaylandProtocols"
        ;;
    --check)
        tmp=$(mktemp -d)
        trap 'rm -rf "$tmp"' EXIT
        gen_into "$tmp"
        status=0
        for f in "$tmp"/*.c "$tmp"/include/*.h; do
            rel=${f#"$tmp"/}
            if ! cmp -s "$f" "$out/$rel"; then echo "gen-protocols: $rel is out of date with Protocols/ (run Scripts/gen-protocols.sh)" >&2; status=1; fi
        done
        for f in "$out"/*-protocol.c "$out"/include/*-client-protocol.h; do
            rel=${f#"$out"/}
            [ -e "$tmp/$rel" ] || { echo "gen-protocols: $rel has no XML in Protocols/ (run Scripts/gen-protocols.sh)" >&2; status=1; }
        done
        [ $status -eq 0 ] && echo "gen-protocols: committed glue matches Protocols/"
        exit $status
        ;;
    *) echo "usage: gen-protocols.sh [--check]" >&2; exit 2 ;;
esac
