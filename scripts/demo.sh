#!/usr/bin/env bash
# Runs the demo: starts haul-fault-server --demo on a free 127.0.0.1 port, opens haul on its queue in a
# fresh scratch state and download directory, and stops the server when haul ends (also on Ctrl-C) — or,
# after `d` in the list, once the background haul that took the queue over ends.
# Without a terminal (or with --headless) haul runs headless and the script ends when the queue is done.
# Usage: scripts/demo.sh [--headless]   (make demo builds first; BIN_DIR overrides where the binaries are)
set -euo pipefail

cd "$(dirname "$0")/.."
bin="${BIN_DIR:-$(swift build --show-bin-path)}"
work="${TMPDIR:-/tmp}/haul-demo"
headless=()
[ "${1:-}" = "--headless" ] && headless=(--headless)

# A fresh queue each time, so the demo always tells the same story (a background haul still holding the
# last demo's queue is stopped first).
if [ -e "$work/state/haul.lock" ] && ! flock -n "$work/state/haul.lock" true 2>/dev/null; then
  "$bin/haul" --state-dir "$work/state" stop >&2 || true
fi
rm -rf "$work/state" "$work/downloads" "$work/server.out" "$work/server.port"
mkdir -p "$work/state" "$work/downloads"

# The lifetime is a safety net: the server goes away by itself even if this script is killed.
"$bin/haul-fault-server" --demo --lifetime 3600 --port-file "$work/server.port" >"$work/server.out" &
server=$!
lock="$work/state/haul.lock"
stop_server() {
  # After `d` in the list a background haul goes on with the demo queue: the server stays up for it and
  # stops once that haul lets go of the queue (`haul stop`), or at its lifetime.
  if [ -e "$lock" ] && ! flock -n "$lock" true 2>/dev/null; then
    ( until flock -n "$lock" true 2>/dev/null; do sleep 1; done; kill "$server" 2>/dev/null ) >/dev/null 2>&1 &
    disown
    echo "demo: the server stays up for the background haul; \`$bin/haul --state-dir $work/state\` shows it," \
      "\`... stop\` ends both" >&2
    return
  fi
  kill "$server" 2>/dev/null || true; wait "$server" 2>/dev/null || true
}
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
