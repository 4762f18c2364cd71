#!/usr/bin/env bash
# Installs the Debian packages haul builds and tests against, when any is missing.
set -euo pipefail
packages=(libcurl4-openssl-dev libncurses-dev libsqlite3-dev libssl-dev nginx tmux curl openssl tinyproxy microsocks man-db ffmpeg strace)
[ "${1:-}" = "--bench" ] && packages+=(aria2 axel hyperfine)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
sudo=""; [ "$(id -u)" -ne 0 ] && sudo="sudo"
if [ ${#missing[@]} -gt 0 ]; then
  echo "installing: ${missing[*]}"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi
# The WebSocket client the RPC tests speak through (the library aria2p uses), pinned; Debian's package if pip is refused.
if ! python3 -c 'import websocket' 2>/dev/null; then
  echo "installing: websocket-client (Python)"
  python3 -m pip install --quiet --disable-pip-version-check websocket-client==1.9.2 2>/dev/null || {
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends python3-websocket
  }
fi
# aria2p with its `top` view, pinned: the aria2 client the RPC conformance tests drive unchanged (skipped without it).
if ! python3 -c 'import asciimatics, importlib.metadata as m; assert m.version("aria2p") == "0.12.1"' 2>/dev/null; then
  echo "installing: aria2p[tui]==0.12.1 (Python)"
  python3 -m pip install --quiet --disable-pip-version-check --root-user-action=ignore 'aria2p[tui]==0.12.1' websocket-client==1.9.2 \
    || echo "aria2p could not be installed; its tests are skipped"
fi
