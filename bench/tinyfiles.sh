#!/usr/bin/env bash
# Whether a file's cost stays flat as the queue grows (issue 29): BENCH_SMALL and then BENCH_LARGE tiny files (a few
# bytes each) from the same nginx, 16 at a time, by haul (-j 16 -i) and aria2c (-j 16 -i), in turn, each round.
# Prints each tool's CPU (user + sys) per file at both sizes, the large queue's per-file cost over the small one's
# (target for haul: ≤ 1.2, a file costs no more in a long queue), and haul's per-file CPU over aria2c's.
# Usage: bench/tinyfiles.sh BIN_DIR
# Env: BENCH_SMALL (2000), BENCH_LARGE (20000), BENCH_ROUNDS (3, the median is shown), BENCH_TIMEOUT (600 s a run)
set -euo pipefail
. "$(dirname "$0")/lib.sh"
[ $# -ge 1 ] || { echo "usage: bench/tinyfiles.sh BIN_DIR" >&2; exit 2; }
bin="$(cd "$1" && pwd)"
here="$(cd "$(dirname "$0")" && pwd)"
small="${BENCH_SMALL:-2000}"
large="${BENCH_LARGE:-20000}"
rounds="${BENCH_ROUNDS:-3}"
limit="${BENCH_TIMEOUT:-600}"
require_tools aria2c nginx python3
root="$(mktemp -d /dev/shm/haul-tinyfiles.XXXXXX)"
cleanup() { kill "$(cat "$root/nginx.pid" 2>/dev/null)" 2>/dev/null || true; rm -rf "$root"; }
trap cleanup EXIT
chmod 755 "$root"   # the nginx worker reads it as another user
mkdir -p "$root/www" "$root/logs"
for i in $(seq 1 "$large"); do echo "file $i"; done | split -l 1 -a 6 -d - "$root/www/t"

port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
cat >"$root/nginx.conf" <<CONF
daemon on; worker_processes 1; pid $root/nginx.pid; error_log $root/logs/error.log;
events { worker_connections 1024; }
http { access_log off; keepalive_requests 1000000;
  server { listen 127.0.0.1:$port; root $root/www; } }
CONF
nginx -c "$root/nginx.conf" -p "$root"
for n in "$small" "$large"; do
  for i in $(seq 0 $((n - 1))); do printf 'http://127.0.0.1:%s/t%06d\n' "$port" "$i"; done >"$root/list-$n.txt"
done

# measure NAME COUNT CMD...: runs CMD in an empty out/, checks it fetched COUNT files, appends its figures.
measure() {
  local name="$1" count="$2"; shift 2
  rm -rf "$root/out"; mkdir -p "$root/out"
  python3 "$here/measure.py" --timeout "$limit" --stderr "$root/logs/$name.err" -- "$@" >>"$root/$name.times" \
    || { echo "$name failed or timed out:"; tail -5 "$root/logs/$name.err"; exit 1; }
  [ "$(ls "$root/out" | grep -c '^t[0-9]*$')" = "$count" ] || { echo "$name did not fetch every file"; exit 1; }
}

echo "$small and $large tiny files from nginx, -j 16, median of $rounds rounds"
for _ in $(seq 1 "$rounds"); do
  for n in "$small" "$large"; do
    measure "haul-$n" "$n" "$bin/haul" --headless --state-dir "$root/out/.state" -d "$root/out" -j 16 -i "$root/list-$n.txt"
    measure "aria2c-$n" "$n" aria2c -q -j 16 -d "$root/out" -i "$root/list-$n.txt"
  done
done

python3 - "$root" "$small" "$large" <<'PY'
import statistics, sys
root, small, large = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
def per_file(tool, n):
    cpu = [float(l.split()[1]) + float(l.split()[2]) for l in open(f"{root}/{tool}-{n}.times")]
    return statistics.median(cpu) / n * 1000
figures = {tool: (per_file(tool, small), per_file(tool, large)) for tool in ("haul", "aria2c")}
print(f"{'':8} {'ms CPU a file, ' + str(small):>22} {str(large):>8} {'large/small':>12}")
for tool, (s, l) in figures.items():
    target = "  (target <= 1.20" + ("" if l / s <= 1.2 else " MISSED") + ")" if tool == "haul" else ""
    print(f"{tool:8} {s:22.3f} {l:8.3f} {l / s:12.2f}{target}")
(hs, hl), (a_s, a_l) = figures["haul"], figures["aria2c"]
print(f"haul/aria2c CPU a file: {hs / a_s:.2f} at {small}, {hl / a_l:.2f} at {large}")
PY
