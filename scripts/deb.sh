#!/usr/bin/env bash
# Builds haul_VERSION-REVISION_amd64.deb in OUT_DIR from the release build in BIN_DIR: `make install`'s files laid out
# under /usr (scripts/install.sh with PREFIX=/usr: the stripped binary, completions in the shells' vendor folders,
# the systemd user unit in /usr/lib/systemd/user, the themes), the man page gzipped, copyright and
# changelog.Debian.gz, and Depends from dpkg-shlibdeps. Prints the package's path.
#
#   scripts/deb.sh BIN_DIR HAUL_MANUAL OUT_DIR [MAINTAINER]
set -euo pipefail
bin_dir=$1 haul_manual=$2 out_dir=$3 maintainer=${4:-haul maintainers <haul@example.org>}
cd "$(dirname "$0")/.."
version="$("$bin_dir/haul" --version)-1"
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
root=$stage/haul
scripts/install.sh "$bin_dir" "$root/usr" /usr "$haul_manual" >/dev/null
# dpkg keeps its own list of the files; the manifest is for `make uninstall`.
rm "$root/usr/share/haul/install-manifest"
gzip -9n "$root/usr/share/man/man1/haul.1"
doc=$root/usr/share/doc/haul
mkdir -p "$doc"
install -m 644 packaging/debian/copyright "$doc/copyright"
{
    printf 'haul (%s) unstable; urgency=medium\n\n  * Release %s.\n\n' "$version" "${version%-*}"
    printf ' -- %s  %s\n' "$maintainer" "$(date -R -u -d "@$(git log -1 --format=%ct 2>/dev/null || date +%s)")"
} | gzip -9n > "$doc/changelog.Debian.gz"

# dpkg-shlibdeps reads a debian/control beside the package tree.
mkdir -p "$stage/debian"
printf 'Source: haul\n\nPackage: haul\nArchitecture: any\n' > "$stage/debian/control"
# HAUL_DEB_IGNORE_MISSING_INFO=1 (tests only): the debug build links the toolchain's Swift libraries, which no
# Debian package provides; the release build links them statically.
ignore=(); [ "${HAUL_DEB_IGNORE_MISSING_INFO:-}" = 1 ] && ignore=(--ignore-missing-info)
depends=$(cd "$stage" && dpkg-shlibdeps "${ignore[@]}" -O -e haul/usr/bin/haul 2>/dev/null | sed -n 's/^shlibs:Depends=//p')
[ -n "$depends" ] || { echo "deb: dpkg-shlibdeps found no dependencies for $bin_dir/haul" >&2; exit 1; }

find "$root" -type d -exec chmod 755 {} +
find "$root" -type f -exec chmod 644 {} +
chmod 755 "$root/usr/bin/haul"
mkdir -p "$root/DEBIAN"
(cd "$root" && find usr -type f -print0 | sort -z | xargs -0 md5sum) > "$root/DEBIAN/md5sums"
cat > "$root/DEBIAN/control" <<CONTROL
Package: haul
Version: $version
Architecture: amd64
Maintainer: $maintainer
Installed-Size: $(du -sk --exclude=DEBIAN "$root" | cut -f1)
Depends: $depends
Section: net
Priority: optional
Description: resumable download queue for the terminal
 haul downloads HTTP(S) links from a queue shown as a live list in the
 terminal, or headless. Downloads resume from the exact byte where they
 stopped, also after a crash or a reboot, with the server's validators
 checked. It splits large files over several connections, follows
 schedules and rate limits, streams HLS video into one file, and speaks
 aria2's JSON-RPC so aria2 clients can drive it.
CONTROL
chmod 644 "$root/DEBIAN/control" "$root/DEBIAN/md5sums"
mkdir -p "$out_dir"
package="$out_dir/haul_${version}_amd64.deb"
# HAUL_DEB_COMPRESSION (tests): dpkg-deb's -Z; xz, dpkg's default, is the smallest and takes a minute on 2 cores.
dpkg-deb --build --root-owner-group -Z"${HAUL_DEB_COMPRESSION:-xz}" "$root" "$package" >/dev/null
echo "$package"
