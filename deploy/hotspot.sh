#!/usr/bin/env bash
# Where the table has no Wi-Fi router: make this Pi a Wi-Fi hotspot (NetworkManager) for
# the players' phones.  The table's Phones panel then shows a Wi-Fi QR code first.
#
#   sudo deploy/hotspot.sh --ssid NAME [--password PASS] [--ifname wlan0] [--dry-run]
#   sudo deploy/hotspot.sh --remove [--dry-run]
#
# Without --password a random one is made (the Wi-Fi QR holds it).  Running it again
# replaces the hotspot.  Phones then reach the table at 10.42.0.1 (NetworkManager's shared mode).
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source-path=SCRIPTDIR source=appliance-common.sh
. "$here/appliance-common.sh"

CONNECTION=companion-hotspot  # the name companion/seats/address.py looks for

usage() {
    sed -n '2,9s/^# \{0,1\}//p' "$0"
    exit "${1:-0}"
}

ssid="" password="" ifname=wlan0 remove=0
while [ $# -gt 0 ]; do
    case $1 in
        --ssid) [ $# -ge 2 ] || usage 2; ssid=$2; shift 2 ;;
        --password) [ $# -ge 2 ] || usage 2; password=$2; shift 2 ;;
        --ifname) [ $# -ge 2 ] || usage 2; ifname=$2; shift 2 ;;
        --remove) remove=1; shift ;;
        --dry-run) DRY_RUN=1; shift ;;
        -h | --help) usage 0 ;;
        *) printf 'unknown argument: %s\n' "$1" >&2; usage 2 ;;
    esac
done

if [ "$DRY_RUN" != 1 ]; then
    [ "$(id -u)" = 0 ] || die "run it as root (sudo), or with --dry-run to see what it would do"
    command -v nmcli >/dev/null || die "NetworkManager's nmcli is needed: sudo apt-get install network-manager"
fi

exists() { [ "$DRY_RUN" != 1 ] && nmcli -t -f NAME connection show | grep -qx "$CONNECTION"; }

if [ "$remove" = 1 ]; then
    if exists || [ "$DRY_RUN" = 1 ]; then run nmcli connection delete "$CONNECTION"; fi
    say "The hotspot is gone; the table's Phones panel shows the join QR only."
    exit 0
fi

[ -n "$ssid" ] || die "--ssid NAME is needed (the Wi-Fi name the phones will see)"
[ ${#ssid} -le 32 ] || die "--ssid: at most 32 bytes (got ${#ssid})"
if [ -z "$password" ]; then
    password=$(tr -dc 'a-km-z2-9' </dev/urandom | head -c 12)
fi
if [ ${#password} -lt 8 ] || [ ${#password} -gt 63 ]; then
    die "--password: 8 to 63 characters (WPA2)"
fi

if exists; then run nmcli connection delete "$CONNECTION"; fi
run nmcli connection add type wifi ifname "$ifname" con-name "$CONNECTION" autoconnect yes ssid "$ssid" \
    802-11-wireless.mode ap 802-11-wireless.band bg ipv4.method shared \
    wifi-sec.key-mgmt wpa-psk wifi-sec.psk "$password"
run nmcli connection up "$CONNECTION"
say "Hotspot '$ssid' is up on $ifname; the table shows its Wi-Fi QR in the Phones panel."
