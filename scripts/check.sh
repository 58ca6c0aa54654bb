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
tooling    59
host       199
build      1
checkpatch 9
dtbinding  1
bisect     12
kunit      104
guest      150
build-distro 1
guest-distro 64
'

# The distribution lane (kernel/configs/distro/: PM, drivers and capebus as
# modules loaded by mdev, KASAN): the guest suites that exercise what a
# distribution kernel changes (detection, configfs with module unload and
# reload, faults, cape drivers loaded by alias, a controller module
# unloaded under declared capes with KASAN watching), then tests/bats/distro/
# (slots following their EEPROM's driver as it comes and goes).
DISTRO_SUITES='capebus configfs capebus-faults cape-drivers lifetimes'

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
mkdir -p "$results"
t_start=$SECONDS

stage() {	# name: announce a stage, with the time so far
	printf '\n=== %s (at %d s)\n' "$1" $((SECONDS - t_start))
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

# The distribution lane: its kernel and initramfs, then its guest suites
# with CB_LANE=distro (tests/qemu/lib.bash boots that kernel).
distro_lane() {
	stage "distribution lane: kernel and guest build"
	local distro_ok=1 suites=() s
	if make -s --no-print-directory guest-distro; then
		printf '1..1\nok 1 make guest-distro\n' > "$results/build-distro.tap"
		echo 0 > "$results/build-distro.rc"
	else
		distro_ok=0
		fail_stage build-distro "make guest-distro failed"
	fi
	stage "distribution lane: guest suites (bats in QEMU, CB_LANE=distro)"
	for s in $DISTRO_SUITES; do
		suites+=("tests/bats/guest/$s.bats")
	done
	if [ $distro_ok = 1 ]; then
		CB_LANE=distro run_tap guest-distro bats --tap "${suites[@]}" tests/bats/distro
	else
		fail_stage guest-distro "no distribution guest to boot"
	fi
}

if [ "$lane" = distro ]; then
	distro_lane
	echo
	echo "Results in $results/, console logs in build/test-logs/distro/ ($((SECONDS - t_start)) s)."
	summarize "$results" build-distro guest-distro
	exit
fi

stage "host: build tooling"
run_tap tooling bats --tap tests/bats/tooling

stage "kernel and guest build"
guest_ok=1
if make -s --no-print-directory guest; then
	printf '1..1\nok 1 make guest\n' > "$results/build.tap"
	echo 0 > "$results/build.rc"
else
	guest_ok=0
	fail_stage build "make guest failed"
fi

# After the build: the host suites need the 6.12 tree for their base DTBs,
# and under make check a missing tree fails them rather than skipping.
stage "host: capetool (ASan/UBSan) and its fuzzer"
if [ -f capetool/Makefile ]; then
	CB_REQUIRE_KSRC=1 run_tap host make -s --no-print-directory -C capetool O="$top/build/capetool" check
else
	fail_stage host "capetool/Makefile is missing"
fi

stage "series: checkpatch --strict on every patch"
if make -s --no-print-directory series >/dev/null; then
	run_tap checkpatch scripts/checkpatch.sh "$CAPEBUS_CACHE/linux-6.12" build/series
else
	fail_stage checkpatch "make series failed"
fi

stage "DT bindings (dt-doc-validate)"
if [ $guest_ok = 1 ]; then
	run_tap dtbinding scripts/dt-bindings-check.sh "$CAPEBUS_CACHE/linux-6.12"
else
	fail_stage dtbinding "no kernel tree"
fi

stage "series: every patch builds on its own"
if [ $guest_ok = 1 ] && [ -d build/series ]; then
	run_tap bisect scripts/series-bisect.sh "$CAPEBUS_CACHE/linux-6.12" "$CAPEBUS_CACHE/build/kernel" build/series
else
	fail_stage bisect "no kernel build or no series to bisect"
fi

stage "KUnit (in QEMU)"
if [ $guest_ok = 1 ]; then
	run_tap kunit scripts/kunit.sh
else
	fail_stage kunit "no guest to boot"
fi

stage "guest suites (bats in QEMU)"
if [ $guest_ok = 1 ]; then
	run_tap guest bats --tap tests/bats/guest
else
	fail_stage guest "no guest to boot"
fi

fast_stages="tooling host build checkpatch dtbinding bisect kunit guest"
if [ "$lane" = fast ]; then
	echo
	echo "Results in $results/, console logs in build/test-logs/ ($((SECONDS - t_start)) s)."
	summarize "$results" $fast_stages
	exit
fi

distro_lane

echo
echo "Results in $results/, console logs in build/test-logs/ and build/test-logs/distro/ ($((SECONDS - t_start)) s)."
summarize "$results" $fast_stages build-distro guest-distro
