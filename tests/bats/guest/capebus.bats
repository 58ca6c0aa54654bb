#!/usr/bin/env bats
# capebus on the test board: capes found by their EEPROMs become capebus
# devices, their overlays bring up their devices, unbinding takes them away.
#
# Slot 0: the weather cape (tmp105), slot 1: the RTC cape (ds1338),
# slot 2: no EEPROM, slot 3: a blank EEPROM.

load ../../qemu/lib
load slot-wait

CTRL=/sys/class/capebus/capebus0
WEATHER=/sys/bus/capebus/devices/capebus0-slot0
RTC=/sys/bus/capebus/devices/capebus0-slot1
GENERIC=/sys/bus/capebus/drivers/capebus-generic

# The whole device tree as one hash.
DT_HASH='find /proc/device-tree/ -type f | LC_ALL=C sort | xargs md5sum | md5sum | cut -d" " -f1'

setup_file() {
	# The device tree of the board with no cape, to compare with later.
	guest_boot
	guest_ok "$DT_HASH"
	echo "$output" > "$BATS_FILE_TMPDIR/bare.hash"
	guest_shutdown

	guest_boot --slot 0="$CB_FIRMWARE/BB-WTHR-01-00A2.eeprom" \
		   --slot 1="$CB_FIRMWARE/EXL-RTC-01-00A0.eeprom" --blank 3
	wait_state 0 loaded
	wait_state 1 loaded
	# The distribution lane's mdev loads the weather cape's own driver
	# (tests/bats/distro/ tests it): these tests are the generic driver's.
	if [ "$CB_LANE" = distro ]; then
		guest_ok "cb-settle && rmmod capebus_bone_weather"
		wait_state 0 loaded
	fi
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

@test "the weather cape in slot 0 is a capebus device with its EEPROM's fields" {
	guest_ok "cd $WEATHER && for a in board_name version manufacturer part_number serial format slot overlay overlay_file; do echo \"\$a=\$(cat \$a)\"; done"
	[ "${lines[0]}" = "board_name=Weather Cape" ]
	[ "${lines[1]}" = "version=00A2" ]
	[ "${lines[2]}" = "manufacturer=Example Labs" ]
	[ "${lines[3]}" = "part_number=BB-WTHR-01" ]
	[ "${lines[4]}" = "serial=4012EXLB0042" ]
	[ "${lines[5]}" = "format=A1" ]
	[ "${lines[6]}" = "slot=0" ]
	[ "${lines[7]}" = "overlay=firmware" ]
	[ "${lines[8]}" = "overlay_file=BB-WTHR-01-00A2.dtbo" ]
	# No "id": it joined fields that may hold its separator.
	guest_run "[ -e $WEATHER/id ]"
	[ "$status" -ne 0 ]
}

@test "the weather cape's pins and currents read as the EEPROM states them" {
	guest_ok "cat $WEATHER/pins"
	[ "${lines[0]}" = "P9.19 mode3 bidir pull-up rx slow" ]
	[ "${lines[2]}" = "P9.39" ]
	[ "${#lines[@]}" -eq 3 ]
	guest_ok "cat $WEATHER/currents"
	[ "$output" = $'vdd-3v3b 150\nvdd-5v 0\nsys-5v 0\ndc-supplied 0' ]
}

@test "the slot reports its state and links to its cape and its EEPROM's nvmem device" {
	guest_ok "cat $CTRL/slot0/state; echo \$(readlink $CTRL/slot0/cape | sed 's,.*/,,'); echo \$(readlink $CTRL/slot0/nvmem | sed 's,.*/,,'); echo \"[\$(cat $CTRL/slot0/reason)]\"; [ -e $CTRL/slot0/nvmem/nvmem ] && [ -e $CTRL/slot0/cape/part_number ]"
	[ "${lines[0]}" = loaded ]
	[ "${lines[1]}" = capebus0-slot0 ]
	[ "${lines[2]}" = 0-00540 ]
	[ "${lines[3]}" = "[]" ]
}

@test "a cape's uevent carries board, part, version, slot and a modalias" {
	guest_ok "cat $WEATHER/uevent"
	[[ "$output" == *"CAPEBUS_FAMILY=bone"* ]]
	[[ "$output" == *"CAPEBUS_BOARD=Weather Cape"* ]]
	[[ "$output" == *"CAPEBUS_PART=BB-WTHR-01"* ]]
	[[ "$output" == *"CAPEBUS_VERSION=00A2"* ]]
	[[ "$output" == *"CAPEBUS_SLOT=0"* ]]
	[[ "$output" == *"MODALIAS=capebus:fbone:pBB-WTHR-01:v00A2"* ]]
	[[ "$output" == *"DRIVER=capebus-generic"* ]]
}

@test "the controller and its capes name their family; a BeagleBone ID states no numeric identity" {
	guest_ok "cat $CTRL/family $WEATHER/family; grep CAPEBUS_FAMILY $WEATHER/uevent;
		for a in uuid vendor_id product_id product_version; do [ -e $WEATHER/\$a ] && echo \$a; done; true"
	[ "${lines[*]}" = "bone bone CAPEBUS_FAMILY=bone" ]
}

@test "the weather cape's overlay added its tmp105 to the device tree" {
	guest_ok "ls -d /proc/device-tree/*/*/*/tmp105@48 /proc/device-tree/*/*/*/*/tmp105@48 2>/dev/null | head -n1"
	[ -n "$output" ]
}

@test "a temperature set through QMP reads back through the tmp105's hwmon" {
	guest_qmp qom-set '{"path": "weather-temp", "property": "temperature", "value": 31500}'
	guest_ok "grep -l tmp105 /sys/class/hwmon/hwmon*/name | head -n1"
	local hw=${output%/name}
	guest_ok "cat $hw/temp1_input"
	[ "$output" = 31500 ]
	guest_qmp qom-set '{"path": "weather-temp", "property": "temperature", "value": -12000}'
	guest_ok "cat $hw/temp1_input"
	[ "$output" = -12000 ]
}

@test "the RTC cape in slot 1 gives a working RTC" {
	guest_ok "cat $RTC/part_number; for r in /sys/class/rtc/rtc*; do grep -q ds13 \$r/name && cat \$r/since_epoch; done"
	[ "${lines[0]}" = EXL-RTC-01 ]
	[ "${lines[1]}" -gt 1700000000 ]
	local t0=${lines[1]}
	# The clock runs: 2.2 s later it reads 2 or 3 s more (a frozen clock,
	# or one that jumps, fails).
	guest_ok "sleep 2.2; for r in /sys/class/rtc/rtc*; do grep -q ds13 \$r/name && cat \$r/since_epoch; done"
	[ "$output" -ge $((t0 + 2)) ]
	[ "$output" -le $((t0 + 3)) ]
}

@test "a slot with no EEPROM is empty, with no reason and no nvmem device" {
	guest_ok "cat $CTRL/slot2/state; echo \"[\$(cat $CTRL/slot2/reason)][\$(readlink $CTRL/slot2/nvmem | sed 's,.*/,,')][\$(readlink $CTRL/slot2/cape | sed 's,.*/,,')]\""
	[ "${lines[0]}" = empty ]
	[ "${lines[1]}" = "[][][]" ]
}

@test "a slot with a blank EEPROM is empty" {
	guest_ok "cat $CTRL/slot3/state; echo \$(readlink $CTRL/slot3/nvmem | sed 's,.*/,,'); echo \"[\$(cat $CTRL/slot3/reason)][\$(readlink $CTRL/slot3/cape | sed 's,.*/,,')]\""
	[ "${lines[0]}" = empty ]
	[[ "${lines[1]}" == 0-0057? ]]
	[ "${lines[2]}" = "[][]" ]
}

@test "unbinding the weather cape takes its tmp105 away, binding brings it back" {
	guest_ok "echo capebus0-slot0 > $GENERIC/unbind; cat $CTRL/slot0/state; cat /sys/class/hwmon/hwmon*/name 2>/dev/null | grep -c tmp105; ls /sys/bus/i2c/devices/ | grep -c 0-0048; true"
	[ "${lines[0]}" = detected ]
	[ "${lines[1]}" = 0 ]
	[ "${lines[2]}" = 0 ]
	guest_ok "echo capebus0-slot0 > $GENERIC/bind; cat $CTRL/slot0/state; cat /sys/class/hwmon/hwmon*/name 2>/dev/null | grep -c tmp105"
	[ "${lines[0]}" = loaded ]
	[ "${lines[1]}" = 1 ]
	guest_qmp qom-set '{"path": "weather-temp", "property": "temperature", "value": 22000}'
	guest_ok "cat \$(dirname \$(grep -l tmp105 /sys/class/hwmon/hwmon*/name))/temp1_input"
	[ "$output" = 22000 ]
}

@test "with every cape unbound the device tree is the bare board's but for the connector's pin groups" {
	# The connector muxes a cape's pads for as long as the cape is there,
	# bound or not (Documentation/capebus/overlays-and-pins.rst): its pin
	# groups and its node under the connector stay; nothing else does.
	local groups="find /proc/device-tree/ -type d \\( -name 'capebus0-slot*' -o -name 'capebus-pad-*' \\) | LC_ALL=C sort"
	guest_ok "$groups"
	before=$output
	[[ "$before" == *"/pinmux@2,00000800/capebus-pad-"*"/capebus/capebus0-slot0"* ]]
	guest_ok "echo capebus0-slot0 > $GENERIC/unbind && echo capebus0-slot1 > $GENERIC/unbind &&
		$groups && ${DT_HASH/xargs/grep -v -e /capebus0-slot -e /capebus-pad- | xargs}"
	[ "$(printf '%s\n' "${lines[@]:0:${#lines[@]}-1}")" = "$before" ]
	[ "${lines[-1]}" = "$(cat "$BATS_FILE_TMPDIR/bare.hash")" ]
	guest_ok "echo capebus0-slot0 > $GENERIC/bind && echo capebus0-slot1 > $GENERIC/bind && cat $CTRL/slot0/state $CTRL/slot1/state"
	[ "$output" = $'loaded\nloaded' ]
	guest_ok "$DT_HASH"
	[ "$output" != "$(cat "$BATS_FILE_TMPDIR/bare.hash")" ]
}

@test "the pins stay claimed while a cape is unbound" {
	guest_ok "echo capebus0-slot0 > $GENERIC/unbind; cat $CTRL/slot0/state; ls /sys/bus/capebus/devices/"
	[ "${lines[0]}" = detected ]
	[[ "$output" == *capebus0-slot0* ]]
	# Another cape (declared through configfs) that wants P8.13 is refused:
	# the unbound weather cape still holds it.
	local c=/sys/kernel/config/capebus/capebus0/capes/taker
	guest_run "mkdir $c && echo Taker > $c/board_name && echo 00A0 > $c/version &&
		echo tests > $c/manufacturer && echo CB-TAKER > $c/part_number &&
		echo P8.13 > $c/pins && echo 1 > $c/enable"
	local st=$status out=$output
	guest_ok "cat $c/status; rmdir $c"
	[ "$st" -ne 0 ]
	[[ "$out" == *"Device or resource busy"* ]]
	[ "$output" = "failed: pin P8.13 is held by BB-WTHR-01 (slot 0)" ]
	guest_ok "echo capebus0-slot0 > $GENERIC/bind; cat $CTRL/slot0/state"
	[ "$output" = loaded ]
}

@test "the kernel logged no Oops, BUG or WARNING since boot" {
	guest_dmesg
	! grep -E "$CB_KERNEL_ERRORS" <<< "$output"
}
