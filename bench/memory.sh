#!/usr/bin/env bash
# Peak RSS (VmHWM) and peak private memory (RssAnon, sampled every 50 ms by bench/measure.py) of one 1 GiB
# single-stream download on loopback nginx: haul, curl and aria2c, each RUNS times.
# Usage: bench/memory.sh BIN_DIR (or the haul binary itself)
# Env: MEM_SIZE_MB (1024), MEM_RUNS (3), MEM_DIR (/dev/shm/haul-mem), MEM_TIMEOUT (300 s per download)
set -euo pipefail
[ $# -ge 1 ] || { echo "usage: bench/memory.sh BIN_DIR" >&2; exit 2; }
haul="$(readlink -f "$1")"; [ -d "$haul" ] && haul="$haul/haul"
here="$(cd "$(dirname "$0")" && pwd)"
limit="${MEM_TIMEOUT:-300}"
size_mb="${MEM_SIZE_MB:-1024}"
runs="${MEM_RUNS:-3}"
root="${MEM_DIR:-/dev/shm/haul-mem}"
rm -rf "$root"; mkdir -p "$root/www" "$root/logs" "$root/out"
trap 'kill "$(cat "$root/nginx.pid" 2>/dev/null)" 2>/dev/null || true; rm -rf "$root"' EXIT
head -c "$((size_mb << 20))" /dev/zero >"$root/www/big.bin"
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
cat >"$root/nginx.conf" <<CONF
daemon on; worker_processes 1; pid $root/nginx.pid; error_log $root/logs/error.log;
events { worker_connections 64; }
http { access_log off; sendfile on; server { listen 127.0.0.1:$port; root $root/www; } }
CONF
nginx -c "$root/nginx.conf" -p "$root"
url="http://127.0.0.1:$port/big.bin"

# peak NAME CMD...: prints NAME, the peak RSS (GNU time's %M, VmHWM) and the peak private memory of CMD in MiB
peak() {
  local name="$1"; shift
  rm -rf "$root/out"; mkdir -p "$root/out"
  "$here/measure.py" --timeout "$limit" --stderr "$root/logs/$name.err" -- "$@" >"$root/t" \
    || { echo "$name failed or timed out:"; tail -5 "$root/logs/$name.err"; exit 1; }
  awk -v n="$name" '{ printf "%-8s peak RSS %6.1f MiB   peak private (RssAnon) %6.1f MiB\n", n, $4 / 1024, $5 / 1024 }' "$root/t"
}

for r in $(seq 1 "$runs"); do
  peak haul "$haul" --headless -s 1 --state-dir "$root/out/state" -d "$root/out" "$url"
  peak curl curl -sS -o "$root/out/big.bin" "$url"
  if command -v aria2c >/dev/null; then
    peak aria2c aria2c -q -d "$root/out" --allow-overwrite=true --file-allocation=none "$url"
  fi
done
