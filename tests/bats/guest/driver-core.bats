#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
# Series patch 0003: the driver core frees a deferred probe reason that was
# recorded while the device was off the deferred list ("Device not ready to
# probe": a driver registering while a device is half-way through
# device_add(), as when mdev loads a driver module while a cape's overlay
# adds platform devices).  Seen on the distribution lane as an
# intermittent kmemleak report of that string.  tests/modules/deferreason
# makes that state at will; kmemleak must find nothing.

load ../../qemu/lib
load test-module

setup_file() {
	build_test_module deferreason
	guest_boot
	guest_put "$BATS_FILE_TMPDIR/mod/capebus-deferreason.ko"
	guest_ok 'insmod /host/capebus-deferreason.ko'
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

@test "a deferred probe reason recorded off the deferred list is freed with its device" {
	guest_ok 'for i in 1 2 3; do echo 1 > /sys/kernel/debug/capebus-deferreason/run || exit 1; done;
		ls /sys/bus/platform/devices/ | grep -c capebus-deferreason || true'
	# Each device came and went.
	[ "$output" = 0 ]
	_guest_kmemleak
}
