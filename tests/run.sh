#!/usr/bin/env bash
# Install everything the tests need on a fresh Debian machine, then run them all:
# unit and property tests, AppTest page tests and real-browser tests.
# Extra arguments go to pytest, e.g. `bash tests/run.sh -m browser` or `bash tests/run.sh tests/unit/run/test_uploads.py`.
set -euo pipefail
cd "$(dirname "$0")/.."

apt_install() {
  if [ "$(id -u)" = 0 ]; then SUDO=""; else SUDO="sudo"; fi
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "$@" >/dev/null
}

# Playwright drives Debian's own Chromium; `playwright install` would download one and fails here.
if [ ! -x /usr/bin/chromium ]; then
  echo "Installing Debian's chromium for the browser tests..."
  apt_install chromium
fi
export PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1
# The replicas test (tests/deploy/test_replicas.py) puts Debian's nginx in front of two servers.
if [ ! -x /usr/sbin/nginx ]; then
  echo "Installing Debian's nginx for the replicas test..."
  apt_install nginx
fi

PYTHON="${PYTHON:-python3}"
if ! "$PYTHON" -c 'import sys; assert sys.version_info >= (3, 11)' 2>/dev/null; then
  echo "cfrviz needs Python 3.11 or newer as '$PYTHON' (set PYTHON=... to choose another)." >&2
  exit 2
fi
# Debian ships venv and ensurepip in a separate package.
if ! "$PYTHON" -c 'import ensurepip, venv' 2>/dev/null; then
  echo "Installing python3-venv..."
  apt_install python3-venv
fi

if [ ! -x .venv/bin/python ]; then
  echo "Building .venv from requirements.txt + requirements-test.txt..."
  "$PYTHON" -m venv .venv
fi
.venv/bin/pip install -q --disable-pip-version-check -r requirements.txt -r requirements-test.txt

# Compile every numba kernel once, into numba's on-disk cache, as the Dockerfile does
# (scripts/deploy.sh warm): each test's server and subprocess then loads the machine code instead
# of compiling it again, so a fresh clone's first browser test does not wait out its timeout.
echo "Compiling the solver kernels (once; later runs load them from numba's cache)..."
.venv/bin/python -m cfrviz.app.warmup

# The type and lint gate (a full run only; extra arguments run just pytest): mypy --strict over
# cfrviz/ and benchmarks/, ruff over the repository, import-linter's contracts and vulture's dead
# code, all configured in pyproject.toml, and tsc over the timeline's modules (tests/js). The doctests run inside pytest (tests/unit/test_doctests.py).
static=0
if [ "$#" -eq 0 ]; then
  echo "mypy (strict) over cfrviz/ and benchmarks/ ..."
  .venv/bin/python -m mypy || static=1
  echo "ruff check ..."
  .venv/bin/python -m ruff check . || static=1
  echo "import-linter: the layers contract (pyproject.toml) ..."
  .venv/bin/lint-imports --no-cache || static=1
  echo "vulture: dead code (pyproject.toml, tests/vulture_whitelist.py) ..."
  .venv/bin/vulture || static=1
  # The browser timeline's ES modules against their JSDoc types (the payload's in payload.js):
  # TypeScript pinned in tests/js/package.json, from the npm registry; nothing is built or shipped.
  if ! command -v npm >/dev/null 2>&1; then
    echo "Installing Debian's nodejs and npm for the timeline's type check..."
    apt_install nodejs npm
  fi
  echo "tsc --checkJs: the timeline's modules (tests/js/tsconfig.json) ..."
  if (cd tests/js && npm ci --no-audit --no-fund --silent); then
    tests/js/node_modules/.bin/tsc -p tests/js/tsconfig.json || static=1
  else
    echo "npm ci failed in tests/js: the timeline's types went unchecked." >&2
    static=1
  fi
fi

# Screenshots of failed browser tests land here (pytest-playwright --output); they are kept.
rm -rf test-results
# A full run also executes the notebooks in examples/ (nbmake: each one top to bottom in a fresh
# kernel, which imports this checkout's cfrviz through PYTHONPATH, as the tests' servers do).
paths=()
if [ "$#" -eq 0 ]; then paths=(tests examples); fi
export PYTHONPATH="$PWD${PYTHONPATH:+:$PYTHONPATH}"
status=0
.venv/bin/python -m pytest -p no:cacheprovider --durations=10 --nbmake "${paths[@]}" "$@" || status=$?
if [ "$status" = 0 ] && [ "$static" != 0 ]; then
  echo "mypy, ruff, import-linter, vulture or tsc failed (see above)." >&2
  status=1
fi

if [ -d test-results ] && find test-results -name '*.png' | grep -q .; then
  echo "Screenshots of failed browser tests:"
  find test-results -name '*.png' | sed 's/^/  /'
fi
if [ -d test-results ] && find test-results -name 'server-*.log' | grep -q .; then
  echo "Streamlit server logs: $(pwd)/test-results/server-*.log"
fi
# pytest exits 5 when no test ran; that is a failure here too.
if [ "$status" = 5 ]; then
  echo "No test ran: that counts as a failure." >&2
fi
exit "$status"
