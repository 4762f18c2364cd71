#!/usr/bin/env bash
# Runs the demo: starts haul-fault-server --demo on a free 127.0.0.1 port, opens haul on its queue in a
# fresh scratch state and download directory, and stops the server when haul ends (also on Ctrl-C).
# Without a terminal (or with --headless) haul runs headless and the script ends when the queue is done.
# Usage: scripts/demo.sh [--headless]   (make demo builds first; BIN_DIR overrides where the binaries are)
set -euo pipefail

cd "$(dirname "$0")/.."
bin="${BIN_DIR:-$(swift build --show-bin-path)}"
work="${TMPDIR:-/tmp}/haul-demo"
headless=()
[ "${1:-}" = "--headless" ] && headless=(--headless)

# A fresh queue each time, so the demo always tells the same story.
rm -rf "$work/state" "$work/downloads" "$work/server.out" "$work/server.port"
mkdir -p "$work/state" "$work/downloads"

# The lifetime is a safety net: the server goes away by itself even if this script is killed.
"$bin/haul-fault-server" --demo --lifetime 3600 --port-file "$work/server.port" >"$work/server.out" &
server=$!
stop_server() { kill "$server" 2>/dev/null || true; wait "$server" 2>/dev/null || true; }
trap stop_server EXIT
trap 'exit 130' INT TERM

# The port file appears once the routes are installed and the URLs printed; wait at most 10 s.
for _ in $(seq 100); do
  [ -s "$work/server.port" ] && break
  kill -0 "$server" 2>/dev/null || { echo "demo: the demo server did not start" >&2; exit 1; }
  sleep 0.1
done
[ -s "$work/server.port" ] || { echo "demo: the demo server did not start within 10 s" >&2; exit 1; }
mapfile -t urls < <(sed -n '/^demo urls:$/,$p' "$work/server.out" | tail -n +2)

echo "demo server on http://127.0.0.1:$(cat "$work/server.port") — files go to $work/downloads" >&2
status=0
"$bin/haul" "${urls[@]}" --state-dir "$work/state" -d "$work/downloads" -j 3 ${headless[@]+"${headless[@]}"} || status=$?
case $status in
  1) echo "demo finished: the 404 task failed on purpose; the files are in $work/downloads" >&2; exit 0 ;;
  *) exit "$status" ;;
esac
