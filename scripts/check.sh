#!/bin/bash
# `make check`: every test capebus has, in order of cost, each stage's
# results kept as TAP in build/test-results/, then one summary line:
#   N passed, N failed[, N skipped]
# A stage that cannot run at all (a build that fails) counts as one failure;
# later stages that need it are counted as failed too, not skipped silently.
set -uo pipefail

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
	echo "FAILED: $1: $2"
}

# run_tap NAME CMD...: run a TAP producer, keep its TAP, show it.
run_tap() {
	local name=$1
	shift
	"$@" 2>"$results/$name.stderr" | tee "$results/$name.tap"
	local rc=${PIPESTATUS[0]}
	if [ "$rc" != 0 ] && ! grep -q '^not ok' "$results/$name.tap"; then
		echo "not ok 9999 $name: exited with status $rc (see $results/$name.stderr)" >> "$results/$name.tap"
		tail -n 20 "$results/$name.stderr"
	fi
	return 0
}

stage "host: build tooling"
run_tap tooling bats --tap tests/bats/tooling

stage "host: capetool (ASan/UBSan) and its fuzzer"
if [ -f capetool/Makefile ]; then
	run_tap host make -s --no-print-directory -C capetool O="$top/build/capetool" check
else
	fail_stage host "capetool/Makefile is missing"
fi

stage "kernel and guest build"
guest_ok=1
if ! make -s --no-print-directory guest; then
	guest_ok=0
	fail_stage build "make guest failed"
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

pass=0 fail=0 skip=0
for f in "$results"/*.tap; do
	p=$(grep -cE '^ok [0-9]+' "$f" | head -n1)
	s=$(grep -cE '^ok [0-9]+ .*# (skip|SKIP)' "$f" | head -n1)
	n=$(grep -cE '^not ok [0-9]+' "$f" | head -n1)
	pass=$((pass + p - s)) skip=$((skip + s)) fail=$((fail + n))
done
echo
echo "Results in $results/, console logs in build/test-logs/ ($((SECONDS - t_start)) s)."
if [ $skip -gt 0 ]; then
	echo "$pass passed, $fail failed, $skip skipped"
else
	echo "$pass passed, $fail failed"
fi
[ $fail = 0 ] && [ $pass -gt 0 ]
