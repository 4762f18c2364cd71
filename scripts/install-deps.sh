#!/usr/bin/env bash
# Installs the Debian packages haul builds and tests against, when any is missing.
set -euo pipefail
packages=(libcurl4-openssl-dev libncurses-dev libsqlite3-dev libssl-dev nginx tmux curl openssl)
[ "${1:-}" = "--bench" ] && packages+=(aria2 hyperfine)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0
echo "installing: ${missing[*]}"
sudo=""; [ "$(id -u)" -ne 0 ] && sudo="sudo"
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
