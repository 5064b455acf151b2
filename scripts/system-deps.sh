#!/bin/sh
# Make sure the Debian / Raspberry Pi OS packages the companion needs are present.
# Usage: scripts/system-deps.sh run|test
# Each need is a package's names, newest first ("a|b"): any one of them installed meets it,
# and the one this system's archive offers is the one installed (Debian 13 renamed
# libraries for its 64-bit time_t, "t64", and WebKit's driver). As root it installs what is
# missing; otherwise it prints the exact command. Nothing runs when nothing is missing.
set -eu
mode=${1:-run}

needs="libgl1 libgl1-mesa-dri libegl1 libmtdev1t64|libmtdev1 fonts-noto-cjk"
# The UTTT computer opponent's search core is compiled from source (companion/games/uttt/core.c).
needs="$needs gcc libc6-dev"
[ "$mode" = test ] && needs="$needs xvfb xauth shellcheck openscad sqlite3 chromium zbar-tools webkitgtk-webdriver|webkit2gtk-driver faketime"
# npm installs MicroPython's WebAssembly port for the firmware tests; a machine whose
# Node.js came from elsewhere (with its own npm) needs neither Debian package.
[ "$mode" = test ] && ! command -v node >/dev/null 2>&1 && needs="$needs nodejs"
[ "$mode" = test ] && ! command -v npm >/dev/null 2>&1 && needs="$needs npm"
python3 -c 'import venv, ensurepip' 2>/dev/null || needs="$needs python3-venv"
# On a Raspberry Pi the GPIO path needs lgpio (the only pin library that works on a Pi 5);
# the Makefile's venv sees it through --system-site-packages. Only Raspberry Pi OS's archive
# has it: elsewhere GPIO is not offered, and the rest still runs.
wishes=""
grep -qs "Raspberry Pi" "${DEVICE_MODEL:-/proc/device-tree/model}" && wishes="python3-lgpio"

command -v dpkg-query >/dev/null 2>&1 || {
    echo "system-deps: not a Debian system; make sure these are installed: $needs $wishes" >&2
    exit 0
}

# PyPI has no Kivy, numpy or PyYAML wheels for 32-bit ARM: pip would try to compile them, and fail.
arch=$(dpkg --print-architecture)
case $arch in armhf | armel | i386)
    echo "system-deps: this is a 32-bit OS ($arch): the companion needs a 64-bit one (Raspberry Pi OS 64-bit); PyPI has no Kivy, numpy or PyYAML for it" >&2
    exit 1 ;;
esac

names_of() { echo "$1" | tr '|' ' '; }
installed() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q "ok installed"; }
offered() { apt-cache policy "$1" 2>/dev/null | grep -q "^ *Candidate: [^(]"; }

missing="" absent=""
for need in $needs $wishes; do
    met=""
    for name in $(names_of "$need"); do installed "$name" && met=1 && break; done
    [ -z "$met" ] && missing="$missing $need"
done
[ -z "$missing" ] && exit 0

# names: the name to install for each missing need, the first one the archive offers;
# absent: the needs it offers under no name (the package lists may be stale or missing).
choose() {
    names="" absent=""
    for need in $missing; do
        pick=""
        for name in $(names_of "$need"); do offered "$name" && pick=$name && break; done
        if [ -n "$pick" ]; then names="$names $pick"; else absent="$absent $need"; fi
    done
}
choose
if [ -n "$absent" ] && [ "$(id -u)" = 0 ]; then
    apt-get update -q >/dev/null && choose
fi
update=""
for need in $absent; do
    case " $wishes " in
    *" $need "*) echo "system-deps: $need is not in this system's package archives (Raspberry Pi OS has it): no GPIO; sensor.source serial or simulator still work" >&2 ;;
    *) names="$names ${need##*|}" update="sudo apt-get update && " ;;  # its oldest name: newer releases still accept it
    esac
done
[ -z "$names" ] && exit 0

if [ "$(id -u)" = 0 ]; then
    echo "system-deps: installing$names"
    export DEBIAN_FRONTEND=noninteractive
    # shellcheck disable=SC2086  # one word per package
    apt-get install -y -q $names >/dev/null 2>&1 || { apt-get update -q >/dev/null && apt-get install -y -q $names; }
else
    echo "system-deps: missing packages; run:  ${update}sudo apt-get install -y$names" >&2
    exit 1
fi
