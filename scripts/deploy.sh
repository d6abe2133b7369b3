#!/usr/bin/env bash
# Every step the Dockerfile runs, in one script, so CI runs the same steps on a fresh virtual
# environment (scripts/deploy_check.sh). Run from anywhere:
#   bash scripts/deploy.sh install   # the pinned app set (requirements.txt) into $PYTHON's environment
#   bash scripts/deploy.sh warm      # compile every numba kernel into $NUMBA_CACHE_DIR ahead of visitors
#   bash scripts/deploy.sh serve     # the app with the deployed settings on $ADDRESS:$PORT (0.0.0.0:8501),
#                                    # its kernels loading before the first visitor; visitors' solves
#                                    # run in worker processes that load the kernels from the same cache
#   bash scripts/deploy.sh replicas N  # N servers as `serve` does on 127.0.0.1:PORT+1..PORT+N, Debian's
#                                    # nginx on ADDRESS:PORT (127.0.0.1:8501) in front, sticky (scripts/replicas.sh)
# PYTHON (default python3), ADDRESS, PORT and NUMBA_CACHE_DIR may be set by the caller.
set -euo pipefail
cd "$(dirname "$0")/.."

PYTHON="${PYTHON:-python3}"
# warm and serve must agree on where compiled kernels live; the image's user owns this folder.
export NUMBA_CACHE_DIR="${NUMBA_CACHE_DIR:-$PWD/.numba-cache}"
# Per-process memory budget (README, "Memory and CPU budget"): few malloc arenas for Streamlit's
# many session threads, and large arrays (runs) handed back to the system when they are freed.
# CFRVIZ_MALLOC_DEFAULTS=1 keeps glibc's own settings (to measure the difference).
if [ -z "${CFRVIZ_MALLOC_DEFAULTS:-}" ]; then
  export MALLOC_ARENA_MAX="${MALLOC_ARENA_MAX:-2}"
  export MALLOC_MMAP_THRESHOLD_="${MALLOC_MMAP_THRESHOLD_:-1048576}"
fi
# pyarrow (Streamlit's tables) allocates through the system's malloc, not its own pool, which
# reserves 1 GiB of address space up front: the server's idle address space falls from 1.9 to
# 0.8 GB, room a host's address-space cap (the tests' 3 GB) otherwise loses to nothing.
export ARROW_DEFAULT_MEMORY_POOL="${ARROW_DEFAULT_MEMORY_POOL:-system}"
export PYTHONUNBUFFERED=1

case "${1:-}" in
  install)
    "$PYTHON" -m pip install --no-cache-dir --disable-pip-version-check -q -r requirements.txt
    ;;
  warm)
    mkdir -p "$NUMBA_CACHE_DIR"
    "$PYTHON" -m cfrviz.app.warmup
    ;;
  serve)
    # `streamlit run app.py` in a process that starts loading the kernels before the first visitor
    # (cfrviz.app.serve); .streamlit/config.toml holds the rest (upload and websocket message caps, XSRF,
    # no error details): it is read from this folder, the repository root (the image's WORKDIR).
    exec "$PYTHON" -m cfrviz.app.serve \
      --server.address "${ADDRESS:-0.0.0.0}" \
      --server.port "${PORT:-8501}" \
      --server.headless true \
      --server.fileWatcherType none \
      --server.runOnSave false \
      --browser.gatherUsageStats false
    ;;
  replicas)
    exec bash scripts/replicas.sh "${@:2}"
    ;;
  *)
    echo "usage: bash scripts/deploy.sh install|warm|serve|replicas N" >&2
    exit 2
    ;;
esac
