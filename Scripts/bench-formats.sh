#!/usr/bin/env bash
# The formats benchmark in one command: a 24-MP photo in every format image-viewer and swayimg
# both read, each shown by both viewers under their own headless sway (5 runs each by default),
# with the medians of their first frames and peak memory side by side (Scripts/bench-huge-image.sh
# builds; pictures-bench --help lists the options, e.g. --formats png,webp --runs 3 --pictures DIR).
# Needs sway, grim, swayimg and the corpus tools (Scripts/install-deps.sh installs them).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
exec "$root/Scripts/bench-huge-image.sh" --formats all --make-corpus "$root/Scripts/make-corpus.py" "$@"
