#!/usr/bin/env bash
# Servers that punish extra requests, on a real nginx (loopback): haul -s N beside aria2c -xN and axel -n N.
#   signed:   a `secure_link` link valid for RATION_VALID (6) s, every request at RATION_SIGNED_RATE (1m): the file
#             outlives its link, so a tool that asks again after that gets 410 (the link is checked per request).
#   rationed: `limit_req` RATION_RPS (2) requests a second, burst RATION_BURST (10), each request at
#             RATION_LIMITED_RATE (2m): a tool that asks often gets 503s.
#   plain:    no limit at all, for the bytes served at -s N (goal ≤ 1.02×).
# For each: wall time, requests, refusals (410 or 503), bytes served / file size (the bodies of 2xx answers, from
# nginx's access log), and haul's wall time over the best of aria2c and axel. Every file is compared with the source.
# Usage: bench/rationed.sh BIN_DIR     Env: RATION_SIZE (100m), RATION_SPLITS ("4 8"), RATION_TOOLS ("haul aria2c axel"),
#        RATION_CASES ("signed rationed plain"), RATION_DIR (/dev/shm/haul-rationed), RATION_TIMEOUT (300 s per download)
set -euo pipefail
. "$(dirname "$0")/lib.sh"
[ $# -ge 1 ] || { echo "usage: bench/rationed.sh BIN_DIR" >&2; exit 2; }
bin="$(cd "$1" && pwd)"
size="${RATION_SIZE:-100m}"
read -r -a splits <<<"${RATION_SPLITS:-4 8}"
read -r -a tools <<<"${RATION_TOOLS:-haul aria2c axel}"
valid="${RATION_VALID:-6}"
limit="${RATION_TIMEOUT:-300}"
root="${RATION_DIR:-/dev/shm/haul-rationed}"
secret="bench-secret"
require_tools "${tools[@]}" nginx openssl python3
rm -rf "$root"; mkdir -p "$root/www/signed" "$root/www/rationed" "$root/www/plain" "$root/logs" "$root/out"
trap 'kill "$(cat "$root/nginx.pid" 2>/dev/null)" 2>/dev/null || true; rm -rf "$root"' EXIT

bytes=$(python3 -c 'import sys; t=sys.argv[1].lower(); m={"k":1<<10,"m":1<<20,"g":1<<30}; print(int(t[:-1])*m[t[-1]] if t[-1] in m else int(t))' "$size")
head -c "$bytes" /dev/urandom >"$root/source.bin"
for dir in signed rationed plain; do ln "$root/source.bin" "$root/www/$dir/file.bin"; done
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
cat >"$root/nginx.conf" <<CONF
daemon on; worker_processes 1; pid $root/nginx.pid; error_log $root/logs/error.log;
events { worker_connections 256; }
http {
  log_format bench '\$request_uri\t\$status\t\$body_bytes_sent';
  access_log $root/logs/access.log bench;
  sendfile on;
  limit_req_zone \$binary_remote_addr zone=bench:1m rate=${RATION_RPS:-2}r/s;
  server {
    listen 127.0.0.1:$port; root $root/www;
    location /signed/ {
      secure_link \$arg_md5,\$arg_expires;
      secure_link_md5 "\$secure_link_expires\$uri $secret";
      if (\$secure_link = "") { return 403; }
      if (\$secure_link = "0") { return 410; }
      limit_rate ${RATION_SIGNED_RATE:-1m};
    }
    location /rationed/ { limit_req zone=bench burst=${RATION_BURST:-10}; limit_rate ${RATION_LIMITED_RATE:-2m}; }
  }
}
CONF
nginx -c "$root/nginx.conf" -p "$root"
base="http://127.0.0.1:$port"

# link CASE TAG: a URL for CASE whose requests carry TAG (so each run's lines can be told apart in the log).
link() {
  local path="/$1/file.bin"
  if [ "$1" = signed ]; then
    local expires=$(( $(date +%s) + valid ))
    local hash; hash=$(printf '%s' "$expires$path $secret" | openssl md5 -binary | openssl base64 | tr '+/' '-_' | tr -d '=')
    echo "$base$path?md5=$hash&expires=$expires&run=$2"
  else
    echo "$base$path?run=$2"
  fi
}

# fetch TOOL N URL: one download with N connections into $root/out/file.bin.
fetch() {
  case "$1" in
    haul)   timeout -s INT -k 10 "$limit" "$bin/haul" --headless --retries 0 --state-dir "$root/out/state" -d "$root/out" \
              -o file.bin -s "$2" "$3" ;;
    aria2c) timeout "$limit" aria2c -q -x"$2" -s"$2" --max-tries=1 --allow-overwrite=true --auto-file-renaming=false \
              --file-allocation=none --no-conf -d "$root/out" -o file.bin "$3" ;;
    axel)   timeout "$limit" axel -q -n "$2" -o "$root/out/file.bin" "$3" ;;
  esac
}

printf '%-9s %-7s %3s %9s %9s %9s %8s\n' case tool N "wall s" requests refused served
read -r -a cases <<<"${RATION_CASES:-signed rationed plain}"
for case in "${cases[@]}"; do
  for n in "${splits[@]}"; do
    declare -A walls=()
    for tool in "${tools[@]}"; do
      tag="$case-$tool-$n"
      rm -rf "$root/out"; mkdir -p "$root/out"
      url=$(link "$case" "$tag")
      start=$EPOCHREALTIME
      status=ok
      fetch "$tool" "$n" "$url" >"$root/logs/$tag.log" 2>&1 || status=failed
      end=$EPOCHREALTIME
      [ "$status" = ok ] && { cmp -s "$root/out/file.bin" "$root/source.bin" || status=corrupt; }
      sleep 1   # nginx writes a request's log line when its answer ends; the last ones end as the tool exits
      read -r requests refused served < <(python3 - "$root/logs/access.log" "run=$tag" "$bytes" <<'PY'
import sys
path, tag, total = sys.argv[1], sys.argv[2], int(sys.argv[3])
lines = [f for f in (l.rstrip("\n").split("\t") for l in open(path)) if f[0].endswith(tag)]
requests = len(lines)
refused = sum(1 for l in lines if l[1] in ("403", "410", "429", "503"))
served = sum(int(l[2]) for l in lines if l[1].startswith("2")) / total
print(requests, refused, f"{served:.3f}")
PY
)
      wall=$(python3 -c "print(f'{$end - $start:.2f}')")
      walls[$tool]=$wall
      printf '%-9s %-7s %3s %9s %9s %9s %8s\n' "$case" "$tool" "$n" "$([ "$status" = ok ] && echo "$wall" || echo "$status")" \
        "$requests" "$refused" "$served"
    done
    ref=""
    for t in aria2c axel; do
      [ -n "${walls[$t]:-}" ] || continue
      if [ -z "$ref" ] || python3 -c "import sys; sys.exit(0 if ${walls[$t]} < $ref else 1)"; then ref=${walls[$t]}; fi
    done
    [ -n "${walls[haul]:-}" ] && [ -n "$ref" ] && printf '%-9s haul -s %s: %s× the best of aria2c and axel\n' "$case" "$n" \
      "$(python3 -c "print(f'{${walls[haul]} / $ref:.2f}')")"
    unset walls
  done
done
