#!/usr/bin/env bash
# The overall download cap, measured at the server: three downloads at once, 4 connections each, under a 6 MiB/s
# cap on all of them together, from haul-fault-server. The script polls the server's /sent page (body bytes written
# so far, what of them the client has not taken from the server's send buffers, and the server's monotonic time)
# every second while a tool runs, and prints the bytes that left the server (written minus untaken) per 10 s window from second 4 on
# (the first seconds fill the sockets' buffers), each window's MiB/s and its deviation from the cap. On loopback a
# connection's send buffer grows to several MiB, which the server fills at once whatever the client reads: what it
# wrote is printed beside with CAP_SERIES=1. haul (-j 3 -s 4 --max-overall-download-limit 6M) and aria2c (--max-overall-download-limit=6M -x4 -s4 -j3)
# run in turn. The goal for haul: every window within −5 %…+2 % of the cap, and no second above +50 % (the busiest
# and the quietest second from second 4 are printed under each tool); the script only reports.
# Beside it, the client's view of the same window: the bytes the tool's process wrote (wchar of /proc/PID/io:
# the files, plus its small database or control-file writes; aria2c holds up to 16 MiB in its disk cache first),
# sampled with each poll. The two differ by what sits in the sockets' buffers on the way (several MiB a connection
# on loopback): a connection that opens fills its buffers at once, and a range the server has finished sending
# still drains at the client.
# The files are sized to last 4 s + the windows + 6 s at the cap (40 s with 3 windows); each is checked afterwards.
# Usage: bench/cap.sh BIN_DIR
# Env: CAP_RATE (6M, 1024-based as both tools read it), CAP_WINDOWS (3), CAP_TOOLS ("haul aria2c"),
#      CAP_DIR (/dev/shm/haul-cap), CAP_SERIES (1: also print each second's MiB/s as the server saw it)
set -euo pipefail
. "$(dirname "$0")/lib.sh"
[ $# -ge 1 ] || { echo "usage: bench/cap.sh BIN_DIR" >&2; exit 2; }
bin="$(cd "$1" && pwd)"
rate_text="${CAP_RATE:-6M}"
windows="${CAP_WINDOWS:-3}"
root="${CAP_DIR:-/dev/shm/haul-cap}"
read -r -a tools <<<"${CAP_TOOLS:-haul aria2c}"
require_tools "${tools[@]}" python3 curl
rm -rf "$root"; mkdir -p "$root/out" "$root/logs"
server_pid=""
cleanup() { [ -n "$server_pid" ] && kill "$server_pid" 2>/dev/null; rm -rf "$root"; }
trap cleanup EXIT

start_fault_server "$bin" "$root/logs" 3600

rate=$(python3 -c 'import sys; t=sys.argv[1].upper(); m={"K":1<<10,"M":1<<20,"G":1<<30}; print(int(float(t[:-1])*m[t[-1]]) if t[-1] in m else int(t))' "$rate_text")
seconds=$((4 + 10 * windows + 6))
size=$((rate * seconds / 3 / 1024 * 1024))
echo "cap $rate_text = $rate B/s; 3 downloads × $((size >> 20)) MiB ($seconds s at the cap); windows of 10 s from second 4"
curl -sS --noproxy '*' -m 120 -o "$root/ref.bin" "$base/gen/ref.bin?size=$size&seed=7"

# watch TOOL CMD...: runs CMD (bounded: 3 × the planned time + 30 s), polling /sent every second; appends one JSON
# line to results (tool, start time, samples, wall, status).
watch() {
  local tool="$1"; shift
  python3 - "$port" "$tool" "$((3 * seconds + 30))" "$root/logs/$tool.log" "$@" >>"$root/results.jsonl" <<'PY'
import http.client, json, signal, subprocess, sys, time
port, tool, limit, log, command = int(sys.argv[1]), sys.argv[2], float(sys.argv[3]), sys.argv[4], sys.argv[5:]
child = None
def written_bytes():
    """Bytes the tool has written (wchar), None before it starts and once it has ended."""
    try:
        with open(f"/proc/{child.pid}/io") as io:
            return next(int(line.split()[1]) for line in io if line.startswith("wchar:"))
    except (AttributeError, OSError, StopIteration):
        return None
def sent():
    """[server time, body bytes that left the server, bytes the tool has written, body bytes the server wrote]"""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
    connection.request("GET", "/sent")
    answer = json.loads(connection.getresponse().read())
    connection.close()
    return [answer["time"], answer["bodyBytesSent"] - answer["untaken"], written_bytes(), answer["bodyBytesSent"]]
samples = [sent()]
samples[0][2] = 0
start = time.monotonic()   # CLOCK_MONOTONIC, the server's clock
with open(log, "wb") as output:
    child = subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=output, stderr=output)
    interrupted = False
    while True:
        try:
            status = child.wait(timeout=max(0, start + len(samples) - time.monotonic()))
            break
        except subprocess.TimeoutExpired:
            samples.append(sent())
            if time.monotonic() - start > limit and not interrupted:
                child.send_signal(signal.SIGINT)
                interrupted = True
            if time.monotonic() - start > limit + 10:
                child.kill()
    wall = time.monotonic() - start
samples.append(sent())
for earlier, sample in zip(samples, samples[1:]):   # after the exit, the last count the tool was seen with
    if sample[2] is None:
        sample[2] = earlier[2]
print(json.dumps({"tool": tool, "start": start, "wall": wall, "status": 124 if interrupted else status, "samples": samples}))
sys.exit(124 if interrupted else status)
PY
}

for tool in "${tools[@]}"; do
  rm -rf "$root/out"; mkdir -p "$root/out"
  urls=(); for i in 1 2 3; do urls+=("$base/gen/$tool-$i.bin?size=$size&seed=7"); done
  echo "running $tool ($seconds s planned)"
  case "$tool" in
    haul)   watch haul "$bin/haul" --headless --state-dir "$root/out/state" -d "$root/out" -j 3 -s 4 \
              --max-overall-download-limit "$rate_text" "${urls[@]}" ;;
    aria2c) printf '%s\n' "${urls[@]}" >"$root/list.txt"
            watch aria2c aria2c --no-conf -q --max-overall-download-limit="$rate_text" -x4 -s4 -j3 \
              --file-allocation=none --allow-overwrite=true -d "$root/out" -i "$root/list.txt" ;;
    *) echo "unknown tool $tool" >&2; exit 2 ;;
  esac || { echo "$tool failed or timed out:"; tail -5 "$root/logs/$tool.log"; exit 1; }
  for i in 1 2 3; do
    cmp -s "$root/out/$tool-$i.bin" "$root/ref.bin" || { echo "$tool: $tool-$i.bin differs"; tail -5 "$root/logs/$tool.log"; exit 1; }
  done
  conns=0
  for i in 1 2 3; do
    c=$(curl -sS --noproxy '*' -m 5 "$base/stats?path=/gen/$tool-$i.bin" | python3 -c 'import json, sys; print(json.load(sys.stdin)["connections"])')
    conns=$((conns + c))
  done
  echo "$tool $conns" >>"$root/connections.txt"
done

python3 - "$root/results.jsonl" "$root/connections.txt" "$rate" "$windows" "$size" "${CAP_SERIES:-0}" <<'PY'
import json, sys
results, connections, rate, windows, size = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5])
series = sys.argv[6] == "1"
mib = 1 << 20
conns = dict(line.split() for line in open(connections))
def bytes_at(samples, t, column=1):
    """Bytes sent (column 1) or written by the tool (2) by time t, interpolated between the polls around it."""
    for s0, s1 in zip(samples, samples[1:]):
        (t0, b0), (t1, b1) = (s0[0], s0[column]), (s1[0], s1[column])
        if t0 <= t <= t1:
            return b0 + (b1 - b0) * (t - t0) / (t1 - t0) if t1 > t0 else b1
    return samples[-1][column] if t > samples[-1][0] else samples[0][column]
print()
print(f"{'':17} {'left the server':^18} {'tool wrote':^18}")
print(f"{'tool':7} {'window':>9} {'MiB/s':>8} {'vs cap':>9} {'MiB/s':>8} {'vs cap':>9}")
for line in open(results):
    run = json.loads(line)
    samples, start, tool = run["samples"], run["start"], run["tool"]
    end = samples[-1][0]
    total = samples[-1][1] - samples[0][1]
    # The moment the last byte went: the first poll that saw the final count.
    finished = next(s[0] for s in samples if s[1] == samples[-1][1]) - start
    inside = 0
    for k in range(windows):
        a, b = start + 4 + 10 * k, start + 14 + 10 * k
        sent = bytes_at(samples, b) - bytes_at(samples, a)
        speed = sent / 10
        deviation = (speed / rate - 1) * 100
        wrote = (bytes_at(samples, b, 2) - bytes_at(samples, a, 2)) / 10
        ended = "" if finished >= b - start else f"  (all sent by {finished:.1f} s: the window is partly idle)"
        ok = -5 <= deviation <= 2
        inside += ok
        label = f"{4 + 10 * k}–{14 + 10 * k} s"
        print(f"{tool if k == 0 else '':7} {label:>9} {speed / mib:8.2f} {deviation:+7.1f} % {wrote / mib:8.2f} "
              f"{(wrote / rate - 1) * 100:+7.1f} %{'' if ok else '  outside (server)'}{ended}")
    # Each second from second 4 on, as it left the server (its polls are a second apart), until all was sent.
    seconds_sent = [(s1[1] - s0[1]) / (s1[0] - s0[0]) for s0, s1 in zip(samples, samples[1:])
                    if s1[0] > s0[0] and s0[0] >= start + 4 and s1[0] - start <= finished]
    if seconds_sent:
        top, low = max(seconds_sent), min(seconds_sent)
        print(f"{'':17} each second from 4 s: max {top / mib:.2f} MiB/s ({(top / rate - 1) * 100:+.0f} %, target ≤ +50 %"
              f"{'' if top <= 1.5 * rate else ': OVER'}), min {low / mib:.2f} MiB/s ({(low / rate - 1) * 100:+.0f} %)")
    overall = total / run["wall"]
    print(f"{'':17} wall {run['wall']:.1f} s, {total / mib:.0f} MiB sent ({total / (3 * size):.3f} × the files), "
          f"{overall / mib:.2f} MiB/s overall, {conns.get(tool, '?')} connections; "
          f"{inside} of {windows} windows within −5 %…+2 %")
    if series:
        for column, title in ((1, "left the server"), (3, "server wrote"), (2, "tool wrote")):
            steps = [(s1[column] - s0[column]) / (s1[0] - s0[0]) / mib for s0, s1 in zip(samples, samples[1:]) if s1[0] > s0[0]]
            print(f"{'':17} {title} each poll, MiB/s: " + " ".join(f"{x:.1f}" for x in steps))
PY
