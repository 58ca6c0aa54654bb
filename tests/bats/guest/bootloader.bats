#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
# A cape whose overlay the bootloader applied: BeagleBoard.org's U-Boot
# reads the cape EEPROMs and applies each cape's overlay before Linux
# starts, and bb.org-overlays' overlays record themselves in
# /chosen/overlays.  The test board's DTB here is what U-Boot would hand
# Linux with the weather cape in slot 0: its overlay merged in and its
# record (fixtures/bootloader-dtb.sh).  The connector must recognise the
# cape as loaded by the bootloader, hold its pins, and neither apply its
# overlay again nor fail it; the RTC cape in slot 1 loads as usual.  Slot 2
# holds a second cape naming the weather cape's part and version, with a pin
# of its own: one record stands for one apply, so that one is a cape like
# any other, refused over the pins its overlay names (red team round 8:
# every slot naming the part became a "bootloader" cape, holding whatever
# pins its EEPROM named, for good).

load ../../qemu/lib
load slot-wait

CTRL=/sys/class/capebus/capebus0
CFS=/sys/kernel/config/capebus/capebus0
RECORD=BB-WTHR-01-00A2.bb.org-overlays

setup_file() {
	local d=$BATS_FILE_TMPDIR
	"$CB_CAPETOOL" create "$CB_TOP/cape-defs/weather.cape" --board qemu-vexpress \
		-o "$d" >/dev/null
	"$BATS_TEST_DIRNAME/fixtures/bootloader-dtb.sh" "$CB_DTB" "$d/board.dtb" \
		"$RECORD" "$d/BB-WTHR-01-00A2.dtbo"
	"$BATS_TEST_DIRNAME/fixtures/configfs-eeprom.py" "$d/twin.eeprom" "Weather Cape" 00A2 \
		"Example Labs" BB-WTHR-01 4012EXLB0099 --pin P8.7=0xC007
	export CB_DTB=$d/board.dtb
	guest_boot --slot 0="$CB_FIRMWARE/BB-WTHR-01-00A2.eeprom" \
		   --slot 1="$CB_FIRMWARE/EXL-RTC-01-00A0.eeprom" \
		   --slot 2="$d/twin.eeprom"
	guest_put "$BATS_TEST_DIRNAME/fixtures/configfs-lib.sh" cfs.sh
	guest_put "$CB_FIRMWARE/EXL-RTC-01-00A0.eeprom" rtc.eeprom
	wait_state 0 loaded
	wait_state 1 loaded
	wait_state 2 failed
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

@test "a cape the bootloader applied is loaded, its overlay not applied again" {
	guest_ok "cat $CTRL/slot0/cape/overlay $CTRL/slot0/reason"
	[ "${lines[0]}" = bootloader ]
	[ "${lines[1]}" = "applied before Linux started (/chosen/overlays/$RECORD); it stays until reboot" ]
	guest_ok "dmesg | grep -c 'BB-WTHR-01 00A2.*overlay firmware' || true"
	[ "$output" = 0 ]
	# Its devices are the bootloader's: the tmp105 and the LED exist once.
	guest_ok "ls /sys/bus/i2c/devices/ | grep -c -- '-0048\$'; ls /sys/class/leds | grep -c weather:status"
	[ "${lines[*]}" = "1 1" ]
}

@test "the connector muxes no pads of its own for it" {
	guest_ok "P=\$(ls -d /sys/kernel/debug/pinctrl/*pinmux*)/pinmux-pins;
		grep -c capebus0-slot0 \$P || true"
	[ "$output" = 0 ]
}

@test "it holds its pins: a cape declared on P8.13 is refused, naming it" {
	guest_run ". /host/cfs.sh; declare_cape p813 CB-P813 && echo P8.13 > \$CAPES/p813/pins &&
		echo 1 > \$CAPES/p813/enable"
	[ "$status" -ne 0 ]
	guest_ok "cat $CFS/capes/p813/status; rmdir $CFS/capes/p813"
	[[ "${lines[0]}" == failed:*P8.13*BB-WTHR-01* ]]
}

@test "it cannot be disabled or overridden: it stays until reboot" {
	guest_run "echo 1 > $CFS/slots/0/disable"
	[ "$status" -ne 0 ]
	# configfs takes an override image over at close: override_status tells.
	guest_ok "cat /host/rtc.eeprom > $CFS/slots/0/override; cat $CFS/slots/0/override_status"
	[[ "$output" == "refused: slot 0 holds BB-WTHR-01"*"applied before Linux started"*"stays until reboot" ]]
	guest_ok "cat $CTRL/slot0/state $CTRL/slot0/cape/part_number $CFS/slots/0/disable"
	[ "${lines[*]}" = "loaded BB-WTHR-01 0" ]
	guest_ok "dmesg | grep -c 'applied before Linux started.*stays until reboot'"
	[ "$output" -ge 1 ]
}

@test "one record, one slot: the same part in slot 2 is a cape like any other" {
	guest_ok "cat $CTRL/slot2/reason; dmesg | grep -c 'slot 2: BB-WTHR-01: the bootloader.s record of it is slot 0.s'"
	[[ "${lines[0]}" == *"is held by BB-WTHR-01 (slot 0)"* ]]
	[ "${lines[1]}" = 1 ]
}

@test "the next slot's cape loads as usual" {
	guest_ok "cat $CTRL/slot1/cape/overlay $CTRL/slot1/cape/part_number"
	[ "${lines[*]}" = "firmware EXL-RTC-01" ]
}

@test "unloading and loading the controller finds the record again" {
	guest_ok "rmmod capebus_bone && modprobe capebus-bone"
	guest_ok "for i in \$(seq 300); do c=\$(ls -d /sys/class/capebus/capebus* 2>/dev/null | head -1);
		[ \"\$(cat \$c/slot0/state 2>/dev/null)\" = loaded ] && [ \"\$(cat \$c/slot1/state 2>/dev/null)\" = loaded ] && break; sleep 0.2; done
		cat \$c/slot0/cape/overlay \$c/slot1/cape/overlay"
	[ "${lines[*]}" = "bootloader firmware" ]
}

@test "its EEPROM naming another cape later changes nothing until reboot, and says so" {
	guest_ok "c=\$(ls -d /sys/class/capebus/capebus* | head -1); n=\$(readlink -f \$c/slot0/nvmem);
		cat /host/rtc.eeprom > \$n/nvmem &&
		echo 0-0054 > /sys/bus/i2c/drivers/at24/unbind && echo 0-0054 > /sys/bus/i2c/drivers/at24/bind;
		for i in \$(seq 600); do dmesg | grep -q 'slot 0: its EEPROM names EXL-RTC-01 now' && break; sleep 0.1; done
		cat \$c/slot0/state \$c/slot0/cape/part_number \$c/slot0/cape/overlay
		dmesg | grep -c 'slot 0: its EEPROM names EXL-RTC-01 now; BB-WTHR-01 (slot 0) stays'"
	[ "${lines[*]}" = "loaded BB-WTHR-01 bootloader 1" ]
}
