#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
# Real capes stack on a real bone: each names the header's I2C2 pins
# (P9.19/P9.20, where every cape's ID EEPROM answers) in its EEPROM, and the
# board declares them shared-pins, muxed by the board.  The test board's DTB
# with shared-pins added (the other suites keep P9.19/P9.20 exclusive to
# test pin conflicts): three capes from cape-defs, two of them real
# (BeagleBoard's servo cape, the SCS DFE cape), load together in slots 0-2;
# circuitco's weather cape in slot 3 is refused by address, as its TSL2550
# at 0x39 meets the test board's DVI transmitter.  The connector muxes each
# cape's own pads but never the shared bus's.

load ../../qemu/lib
load slot-wait

CTRL=/sys/class/capebus/capebus0

setup_file() {
	cp "$CB_DTB" "$BATS_FILE_TMPDIR/board.dtb"
	fdtput -t s "$BATS_FILE_TMPDIR/board.dtb" /capebus shared-pins P9.19 P9.20
	export CB_DTB=$BATS_FILE_TMPDIR/board.dtb
	guest_boot --slot 0="$CB_FIRMWARE/BBORG_SERVO-00A2.eeprom" \
		   --slot 1="$CB_FIRMWARE/SCS-DFE-BB-0001.eeprom" \
		   --slot 2="$CB_FIRMWARE/BB-WTHR-01-00A2.eeprom" \
		   --slot 3="$CB_FIRMWARE/BB-BONE-WTHR-01-00B0.eeprom"
	wait_state 2 loaded
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

@test "three capes naming the shared I2C2 pins load together" {
	guest_ok "for s in 0 1 2; do cat $CTRL/slot\$s/state $CTRL/slot\$s/cape/part_number; done"
	[ "${lines[*]}" = "loaded BBORG_SERVO loaded SCS-DFE-BB loaded BB-WTHR-01" ]
	# Each of them states P9.19 (I2C2_SCL) in its EEPROM.
	guest_ok "for s in 0 1 2; do grep -c '^P9.19 ' $CTRL/slot\$s/cape/pins; done"
	[ "${lines[*]}" = "1 1 1" ]
}

@test "their devices are on the shared bus, each at its own address" {
	guest_ok "ls /sys/bus/i2c/devices/ | grep -E '^0-00(7f|68|48)$'"
	[ "${lines[*]}" = "0-0048 0-0068 0-007f" ]
}

@test "a fourth cape at an address the board uses is refused by address, not by pins" {
	wait_state 3 failed
	guest_ok "cat $CTRL/slot3/reason"
	[[ "$output" == "overlay refused: bus addresses: address 0x39 on "*" is held by "* ]]
}

@test "no cape holds a pad of the shared bus; each holds its own" {
	# P9.19 and P9.20 are pads 0x17c and 0x178 (cape-pads): pins 95 and 94.
	guest_ok "P=\$(ls -d /sys/kernel/debug/pinctrl/*pinmux*)/pinmux-pins;
		grep -E '^pin (94|95) ' \$P | grep -c capebus0-slot || true;
		grep -c capebus0-slot0 \$P; grep -c capebus0-slot2 \$P"
	[ "${lines[0]}" = 0 ]
	[ "${lines[1]}" -gt 0 ]
	[ "${lines[2]}" -gt 0 ]
}
