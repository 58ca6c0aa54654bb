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
load test-module

FIX=$BATS_TEST_DIRNAME/fixtures
I2C1=/proc/device-tree/i2c-header1

setup_file() {
	local f
	for f in enable-i2c1-a enable-i2c1-b enable-i2c1-slow enable-i2c1-reg0; do
		dtc -q -@ -I dts -O dtb -o "$BATS_FILE_TMPDIR/$f.dtbo" "$FIX/$f.dtso"
	done
	for f in enable-non-target disable-target; do
		dtc -q -@ -I dts -O dtb -o "$BATS_FILE_TMPDIR/$f.dtbo" "$FIX/hostile/$f.dtso"
	done
	dtc -q -@ -I dts -O dtb -o "$BATS_FILE_TMPDIR/hat-serial.dtbo" "$FIX/hat/hat-serial.dtso"
	dtc -q -@ -I dts -O dtb -o "$BATS_FILE_TMPDIR/leds.dtbo" "$FIX/configfs-leds.dtso"
	build_test_module slowi2c
	guest_boot
	for f in enable-i2c1-a enable-i2c1-b enable-i2c1-slow enable-i2c1-reg0 enable-non-target disable-target hat-serial leds; do
		guest_put "$BATS_FILE_TMPDIR/$f.dtbo"
	done
	guest_put "$BATS_FILE_TMPDIR/mod/capebus-slowi2c.ko"
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

# One slow cape delays only its own bus (Documentation/capebus/threat-model.rst,
# "Locking"): while the bus a cape enables is still probing (its device's
# probe held by tests/modules/slowi2c), a serial HAT+ declared on the Pi
# header enables its UART and loads.  Asserted by order, not time: the HAT
# has loaded while the slow device's probe is still waiting, and the bone
# cape's enable has not returned.  Both durations are printed for the note.
@test "a cape whose bus probes slowly delays no other connector: a HAT+ enabling its UART loads meanwhile" {
	local hat
	guest_ok "for c in /sys/class/capebus/*; do [ \"\$(cat \$c/family)\" = rpi ] && basename \$c && break; done"
	hat=/sys/kernel/config/capebus/$output
	cfs_run "S=/sys/kernel/debug/capebus-slowi2c; H=$hat/capes; up() { cut -d' ' -f1 /proc/uptime; }
		insmod /host/capebus-slowi2c.ko && declare_cape slow CFS-I2C1-SLOW &&
		cat /host/enable-i2c1-slow.dtbo > \$CAPES/slow/dtbo && (CAPES=\$H; declare_cape gps CFS-HAT-GPS) &&
		cat /host/hat-serial.dtbo > \$H/gps/dtbo || exit 1
		rm -f /tmp/slow.out /tmp/hat.out; t0=\$(up)
		{ echo 1 > \$CAPES/slow/enable; echo \"slow \$? \$(up)\" > /tmp/slow.out; } &
		for i in \$(seq 150); do [ \"\$(cat \$S/probing)\" = 1 ] && break; sleep 0.2; done
		h0=\$(up)
		{ echo 1 > \$H/gps/enable; echo \"hat \$? \$(up)\" > /tmp/hat.out; } &
		# Until the HAT's enable returns, or 30 s with the slow probe held.
		for i in \$(seq 150); do [ -s /tmp/hat.out ] && break; sleep 0.2; done
		echo \"\$(cat \$S/probing) \$(cut -d' ' -f1,2 /tmp/hat.out 2>/dev/null || echo hat-waiting) \$(cat \$H/gps/status) \$([ -s /tmp/slow.out ] && echo slow-done || echo slow-enabling)\"
		echo 1 > \$S/release; wait
		echo \"\$(cut -d' ' -f1,2 /tmp/slow.out /tmp/hat.out | tr '\n' ' ')\$(cat \$CAPES/slow/status \$H/gps/status | tr '\n' ' ')\"
		echo \"# durations: slow cape \$(awk -v a=\$t0 '{ print \$3 - a }' /tmp/slow.out) s (its device held until the HAT was seen), HAT \$(awk -v a=\$h0 '{ print \$3 - a }' /tmp/hat.out) s\"
		rmdir \$CAPES/slow \$H/gps && rmmod capebus_slowi2c && [ \"\$(dt_hash)\" = \"\$(cat /tmp/dt.base)\" ] && echo same-tree"
	echo "${lines[2]}" >&3
	[ "$status" -eq 0 ]
	[ "${lines[0]}" = "1 hat 0 loaded slow-enabling" ]
	[ "${lines[1]}" = "slow 0 hat 0 loaded loaded " ]
	[ "${lines[3]}" = same-tree ]
}

# Root's sysfs unbind (capebus's own file, Documentation/ABI/testing/
# sysfs-bus-capebus) is a transition of the cape's connector as any other:
# while a cape of the same controller is enabling its bus (its device's
# probe held), the unbind of another cape waits, and goes through after.
@test "root's unbind of a cape waits for the transition under way on its connector" {
	cfs_run "S=/sys/kernel/debug/capebus-slowi2c; G=/sys/bus/capebus/drivers/capebus-generic
		drv() { basename \$(readlink /sys/bus/capebus/devices/capebus0-slot2/driver 2>/dev/null || echo none); }
		insmod /host/capebus-slowi2c.ko && declare_cape leds CFS-LEDS && cat /host/leds.dtbo > \$CAPES/leds/dtbo &&
		echo 2 > \$CAPES/leds/slot && echo 1 > \$CAPES/leds/enable && declare_cape slow CFS-I2C1-SLOW &&
		cat /host/enable-i2c1-slow.dtbo > \$CAPES/slow/dtbo || exit 1
		rm -f /tmp/unbind.out
		echo 1 > \$CAPES/slow/enable &
		for i in \$(seq 150); do [ \"\$(cat \$S/probing)\" = 1 ] && break; sleep 0.2; done
		{ echo capebus0-slot2 > \$G/unbind; echo \"unbind \$?\" > /tmp/unbind.out; } &
		# What has not returned in 2 s waits for the slow probe.
		sleep 2
		echo \"\$(cat \$S/probing) \$(cat /tmp/unbind.out 2>/dev/null || echo unbind-waiting) \$(drv)\"
		echo 1 > \$S/release; wait
		echo \"\$(cat /tmp/unbind.out) \$(drv) \$(cat \$CAPES/slow/status)\"
		echo capebus0-slot2 > \$G/bind; echo \"bind \$? \$(drv)\"
		rmdir \$CAPES/slow \$CAPES/leds && rmmod capebus_slowi2c && [ \"\$(dt_hash)\" = \"\$(cat /tmp/dt.base)\" ] && echo same-tree"
	[ "$status" -eq 0 ]
	[ "${lines[0]}" = "1 unbind-waiting capebus-generic" ]
	[ "${lines[1]}" = "unbind 0 none loaded" ]
	[ "${lines[2]}" = "bind 0 capebus-generic" ]
	[ "${lines[3]}" = same-tree ]
}
