#!/usr/bin/env bash
# Installs haul from BIN_DIR into ROOT (DESTDIR + PREFIX): the binary, its man page (generated from the argument
# parser by its generate-manual tool, so it never drifts), bash/zsh/fish completions, the themes and the systemd
# user unit. Every file and every directory it creates goes into ROOT/share/haul/install-manifest, which
# `make uninstall` (scripts/uninstall.sh) reads to remove exactly those.
#
#   scripts/install.sh BIN_DIR ROOT PREFIX GENERATE_MANUAL
set -euo pipefail
bin_dir=$1 root=$2 prefix=$3 generate_manual=$4
cd "$(dirname "$0")/.."
[ -x "$bin_dir/haul" ] || { echo "install: no haul in $bin_dir (run make release)" >&2; exit 1; }
manifest="$root/share/haul/install-manifest"
if [ -e "$manifest" ]; then
    echo "install: $root already holds an installed haul; run make uninstall first" >&2
    exit 1
fi

created_dirs=()
files=()
# Makes the directories of $1 (relative to ROOT), recording those it creates, deepest last.
make_parent() {
    local dir=$root/$(dirname "$1") missing=()
    while [ ! -d "$dir" ]; do missing=("$dir" "${missing[@]}"); dir=$(dirname "$dir"); done
    for dir in "${missing[@]}"; do mkdir "$dir"; created_dirs+=("$dir"); done
}
# place MODE SOURCE DEST: installs one file (DEST relative to ROOT).
place() {
    make_parent "$3"
    install -m "$1" "$2" "$root/$3"
    files+=("$root/$3")
}

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

place 755 "$bin_dir/haul" bin/haul
"$generate_manual" "$bin_dir/haul" --date "$(date -u +%Y-%m-%d)" -o "$work" >/dev/null
# mdoc wants .Pp between paragraphs, not empty lines (man -l warns about each).
sed 's/^$/.Pp/' "$work/haul.1" > "$work/haul.1.fixed"
place 644 "$work/haul.1.fixed" share/man/man1/haul.1
for shell in bash zsh fish; do "$bin_dir/haul" --generate-completion-script "$shell" > "$work/completion.$shell"; done
place 644 "$work/completion.bash" share/bash-completion/completions/haul
place 644 "$work/completion.zsh" share/zsh/site-functions/_haul
place 644 "$work/completion.fish" share/fish/vendor_completions.d/haul.fish
for theme in themes/*.toml; do place 644 "$theme" "share/haul/themes/$(basename "$theme")"; done
cat > "$work/haul.service" <<UNIT
[Unit]
Description=haul download queue

[Service]
ExecStart=$prefix/bin/haul --headless --keep-running -d %h/Downloads
KillSignal=SIGTERM
Restart=on-failure

[Install]
WantedBy=default.target
UNIT
place 644 "$work/haul.service" lib/systemd/user/haul.service

make_parent share/haul/install-manifest
{ printf 'file %s\n' "${files[@]}" "$manifest"; printf 'dir %s\n' "${created_dirs[@]}"; } > "$manifest"
echo "installed haul in $root (${#files[@]} files); make uninstall PREFIX=$prefix removes them"
