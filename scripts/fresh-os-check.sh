#!/bin/bash
# The fresh-OS release check (docs/fresh-os.md): on a freshly debootstrapped Debian, as a new
# user with sudo, the README's commands verbatim on a clean clone of the committed tree:
# `make run` (it must print the sudo line), that line, `make run` again under Xvfb to its first
# frame (a screenshot), `make test` (its sudo line, then the suite). Not part of `make test`:
# a release takes about an hour. Run it whenever dependencies or the set-up change.
# Usage, as root on a Debian machine with debootstrap:  scripts/fresh-os-check.sh [release...]
#   releases: trixie (Debian 13), bookworm (Debian 12); default both, in that order.
#   FRESH_OS_DIR (default /var/tmp/fresh-os) holds the roots, logs, screenshots and figures;
#   MIRROR (default http://deb.debian.org/debian); FRESH_OS_DISPLAY (default :57) for two at once.
set -euo pipefail

repo=$(git -C "$(dirname "$0")/.." rev-parse --show-toplevel)
work=${FRESH_OS_DIR:-/var/tmp/fresh-os}
mirror=${MIRROR:-http://deb.debian.org/debian}
user=tester
display=${FRESH_OS_DISPLAY:-:57}  # the check's screen; make test's own Xvfb displays live in its network namespace
[ "$(id -u)" = 0 ] || { echo "fresh-os-check: run as root (debootstrap, chroot, mounts)" >&2; exit 2; }
command -v debootstrap >/dev/null || { echo "fresh-os-check: sudo apt-get install -y debootstrap" >&2; exit 2; }
mkdir -p "$work"

root="" log="" figures="" group="" blank=""
cleanup() {
    [ -n "$group" ] && kill -- "-$group" 2>/dev/null
    [ -n "$root" ] || return 0
    # Every process still running in the root was started by this check.
    for proc in /proc/[0-9]*; do
        [ "$(readlink "$proc/root" 2>/dev/null)" = "$root" ] && kill -9 "${proc#/proc/}" 2>/dev/null
    done
    sleep 1
    for mount in dev sys proc; do
        mountpoint -q "$root/$mount" && { umount -R "$root/$mount" || umount -lR "$root/$mount"; }
    done
    return 0
}
trap cleanup EXIT
trap 'exit 130' INT TERM

say() { echo "$(date -u +%H:%M:%S) $*" | tee -a "$log"; }
figure() { echo "$1: $2" | tee -a "$figures"; }
# shellcheck disable=SC2317  # called through timed
# as_user COMMAND: a login shell of the new user in the root (its home, its PATH).
as_user() { chroot "$root" su - "$user" -c "$1"; }
# timed NAME COMMAND...: runs it with its output in the log, and leaves its seconds in $seconds.
timed() {
    local name=$1 start status=0
    shift
    say "== $name"
    start=$(date +%s.%N)
    "$@" >>"$log" 2>&1 || status=$?
    seconds=$(echo "$(date +%s.%N) - $start" | bc | xargs printf %.1f)
    say "   exit $status after $seconds s"
    return $status
}
# The line system-deps printed after "run:  ", from the last command's output in the log.
sudo_line() { grep -o "run:  sudo .*" "$log" | tail -1 | cut -c7-; }

# png XWD PNG: Xvfb's frame buffer file (XWD, 32 bits a pixel, least significant byte first) as a PNG.
png() {
    python3 - "$1" "$2" <<'PY'
import struct, sys, zlib
data = open(sys.argv[1], "rb").read()
header, _, _, _, width, height = struct.unpack(">6I", data[:24])
line, colours = struct.unpack(">I", data[48:52])[0], struct.unpack(">I", data[76:80])[0]
rows = b""
for y in range(height):
    pixels = data[header + 12 * colours + y * line:][:4 * width]  # blue, green, red, unused
    rgb = bytearray(3 * width)
    rgb[0::3], rgb[1::3], rgb[2::3] = pixels[2::4], pixels[1::4], pixels[0::4]
    rows += b"\0" + rgb
def chunk(kind, body):
    return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))
open(sys.argv[2], "wb").write(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">2I5B", width, height, 8, 2, 0, 0, 0))
                              + chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b""))
PY
}

# first_frame SHOT: `make run` as the user under Xvfb until its first drawn frame: the
# seconds in $seconds, SHOT.png the first frame and SHOT-settled.png 5 s later.
first_frame() {
    local shot=$1 fb="$root/tmp/fresh-os-fb/Xvfb_screen0" start
    say "== make run under Xvfb $display ($shot)"
    for _ in $(seq 100); do [ "$(md5sum <"$fb")" = "$blank" ] && break; sleep 0.1; done  # the last window gone
    start=$(date +%s.%N)
    setsid chroot "$root" su - "$user" -c "cd companion && DISPLAY=$display make run" >>"$log" 2>&1 &
    group=$!
    while [ "$(md5sum <"$fb")" = "$blank" ]; do
        kill -0 "$group" 2>/dev/null || { say "   make run ended before drawing anything"; group=""; return 1; }
        [ "$(echo "$(date +%s.%N) - $start > 1800" | bc)" = 1 ] && { say "   nothing drawn in 30 min"; return 1; }
        sleep 0.1
    done
    seconds=$(echo "$(date +%s.%N) - $start" | bc | xargs printf %.1f)
    png "$fb" "$work/$shot.png"
    sleep 5
    png "$fb" "$work/$shot-settled.png"
    kill -- "-$group" 2>/dev/null || true
    wait "$group" 2>/dev/null || true
    group=""
    say "   first frame after $seconds s: $work/$shot.png, $work/$shot-settled.png"
}

# The network's own certificate authorities, if this machine trusts any (a TLS-inspecting
# proxy): the root trusts them too, as a machine on that network would.
local_cas() {
    local cas=(/usr/local/share/ca-certificates/*.crt)
    [ -e "${cas[0]}" ] || return 0
    cp "${cas[@]}" "$1/usr/local/share/ca-certificates/" && chroot "$1" update-ca-certificates
}

check() {
    local release=$1 line status=0 tests
    root="$work/$release" log="$work/$release.log" figures="$work/$release-figures.txt"
    cleanup
    if grep -q " $root/" /proc/mounts; then echo "fresh-os-check: $root is still mounted" >&2; return 1; fi
    rm -rf "$root" "$log" "$figures"
    say "fresh-os-check $release: $(git -C "$repo" log -1 --format='%h %s' | cut -c1-80)"
    figure "release" "$release"
    figure "date" "$(date -u +%Y-%m-%d)"
    figure "commit" "$(git -C "$repo" rev-parse --short HEAD)"

    # A new user's machine: the base system, and what the README's commands presume.
    timed "debootstrap $release" debootstrap --include=sudo,git,make,ca-certificates "$release" "$root" "$mirror"
    { mount -t proc proc "$root/proc" &&
        mount --rbind /sys "$root/sys" && mount --make-rslave "$root/sys" &&
        mount --rbind /dev "$root/dev" && mount --make-rslave "$root/dev" &&
        cp /etc/resolv.conf "$root/etc/resolv.conf" &&
        printf '127.0.0.1 localhost\n127.0.1.1 %s\n' "$(cat "$root/etc/hostname")" >"$root/etc/hosts" &&
        local_cas "$root" &&
        chroot "$root" useradd --create-home --shell /bin/bash --groups sudo "$user" &&
        echo "$user ALL=(ALL) NOPASSWD: ALL" >"$root/etc/sudoers.d/$user" &&
        git clone -q --no-local "$repo" "$root/home/$user/companion" &&
        chroot "$root" chown -R "$user:$user" "/home/$user/companion"; } >>"$log" 2>&1 || return 1

    # README: make run. A fresh machine lacks the system packages: it must say which.
    timed "make run (fresh)" as_user "cd companion && make run" && { say "   make run did not ask for system packages"; return 1; }
    line=$(sudo_line)
    figure "make run asks" "${line:-nothing}"
    [ -n "$line" ] || return 1
    timed "$line" as_user "$line" || return 1

    # The screen stands in for the Pi's: Xvfb (the check's, not the app's) writes its frame
    # buffer to a file that is read from outside.
    timed "apt-get install xvfb (the check's screen)" chroot "$root" apt-get install -y -q xvfb
    mkdir -p "$root/tmp/fresh-os-fb" && mkdir -m 1777 "$root/tmp/.X11-unix"
    chroot "$root" chown "$user" /tmp/fresh-os-fb
    setsid chroot "$root" su - "$user" -c "Xvfb $display -screen 0 800x480x24 -br -nocursor -fbdir /tmp/fresh-os-fb -nolisten tcp" >>"$log" 2>&1 &
    for _ in $(seq 100); do [ -s "$root/tmp/fresh-os-fb/Xvfb_screen0" ] && break; sleep 0.1; done
    sleep 1
    blank=$(md5sum <"$root/tmp/fresh-os-fb/Xvfb_screen0")  # the empty screen
    first_frame "$release-first-frame" || return 1
    figure "make run to the first frame, set-up included (venv, packages, core)" "$seconds s"
    first_frame "$release-second-start" || return 1
    figure "make run to the first frame, second start" "$seconds s"
    # Once its packages are there, system-deps says nothing and installs nothing.
    grep "^system-deps:" "$log" | grep -v "run:  sudo" && { say "   system-deps spoke again after its packages were installed"; return 1; }

    # README: make test. Its own sudo line first, then its set-up (pip, npm) with the network.
    timed "make test (asks for test packages)" as_user "cd companion && make test" && { say "   make test did not ask for its packages"; return 1; }
    line=$(sudo_line)
    figure "make test asks" "${line:-nothing}"
    timed "$line" as_user "$line" || return 1
    # (pytest --version: the set-up without a test, whose Xvfb could clash with this machine's)
    timed "make test set-up" as_user "cd companion && make test PYTEST_ARGS=--version" || return 1
    figure "make test set-up" "$seconds s"
    # The suite itself in a network namespace with only loopback: its servers and X displays
    # clash with nothing else on this machine.
    timed "make test" nice unshare -n sh -c "ip link set lo up && chroot '$root' su - '$user' -c 'cd companion && make test'" || status=$?
    tests=$(grep -E "^=+ .*(passed|failed|error).* in [0-9.]+s" "$log" | tail -1 | tr -d '=' | sed 's/^ *//; s/ *$//')
    figure "make test" "${tests:-no summary} (exit $status, $seconds s)"
    grep -E "^(FAILED|ERROR) " "$log" | tee -a "$figures" || true
    return $status
}

releases=("$@")
[ ${#releases[@]} -gt 0 ] || releases=(trixie bookworm)
overall=0
for release in "${releases[@]}"; do
    check "$release" || overall=1
    cleanup
    say "figures: $figures"
    cat "$figures"
done
exit $overall
