#!/usr/bin/env bash
# Removes what scripts/install.sh put into ROOT: the files of its manifest, then the directories it created
# (deepest first, and only when empty), so the prefix is left as it was.
#
#   scripts/uninstall.sh ROOT
set -euo pipefail
root=$1
manifest="$root/share/haul/install-manifest"
[ -f "$manifest" ] || { echo "uninstall: no haul installed in $root (no $manifest)" >&2; exit 1; }
mapfile -t entries < "$manifest"
for entry in "${entries[@]}"; do
    [ "${entry%% *}" = file ] && rm -f -- "${entry#file }"
done
for (( index=${#entries[@]}-1; index>=0; index-- )); do
    entry=${entries[index]}
    [ "${entry%% *}" = dir ] && rmdir -- "${entry#dir }" 2>/dev/null || true
done
echo "removed haul from $root"
