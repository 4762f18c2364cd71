#!/bin/sh
# Starts the local demo server and runs haul on its queue (live list on a terminal, headless otherwise).
# Usage: scripts/demo.sh BIN_DIR [--headless]
set -eu
bin="$1"; shift
work="${HAUL_DEMO_DIR:-${TMPDIR:-/tmp}/haul-demo}"
mkdir -p "$work"
port_file="$work/port"
rm -f "$port_file"
"$bin/haul-fault-server" --demo --port-file "$port_file" --lifetime 3600 >"$work/server.log" 2>&1 &
server=$!
trap 'kill $server 2>/dev/null || true' EXIT INT TERM
i=0
while [ ! -s "$port_file" ]; do
  i=$((i + 1)); [ $i -gt 100 ] && { echo "demo server did not start; see $work/server.log" >&2; exit 1; }
  sleep 0.1
done
port=$(cat "$port_file")
urls=$(curl -fsS "http://127.0.0.1:$port/demo/urls.txt")
echo "demo server on http://127.0.0.1:$port — downloads go to $work/downloads, queue in $work/state"
# A fresh queue each time, so the demo always shows the same story.
rm -rf "$work/state" "$work/downloads"
# shellcheck disable=SC2086
status=0
"$bin/haul" --state-dir "$work/state" -d "$work/downloads" -j 3 "$@" $urls || status=$?
# One demo URL is a 404 on purpose, so "some task failed" (1) is the expected ending.
[ "$status" -eq 1 ] && echo "demo finished: the 404 task failed on purpose; files are in $work/downloads"
[ "$status" -eq 1 ] || exit "$status"
