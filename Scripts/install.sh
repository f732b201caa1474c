#!/usr/bin/env bash
# Installs ScrollKit's programs for a desktop: the release builds of image-viewer and
# scroll-replay, the bundled pictures, a .desktop file with the MIME types the viewer opens and
# an icon, so that a file manager's "Open with" offers the viewer. A manifest records every file
# and folder the install made; --uninstall removes exactly those.
#
# Usage: Scripts/install.sh [--prefix DIR] [--from BINDIR] [--uninstall]
#   --prefix DIR   where to install (default /usr/local; ~/.local for one user, no root needed)
#   --from BINDIR  install the image-viewer and scroll-replay already built in BINDIR instead of
#                  building them (release) first
#   --uninstall    remove what the last install into DIR wrote
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)

usage() { sed -n '7,11s/^# \{0,1\}//p' "$0"; }

prefix=/usr/local
from=""
uninstall=0
while [ $# -gt 0 ]; do
    case "$1" in
        --prefix) [ $# -ge 2 ] || { echo "install: --prefix needs a folder" >&2; exit 64; }; prefix=$2; shift 2 ;;
        --prefix=*) prefix=${1#--prefix=}; shift ;;
        --from) [ $# -ge 2 ] || { echo "install: --from needs a folder" >&2; exit 64; }; from=$2; shift 2 ;;
        --from=*) from=${1#--from=}; shift ;;
        --uninstall) uninstall=1; shift ;;
        -h | --help) usage; exit 0 ;;
        *) echo "install: unknown argument: $1" >&2; usage >&2; exit 64 ;;
    esac
done

# An absolute prefix without trailing slashes. Characters the .desktop file's Exec line would
# have to escape (quotes, backslash, dollar, backtick, percent) or that a manifest line cannot
# hold (newline) are refused rather than escaped.
case "$prefix" in /*) ;; *) prefix="$(pwd)/$prefix" ;; esac
while [ "${prefix%/}" != "$prefix" ]; do prefix=${prefix%/}; done
if [ -z "$prefix" ]; then echo "install: the prefix cannot be / itself" >&2; exit 64; fi
case "$prefix" in
    *[\"\'\\\$\`%]* | *$'\n'*) echo "install: the prefix may not hold quotes, backslashes, \$, \`, % or newlines: $prefix" >&2; exit 64 ;;
esac

app=org.scrollkit.ImageViewer
data="$prefix/share/scrollkit"
manifest="$data/install-manifest"
applications="$prefix/share/applications"

# --- Uninstall: the manifest's lines are "f PATH" (a file written), "c PATH" (a cache this
# install created) and "d PATH" (a folder it created), in the order they were made. ---

# Whether $1 is a path the manifest may name: the prefix or inside it, with no . or ..
# component.
inside_prefix() {
    case "$1" in
        "$prefix" | "$prefix"/*) ;;
        *) return 1 ;;
    esac
    case "/$1/" in */../* | */./*) return 1 ;; esac
}

remove_installed() {
    [ -f "$manifest" ] || { echo "install: nothing to uninstall: $manifest does not exist" >&2; return 1; }
    local kind path folders=() caches=()
    while IFS= read -r line; do
        kind=${line%% *}
        path=${line#* }
        if ! inside_prefix "$path"; then
            echo "install: the manifest names $path, outside $prefix: left alone" >&2
            continue
        fi
        case "$kind" in
            f) rm -f -- "$path" ;;
            c) caches+=("$path") ;;
            d) folders+=("$path") ;;
            *) echo "install: a manifest line that is no entry: $line" >&2 ;;
        esac
    done <"$manifest"
    # The MIME cache this install created goes with the last .desktop file; while others
    # remain it is brought up to date without ours.
    for path in ${caches[@]+"${caches[@]}"}; do
        if compgen -G "$(dirname "$path")/*.desktop" >/dev/null && command -v update-desktop-database >/dev/null; then
            update-desktop-database "$(dirname "$path")"
        else
            rm -f -- "$path"
        fi
    done
    rm -f -- "$manifest"
    # Folders newest first, each only when nothing else was put in it since.
    local i
    for ((i = ${#folders[@]} - 1; i >= 0; i--)); do
        rmdir -- "${folders[$i]}" 2>/dev/null || true
    done
}

if [ "$uninstall" = 1 ]; then
    remove_installed
    echo "install: removed ScrollKit from $prefix"
    exit 0
fi

# --- Install. ---

for tool in rsvg-convert desktop-file-validate; do
    command -v "$tool" >/dev/null || { echo "install: $tool is missing: run Scripts/install-deps.sh --install" >&2; exit 1; }
done

if [ -z "$from" ]; then
    "$root/Scripts/install-deps.sh" --install
    echo "install: building image-viewer and scroll-replay (release)"
    (cd "$root" && swift build -c release --static-swift-stdlib --product image-viewer >/dev/null && swift build -c release --static-swift-stdlib --product scroll-replay >/dev/null)
    from=$(cd "$root" && swift build -c release --static-swift-stdlib --show-bin-path)
fi
for program in image-viewer scroll-replay; do
    [ -x "$from/$program" ] || { echo "install: $from/$program is not a built program" >&2; exit 1; }
done

if [ -f "$manifest" ]; then
    echo "install: removing the earlier install in $prefix first"
    remove_installed
fi

entries=()
write_manifest() {
    [ ${#entries[@]} -gt 0 ] || return 0
    mkdir -p "$data"
    printf '%s\n' "${entries[@]}" >"$manifest"
}
# Whatever happens, what was made so far is recorded, so --uninstall can remove it.
trap write_manifest EXIT

# Makes folder $1 and the missing folders above it, recording each one made.
make_folder() {
    [ -d "$1" ] && return 0
    make_folder "$(dirname "$1")"
    mkdir -- "$1"
    entries+=("d $1")
}

# Copies file $1 to $2 with mode $3.
put() {
    make_folder "$(dirname "$2")"
    install -m "$3" -- "$1" "$2"
    entries+=("f $2")
}

make_folder "$prefix"
for program in image-viewer scroll-replay; do put "$from/$program" "$prefix/bin/$program" 755; done
for picture in "$root"/Assets/*; do
    [ -f "$picture" ] && put "$picture" "$data/Assets/$(basename "$picture")" 644
done

scratch=$(mktemp -d)
trap 'rm -rf "$scratch"; write_manifest' EXIT

# The .desktop file, naming the installed viewer; checked before it is put in place.
exec_path="$prefix/bin/image-viewer"
case "$exec_path" in *[[:space:]\<\>\~\|\&\;\*\?\#\(\)]*) exec_path="\"$exec_path\"" ;; esac
# Escaped for sed's replacement text, where & and the | delimiter mean something.
sed_text() { local t=${1//&/\\&}; printf '%s' "${t//|/\\|}"; }
sed -e "s|@EXEC@|$(sed_text "$exec_path")|" -e "s|@TRYEXEC@|$(sed_text "$prefix/bin/image-viewer")|" \
    "$root/Packaging/$app.desktop.in" >"$scratch/$app.desktop"
desktop-file-validate "$scratch/$app.desktop"
had_cache=0
[ -e "$applications/mimeinfo.cache" ] && had_cache=1
put "$scratch/$app.desktop" "$applications/$app.desktop" 644

# The icon: the SVG, and PNGs rendered from it for desktops that want fixed sizes.
put "$root/Packaging/$app.svg" "$prefix/share/icons/hicolor/scalable/apps/$app.svg" 644
for size in 16 24 32 48 64 128 256 512; do
    rsvg-convert -w "$size" -h "$size" -o "$scratch/$size.png" "$root/Packaging/$app.svg"
    put "$scratch/$size.png" "$prefix/share/icons/hicolor/${size}x${size}/apps/$app.png" 644
done

# "Open with" finds the viewer through the MIME cache of its applications folder; the icon
# cache is brought up to date only where a theme keeps one.
if command -v update-desktop-database >/dev/null; then
    update-desktop-database "$applications"
    [ "$had_cache" = 1 ] || entries+=("c $applications/mimeinfo.cache")
fi
hicolor="$prefix/share/icons/hicolor"
if [ -f "$hicolor/index.theme" ] && [ -f "$hicolor/icon-theme.cache" ] && command -v gtk-update-icon-cache >/dev/null; then
    gtk-update-icon-cache -q "$hicolor" || true
fi

echo "install: image-viewer and scroll-replay in $prefix/bin, pictures in $data/Assets,"
echo "install: $applications/$app.desktop and its icon; Scripts/install.sh --prefix $prefix --uninstall removes them"
case ":$PATH:" in *":$prefix/bin:"*) ;; *) echo "install: $prefix/bin is not on PATH" ;; esac
