#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
# A HAT whose overlay the Raspberry Pi firmware applied (rpi-hat.rst, "A HAT
# the firmware applied").  The test board's DTB here is what the firmware
# would hand Linux with the Sensor HAT+ at 0x50: its overlay merged in and a
# /hat node describing it (fixtures/firmware-hat-dtb.sh).  The connector must
# recognise the HAT, hold its pins, and neither apply its overlay again nor
# fail it; the LED HAT+ at 0x51 loads as usual.  Slot 2 holds a HAT+ of the
# same product with another UUID: /hat does not describe it.  A HAT+'s pins
# are its overlay's exclusive-use, which the firmware applied and capebus
# does not read: the firmware's HAT+ holds no pins here (rpi-hat.rst).
# The board the firmware booted has its serial console on the header
# (config.txt's enable_uart=1): its connector states it (console-pins
# GPIO14, GPIO15), and HATs wanting those pins are refused naming it.

load ../../qemu/lib
load slot-wait

ctrl_of() {
	guest_ok "for c in /sys/class/capebus/*; do [ \"\$(cat \$c/family)\" = $1 ] && echo \$c && break; done; :"
	echo "$output"
}

setup_file() {
	local ct=${CB_CAPETOOL:-$CB_TOP/build/capetool/host/capetool} d=$BATS_FILE_TMPDIR
	"$CB_TOP/tests/bats/guest/fixtures/firmware-hat-dtb.sh" "$CB_DTB" "$d/board.dtb" \
		"$CB_FIRMWARE/capebus-hat-sensor.dtbo" 6a1f0c3e-2b4d-4e8f-9a7c-1d2e3f405162 \
		"Sensor HAT+" 0x0101 0x0002 "capebus test"
	sed -e 's/^product_uuid .*/product_uuid 6a1f0c3e-2b4d-4e8f-9a7c-1d2e3f405163/' \
		"$CB_TOP/cape-defs/hats/sensor-hat.txt" > "$d/twin.txt"
	"$ct" create "$d/twin.txt" -o "$d" >/dev/null
	fdtput -t s "$d/board.dtb" /hat-capebus console-pins GPIO14 GPIO15
	export CB_DTB=$d/board.dtb
	guest_boot --hat 0="$CB_FIRMWARE/sensor-hat.eep" --hat 1="$CB_FIRMWARE/led-hat.eep" \
		   --hat 2="$d/twin.eep"
	guest_put "$BATS_TEST_DIRNAME/fixtures/configfs-lib.sh" cfs.sh
	for h in hat-serial hat-gpio14-led; do
		dtc -q -@ -I dts -O dtb -o "$CB_RUN/share/$h.dtbo" "$BATS_TEST_DIRNAME/fixtures/hat/$h.dtso"
	done
	export HAT
	HAT=$(ctrl_of rpi)
	CTRL=$HAT wait_state 0 loaded
	CTRL=$HAT wait_state 1 loaded
	CTRL=$HAT wait_state 2 failed
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

@test "the HAT the firmware applied is loaded, its overlay not applied again" {
	guest_ok "cat $HAT/slot0/cape/overlay $HAT/slot0/reason"
	[ "${lines[0]}" = bootloader ]
	[ "${lines[1]}" = "applied before Linux started (/hat); it stays until reboot" ]
	guest_ok "dmesg | grep -c 'slot 0: Sensor HAT+: overlay applied by the firmware (/hat)'"
	[ "$output" = 1 ]
	# Its devices are the firmware's: the TMP105 at 0x49 and the LED exist once.
	guest_ok "ls /sys/bus/i2c/devices/ | grep -c -- '-0049\$'; ls /sys/class/leds | grep -c sensor-hat:green"
	[ "${lines[*]}" = "1 1" ]
}

@test "the HAT at 0x51 is not the firmware's: its overlay is applied" {
	guest_ok "cat $HAT/slot1/cape/overlay; ls /sys/class/leds | grep -c led-hat:red"
	[ "${lines[*]}" = "firmware 1" ]
}

@test "a HAT of the same product with another UUID is not the one /hat describes" {
	guest_ok "cat $HAT/slot2/reason"
	# Not taken for the firmware's: its own overlay is applied, and meets
	# the nodes the firmware's copy of it left in the tree.
	[[ "$output" == "overlay refused: add only: "*"temp@49, which the board has"* ]]
}

@test "the serial console on GPIO14/15 (console-pins): a serial HAT+ enabling the UART there and a HAT+ on GPIO14 are refused naming the console; the tree is unchanged" {
	local c
	c=$(basename "$HAT")
	guest_ok ". /host/cfs.sh; CAPES=/sys/kernel/config/capebus/$c/capes; dt_hash > /tmp/dt.con;
		for h in serial gpio14-led; do declare_cape \$h CFS-HAT-CON &&
			cat /host/hat-\$h.dtbo > \$CAPES/\$h/dtbo; echo 1 > \$CAPES/\$h/enable; cat \$CAPES/\$h/status; rmdir \$CAPES/\$h; done
		[ \"\$(dt_hash)\" = \"\$(cat /tmp/dt.con)\" ] && echo same-tree; cat /proc/device-tree/serial-hat0/status; echo"
	echo "$output"
	[[ "${lines[0]}" == "failed: "*"targets: enabling uart0: pin GPIO14 is held by the board's serial console; pin GPIO15 is held by the board's serial console" ]]
	[[ "${lines[1]}" == "failed: "*"pin GPIO14 is held by the board's serial console"* ]]
	[ "${lines[2]}" = same-tree ]
	[ "${lines[3]}" = disabled ]
}
