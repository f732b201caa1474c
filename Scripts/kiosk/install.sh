#!/usr/bin/env bash
# Installs the ScrollKit kiosk on this machine: image-viewer (through Scripts/install.sh), cage,
# the launcher, the systemd service that starts them on tty1 at boot, the service's PAM file,
# the settings, the pictures folder and the system user the kiosk runs as. It does not start
# anything: once pictures are in their folder, `systemctl enable --now scrollkit-kiosk` does.
#
# Usage: Scripts/kiosk/install.sh [--prefix DIR] [--from BINDIR] [--root DIR] [--uninstall]
#   --prefix DIR   where the programs go (default /usr/local; with --root, DIR/usr/local)
#   --from BINDIR  install the image-viewer already built in BINDIR instead of building it
#   --root DIR     write the service, PAM file, settings and pictures folder under DIR instead of
#                  /, and leave the running system alone (no packages, user or systemctl): to
#                  look at what would be installed, or to check it (the test suite does)
#   --uninstall    stop, disable and remove the service, its PAM file, the launcher and the
#                  programs; the settings, the pictures and the user stay
set -euo pipefail
repo=$(cd "$(dirname "$0")/../.." && pwd)
kiosk="$repo/Scripts/kiosk"

usage() { sed -n '7,15s/^# \{0,1\}//p' "$0"; }

prefix=""
from=""
root=""
uninstall=0
while [ $# -gt 0 ]; do
    case "$1" in
        --prefix) [ $# -ge 2 ] || { echo "kiosk-install: --prefix needs a folder" >&2; exit 64; }; prefix=$2; shift 2 ;;
        --prefix=*) prefix=${1#--prefix=}; shift ;;
        --from) [ $# -ge 2 ] || { echo "kiosk-install: --from needs a folder" >&2; exit 64; }; from=$2; shift 2 ;;
        --from=*) from=${1#--from=}; shift ;;
        --root) [ $# -ge 2 ] || { echo "kiosk-install: --root needs a folder" >&2; exit 64; }; root=$2; shift 2 ;;
        --root=*) root=${1#--root=}; shift ;;
        --uninstall) uninstall=1; shift ;;
        -h | --help) usage; exit 0 ;;
        *) echo "kiosk-install: unknown argument: $1" >&2; usage >&2; exit 64 ;;
    esac
done

if [ -n "$root" ]; then
    case "$root" in /*) ;; *) root="$(pwd)/$root" ;; esac
    while [ "${root%/}" != "$root" ]; do root=${root%/}; done
    [ -n "$root" ] || { echo "kiosk-install: --root / is this system: leave --root out" >&2; exit 64; }
    [ -d "$root/" ] || { echo "kiosk-install: --root $root is not a folder" >&2; exit 64; }
elif [ "$(id -u)" -ne 0 ]; then
    echo "kiosk-install: a system service is installed as root: sudo $0 $*" >&2
    exit 1
fi
[ -n "$prefix" ] || prefix="$root/usr/local"
case "$prefix" in /*) ;; *) prefix="$(pwd)/$prefix" ;; esac
while [ "${prefix%/}" != "$prefix" ]; do prefix=${prefix%/}; done
# The unit's ExecStart names the launcher: systemd would read % as a specifier and \ " ' as
# quoting, and a newline would end the line (Scripts/install.sh refuses these too).
case "$prefix" in
    *[\"\'\\%]* | *$'\n'*) echo "kiosk-install: the prefix may not hold quotes, backslashes, % or newlines: $prefix" >&2; exit 64 ;;
esac

user=scrollkit-kiosk
unit="$root/etc/systemd/system/scrollkit-kiosk.service"
pam="$root/etc/pam.d/scrollkit-kiosk"
settings="$root/etc/scrollkit/kiosk.conf"
pictures="$root/srv/scrollkit-kiosk/pictures"
launcher="$prefix/bin/scrollkit-kiosk"
# Whether systemd runs this machine (and not only a chroot or a container without it).
systemd_runs() { [ -z "$root" ] && [ -d /run/systemd/system ]; }

if [ "$uninstall" = 1 ]; then
    if systemd_runs; then systemctl disable --now scrollkit-kiosk.service 2>/dev/null || true; fi
    rm -f -- "$unit" "$pam" "$launcher"
    if systemd_runs; then systemctl daemon-reload; fi
    "$repo/Scripts/install.sh" --prefix "$prefix" --uninstall || true
    echo "kiosk-install: removed the service; $settings, $pictures and the user $user stay"
    exit 0
fi

# cage, and what Scripts/install.sh needs to build and install the viewer.
[ -n "$root" ] || "$repo/Scripts/install-deps.sh" --kiosk
"$repo/Scripts/install.sh" --prefix "$prefix" ${from:+--from "$from"}
install -D -m 755 -- "$kiosk/scrollkit-kiosk" "$launcher"

# The unit, naming the launcher; quoted, so a prefix with spaces stays one word.
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
sed_text() { local t=${1//&/\\&}; printf '%s' "${t//|/\\|}"; }
sed -e "s|@LAUNCHER@|\"$(sed_text "$launcher")\"|" "$kiosk/scrollkit-kiosk.service.in" >"$scratch/scrollkit-kiosk.service"
install -D -m 644 -- "$scratch/scrollkit-kiosk.service" "$unit"
install -D -m 644 -- "$kiosk/scrollkit-kiosk.pam" "$pam"
# The operator's settings are kept; the shipped ones go next to them for comparison.
if [ -e "$settings" ]; then
    install -D -m 644 -- "$kiosk/kiosk.conf" "$settings.shipped"
    echo "kiosk-install: kept your $settings (the shipped settings are in $settings.shipped)"
else
    install -D -m 644 -- "$kiosk/kiosk.conf" "$settings"
fi
install -d -m 755 -- "$pictures"

if [ -z "$root" ]; then
    # A system user with no password and no login shell; its home is the service's state folder.
    if ! id -u "$user" >/dev/null 2>&1; then
        useradd --system --user-group --home-dir "/var/lib/$user" --no-create-home --shell /usr/sbin/nologin \
            --comment "ScrollKit kiosk" "$user"
    fi
    if systemd_runs; then systemctl daemon-reload; fi
fi

echo "kiosk-install: the kiosk is installed; next:"
echo "  1. copy pictures into $pictures"
echo "  2. adjust $settings if needed (slideshow, idle reset, rotation)"
echo "  3. systemctl enable --now scrollkit-kiosk"
