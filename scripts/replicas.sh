#!/usr/bin/env bash
# Several cfrviz servers behind Debian's nginx, with sticky sessions:
#   bash scripts/replicas.sh N        # or: bash scripts/deploy.sh replicas N
# Starts N app servers exactly as `deploy.sh serve` does, on 127.0.0.1:PORT+1 .. PORT+N, and nginx
# on ADDRESS:PORT in front of them (default 127.0.0.1:8501), with scripts/nginx/cfrviz.conf.template
# filled in. A browser's first response sets a cookie (cfrviz_replica) that keeps every later request
# of that browser on one replica (Streamlit keeps a session in one process); a replica that stops
# sends its visitors to another. Runs in the foreground until nginx stops or this script is
# interrupted, then stops everything it started (by PID). Each replica's log is in the printed folder.
# NGINX (default /usr/sbin/nginx), PYTHON and NUMBA_CACHE_DIR may be set by the caller (see deploy.sh).
set -euo pipefail
cd "$(dirname "$0")/.."

count="${1:-}"
if ! [[ "$count" =~ ^[1-9][0-9]?$ ]]; then
  echo "usage: bash scripts/replicas.sh N   (N replicas, 1 to 99)" >&2
  exit 2
fi
NGINX="${NGINX:-/usr/sbin/nginx}"
if [ ! -x "$NGINX" ]; then
  echo "nginx is not at $NGINX: install Debian's nginx (apt-get install nginx) or set NGINX=..." >&2
  exit 2
fi
address="${ADDRESS:-127.0.0.1}"
port="${PORT:-8501}"
if ! [[ "$port" =~ ^[0-9]+$ ]] || [ "$port" -lt 1 ] || [ $((port + count)) -gt 65535 ]; then
  echo "PORT=$port leaves no room for $count replica ports above it." >&2
  exit 2
fi
upload_mb="$(sed -n 's/^maxUploadSize *= *\([0-9]\+\).*/\1/p' .streamlit/config.toml)"

run="$(mktemp -d -t cfrviz-replicas.XXXXXX)"
# nginx's worker runs as `nobody` when this runs as root; it must reach its temporary folders.
chmod 711 "$run"
pids=()
nginx_pid=""
cleanup() {
  trap - EXIT INT TERM
  for pid in ${nginx_pid:+"$nginx_pid"} ${pids[@]+"${pids[@]}"}; do
    kill "$pid" 2>/dev/null || true
  done
  for pid in ${nginx_pid:+"$nginx_pid"} ${pids[@]+"${pids[@]}"}; do
    wait "$pid" 2>/dev/null || true
  done
  echo "replicas: stopped; logs in $run"
}
trap cleanup EXIT
trap 'exit 143' INT TERM

servers=""
for i in $(seq 1 "$count"); do
  replica_port=$((port + i))
  ADDRESS=127.0.0.1 PORT="$replica_port" bash scripts/deploy.sh serve >"$run/replica-$i.log" 2>&1 &
  pids+=("$!")
  echo "replicas: replica $i on 127.0.0.1:$replica_port, pid $!, log $run/replica-$i.log"
  # max_fails=1: one refused connection marks a stopped replica down for 10 s (then it is tried again).
  servers+="        server 127.0.0.1:$replica_port max_fails=1 fail_timeout=10s;"$'\n'
done

sed -e "s|@RUN@|$run|g" -e "s|@LISTEN@|$address:$port|g" -e "s|@UPLOAD_MB@|$((upload_mb + 1))|g" \
  scripts/nginx/cfrviz.conf.template | awk -v servers="${servers%$'\n'}" '{ if ($0 == "@SERVERS@") print servers; else print }' \
  >"$run/nginx.conf"

# Every replica answers its health check before nginx sends visitors (bounded: 120 s each).
health() { "${PYTHON:-python3}" -c 'import sys, urllib.request
try:
    sys.exit(urllib.request.urlopen(sys.argv[1], timeout=2).read().strip() != b"ok")
except OSError:
    sys.exit(1)' "$1"; }
for i in $(seq 1 "$count"); do
  deadline=$((SECONDS + 120))
  until health "http://127.0.0.1:$((port + i))/_stcore/health"; do
    if ! kill -0 "${pids[$((i - 1))]}" 2>/dev/null; then
      echo "replicas: replica $i exited before answering its health check:" >&2
      tail -n 20 "$run/replica-$i.log" >&2
      exit 1
    fi
    if [ "$SECONDS" -gt "$deadline" ]; then
      echo "replicas: replica $i did not answer /_stcore/health within 120 s." >&2
      exit 1
    fi
    sleep 0.3   # polling period of the health check
  done
done

"$NGINX" -t -q -p "$run" -c "$run/nginx.conf" -e stderr
"$NGINX" -p "$run" -c "$run/nginx.conf" -e stderr &
nginx_pid=$!
deadline=$((SECONDS + 30))
until health "http://$address:$port/_stcore/health"; do
  if ! kill -0 "$nginx_pid" 2>/dev/null || [ "$SECONDS" -gt "$deadline" ]; then
    echo "replicas: nginx did not answer on $address:$port." >&2
    exit 1
  fi
  sleep 0.3   # polling period of the health check
done
echo "replicas: nginx pid $nginx_pid, config $run/nginx.conf"
echo "replicas: serving http://$address:$port ($count replicas)"
# In the foreground until nginx stops (or a signal ends this script); the trap stops the rest.
wait "$nginx_pid" || true
