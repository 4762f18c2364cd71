#!/usr/bin/env bash
# Memory of an idle downloader holding 10,000 paused tasks: a background `haul daemon`, and aria2c given the same
# URIs paused (--pause=true needs --enable-rpc; loopback port, random secret). For each: RSS, private memory
# (RssAnon) and its file-backed part (RssFile), then the biggest private mappings from /proc/PID/smaps (top 8 by
# Private_Clean + Private_Dirty), each marked anonymous (heap, stacks, malloc arenas) or named (a file). Private
# counts every page only this process maps, so a binary no other process runs has its text there too; the anon
# column (smaps' Anonymous, what RssAnon sums) is the part not backed by a file.
# The URLs point at a local haul-fault-server; being paused, nothing is fetched (the server's byte count says so).
# Usage: bench/manytasks.sh BIN_DIR
# Env: BENCH_TASKS (10000), BENCH_SETTLE (3 s idle before measuring), BENCH_TOOLS ("haul aria2c")
set -euo pipefail
. "$(dirname "$0")/lib.sh"
[ $# -ge 1 ] || { echo "usage: bench/manytasks.sh BIN_DIR" >&2; exit 2; }
bin="$(cd "$1" && pwd)"
tasks="${BENCH_TASKS:-10000}"
settle="${BENCH_SETTLE:-3}"
read -r -a tools <<<"${BENCH_TOOLS:-haul aria2c}"
require_tools "${tools[@]}" python3 curl
root="$(mktemp -d /dev/shm/haul-manytasks.XXXXXX)"
state="$root/state"
server_pid=""; aria2_pid=""
cleanup() {
  "$bin/haul" stop --state-dir "$state" >/dev/null 2>&1 || true
  [ -n "$aria2_pid" ] && kill "$aria2_pid" 2>/dev/null
  [ -n "$server_pid" ] && kill "$server_pid" 2>/dev/null
  rm -rf "$root"
}
trap cleanup EXIT

start_fault_server "$bin" "$root" 900
for i in $(seq 1 "$tasks"); do echo "$base/gen/t$i.bin?size=1m&seed=$i"; done >"$root/list.txt"
sent() { curl -sS --noproxy '*' -m 5 "$base/sent" | python3 -c 'import json, sys; print(json.load(sys.stdin)["bodyBytesSent"])'; }

# report NAME PID: the memory summary of process PID.
report() {
  python3 - "$1" "$2" <<'PY'
import sys
name, pid = sys.argv[1], int(sys.argv[2])
status = {}
for line in open(f"/proc/{pid}/status"):
    key, _, value = line.partition(":")
    status[key] = value.strip()
mib = lambda text: int(text.split()[0]) / 1024
print(f"{name}: RSS {mib(status['VmRSS']):.1f} MiB, private (RssAnon) {mib(status['RssAnon']):.1f} MiB, "
      f"file-backed {mib(status['RssFile']):.1f} MiB, shmem {mib(status['RssShmem']):.1f} MiB, "
      f"threads {status['Threads']}")
mappings, current = [], None
for line in open(f"/proc/{pid}/smaps"):
    fields = line.split()
    if "-" in fields[0] and not fields[0].endswith(":"):
        current = {"range": fields[0], "perms": fields[1], "path": " ".join(fields[5:]), "private": 0, "size": 0, "anon": 0}
        mappings.append(current)
    elif fields[0] in ("Private_Clean:", "Private_Dirty:"):
        current["private"] += int(fields[1])
    elif fields[0] == "Size:":
        current["size"] = int(fields[1])
    elif fields[0] == "Anonymous:":
        current["anon"] = int(fields[1])
def kind(path):
    anonymous = path == "" or path in ("[heap]", "[stack]") or path.startswith(("[anon", "[stack"))
    return "anon" if anonymous else "named"
totals = {"anon": [0, 0], "named": [0, 0]}
for m in mappings:
    totals[kind(m["path"])][0] += m["private"]
    totals[kind(m["path"])][1] += 1
print(f"  private in smaps: anonymous {totals['anon'][0] / 1024:.1f} MiB over {totals['anon'][1]} mappings, "
      f"named {totals['named'][0] / 1024:.1f} MiB over {totals['named'][1]} mappings")
print(f"  {'private KiB':>11} {'anon KiB':>9} {'size KiB':>9}  {'kind':5} {'perms':5} mapping")
for m in sorted(mappings, key=lambda m: -m["private"])[:8]:
    path = m["path"] or "(anonymous)"
    if len(path) > 60:
        path = "…" + path[-59:]
    print(f"  {m['private']:11d} {m['anon']:9d} {m['size']:9d}  {kind(m['path']):5} {m['perms']:5} {path}")
PY
}

for tool in "${tools[@]}"; do
  case "$tool" in
    haul)
      # Queued into the database and paused before the daemon starts, so no task ever runs.
      "$bin/haul" add --state-dir "$state" -d "$root/dl" -i "$root/list.txt" >"$root/add.log" 2>&1 \
        || { echo "haul add failed:"; tail -5 "$root/add.log"; exit 1; }
      "$bin/haul" pause --all --state-dir "$state" >"$root/pause.log" 2>&1 \
        || { echo "haul pause failed:"; tail -5 "$root/pause.log"; exit 1; }
      start=$EPOCHREALTIME
      "$bin/haul" daemon --state-dir "$state" -d "$root/dl" >/dev/null 2>&1
      pid=$(head -1 "$state/haul.lock")
      # Bounded: 60 s for the daemon to answer with every task (haul list talks to it).
      held=0
      for _ in $(seq 1 600); do
        held=$("$bin/haul" list --json --state-dir "$state" 2>/dev/null | grep -c '"state":"paused"' || true)
        [ "$held" -ge "$tasks" ] && break
        sleep 0.1
      done
      [ "$held" -ge "$tasks" ] || { echo "the haul daemon listed $held of $tasks paused tasks within 60 s"; exit 1; }
      ready=$(python3 -c "print(f'{$EPOCHREALTIME - $start:.2f}')")
      sleep "$settle"
      echo "haul daemon: $tasks paused tasks, answering with all of them ${ready} s after start"
      report "haul daemon (idle)" "$pid"
      "$bin/haul" stop --state-dir "$state" >/dev/null 2>&1 || true
      ;;
    aria2c)
      secret=$(python3 -c 'import secrets; print(secrets.token_hex(16))')
      rpc_port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
      start=$EPOCHREALTIME
      aria2c --no-conf -q --enable-rpc --rpc-listen-port="$rpc_port" --rpc-secret="$secret" --pause=true \
        --file-allocation=none -d "$root/dl-aria2c" -i "$root/list.txt" >"$root/aria2c.out" 2>&1 &
      aria2_pid=$!
      # Bounded: 60 s for aria2c to hold every task (getGlobalStat's numWaiting counts paused ones too).
      python3 - "$rpc_port" "$secret" "$tasks" <<'PY' || { echo "aria2c did not hold $tasks paused tasks within 60 s"; exit 1; }
import json, sys, time, urllib.request
port, secret, tasks = int(sys.argv[1]), sys.argv[2], int(sys.argv[3])
give_up = time.monotonic() + 60
while time.monotonic() < give_up:
    try:
        body = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "aria2.getGlobalStat", "params": [f"token:{secret}"]})
        request = urllib.request.Request(f"http://127.0.0.1:{port}/jsonrpc", body.encode(), {"Content-Type": "application/json"})
        with urllib.request.urlopen(request, timeout=5) as response:
            stat = json.loads(response.read())["result"]
        if int(stat["numWaiting"]) >= tasks and int(stat["numActive"]) == 0:
            sys.exit(0)
    except OSError:
        pass
    time.sleep(0.2)
sys.exit(1)
PY
      ready=$(python3 -c "print(f'{$EPOCHREALTIME - $start:.2f}')")
      sleep "$settle"
      echo "aria2c (--enable-rpc --pause=true -i): $tasks paused tasks, all held ${ready} s after start"
      report "aria2c (idle)" "$aria2_pid"
      kill "$aria2_pid" 2>/dev/null; wait "$aria2_pid" 2>/dev/null || true; aria2_pid=""
      ;;
  esac
  echo
done
echo "bytes the server sent meanwhile: $(sent) (0: every task stayed paused)"
