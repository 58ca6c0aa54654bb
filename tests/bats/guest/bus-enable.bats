#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
# A header bus the board leaves disabled (the test board's I2C1, i2c-gpio on
# simulated lines) is enabled by capebus for the capes whose overlay asks
# (status = "okay" on the target), kept while one of them is there, and
# disabled again after the last: the tree is then exactly the board's, and
# the overlay code never warns "memory leak will occur" (the harness fails
# any WARNING).  Enabling anything but a cape target, or any other status
# edit, is refused.  Documentation/capebus/threat-model.rst, "Add only".

load ../../qemu/lib
load cfs-run

FIX=$BATS_TEST_DIRNAME/fixtures
I2C1=/proc/device-tree/i2c-header1

setup_file() {
	local f
	for f in enable-i2c1-a enable-i2c1-b enable-i2c1-reg0; do
		dtc -q -@ -I dts -O dtb -o "$BATS_FILE_TMPDIR/$f.dtbo" "$FIX/$f.dtso"
	done
	for f in enable-non-target disable-target; do
		dtc -q -@ -I dts -O dtb -o "$BATS_FILE_TMPDIR/$f.dtbo" "$FIX/hostile/$f.dtso"
	done
	guest_boot
	for f in enable-i2c1-a enable-i2c1-b enable-i2c1-reg0 enable-non-target disable-target; do
		guest_put "$BATS_FILE_TMPDIR/$f.dtbo"
	done
	guest_put "$FIX/configfs-lib.sh" cfs.sh
	guest_ok '. /host/cfs.sh; dt_hash > /tmp/dt.base'
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

# The I2C adapter whose device-tree node is the header's I2C1 (or "none").
i2c1_adapter='a=none; for d in /sys/bus/i2c/devices/i2c-*; do
	[ "$(readlink -f $d/of_node 2>/dev/null)" = "$(readlink -f /sys/firmware/devicetree/base/i2c-header1)" ] && a=${d##*/}; done; echo $a'

@test "the board leaves its I2C1 disabled: no adapter" {
	guest_ok "cat $I2C1/status; echo; $i2c1_adapter"
	[ "${lines[0]}" = disabled ]
	[ "${lines[1]}" = none ]
}

@test "a cape asking for I2C1 gets it enabled, with its device on it" {
	cfs_run "declare_cape a CFS-I2C1-A && cat /host/enable-i2c1-a.dtbo > \$CAPES/a/dtbo && echo 1 > \$CAPES/a/enable &&
		cat \$CAPES/a/status $I2C1/status; echo; $i2c1_adapter"
	[ "$status" -eq 0 ]
	[ "${lines[0]}" = loaded ]
	[ "${lines[1]}" = okay ]
	[[ "${lines[2]}" == i2c-* ]]
	guest_ok "ls /sys/bus/i2c/devices/${lines[2]#i2c-}-001d/ >/dev/null && echo client; dmesg | grep -c 'memory leak will occur' || true"
	[ "${lines[0]}" = client ]
	[ "${lines[1]}" = 0 ]
}

@test "a second cape shares the bus; it stays enabled until the last one goes" {
	cfs_run "declare_cape b CFS-I2C1-B && cat /host/enable-i2c1-b.dtbo > \$CAPES/b/dtbo && echo 1 > \$CAPES/b/enable &&
		rmdir \$CAPES/a && cat $I2C1/status; echo; $i2c1_adapter"
	[ "$status" -eq 0 ]
	[ "${lines[0]}" = okay ]
	[[ "${lines[1]}" == i2c-* ]]
	guest_ok "ls -d /sys/bus/i2c/devices/*-001e /sys/bus/i2c/devices/*-001d 2>/dev/null | sed 's,.*-,,'"
	[ "$output" = 001e ]
	cfs_run "rmdir \$CAPES/b && cat $I2C1/status; echo; $i2c1_adapter; [ \"\$(dt_hash)\" = \"\$(cat /tmp/dt.base)\" ] && echo same-tree"
	[ "${lines[0]}" = disabled ]
	[ "${lines[1]}" = none ]
	[ "${lines[2]}" = same-tree ]
}

# Five rounds: each enable of the stand-in I2C1 (i2c-gpio, on slow simulated
# lines) costs ~7 s of the I2C core's hwmon address detection.
@test "enable and disable five times: the tree comes back each time, no warning" {
	cfs_run "for i in \$(seq 5); do declare_cape a CFS-I2C1-A && cat /host/enable-i2c1-a.dtbo > \$CAPES/a/dtbo &&
		echo 1 > \$CAPES/a/enable && rmdir \$CAPES/a || exit 1; done;
		[ \"\$(dt_hash)\" = \"\$(cat /tmp/dt.base)\" ] && echo same-tree; $i2c1_adapter"
	[ "$status" -eq 0 ]
	[ "${lines[0]}" = same-tree ]
	[ "${lines[1]}" = none ]
}

@test "the bus a cape enables is I2C before its adapter is up: reg 0 is refused" {
	cfs_run "declare_cape z CFS-I2C1-ZERO && cat /host/enable-i2c1-reg0.dtbo > \$CAPES/z/dtbo &&
		{ echo 1 > \$CAPES/z/enable; } 2>/dev/null; cat \$CAPES/z/status; $i2c1_adapter; rmdir \$CAPES/z;
		[ \"\$(dt_hash)\" = \"\$(cat /tmp/dt.base)\" ] && echo same-tree"
	[[ "${lines[0]}" == "failed: overlay refused: bus addresses: node zero on i2c-header1: reg 0x0 is no 7-bit I2C address"* ]]
	[ "${lines[1]}" = none ]
	[ "${lines[2]}" = same-tree ]
}

@test "enabling a node that is not a cape target is refused, naming it" {
	cfs_run "declare_cape h CFS-HOSTILE && cat /host/enable-non-target.dtbo > \$CAPES/h/dtbo && echo 1 > \$CAPES/h/enable"
	[ "$status" -ne 0 ]
	cfs_run "cat \$CAPES/h/status; cape_devices; [ \"\$(dt_hash)\" = \"\$(cat /tmp/dt.base)\" ] && echo same-tree; rmdir \$CAPES/h"
	[ "${lines[0]}" = "failed: overlay refused: targets: it enables /capebus, which is not a cape target of capebus0" ]
	[ "${lines[1]}" = none ]
	[ "${lines[2]}" = same-tree ]
}

@test "any other status edit of a target is an edit, refused by add-only" {
	cfs_run "declare_cape h CFS-HOSTILE && cat /host/disable-target.dtbo > \$CAPES/h/dtbo && echo 1 > \$CAPES/h/enable"
	[ "$status" -ne 0 ]
	cfs_run "cat \$CAPES/h/status; [ \"\$(dt_hash)\" = \"\$(cat /tmp/dt.base)\" ] && echo same-tree; rmdir \$CAPES/h"
	[[ "${lines[0]}" == "failed: overlay refused: add only: fragment fragment@0 sets property status of "* ]]
	[ "${lines[1]}" = same-tree ]
}
