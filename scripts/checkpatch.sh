#!/bin/bash
# checkpatch.pl --strict on every patch of the exported series, as TAP.
#
# One warning is answered rather than obeyed: FILE_PATH_CHANGES ("added,
# moved or deleted file(s), does MAINTAINERS need updating?") is checkpatch
# asking, since it cannot know, whether new files have a maintainer.  For
# each such patch this script checks the answer itself: get_maintainer.pl on
# the patched tree must name the capebus entry for every file the patch
# adds.  Any other warning, error or check fails the patch.
set -uo pipefail
src=$1 dir=$2
mapfile -t patches < <(ls "$dir"/0*.patch | grep -v 0000-cover-letter)
echo "1..${#patches[@]}"
n=0
for p in "${patches[@]}"; do
	n=$((n + 1))
	name=$(basename "$p")
	out=$("$src/scripts/checkpatch.pl" --strict --no-tree --terse --show-types "$p" 2>&1)
	rc=$?
	others=$(printf '%s\n' "$out" | grep -E ': (ERROR|WARNING|CHECK):' | grep -v 'WARNING:FILE_PATH_CHANGES:')
	if [ $rc = 0 ]; then
		echo "ok $n checkpatch $name"
		continue
	fi
	if [ -z "$others" ] && grep -q 'WARNING:FILE_PATH_CHANGES:' <<< "$out"; then
		uncovered=""
		for f in $(sed -n 's|^+++ b/||p' "$p" | sort -u); do
			grep -q "^--- /dev/null" <(grep -B1 "^+++ b/$f\$" "$p") || continue
			(cd "$src" && scripts/get_maintainer.pl --no-git --no-git-fallback --no-rolestats -f "$f" 2>/dev/null) |
				grep -q 'capebus@lists.example.org' || uncovered="$uncovered $f"
		done
		if [ -z "$uncovered" ]; then
			echo "ok $n checkpatch $name"
			echo "# FILE_PATH_CHANGES answered: MAINTAINERS (CAPEBUS) covers every file it adds"
			continue
		fi
		others="MAINTAINERS has no capebus entry for:$uncovered"
	fi
	echo "not ok $n checkpatch $name"
	printf '%s\n%s\n' "$out" "$others" | sed 's/^/# /'
done
