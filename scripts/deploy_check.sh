#!/usr/bin/env bash
# Exercise the deploy recipe without a container runtime: the Dockerfile's steps (scripts/deploy.sh)
# on a fresh virtual environment, then the server is started with the deployed settings, checked,
# and stopped. tests/deploy/test_deploy.py runs this in CI.
#   bash scripts/deploy_check.sh
# PYTHON: the interpreter the venv is made from (default python3). DEPLOY_VENV: a fresh venv made
# by the caller to use instead (tests/deploy/test_install.py reuses it; it is left in place). BROWSER_PYTHON:
# an interpreter with Playwright; when set (and /usr/bin/chromium exists) a browser opens two pages.
# The server binds 127.0.0.1 here (the image binds 0.0.0.0); nothing else is contacted.
set -euo pipefail
cd "$(dirname "$0")/.."
repo="$PWD"
work="$(mktemp -d)"
server_pid=""
cleanup() {
  if [ -n "$server_pid" ] && kill -0 "$server_pid" 2>/dev/null; then
    kill "$server_pid" 2>/dev/null || true
    wait "$server_pid" 2>/dev/null || true
  fi
  rm -rf "$work"
}
trap cleanup EXIT

step() { printf '[deploy-check %s] %s\n' "$(date -u +%H:%M:%S)" "$*"; }

if [ -n "${DEPLOY_VENV:-}" ]; then
  step "the caller's fresh virtual environment $DEPLOY_VENV"
  export PYTHON="$DEPLOY_VENV/bin/python"
else
  step "fresh virtual environment (no system site-packages)"
  "${PYTHON:-python3}" -m venv "$work/venv"
  export PYTHON="$work/venv/bin/python"
fi
if [ "$("$PYTHON" -c 'import sys; print(sys.prefix != sys.base_prefix)')" != True ]; then
  echo "$PYTHON is not a virtual environment." >&2
  exit 2
fi
export NUMBA_CACHE_DIR="$work/numba-cache"

step "deploy.sh install"
bash scripts/deploy.sh install
step "deploy.sh warm"
bash scripts/deploy.sh warm

port="$("$PYTHON" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
url="http://127.0.0.1:$port"
step "deploy.sh serve on $url"
ADDRESS=127.0.0.1 PORT="$port" bash scripts/deploy.sh serve >"$work/server.log" 2>&1 &
server_pid=$!

# Poll the health endpoint (bounded); the interval is a polling period, not a wait for app state.
"$PYTHON" - "$url" "$server_pid" <<'PY'
import os, sys, time, urllib.request
url, pid = sys.argv[1], int(sys.argv[2])
deadline = time.monotonic() + 90
while True:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        sys.exit("the server exited before answering /_stcore/health")
    try:
        with urllib.request.urlopen(url + "/_stcore/health", timeout=2) as answer:
            if answer.status == 200 and answer.read().strip() == b"ok":
                break
    except OSError:
        pass
    if time.monotonic() > deadline:
        sys.exit("no 'ok' from /_stcore/health within 90 s")
    time.sleep(0.3)
with urllib.request.urlopen(url + "/", timeout=10) as answer:
    shell = answer.read().decode("utf-8", "replace")
    assert answer.status == 200, answer.status
# The app shell: Streamlit's HTML page with its root element and its script bundle.
assert '<div id="root"></div>' in shell and "<script" in shell, shell[:500]
print("health ok; / returned the app shell", len(shell), "bytes")
PY

if [ -n "${BROWSER_PYTHON:-}" ] && [ -x /usr/bin/chromium ]; then
  step "browser visit"
  "$BROWSER_PYTHON" scripts/visit_app.py "$url"
fi

# cfrviz.app.serve logs one line when the kernels are loaded (bounded wait: it reads the warm cache).
for _ in $(seq 1 120); do
  grep -q "cfrviz: kernels ready" "$work/server.log" && break
  sleep 0.5
done
grep "cfrviz: kernels ready" "$work/server.log" || { echo "The server never reported its kernels ready." >&2; exit 1; }

step "stop the server"
kill "$server_pid"
wait "$server_pid" 2>/dev/null || true
server_pid=""
if grep -q "Traceback" "$work/server.log"; then
  echo "The server log holds a traceback:" >&2
  cat "$work/server.log" >&2
  exit 1
fi
step "deploy check passed ($repo)"
