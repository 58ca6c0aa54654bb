#!/bin/bash
# Boot the guest with KUnit enabled, and print its results as TAP.
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
run=$top/build/kunit-run
rm -rf "$run"
mkdir -p "$run" "$top/build/test-logs"
# Built-in suites run before /init; /init loads the capebus-test module,
# whose suites run before the agent answers.
export CB_RUN=$run CB_LOGDIR=$top/build/test-logs
# shellcheck source=../tests/qemu/lib.bash
. "$top/tests/qemu/lib.bash"
guest_boot --append "kunit.enable=1" >&2 || true
guest_shutdown
cp "$run/console.log" "$top/build/test-logs/kunit.console.log"
"$top/scripts/ktap2tap.py" "$run/console.log"
