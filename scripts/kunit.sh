#!/bin/bash
# Boot the guest with KUnit enabled, and print its results as TAP: one test
# per KUnit case, plus the kernel-log judge's verdict on the whole run (the
# same judge as the guest suites', tests/qemu/lib.bash: a lockdep splat or a
# kmemleak suspect during KUnit fails), after kmemleak's scan.
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
run=$top/build/kunit-run
rm -rf "$run"
mkdir -p "$run" "$top/build/test-logs"
# Built-in suites run before /init; /init loads the capebus-test module,
# whose suites run before the agent answers.
export CB_RUN=$run CB_LOGDIR=$top/build/test-logs CB_NAME=kunit
# shellcheck source=../tests/qemu/lib.bash
. "$top/tests/qemu/lib.bash"
boot=()
if ! guest_boot --append "kunit.enable=1" >"$run/boot.err" 2>&1; then
	# guest_boot also fails on a kernel error in the boot log, which the
	# judge below reports; anything else is a boot that failed.
	grep -q 'the kernel logged errors' "$run/boot.err" ||
		boot=(--boot-failed "$(head -n1 "$run/boot.err")")
fi
cat "$run/boot.err" >&2
# Scans kmemleak (waiting past its minimum object age) while the guest is
# up: its verdict is what guest_shutdown says, not the scans' own
# "N new suspected" console lines.
shutdown_ok=1
guest_shutdown 2> "$run/shutdown.err" || shutdown_ok=0
cat "$run/shutdown.err" >&2
{
	CB_KERNEL_EXPECTED='kmemleak: [0-9]+ new suspected' cb_kernel_errors < "$run/console.log"
	[ $shutdown_ok = 1 ] || grep -E "^unreferenced object|^kmemleak:|    [a-z_0-9.]+\+0x" "$run/shutdown.err" | head -n 30
} > "$run/judged"
"$top/scripts/ktap2tap.py" "$run/console.log" --judged "$run/judged" "${boot[@]}"
