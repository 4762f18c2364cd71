#!/usr/bin/env bash
# Segmented downloads from a server that caps every connection: haul vs aria2c -x8 vs axel -n8 vs curl,
# interleaved in one run against haul-fault-server (loopback), equal caps and unequal caps.
#
# Usage: bench/segmented.sh BIN_DIR [--big]      (BIN_DIR holds haul and haul-fault-server; release build)
#   --big     also 1 GiB (each single-connection tool then needs about 4 minutes per case)
# Env: SEG_SIZES ("100m"), SEG_ROUNDS (1), SEG_DIR (/dev/shm/haul-segmented), SEG_CAP (4m), SEG_SLOW_CAP (1m), SEG_CONNECTIONS (8),
#      SEG_TOOLS ("aria2c axel curl haul"; leave curl out for a quicker 1 GiB run), SEG_TIMEOUT (900 s per download)
#
# Equal: every connection 4 MiB/s (conncap). Unequal: connections get 4 and 1 MiB/s in turn (conncaps).
# E = size / (time × N × cap), where N × cap is the sum of the caps of N connections (N = 8); the ideal time is
# size / (N × cap). Requests and connections come from the server's /stats page for each run's own path.
# served: body bytes the server sent for the run / file size (1.00 = no byte fetched twice or thrown away).
# open ms: from the run's first response head to the first response head of its last connection (server clock,
# /stats?times=1); how long the tool takes to have all its connections flowing. Not shown for curl (one connection).
#
# Mirrors (issue 14): the same file on two haul-fault-server instances, one capping each connection at
# MIRROR_FAST_CAP (2m), the other at MIRROR_SLOW_CAP (1m); haul gets `-s N --mirror` (N connections on each),
# aria2c the two URIs with -xN -s2N. The second server is named `localhost` (MIRROR_HOST), so both tools see two
# hosts and each allows N connections to each (aria2c's -x and haul's --max-host-connections count per host
# name). The ideal time is size / (N × fast + N × slow); goal ≤ 1.05×. Env: MIRROR_SIZE (200m), MIRROR_ROUNDS
# (SEG_ROUNDS), SEG_MIRROR_ONLY=1 runs only this case.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
[ $# -ge 1 ] || { echo "usage: bench/segmented.sh BIN_DIR [--big]" >&2; exit 2; }
bin="$(cd "$1" && pwd)"
big=0; [ "${2:-}" = "--big" ] && big=1
rounds="${SEG_ROUNDS:-1}"
root="${SEG_DIR:-/dev/shm/haul-segmented}"
cap="${SEG_CAP:-4m}"
slow="${SEG_SLOW_CAP:-1m}"
n="${SEG_CONNECTIONS:-8}"
limit="${SEG_TIMEOUT:-900}"
read -r -a tools <<<"${SEG_TOOLS:-aria2c axel curl haul}"
require_tools "${tools[@]}" python3

rm -rf "$root"; mkdir -p "$root/out" "$root/logs"
server_pid=""; mirror_pid=""
cleanup() { [ -n "$server_pid" ] && kill "$server_pid" 2>/dev/null; [ -n "$mirror_pid" ] && kill "$mirror_pid" 2>/dev/null; rm -rf "$root"; }
# Bounded: every download gets at most $limit seconds (haul gets SIGINT first, so it saves its state).
trap cleanup EXIT

mkdir -p "$root/logs/mirror"
start_fault_server "$bin" "$root/logs/mirror" 14400
mirror_pid=$server_pid; mirror_base=$base
start_fault_server "$bin" "$root/logs" 14400

# bytes SIZE_TEXT: the size in bytes (k, m, g are 1024-based, as the server reads them).
bytes() { python3 -c 'import sys; t=sys.argv[1].lower(); m={"k":1<<10,"m":1<<20,"g":1<<30}; print(int(t[:-1])*m[t[-1]] if t[-1] in m else int(t))' "$1"; }

read -r -a sizes <<<"${SEG_SIZES:-100m}"; [ "$big" = 1 ] && sizes+=(1g)
cases=("equal:conncap=$cap" "unequal:conncaps=$cap,$slow")

# Reference copies, fetched uncapped, to check every tool's file.
for size in "${sizes[@]}"; do
  curl -sS --noproxy '*' -m "$limit" -o "$root/ref-$size.bin" "$base/gen/ref-$size.bin?size=$size&seed=7"
done

# fetch TOOL URL FILE: one download into FILE with TOOL's segmented settings.
fetch() {
  local tool="$1" url="$2" file="$3"
  case "$tool" in
    aria2c) timeout "$limit" aria2c -q -x"$n" -s"$n" -k1M --allow-overwrite=true --auto-file-renaming=false \
              --file-allocation=none --no-conf -d "$(dirname "$file")" -o "$(basename "$file")" "$url" ;;
    axel)   timeout "$limit" axel -q -n "$n" -o "$file" "$url" ;;
    curl)   curl -sS --noproxy '*' -m "$limit" -o "$file" "$url" ;;
    haul)   timeout -s INT -k 10 "$limit" "$bin/haul" --headless --state-dir "$root/out/state" -d "$(dirname "$file")" -o "$(basename "$file")" \
              -s "$n" "$url" ;;
  esac
}

: >"$root/results.tsv"
[ "${SEG_MIRROR_ONLY:-0}" = 1 ] && rounds=0
for round in $(seq 1 "$rounds"); do
  for size in "${sizes[@]}"; do
    for entry in "${cases[@]}"; do
      label="${entry%%:*}"; query="${entry#*:}"
      for tool in "${tools[@]}"; do
        name="$tool-$label-$size-$round.bin"
        rm -rf "$root/out"; mkdir -p "$root/out"
        url="$base/gen/$name?size=$size&seed=7&$query"
        printf 'round %s  %-5s %-8s %-7s ' "$round" "$size" "$label" "$tool"
        start=$EPOCHREALTIME
        fetch "$tool" "$url" "$root/out/$name" >"$root/logs/$name.log" 2>&1 \
          || { echo "failed:"; tail -5 "$root/logs/$name.log"; exit 1; }
        end=$EPOCHREALTIME
        cmp -s "$root/out/$name" "$root/ref-$size.bin" || { echo "$tool wrote a different file"; exit 1; }
        stats=$(curl -sS --noproxy '*' -m 10 "$base/stats?path=/gen/$name&times=1")
        wall=$(python3 -c "print(f'{$end - $start:.3f}')")
        echo "$wall s"
        printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$size" "$label" "$tool" "$round" "$wall" "$stats" >>"$root/results.tsv"
      done
    done
  done
done

[ "${SEG_MIRROR_ONLY:-0}" = 1 ] || python3 - "$root/results.tsv" "$n" "$(bytes "$cap")" "$(bytes "$slow")" "${sizes[@]}" <<'PY'
import json, statistics, sys
path, n, cap, slow, *sizes = sys.argv[1:]
n, cap, slow = int(n), int(cap), int(slow)
rows = [line.rstrip("\n").split("\t") for line in open(path) if line.strip()]
mib = 1 << 20
def size_bytes(text):
    m = {"k": 1 << 10, "m": 1 << 20, "g": 1 << 30}
    return int(text[:-1]) * m[text[-1]] if text[-1] in m else int(text)
# The sum of the caps of n connections: equal n × cap; unequal alternates cap and slow.
caps = {"equal": n * cap, "unequal": sum(cap if i % 2 == 0 else slow for i in range(n))}
print()
print(f"{'size':>5} {'case':8} {'tool':7} {'wall s':>8} {'ideal s':>8} {'E':>6} {'requests':>9} {'conns':>6} {'served':>7} "
      f"{'open ms':>8}  {'vs best ref':>11}")
for size in sizes:
    total = size_bytes(size)
    for case in ("equal", "unequal"):
        ideal = total / caps[case]
        walls = {}
        for tool in ("aria2c", "axel", "curl", "haul"):
            picked = [r for r in rows if r[0] == size and r[1] == case and r[2] == tool]
            if not picked:
                continue
            wall = statistics.median(float(r[4]) for r in picked)
            stats = [json.loads(r[5]) for r in picked]
            requests = statistics.median(s["requests"] for s in stats)
            conns = statistics.median(s["connections"] for s in stats)
            served = statistics.median(s["bodyBytesSent"] / total for s in stats)
            opens = [(max(s["firstHeadTimes"]) - min(s["firstHeadTimes"])) * 1000 for s in stats if s["firstHeadTimes"]]
            open_ms = f"{statistics.median(opens):8.0f}" if tool != "curl" and opens else f"{'—':>8}"
            walls[tool] = (wall, requests, conns, served, open_ms)
        refs = [walls[t][0] for t in ("aria2c", "axel") if t in walls]
        best_ref = min(refs) if refs else float("nan")
        for tool, (wall, requests, conns, served, open_ms) in walls.items():
            e = total / (wall * caps[case])
            print(f"{size:>5} {case:8} {tool:7} {wall:8.2f} {ideal:8.2f} {e:6.2f} {requests:9.0f} {conns:6.0f} {served:7.3f} "
                  f"{open_ms}  " + (f"{wall / best_ref:10.2f}×" if refs else f"{'—':>11}"))
    print(f"      caps: equal {n} × {cap / mib:g} MiB/s = {caps['equal'] / mib:g} MiB/s; "
          f"unequal {n // 2 + n % 2} × {cap / mib:g} + {n // 2} × {slow / mib:g} MiB/s = {caps['unequal'] / mib:g} MiB/s")
PY

# --- Mirrors: one file on two servers with different per-connection caps.
msize="${MIRROR_SIZE:-200m}"
mfast="${MIRROR_FAST_CAP:-2m}"
mslow="${MIRROR_SLOW_CAP:-1m}"
curl -sS --noproxy '*' -m "$limit" -o "$root/ref-mirror.bin" "$base/gen/ref-mirror.bin?size=$msize&seed=7"
: >"$root/mirrors.tsv"
for round in $(seq 1 "${MIRROR_ROUNDS:-${SEG_ROUNDS:-1}}"); do
  for tool in haul aria2c; do
    name="$tool-mirror-$msize-$round.bin"
    rm -rf "$root/out"; mkdir -p "$root/out"
    fast_url="$base/gen/$name?size=$msize&seed=7&conncap=$mfast"
    slow_url="${mirror_base/127.0.0.1/${MIRROR_HOST:-localhost}}/gen/$name?size=$msize&seed=7&conncap=$mslow"
    printf 'round %s  %-5s mirrors  %-7s ' "$round" "$msize" "$tool"
    start=$EPOCHREALTIME
    case "$tool" in
      haul)   timeout -s INT -k 10 "$limit" "$bin/haul" --headless --state-dir "$root/out/state" -d "$root/out" -o "$name" \
                -s "$n" --max-host-connections "$n" --mirror "$slow_url" "$fast_url" ;;
      aria2c) timeout "$limit" aria2c -q -x"$n" -s$((2 * n)) -k1M --allow-overwrite=true --auto-file-renaming=false \
                --file-allocation=none --no-conf -d "$root/out" -o "$name" "$fast_url" "$slow_url" ;;
    esac >"$root/logs/$name.log" 2>&1 || { echo "failed:"; tail -5 "$root/logs/$name.log"; exit 1; }
    end=$EPOCHREALTIME
    cmp -s "$root/out/$name" "$root/ref-mirror.bin" || { echo "$tool wrote a different file"; exit 1; }
    fast_stats=$(curl -sS --noproxy '*' -m 10 "$base/stats?path=/gen/$name")
    slow_stats=$(curl -sS --noproxy '*' -m 10 "$mirror_base/stats?path=/gen/$name")
    echo "$(python3 -c "print(f'{$end - $start:.3f}')") s"
    printf '%s\t%s\t%s\t%s\t%s\n' "$tool" "$round" "$(python3 -c "print($end - $start)")" "$fast_stats" "$slow_stats" >>"$root/mirrors.tsv"
  done
done

python3 - "$root/mirrors.tsv" "$n" "$(bytes "$msize")" "$(bytes "$mfast")" "$(bytes "$mslow")" "$msize" <<'PY'
import json, statistics, sys
path, n, total, fast, slow, label = sys.argv[1:]
n, total, fast, slow = int(n), int(total), int(fast), int(slow)
rows = [line.rstrip("\n").split("\t") for line in open(path) if line.strip()]
ideal = total / (n * fast + n * slow)
mib = 1 << 20
print()
print(f"{'size':>5} {'case':8} {'tool':7} {'wall s':>8} {'ideal s':>8} {'× ideal':>8} {'conns fast+slow':>16} {'MiB fast/slow':>14} {'served':>7}")
for tool in ("haul", "aria2c"):
    picked = [r for r in rows if r[0] == tool]
    if not picked:
        continue
    wall = statistics.median(float(r[2]) for r in picked)
    fs = [json.loads(r[3]) for r in picked]
    ss = [json.loads(r[4]) for r in picked]
    conns = f"{statistics.median(s['connections'] for s in fs):.0f}+{statistics.median(s['connections'] for s in ss):.0f}"
    split = f"{statistics.median(s['bodyBytesSent'] for s in fs) / mib:.0f}/{statistics.median(s['bodyBytesSent'] for s in ss) / mib:.0f}"
    served = statistics.median((f["bodyBytesSent"] + s["bodyBytesSent"]) / total for f, s in zip(fs, ss))
    print(f"{label:>5} {'mirrors':8} {tool:7} {wall:8.2f} {ideal:8.2f} {wall / ideal:7.3f}× {conns:>16} {split:>14} {served:7.3f}")
print(f"      ideal: {n} × {fast / mib:g} MiB/s + {n} × {slow / mib:g} MiB/s = {(n * fast + n * slow) / mib:g} MiB/s")
PY
