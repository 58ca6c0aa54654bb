#!/usr/bin/env bats
# The kernel-log judge of tests/qemu/lib.bash (cb_kernel_errors, used by
# guest_teardown, guest_shutdown and scripts/kunit.sh), fed lines as Linux
# 6.12 prints them (the format strings are quoted from its source).  No
# guest: a console log in a scratch CB_RUN stands in for QEMU's.

setup() {
	top=$(cd "$BATS_TEST_DIRNAME/../../.." && pwd)
	export CB_RUN=$BATS_TEST_TMPDIR/run CB_LOGDIR=$BATS_TEST_TMPDIR/logs
	mkdir -p "$CB_RUN" "$CB_LOGDIR"
	export CB_CONSOLE_KEEP=$CB_LOGDIR/t.console.log
	load "$top/tests/qemu/lib"
	cat > "$CB_RUN/console.log" <<-'LOG'
	[    2.101532] capebus capebus0: slot 0: BB-WTHR-01 00A2 loaded
	[    2.113408] i2c i2c-0: new_device: Instantiated device tmp105 at 0x48
	LOG
	echo 0 > "$CB_RUN/console.mark"
}

# judged LINE: the judge fails a test during which the kernel logged LINE,
# and names the line.
judged() {
	guest_teardown
	printf '[   12.345678] %s\n' "$1" >> "$CB_RUN/console.log"
	run guest_teardown
	echo "$output"
	[ "$status" -eq 1 ]
	[[ "$output" == *"$1"* ]]
}

@test "a quiet log passes" {
	run guest_teardown
	[ "$status" -eq 0 ]
	[ -z "$output" ]
}

@test "OF refcount: a changeset entry destroyed with its node still referenced" {
	judged "OF: ERROR: memory leak, expected refcount 1 instead of 2, of_node_get()/of_node_put() unbalanced - destroy cset entry: attach overlay node /cape-devices/tmp105@48"
}

@test "OF refcount: a bad of_node_put()" {
	judged "OF: ERROR: of_node_release() detected bad of_node_put() on /cape-devices/tmp105@48/compatible"
}

@test "sysfs: a duplicate filename (pr_warn and a stack dump, no WARNING)" {
	judged "sysfs: cannot create duplicate filename '/devices/platform/capebus/capebus0/slot0'"
}

@test "kobject: adding one with a name already in its directory" {
	judged "kobject: kobject_add_internal failed for slot0 with -EEXIST, don't try to register things with the same name in the same directory."
}

@test "kobject: initialising one twice" {
	judged "kobject: kobject (c2a4b000): tried to init an initialized object, something is seriously wrong."
}

@test "lockdep: a lock order cycle" {
	judged "WARNING: possible circular locking dependency detected"
}

@test "lockdep: recursive locking" {
	judged "WARNING: possible recursive locking detected"
}

@test "lockdep: a lock with no static key" {
	judged "INFO: trying to register non-static key."
}

@test "KASAN" {
	judged "BUG: KASAN: slab-use-after-free in capebus_cape_release+0x2c/0x60"
}

@test "UBSAN" {
	judged "UBSAN: shift-out-of-bounds in drivers/capebus/bone/bone-eeprom.c:212:17"
}

@test "a hung task" {
	judged "INFO: task kworker/0:2:41 blocked for more than 30 seconds."
}

@test "an RCU stall" {
	judged "rcu: INFO: rcu_preempt detected stalls on CPUs/tasks:"
}

@test "kmemleak: the scan's count and an object's report" {
	judged "kmemleak: 2 new suspected memory leaks (see /sys/kernel/debug/kmemleak)"
	judged "unreferenced object 0xc2a4b000 (size 64):"
}

@test "sleeping in atomic context" {
	judged "BUG: sleeping function called from invalid context at kernel/locking/mutex.c:283"
}

@test "a refcount underflow" {
	judged "refcount_t: underflow; use-after-free."
}

@test "mainline's overlay leak message fails unless the test says it expects it" {
	local line="OF: overlay: WARNING: memory leak will occur if overlay removed, property: /bus@40000000/i2c@3000/status"
	judged "$line"
	# Declared: passes; any other error still fails.
	printf '[   13.0] %s\n' "$line" >> "$CB_RUN/console.log"
	CB_KERNEL_EXPECTED='OF: overlay: WARNING: memory leak will occur if overlay removed' run guest_teardown
	[ "$status" -eq 0 ]
	printf '[   14.0] %s\n[   14.1] %s\n' "$line" "WARNING: CPU: 1 PID: 7 at drivers/of/overlay.c:1" >> "$CB_RUN/console.log"
	CB_KERNEL_EXPECTED='OF: overlay: WARNING: memory leak will occur if overlay removed' run guest_teardown
	[ "$status" -eq 1 ]
	[[ "$output" == *"drivers/of/overlay.c:1"* ]]
	[[ "$output" != *"property:"* ]]
}

@test "what the log gets after the last test fails at shutdown" {
	guest_teardown
	echo "[   20.0] WARNING: CPU: 0 PID: 90 at drivers/capebus/capebus-core.c:400 capebus_release+0x10/0x20" >> "$CB_RUN/console.log"
	# A QEMU that is gone: nothing to quit, only the log to judge.
	sleep 0.01 & echo $! > "$CB_RUN/qemu.pid"; wait
	run guest_shutdown
	echo "$output"
	[ "$status" -eq 1 ]
	[[ "$output" == *"after the last test"*"capebus-core.c:400"* ]]
	# And the log is kept.
	grep -q 'capebus-core.c:400' "$CB_CONSOLE_KEEP"
}

@test "a kmemleak suspect fails the shutdown scan" {
	# The agent's answer to the scan, as the real kmemleak file reads.
	guest_run() {
		status=0
		output='unreferenced object 0xc3b1e600 (size 128):
  comm "sh", pid 97, jiffies 4294940300
  hex dump (first 32 bytes):
  backtrace (crc 8f1d0b1a):
    kmemleak_alloc+0x34/0x3c
    capebus_cape_alloc+0x20/0x9c [capebus]'
	}
	run _guest_kmemleak
	echo "$output"
	[ "$status" -eq 1 ]
	[[ "$output" == *"capebus_cape_alloc"* ]]
	guest_run() { status=0 output=""; }
	run _guest_kmemleak
	[ "$status" -eq 0 ]
	guest_run() { status=3 output=""; }
	run _guest_kmemleak
	[ "$status" -eq 1 ]
	[[ "$output" == *"kmemleak is missing"* ]]
}
