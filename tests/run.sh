#!/usr/bin/env bash
# Install everything the tests need on a fresh Debian machine, then run them all:
# unit and property tests, AppTest page tests and real-browser tests.
set -euo pipefail
cd "$(dirname "$0")/.."

if [ ! -x /usr/bin/chromium ]; then
  echo "Installing Debian's chromium for the browser tests..."
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
fi

export PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1
python3 -m venv .venv
.venv/bin/pip install -q --disable-pip-version-check -r requirements-test.txt

# pytest exits 5 when no test ran; that counts as a failure here too.
exec .venv/bin/python -m pytest "$@"
