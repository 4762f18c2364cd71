#!/usr/bin/env bash
# Installs the Debian packages haul needs, when any is missing, in tiers:
#   scripts/install-deps.sh          what builds and runs haul (make build, make install, make deb)
#   scripts/install-deps.sh --test   also the test servers and tools (make test, CI), and the Python RPC clients
#   scripts/install-deps.sh --bench  also the tools the benchmarks compare haul with
# --print lists the packages of the tier (one a line) and installs nothing.
set -euo pipefail
tier=build print=0
for argument in "$@"; do
  case $argument in
    --test) tier=test ;;
    --bench) tier=bench ;;
    --print) print=1 ;;
    *) echo "install-deps: unknown option $argument (--test, --bench, --print)" >&2; exit 2 ;;
  esac
done
# Building: the C libraries haul links (the Swift toolchain is not a Debian package).
packages=(libcurl4-openssl-dev libncurses-dev libsqlite3-dev)
# The tests: servers and tools they start (nginx, tinyproxy, microsocks, ffmpeg for streams, tmux for the live list),
# and what the install tests check the installed files with (man, mandoc, the three shells, dpkg-dev, lintian).
test_packages=(libssl-dev nginx tmux curl openssl tinyproxy microsocks man-db ffmpeg strace
  mandoc zsh fish dpkg-dev lintian)
[ "$tier" != build ] && packages+=("${test_packages[@]}")
[ "$tier" = bench ] && packages+=(aria2 axel hyperfine)
if [ "$print" = 1 ]; then printf '%s\n' "${packages[@]}"; exit 0; fi
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
[ "$tier" = build ] && exit 0
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
# yt-dlp, pinned: what a video page holds (DESIGN §11, `--extractor`); its tests are skipped without it. It needs Python 3.11.
if ! [ "$(yt-dlp --version 2>/dev/null)" = "2026.10.26" ]; then
  if python3 -c 'import sys; assert sys.version_info >= (3, 11)' 2>/dev/null; then
    echo "installing: yt-dlp==2026.10.26 (Python)"
    python3 -m pip install --quiet --disable-pip-version-check --root-user-action=ignore yt-dlp==2026.10.26 \
      || echo "yt-dlp could not be installed; the video page tests are skipped"
  else
    echo "yt-dlp needs Python 3.11 or later; the video page tests are skipped"
  fi
fi
