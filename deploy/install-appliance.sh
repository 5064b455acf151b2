#!/usr/bin/env bash
# Make this Raspberry Pi OS machine boot straight into the companion, fullscreen on its
# touchscreen, running as its own user.  Run it from a checkout of the repository:
#
#   sudo deploy/install-appliance.sh [--sensor simulator|gpio|serial] [--rotate 0|180] [--dry-run]
#
# --rotate 180: the touchscreen is mounted upside down (the picture and touch are turned).
# Running it again updates the installed copy of the app and keeps your config and games.
# deploy/uninstall-appliance.sh undoes it.  What it does, step by step: deploy/README.md.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(dirname "$here")
# shellcheck source-path=SCRIPTDIR source=appliance-common.sh
. "$here/appliance-common.sh"

usage() {
    sed -n '2,11s/^# \{0,1\}//p' "$0"
    exit "${1:-0}"
}

sensor=""
rotate=""
while [ $# -gt 0 ]; do
    case $1 in
        --sensor) [ $# -ge 2 ] || usage 2; sensor=$2; shift 2 ;;
        --sensor=*) sensor=${1#--sensor=}; shift ;;
        --rotate) [ $# -ge 2 ] || usage 2; rotate=$2; shift 2 ;;
        --rotate=*) rotate=${1#--rotate=}; shift ;;
        --dry-run) DRY_RUN=1; shift ;;
        -h | --help) usage 0 ;;
        *) printf 'unknown argument: %s\n' "$1" >&2; usage 2 ;;
    esac
done
case $sensor in
    "" | simulator | gpio | serial) ;;
    *) die "--sensor must be simulator, gpio or serial (got '$sensor')" ;;
esac
case $rotate in
    "" | 0 | 180) ;;
    *) die "--rotate must be 0 or 180: the screens are laid out for a landscape panel (got '$rotate')" ;;
esac

need_root
command -v apt-get >/dev/null || die "this needs Raspberry Pi OS (or Debian): apt-get not found"
command -v systemctl >/dev/null || die "this needs systemd: systemctl not found"
# The distribution's Python (never a pyenv or conda one): its python3-lgpio is the one apt installs.
python=/usr/bin/python3
[ -x "$python" ] || die "no $python: install python3 with apt"
"$python" -c 'import sys; sys.exit(sys.version_info < (3, 11))' ||
    die "the companion needs Python 3.11 or later: use Raspberry Pi OS Bookworm or newer"
if [ ! -f "$repo/pyproject.toml" ] || [ ! -d "$repo/companion" ]; then
    die "run this script from a checkout of the companion repository ($repo has no companion/)"
fi

apt_install() {
    export DEBIAN_FRONTEND=noninteractive
    if [ "$DRY_RUN" = 1 ]; then
        run apt-get install -y -q "$@"
    else  # a fresh image may not have the package lists yet
        apt-get install -y -q "$@" || { apt-get update -q && apt-get install -y -q "$@"; }
    fi
}

say "== 1. system packages"
# The app's own (scripts/system-deps.sh), python3-venv, the libraries SDL needs to draw
# without a desktop (GBM, DRM, GLES), the C compiler and headers for the UTTT computer's
# compiled search (step 3), and lgpio for gpiozero where the distribution has it.
packages="python3-venv libgl1 libgl1-mesa-dri libegl1 libgles2 libgbm1 libdrm2 libmtdev1 fonts-noto-cjk gcc libc6-dev"
if apt-cache show python3-lgpio >/dev/null 2>&1; then
    packages="$packages python3-lgpio"
else
    warn "python3-lgpio is not available here: only the simulator and serial sensors will work"
fi
# shellcheck disable=SC2086  # a list of package names
apt_install $packages

say "== 2. the service user '$APP_USER'"
if ! id "$APP_USER" >/dev/null 2>&1; then
    run useradd --system --user-group --home-dir "$DATA_DIR" --create-home \
        --shell /usr/sbin/nologin --comment "companion appliance" "$APP_USER"
fi
groups=""
for group in $APP_GROUPS; do
    if getent group "$group" >/dev/null; then
        groups="$groups,$group"
    else
        warn "no group '$group' on this machine: skipped (expected on a Raspberry Pi)"
    fi
done
[ -z "$groups" ] || run usermod -aG "${groups#,}" "$APP_USER"

say "== 3. the app in $APP_DIR"
# A fresh copy of the repository (no .git, no caches), keeping the virtual environment
# of an earlier install; the venv sees apt's python3-lgpio (--system-site-packages).
archive=$(mktemp --dry-run /tmp/companion-app.XXXXXX.tar)
# Keep the earlier venv only if it runs on this Python (an OS upgrade brings a new one).
had_venv=0
if [ -x "$APP_DIR/.venv/bin/python" ] &&
    [ "$(readlink -f "$APP_DIR/.venv/bin/python")" = "$(readlink -f "$python")" ]; then
    had_venv=1
fi
run tar -C "$repo" --exclude=./.git --exclude=./.venv --exclude=./artifacts --exclude=./build \
    --exclude=./screenshots --exclude=__pycache__ --exclude=./.pytest_cache --exclude=./.hypothesis \
    --exclude='*.egg-info' --exclude='*.so' --exclude='*.db' --exclude='*.db-wal' --exclude='*.db-shm' -cf "$archive" .
run rm -rf "$APP_DIR.new"
run mkdir -p "$APP_DIR.new"
run tar -C "$APP_DIR.new" -xf "$archive"
run rm -f "$archive"
[ "$had_venv" = 0 ] || run mv "$APP_DIR/.venv" "$APP_DIR.new/.venv"
run rm -rf "$APP_DIR"
run mv "$APP_DIR.new" "$APP_DIR"
[ "$had_venv" = 1 ] || run "$python" -m venv --clear --system-site-packages "$APP_DIR/.venv"
run "$APP_DIR/.venv/bin/pip" install -q -c "$APP_DIR/constraints.txt" -e "$APP_DIR"
# The UTTT computer's search compiled here (35-40 times the iterations of pure Python);
# if it does not build, the app still runs, its computer opponent much weaker.
core=$APP_DIR/companion/games/uttt/_core.so
run "$APP_DIR/.venv/bin/python" -m companion.games.uttt.core "$core"
[ "$DRY_RUN" = 1 ] || [ -f "$core" ] ||
    warn "the UTTT computer searches in pure Python (weaker): mend what is said above, then run this again"

say "== 4. configuration in $CONF_DIR"
run mkdir -p "$CONF_DIR"
if [ -f "$CONF_DIR/config.yaml" ]; then
    say "keeping $CONF_DIR/config.yaml"
    [ -z "$sensor" ] || warn "--sensor ignored: edit sensor.source in $CONF_DIR/config.yaml"
else
    write_file "$CONF_DIR/config.yaml" 644 <<EOF
# The companion appliance's configuration (written by deploy/install-appliance.sh, which
# never overwrites it: edit freely).  Every key of $APP_DIR/config.yaml may be set here.
display:
  fullscreen: true
  on_screen_keyboard: true   # keys on the screen for typing names (a USB keyboard works too)
data_dir: $DATA_DIR/data
sensor:
  source: ${sensor:-simulator}     # simulator, gpio (HX711s on the header) or serial (Pico)
EOF
fi
run mkdir -p "$DATA_DIR/kivy" "$DATA_DIR/data"
# Kivy's settings, turned as asked; without --rotate an earlier install's rotation stays.
kivy_ini=$DATA_DIR/kivy/config.ini
if [ -z "$rotate" ] && [ -f "$kivy_ini" ]; then
    rotate=$(sed -n 's/^rotation *= *\([0-9]*\)$/\1/p' "$kivy_ini" | head -n 1)
fi
sed "s/^rotation = .*/rotation = ${rotate:-0}/" "$here/kivy-config.ini" | write_file "$kivy_ini" 644
say "screen rotation: ${rotate:-0} (Kivy turns the picture and the touches)"
run chown -R "$APP_USER:$APP_USER" "$DATA_DIR"
run chmod 750 "$DATA_DIR"
# The config must load: the app would otherwise fail at every boot.
run runuser -u "$APP_USER" -- env -C "$DATA_DIR" HOME="$DATA_DIR" \
    "$APP_DIR/.venv/bin/python" -c "from companion import config; config.load('$CONF_DIR/config.yaml')"

say "== 5. boot into the app"
if [ ! -f "$STATE_FILE" ]; then
    # Only the first install records how things were, so that uninstalling restores that.
    cmdline=$(cmdline_file)
    write_file "$STATE_FILE" 644 <<EOF
# written by deploy/install-appliance.sh: what deploy/uninstall-appliance.sh restores
default_target=$(systemctl get-default 2>/dev/null || echo multi-user.target)
display_manager=$(display_manager)
cmdline_file=$cmdline
consoleblank=$([ -n "$cmdline" ] && consoleblank_of "$cmdline" || echo absent)
EOF
fi
# No desktop beside the app: both would want the screen.
dm=$(display_manager)
if [ -n "$dm" ]; then
    run systemctl disable "$dm"
fi
[ "$(systemctl get-default 2>/dev/null || true)" = graphical.target ] || run systemctl set-default graphical.target
# Screen blanking off: the kernel console's blanking would switch the display off.
cmdline=$(cmdline_file)
if [ -n "$cmdline" ]; then
    [ "$(consoleblank_of "$cmdline")" = 0 ] || set_consoleblank "$cmdline" 0
else
    warn "no Raspberry Pi cmdline.txt here: add consoleblank=0 to the kernel command line yourself"
fi

say "== 6. the systemd unit"
run install -m 644 "$here/$UNIT" "$UNIT_PATH"
! systemd_running || run systemctl daemon-reload
run systemctl enable "$UNIT"

say ""
say "Done. Reboot to start the companion on the touchscreen:  sudo reboot"
say "Config: $CONF_DIR/config.yaml   Logs: journalctl -u companion   Undo: $here/uninstall-appliance.sh"
