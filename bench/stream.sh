#!/usr/bin/env bash
# HLS streams (issue 15): haul -s 8 vs yt-dlp --concurrent-fragments 8 vs ffmpeg -i URL -c copy (one connection at a
# time), interleaved in one run on one generated stream from haul-fault-server (loopback): 480 segments × 1 MiB of
# MPEG-TS (`ts=1`, so ffmpeg can demux it), every TCP connection capped at 4 MiB/s across its keep-alive requests
# (`conncap`, as a CDN caps a connection); then the same stream uncapped.
#
# Usage: bench/stream.sh BIN_DIR      (BIN_DIR holds haul and haul-fault-server; release build)
# Env: STREAM_SEGMENTS (480), STREAM_SEGSIZE (1m), STREAM_CAP (4m), STREAM_CONNECTIONS (8), STREAM_ROUNDS (1),
#      STREAM_TOOLS ("haul yt-dlp ffmpeg"), STREAM_CASES ("capped uncapped"), STREAM_DIR (/dev/shm/haul-stream),
#      STREAM_TIMEOUT (900 s per download), STREAM_VENV (~/.cache/haul-bench/yt-dlp-venv), YTDLP_VERSION (2026.10.26)
#
# yt-dlp comes from PyPI into its own venv on first use (pip, pinned; kept for later runs). It runs its native HLS
# downloader with --hls-use-mpegts --fixup never, so its file is the segments end to end, like haul's; both are
# compared with a reference fetched by curl. ffmpeg remuxes (-map 0: the stream is a data stream), so its file is
# only checked for size.
# Each download runs under bench/measure.py: wall, CPU (user+sys) and peak RSS (the kernel's VmHWM).
# Goals: haul's wall ≤ 0.9 × yt-dlp's, its CPU ≤ 0.5 × yt-dlp's, and capped within 5 % of the ideal
# size ÷ (N × cap) (N = 8: 15 s for 480 MiB at 4 MiB/s).
set -euo pipefail
. "$(dirname "$0")/lib.sh"
[ $# -ge 1 ] || { echo "usage: bench/stream.sh BIN_DIR" >&2; exit 2; }
bin="$(cd "$1" && pwd)"
here="$(cd "$(dirname "$0")" && pwd)"
segments="${STREAM_SEGMENTS:-480}"
segsize="${STREAM_SEGSIZE:-1m}"
cap="${STREAM_CAP:-4m}"
n="${STREAM_CONNECTIONS:-8}"
rounds="${STREAM_ROUNDS:-1}"
root="${STREAM_DIR:-/dev/shm/haul-stream}"
limit="${STREAM_TIMEOUT:-900}"
venv="${STREAM_VENV:-$HOME/.cache/haul-bench/yt-dlp-venv}"
read -r -a tools <<<"${STREAM_TOOLS:-haul yt-dlp ffmpeg}"
read -r -a cases <<<"${STREAM_CASES:-capped uncapped}"
require_tools python3 curl
for tool in "${tools[@]}"; do [ "$tool" = ffmpeg ] && require_tools ffmpeg; done

# yt-dlp in a venv of its own, installed once.
if [[ " ${tools[*]} " == *" yt-dlp "* ]] && ! "$venv/bin/yt-dlp" --version >/dev/null 2>&1; then
  echo "installing yt-dlp ${YTDLP_VERSION:-2026.10.26} into $venv"
  python3 -m venv "$venv"
  "$venv/bin/pip" install --quiet --disable-pip-version-check "yt-dlp==${YTDLP_VERSION:-2026.10.26}"
fi

rm -rf "$root"; mkdir -p "$root/out" "$root/logs"
server_pid=""
cleanup() { [ -n "$server_pid" ] && kill "$server_pid" 2>/dev/null; rm -rf "$root"; }
trap cleanup EXIT
start_fault_server "$bin" "$root/logs" 14400

# bytes SIZE_TEXT: the size in bytes (k, m, g are 1024-based, as the server reads them).
bytes() { python3 -c 'import sys; t=sys.argv[1].lower(); m={"k":1<<10,"m":1<<20,"g":1<<30}; print(int(t[:-1])*m[t[-1]] if t[-1] in m else int(t))' "$1"; }
# Segments of ts=1 are whole 188-byte packets.
seg_bytes=$(( $(bytes "$segsize") / 188 * 188 ))
total=$(( seg_bytes * segments ))
query="segments=$segments&segsize=$segsize&ts=1"

# url NAME [CAP]: the playlist of stream NAME. `seed=7` gives every stream the same bytes whatever its name, while each
# run's own name keeps its requests apart on the server.
url() { echo "$base/hls/$1/index.m3u8?$query&seed=7${2:+&conncap=$2}"; }
# The reference: every segment, uncapped, on one kept-alive curl.
{
  for i in $(seq 0 $((segments - 1))); do echo "url = \"$base/hls/ref/seg$i.ts?$query&seed=7\""; done
} >"$root/ref.curl"
curl -sS --noproxy '*' -m "$limit" -K "$root/ref.curl" >"$root/ref.ts"
[ "$(stat -c %s "$root/ref.ts")" = "$total" ] || { echo "the reference has $(stat -c %s "$root/ref.ts") bytes, not $total"; exit 1; }

# command_for TOOL URL FILE: sets `cmd` to the command that downloads URL into FILE.
command_for() {
  local tool="$1" url="$2" file="$3"
  case "$tool" in
    haul)   cmd=("$bin/haul" --headless --state-dir "$root/out/state" -d "$(dirname "$file")" -o "$(basename "$file")" -s "$n" "$url") ;;
    yt-dlp) cmd=("$venv/bin/yt-dlp" --quiet --no-progress --no-cache-dir --concurrent-fragments "$n" --hls-use-mpegts
              --fixup never -o "$file" "$url") ;;
    ffmpeg) cmd=(ffmpeg -nostdin -hide_banner -v error -i "$url" -map 0 -c copy -f mpegts -y "$file") ;;
  esac
}

: >"$root/results.tsv"
for round in $(seq 1 "$rounds"); do
  for case in "${cases[@]}"; do
    for tool in "${tools[@]}"; do
      name="$tool-$case-$round"
      rm -rf "$root/out"; mkdir -p "$root/out"
      # `seed=7` makes every stream's bytes those of the reference whatever its name.
      link=$(url "$name" "$([ "$case" = capped ] && echo "$cap")")
      printf 'round %s  %-8s %-7s ' "$round" "$case" "$tool"
      command_for "$tool" "$link" "$root/out/$name.ts"
      line=$("$here/measure.py" --timeout "$limit" --stderr "$root/logs/$name.err" -- "${cmd[@]}") \
        || { echo "failed:"; tail -5 "$root/logs/$name.err"; exit 1; }
      if [ "$tool" = ffmpeg ]; then
        size=$(stat -c %s "$root/out/$name.ts")
        [ "$size" -ge $(( total * 9 / 10 )) ] || { echo "ffmpeg wrote only $size bytes"; exit 1; }
      else
        cmp -s "$root/out/$name.ts" "$root/ref.ts" || { echo "$tool wrote a different file"; exit 1; }
      fi
      echo "$line"
      printf '%s\t%s\t%s\t%s\n' "$case" "$tool" "$round" "$line" >>"$root/results.tsv"
    done
  done
done

python3 - "$root/results.tsv" "$total" "$n" "$(bytes "$cap")" "$segments" "$seg_bytes" <<'PY'
import statistics, sys
path, total, n, cap, segments, seg_bytes = sys.argv[1:]
total, n, cap = int(total), int(n), int(cap)
rows = [line.rstrip("\n").split("\t") for line in open(path) if line.strip()]
mib = 1 << 20
ideal = total / (n * cap)
print()
print(f"stream: {segments} segments × {int(seg_bytes) / mib:.2f} MiB = {total / mib:.0f} MiB; capped: each connection {cap / mib:g} MiB/s, "
      f"ideal {n} × cap = {ideal:.1f} s")
print(f"{'case':8} {'tool':7} {'wall s':>8} {'CPU s':>7} {'RSS MiB':>8} {'× ideal':>8} {'wall/yt-dlp':>12} {'CPU/yt-dlp':>11}")
for case in ("capped", "uncapped"):
    figures = {}
    for tool in ("haul", "yt-dlp", "ffmpeg"):
        picked = [r[3].split() for r in rows if r[0] == case and r[1] == tool]
        if not picked:
            continue
        wall = statistics.median(float(p[0]) for p in picked)
        cpu = statistics.median(float(p[1]) + float(p[2]) for p in picked)
        rss = statistics.median(int(p[3]) for p in picked) / 1024
        figures[tool] = (wall, cpu, rss)
    ref = figures.get("yt-dlp")
    for tool, (wall, cpu, rss) in figures.items():
        times_ideal = f"{wall / ideal:7.2f}×" if case == "capped" else f"{'—':>8}"
        ratios = f"{wall / ref[0]:11.2f}× {cpu / ref[1]:10.2f}×" if ref and tool != "yt-dlp" else f"{'—':>12} {'—':>11}"
        print(f"{case:8} {tool:7} {wall:8.2f} {cpu:7.2f} {rss:8.1f} {times_ideal} {ratios}")
print("goals: haul wall ≤ 0.90× yt-dlp, CPU ≤ 0.50× yt-dlp; capped haul ≤ 1.05× ideal")
PY
