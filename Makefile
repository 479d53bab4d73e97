# Keshi Tower Companion — the two set-up commands are `make run` and `make test`.
# Both create .venv and install what they need on a fresh Debian 12 / Raspberry Pi OS Bookworm
# machine that has python3 and make. On a Raspberry Pi the venv sees the system site-packages so
# apt's Picamera2 and lgpio are importable, and numpy/OpenCV are pinned to what Picamera2 is built for.

SHELL := /bin/bash
VENV := .venv
PY := $(VENV)/bin/python
PIP := $(PY) -m pip
HOST ?= 0.0.0.0
PORT ?= 8080
PYTEST_ARGS ?=
IS_PI := $(shell grep -qs 'Raspberry Pi' /proc/device-tree/model && echo 1)
IS_ROOT := $(shell [ "$$(id -u)" = 0 ] && echo 1)
# apt waits for another apt-get or dpkg (a fresh Raspberry Pi OS runs unattended upgrades for its first
# minutes) up to APT_LOCK_WAIT seconds, saying so, before it gives up (see the apt-install target).
APT_LOCK_WAIT ?= 300
APT_LOCK_POLL ?= 5
APT ?= apt-get
APT_GET := DEBIAN_FRONTEND=noninteractive $(APT) -y -q -o DPkg::Lock::Timeout=$(APT_LOCK_WAIT)

ifeq ($(IS_PI),1)
VENV_FLAGS := --system-site-packages
PI_EXTRA := ,pi
# apt's Picamera2 stack is built against numpy 1.24; numpy 2 in the venv would break it.
PI_PINS := "numpy<2" "opencv-python-headless<4.12"
PI_APT := python3-picamera2 python3-lgpio
RUN_SPEC := .[pi]
else
RUN_SPEC := .
# the spectral scene generator of bench-vision (colour-science needs numpy 2: not on a Pi)
BENCH_EXTRA := ,vision-bench
endif

.PHONY: run test bench lint clean help
help:
	@echo "make run    - set up .venv and start the companion on http://127.0.0.1:$(PORT)/"
	@echo "make test   - set up the dev environment (and Chromium), lint, and run the whole test suite"
	@echo "make bench  - run the benchmarks (figures are in README.md); make bench-rules runs one"
	@echo "make lint   - ruff, mypy and the import contracts (lint-imports)"

# --- environment -------------------------------------------------------------------------
$(VENV)/bin/activate:
	@if ! python3 -m venv --help >/dev/null 2>&1 || ! python3 -c 'import ensurepip' 2>/dev/null; then \
	  if [ "$(IS_ROOT)" = 1 ]; then $(MAKE) --no-print-directory apt-install PACKAGES="python3-venv python3-pip"; \
	  else echo "python3-venv is missing: run 'sudo apt-get install python3-venv' and try again" >&2; exit 1; fi; \
	fi
ifeq ($(IS_PI),1)
	@if ! python3 -c 'import picamera2' 2>/dev/null; then \
	  if [ "$(IS_ROOT)" = 1 ]; then $(MAKE) --no-print-directory apt-install PACKAGES="$(PI_APT)"; \
	  else sudo $(APT_GET) install $(PI_APT) || echo "warning: install $(PI_APT) with apt for the camera" >&2; fi; \
	fi
endif
	python3 -m venv $(VENV_FLAGS) $(VENV)
	$(PIP) install -q --upgrade pip

$(VENV)/.installed: $(VENV)/bin/activate pyproject.toml
	$(PIP) install -q -e "$(RUN_SPEC)" $(PI_PINS)
	@touch $@

$(VENV)/.installed-dev: $(VENV)/.installed
	$(PIP) install -q -e ".[dev$(PI_EXTRA)$(BENCH_EXTRA)]" $(PI_PINS)
	@touch $@

# Browser tests drive Debian's Chromium (a Playwright browser download cannot work offline);
# OpenSCAD renders the printable mount in its test; the hub's tests start a real Mosquitto and
# PostgreSQL. Installed with apt when run as root.
TEST_APT := chromium fonts-dejavu-core openscad mosquitto postgresql
.PHONY: test-system-deps
test-system-deps:
	@if [ ! -x /usr/bin/chromium ] || ! command -v openscad >/dev/null || [ ! -x /usr/sbin/mosquitto ] \
	    || [ ! -x /usr/lib/postgresql/15/bin/initdb ]; then \
	  if [ "$(IS_ROOT)" = 1 ]; then $(MAKE) --no-print-directory apt-install PACKAGES="$(TEST_APT)" || exit 1; \
	  elif [ ! -x /usr/bin/chromium ]; then \
	    echo "Chromium is missing: run 'sudo apt-get install $(TEST_APT)' (browser tests need it)" >&2; exit 1; \
	  else echo "note: 'sudo apt-get install openscad' lets the mount-rendering test run" >&2; fi; \
	fi

# `make apt-install PACKAGES="..."` (as root; the targets above call it): `apt-get update`, then install.
# Another apt-get or dpkg may hold apt's locks for minutes on a fresh system. The install waits for
# dpkg's lock itself (DPkg::Lock::Timeout); `apt-get update` cannot wait for the package lists' lock,
# so it is tried again every APT_LOCK_POLL s (apt's messages read in English: LC_ALL=C). Either way the
# wait is said, and after APT_LOCK_WAIT s it fails with the one command to run once the other
# installation has finished. APT names the apt-get to run (the tests name a stand-in).
.PHONY: apt-install
apt-install:
	@echo "updating apt's package lists (waits up to $(APT_LOCK_WAIT) s for another apt-get or dpkg to finish) ..."; \
	start=$$SECONDS; said=; \
	until out=$$(LC_ALL=C $(APT) update -q 2>&1); do \
	  if ! grep -q 'Could not get lock' <<<"$$out"; then echo "$$out" >&2; exit 1; fi; \
	  [ -n "$$said" ] || echo "waiting for another apt-get (on a fresh Raspberry Pi OS: its unattended upgrades) to finish, up to $(APT_LOCK_WAIT) s ..."; \
	  said=1; \
	  if [ $$(( SECONDS - start )) -ge $(APT_LOCK_WAIT) ]; then \
	    echo "$$out" >&2; \
	    echo "another apt-get still holds apt's lock after $(APT_LOCK_WAIT) s: once it has finished, run 'sudo apt-get install $(PACKAGES)' and try again" >&2; \
	    exit 1; \
	  fi; \
	  sleep $(APT_LOCK_POLL); \
	done; \
	grep -v '^\(Hit\|Get\|Ign\):' <<<"$$out" || true; \
	echo "installing with apt: $(PACKAGES)"; \
	$(APT_GET) install $(PACKAGES) || { \
	  echo "apt-get could not install $(PACKAGES) (its message is above); once that is mended, run 'sudo apt-get install $(PACKAGES)' and try again" >&2; \
	  exit 1; }

# --- the two commands ------------------------------------------------------------------------
run: $(VENV)/.installed
	$(VENV)/bin/keshi serve --host $(HOST) --port $(PORT)

# The suite runs on up to two processes (pytest-xdist): the browser and server tests wait on I/O, so
# two workers nearly halve the wall time on CI's two cores. PYTEST_ARGS adds to it (e.g. -x, -k).
# --dist worksteal: a worker that runs out takes half of the other's queue (xdist's default hands the
# first worker all browser tests in its first batch, and the second then waited ~100 s at the end).
test: $(VENV)/.installed-dev test-system-deps lint
	$(PY) -m pytest -n auto --maxprocesses=2 --dist worksteal $(PYTEST_ARGS)

# --- the rest ---------------------------------------------------------------------------------
bench: $(VENV)/.installed-dev
	@for bench in benchmarks/bench_*.py; do echo "== $$bench"; $(PY) $$bench || exit 1; done

bench-%: $(VENV)/.installed-dev
	$(PY) benchmarks/bench_$*.py

# Collect the texts people read into the German catalog after changing them (docs/i18n.md); the .mo
# files need no step: the app compiles a changed .po at start-up (companion.i18n.catalogs).
I18N_KEYWORDS := --no-default-keywords -k _ -k gettext -k ngettext:1,2 -k Msg -k word:1c,2 -k t
.PHONY: i18n-extract
i18n-extract: $(VENV)/.installed
	@mkdir -p build
	$(VENV)/bin/pybabel extract -F babel.cfg $(I18N_KEYWORDS) --no-location --sort-output -o build/messages.pot .
	$(VENV)/bin/pybabel update -i build/messages.pot -d companion/translations --no-fuzzy-matching -w 120

lint: $(VENV)/.installed-dev
	$(VENV)/bin/ruff check .
	$(VENV)/bin/mypy firmware vision companion tests benchmarks
	$(VENV)/bin/lint-imports --no-cache

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache *.egg-info
