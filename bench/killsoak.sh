#!/usr/bin/env bash
# kill -9 soak (issue 8 point 2): KILLS × kill -9 at random moments during 4 concurrent segmented downloads
# from haul-fault-server (every connection capped), each run after the first started with no URL; then a last
# run finishes the queue. Checks every file byte for byte and PRAGMA integrity_check, and reports the bytes
# fetched again per kill (the server's body bytes beyond each file's size, spread over the kills).
#
# Usage: bench/killsoak.sh BIN_DIR      (BIN_DIR holds haul and haul-fault-server; release build)
# Env: SOAK_KILLS (20), SOAK_SIZE (256m), SOAK_CAP (2m per connection), SOAK_DIR (/dev/shm/haul-killsoak), SOAK_SEED
set -euo pipefail
. "$(dirname "$0")/lib.sh"
[ $# -ge 1 ] || { echo "usage: bench/killsoak.sh BIN_DIR" >&2; exit 2; }
bin="$(cd "$1" && pwd)"
kills="${SOAK_KILLS:-20}"
size="${SOAK_SIZE:-256m}"
cap="${SOAK_CAP:-2m}"
root="${SOAK_DIR:-/dev/shm/haul-killsoak}"
RANDOM="${SOAK_SEED:-$$}"
files=4

rm -rf "$root"; mkdir -p "$root/out" "$root/logs"
server_pid=""
cleanup() { [ -n "$server_pid" ] && kill "$server_pid" 2>/dev/null; rm -rf "$root"; }
trap cleanup EXIT

start_fault_server "$bin" "$root/logs" 3600

urls=(); for i in $(seq 1 "$files"); do urls+=("$base/gen/soak$i.bin?size=$size&seed=$i&conncap=$cap"); done
for i in $(seq 1 "$files"); do curl -sS --noproxy '*' -o "$root/ref$i.bin" "$base/gen/ref$i.bin?size=$size&seed=$i"; done

haul_args=(--headless --state-dir "$root/state" -d "$root/out" -j "$files" -s 4 --max-host-connections 16)
for kill in $(seq 1 "$kills"); do
  if [ "$kill" = 1 ]; then "$bin/haul" "${haul_args[@]}" "${urls[@]}" >>"$root/logs/haul.log" 2>&1 &
  else "$bin/haul" "${haul_args[@]}" >>"$root/logs/haul.log" 2>&1 & fi
  pid=$!
  # A random moment from 0.4 to 1.6 s into the run (a checkpoint falls about every second).
  sleep "$(printf '0.%03d' $((RANDOM % 1000)) | awk -v r=$((RANDOM % 2)) '{ printf "%.3f", 0.4 + $1 * 0.6 + r * 0.6 }')"
  if ! kill -0 "$pid" 2>/dev/null; then echo "haul ended before kill $kill: make the files larger (SOAK_SIZE)"; exit 1; fi
  kill -9 "$pid"; wait "$pid" 2>/dev/null || true
  printf 'kill %2d: %s\n' "$kill" "$(python3 - "$root/state/haul.sqlite" <<'PY'
import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
print(db.execute("PRAGMA integrity_check").fetchone()[0], "·",
      " ".join(f"{done / 2**20:.1f}M" for (done,) in db.execute("SELECT bytesDone FROM task ORDER BY id")))
PY
)"
done
"$bin/haul" "${haul_args[@]}" >>"$root/logs/haul.log" 2>&1 || { echo "the last run failed:"; tail -5 "$root/logs/haul.log"; exit 1; }

for i in $(seq 1 "$files"); do
  cmp -s "$root/out/soak$i.bin" "$root/ref$i.bin" || { echo "soak$i.bin differs from the reference"; exit 1; }
done
integrity=$(python3 -c 'import sqlite3,sys; print(sqlite3.connect(sys.argv[1]).execute("PRAGMA integrity_check").fetchone()[0])' "$root/state/haul.sqlite")
[ "$integrity" = ok ] || { echo "integrity_check: $integrity"; exit 1; }

echo
echo "$files files × $size, $kills kills, every file byte-identical, integrity_check $integrity"
for i in $(seq 1 "$files"); do
  stats=$(curl -sS --noproxy '*' "$base/stats?path=/gen/soak$i.bin")
  python3 - "$stats" "$(stat -c %s "$root/ref$i.bin")" "$kills" "soak$i.bin" <<'PY'
import json, sys
stats, size, kills, name = json.loads(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
extra = stats["bodyBytesSent"] - size
print(f"{name}: fetched again {extra / 2**20:.2f} MiB in all = {100 * extra / size / kills:.3f} % of the file per kill "
      f"(target ≤ 2 %); {stats['requests']} requests, {stats['connections']} connections")
PY
done
