#!/usr/bin/env bash
# The long lecture (issue 26): an HLS stream of 3,000 one-second segments from a far server, every answer held
# 20 ms before its head (`delay=20` on haul-fault-server, loopback), as a CDN 20 ms away answers: haul -s 8 against
# yt-dlp --concurrent-fragments 8 and ffmpeg -i URL -c copy, under bench/measure.py (wall, CPU, peak RSS). Round
# trips, not bandwidth, decide it. haul's and yt-dlp's files are compared with a reference fetched without the delay.
#
# Usage: bench/lecture.sh BIN_DIR      (BIN_DIR holds haul and haul-fault-server; release build)
# Env: LECTURE_SEGMENTS (3000), LECTURE_SEGSIZE (32k), LECTURE_DELAY (20 ms), LECTURE_CONNECTIONS (8),
#      LECTURE_TOOLS ("haul yt-dlp ffmpeg"), LECTURE_DIR (/dev/shm/haul-lecture), STREAM_VENV, YTDLP_VERSION
# Measured on 2026-11-26 (issue 26): haul 8.3 s, yt-dlp 29.8 s, ffmpeg 62.9 s. The ideal is one round trip per segment
# on each of N connections (segments × delay ÷ N: 7.5 s). Goals: haul ≤ 1.15 × the ideal, and ≤ 0.6 × yt-dlp's wall.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
[ $# -ge 1 ] || { echo "usage: bench/lecture.sh BIN_DIR" >&2; exit 2; }
bin="$(cd "$1" && pwd)"
here="$(cd "$(dirname "$0")" && pwd)"
segments="${LECTURE_SEGMENTS:-3000}"
segsize="${LECTURE_SEGSIZE:-32k}"
delay="${LECTURE_DELAY:-20}"
n="${LECTURE_CONNECTIONS:-8}"
root="${LECTURE_DIR:-/dev/shm/haul-lecture}"
venv="${STREAM_VENV:-$HOME/.cache/haul-bench/yt-dlp-venv}"
read -r -a tools <<<"${LECTURE_TOOLS:-haul yt-dlp ffmpeg}"
require_tools python3 curl ffmpeg
if [[ " ${tools[*]} " == *" yt-dlp "* ]] && ! "$venv/bin/yt-dlp" --version >/dev/null 2>&1; then
  python3 -m venv "$venv"
  "$venv/bin/pip" install --quiet --disable-pip-version-check "yt-dlp==${YTDLP_VERSION:-2026.10.26}"
fi
rm -rf "$root"; mkdir -p "$root/out" "$root/logs"
server_pid=""
cleanup() { [ -n "$server_pid" ] && kill "$server_pid" 2>/dev/null; rm -rf "$root"; }
trap cleanup EXIT
start_fault_server "$bin" "$root/logs" 7200
query="segments=$segments&segsize=$segsize&ts=1&duration=1&seed=7"

# The reference: every segment without the delay, on one kept-alive curl.
for i in $(seq 0 $((segments - 1))); do echo "url = \"$base/hls/ref/seg$i.ts?$query\""; done >"$root/ref.curl"
curl -sS --noproxy '*' -K "$root/ref.curl" >"$root/ref.ts"

: >"$root/results.tsv"
for tool in "${tools[@]}"; do
  url="$base/hls/$tool/index.m3u8?$query&delay=$delay"
  file="$root/out/$tool.ts"
  case "$tool" in
    haul)   cmd=("$bin/haul" --headless --state-dir "$root/out/state" -d "$root/out" -o "$tool.ts" -s "$n" "$url") ;;
    yt-dlp) cmd=("$venv/bin/yt-dlp" --quiet --no-progress --no-cache-dir --concurrent-fragments "$n" --hls-use-mpegts
              --fixup never -o "$file" "$url") ;;
    ffmpeg) cmd=(ffmpeg -nostdin -hide_banner -v error -i "$url" -map 0 -c copy -f mpegts -y "$file") ;;
  esac
  printf '%-7s ' "$tool"
  line=$("$here/measure.py" --timeout 900 --stderr "$root/logs/$tool.err" -- "${cmd[@]}") \
    || { echo "failed:"; tail -5 "$root/logs/$tool.err"; exit 1; }
  if [ "$tool" != ffmpeg ]; then cmp -s "$file" "$root/ref.ts" || { echo "$tool wrote a different file"; exit 1; }; fi
  echo "$line"
  printf '%s\t%s\n' "$tool" "$line" >>"$root/results.tsv"
done

python3 - "$root/results.tsv" "$segments" "$delay" "$n" <<'PY'
import sys
path, segments, delay, n = sys.argv[1:]
ideal = int(segments) * int(delay) / 1000 / int(n)
rows = {r[0]: r[1].split() for r in (line.rstrip("\n").split("\t") for line in open(path) if line.strip())}
print()
print(f"lecture: {segments} one-second segments, every answer {delay} ms away; ideal over {n} connections {ideal:.1f} s")
print(f"{'tool':7} {'wall s':>8} {'CPU s':>7} {'RSS MiB':>8} {'wall/yt-dlp':>12} {'CPU/yt-dlp':>11}")
ref = rows.get("yt-dlp")
for tool, p in rows.items():
    wall, cpu, rss = float(p[0]), float(p[1]) + float(p[2]), int(p[3]) / 1024
    ratios = f"{wall / float(ref[0]):11.2f}× {cpu / (float(ref[1]) + float(ref[2])):10.2f}×" if ref and tool != "yt-dlp" else f"{'—':>12} {'—':>11}"
    print(f"{tool:7} {wall:8.2f} {cpu:7.2f} {rss:8.1f} {ratios}")
print(f"goals: haul wall ≤ 1.15× ideal ({1.15 * ideal:.1f} s), ≤ 0.60× yt-dlp")
PY
