#!/bin/sh
# Rebuild tests/firmware/rp2040/firmware.uf2.gz (MicroPython v1.27.0, ports/rp2,
# BOARD=RPI_PICO) and mpy-cross from plain git snapshots of the public repositories,
# offline: a snapshot has no submodules, so each one is checked out at the commit
# its parent's tree pins (the table in tests/firmware/rp2040/PROVENANCE.md).
#
# Usage: scripts/build-micropython-rp2.sh MIRRORS [WORKDIR]
#   MIRRORS holds one git repository per project, named OWNER+NAME/repo
#   (micropython+micropython, raspberrypi+pico-sdk, hathach+tinyusb,
#   micropython+micropython-lib, Mbed-TLS+mbedtls, raspberrypi+picotool).
#   WORKDIR (default /work/build-fw) gets the sources and the builds, outside the tree.
# Needs: gcc-arm-none-eabi libnewlib-arm-none-eabi libstdc++-arm-none-eabi-newlib
#   cmake build-essential python3 (Debian 12: arm-none-eabi-gcc 12.2).
# Writes: WORKDIR/micropython/ports/rp2/build-RPI_PICO/firmware.uf2, gzipped as
#   WORKDIR/firmware.uf2.gz, and WORKDIR/micropython/mpy-cross/build/mpy-cross; prints
#   their sha256.  The image embeds its build date (set SOURCE_DATE_EPOCH to fix it),
#   so a rebuild on another day differs from the committed one in that string.
set -eu

mirrors=$(cd "${1:?usage: $0 MIRRORS [WORKDIR]}" && pwd)
work=${2:-/work/build-fw}
jobs=${JOBS:-2}
mkdir -p "$work"

# repository  commit  where (under WORKDIR)
checkout() {
    repo=$1 commit=$2 dest=$work/$3
    if [ ! -d "$dest/.git" ] && [ ! -f "$dest/.git" ]; then
        rm -rf "$dest"
        git clone -q --no-checkout "$mirrors/$repo/repo" "$dest"
    fi
    # A snapshot may lack its largest files (RP2350.svd, a generated mbedtls test
    # suite): none is built from, so leave them out of the work tree.
    missing=$(git -C "$dest" ls-tree -r "$commit" | awk '$2 == "blob" {print $3}' |
        git -C "$dest" cat-file --batch-check | awk '$2 == "missing" {print $1}' |
        while read -r sha; do
            git -C "$dest" ls-tree -r "$commit" | awk -v s="$sha" '$3 == s {print "!/" $4}'
        done)
    if [ -n "$missing" ]; then
        # shellcheck disable=SC2086 # one pattern per word
        git -C "$dest" sparse-checkout set --no-cone '/*' $missing
    fi
    git -C "$dest" -c advice.detachedHead=false checkout -q -f "$commit"
    test "$(git -C "$dest" rev-parse HEAD)" = "$(git -C "$dest" rev-parse "$commit^{commit}")"
}

checkout micropython+micropython 78ff170de9e32c79db6e64d3e33d2bd60002bdcd micropython # v1.27.0
# The commits v1.27.0's tree pins for these submodules (git ls-tree v1.27.0 lib/).
for sub in "raspberrypi+pico-sdk 9a4113fbbae65ee82d8cd6537963bc3d3b14bcca lib/pico-sdk" \
           "hathach+tinyusb aa0fc2e08f1c2dd6f026a431e8989357fbb4c5bf lib/tinyusb" \
           "micropython+micropython-lib 6ae440a8a144233e6e703f6759b7e7a0afaa37a4 lib/micropython-lib" \
           "Mbed-TLS+mbedtls 107ea89daaefb9867ea9121002fbbdf926780e98 lib/mbedtls"; do
    # shellcheck disable=SC2086 # repository, commit, path
    set -- $sub
    pinned=$(git -C "$work/micropython" ls-tree HEAD "$3" | awk '{print $3}')
    test "$pinned" = "$2" || { echo "build: $3 pinned at $pinned, expected $2" >&2; exit 1; }
    rmdir "$work/micropython/$3" 2>/dev/null || true
    checkout "$1" "$2" "micropython/$3"
done
# pico-sdk 2.1.1 wants picotool 2.1.1 and would clone it from the network: build it here.
checkout raspberrypi+picotool de8ae5ac334e1126993f72a5c67949712fd1e1a4 picotool # 2.1.1

nice cmake -S "$work/picotool" -B "$work/picotool/build" -DPICOTOOL_NO_LIBUSB=1 \
    -DPICOTOOL_FLAT_INSTALL=1 -DCMAKE_INSTALL_PREFIX="$work/picotool-install" \
    -DPICO_SDK_PATH="$work/micropython/lib/pico-sdk" -DCMAKE_BUILD_TYPE=Release >/dev/null
nice cmake --build "$work/picotool/build" -j"$jobs" >/dev/null
cmake --install "$work/picotool/build" >/dev/null
# The SDK looks for picotool in $PICOTOOL_FETCH_FROM_GIT_PATH/picotool before it would clone it.
export PICOTOOL_FETCH_FROM_GIT_PATH="$work/picotool-install"

nice make -s -C "$work/micropython/mpy-cross" -j"$jobs"
nice make -s -C "$work/micropython/ports/rp2" BOARD=RPI_PICO -j"$jobs"

uf2=$work/micropython/ports/rp2/build-RPI_PICO/firmware.uf2
gzip -9 -n -c "$uf2" > "$work/firmware.uf2.gz"
sha256sum "$uf2" "$work/firmware.uf2.gz" "$work/micropython/mpy-cross/build/mpy-cross"
echo "to use it: cp $work/firmware.uf2.gz tests/firmware/rp2040/ and update PROVENANCE.md there"
