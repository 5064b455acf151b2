#!/usr/bin/env bash
# Undo deploy/install-appliance.sh: stop booting into the companion, bring back what was
# there before (desktop or login prompt, default boot target, screen blanking), and remove
# the unit, the installed app and the service user.
#
#   sudo deploy/uninstall-appliance.sh [--purge] [--dry-run]
#
# Your games database and config are kept (and named at the end) unless you add --purge.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source-path=SCRIPTDIR source=appliance-common.sh
. "$here/appliance-common.sh"

usage() {
    sed -n '2,9s/^# \{0,1\}//p' "$0"
    exit "${1:-0}"
}

purge=0
while [ $# -gt 0 ]; do
    case $1 in
        --purge) purge=1; shift ;;
        --dry-run) DRY_RUN=1; shift ;;
        -h | --help) usage 0 ;;
        *) printf 'unknown argument: %s\n' "$1" >&2; usage 2 ;;
    esac
done
need_root

say "== 1. the systemd unit"
if [ -f "$UNIT_PATH" ]; then
    ! systemd_running || run systemctl stop "$UNIT"
    run systemctl disable "$UNIT"
    run rm -f "$UNIT_PATH"
    ! systemd_running || run systemctl daemon-reload
else
    say "no $UNIT_PATH: nothing to remove"
fi

say "== 2. boot as before"
if [ -f "$STATE_FILE" ]; then
    target=$(state default_target)
    if [ -n "$target" ] && [ "$target" != "$(systemctl get-default 2>/dev/null || true)" ]; then
        run systemctl set-default "$target"
    fi
    dm=$(state display_manager)
    [ -z "$dm" ] || run systemctl enable "$dm"
    cmdline=$(state cmdline_file)
    if [ -n "$cmdline" ] && [ -f "$cmdline" ]; then
        set_consoleblank "$cmdline" "$(state consoleblank)"
    fi
else
    warn "no $STATE_FILE: boot target, desktop and screen blanking left as they are"
fi
# Give tty1 its login prompt back now (the unit had taken it over).
! systemd_running || run systemctl start getty@tty1.service || true

say "== 3. the app, the user and the data"
run rm -rf "$APP_DIR" "$APP_DIR.new" "$DATA_DIR/kivy"
if id "$APP_USER" >/dev/null 2>&1; then
    run userdel "$APP_USER"
fi
if getent group "$APP_USER" >/dev/null; then
    run groupdel "$APP_USER"
fi
if [ "$purge" = 1 ]; then
    run rm -rf "$DATA_DIR" "$CONF_DIR"
else
    run rm -f "$STATE_FILE"
    # No owner left for the kept files: give them to root rather than to a free uid.
    [ ! -d "$DATA_DIR" ] || run chown -R root:root "$DATA_DIR"
fi

say ""
say "Done. Reboot to come back to the desktop or login prompt:  sudo reboot"
if [ "$purge" = 0 ] && { [ -d "$DATA_DIR" ] || [ -d "$CONF_DIR" ]; }; then
    say "Kept: your games and calibrations in $DATA_DIR/data, your config in $CONF_DIR/config.yaml"
    say "(remove them with --purge; installing again reuses them)."
fi
