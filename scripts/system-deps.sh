#!/bin/sh
# Make sure the Debian / Raspberry Pi OS packages the companion needs are present.
# Usage: scripts/system-deps.sh run|test
# As root it installs what is missing; otherwise it prints the exact command.
set -eu

packages="libgl1 libgl1-mesa-dri libegl1 libmtdev1 fonts-noto-cjk"
# The UTTT computer opponent's search core is compiled from source (companion/games/uttt/core.c).
packages="$packages gcc libc6-dev"
[ "${1:-run}" = test ] && packages="$packages xvfb xauth shellcheck openscad sqlite3 chromium zbar-tools webkit2gtk-driver"
# npm installs MicroPython's WebAssembly port for the firmware tests; a machine whose
# Node.js came from elsewhere (with its own npm) needs neither Debian package.
[ "${1:-run}" = test ] && ! command -v node >/dev/null 2>&1 && packages="$packages nodejs"
[ "${1:-run}" = test ] && ! command -v npm >/dev/null 2>&1 && packages="$packages npm"
# On a Raspberry Pi the GPIO path needs lgpio (the only pin library that works on a Pi 5);
# the Makefile's venv sees it through --system-site-packages.
grep -qs "Raspberry Pi" /proc/device-tree/model && packages="$packages python3-lgpio"
python3 -c 'import venv, ensurepip' 2>/dev/null || packages="$packages python3-venv"

command -v dpkg-query >/dev/null 2>&1 || {
    echo "system-deps: not a Debian system; make sure these are installed: $packages" >&2
    exit 0
}
missing=""
for p in $packages; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" || missing="$missing $p"
done
[ -z "$missing" ] && exit 0

if [ "$(id -u)" = 0 ]; then
    echo "system-deps: installing$missing"
    export DEBIAN_FRONTEND=noninteractive
    apt-get install -y -q $missing >/dev/null 2>&1 || { apt-get update -q >/dev/null && apt-get install -y -q $missing; }
else
    echo "system-deps: missing packages; run:  sudo apt-get install -y$missing" >&2
    exit 1
fi
