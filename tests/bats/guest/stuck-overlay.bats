#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
# A cape whose overlay cannot be removed ("stuck"): a foreign overlay,
# applied with a bare of_overlay_fdt_apply() by a test module
# (tests/modules/ovhold), sets a property on a node the cape added, so
# of_overlay_remove() refuses the cape's overlay as not topmost.  The cape
# keeps its pins while its overlay stays; when its controller goes (rmmod
# capebus-bone) it is reported and let go, and kmemleak finds nothing.

load ../../qemu/lib
load test-module
load cfs-run

FIX=$BATS_TEST_DIRNAME/fixtures

setup_file() {
	build_test_module ovhold
	dtc -q -@ -I dts -O dtb -o "$BATS_FILE_TMPDIR/leds.dtbo" "$FIX/configfs-leds.dtso"
	dtc -q -I dts -O dtb -o "$BATS_FILE_TMPDIR/foreign.dtbo" - <<'DTS'
/dts-v1/;
/plugin/;
/ {
	fragment@0 {
		target-path = "/cape-devices/cape-leds";
		__overlay__ {
			foreign-property = "set by another overlay";
		};
	};
};
DTS
	guest_boot
	guest_put "$BATS_FILE_TMPDIR/mod/capebus-ovhold.ko"
	guest_put "$BATS_FILE_TMPDIR/leds.dtbo"
	guest_put "$BATS_FILE_TMPDIR/foreign.dtbo"
	guest_put "$FIX/configfs-lib.sh" cfs.sh
	guest_ok 'insmod /host/capebus-ovhold.ko; . /host/cfs.sh; dt_hash > /tmp/dt.base'
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

@test "a foreign overlay on a cape's node makes the cape's overlay stuck; its pin stays held" {
	cfs_run 'declare_cape led CFS-LED && cat /host/leds.dtbo > $CAPES/led/dtbo && echo 1 > $CAPES/led/enable &&
		cat /host/foreign.dtbo > /sys/kernel/debug/capebus-ovhold/apply && cat /sys/kernel/debug/capebus-ovhold/id &&
		cat /proc/device-tree/cape-devices/cape-leds/foreign-property; echo; rmdir $CAPES/led && cape_devices &&
		[ -d /proc/device-tree/cape-devices/cape-leds ] && echo leds-node-stays'
	[ "$status" -eq 0 ]
	[ "${lines[0]}" != 0 ]
	[ "${lines[1]}" = "set by another overlay" ]
	[ "${lines[2]}" = none ]
	[ "${lines[3]}" = leds-node-stays ]
	guest_ok 'dmesg | grep -c "could not be removed; its nodes and devices stay"'
	[ "$output" = 1 ]
	# Its pin stays held, by the cape that is gone.
	cfs_run 'declare_cape p CFS-PIN && echo P8.13 > $CAPES/p/pins && echo 1 > $CAPES/p/enable'
	[ "$status" -ne 0 ]
	cfs_run 'cat $CAPES/p/status; rmdir $CAPES/p'
	[ "${lines[0]}" = "failed: pin P8.13 is held by CFS-LED (slot 4)" ]
}

@test "when the controller goes, the stuck cape is reported and let go; kmemleak finds nothing" {
	guest_ok 'rmmod capebus-bone && dmesg | grep -c "CFS-LED (slot 4): overlay [0-9]* left in the tree"'
	[ "$output" = 1 ]
	_guest_kmemleak
	# Back, the controller is new: the pin is free; the foreign overlay,
	# then the cape's stuck one, are the tree's business now.
	cfs_run 'modprobe capebus-bone && for i in $(seq 600); do [ -d $CAPES ] && break; sleep 0.1; done;
		declare_cape p CFS-PIN && echo P8.13 > $CAPES/p/pins && echo 1 > $CAPES/p/enable && cat $CAPES/p/status; rmdir $CAPES/p;
		echo 1 > /sys/kernel/debug/capebus-ovhold/remove && cat /sys/kernel/debug/capebus-ovhold/id'
	[ "$status" -eq 0 ]
	[[ "${lines[0]}" == detected* ]]
	[ "${lines[1]}" = 0 ]
}
