#!/usr/bin/env bash
# CPU while one slow download runs with 10,000 tasks queued behind it (-j 1), with no list attached and with an
# attached live list (tmux), each over 20 s: the per-second work should follow the running task, not the queue.
# Then one HLS stream of 20,000 segments at 2 MiB/s in the live list that runs it, with the list in front and with
# the task's details (its segment map) open: a frame's cost should not grow with the stream's segment count.
# Targets: the daemon <= 1.5 % of a core, the attached list <= 2 %, the stream's live list <= 2 %.
# Usage: bench/queuecpu.sh BIN_DIR
set -euo pipefail
bin="$(cd "$1" && pwd)"
tasks="${BENCH_TASKS:-10000}"
seconds="${BENCH_SECONDS:-20}"
root="$(mktemp -d /dev/shm/haul-queuecpu-bench.XXXXXX)"
sock="haul-queuecpu-$$"
state="$root/state"
port="${BENCH_PORT:-16877}"
trap '"$bin/haul" stop --state-dir "$state" >/dev/null 2>&1 || true; tmux -L "$sock" kill-server 2>/dev/null || true; kill $server 2>/dev/null || true; rm -rf "$root"' EXIT

# A 2 KiB/s download that outlasts the measurement, then the queue.
"$bin/haul-fault-server" --port "$port" >/dev/null 2>&1 &
server=$!
for _ in $(seq 100); do curl -s -o /dev/null "http://127.0.0.1:$port/" && break; sleep 0.05; done
{ echo "http://127.0.0.1:$port/gen/slow.bin?size=100000000&throttle=2048"
  for i in $(seq 1 "$tasks"); do echo "http://127.0.0.1:9/file-$i.bin"; done; } >"$root/list.txt"
"$bin/haul" add --state-dir "$state" -d "$root/dl" -i "$root/list.txt" >/dev/null 2>&1
"$bin/haul" daemon --state-dir "$state" -d "$root/dl" -j 1 >/dev/null
pid=$(head -1 "$state/haul.lock")

cpu() {  # cpu PID SECONDS: percent of a core used over SECONDS
  python3 - "$1" "$2" <<'PY'
import os, sys, time
pid, seconds = int(sys.argv[1]), float(sys.argv[2])
def ticks():
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return int(fields[11]) + int(fields[12])
before, t0 = ticks(), time.time()
time.sleep(seconds)
print(f"{(ticks() - before) / os.sysconf('SC_CLK_TCK') / (time.time() - t0) * 100:.2f}")
PY
}

sleep 3
echo "daemon CPU, $tasks queued, 1 running at 2 KiB/s, no list: $(cpu "$pid" "$seconds") % of a core (target <= 1.5 %)"
tmux -L "$sock" new-session -d -x 120 -y 40 "env TERM=xterm-256color $bin/haul --state-dir $state -d $root/dl"
sleep 3
list=$(pgrep -n -f "$bin/haul --state-dir $state -d $root/dl")
cpu "$pid" "$seconds" >"$root/daemon-with-list" &
measuring=$!
listcpu=$(cpu "$list" "$seconds")
wait "$measuring"
echo "attached list CPU, same queue: $listcpu % of a core (target <= 2 %); daemon meanwhile: $(cat "$root/daemon-with-list") %"

tmux -L "$sock" kill-server 2>/dev/null || true
"$bin/haul" stop --state-dir "$state" >/dev/null 2>&1 || true
# One connection (-s 1) that the server caps at 2 MiB/s: 100 KiB segments, 20 a second, for 1,000 s.
stream="http://127.0.0.1:$port/hls/long/index.m3u8?segments=20000&segsize=100k&conncap=2m"
tmux -L "$sock" new-session -d -x 120 -y 40 \
  "env TERM=xterm-256color $bin/haul --state-dir $root/stream-state -d $root/stream-dl -s 1 '$stream'"
sleep 5
list=$(pgrep -n -f "$bin/haul --state-dir $root/stream-state")
echo "live list CPU, one stream of 20,000 segments at 2 MiB/s: $(cpu "$list" "$seconds") % of a core (target <= 2 %)"
tmux -L "$sock" send-keys -t 0 Enter
sleep 1
echo "the same with its details (segment map) open: $(cpu "$list" "$seconds") % of a core (target <= 2 %)"
