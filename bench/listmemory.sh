#!/usr/bin/env bash
# Memory a background haul keeps after serving listings (issue 29): 10,000 paused tasks, `haul daemon`; RssAnon
# idle, after one `haul list`, and after three `aria2.tellWaiting(0, 1000)` over JSON-RPC, each read 3 s later.
# Target: <= 32 MiB RssAnon after the list and the three pages.
# Usage: bench/listmemory.sh BIN_DIR
# Env: BENCH_TASKS (10000), BENCH_RPC_PORT (16898), LIST_SETTLE (3 s)
set -euo pipefail
[ $# -ge 1 ] || { echo "usage: bench/listmemory.sh BIN_DIR" >&2; exit 2; }
bin="$(cd "$1" && pwd)"
tasks="${BENCH_TASKS:-10000}"
port="${BENCH_RPC_PORT:-16898}"
settle="${LIST_SETTLE:-3}"
root="$(mktemp -d /dev/shm/haul-listmem.XXXXXX)"
state="$root/state"
trap '"$bin/haul" stop --state-dir "$state" >/dev/null 2>&1 || true; rm -rf "$root"' EXIT

# Port 9 (discard) on loopback: paused before the daemon starts, so no task ever runs.
for i in $(seq 1 "$tasks"); do echo "http://127.0.0.1:9/file-$i.bin"; done >"$root/list.txt"
"$bin/haul" add --state-dir "$state" -d "$root/dl" -i "$root/list.txt" >/dev/null 2>&1
"$bin/haul" pause --all --state-dir "$state" >/dev/null 2>&1
printf 'bench-secret-0123456789\n' >"$root/secret"; chmod 600 "$root/secret"
"$bin/haul" daemon --state-dir "$state" -d "$root/dl" --rpc-listen "$port" --rpc-secret-file "$root/secret" >/dev/null
pid=$(head -1 "$state/haul.lock")
anon() { awk '/RssAnon/ {printf "%.1f", $2/1024}' "/proc/$pid/status"; }

# Bounded: 30 s for the daemon to answer with every task.
for _ in $(seq 1 300); do
  python3 - "$port" "$tasks" <<'PY' && break
import json, sys, urllib.request
port, tasks = int(sys.argv[1]), int(sys.argv[2])
body = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "aria2.getGlobalStat", "params": ["token:bench-secret-0123456789"]}).encode()
try:
    with urllib.request.urlopen(urllib.request.Request(f"http://127.0.0.1:{port}/jsonrpc", body), timeout=5) as r:
        sys.exit(0 if int(json.loads(r.read())["result"]["numWaiting"]) >= tasks else 1)
except OSError:
    sys.exit(1)
PY
  sleep 0.1
done
sleep "$settle"
idle=$(anon)
"$bin/haul" list --state-dir "$state" >/dev/null
sleep "$settle"
listed=$(anon)
python3 - "$port" <<'PY'
import json, sys, urllib.request
port = int(sys.argv[1])
for _ in range(3):
    body = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "aria2.tellWaiting", "params": ["token:bench-secret-0123456789", 0, 1000]}).encode()
    with urllib.request.urlopen(urllib.request.Request(f"http://127.0.0.1:{port}/jsonrpc", body), timeout=30) as r:
        assert len(json.loads(r.read())["result"]) == 1000
PY
sleep "$settle"
paged=$(anon)
echo "haul daemon, $tasks paused tasks, RssAnon: idle $idle MiB; after haul list $listed MiB;" \
  "after 3 x tellWaiting(0,1000) $paged MiB (target <= 32 MiB)"
