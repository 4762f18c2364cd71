#!/usr/bin/env bash
# haul vs curl vs aria2c on loopback, interleaved in one run; prints ratios. Three cases:
#   single       one big file from nginx (tmpfs, sendfile), one stream each;
#   many nginx   BENCH_FILES × 100 KiB files from the same nginx, 16 at a time (-j 16);
#   many fault   as many generated 100 KiB bodies from haul-fault-server (/gen/fN.bin?size=100k&seed=N), -j 16:
#                a server that makes every body on the fly and runs a thread per connection, unlike nginx.
# Each command runs under bench/measure.py: wall, CPU (user+sys), max RSS (the kernel's peak) and peak private
# memory (RssAnon, sampled every 50 ms: the process's own heap and stacks, without shared library pages).
# Usage: bench/run.sh BIN_DIR        (BIN_DIR holds haul and haul-fault-server; make bench builds release first)
# Env: BENCH_SIZE_MB (1024), BENCH_FILES (1000), BENCH_ROUNDS (3), BENCH_DIR (/dev/shm/haul-bench),
#      BENCH_TIMEOUT (600 s per command)
set -euo pipefail
[ $# -ge 1 ] || { echo "usage: bench/run.sh BIN_DIR" >&2; exit 2; }
bin="$(cd "$1" && pwd)"
here="$(cd "$(dirname "$0")" && pwd)"
size_mb="${BENCH_SIZE_MB:-1024}"
files="${BENCH_FILES:-1000}"
rounds="${BENCH_ROUNDS:-3}"
root="${BENCH_DIR:-/dev/shm/haul-bench}"
limit="${BENCH_TIMEOUT:-600}"
for tool in aria2c curl nginx python3; do
  command -v "$tool" >/dev/null || { echo "missing $tool: run scripts/install-deps.sh --bench" >&2; exit 2; }
done
rm -rf "$root"; mkdir -p "$root/www/many" "$root/logs" "$root/out"
server_pid=""
cleanup() {
  kill "$(cat "$root/nginx.pid" 2>/dev/null)" 2>/dev/null || true
  [ -n "$server_pid" ] && kill "$server_pid" 2>/dev/null
  rm -rf "$root"
}
trap cleanup EXIT

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
for i in $(seq 1 "$files"); do echo "$base/many/f$i.bin"; done >"$root/list-nginx.txt"

# The fault server stops by itself after 4 hours at most, should this script be killed before its trap runs.
"$bin/haul-fault-server" --port-file "$root/fault.port" --lifetime 14400 >"$root/logs/fault-server.out" 2>&1 &
server_pid=$!
for _ in $(seq 1 200); do [ -s "$root/fault.port" ] && break; sleep 0.05; done   # bounded: 10 s
[ -s "$root/fault.port" ] || { echo "haul-fault-server did not start"; cat "$root/logs/fault-server.out"; exit 1; }
fbase="http://127.0.0.1:$(cat "$root/fault.port")"
for i in $(seq 1 "$files"); do echo "$fbase/gen/f$i.bin?size=100k&seed=$i"; done >"$root/list-fault.txt"

# measure NAME CMD...: appends "wall user sys maxrss_kib peak_rssanon_kib" to $root/NAME.times
measure() {
  local name="$1"; shift
  rm -rf "$root/out"; mkdir -p "$root/out"
  "$here/measure.py" --timeout "$limit" --stderr "$root/logs/$name.err" -- "$@" >>"$root/$name.times" \
    || { echo "$name failed or timed out:"; tail -5 "$root/logs/$name.err"; exit 1; }
}
# many_files: whether out/ holds all the f*.bin files.
check_many() { [ "$(ls "$root/out" | grep -c '^f[0-9]*\.bin$')" = "$files" ] || { echo "$1 did not fetch every file"; exit 1; }; }

for r in $(seq 1 "$rounds"); do
  echo "round $r/$rounds"
  measure curl-single curl -sS -o "$root/out/big.bin" "$base/big.bin"
  measure aria2c-single aria2c -q -d "$root/out" --allow-overwrite=true --file-allocation=none "$base/big.bin"
  measure haul-single "$bin/haul" --headless -s 1 --state-dir "$root/out/state" -d "$root/out" "$base/big.bin"
  cmp -s "$root/out/big.bin" "$root/www/big.bin" || { echo "haul's big.bin differs"; exit 1; }
  for server in nginx fault; do
    list="$root/list-$server.txt"
    measure "aria2c-$server" aria2c -q -d "$root/out" -j 16 --file-allocation=none -i "$list"
    check_many "aria2c ($server)"
    measure "curl-$server" curl -sS -Z --parallel-max 16 --output-dir "$root/out" --remote-name-all $(cat "$list")
    check_many "curl ($server)"
    measure "haul-$server" "$bin/haul" --headless --state-dir "$root/out/state" -d "$root/out" -j 16 -i "$list"
    check_many "haul ($server)"
  done
done

python3 - "$root" "$size_mb" "$files" <<'PY'
import statistics, sys
root, size_mb, files = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
def load(name):
    rows = [list(map(float, l.split())) for l in open(f"{root}/{name}.times") if l.strip()]
    med = lambda f: statistics.median(f(r) for r in rows)
    return {"wall": med(lambda r: r[0]), "cpu": med(lambda r: r[1] + r[2]),
            "rss": med(lambda r: r[3]) / 1024, "anon": med(lambda r: r[4]) / 1024}
size = f"{size_mb // 1024} GiB" if size_mb % 1024 == 0 else f"{size_mb} MiB"
cases = (("single", f"{size}, 1 stream, nginx"), ("nginx", f"{files} × 100 KiB, -j 16, nginx"),
         ("fault", f"{files} × 100 KiB, -j 16, haul-fault-server"))
print()
print(f"{'case':40} {'tool':7} {'wall s':>8} {'cpu s':>8} {'max rss MiB':>12} {'peak anon MiB':>14}")
for case, title in cases:
    m = {tool: load(f"{tool}-{case}") for tool in ("haul", "curl", "aria2c")}
    for tool in ("haul", "curl", "aria2c"):
        t = m[tool]
        print(f"{title if tool == 'haul' else '':40} {tool:7} {t['wall']:8.2f} {t['cpu']:8.2f} {t['rss']:12.1f} {t['anon']:14.1f}")
    h, c, a = m["haul"], m["curl"], m["aria2c"]
    ratio = lambda x, y: f"{x / max(y, 1e-3):.2f}×"
    print(f"{'':40} haul/curl wall {ratio(h['wall'], c['wall'])}  haul/aria2c wall {ratio(h['wall'], a['wall'])}  "
          f"haul/curl cpu {ratio(h['cpu'], c['cpu'])}  haul/aria2c cpu {ratio(h['cpu'], a['cpu'])}")
PY
