#!/usr/bin/env bats
# capebus when things go wrong: a cape that wants another cape's pin, an
# EEPROM that does not parse, parts disabled on the kernel command line.
#
# Slot 0: the weather cape (holds P8.13), slot 1: the humidity alarm cape
# (wants P8.13), slot 2: a corrupt EEPROM, slot 3: the RTC cape.

load ../../qemu/lib
load slot-wait

CTRL=/sys/class/capebus/capebus0

setup_file() {
	# The weather cape's image with a control character in its board name.
	export CORRUPT=$BATS_FILE_TMPDIR/corrupt.eeprom
	python3 - "$CB_FIRMWARE/BB-WTHR-01-00A2.eeprom" "$CORRUPT" <<'PY'
import sys
img = bytearray(open(sys.argv[1], "rb").read())
img[8] = 0x07
open(sys.argv[2], "wb").write(img)
PY
	guest_boot --slot 0="$CB_FIRMWARE/BB-WTHR-01-00A2.eeprom" \
		   --slot 1="$CB_FIRMWARE/BB-HUMID-01-00A0.eeprom" \
		   --slot 2="$CORRUPT" \
		   --slot 3="$CB_FIRMWARE/EXL-RTC-01-00A0.eeprom"
	wait_state 3 loaded
	# The capes' device drivers, modules mdev loads on the distribution lane.
	guest_settle
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

@test "a cape wanting a pin another cape holds is refused, naming pin and holder" {
	guest_ok "cat $CTRL/slot1/state $CTRL/slot1/reason; echo \"[\$(readlink $CTRL/slot1/cape | sed 's,.*/,,')]\""
	[ "${lines[0]}" = failed ]
	[ "${lines[1]}" = "pin P8.13 is held by BB-WTHR-01 (slot 0)" ]
	[ "${lines[2]}" = "[]" ]
	guest_run "ls /sys/bus/capebus/devices/capebus0-slot1"
	[ "$status" -ne 0 ]
}

@test "the cape already holding the pin is untouched" {
	guest_ok "cat $CTRL/slot0/state; grep -l tmp105 /sys/class/hwmon/hwmon*/name | wc -l"
	[ "$output" = $'loaded\n1' ]
	guest_qmp qom-set '{"path": "weather-temp", "property": "temperature", "value": 25000}'
	guest_ok "cat \$(dirname \$(grep -l tmp105 /sys/class/hwmon/hwmon*/name))/temp1_input"
	[ "$output" = 25000 ]
}

@test "the refused cape's overlay was not applied" {
	guest_run "ls -d /proc/device-tree/cape-devices/bb-humid-01-*"
	[ "$status" -ne 0 ]
}

@test "a corrupt EEPROM fails its slot with a reason" {
	guest_ok "cat $CTRL/slot2/state $CTRL/slot2/reason; echo \$(readlink $CTRL/slot2/nvmem | sed 's,.*/,,')"
	[ "${lines[0]}" = failed ]
	[ -n "${lines[1]}" ]
	[[ "${lines[2]}" == 0-0056? ]]
}

@test "the other slots work: the RTC cape in slot 3 is loaded" {
	guest_ok "cat $CTRL/slot3/state; for r in /sys/class/rtc/rtc*; do grep -q ds13 \$r/name && cat \$r/since_epoch; done"
	[ "${lines[0]}" = loaded ]
	[ "${lines[1]}" -gt 1700000000 ]
}

# A declared cape in a hardware slot stands on whatever the slot's EEPROM
# says; the EEPROM read again (its driver bound anew) and still not parsing
# marks the slot failed underneath, and the declared cape stays.
@test "a cape declared into the failed slot stays when the slot's EEPROM is read again and still does not parse" {
	local capes=/sys/kernel/config/capebus/capebus0/capes
	guest_ok "mkdir $capes/decl && cd $capes/decl && echo Declared > board_name && echo 00A0 > version &&
		echo CFS-DECL > part_number && echo 2 > slot && echo P8.14 > pins && echo 1 > enable &&
		cat status $CTRL/slot2/state"
	[ "${lines[*]}" = "detected (no overlay: firmware CFS-DECL-00A0.dtbo not found) detected" ]
	# at24 unbound and bound again: the controller reads the slot anew.
	guest_ok "n=\$(dmesg | grep -c 'slot 2: ')
		echo 0-0056 > /sys/bus/i2c/drivers/at24/unbind && echo 0-0056 > /sys/bus/i2c/drivers/at24/bind &&
		for i in \$(seq 150); do [ \$(dmesg | grep -c 'slot 2: ') -gt \$n ] && break; sleep 0.2; done
		[ \$(dmesg | grep -c 'slot 2: ') -gt \$n ] && echo read-again
		cat $capes/decl/status $CTRL/slot2/state; readlink $CTRL/slot2/cape | sed 's,.*/,,'"
	[ "${lines[*]}" = "read-again detected (no overlay: firmware CFS-DECL-00A0.dtbo not found) detected capebus0-slot2" ]
	# Gone, it leaves the slot as its EEPROM has it: failed, with the reason.
	guest_ok "rmdir $capes/decl && cat $CTRL/slot2/state && cat $CTRL/slot2/reason"
	[ "${lines[0]}" = failed ]
	[ -n "${lines[1]}" ]
}

@test "the kernel logged no Oops, BUG or WARNING" {
	guest_dmesg
	! grep -E "$CB_KERNEL_ERRORS" <<< "$output"
}

@test "a part in capebus.disable_partno is detected but not loaded" {
	guest_shutdown
	# Slot 2: a cape drawing 150 mA from VDD_3V3B, as the weather cape does.
	"$BATS_TEST_DIRNAME/fixtures/ext-eeprom.py" "$CB_FIRMWARE/EXL-RTC-01-00A0.eeprom" \
		"$BATS_FILE_TMPDIR/power.eeprom" --part BB-PWR-01 --vdd-3v3b 150
	# Slot 3: a cape marking P8.3 (pin index 26), which the board uses.
	"$BATS_TEST_DIRNAME/fixtures/ext-eeprom.py" "$CB_FIRMWARE/EXL-RTC-01-00A0.eeprom" \
		"$BATS_FILE_TMPDIR/board-pin.eeprom" --part BB-EMMC-01 --pin-word 26=0xc007
	guest_boot --slot 0="$CB_FIRMWARE/BB-WTHR-01-00A2.eeprom" \
		   --slot 1="$CB_FIRMWARE/EXL-RTC-01-00A0.eeprom" \
		   --slot 2="$BATS_FILE_TMPDIR/power.eeprom" \
		   --slot 3="$BATS_FILE_TMPDIR/board-pin.eeprom" \
		   --append capebus.disable_partno=EXL-RTC-01:00A0
	wait_state 0 loaded
	wait_state 1 disabled
	wait_state 2 detected
	wait_state 3 failed
	guest_ok "cat $CTRL/slot1/reason; echo \"[\$(readlink $CTRL/slot1/cape | sed 's,.*/,,')]\"; ls /sys/class/rtc | wc -l"
	[ "${lines[0]}" = "EXL-RTC-01 disabled by disable_partno" ]
	[ "${lines[1]}" = "[]" ]
	[ "${lines[2]}" = 0 ]
}

@test "a cape that takes a rail over its budget loads, and slot, cape, uevent and log say so" {
	guest_ok "cat $CTRL/slot2/reason $CTRL/slot2/cape/budget $CTRL/slot0/cape/budget; grep CAPEBUS_BUDGET $CTRL/slot2/cape/uevent $CTRL/slot0/cape/uevent | sed 's,.*/,,'; ls /sys/bus/capebus/devices"
	[ "${lines[0]}" = "over budget: vdd-3v3b over budget: needs 150 mA, 150 of 250 mA in use; no overlay: firmware BB-PWR-01-00A0.dtbo not found" ]
	[ "${lines[1]}" = "over: vdd-3v3b over budget: needs 150 mA, 150 of 250 mA in use" ]
	[ "${lines[2]}" = within ]
	[ "${lines[3]}" = "uevent:CAPEBUS_BUDGET=over" ]
	[ "${lines[4]}" = "uevent:CAPEBUS_BUDGET=within" ]
	[ "${lines[5]}" = capebus0-slot0 ]
	[ "${lines[6]}" = capebus0-slot2 ]
	[ "${#lines[@]}" -eq 7 ]
	guest_ok "dmesg | grep -c 'BB-PWR-01 (slot 2) is over budget: vdd-3v3b over budget: needs 150 mA, 150 of 250 mA in use'"
	[ "$output" = 1 ]
}

@test "capebus.strict_budget=1 refuses a cape over budget, naming the rail" {
	local CFS=/sys/kernel/config/capebus/capebus0
	guest_run "echo 1 > $CFS/slots/2/disable && echo 1 > /sys/module/capebus/parameters/strict_budget && echo 0 > $CFS/slots/2/disable"
	[ "$status" -ne 0 ]
	[[ "$output" == *"No space left on device"* ]]
	guest_ok "cat $CTRL/slot2/state $CTRL/slot2/reason; ls /sys/bus/capebus/devices; echo 0 > /sys/module/capebus/parameters/strict_budget; echo 0 > $CFS/slots/2/disable && cat $CTRL/slot2/state"
	[ "${lines[0]}" = disabled ]
	[ "${lines[1]}" = "vdd-3v3b over budget: needs 150 mA, 150 of 250 mA in use" ]
	[ "${lines[2]}" = capebus0-slot0 ]
	[ "${lines[3]}" = detected ]
}

@test "a cape wanting a pin the board uses is refused, naming the board" {
	guest_ok "cat $CTRL/slot3/reason"
	[ "$output" = "pin P8.3 is held by the board" ]
}

@test "a part in capebus.enable_partno is loaded in a virtual slot" {
	guest_shutdown
	guest_boot --append capebus.enable_partno=EXL-RTC-01
	guest_run "for i in \$(seq 300); do [ -e /sys/bus/capebus/devices/capebus0-slot4 ] && break; sleep 0.2; done; cd /sys/bus/capebus/devices/capebus0-slot4 && cat part_number version slot overlay overlay_file"
	[ "$status" -eq 0 ]
	[ "$output" = $'EXL-RTC-01\n00A0\n4\nfirmware\nEXL-RTC-01-00A0.dtbo' ]
	guest_ok "for r in /sys/class/rtc/rtc*; do cat \$r/name; done"
	[[ "$output" == *ds13* ]]
}
