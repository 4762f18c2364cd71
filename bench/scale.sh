#!/usr/bin/env bash
# A queue of 100,000 tasks (issue 29): `haul add -i` of 100,000 links, `haul list`, `pause --all`, `resume --all` and
# `remove --all` with no haul running, an idle `haul daemon` holding them (its peak while it starts, and RssAnon once
# it settled), `haul list`, `pause --all` (and the daemon's RssAnon after it), `resume --all` and `remove --all`
# through it; each figure beside its target, and aria2c holding the same links paused (`-i`).
# Wall time, user + sys, peak RSS (VmHWM) and peak private memory (RssAnon) come from bench/measure.py.
# The links name 127.0.0.1:9 (discard): the tasks are paused, or held outside the schedule's run window while a daemon
# has them waiting. A resume --all through the daemon starts a few by hand (as a resume does), which find nobody on
# 127.0.0.1:9, until the remove --all right after; nothing is sent beyond the loopback.
# Usage: bench/scale.sh BIN_DIR   (the release build: `make release`, then `make bench-scale`)
# Env: BENCH_TASKS (100000), BENCH_SETTLE (3 s idle before the daemon is measured), BENCH_RPC_PORT (a free one),
#      BENCH_TOOLS ("haul aria2c")
set -euo pipefail
. "$(dirname "$0")/lib.sh"
[ $# -ge 1 ] || { echo "usage: bench/scale.sh BIN_DIR" >&2; exit 2; }
bin="$(cd "$1" && pwd)"
measure="$(cd "$(dirname "$0")" && pwd)/measure.py"
tasks="${BENCH_TASKS:-100000}"
settle="${BENCH_SETTLE:-3}"
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
port="${BENCH_RPC_PORT:-$(free_port)}"
read -r -a tools <<<"${BENCH_TOOLS:-haul aria2c}"
require_tools "${tools[@]}" python3
root="$(mktemp -d /dev/shm/haul-scale.XXXXXX)"
state="$root/state"
aria2_pid=""
cleanup() {
  "$bin/haul" stop --state-dir "$state" >/dev/null 2>&1 || true
  [ -n "$aria2_pid" ] && kill "$aria2_pid" 2>/dev/null
  rm -rf "$root"
}
trap cleanup EXIT

for i in $(seq 1 "$tasks"); do echo "http://127.0.0.1:9/file-$i.bin"; done >"$root/list.txt"
printf 'bench-secret-0123456789\n' >"$root/secret"; chmod 600 "$root/secret"
haul() { "$bin/haul" "$@" --state-dir "$state"; }

# timed LABEL WALL_TARGET_S PEAK_TARGET_MIB CMD...: runs CMD under measure.py and prints its figures beside the targets
# ("-" for none).
timed() {
  local label="$1" wall_target="$2" peak_target="$3"
  shift 3
  read -r wall user sys peak anon < <(python3 "$measure" --timeout 600 -- "$@")
  python3 - "$label" "$wall" "$user" "$sys" "$peak" "$anon" "$wall_target" "$peak_target" <<'PY'
import sys
label, wall, user, sys_, peak, anon, wall_target, peak_target = sys.argv[1:]
wall, cpu, peak, anon = float(wall), float(user) + float(sys_), int(peak) / 1024, int(anon) / 1024
targets = []
if wall_target != "-": targets.append(f"wall <= {wall_target} s" + ("" if wall <= float(wall_target) else " MISSED"))
if peak_target != "-": targets.append(f"peak <= {peak_target} MiB" + ("" if peak <= float(peak_target) else " MISSED"))
print(f"{label}: wall {wall:.2f} s, cpu {cpu:.2f} s, peak RSS {peak:.1f} MiB, peak RssAnon {anon:.1f} MiB"
      + (f"  (target: {', '.join(targets)})" if targets else ""))
PY
}

# status_mib PID FIELD: a figure of /proc/PID/status in MiB.
status_mib() { awk -v field="$2:" '$1 == field {printf "%.1f", $2/1024}' "/proc/$1/status"; }

# start_daemon: a background haul with the RPC on loopback; waits (at most 120 s) until it answers with every task.
start_daemon() {
  "$bin/haul" daemon --state-dir "$state" -d "$root/dl" --rpc-listen "$port" --rpc-secret-file "$root/secret" >/dev/null 2>&1
  daemon_pid=$(head -1 "$state/haul.lock")
  python3 - "$port" "$tasks" <<'PY' || { echo "the daemon did not hold $tasks tasks within 120 s"; exit 1; }
import json, sys, time, urllib.request
port, tasks = int(sys.argv[1]), int(sys.argv[2])
give_up = time.monotonic() + 120
body = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "aria2.getGlobalStat", "params": ["token:bench-secret-0123456789"]}).encode()
while time.monotonic() < give_up:
    try:
        with urllib.request.urlopen(urllib.request.Request(f"http://127.0.0.1:{port}/jsonrpc", body), timeout=10) as r:
            if int(json.loads(r.read())["result"]["numWaiting"]) >= tasks:
                sys.exit(0)
    except OSError:
        pass
    time.sleep(0.1)
sys.exit(1)
PY
}

echo "$tasks tasks, $(nproc) cores, $(basename "$bin")/haul"
for tool in "${tools[@]}"; do
  case "$tool" in
    haul)
      timed "haul add -i ($tasks links)" 3 128 "$bin/haul" add --state-dir "$state" -d "$root/dl" -i "$root/list.txt"
      timed "haul list (no daemon)" - 128 "$bin/haul" list --state-dir "$state"
      timed "haul pause --all (no daemon)" 2 128 "$bin/haul" pause --all --state-dir "$state"

      start=$EPOCHREALTIME
      start_daemon
      ready=$(python3 -c "print(f'{$EPOCHREALTIME - $start:.2f}')")
      sleep "$settle"
      echo "haul daemon, $tasks paused tasks: answering with all ${ready} s after start; peak RSS while starting" \
        "$(status_mib "$daemon_pid" VmHWM) MiB; idle RssAnon $(status_mib "$daemon_pid" RssAnon) MiB (target <= 64 MiB)"
      timed "haul list (through the daemon)" 2 128 "$bin/haul" list --state-dir "$state"
      sleep "$settle"
      echo "haul daemon after the list: RssAnon $(status_mib "$daemon_pid" RssAnon) MiB"
      haul stop >/dev/null 2>&1

      # Waiting, not paused, for a pause through the daemon: a run window a few hours off holds them in line.
      haul schedule "$(date -d '+3 hour' +%H:%M)-$(date -d '+3 hour 1 min' +%H:%M)" >/dev/null 2>&1
      timed "haul resume --all (no daemon)" 2 128 "$bin/haul" resume --all --state-dir "$state"
      start_daemon
      sleep "$settle"
      echo "haul daemon, $tasks waiting tasks (held by the schedule): idle RssAnon $(status_mib "$daemon_pid" RssAnon) MiB"
      timed "haul pause --all (through the daemon)" 2 128 "$bin/haul" pause --all --state-dir "$state"
      sleep "$settle"
      echo "haul daemon after pause --all: peak RSS $(status_mib "$daemon_pid" VmHWM) MiB," \
        "RssAnon $(status_mib "$daemon_pid" RssAnon) MiB (target <= 64 MiB)"
      timed "haul resume --all (through the daemon)" 2 128 "$bin/haul" resume --all --state-dir "$state"
      timed "haul remove --all (through the daemon)" 2 128 "$bin/haul" remove --all --state-dir "$state"
      sleep "$settle"
      echo "haul daemon after remove --all: RssAnon $(status_mib "$daemon_pid" RssAnon) MiB"
      haul stop >/dev/null 2>&1
      haul schedule --clear >/dev/null 2>&1

      haul add -d "$root/dl" -i "$root/list.txt" >/dev/null 2>&1
      timed "haul remove --all (no daemon)" 2 128 "$bin/haul" remove --all --state-dir "$state"
      ;;
    aria2c)
      rpc_port=$(free_port)
      start=$EPOCHREALTIME
      aria2c --no-conf -q --enable-rpc --rpc-listen-port="$rpc_port" --rpc-secret=bench-secret-0123456789 --pause=true \
        --file-allocation=none -d "$root/dl-aria2c" -i "$root/list.txt" >"$root/aria2c.out" 2>&1 &
      aria2_pid=$!
      # Bounded: 300 s for aria2c to hold every task (getGlobalStat's numWaiting counts paused ones too).
      python3 - "$rpc_port" "$tasks" <<'PY' || { echo "aria2c did not hold $tasks paused tasks within 300 s"; exit 1; }
import json, sys, time, urllib.request
port, tasks = int(sys.argv[1]), int(sys.argv[2])
give_up = time.monotonic() + 300
body = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "aria2.getGlobalStat", "params": ["token:bench-secret-0123456789"]}).encode()
while time.monotonic() < give_up:
    try:
        with urllib.request.urlopen(urllib.request.Request(f"http://127.0.0.1:{port}/jsonrpc", body), timeout=10) as r:
            stat = json.loads(r.read())["result"]
        if int(stat["numWaiting"]) >= tasks and int(stat["numActive"]) == 0:
            sys.exit(0)
    except OSError:
        pass
    time.sleep(0.2)
sys.exit(1)
PY
      ready=$(python3 -c "print(f'{$EPOCHREALTIME - $start:.2f}')")
      sleep "$settle"
      echo "aria2c (--enable-rpc --pause=true -i), $tasks paused tasks: all held ${ready} s after start; peak RSS" \
        "$(status_mib "$aria2_pid" VmHWM) MiB; idle RssAnon $(status_mib "$aria2_pid" RssAnon) MiB"
      kill "$aria2_pid" 2>/dev/null; wait "$aria2_pid" 2>/dev/null || true; aria2_pid=""
      ;;
  esac
done
