#!/bin/bash
# Run bats suites that boot a guest, several at a time, longest first.
#
# usage: run-suites.sh [-j N] OUTDIR JOBFILE
#
# JOBFILE has one suite per line:
#   NAME LANE FILE GATE [FILTER]
# NAME is unique (OUTDIR/NAME.tap, .rc, .stderr, .time are written), LANE
# "fast" or "distro" (CB_LANE), FILE a .bats file, GATE "-" or the path of
# a file holding an exit status: the suite waits until it exists and runs
# only if it holds 0 (else it is recorded as failed, "not run: GATE"),
# FILTER an optional bats --filter regex (the rest of the line).
#
# Each suite is one bats process with its own guest; up to N run at once
# (default: the number of CPUs).  The next suite started is the one expected
# to take longest, so that no long suite starts last: by the seconds it took
# when last run here (build/suite-times), else by tests/bats/suite-costs
# (measured, committed; a fresh clone has no history).  A suite's result is
# its own TAP, exit status and start and end times; check.sh joins a lane's
# into one stage.
set -uo pipefail

jobs=$(nproc)
if [ "${1:-}" = -j ]; then
	jobs=$2
	shift 2
fi
out=$1 jobfile=$2
top=$(cd "$(dirname "$0")/.." && pwd)
times=${SUITE_TIMES:-$top/build/suite-times}
mkdir -p "$out"
[ -f "$times" ] || cp "$top/tests/bats/suite-costs" "$times" 2>/dev/null || touch "$times"

declare -A lane file gate filter est
pending=()
while read -r name l f g rest; do
	[ -n "$name" ] && [ "${name#\#}" = "$name" ] || continue
	lane[$name]=$l file[$name]=$f gate[$name]=$g filter[$name]=$rest
	est[$name]=$(awk -v n="$name" '$1 == n { t = $2 } END { print t + 0 }' "$times")
	[ "${est[$name]}" != 0 ] || est[$name]=60
	pending+=("$name")
done < "$jobfile"

declare -A pid_of
running=0

start() {
	local name=$1 args=(--tap -T)
	[ -z "${filter[$name]}" ] || args+=(-f "${filter[$name]}")
	(
		t0=$(date +%s.%N)
		CB_LANE=${lane[$name]} bats "${args[@]}" "${file[$name]}" \
			>"$out/$name.tap" 2>"$out/$name.stderr"
		echo $? > "$out/$name.rc.tmp"
		echo "$t0 $(date +%s.%N)" > "$out/$name.time"
		mv "$out/$name.rc.tmp" "$out/$name.rc"
	) &
	pid_of[$name]=$!
	running=$((running + 1))
	echo "# started $name (${lane[$name]}, ~${est[$name]} s)" >&2
}

# A suite whose gate failed is not run: one failure, said why.
skip_gated() {
	local name=$1
	printf '1..1\nnot ok 1 %s: not run: %s says %s\n' "$name" "${gate[$name]}" \
		"$(cat "${gate[$name]}")" > "$out/$name.tap"
	echo 1 > "$out/$name.rc"
	echo "0 0" > "$out/$name.time"
}

while [ ${#pending[@]} -gt 0 ] || [ $running -gt 0 ]; do
	# Reap.
	for name in "${!pid_of[@]}"; do
		if [ -f "$out/$name.rc" ]; then
			wait "${pid_of[$name]}" 2>/dev/null
			unset "pid_of[$name]"
			running=$((running - 1))
			read -r a b < "$out/$name.time"
			secs=$(awk -v a="$a" -v b="$b" 'BEGIN { printf "%d", b - a + 0.5 }')
			echo "# finished $name in $secs s (exit $(cat "$out/$name.rc"))" >&2
		fi
	done
	# Start the longest eligible suites.
	while [ $running -lt "$jobs" ]; do
		best="" rest=()
		for name in "${pending[@]}"; do
			g=${gate[$name]}
			if [ "$g" != - ] && [ ! -f "$g" ]; then
				rest+=("$name")
				continue
			fi
			if [ "$g" != - ] && [ "$(cat "$g")" != 0 ]; then
				skip_gated "$name"
				continue
			fi
			if [ -z "$best" ] || [ "${est[$name]}" -gt "${est[$best]}" ]; then
				[ -z "$best" ] || rest+=("$best")
				best=$name
			else
				rest+=("$name")
			fi
		done
		pending=("${rest[@]}")
		[ -n "$best" ] || break
		start "$best"
	done
	sleep 0.5
done

# Remember how long each took, for the next run's order.
for name in $(cut -d' ' -f1 "$jobfile" | grep -v '^#'); do
	[ -f "$out/$name.time" ] || continue
	read -r a b < "$out/$name.time"
	[ "$a" != 0 ] || continue
	secs=$(awk -v a="$a" -v b="$b" 'BEGIN { printf "%d", b - a + 0.5 }')
	grep -v "^$name " "$times" > "$times.new"
	echo "$name $secs" >> "$times.new"
	mv "$times.new" "$times"
done
exit 0
