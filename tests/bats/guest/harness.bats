#!/usr/bin/env bats
# The harness itself: a test must be able to fail.  A kernel complaint, a
# command that hangs and a guest that never boots each make the test fail.

load ../../qemu/lib

setup_file() {
	guest_boot
}

teardown_file() {
	guest_shutdown
}

setup() {
	guest_setup
}

teardown() {
	guest_teardown
}

@test "a WARNING in the kernel log fails the test that caused it" {
	guest_ok 'echo "WARNING: CPU: 0 PID: 1 at injected by harness.bats" > /dev/kmsg'
	sleep 0.5
	run guest_teardown
	[ "$status" -ne 0 ]
	[[ "$output" == *"injected by harness.bats"* ]]
	# The check moved past the injected line: the next check passes.
	run guest_teardown
	[ "$status" -eq 0 ]
}

@test "an Oops or BUG line fails it too" {
	guest_ok 'echo "BUG: injected by harness.bats" > /dev/kmsg; echo "Internal error: Oops: injected" > /dev/kmsg'
	sleep 0.5
	run guest_teardown
	[ "$status" -ne 0 ]
	[[ "$output" == *"BUG: injected"* ]]
	[[ "$output" == *"Oops: injected"* ]]
}

@test "a command that outlives its timeout gives status 124 and a dump of the guest, and the channel recovers" {
	CB_RUN_TIMEOUT=2 guest_run 'sleep 8; echo late'
	[ "$status" -eq 124 ]
	[[ "$output" == *"timed out"* ]]
	# Where the CPU was, and the kernel's own list of blocked tasks.
	[[ "$output" == *"guest CPU at pc "[0-9a-f]* ]]
	[[ "$output" == *"sysrq: Show Blocked State"* ]]
	# Every task's stack went to the console log: the agent's sleep among them.
	grep -q 'sysrq: Show State' "$CB_RUN/console.log"
	grep -Eq 'task:sleep +state:S' "$CB_RUN/console.log"
	sleep 8
	guest_run 'echo on time'
	[ "$status" -eq 0 ]
	[ "$output" = "on time" ]
}

@test "a guest that never boots fails guest_boot, with its console log kept" {
	export CB_RUN=$BATS_TEST_TMPDIR/noboot CB_KERNEL=$BATS_TEST_TMPDIR/not-a-kernel
	head -c 4096 /dev/zero > "$CB_KERNEL"
	CB_BOOT_TIMEOUT=8 run guest_boot
	[ "$status" -ne 0 ]
	[[ "$output" == *"no answer from the guest"* || "$output" == *"QEMU exited"* ]]
	[ -f "$CB_LOGDIR/harness.console.log" ]
	guest_shutdown
}
