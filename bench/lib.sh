# Shared by the bench scripts (sourced, not run): checking the tools and starting haul-fault-server.

# require_tools TOOL...: exits 2 naming the first one missing (haul, the binary under test, is not looked up).
require_tools() {
  for tool in "$@"; do
    [ "$tool" = haul ] && continue
    command -v "$tool" >/dev/null || { echo "missing $tool: run scripts/install-deps.sh --bench" >&2; exit 2; }
  done
}

# start_fault_server BIN_DIR DIR LIFETIME_S: starts haul-fault-server with its port file and log in DIR; sets
# server_pid, port and base (http://127.0.0.1:PORT). Waits at most 10 s for it.
start_fault_server() {
  "$1/haul-fault-server" --port-file "$2/port" --lifetime "$3" >"$2/server.out" 2>&1 &
  server_pid=$!
  for _ in $(seq 1 200); do [ -s "$2/port" ] && break; sleep 0.05; done   # bounded: 10 s
  [ -s "$2/port" ] || { echo "haul-fault-server did not start"; cat "$2/server.out"; exit 1; }
  port=$(cat "$2/port")
  base="http://127.0.0.1:$port"
}
