#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
# Where a cape's overlay comes from, and when it may not (issue 9):
#  - a firmware file that was missing when the cape appeared (capebus built
#    in, root filesystem not mounted yet) is looked for again on the
#    controller's "rescan" and on enable, and the slot says what it looked for;
#  - under kernel lockdown, overlays from a cape's EEPROM or from userspace
#    are refused with a reason (LOCKDOWN_DEVICE_TREE), firmware files are not;
#    capebus.eeprom_overlays=0 uses the firmware file instead of the EEPROM's.
# Lockdown cannot be lifted: its tests come last.
#
# Slot 1: BB-LATE-01 (RTC pins, no overlay anywhere at boot).
# Slot 2: CFS-EMBED, an EEPROM that carries the LED overlay (P8.13).

load ../../qemu/lib
load slot-wait
load cfs-run

CTRL=/sys/class/capebus/capebus0
CFS=/sys/kernel/config/capebus/capebus0
FIX=$BATS_TEST_DIRNAME/fixtures

setup_file() {
	dtc -q -@ -I dts -O dtb -o "$BATS_FILE_TMPDIR/rtc.dtbo" "$FIX/configfs-rtc.dtso"
	dtc -q -@ -I dts -O dtb -o "$BATS_FILE_TMPDIR/leds.dtbo" "$FIX/configfs-leds.dtso"
	dtc -q -I dts -O dtb -o "$BATS_FILE_TMPDIR/edit-property.dtbo" "$FIX/hostile/edit-property.dtso"
	"$FIX/configfs-eeprom.py" "$BATS_FILE_TMPDIR/late.eeprom" "Late Cape" 00A0 \
		capebus-tests BB-LATE-01 0000TEST0003 --pin P9.17=0xE032 --pin P9.18=0xE032
	"$FIX/configfs-eeprom.py" "$BATS_FILE_TMPDIR/embed.eeprom" "Embedded LED Cape" 00A0 \
		capebus-tests CFS-EMBED 0000TEST0004 --pin P8.13=0xC00F \
		--overlay "$BATS_FILE_TMPDIR/leds.dtbo"
	guest_boot --append capebus.eeprom_overlays=1 --slot 1="$BATS_FILE_TMPDIR/late.eeprom" \
		   --slot 2="$BATS_FILE_TMPDIR/embed.eeprom"
	for f in rtc leds edit-property; do
		guest_put "$BATS_FILE_TMPDIR/$f.dtbo"
	done
	guest_put "$BATS_FILE_TMPDIR/embed.eeprom"
	guest_put "$FIX/configfs-lib.sh" cfs.sh
	wait_state 1 detected
	wait_state 2 loaded
}

teardown_file() {
	# Locked down, debugfs is closed: kmemleak was asked before that.
	[ ! -e "$BATS_FILE_TMPDIR/locked" ] || export CB_KMEMLEAK=0
	guest_shutdown
}

setup() {
	guest_setup
}

teardown() {
	guest_teardown
}

@test "a missing overlay file: the slot says which file it looked for" {
	guest_ok "cd $CTRL/slot1 && cat cape/overlay cape/overlay_file state reason"
	[ "${lines[0]}" = none ]
	[ "${lines[1]}" = BB-LATE-01-00A0.dtbo ]
	[ "${lines[2]}" = detected ]
	[ "${lines[3]}" = "no overlay: firmware BB-LATE-01-00A0.dtbo not found" ]
}

@test "rescan with the file still missing changes nothing" {
	cfs_run "dt_hash > /tmp/dt.before; echo 1 > $CTRL/rescan; cat $CTRL/slot1/state $CTRL/slot1/reason $CTRL/slot1/cape/overlay; [ \"\$(dt_hash)\" = \"\$(cat /tmp/dt.before)\" ] && echo same-tree"
	[ "$status" -eq 0 ]
	[ "${lines[0]}" = detected ]
	[ "${lines[1]}" = "no overlay: firmware BB-LATE-01-00A0.dtbo not found" ]
	[ "${lines[2]}" = none ]
	[ "${lines[3]}" = same-tree ]
}

@test "a refused late overlay leaves the cape as it was, and says why" {
	cfs_run "dt_hash > /tmp/dt.before; cp /host/edit-property.dtbo /lib/firmware/BB-LATE-01-00A0.dtbo &&
		echo 1 > $CTRL/rescan; cat $CTRL/slot1/state $CTRL/slot1/reason $CTRL/slot1/cape/overlay;
		[ \"\$(dt_hash)\" = \"\$(cat /tmp/dt.before)\" ] && echo same-tree; rm /lib/firmware/BB-LATE-01-00A0.dtbo"
	[ "$status" -eq 0 ]
	[ "${lines[0]}" = detected ]
	[[ "${lines[1]}" == "no overlay: firmware BB-LATE-01-00A0.dtbo not applied: overlay refused: add only: fragment fragment@0 sets property clock-frequency of /"* ]]
	[ "${lines[2]}" = none ]
	[ "${lines[3]}" = same-tree ]
}

@test "the file appears: rescan applies it, and the cape loads with it" {
	guest_ok "cp /host/rtc.dtbo /lib/firmware/BB-LATE-01-00A0.dtbo && echo 1 > $CTRL/rescan &&
		cat $CTRL/slot1/state $CTRL/slot1/cape/overlay && echo \"[\$(cat $CTRL/slot1/reason)]\" &&
		for r in /sys/class/rtc/rtc*; do cat \$r/name; done"
	[ "${lines[0]}" = loaded ]
	[ "${lines[1]}" = firmware ]
	[ "${lines[2]}" = "[]" ]
	[[ "${lines[3]}" == *ds13* ]]
}

@test "disabled and enabled again, the slot finds the file at once" {
	cfs_run "echo 1 > $CFS/slots/1/disable && cat $CTRL/slot1/state && ls /sys/class/rtc | wc -l &&
		echo 0 > $CFS/slots/1/disable && cat $CTRL/slot1/state $CTRL/slot1/cape/overlay"
	[ "$status" -eq 0 ]
	[ "${lines[0]}" = disabled ]
	[ "${lines[1]}" = 0 ]
	[ "${lines[2]}" = loaded ]
	[ "${lines[3]}" = firmware ]
}

@test "enabling a loaded slot whose file was missing looks again" {
	cfs_run "echo 1 > $CFS/slots/1/disable && mv /lib/firmware/BB-LATE-01-00A0.dtbo /tmp/late.dtbo &&
		echo 0 > $CFS/slots/1/disable && cat $CTRL/slot1/state $CTRL/slot1/cape/overlay &&
		mv /tmp/late.dtbo /lib/firmware/BB-LATE-01-00A0.dtbo &&
		echo 0 > $CFS/slots/1/disable && cat $CTRL/slot1/state $CTRL/slot1/cape/overlay"
	[ "$status" -eq 0 ]
	[ "${lines[*]}" = "detected none loaded firmware" ]
}

@test "a declared cape's missing file is looked for again when enable is written" {
	cfs_run "echo 1 > $CFS/slots/1/disable && declare_cape late CFS-LATE && echo P9.17 P9.18 > \$CAPES/late/pins &&
		echo 1 > \$CAPES/late/enable && cat \$CAPES/late/status &&
		cp /host/rtc.dtbo /lib/firmware/CFS-LATE-00A0.dtbo && echo 1 > \$CAPES/late/enable &&
		cat \$CAPES/late/status /sys/bus/capebus/devices/\$(cat \$CAPES/late/cape)/overlay;
		rmdir \$CAPES/late; rm -f /lib/firmware/CFS-LATE-00A0.dtbo; echo 0 > $CFS/slots/1/disable"
	[ "$status" -eq 0 ]
	[ "${lines[0]}" = "detected (no overlay: firmware CFS-LATE-00A0.dtbo not found)" ]
	[ "${lines[1]}" = loaded ]
	[ "${lines[2]}" = firmware ]
}

@test "capebus.eeprom_overlays=0: the EEPROM's overlay is left for the firmware file" {
	guest_ok "cat $CTRL/slot2/cape/overlay; ls /sys/class/leds"
	[ "${lines[0]}" = eeprom ]
	[[ "$output" == *cape:user* ]]
	cfs_run "echo 0 > /sys/module/capebus/parameters/eeprom_overlays && echo 1 > $CFS/slots/2/disable &&
		echo 0 > $CFS/slots/2/disable; cat $CTRL/slot2/state $CTRL/slot2/cape/overlay $CTRL/slot2/reason; ls /sys/class/leds | grep -c cape:user;
		echo 1 > /sys/module/capebus/parameters/eeprom_overlays; echo 1 > $CFS/slots/2/disable; echo 0 > $CFS/slots/2/disable; cat $CTRL/slot2/cape/overlay"
	[ "$status" -eq 0 ]
	[ "${lines[0]}" = detected ]
	[ "${lines[1]}" = none ]
	[ "${lines[2]}" = "no overlay: firmware CFS-EMBED-00A0.dtbo not found" ]
	[ "${lines[3]}" = 0 ]
	[ "${lines[4]}" = eeprom ]
}

@test "under lockdown, an EEPROM's overlay is refused with the reason; the tree is unchanged" {
	# kmemleak's verdict on all of the above, while debugfs is open.
	_guest_kmemleak
	touch "$BATS_FILE_TMPDIR/locked"
	cfs_run "[ -e /sys/kernel/security/lockdown ] || mount -t securityfs none /sys/kernel/security;
		echo 1 > $CFS/slots/2/disable && dt_hash > /tmp/dt.before &&
		echo integrity > /sys/kernel/security/lockdown && cat /sys/kernel/security/lockdown"
	[ "$status" -eq 0 ]
	[[ "$output" == *"[integrity]"* ]]
	cfs_run "echo 0 > $CFS/slots/2/disable"
	[ "$status" -ne 0 ]
	[[ "$output" == *"Operation not permitted"* ]]
	cfs_run "cat $CTRL/slot2/state $CTRL/slot2/reason; ls /sys/class/leds | grep -c cape:user; [ \"\$(dt_hash)\" = \"\$(cat /tmp/dt.before)\" ] && echo same-tree"
	[ "${lines[0]}" = disabled ]
	[ "${lines[1]}" = "kernel is locked down: an overlay from a cape EEPROM is refused (capebus.eeprom_overlays=0 uses the firmware file instead)" ]
	[ "${lines[2]}" = 0 ]
	[ "${lines[3]}" = same-tree ]
	# The parameter's way out: the firmware file (none here) instead.
	cfs_run "echo 0 > /sys/module/capebus/parameters/eeprom_overlays && echo 0 > $CFS/slots/2/disable && cat $CTRL/slot2/state $CTRL/slot2/cape/overlay; echo 1 > $CFS/slots/2/disable"
	[ "$status" -eq 0 ]
	[ "${lines[*]}" = "detected none" ]
}

@test "under lockdown, overlays from configfs are refused; firmware files still load" {
	cfs_run "dt_hash > /tmp/dt.before; declare_cape u CFS-USER && cat /host/rtc.dtbo > \$CAPES/u/dtbo && echo 1 > \$CAPES/u/enable"
	[ "$status" -ne 0 ]
	[[ "$output" == *"Operation not permitted"* ]]
	cfs_run "cat \$CAPES/u/status; rmdir \$CAPES/u; mkdir \$CAPES/e && cat /host/embed.eeprom > \$CAPES/e/eeprom && echo 1 > /sys/module/capebus/parameters/eeprom_overlays && echo 1 > \$CAPES/e/enable"
	[ "${lines[0]}" = "failed: kernel is locked down: an overlay from userspace is refused" ]
	[[ "$output" == *"Operation not permitted"* ]]
	cfs_run "cat \$CAPES/e/status; rmdir \$CAPES/e; [ \"\$(dt_hash)\" = \"\$(cat /tmp/dt.before)\" ] && echo same-tree"
	[[ "${lines[0]}" == "failed: kernel is locked down: an overlay from a cape EEPROM is refused"* ]]
	[ "${lines[1]}" = same-tree ]
	# Slot 1's overlay is the distribution's firmware file: it loads.
	cfs_run "echo 1 > $CFS/slots/1/disable; echo 0 > $CFS/slots/1/disable && cat $CTRL/slot1/state $CTRL/slot1/cape/overlay"
	[ "$status" -eq 0 ]
	[ "${lines[*]}" = "loaded firmware" ]
}
