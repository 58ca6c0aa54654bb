#!/bin/bash
# Boot the guest with KUnit enabled, and print its results as TAP.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
run=$top/build/kunit-run
rm -rf "$run"
mkdir -p "$run" "$top/build/test-logs"
"$top/tests/qemu/boot.sh" "$run" --append "kunit.enable=1"
pid=$(cat "$run/qemu.pid")
# KUnit runs before /init; wait for the agent's banner or QEMU's end.
for _ in $(seq 600); do
	kill -0 "$pid" 2>/dev/null || break
	grep -q 'Run /init as init process' "$run/console.log" && break
	sleep 0.2
done
kill "$pid" 2>/dev/null || true
cp "$run/console.log" "$top/build/test-logs/kunit.console.log"
"$top/scripts/ktap2tap.py" "$run/console.log"
