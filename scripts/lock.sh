#!/bin/sh
# Refresh constraints.txt, the version of every Python package that `make run`, `make test`
# and the appliance install: the newest that pyproject.toml allows, resolved in a fresh venv
# on the oldest Python it allows (3.11), and kept only if each has a wheel for x86_64 and
# aarch64 on Python 3.11 (Debian 12) and 3.13 (Debian 13), so nothing compiles on a Pi.
# Usage: make lock (which then runs every test against the new versions).
set -eu
python=${PYTHON:-python3}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT INT TERM
"$python" -m venv "$work/venv"
pip="$work/venv/bin/python -m pip"
$pip install -q --upgrade pip
$pip install -q -e '.[test]'
{
    echo "# The version of every Python package the companion is tested with: pip install -c constraints.txt."
    echo "# Written by \`make lock\` (docs/developing.md) on $(date -u +%Y-%m-%d) with Python $("$work/venv/bin/python" -c 'import platform; print(platform.python_version())')."
    $pip freeze --exclude-editable
} > "$work/constraints.txt"

# Debian 12's glibc is 2.36: a wheel for any manylinux up to it installs there and on Debian 13.
for python_version in 3.11 3.13; do
    for arch in x86_64 aarch64; do
        platforms="--platform manylinux1_$arch --platform manylinux2010_$arch --platform manylinux2014_$arch"
        for glibc in $(seq 5 36); do platforms="$platforms --platform manylinux_2_${glibc}_$arch"; done
        # shellcheck disable=SC2086  # one word per option
        $pip install -q --dry-run --ignore-installed --no-deps --only-binary=:all: $platforms \
            --python-version "$python_version" --target "$work/target" -r "$work/constraints.txt" || {
            echo "lock: a package above has no wheel for Python $python_version on $arch; constraints.txt is unchanged" \
                "(resolve on Python 3.11: make lock PYTHON=python3.11; or cap the package in pyproject.toml)" >&2
            exit 1
        }
    done
done
mv "$work/constraints.txt" constraints.txt
echo "lock: constraints.txt written (git diff constraints.txt shows what changed)"
