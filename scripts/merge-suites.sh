#!/bin/bash
# Join suites run by run-suites.sh into one stage's TAP and exit status.
#
# usage: merge-suites.sh SUITEDIR STAGE NAME...
#
# Writes STAGE.tap and STAGE.rc: the suites' plans added, their tests
# renumbered and prefixed with the suite's name, comments kept.  A suite
# that printed no plan, or fewer results than its plan (bats killed, a
# guest that died), adds one "not ok" saying so; the stage's status is
# non-zero if any suite's was.  check.sh's summary then judges the stage
# as any other: nothing here can make it greener than its suites.
set -uo pipefail
dir=$1 stage=$2
shift 2
n=0 total=0 rc=0
for name in "$@"; do
	f=$dir/$name.tap
	plan=$(grep -m1 -oE '^1\.\.[0-9]+' "$f" 2>/dev/null | cut -d. -f3)
	res=$(grep -cE '^(not )?ok [0-9]+' "$f" 2>/dev/null)
	total=$((total + ${plan:-$res}))
	[ "$(cat "$dir/$name.rc" 2>/dev/null)" = 0 ] || rc=1
done
{
	echo "1..$total"
	for name in "$@"; do
		f=$dir/$name.tap
		plan=$(grep -m1 -oE '^1\.\.[0-9]+' "$f" 2>/dev/null | cut -d. -f3)
		res=0
		while IFS= read -r line; do
			if [[ $line =~ ^(not\ )?ok\ [0-9]+\ (.*)$ ]]; then
				n=$((n + 1)) res=$((res + 1))
				echo "${BASH_REMATCH[1]}ok $n $name: ${BASH_REMATCH[2]}"
			elif [[ $line != 1..* ]]; then
				echo "$line"
			fi
		done < <(cat "$f" 2>/dev/null)
		if [ -z "$plan" ] || [ "$res" -lt "$plan" ]; then
			n=$((n + 1))
			echo "not ok $n $name: bats stopped after $res of ${plan:-?} tests (exit $(cat "$dir/$name.rc" 2>/dev/null || echo none), see $dir/$name.stderr)"
		fi
	done
} > "$stage.tap"
echo "$rc" > "$stage.rc"
