#!/usr/bin/env bash
# haul vs curl vs aria2c on loopback nginx, interleaved in one run; prints ratios.
# Usage: bench/run.sh BIN_DIR        (make bench builds release first)
# Env: BENCH_SIZE_MB (1024), BENCH_FILES (1000), BENCH_ROUNDS (3), BENCH_DIR (/dev/shm/haul-bench)
set -euo pipefail
bin="$(cd "$1" && pwd)"
size_mb="${BENCH_SIZE_MB:-1024}"
files="${BENCH_FILES:-1000}"
rounds="${BENCH_ROUNDS:-3}"
root="${BENCH_DIR:-/dev/shm/haul-bench}"
rm -rf "$root"; mkdir -p "$root/www/many" "$root/logs" "$root/out"
trap 'kill "$(cat "$root/nginx.pid" 2>/dev/null)" 2>/dev/null || true; rm -rf "$root"' EXIT

echo "preparing ${size_mb} MiB file and ${files} × 100 KiB files in $root"
head -c "$((size_mb << 20))" /dev/urandom >"$root/www/big.bin"
for i in $(seq 1 "$files"); do head -c 102400 /dev/urandom >"$root/www/many/f$i.bin"; done

port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
cat >"$root/nginx.conf" <<CONF
daemon on; worker_processes 1; pid $root/nginx.pid; error_log $root/logs/error.log;
events { worker_connections 1024; }
http { access_log off; sendfile on; tcp_nopush on; keepalive_requests 100000;
  server { listen 127.0.0.1:$port; root $root/www; } }
CONF
nginx -c "$root/nginx.conf" -p "$root"
base="http://127.0.0.1:$port"
for i in $(seq 1 "$files"); do echo "$base/many/f$i.bin"; done >"$root/list.txt"

# measure NAME CMD...: appends "wall user sys maxrss_kb" to $root/NAME.times
measure() {
  local name="$1"; shift
  rm -rf "$root/out"; mkdir -p "$root/out"
  /usr/bin/time -f "%e %U %S %M" -o "$root/t" "$@" >/dev/null 2>"$root/logs/$name.err" || { echo "$name failed:"; tail -5 "$root/logs/$name.err"; exit 1; }
  cat "$root/t" >>"$root/$name.times"
}

for r in $(seq 1 "$rounds"); do
  echo "round $r/$rounds"
  measure curl-single curl -sS -o "$root/out/big.bin" "$base/big.bin"
  measure aria2-single aria2c -q -d "$root/out" --allow-overwrite=true --file-allocation=none "$base/big.bin"
  measure haul-single "$bin/haul" --headless -s 1 --state-dir "$root/out/state" -d "$root/out" "$base/big.bin"
  cmp -s "$root/out/big.bin" "$root/www/big.bin" || { echo "haul's big.bin differs"; exit 1; }
  measure aria2-many aria2c -q -d "$root/out" -j 16 --file-allocation=none -i "$root/list.txt"
  measure curl-many curl -sS -Z --parallel-max 16 --output-dir "$root/out" --remote-name-all $(cat "$root/list.txt")
  measure haul-many "$bin/haul" --headless --state-dir "$root/out/state" -d "$root/out" -j 16 -i "$root/list.txt"
  [ "$(ls "$root/out" | grep -c '^f.*\.bin$')" = "$files" ] || { echo "haul did not fetch every file"; exit 1; }
done

python3 - "$root" <<'PY'
import statistics, sys
root = sys.argv[1]
def load(name):
    rows = [list(map(float, l.split())) for l in open(f"{root}/{name}.times") if l.strip()]
    med = lambda i: statistics.median(r[i] for r in rows)
    return {"wall": med(0), "cpu": med(1) + med(2), "rss": med(3) / 1024}
print()
for case, title in (("single", "1 stream"), ("many", "many files")):
    h, c, a = load(f"haul-{case}"), load(f"curl-{case}"), load(f"aria2-{case}")
    print(f"{title:10}  {'wall s':>8} {'cpu s':>8} {'rss MiB':>8}")
    for name, m in (("haul", h), ("curl", c), ("aria2c", a)):
        print(f"  {name:8}  {m['wall']:8.2f} {m['cpu']:8.2f} {m['rss']:8.1f}")
    print(f"  haul/curl wall {h['wall']/c['wall']:.2f}×   haul/aria2c wall {h['wall']/a['wall']:.2f}×   "
          f"haul/curl cpu {h['cpu']/max(c['cpu'],1e-3):.2f}×")
    print()
PY
