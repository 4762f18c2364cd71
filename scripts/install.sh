#!/usr/bin/env bash
# Installs haul from BIN_DIR into ROOT (DESTDIR + PREFIX): the binary stripped (BIN_DIR's copy keeps its symbols for
# debugging and `make bench`), its man page (written by haul-manual from the
# commands, the registries and man/*.mdoc, so it never drifts), bash/zsh/fish completions, the themes and the systemd
# user unit. Every file and every directory it creates goes into ROOT/share/haul/install-manifest, which
# `make uninstall` (scripts/uninstall.sh) reads to remove exactly those.
#
#   scripts/install.sh BIN_DIR ROOT PREFIX HAUL_MANUAL
set -euo pipefail
bin_dir=$1 root=$2 prefix=$3 haul_manual=$4
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
strip --strip-all --remove-section=.comment "$root/bin/haul"
# The page's date is the last commit's, so the same sources make the same page.
stamp=$(git log -1 --format=%ct 2>/dev/null || date +%s)
"$haul_manual" "$bin_dir/haul" man "$(LC_ALL=C date -u -d "@$stamp" '+%B %-d, %Y')" > "$work/haul.1"
place 644 "$work/haul.1" share/man/man1/haul.1
for shell in bash zsh fish; do "$bin_dir/haul" --generate-completion-script "$shell" > "$work/completion.$shell"; done
# bash-completion sources the file: a #! line says nothing there.
sed -i '1{/^#!/d}' "$work/completion.bash"
place 644 "$work/completion.bash" share/bash-completion/completions/haul
# zsh's own fpath has vendor-completions for distribution packages, site-functions for local installs.
zsh_folder=site-functions; [ "$prefix" = /usr ] && zsh_folder=vendor-completions
place 644 "$work/completion.zsh" "share/zsh/$zsh_folder/_haul"
place 644 "$work/completion.fish" share/fish/vendor_completions.d/haul.fish
for theme in themes/*.toml; do place 644 "$theme" "share/haul/themes/$(basename "$theme")"; done
cat > "$work/haul.service" <<UNIT
[Unit]
Description=haul download queue

[Service]
ExecStart=$prefix/bin/haul --headless --keep-running -d %h/Downloads
# SIGHUP makes haul read its settings file again; SIGTERM pauses every task with its bytes saved and exits 130,
# which is how a stop ends, not a failure.
ExecReload=/bin/kill -HUP \$MAINPID
KillSignal=SIGTERM
SuccessExitStatus=130
Restart=on-failure

[Install]
WantedBy=default.target
UNIT
place 644 "$work/haul.service" lib/systemd/user/haul.service

make_parent share/haul/install-manifest
{ printf 'file %s\n' "${files[@]}" "$manifest"; printf 'dir %s\n' "${created_dirs[@]}"; } > "$manifest"
echo "installed haul in $root (${#files[@]} files); make uninstall PREFIX=$prefix removes them"
