#!/bin/bash
# Unpack Debian's linux-source-6.12 into the cache (once) and bring it to
# "pristine + the capebus series".  Only files whose content changes are
# rewritten, so an unchanged series costs no rebuild.
#
# usage: kernel-tree.sh SRCDIR
#
# Locks $(dirname SRCDIR)/kernel.lock itself: shared to see that the tree
# is already at this series (a hash of kernel/, stamped in the tree), which
# a build in progress (holding the lock shared) does not block; exclusive
# to change it.
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
src=$1
lock=$(dirname "$src")/kernel.lock
tarball=$(ls /usr/src/linux-source-6.12.tar.* 2>/dev/null | head -n1)
[ -n "$tarball" ] || { echo "kernel-tree: linux-source-6.12 is not installed (make deps)" >&2; exit 1; }
stamp=$( (cd "$top" && find kernel -type f -print0 | sort -z | xargs -0 sha256sum
	  echo "$tarball $(stat -c %Y "$tarball")") | sha256sum | cut -d' ' -f1)
if [ -z "${CB_TREE_LOCKED:-}" ]; then
	mkdir -p "$(dirname "$src")"
	# Already there: nothing to change, nothing to wait for.
	if flock -s "$lock" sh -c '[ "$(cat "$1/.capebus-series" 2>/dev/null)" = "$2" ]' sh "$src" "$stamp"; then
		exit 0
	fi
	CB_TREE_LOCKED=1 flock "$lock" "$0" "$@"
	exit
fi

if [ ! -f "$src/.capebus-unpacked" ] || [ "$(cat "$src/.capebus-unpacked")" != "$tarball $(stat -c %Y "$tarball")" ]; then
	echo "  UNPACK  $tarball -> $src"
	rm -rf "$src" "$src.tmp"
	mkdir -p "$src.tmp"
	tar -xf "$tarball" -C "$src.tmp" --strip-components=1
	mv "$src.tmp" "$src"
	echo "$tarball $(stat -c %Y "$tarball")" > "$src/.capebus-unpacked"
fi

"$top/scripts/kernel-series.sh" apply "$src"
echo "$stamp" > "$src/.capebus-series"
