#!/bin/bash
# `make check`: every test capebus has, in order of cost, each stage's
# results kept as TAP in build/test-results/, then one line per stage and
# one summary line:
#   N passed, N failed[, N skipped]
# A stage that cannot run at all (a build that fails) counts as one failure;
# later stages that need it are counted as failed too, not skipped silently.
#
# The summary cannot be greener than the stages: a stage fails (and adds one
# failure to the count unless one of its `not ok` lines already does) when
# it exited non-zero, printed no TAP, reported fewer results than its own
# plan, or fewer tests than its floor in STAGE_FLOORS below.
#
#   scripts/check.sh                 run every stage, both kernel lanes
#   scripts/check.sh --lane fast     only the fast lane's stages (every
#                                    stage but build-distro, guest-distro)
#   scripts/check.sh --lane distro   only the distribution lane's stages
#                                    (build-distro, guest-distro)
#   scripts/check.sh --summary DIR   only judge the TAP (NAME.tap) and exit
#                                    statuses (NAME.rc) already in DIR
#   scripts/check.sh --floors        print the floor table
set -uo pipefail

# The tests each stage must report, at least.  A suite file that vanishes,
# an empty bats directory (`1..0`, exit 0) or a KUnit suite dropped from the
# module lowers a stage's count: that is a failure, not a smaller N.  Raise a
# floor when tests are added; lower it only in the commit that removes tests.
STAGE_FLOORS='
tooling    68
host       421
fuzz-kernel 13
build      1
checkpatch 15
dtbinding  11
bisect     20
kunit      186
guest      264
build-distro 1
guest-distro 67
'

# The distribution lane (kernel/configs/distro/: PM, drivers and capebus as
# modules loaded by mdev, KASAN) runs what only it can show, not a second
# copy of the fast lane: tests/bats/distro/ (modules loaded by alias, slots
# following their EEPROM's driver, cape drivers bound by alias), and of the
# guest suites, one per line with a bats --filter regex ("." for all),
# KASAN under hostile input: overlays and EEPROMs (hostile), a controller
# module unloaded under declared capes (lifetimes), corrupt and
# conflicting EEPROMs (capebus-faults), configfs writes, module unload and
# reload, and the two-shell configfs race (configfs).  A controller unbound
# under declared capes runs the driver's remove() that lifetimes' rmmod
# runs under KASAN: configfs' test of it (a second boot with a detected
# cape) stays on the fast lane.  PM's power/ beside a
# cape's attributes is seen by every suite that adds a cape (the harness
# fails a sysfs duplicate).  And the Raspberry Pi connector (hat): HAT
# EEPROMs read and parsed under KASAN, its controller loaded by alias.
DISTRO_SUITES='
hostile .
hat .
capebus-faults pin another cape holds|already holding the pin|refused cape.s overlay|corrupt EEPROM|other slots work|logged no Oops
lifetimes .
configfs weather cape declared by mkdir|rmdir removes the cape|garbage, truncated|EEPROM image takes|truncated EEPROM image|rounds of mkdir|module cannot be unloaded
'


# summarize DIR [STAGE...]: one line per stage of STAGE_FLOORS (or only the
# STAGEs named), then the summary line; status 0 only if every stage passed.
summarize() {
	local dir=$1 name floor f p s n plan res rc bad=0 pass=0 fail=0 skip=0
	local -a problems
	shift
	local only=" $* "
	while read -r name floor; do
		[ -n "$name" ] || continue
		[ "$only" = "  " ] || [[ $only == *" $name "* ]] || continue
		f=$dir/$name.tap
		problems=()
		p=0 s=0 n=0 plan=""
		if [ -f "$f" ]; then
			p=$(grep -cE '^ok [0-9]+' "$f")
			s=$(grep -cE '^ok [0-9]+ .*# (skip|SKIP)' "$f")
			n=$(grep -cE '^not ok [0-9]+' "$f")
			# The plan, 1..N (first or last line, as TAP allows).
			plan=$(grep -m1 -oE '^1\.\.[0-9]+' "$f" | cut -d. -f3)
		fi
		res=$((p + n))
		rc=$(cat "$dir/$name.rc" 2>/dev/null || echo "missing")
		[ -n "$plan" ] || [ "$res" -gt 0 ] || problems+=("printed no TAP")
		[ "$rc" = 0 ] || problems+=("exit status $rc")
		[ -z "$plan" ] || [ "$res" -ge "$plan" ] || problems+=("$res results of the $plan planned")
		[ "$res" -ge "$floor" ] || problems+=("$res tests, fewer than its floor")
		pass=$((pass + p - s)) skip=$((skip + s)) fail=$((fail + n))
		[ "$n" = 0 ] || bad=1
		if [ ${#problems[@]} -gt 0 ]; then
			bad=1
			[ "$n" -gt 0 ] || fail=$((fail + 1))
			printf '  %-10s FAILED: %s\n' "$name" "$(printf '%s; ' "${problems[@]}" | sed 's/; $//')"
		fi
		printf '  %-10s %d passed, %d failed, %d skipped (floor %d)\n' \
			"$name" $((p - s)) "$n" "$s" "$floor"
	done <<< "$STAGE_FLOORS"
	if [ $skip -gt 0 ]; then
		echo "$pass passed, $fail failed, $skip skipped"
	else
		echo "$pass passed, $fail failed"
	fi
	[ $bad = 0 ] && [ $fail = 0 ] && [ $pass -gt 0 ]
}

lane=all
case ${1:-} in
--summary) summarize "$2"; exit ;;
--floors) sed '/^$/d' <<< "$STAGE_FLOORS"; exit 0 ;;
--lane) lane=${2:-}
	case $lane in
	fast|distro) ;;
	*) echo "check.sh: --lane fast or --lane distro" >&2; exit 2 ;;
	esac ;;
esac

top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
results=build/test-results
rm -rf "$results"
mkdir -p "$results/suites" build/logs
t_start=$SECONDS
declare -A stage_t0 stage_secs

stage() {	# name: announce a stage, with the time so far
	printf '\n=== %s (at %d s)\n' "$1" $((SECONDS - t_start))
}

# timed NAME CMD...: run CMD, record its wall time for the table.
timed() {
	local name=$1 t0=$SECONDS
	shift
	"$@"
	stage_secs[$name]=$((SECONDS - t0))
}

# fail_stage NAME REASON: record a stage that could not run.
fail_stage() {
	printf '1..1\nnot ok 1 %s: %s\n' "$1" "$2" > "$results/$1.tap"
	echo 1 > "$results/$1.rc"
	echo "FAILED: $1: $2"
}

# run_tap NAME CMD...: run a TAP producer, keep its TAP and its exit
# status, show it.  The summary judges both.
run_tap() {
	local name=$1
	shift
	"$@" 2>"$results/$name.stderr" | tee "$results/$name.tap"
	local rc=${PIPESTATUS[0]}
	echo "$rc" > "$results/$name.rc"
	if [ "$rc" != 0 ]; then
		echo "# $name: exited with status $rc (see $results/$name.stderr)"
		tail -n 20 "$results/$name.stderr"
	fi
	return 0
}

# build_stage NAME LOG TARGET: make TARGET, its output in LOG (a kernel
# build's warnings are mainline's; they stay in the log unless it fails).
build_stage() {
	local name=$1 log=$2 target=$3
	if make -s --no-print-directory "$target" >"$log" 2>&1; then
		printf '1..1\nok 1 make %s\n' "$target" > "$results/$name.tap"
		echo 0 > "$results/$name.rc"
	else
		tail -n 40 "$log"
		fail_stage "$name" "make $target failed (log: $log)"
	fi
}

# The guest suites of both lanes, in one pool, two guests at a time: the
# fast lane's at once, the distribution lane's when its kernel is built.
# Every suite a line of the job file run-suites.sh reads.  A suite picks
# its machine itself (raspi2b.bats boots QEMU's Raspberry Pi 2 B with the
# fast lane's kernel: CB_MACHINE in tests/qemu/boot.sh).
guest_jobs() {
	local f name
	if [ "$lane" != distro ]; then
		for f in tests/bats/guest/*.bats; do
			name=$(basename "$f" .bats)
			echo "$name fast $f -"
		done
	fi
	if [ "$lane" != fast ]; then
		while read -r name f; do
			[ -n "$name" ] || continue
			[ -f "tests/bats/guest/$name.bats" ] || continue
			[ "$f" != . ] || f=
			echo "distro-$name distro tests/bats/guest/$name.bats $results/build-distro.rc $f"
		done <<< "$DISTRO_SUITES"
		for f in tests/bats/distro/*.bats; do
			echo "distro-$(basename "$f" .bats) distro $f $results/build-distro.rc"
		done
	fi
}

# The table at the end: where the time went.
timing_table() {
	local name a b
	echo
	echo "Where the time went (wall seconds):"
	for name in tooling build host checkpatch dtbinding bisect kunit fuzz-kernel build-distro guests; do
		[ -n "${stage_secs[$name]:-}" ] && printf '  %-13s %5d\n' "$name" "${stage_secs[$name]}"
	done
	echo "  suites (lane, seconds, tests):"
	for f in "$results"/suites/*.time; do
		[ -f "$f" ] || continue
		name=$(basename "$f" .time)
		read -r a b < "$f"
		printf '    %-28s %5d  %s\n' "$name" \
			"$(awk -v a="$a" -v b="$b" 'BEGIN { printf "%d", b - a + 0.5 }')" \
			"$(grep -cE '^(not )?ok [0-9]+' "$results/suites/$name.tap")"
	done | sort -k2 -n -r
	printf '  %-13s %5d\n' total $((SECONDS - t_start))
}

# The distribution lane's kernel, in the background from the moment the
# fast lane's is built: it uses the CPU the host suites and single-guest
# stages leave idle.
distro_build_start() {
	stage "distribution lane: kernel and guest build (in the background)"
	(
		t0=$SECONDS
		build_stage build-distro build/logs/kernel-distro.log guest-distro >/dev/null
		echo $((SECONDS - t0)) > "$results/build-distro.secs"
	) &
	distro_pid=$!
}

distro_pid=
guest_ok=1
if [ "$lane" != distro ]; then
	stage "host: build tooling, beside the kernel and guest build"
	# The patched tree first: both need it (the tooling suite reads
	# fw_devlink's bindings in it).
	make -s --no-print-directory kernel-tree >build/logs/kernel-tree.log 2>&1 ||
		tail -n 20 build/logs/kernel-tree.log
	( t0=$SECONDS; build_stage build build/logs/kernel.log guest; echo $((SECONDS - t0)) > "$results/build.secs" ) &
	build_pid=$!
	CB_REQUIRE_KSRC=1 timed tooling run_tap tooling bats --tap tests/bats/tooling
	wait "$build_pid"
	stage_secs[build]=$(cat "$results/build.secs" 2>/dev/null || echo 0)
	cat "$results/build.tap"
	[ "$(cat "$results/build.rc")" = 0 ] || guest_ok=0
fi
if [ "$lane" != fast ]; then
	distro_build_start
fi

# The guest suites of both lanes from one pool, from now on, beside the
# host stages below (which use one core) and the distribution kernel's
# build: the fast lane's suites at once, the distribution lane's once
# their kernel is built.
stage "guest suites (bats in QEMU, from one pool, in the background)"
guest_jobs > "$results/suites.jobs"
if [ "$lane" != distro ] && [ $guest_ok = 0 ]; then
	# No fast guest: its suites fail without running.
	echo 1 > "$results/build-fast-guest.rc"
	sed -i "s| fast \([^ ]*\) -| fast \1 $results/build-fast-guest.rc|" "$results/suites.jobs"
fi
( t0=$SECONDS
  scripts/run-suites.sh "$results/suites" "$results/suites.jobs" 2>"$results/suites.log"
  echo $((SECONDS - t0)) > "$results/suites.secs" ) &
pool_pid=$!

if [ "$lane" != distro ]; then
	# The host suites need the 6.12 tree for their base DTBs, and under
	# make check a missing tree fails them rather than skipping.
	stage "host: capetool (ASan/UBSan) and its fuzzer"
	if [ -f capetool/Makefile ]; then
		CB_REQUIRE_KSRC=1 timed host run_tap host make -s --no-print-directory -C capetool O="$top/build/capetool" check
	else
		fail_stage host "capetool/Makefile is missing"
	fi

	stage "kernel parsers: coverage-guided fuzzing (libFuzzer, ASan, UBSan)"
	if [ -x scripts/fuzz-kernel.sh ]; then
		FUZZ_SECONDS=${FUZZ_SECONDS:-20} timed fuzz-kernel run_tap fuzz-kernel scripts/fuzz-kernel.sh
	else
		fail_stage fuzz-kernel "scripts/fuzz-kernel.sh is missing"
	fi

	stage "series: checkpatch --strict on every patch"
	if make -s --no-print-directory series >/dev/null; then
		timed checkpatch run_tap checkpatch scripts/checkpatch.sh "$CAPEBUS_CACHE/linux-6.12" build/series
	else
		fail_stage checkpatch "make series failed"
	fi

	stage "DT bindings (dt-doc-validate) and the BeagleBone DTBs (dt-validate)"
	if [ $guest_ok = 1 ]; then
		timed dtbinding run_tap dtbinding scripts/dt-bindings-check.sh "$CAPEBUS_CACHE/linux-6.12" "$CAPEBUS_CACHE/build/kernel"
	else
		fail_stage dtbinding "no kernel tree"
	fi

	stage "series: every patch builds on its own"
	if [ $guest_ok = 1 ] && [ -d build/series ]; then
		timed bisect run_tap bisect scripts/series-bisect.sh "$CAPEBUS_CACHE/linux-6.12" "$CAPEBUS_CACHE/build/kernel" build/series
	else
		fail_stage bisect "no kernel build or no series to bisect"
	fi

	stage "KUnit (in QEMU)"
	if [ $guest_ok = 1 ]; then
		timed kunit run_tap kunit scripts/kunit.sh
	else
		fail_stage kunit "no guest to boot"
	fi
fi

stage "guest suites: waiting for the pool"
wait "$pool_pid"
stage_secs[guests]=$(cat "$results/suites.secs" 2>/dev/null || echo 0)
[ -z "$distro_pid" ] || wait "$distro_pid"
stage_secs[build-distro]=$(cat "$results/build-distro.secs" 2>/dev/null || echo 0)
[ -z "$distro_pid" ] || cat "$results/build-distro.tap"

fast_suites=$(awk '$2 == "fast" { print $1 }' "$results/suites.jobs")
distro_suites=$(awk '$2 == "distro" { print $1 }' "$results/suites.jobs")
# shellcheck disable=SC2086
[ -z "$fast_suites" ] || scripts/merge-suites.sh "$results/suites" "$results/guest" $fast_suites
# shellcheck disable=SC2086
[ -z "$distro_suites" ] || scripts/merge-suites.sh "$results/suites" "$results/guest-distro" $distro_suites
for s in guest guest-distro; do
	[ -f "$results/$s.tap" ] || continue
	echo "--- $s"
	grep -E '^not ok' "$results/$s.tap" | head -n 40
done

timing_table
echo
echo "Results in $results/ (each suite's in $results/suites/), console logs in build/test-logs/ ($((SECONDS - t_start)) s)."
case $lane in
fast) summarize "$results" tooling host fuzz-kernel build checkpatch dtbinding bisect kunit guest ;;
distro) summarize "$results" build-distro guest-distro ;;
*) summarize "$results" ;;
esac
