#!/bin/bash
# checkpatch.pl --strict on every patch of the exported series, as TAP.
set -uo pipefail
src=$1 dir=$2
patches=("$dir"/0*.patch)
patches=("${patches[@]/*0000-cover-letter.patch}")
n=0
mapfile -t patches < <(ls "$dir"/0*.patch | grep -v 0000-cover-letter)
echo "1..${#patches[@]}"
for p in "${patches[@]}"; do
	n=$((n + 1))
	if out=$("$src/scripts/checkpatch.pl" --strict --no-tree --terse --show-types "$p" 2>&1); then
		echo "ok $n checkpatch $(basename "$p")"
	else
		echo "not ok $n checkpatch $(basename "$p")"
		printf '%s\n' "$out" | sed 's/^/# /'
	fi
done
