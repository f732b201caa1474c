#!/usr/bin/env bash
# The huge-image benchmark in one command: builds image-viewer and pictures-bench (release) and
# runs pictures-bench. It generates a 100-MP photo-like JPEG, prints the first frame against a
# full libjpeg-turbo decode, then shows the file with image-viewer and with swayimg, each under
# its own headless sway, and prints both first frames and peak memories side by side.
# Usage: Scripts/bench-huge-image.sh [pictures-bench options]   (--help lists them)
# SCRATCH=DIR builds in DIR instead of .build. Needs sway, grim and swayimg
# (Scripts/install-deps.sh installs them); pictures-bench names whichever is missing.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
scratch=${SCRATCH:-.build}

for product in image-viewer pictures-bench; do
    echo "bench-huge-image: building $product (release, in $scratch)"
    if ! log=$(swift build -c release --static-swift-stdlib --scratch-path "$scratch" --product "$product" 2>&1); then
        echo "$log" >&2
        echo "bench-huge-image: the build of $product failed" >&2
        exit 1
    fi
done
bin=$(swift build -c release --static-swift-stdlib --scratch-path "$scratch" --show-bin-path)
exec "$bin/pictures-bench" --viewer "$bin/image-viewer" "$@"
