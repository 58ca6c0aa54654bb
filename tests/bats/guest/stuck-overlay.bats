#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
# A cape whose overlay cannot be removed ("stuck"): a foreign overlay,
# applied with a bare of_overlay_fdt_apply() by a test module
# (tests/modules/ovhold), sets a property on a node the cape added, so
# of_overlay_remove() refuses the cape's overlay as not topmost.  Whichever
# path failed to remove it (root's unbind, the cape's removal), the cape
# goes on its controller's stuck list and keeps its pins while its overlay
# stays; a rescan or a later removal tries again.  When its controller goes
# (rmmod capebus-bone) the cape waits, its pins still held, for the next
# controller of the same connector, which adopts it: with the buses its
# overlay keeps enabled, and their pins; the capebus core stays meanwhile.
# A bus such a cape enabled keeps its pads muxed and held (the connector's
# keeper) while the overlay stays, across a reload too; once it comes off,
# whichever path removes it, the pads go back to the board's values.
# P9.17 and P9.18 are pads 0x15c and 0x158 (pins 87 and 86).

load ../../qemu/lib
load test-module
load cfs-run

FIX=$BATS_TEST_DIRNAME/fixtures

# Load capebus-bone and wait for its controller's configfs group: /tmp/cb
# names it for cfs.sh (the old controller's number may still be taken).
RELOAD='modprobe capebus-bone && for i in $(seq 600); do
		for c in /sys/class/capebus/*; do
			[ "$(cat $c/family)" = bone ] && [ -d /sys/kernel/config/capebus/${c##*/}/capes ] &&
				echo /sys/kernel/config/capebus/${c##*/} > /tmp/cb && break 2
		done; sleep 0.1; done'

setup_file() {
	build_test_module ovhold
	dtc -q -@ -I dts -O dtb -o "$BATS_FILE_TMPDIR/leds.dtbo" "$FIX/configfs-leds.dtso"
	# A cape that enables I2C1 and muxes its pads (P9.17, P9.18), and an
	# overlay on its RTC's node.
	"${CB_CAPETOOL:-$CB_TOP/build/capetool/host/capetool}" create \
		"$CB_TOP/cape-defs/bone/bb-i2c1-rtc-ds3231.cape" --board beaglebone-black \
		-o "$BATS_FILE_TMPDIR" >/dev/null
	# A display that joins I2C1 with the same pin words (bus-share.bats').
	"${CB_CAPETOOL:-$CB_TOP/build/capetool/host/capetool}" create \
		"$FIX/bus-share/i2c1-ssd1306.cape" --board beaglebone-black \
		-o "$BATS_FILE_TMPDIR" >/dev/null
	dtc -q -I dts -O dtb -o "$BATS_FILE_TMPDIR/foreign-rtc.dtbo" - <<'DTS'
/dts-v1/;
/plugin/;
/ {
	fragment@0 {
		target-path = "/i2c-header1/ds3231@68";
		__overlay__ {
			foreign-property = "set by another overlay";
		};
	};
};
DTS
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
	guest_put "$BATS_FILE_TMPDIR/foreign-rtc.dtbo"
	guest_put "$BATS_FILE_TMPDIR/BB-I2C1-DS3231-00A0.eeprom" rtc.eeprom
	guest_put "$BATS_FILE_TMPDIR/BB-I2C1-DS3231-00A0.dtbo" rtc.dtbo
	guest_put "$BATS_FILE_TMPDIR/CB-I2C1-SSD1306-00A0.eeprom" oled.eeprom
	guest_put "$BATS_FILE_TMPDIR/CB-I2C1-SSD1306-00A0.dtbo" oled.dtbo
	guest_put "$FIX/configfs-lib.sh" cfs.sh
	guest_ok 'insmod /host/capebus-ovhold.ko; . /host/cfs.sh; dt_hash > /tmp/dt.base; pad_state 87 86 > /tmp/pads.base'
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

@test "root's unbind whose overlay removal fails puts the cape on the stuck list; a rescan removes it later" {
	# Before: the driver core's unbind left the overlay marked stuck but
	# on no list: nothing tried again, and the cape could not bind again.
	cfs_run 'declare_cape u CFS-UNB && cat /host/leds.dtbo > $CAPES/u/dtbo && echo 1 > $CAPES/u/enable &&
		c=$(cat $CAPES/u/cape) && G=/sys/bus/capebus/drivers/capebus-generic &&
		cat /host/foreign.dtbo > /sys/kernel/debug/capebus-ovhold/apply &&
		echo $c > $G/unbind &&
		[ -d /proc/device-tree/cape-devices/cape-leds ] && echo stuck-node-stays &&
		echo 1 > /sys/kernel/debug/capebus-ovhold/remove &&
		echo 1 > /sys/class/capebus/$(basename $CB)/rescan &&
		{ [ -d /proc/device-tree/cape-devices/cape-leds ] && echo node-stays || echo node-gone; } &&
		echo $c > $G/bind && cat $CAPES/u/status && rmdir $CAPES/u &&
		[ "$(dt_hash)" = "$(cat /tmp/dt.base)" ] && echo same-tree'
	[ "$status" -eq 0 ]
	[ "${lines[0]}" = stuck-node-stays ]
	[ "${lines[1]}" = node-gone ]
	[ "${lines[2]}" = loaded ]
	[ "${lines[3]}" = same-tree ]
	guest_ok 'dmesg | grep -c "CFS-UNB (slot [0-9]*): overlay removed after all$"'
	[ "$output" = 1 ]
}

@test "a foreign overlay on a cape's node makes the cape's overlay stuck; its pin stays held" {
	# The log from here on: the test counts its own cape's failed removal.
	cfs_run 'dmesg -c >/dev/null; declare_cape led CFS-LED && cat /host/leds.dtbo > $CAPES/led/dtbo && echo 1 > $CAPES/led/enable &&
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

@test "when the controller goes, the stuck cape's pin stays held; the next controller adopts it and frees it once it comes off" {
	# Before: the stuck cape was let go with its controller, and the next
	# controller gave P8.13 to another cape while the LED node was in the
	# tree.
	guest_ok 'rmmod capebus-bone'
	_guest_kmemleak
	cfs_run "$RELOAD"'
		. /host/cfs.sh; declare_cape p CFS-PIN && echo P8.13 > $CAPES/p/pins; echo 1 > $CAPES/p/enable; cat $CAPES/p/status'
	[ "${lines[0]}" = "failed: pin P8.13 is held by CFS-LED (slot 4)" ]
	guest_ok 'dmesg | grep -c "CFS-LED (slot 4): overlay [0-9]* stays in the tree"'
	[ "$output" = 1 ]
	# The foreign overlay gone, a rescan of the new controller removes the
	# stuck one: its node is gone, the pin free.
	cfs_run 'echo 0 > $CAPES/p/enable; echo 1 > /sys/kernel/debug/capebus-ovhold/remove &&
		echo 1 > /sys/class/capebus/$(basename $CB)/rescan && echo 1 > $CAPES/p/enable && cat $CAPES/p/status &&
		rmdir $CAPES/p && ls /proc/device-tree/cape-devices | grep -c cape-leds'
	[[ "${lines[0]}" == detected* ]]
	[ "${lines[1]}" = 0 ]
	guest_ok 'dmesg | grep -c "CFS-LED (slot 4): overlay removed after all, pins released"'
	[ "$output" = 1 ]
	_guest_kmemleak
}

@test "a stuck cape that enabled a bus: the next controller adopts the bus with it, its pins held" {
	# Red team round 13: rmmod WARNed about the bus's pad keeper (F5), and
	# the bus's pins were held in the old controller's table only, so the
	# next controller gave I2C1's SCL pin to a GPIO cape while the bus and
	# its RTC were in the tree (F6).
	cfs_run 'dmesg -c >/dev/null; dt_hash > /tmp/dt.before
		mkdir $CAPES/rtc && cat /host/rtc.eeprom > $CAPES/rtc/eeprom && cat /host/rtc.dtbo > $CAPES/rtc/dtbo &&
		echo 1 > $CAPES/rtc/enable && cat $CAPES/rtc/status &&
		cat /host/foreign-rtc.dtbo > /sys/kernel/debug/capebus-ovhold/apply && rmdir $CAPES/rtc &&
		cat /proc/device-tree/i2c-header1/status && echo &&
		declare_cape g CFS-GPIO17 && echo P9.17 > $CAPES/g/pins; echo 1 > $CAPES/g/enable; cat $CAPES/g/status; rmdir $CAPES/g'
	[ "${lines[0]}" = loaded ]
	[ "${lines[1]}" = okay ]
	[ "${lines[2]}" = "failed: pin P9.17 is held by bus bone_i2c_1" ]
	guest_ok 'rmmod capebus-bone && dmesg | grep -c "WARNING:" || true'
	[ "$output" = 0 ]
	# The core stays while the cape waits: its buses are the core's state
	# (before: rmmod capebus WARNed, the enabled bus's changeset leaked).
	cfs_run 'unload_core 2>/tmp/unload.err; echo rc=$?; dmesg | grep -c "WARNING:"; cat /tmp/unload.err'
	[ "${lines[0]}" != rc=0 ]
	[ "${lines[1]}" = 0 ]
	cfs_run "$RELOAD"'
		. /host/cfs.sh; cat /proc/device-tree/i2c-header1/status && echo && pad_state 87 86
		declare_cape g CFS-GPIO17 && echo P9.17 > $CAPES/g/pins; echo 1 > $CAPES/g/enable; cat $CAPES/g/status'
	[ "${lines[0]}" = okay ]
	[[ "${lines[1]}" == "00000072 "* ]]
	[[ "${lines[2]}" == "00000072 "* ]]
	[ "${lines[3]}" = "failed: pin P9.17 is held by bus bone_i2c_1" ]
	# The foreign overlay gone, a rescan removes the stuck one: the bus is
	# disabled and its pins free.
	cfs_run 'echo 0 > $CAPES/g/enable; echo 1 > /sys/kernel/debug/capebus-ovhold/remove &&
		echo 1 > /sys/class/capebus/$(basename $CB)/rescan && cat /proc/device-tree/i2c-header1/status && echo &&
		echo 1 > $CAPES/g/enable && cat $CAPES/g/status && rmdir $CAPES/g &&
		[ "$(dt_hash)" = "$(cat /tmp/dt.before)" ] && echo same-tree'
	[ "${lines[0]}" = disabled ]
	[[ "${lines[1]}" == detected* ]]
	[ "${lines[2]}" = same-tree ]
	_guest_kmemleak
}

# Guest shell for the tests below (after cfs.sh).  STUCK: the RTC cape
# enables I2C1 and muxes its pads, an overlay on its RTC's node keeps its
# own overlay in, its removal leaves it stuck; the pads' state follows.
# FREE: the foreign overlay goes; then whether the pads are the board's and
# free again, and the tree as before.
STUCK='mkdir $CAPES/rtc && cat /host/rtc.eeprom > $CAPES/rtc/eeprom && cat /host/rtc.dtbo > $CAPES/rtc/dtbo &&
	echo 1 > $CAPES/rtc/enable && cat $CAPES/rtc/status &&
	cat /host/foreign-rtc.dtbo > /sys/kernel/debug/capebus-ovhold/apply && rmdir $CAPES/rtc && pad_state 87 86'
AFTER='echo "i2c1=$(cat /proc/device-tree/i2c-header1/status)"; pad_state 87 86 > /tmp/pads.now; cat /tmp/pads.now
	{ cmp -s /tmp/pads.now /tmp/pads.base && echo board-pads || echo pads-changed; }
	{ [ "$(dt_hash)" = "$(cat /tmp/dt.base)" ] && echo same-tree || echo tree-changed; }'
OVHOLD_REMOVE='echo 1 > /sys/kernel/debug/capebus-ovhold/remove'
RESCAN='echo 1 > /sys/class/capebus/$(basename $CB)/rescan'

@test "a stuck cape's bus, disabled when a rescan removes its overlay: the pads are let go, as the board had them" {
	# Red team round 14 F1: the bus's keeper stayed, pads muxed as I2C1
	# and held, until another cape of the connector came.
	cfs_run "$STUCK"' && '"$OVHOLD_REMOVE"' && '"$RESCAN"'; '"$AFTER"
	[ "${lines[0]}" = loaded ]
	[[ "${lines[1]}" == "00000072 capebus"*"-bus-pads"* ]]
	[[ "${lines[2]}" == "00000072 capebus"*"-bus-pads"* ]]
	[ "${lines[3]}" = i2c1=disabled ]
	[ "${lines[6]}" = board-pads ]
	[ "${lines[7]}" = same-tree ]
	grep -q '(MUX' <<<"${lines[4]}"
}

@test "a stuck cape's bus, disabled by the last retry of a controller that goes: the pads are put back" {
	# Red team round 14 F1, the rmmod in between: the controller's module
	# let go of the keeper without putting the pads back.
	cfs_run "$STUCK"' && '"$OVHOLD_REMOVE"' && rmmod capebus-bone; '"$AFTER; $RELOAD"
	[ "${lines[0]}" = loaded ]
	[ "${lines[3]}" = i2c1=disabled ]
	[ "${lines[6]}" = board-pads ]
	[ "${lines[7]}" = same-tree ]
}

@test "a stuck cape's bus across a controller reload: the next controller holds its pads, and puts them back when it goes" {
	# Red team round 14 F2: the next controller knew neither the bus's
	# pads nor their board values; the pads stayed muxed as I2C1.
	cfs_run "$STUCK"
	[ "${lines[0]}" = loaded ]
	guest_ok 'rmmod capebus-bone'
	cfs_run "$RELOAD"'; . /host/cfs.sh; pad_state 87 86'
	[[ "${lines[0]}" == "00000072 capebus"*"-bus-pads"* ]]
	[[ "${lines[1]}" == "00000072 capebus"*"-bus-pads"* ]]
	cfs_run "$OVHOLD_REMOVE"' && '"$RESCAN"'; '"$AFTER"
	[ "${lines[0]}" = i2c1=disabled ]
	[ "${lines[3]}" = board-pads ]
	[ "${lines[4]}" = same-tree ]
	_guest_kmemleak
}

@test "a stuck enabler and a live joiner across a reload: the joiner, declared again, goes last and the pads go back" {
	# Red team round 14 F2 with a joiner (its rt1.bats): the bus stayed
	# enabled for the display after the RTC's overlay came off, and its
	# removal disabled it with the pads left muxed.
	cfs_run 'mkdir $CAPES/rtc && cat /host/rtc.eeprom > $CAPES/rtc/eeprom && cat /host/rtc.dtbo > $CAPES/rtc/dtbo &&
		echo 1 > $CAPES/rtc/enable && cat $CAPES/rtc/status &&
		mkdir $CAPES/oled && cat /host/oled.eeprom > $CAPES/oled/eeprom && cat /host/oled.dtbo > $CAPES/oled/dtbo &&
		echo 1 > $CAPES/oled/enable && cat $CAPES/oled/status &&
		cat /host/foreign-rtc.dtbo > /sys/kernel/debug/capebus-ovhold/apply && rmdir $CAPES/rtc'
	[ "${lines[0]}" = loaded ]
	[ "${lines[1]}" = loaded ]
	guest_ok 'rmmod capebus-bone'
	cfs_run "$RELOAD"'; . /host/cfs.sh
		mkdir $CAPES/oled && cat /host/oled.eeprom > $CAPES/oled/eeprom && cat /host/oled.dtbo > $CAPES/oled/dtbo &&
		echo 1 > $CAPES/oled/enable && cat $CAPES/oled/status &&
		'"$OVHOLD_REMOVE"' && '"$RESCAN"' && cat /proc/device-tree/i2c-header1/status && echo && pad_state 87 86'
	[ "${lines[0]}" = loaded ]
	[ "${lines[1]}" = okay ]
	[[ "${lines[2]}" == "00000072 capebus"*"-bus-pads"* ]]
	cfs_run 'rmdir $CAPES/oled; '"$AFTER"
	[ "${lines[0]}" = i2c1=disabled ]
	[ "${lines[3]}" = board-pads ]
	[ "${lines[4]}" = same-tree ]
	_guest_kmemleak
}
