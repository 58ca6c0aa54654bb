#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
# Cape drivers of their own: module aliases from id tables (file2alias)
# that match a cape's MODALIAS, a driver loaded after its cape appeared
# taking it over from the generic driver, and handing it back when it goes.
#
# Slot 0: the weather cape (BB-WTHR-01 00A2); its driver is the
# capebus-bone-weather module, not loaded at boot on the fast lane (nothing
# runs udev there).  On the distribution lane (CB_LANE=distro) mdev loads it
# when the cape appears (tests/bats/distro/hotplug-modules.bats checks
# that); setup_file unloads it, and the cape's "add" event, replayed, loads
# it again by its MODALIAS through mdev, as udev would.

load ../../qemu/lib
load test-module

FIX=$BATS_TEST_DIRNAME/fixtures
CTRL=/sys/class/capebus/capebus0
WEATHER=/sys/bus/capebus/devices/capebus0-slot0
DT_HASH='find /proc/device-tree/ -type f | LC_ALL=C sort | xargs md5sum | md5sum | cut -d" " -f1'
# The driver bound to the weather cape, by name, or "none".
DRIVER="basename \$(readlink $WEATHER/driver 2>/dev/null || echo none)"
# The tmp105 the weather cape's overlay brings up, by its hwmon name.
TMP105='grep -l tmp105 /sys/class/hwmon/hwmon*/name 2>/dev/null | wc -l'

setup_file() {
	guest_boot --slot 0="$CB_FIRMWARE/BB-WTHR-01-00A2.eeprom"
	guest_run "for i in \$(seq 300); do [ \"\$(cat $CTRL/slot0/state 2>/dev/null)\" = loaded ] && exit 0; sleep 0.2; done; exit 1"
	if [ "$CB_LANE" = distro ]; then
		guest_run "cb-settle && rmmod capebus_bone_weather"
	fi
	guest_run "$DT_HASH > /tmp/dt.weather"
	guest_put "$FIX/configfs-lib.sh" cfs.sh
	dtc -q -@ -I dts -O dtb -o "$BATS_FILE_TMPDIR/rtc.dtbo" "$FIX/configfs-rtc.dtso"
	guest_put "$BATS_FILE_TMPDIR/rtc.dtbo"
	build_test_module slowprobe
	guest_put "$BATS_FILE_TMPDIR/mod/capebus-slowprobe.ko"
	guest_teardown
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

@test "the weather driver's module alias, from its id table, matches the cape's modalias" {
	guest_ok "grep -h 'capebus:' /lib/modules/*/modules.alias; cat $WEATHER/modalias"
	[ "${lines[0]}" = "alias capebus:fbone:pBB-WTHR-01:v* capebus_bone_weather" ]
	[ "${lines[1]}" = "capebus:fbone:pBB-WTHR-01:v00A2" ]
	[ "${#lines[@]}" -eq 2 ]
}

@test "a driver loaded after its cape appeared takes it over from the generic driver" {
	guest_ok "$DRIVER; [ -e $WEATHER/revision_known ] || echo no-attribute"
	[ "${lines[*]}" = "capebus-generic no-attribute" ]
	# Loaded by the cape's MODALIAS, as udev would (by mdev, on the
	# distribution lane).
	local load="modprobe \$(cat $WEATHER/modalias)"
	# (mdev's modprobe, then the takeover, happen after the write returns:
	# wait for the driver link.)
	[ "$CB_LANE" != distro ] || load="echo add > $WEATHER/uevent && for i in \$(seq 150); do
		[ \"\$($DRIVER)\" = capebus-bone-weather ] && break; sleep 0.2; done; cb-settle"
	guest_ok "$load && $DRIVER && cat $WEATHER/revision_known $CTRL/slot0/state && $TMP105 &&
		[ \"\$($DT_HASH)\" = \"\$(cat /tmp/dt.weather)\" ] && echo same-tree"
	[ "${lines[*]}" = "capebus-bone-weather 1 loaded 1 same-tree" ]
}

@test "unloaded, the driver hands the cape back to the generic driver" {
	guest_ok "rmmod capebus_bone_weather && $DRIVER && cat $CTRL/slot0/state && $TMP105 &&
		[ ! -e $WEATHER/revision_known ] && [ \"\$($DT_HASH)\" = \"\$(cat /tmp/dt.weather)\" ] && echo same-tree"
	[ "${lines[*]}" = "capebus-generic loaded 1 same-tree" ]
}

# tests/modules/slowprobe: a driver whose probe waits until it is let go.
# It takes a declared cape (the RTC overlay, in hardware slot 2) over from
# the generic driver; while its probe runs, dev.driver is set (the driver
# link is there) but the overlay is not applied: the cape is not "loaded"
# until the probe has returned.
@test "while a driver's probe runs the cape reads detected, and loaded once it returned" {
	local slow=/sys/kernel/debug/capebus-slowprobe
	guest_ok ". /host/cfs.sh && declare_cape slow CB-SLOW-01 && cat /host/rtc.dtbo > \$CAPES/slow/dtbo &&
		echo 2 > \$CAPES/slow/slot && echo 1 > \$CAPES/slow/enable &&
		d=/sys/bus/capebus/devices/\$(cat \$CAPES/slow/cape) &&
		basename \$(readlink \$d/driver) && cat \$CAPES/slow/status $CTRL/slot2/state || exit 1
		insmod /host/capebus-slowprobe.ko > /tmp/insmod.out 2>&1 & pid=\$!
		for i in \$(seq 150); do [ \"\$(cat $slow/probing 2>/dev/null)\" = 1 ] && break; sleep 0.2; done
		basename \$(readlink \$d/driver); cat \$CAPES/slow/status $CTRL/slot2/state
		ls /sys/bus/i2c/devices | grep -c -- -0068
		echo 1 > $slow/release; wait \$pid; echo insmod \$?
		cat \$CAPES/slow/status $CTRL/slot2/state; ls /sys/bus/i2c/devices | grep -c -- -0068
		rmdir \$CAPES/slow && rmmod capebus_slowprobe && echo cleaned"
	printf '# guest:\n%s\n' "$output"
	[ "${lines[*]:0:3}" = "capebus-generic loaded loaded" ]
	# Mid-probe: the driver is set, the overlay (its RTC) not applied yet.
	[ "${lines[*]:3:4}" = "capebus-slowprobe detected detected 0" ]
	[ "${lines[*]:7}" = "insmod 0 loaded loaded 1 cleaned" ]
}

@test "a part number with separators and pattern characters gets an unambiguous modalias" {
	guest_ok ". /host/cfs.sh && mkdir \$CAPES/odd && echo 'Odd board' > \$CAPES/odd/board_name &&
		echo 00A0 > \$CAPES/odd/version && printf 'A:B v*1\n' > \$CAPES/odd/part_number &&
		echo 1 > \$CAPES/odd/enable && cat /sys/bus/capebus/devices/\$(cat \$CAPES/odd/cape)/modalias &&
		grep MODALIAS /sys/bus/capebus/devices/\$(cat \$CAPES/odd/cape)/uevent && rmdir \$CAPES/odd"
	[ "${lines[0]}" = "capebus:fbone:pA%3AB%20v%2A1:v00A0" ]
	[ "${lines[1]}" = "MODALIAS=capebus:fbone:pA%3AB%20v%2A1:v00A0" ]
}
