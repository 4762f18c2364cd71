#!/usr/bin/env bash
# Remote control with 10,000 tasks queued (all paused) in a background haul:
#   - tellActive + tellWaiting(0, 1000) answer time (aria2's JSON-RPC over TCP, as AriaNg polls it);
#   - the daemon's CPU while 100 clients poll once a second for 10 s;
#   - an attached live list's key → screen time (tmux);
#   - the idle daemon's RSS and private memory (RssAnon: its own heap and stacks, no shared library pages);
#   - what 40 pipelined ~1 MB replies that the client never reads add to it (target <= +32 MiB RssAnon).
# Usage: bench/rpc.sh BIN_DIR
set -euo pipefail
bin="$(cd "$1" && pwd)"
tasks="${BENCH_TASKS:-10000}"
root="$(mktemp -d /dev/shm/haul-rpc-bench.XXXXXX)"
sock="haul-rpc-bench-$$"
port="${BENCH_RPC_PORT:-16899}"
state="$root/state"
trap '"$bin/haul" stop --state-dir "$state" >/dev/null 2>&1 || true; tmux -L "$sock" kill-server 2>/dev/null || true; rm -rf "$root"' EXIT
now_ms() { date +%s%3N; }

for i in $(seq 1 "$tasks"); do echo "http://127.0.0.1:9/file-$i.bin"; done >"$root/list.txt"
"$bin/haul" add --state-dir "$state" -d "$root/dl" -i "$root/list.txt" >/dev/null 2>&1
"$bin/haul" pause --all --state-dir "$state" >/dev/null 2>&1
printf 'bench-secret-0123456789\n' >"$root/secret"; chmod 600 "$root/secret"
"$bin/haul" daemon --state-dir "$state" -d "$root/dl" --rpc-listen "$port" --rpc-secret-file "$root/secret" >/dev/null
pid=$(head -1 "$state/haul.lock")

python3 - "$port" "$pid" <<'PY'
import json, sys, threading, time, urllib.request
port, pid = int(sys.argv[1]), int(sys.argv[2])
url = f"http://127.0.0.1:{port}/jsonrpc"
def call(method, *params):
    body = json.dumps({"jsonrpc": "2.0", "id": 1, "method": method, "params": ["token:bench-secret-0123456789", *params]}).encode()
    with urllib.request.urlopen(urllib.request.Request(url, body, {"Content-Type": "application/json"}), timeout=30) as r:
        return json.loads(r.read())
keys = ["gid", "totalLength", "completedLength", "uploadSpeed", "downloadSpeed", "connections", "numSeeders",
        "seeder", "status", "errorCode", "verifiedLength", "verifyIntegrityPending", "files", "bittorrent", "dir"]
times = []
for _ in range(20):
    t0 = time.perf_counter()
    call("aria2.tellActive", keys)
    waiting = call("aria2.tellWaiting", 0, 1000, keys)
    times.append((time.perf_counter() - t0) * 1000)
assert len(waiting["result"]) == 1000
times.sort()
print(f"tellActive + tellWaiting(0,1000), {len(times)} rounds: median {times[len(times)//2]:.1f} ms, max {times[-1]:.1f} ms (target < 50 ms)")

def ticks():
    fields = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
    return int(fields[11]) + int(fields[12])
stop = time.time() + 10
import http.client
def client():
    # One kept-alive connection per client, as AriaNg's browser and aria2p's session keep theirs.
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    def keep(method, *params):
        body = json.dumps({"jsonrpc": "2.0", "id": 1, "method": method, "params": ["token:bench-secret-0123456789", *params]})
        connection.request("POST", "/jsonrpc", body, {"Content-Type": "application/json"})
        return json.loads(connection.getresponse().read())
    while time.time() < stop:
        t0 = time.time()
        keep("aria2.getGlobalStat"); keep("aria2.tellActive", keys)
        time.sleep(max(0, 1 - (time.time() - t0)))
before, t0 = ticks(), time.time()
threads = [threading.Thread(target=client) for _ in range(100)]
for t in threads: t.start()
for t in threads: t.join()
cpu = (ticks() - before) / 100 / (time.time() - t0) * 100
print(f"daemon CPU with 100 clients polling getGlobalStat + tellActive once a second: {cpu:.1f} % of a core (target < 5 %)")
PY

start=$(now_ms)
tmux -L "$sock" -u new-session -d -s b -x 160 -y 50 "env LANG=C.UTF-8 TERM=tmux-256color $bin/haul --state-dir $state"
until tmux -L "$sock" capture-pane -p -t b | grep -q "attached to haul"; do
  [ $(( $(now_ms) - start )) -gt 20000 ] && { echo "no attached frame within 20 s"; exit 1; }
  sleep 0.01
done
echo "attached list, first frame: $(( $(now_ms) - start )) ms"
sleep 1
# The input file's tasks are one group's row (DESIGN §12): open it, so the keys below act on one task (as bench/tui.sh).
tmux -L "$sock" send-keys -t b Right
t0=$(now_ms)
until tmux -L "$sock" capture-pane -p -t b | grep -q "▾ list.txt"; do
  [ $(( $(now_ms) - t0 )) -gt 5000 ] && { echo "the group did not open within 5 s"; exit 1; }
  sleep 0.002
done
tmux -L "$sock" send-keys -t b j
sleep 0.5
before=$(tmux -L "$sock" capture-pane -p -t b | grep -o "Downloading [0-9]*/" | head -1)
t0=$(now_ms)
tmux -L "$sock" send-keys -t b j
until [ "$(tmux -L "$sock" capture-pane -p -t b | grep -o "Downloading [0-9]*/" | head -1)" != "$before" ]; do
  [ $(( $(now_ms) - t0 )) -gt 5000 ] && break
  sleep 0.002
done
echo "attached list, key → screen (selection): $(( $(now_ms) - t0 )) ms (target < 50 ms)"
# Pause/resume goes to the daemon and back: space on the selected (paused) task resumes it.
t0=$(now_ms)
tmux -L "$sock" send-keys -t b ' '
until tmux -L "$sock" capture-pane -p -t b | grep -q "›[^⏸]*waiting\|›[^⏸]*failed\|›▶"; do
  [ $(( $(now_ms) - t0 )) -gt 5000 ] && break
  sleep 0.002
done
echo "attached list, space → changed row (round trip to the daemon): $(( $(now_ms) - t0 )) ms (target < 100 ms)"
tmux -L "$sock" send-keys -t b q
sleep 1
echo "idle daemon with $tasks tasks: RSS $(awk '/VmRSS/ {printf "%.1f MiB", $2/1024}' /proc/$pid/status)," \
  "private (RssAnon) $(awk '/RssAnon/ {printf "%.1f MiB", $2/1024}' /proc/$pid/status)"

# Replies nobody reads: one connection pipelines 40 batches whose answers are about 1 MB each and reads none. What
# the daemon holds for them is bounded by the connection's unsent-reply bound (ReplyBacklog), not by the batches.
rss_anon() { awk '/RssAnon/ {print $2}' "/proc/$pid/status"; }
one_call=$(python3 - "$port" <<'PY'
import json, sys, urllib.request
body = json.dumps([{"jsonrpc": "2.0", "id": 1, "method": "system.listMethods"}]).encode()
with urllib.request.urlopen(urllib.request.Request(f"http://127.0.0.1:{sys.argv[1]}/jsonrpc", body), timeout=30) as r:
    print(len(r.read()))
PY
)
calls=$(( 1000000 / one_call ))
base_kib=$(rss_anon)
peak_kib=$base_kib
sleep 12 | python3 "$(dirname "$0")/../Tests/HaulEndToEndTests/Scripts/hostile_client.py" \
  unread "http://127.0.0.1:$port/jsonrpc" --batches 40 --calls "$calls" >"$root/unread.out" &
for _ in $(seq 1 100); do  # 10 s: the client holds its connection for 12 s, the daemon drops it 10 s after it stalls
  now_kib=$(rss_anon); [ "$now_kib" -gt "$peak_kib" ] && peak_kib=$now_kib
  sleep 0.1
done
wait
printf 'replies never read (40 pipelined batches of %d calls, %s MB each; %s): +%.1f MiB RssAnon at the peak (target <= +32 MiB)\n' \
  "$calls" "$(python3 -c "print(round($calls * $one_call / 1e6, 2))")" "$(cat "$root/unread.out")" \
  "$(awk -v p="$peak_kib" -v b="$base_kib" 'BEGIN {print (p - b) / 1024}')"
