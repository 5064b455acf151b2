# The two commands: `make run` and `make test`.  Each does its own set-up, idempotently.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
CONFIG ?= config.yaml
# The tested version of every Python package; `make lock` refreshes it.
CONSTRAINTS := constraints.txt
# MicroPython's WebAssembly port (npm), for the firmware tests under a real MicroPython.
MICROPYTHON := tests/firmware/micropython
# rp2040js (npm), the emulated RP2040 that boots the real MicroPython rp2 build with the firmware.
RP2040 := tests/firmware/rp2040
# The UTTT computer opponent's compiled search (companion/games/uttt/core.c), built with cc;
# without a compiler the rule says so in one line and the computer searches in pure Python.
UTTT_CORE := companion/games/uttt/_core.so
# On a Raspberry Pi, let the venv see apt's python3-lgpio (GPIO on every Pi, the Pi 5 too).
VENV_FLAGS := $(shell grep -qs "Raspberry Pi" /proc/device-tree/model && echo --system-site-packages)

.PHONY: run test bench lock system-deps-run system-deps-test clean

run: system-deps-run $(VENV)/.run-installed $(UTTT_CORE)
	$(PY) -m companion --config $(CONFIG)

test: system-deps-test $(VENV)/.test-installed $(UTTT_CORE) $(MICROPYTHON)/node_modules/.installed $(RP2040)/node_modules/.installed
	$(PY) -m pytest $(PYTEST_ARGS)

bench: $(VENV)/.test-installed $(UTTT_CORE) $(RP2040)/node_modules/.installed
	@for b in bench/[!_]*.py; do echo "== $$b"; $(PY) $$b --json || exit 1; done

lock:
	@PYTHON=$(PYTHON) sh scripts/lock.sh
	$(MAKE) test

system-deps-run:
	@sh scripts/system-deps.sh run

system-deps-test:
	@sh scripts/system-deps.sh test

$(VENV)/bin/python:
	$(PYTHON) -m venv $(VENV_FLAGS) $(VENV)
	$(PY) -m pip install -q --upgrade pip

$(VENV)/.run-installed: pyproject.toml $(CONSTRAINTS) | $(VENV)/bin/python
	$(PY) -m pip install -q -c $(CONSTRAINTS) -e .
	touch $@

$(VENV)/.test-installed: pyproject.toml $(CONSTRAINTS) | $(VENV)/bin/python
	$(PY) -m pip install -q -c $(CONSTRAINTS) -e '.[test]'
	touch $@ $(VENV)/.run-installed

$(UTTT_CORE): companion/games/uttt/core.c | $(VENV)/bin/python
	$(PY) -m companion.games.uttt.core $@

$(MICROPYTHON)/node_modules/.installed: $(MICROPYTHON)/package.json $(MICROPYTHON)/package-lock.json
	cd $(MICROPYTHON) && npm ci --no-audit --no-fund --loglevel=error
	touch $@

$(RP2040)/node_modules/.installed: $(RP2040)/package.json $(RP2040)/package-lock.json
	cd $(RP2040) && npm ci --no-audit --no-fund --loglevel=error
	touch $@

clean:
	rm -rf $(VENV) $(UTTT_CORE) .pytest_cache .mypy_cache artifacts $(MICROPYTHON)/node_modules $(RP2040)/node_modules
