#!/usr/bin/env bash
# DASH beside yt-dlp (issue 26): one DASH stream ffmpeg makes (SegmentTemplate by number, 2 s segments, H.264 and
# AAC), served by nginx on loopback; haul -s 8 and yt-dlp --concurrent-fragments 8 each fetch the best video and its
# audio and mux them into one MP4 (both with ffmpeg -c copy), interleaved, under bench/measure.py: wall, CPU
# (user+sys) and peak RSS. Both files are checked with ffprobe for two streams and the stream's length.
#
# Usage: bench/dash.sh BIN_DIR      (BIN_DIR holds haul; release build)
# Env: DASH_SECONDS (600), DASH_ROUNDS (3), DASH_CONNECTIONS (8), DASH_DIR (/dev/shm/haul-dash),
#      STREAM_VENV (~/.cache/haul-bench/yt-dlp-venv), YTDLP_VERSION (2026.10.26)
# Goals: haul's wall ≤ 0.9 × yt-dlp's, its CPU ≤ 0.5 × yt-dlp's.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
[ $# -ge 1 ] || { echo "usage: bench/dash.sh BIN_DIR" >&2; exit 2; }
bin="$(cd "$1" && pwd)"
here="$(cd "$(dirname "$0")" && pwd)"
seconds="${DASH_SECONDS:-600}"
rounds="${DASH_ROUNDS:-3}"
n="${DASH_CONNECTIONS:-8}"
root="${DASH_DIR:-/dev/shm/haul-dash}"
venv="${STREAM_VENV:-$HOME/.cache/haul-bench/yt-dlp-venv}"
require_tools python3 ffmpeg ffprobe nginx
if ! "$venv/bin/yt-dlp" --version >/dev/null 2>&1; then
  echo "installing yt-dlp ${YTDLP_VERSION:-2026.10.26} into $venv"
  python3 -m venv "$venv"
  "$venv/bin/pip" install --quiet --disable-pip-version-check "yt-dlp==${YTDLP_VERSION:-2026.10.26}"
fi

rm -rf "$root"; mkdir -p "$root/www/dash" "$root/out" "$root/logs" "$root/nginx"
nginx_pid=""
cleanup() { [ -n "$nginx_pid" ] && kill "$nginx_pid" 2>/dev/null; rm -rf "$root"; }
trap cleanup EXIT

echo "making $seconds s of DASH with ffmpeg"
ffmpeg -nostdin -v error -f lavfi -i "testsrc=size=640x360:rate=25" -f lavfi -i "sine=frequency=440:sample_rate=48000" \
  -t "$seconds" -map 0:v -map 1:a -c:v libx264 -preset ultrafast -g 50 -sc_threshold 0 -pix_fmt yuv420p -b:v 800k \
  -c:a aac -b:a 96k -f dash -seg_duration 2 -use_template 1 -use_timeline 0 "$root/www/dash/manifest.mpd"

port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
cat >"$root/nginx/nginx.conf" <<CONF
daemon off; worker_processes 1; pid $root/nginx/nginx.pid; error_log $root/nginx/error.log;
events {}
http {
  access_log off; sendfile on; keepalive_requests 100000;
  types { application/dash+xml mpd; video/iso.segment m4s; }
  client_body_temp_path $root/nginx; proxy_temp_path $root/nginx; fastcgi_temp_path $root/nginx;
  uwsgi_temp_path $root/nginx; scgi_temp_path $root/nginx;
  server { listen 127.0.0.1:$port; root $root/www; }
}
CONF
nginx -c "$root/nginx/nginx.conf" -p "$root/nginx" &
nginx_pid=$!
for _ in $(seq 1 200); do curl -s -o /dev/null "http://127.0.0.1:$port/dash/manifest.mpd" && break; sleep 0.05; done  # bounded: 10 s
url="http://127.0.0.1:$port/dash/manifest.mpd"

: >"$root/results.tsv"
for round in $(seq 1 "$rounds"); do
  for tool in haul yt-dlp; do
    rm -rf "$root/out"; mkdir -p "$root/out"
    file="$root/out/$tool.mp4"
    case "$tool" in
      haul)   cmd=("$bin/haul" --headless --state-dir "$root/out/state" -d "$root/out" -o "$tool.mp4" -s "$n" "$url") ;;
      yt-dlp) cmd=("$venv/bin/yt-dlp" --quiet --no-progress --no-cache-dir --concurrent-fragments "$n" -f "bv+ba"
                --merge-output-format mp4 -o "$file" "$url") ;;
    esac
    printf 'round %s  %-7s ' "$round" "$tool"
    line=$("$here/measure.py" --timeout 900 --stderr "$root/logs/$tool-$round.err" -- "${cmd[@]}") \
      || { echo "failed:"; tail -5 "$root/logs/$tool-$round.err"; exit 1; }
    streams=$(ffprobe -v error -show_entries format=nb_streams -of csv=p=0 "$file")
    length=$(ffprobe -v error -show_entries format=duration -of csv=p=0 "$file")
    python3 -c "import sys; sys.exit(0 if abs(float('$length') - $seconds) < 1 and '$streams' == '2' else 1)" \
      || { echo "$tool wrote $streams streams of $length s"; exit 1; }
    echo "$line"
    printf '%s\t%s\t%s\n' "$tool" "$round" "$line" >>"$root/results.tsv"
  done
done

python3 - "$root/results.tsv" "$seconds" <<'PY'
import statistics, sys
path, seconds = sys.argv[1:]
rows = [line.rstrip("\n").split("\t") for line in open(path) if line.strip()]
figures = {}
for tool in ("haul", "yt-dlp"):
    picked = [r[2].split() for r in rows if r[0] == tool]
    figures[tool] = (statistics.median(float(p[0]) for p in picked),
                     statistics.median(float(p[1]) + float(p[2]) for p in picked),
                     statistics.median(int(p[3]) for p in picked) / 1024)
print()
print(f"DASH: {seconds} s, 2 s segments, video and audio muxed into MP4 by both")
print(f"{'tool':7} {'wall s':>8} {'CPU s':>7} {'RSS MiB':>8} {'wall/yt-dlp':>12} {'CPU/yt-dlp':>11} {'RSS/yt-dlp':>11}")
ref = figures["yt-dlp"]
for tool, (wall, cpu, rss) in figures.items():
    ratios = f"{wall / ref[0]:11.2f}× {cpu / ref[1]:10.2f}× {rss / ref[2]:10.2f}×" if tool != "yt-dlp" else f"{'—':>12} {'—':>11} {'—':>11}"
    print(f"{tool:7} {wall:8.2f} {cpu:7.2f} {rss:8.1f} {ratios}")
print("goals: haul wall ≤ 0.90× yt-dlp, CPU ≤ 0.50× yt-dlp")
PY
