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
# For its build_release (the compositors pictures-bench starts itself).
. "$root/Scripts/headless-sway.sh"
build_release bench-huge-image image-viewer pictures-bench
exec "$bin/pictures-bench" --viewer "$bin/image-viewer" "$@"
