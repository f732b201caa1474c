#!/usr/bin/env bash
# Installs the Debian packages ScrollKit needs, only those missing (idempotent).
# Usage: Scripts/install-deps.sh [--demo | --install | --kiosk]   (--demo: only what the demo
# needs; --install: only what Scripts/install.sh needs; --kiosk: that and cage, for
# Scripts/kiosk/install.sh)
set -euo pipefail

# Build: headers and pkg-config files for the C libraries; wayland-scanner for the glue check.
build=(pkg-config libwayland-dev libwayland-bin libxkbcommon-dev xkb-data libpng-dev libturbojpeg0-dev libjpeg62-turbo-dev libpixman-1-dev
       libfontconfig-dev libfreetype-dev libharfbuzz-dev libfribidi-dev libunibreak-dev
       libwebp-dev libgif-dev libtiff-dev libheif-dev libde265-dev libavif-dev libjxl-dev librsvg2-dev liblcms2-dev libexif-dev)
# Client-side decorations where the compositor draws none (GNOME, weston): libdecor, and its
# cairo plugin, which draws the title bar, borders and shadows at run time.
build+=(libdecor-0-dev libdecor-0-plugin-1-cairo)
# The kiosk's systemd watchdog and readiness (sd_notify).
build+=(libsystemd-dev)
# GCC's libstdc++ archive, which the viewer links statically (Packaging/static-libstdc++);
# Swift's own Linux prerequisites list the same package, for the shared library's link.
build+=(libstdc++-12-dev)
# zlib's headers: a large PNG's image data is inflated on a second core (Sources/CPNGStream),
# and the tests deflate the rows of the huge PNG files they write.
build+=(zlib1g-dev)
# libheif1 on Debian 12 has its decoders built in: libde265 (HEVC), dav1d and libaom (AV1)
# come with it as dependencies; there are no separate plugin packages to add. libde265-dev's
# header is for the viewer's own HEVC decoder on libde265's worker threads (Sources/CHEIF/de265.c).
# libavif15 (AVIF of one image, decoded by dav1d on both cores) comes with libavif-dev.
# Fonts for the text layer: DejaVu and Noto for Latin, Greek, Cyrillic, Arabic, Hebrew, Indic and
# more (fonts-noto-core, 42 MB), Noto CJK for Chinese, Japanese and Korean (91 MB: no smaller
# package covers them well), and Noto Color Emoji (11 MB, colour bitmaps).
fonts=(fontconfig fonts-dejavu-core fonts-noto-core fonts-noto-cjk fonts-noto-color-emoji)
# Run headless: sway (wlroots headless backend), grim for screenshots, and KWin, whose fake
# touch input reaches a sway nested in it (the demo's touch tour, the touch tests).
headless=(sway grim kwin-wayland)
# Tests only: KWin's protocol files; cage and weston for the kiosk runs; swayimg as the
# reference of the huge-image and formats benchmarks.
tests=(plasma-wayland-protocols cage weston swayimg)
# The kiosk unit's check (systemd-analyze verify, which runs without systemd as init).
tests+=(systemd)
# readelf: a unit test reads the built viewer's dynamic section (the libraries opened on first
# use must not be linked).
tests+=(binutils)
# cjpeg: the tests and the gigapixel benchmark feed it a picture's rows through a pipe, never
# the whole picture.
tests+=(libjpeg-turbo-progs)
# The picture corpus and the formats benchmark's pictures (Scripts/make-corpus.py): Pillow, and
# each format library's own tools for encoding and for the reference decodes.
tests+=(python3-pil webp libtiff-tools libheif-examples libavif-bin libjxl-tools librsvg2-bin)
# valgrind's callgrind: Scripts/make-symbol-order.sh lists the functions the viewer runs.
tests+=(valgrind)
# GNOME's compositor headless for the decoration tests (Tests/LiveTests/Harness/Mutter.swift):
# mutter on its own D-Bus session bus, screenshots through its ScreenCast into PipeWire
# (WirePlumber links the stream; gst-launch's pipewiresrc takes one frame, videoconvert and
# pngenc write it), and python3-gi to hold the D-Bus connection the capture and input need.
tests+=(mutter dbus-daemon pipewire pipewire-bin wireplumber gstreamer1.0-pipewire gstreamer1.0-tools
        gstreamer1.0-plugins-base gstreamer1.0-plugins-good python3-gi)
# Scripts/install.sh (and its test): desktop-file-validate (and update-desktop-database) for the
# .desktop file, rsvg-convert for the icon's PNG sizes.
install=(desktop-file-utils librsvg2-bin)
# The kiosk service (Scripts/kiosk/install.sh): cage, the compositor it runs the viewer in.
kiosk=(cage)

case "${1:-}" in
    --demo) wanted=("${build[@]}" "${fonts[@]}" "${headless[@]}") ;;
    --install) wanted=("${build[@]}" "${fonts[@]}" "${install[@]}") ;;
    --kiosk) wanted=("${build[@]}" "${fonts[@]}" "${install[@]}" "${kiosk[@]}") ;;
    *) wanted=("${build[@]}" "${fonts[@]}" "${headless[@]}" "${tests[@]}" "${install[@]}") ;;
esac

missing=()
for pkg in "${wanted[@]}"; do
    status=$(dpkg-query -W -f='${db:Status-Status}' "$pkg" 2>/dev/null || true)
    [ "$status" = "installed" ] || missing+=("$pkg")
done

if [ ${#missing[@]} -eq 0 ]; then
    echo "install-deps: all ${#wanted[@]} packages present"
else
    echo "install-deps: installing ${missing[*]}"
    sudo=""
    if [ "$(id -u)" -ne 0 ]; then
        command -v sudo >/dev/null || { echo "install-deps: need root (or sudo) to install: ${missing[*]}" >&2; exit 1; }
        sudo="sudo"
    fi
    export DEBIAN_FRONTEND=noninteractive
    $sudo apt-get update -qq
    # No recommends: KWin would otherwise pull in a whole Plasma desktop.
    $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

command -v swift >/dev/null || { echo "install-deps: the Swift toolchain (swift 6) is not on PATH" >&2; exit 1; }
