#!/usr/bin/env bash
# Sharing under an overall cap (issue 29): three downloads from haul-fault-server under
# --max-overall-download-limit 3M, then `haul limit 3 1M` (task 3's own cap equals its fair share), then
# `haul limit 3 512K` (below it). Each phase is measured over SHARE_SECONDS after SHARE_SETTLE seconds, by the
# bytes haul reports for each task: every task's MiB/s beside its max-min fair share (the target: within 5 % each; before the fair share,
# task 3 took 283–344 KiB/s while 1 and 2 took 1.5 and 1.2 MiB/s).
# Usage: bench/share.sh BIN_DIR
# Env: SHARE_SECONDS (8), SHARE_SETTLE (3), SHARE_DIR (/dev/shm/haul-share)
set -euo pipefail
. "$(dirname "$0")/lib.sh"
[ $# -ge 1 ] || { echo "usage: bench/share.sh BIN_DIR" >&2; exit 2; }
bin="$(cd "$1" && pwd)"
seconds="${SHARE_SECONDS:-8}"
settle="${SHARE_SETTLE:-3}"
root="${SHARE_DIR:-/dev/shm/haul-share}"
require_tools python3 curl
rm -rf "$root"; mkdir -p "$root/out" "$root/logs"
server_pid=""
cleanup() {
  "$bin/haul" stop --state-dir "$root/state" >/dev/null 2>&1 || true
  [ -n "$server_pid" ] && kill "$server_pid" 2>/dev/null
  rm -rf "$root"
}
trap cleanup EXIT
start_fault_server "$bin" "$root/logs" 600

# Large enough to outlast every phase at 3 MiB/s.
size=$((400 << 20))
paths=(); for i in 1 2 3; do paths+=("/gen/share-$i.bin"); done
"$bin/haul" daemon --state-dir "$root/state" -d "$root/out" -j 3 --max-overall-download-limit 3M >/dev/null
for i in 1 2 3; do "$bin/haul" add --state-dir "$root/state" -d "$root/out" "$base${paths[$((i - 1))]}?size=$size&seed=$i" >/dev/null; done

# Each task's bytes as haul counts them (`haul list --json`), in task order. Not the server's count: on loopback a
# connection's send and receive buffers hold megabytes, which swamp rates near 1 MiB/s over a few seconds.
sent() {
  "$bin/haul" list --json --state-dir "$root/state" | python3 -c '
import json, sys
tasks = sorted((json.loads(line) for line in sys.stdin if line.strip()), key=lambda t: t["id"])
print(" ".join(str(t["bytes"]) for t in tasks))'
}

# phase LABEL FAIR1 FAIR2 FAIR3 (bytes/s): waits SHARE_SETTLE s, counts SHARE_SECONDS s, prints each task.
phase() {
  local label="$1"; shift
  sleep "$settle"
  local before after t0 t1
  before=$(sent); t0=$EPOCHREALTIME
  sleep "$seconds"
  after=$(sent); t1=$EPOCHREALTIME
  python3 - "$label" "$t0" "$t1" "$before" "$after" "$@" <<'PY'
import sys
label, t0, t1 = sys.argv[1], float(sys.argv[2]), float(sys.argv[3])
before, after = [int(x) for x in sys.argv[4].split()], [int(x) for x in sys.argv[5].split()]
fair = [int(x) for x in sys.argv[6:9]]
mib = 1 << 20
parts = []
worst = 0.0
for i, (b, a, f) in enumerate(zip(before, after, fair), 1):
    rate = (a - b) / (t1 - t0)
    worst = max(worst, abs(rate / f - 1))
    parts.append(f"task {i} {rate / mib:.2f} MiB/s (fair {f / mib:.2f}, {(rate / f - 1) * 100:+.1f} %)")
total = sum(a - b for a, b in zip(after, before)) / (t1 - t0)
print(f"{label}: " + "; ".join(parts) + f"; all {total / mib:.2f} MiB/s; worst {worst * 100:.1f} % off "
      f"({'within' if worst <= 0.05 else 'outside'} the 5 % target)")
PY
}

mib=$((1 << 20))
echo "3 downloads, --max-overall-download-limit 3M; rates haul counted over ${seconds} s after ${settle} s"
phase "no task cap      " $mib $mib $mib
"$bin/haul" limit --state-dir "$root/state" 3 1M >/dev/null 2>&1
phase "haul limit 3 1M  " $mib $mib $mib
"$bin/haul" limit --state-dir "$root/state" 3 512K >/dev/null 2>&1
phase "haul limit 3 512K" $((5 * mib / 4)) $((5 * mib / 4)) $((mib / 2))
