# shellcheck shell=bash disable=SC2034  # the names are used by the scripts that source this
# Shared by install-appliance.sh and uninstall-appliance.sh: the names and paths of the
# appliance, the --dry-run switch, and the kernel command line edits.  Sourced, not run.

# APPLIANCE_ROOT: a directory standing for / in a --dry-run (the tests' scratch machine, so
# that what this machine has left from an earlier install does not change what they see).
ROOT=${APPLIANCE_ROOT:-}
APP_USER=companion
APP_DIR=$ROOT/opt/companion             # a copy of the repository, with its .venv
CONF_DIR=$ROOT/etc/companion            # config.yaml (yours to edit) and appliance.state
DATA_DIR=$ROOT/var/lib/companion        # the service user's home: games database, Kivy settings
UNIT=companion.service
UNIT_PATH=$ROOT/etc/systemd/system/$UNIT
STATE_FILE=$CONF_DIR/appliance.state    # what the install changed, for the uninstall to restore
# gpio: HX711s on the header; dialout: the Pico; video, render: the display and GPU;
# input: the touchscreen; audio: verdict sounds.
APP_GROUPS="gpio dialout video input render audio"
DRY_RUN=${DRY_RUN:-0}

say() { printf '%s\n' "$*"; }
warn() { printf 'warning: %s\n' "$*" >&2; }
die() { printf 'error: %s\n' "$*" >&2; exit 1; }

# run CMD...: run a command that changes the system, or only show it with --dry-run.
run() {
    if [ "$DRY_RUN" = 1 ]; then
        printf '+'
        printf ' %q' "$@"
        printf '\n'
    else
        "$@"
    fi
}

# write_file PATH MODE < content: install a file (with --dry-run: show it).
write_file() {
    if [ "$DRY_RUN" = 1 ]; then
        printf '+ write %s (mode %s):\n' "$1" "$2"
        sed 's/^/    /'
    else
        local tmp
        tmp=$(mktemp)
        cat >"$tmp"
        install -m "$2" "$tmp" "$1"
        rm -f "$tmp"
    fi
}

need_root() {
    [ -z "$ROOT" ] || [ "$DRY_RUN" = 1 ] || die "APPLIANCE_ROOT is for --dry-run only"
    [ "$DRY_RUN" = 1 ] || [ "$(id -u)" = 0 ] || die "run it as root: sudo $0 (or try --dry-run)"
}

systemd_running() { [ -d /run/systemd/system ]; }

# The display manager unit enabled now (e.g. lightdm.service), or nothing.
display_manager() {
    local link=$ROOT/etc/systemd/system/display-manager.service
    if [ -L "$link" ]; then basename "$(readlink -f "$link")"; fi
}

# The Raspberry Pi's kernel command line file (Bookworm moved it to /boot/firmware);
# CMDLINE_FILE overrides it.  Nothing on other machines.
cmdline_file() {
    if [ -n "${CMDLINE_FILE:-}" ]; then
        printf '%s\n' "$CMDLINE_FILE"
        return
    fi
    local f
    for f in /boot/firmware/cmdline.txt /boot/cmdline.txt; do
        if [ -f "$f" ]; then
            printf '%s\n' "$f"
            return
        fi
    done
}

# consoleblank_of FILE: the consoleblank= seconds on the command line, or "absent".
consoleblank_of() {
    local value
    value=$(head -n 1 "$1" | grep -o 'consoleblank=[0-9]*' | head -n 1 || true)
    if [ -n "$value" ]; then printf '%s\n' "${value#consoleblank=}"; else echo absent; fi
}

# set_consoleblank FILE SECONDS|absent: the kernel's console blanking (0 = never).
# The command line is one line; only that line is edited.
set_consoleblank() {
    local file=$1 value=$2
    if [ "$value" = absent ]; then
        run sed -i -E '1 s/ ?consoleblank=[0-9]*//' "$file"
    elif [ "$(consoleblank_of "$file")" = absent ]; then
        run sed -i -E "1 s/\$/ consoleblank=$value/" "$file"
    else
        run sed -i -E "1 s/consoleblank=[0-9]*/consoleblank=$value/" "$file"
    fi
}

# state KEY: a value recorded in the state file.
state() {
    sed -n "s/^$1=//p" "$STATE_FILE" 2>/dev/null | head -n 1
}
