#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
# The Raspberry Pi 2 B's header as the board's own tree leaves it: QEMU's
# raspi2b with tests/qemu/capebus-raspi2b-board.dts, mainline's
# bcm2836-rpi-2-b.dts with its header hogs (GPIO4-11 and GPIO18-21 set by
# the pin controller for good) and I2S enabled by the board itself, as
# Raspberry Pi's firmware does for dtparam=i2s=on.  What the board uses is
# the board's: a HAT asking for it is refused, naming the board, and the
# function-select registers (pinctrl debugfs) do not change.
#
# HAT+s declared through configfs, from fixtures/raspi2b/:
#   SPI LED HAT+     enables SPI0 (GPIO7-11), an LED on GPIO17
#   GPIO8 LED HAT+   an LED on GPIO8
#   GPIO18 LED HAT+  an LED on GPIO18, I2S's PCM_CLK
#   I2S HAT+         enables I2S (GPIO18-21)
#   I2S codec HAT+   adds a codec node to I2S, not enabling it
#   GPIO17 LED HAT+  an LED on GPIO17, which the board does not use

load ../../qemu/lib

FIX=$BATS_TEST_DIRNAME/fixtures/raspi2b
HATS="spi-led gpio8-led gpio18-led i2s i2s-codec gpio17-led"

# pins CMD...: run CMD in the guest with fixtures/raspi2b/pins.sh sourced.
pins() {
	guest_run ". /host/pins.sh; $*"
	printf '# guest (status %s):\n%s\n' "$status" "$output"
}

# declare NAME HAT: the guest command that declares HAT as configfs cape
# NAME, prints "enable=<status of the write>" and the cape's status.
declare_hat() {
	echo "c=\$(hat_cfs) && d=\$c/capes/$1 && mkdir \$d && cat /host/$2-hat.eep > \$d/eeprom &&
		cat /host/raspi2b-$2.dtbo > \$d/dtbo && { echo 1 2>/dev/null > \$d/enable; echo enable=\$?; } &&
		cat \$d/status"
}

setup_file() {
	local ct=${CB_CAPETOOL:-$CB_TOP/build/capetool/host/capetool} d=$BATS_FILE_TMPDIR h
	export CB_MACHINE=raspi2b CB_RASPI2B_DTB=${CB_RASPI2B_BOARD_DTB:-$CB_TOP/build/guest/raspi2b-board.dtb}
	for h in $HATS; do
		"$ct" create "$FIX/$h-hat.txt" -o "$d" >/dev/null
		dtc -q -@ -I dts -O dtb -o "$d/raspi2b-$h.dtbo" "$FIX/raspi2b-$h.dtso"
	done
	guest_boot
	guest_put "$FIX/pins.sh"
	for h in $HATS; do
		guest_put "$d/$h-hat.eep"
		guest_put "$d/raspi2b-$h.dtbo"
	done
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

@test "the board's tree: the hogs hold GPIO7-11 and GPIO18-21 in ALT0, I2S is enabled" {
	pins 'pin_fn 7 8 9 10 11 18 21 && pin_owner 8 18 && cat /proc/device-tree/soc/i2s@7e203000/status && echo'
	[ "$status" = 0 ]
	[ "${lines[*]:0:7}" = "7 alt0 lo 8 alt0 lo 9 alt0 lo 10 alt0 lo 11 alt0 lo 18 alt0 lo 21 alt0 lo" ]
	[[ ${lines[7]} == "8: 3f200000.gpio "* ]]
	[[ ${lines[8]} == "18: 3f200000.gpio "* ]]
	[ "${lines[9]}" = okay ]
}

@test "capebus-rpi holds for the board the GPIOs its own nodes mux: the hogs', the console UART's, the ID bus's" {
	guest_run 'dmesg | sed -n "s/.*rpi-capebus hat-capebus: \(.* muxes .*\)/\1/p"'
	printf '%s\n' "$output"
	[ "$status" = 0 ]
	[ "${lines[*]}" = "/soc/gpio@7e200000 muxes GPIO4-11,18-21: the board's /soc/serial@7e201000 muxes GPIO14-15: the board's /soc/i2c@7e205000 muxes GPIO0-1: the board's" ]
}

@test "a HAT+ on a GPIO the board does not use loads, drives it, and gives it back" {
	pins "$(declare_hat led17 gpio17-led)"' && l=/sys/class/leds/gpio17-led-hat:red && echo 1 > $l/brightness &&
		pin_fn 17 && rmdir $d && pin_fn 17 && pin_owner 17'
	[ "$status" = 0 ]
	[ "${lines[0]}" = enable=0 ]
	[ "${lines[1]}" = loaded ]
	[ "${lines[2]}" = "17 gpio_out hi" ]
	[[ ${lines[3]} == "17 gpio_in "* ]]
	[ "${lines[4]}" = "17: - -" ]
}

@test "a HAT+ enabling SPI0 on the hogs' pins is refused naming the board, not loaded: SPI0 stays disabled" {
	pins "$(declare_hat spi spi-led)"' && rmdir $d && cat /proc/device-tree/soc/spi@7e204000/status && echo &&
		ls /sys/class/leds | grep -c spi-led; pin_fn 7 8 17'
	[ "${lines[0]}" = enable=1 ]
	[[ ${lines[1]} == *"spi0: pin GPIO7 is held by the board"* ]]
	[ "${lines[2]}" = disabled ]
	[ "${lines[3]}" = 0 ]
	[ "${lines[*]:4}" = "7 alt0 lo 8 alt0 lo 17 gpio_in lo" ]
}

@test "a HAT+ LED on GPIO8, which a hog holds, is refused naming the board: GPIO8 stays ALT0" {
	pins "$(declare_hat cs gpio8-led)"' && rmdir $d && ls /sys/class/leds | grep -c gpio8; pin_fn 8'
	[ "${lines[0]}" = enable=1 ]
	[[ ${lines[1]} == *"pin GPIO8 is held by the board"* ]]
	[ "${lines[2]}" = 0 ]
	[ "${lines[3]}" = "8 alt0 lo" ]
}

@test "a HAT+ enabling the board's own I2S is refused naming the board: I2S stays enabled, its pins ALT0" {
	pins "$(declare_hat dac i2s)"' && rmdir $d && cat /proc/device-tree/soc/i2s@7e203000/status && echo; pin_fn 18 19 20 21'
	[ "${lines[0]}" = enable=1 ]
	[[ ${lines[1]} == *"i2s: pin GPIO18 is held by the board"* ]]
	[ "${lines[2]}" = okay ]
	[ "${lines[*]:3}" = "18 alt0 lo 19 alt0 lo 20 alt0 lo 21 alt0 lo" ]
}

@test "a HAT+ adding a node to the board's own I2S is refused: the board enables it for itself; the tree is unchanged" {
	pins "$(declare_hat codec i2s-codec)"' && rmdir $d && ls /proc/device-tree/soc/i2s@7e203000 | grep -c codec'
	[ "${lines[0]}" = enable=1 ]
	[[ ${lines[1]} == *"targets: fragment fragment@0 targets /soc/i2s@7e203000, which it does not enable"*": the board enables it for itself"* ]]
	[ "${lines[2]}" = 0 ]
}

@test "a HAT+ LED on GPIO18, a pin of the board's I2S, is refused naming the board: GPIO18 stays ALT0" {
	pins "$(declare_hat led18 gpio18-led)"' && rmdir $d && ls /sys/class/leds | grep -c gpio18; pin_fn 18'
	[ "${lines[0]}" = enable=1 ]
	[[ ${lines[1]} == *"pin GPIO18 is held by the board"* ]]
	[ "${lines[2]}" = 0 ]
	[ "${lines[3]}" = "18 alt0 lo" ]
}
