#!/bin/bash
# Unpack Debian's linux-source-6.12 into the cache (once) and bring it to
# "pristine + the capebus series".  Only files whose content changes are
# rewritten, so an unchanged series costs no rebuild.
#
# usage: kernel-tree.sh SRCDIR
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
src=$1
tarball=$(ls /usr/src/linux-source-6.12.tar.* 2>/dev/null | head -n1)
[ -n "$tarball" ] || { echo "kernel-tree: linux-source-6.12 is not installed (make deps)" >&2; exit 1; }

if [ ! -f "$src/.capebus-unpacked" ] || [ "$(cat "$src/.capebus-unpacked")" != "$tarball $(stat -c %Y "$tarball")" ]; then
	echo "  UNPACK  $tarball -> $src"
	rm -rf "$src" "$src.tmp"
	mkdir -p "$src.tmp"
	tar -xf "$tarball" -C "$src.tmp" --strip-components=1
	mv "$src.tmp" "$src"
	echo "$tarball $(stat -c %Y "$tarball")" > "$src/.capebus-unpacked"
fi

exec "$top/scripts/kernel-series.sh" apply "$src"
