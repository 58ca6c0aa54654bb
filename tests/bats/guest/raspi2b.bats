#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
# The Raspberry Pi header on a real SoC pin controller: QEMU's raspi2b
# (Raspberry Pi 2 B, BCM2836), booted by the fast lane's kernel with
# tests/qemu/capebus-raspi2b.dts, mainline's bcm2836-rpi-2-b.dts and the
# connector every Pi shares (bcm283x-rpi-hat-capebus.dtsi).  The header's
# pins are pinctrl-bcm2835's, whose debugfs reads the function-select
# (GPFSELn) and level (GPLEVn) registers of QEMU's bcm2835_gpio back.
#
# QEMU 7.2 has no I2C controller on raspi2b: the connector has no slots,
# and the HAT+s are declared through configfs, image (capetool create)
# and overlay (dtc), as a HAT's EEPROM and its firmware file would give
# them.  From fixtures/raspi2b/:
#   SPI LED HAT+    enables SPI0 (GPIO7-11 to ALT0), an LED on GPIO17
#   GPIO8 LED HAT+  an LED on GPIO8, SPI0's CE0
#
# No interrupt is tested here: QEMU's bcm2835_gpio does not model the
# event-detect registers (GPEDSn, GPRENn, GPFENn, ... read 0 and ignore
# writes) and has no interrupt line, so no header pin can raise one.  A
# HAT's interrupt is tested on the vexpress test board.

load ../../qemu/lib

FIX=$BATS_TEST_DIRNAME/fixtures/raspi2b
SPI_PINS="7 8 9 10 11"

# pins CMD...: run CMD in the guest with fixtures/raspi2b/pins.sh sourced.
pins() {
	guest_run ". /host/pins.sh; $*"
	printf '# guest (status %s):\n%s\n' "$status" "$output"
}

setup_file() {
	local ct=${CB_CAPETOOL:-$CB_TOP/build/capetool/host/capetool} d=$BATS_FILE_TMPDIR h
	export CB_MACHINE=raspi2b
	for h in spi-led gpio8-led; do
		"$ct" create "$FIX/$h-hat.txt" -o "$d" >/dev/null
		dtc -q -@ -I dts -O dtb -o "$d/raspi2b-$h.dtbo" "$FIX/raspi2b-$h.dtso"
	done
	guest_boot
	guest_put "$FIX/pins.sh"
	for h in spi-led gpio8-led; do
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

@test "raspi2b: the 40-pin header is a connector without slots, its GPIOs pinctrl-bcm2835's" {
	pins 'c=$(hat_cfs) && ls $c/slots | wc -l && ls /sys/class/capebus/${c##*/} | grep -c "^slot" ;
		grep -c "^pin " $PCTL/pins && tr -d "\000" < /sys/class/capebus/${c##*/}/device/of_node/compatible; echo'
	[ "$status" = 0 ]
	[ "${lines[0]}" = 0 ]
	[ "${lines[1]}" = 0 ]
	[ "${lines[2]}" = 54 ]
	[ "${lines[3]}" = raspberrypi,hat-capebus ]
}

@test "before a HAT: SPI0's pins and GPIO17 are GPIO inputs in the function-select registers, unclaimed" {
	pins "pin_fn $SPI_PINS 17; pin_owner $SPI_PINS 17"
	[ "$status" = 0 ]
	[ "${lines[*]:0:6}" = "7 gpio_in lo 8 gpio_in lo 9 gpio_in lo 10 gpio_in lo 11 gpio_in lo 17 gpio_in lo" ]
	[ "${lines[*]:6}" = "7: - - 8: - - 9: - - 10: - - 11: - - 17: - -" ]
}

@test "a HAT+ declared through configfs loads: SPI0 probes and its pins are ALT0 in the registers, held by it" {
	pins 'c=$(hat_cfs) && d=$c/capes/spi && mkdir $d && cat /host/spi-led-hat.eep > $d/eeprom &&
		cat /host/raspi2b-spi-led.dtbo > $d/dtbo && echo 1 > $d/enable && cat $d/status &&
		cat /sys/bus/capebus/devices/$(cat $d/cape)/part_number &&
		cat /proc/device-tree/soc/spi@7e204000/status && echo'" && pin_fn $SPI_PINS && pin_owner $SPI_PINS"
	[ "$status" = 0 ]
	[ "${lines[0]}" = loaded ]
	[ "${lines[1]}" = "SPI LED HAT+" ]
	[ "${lines[2]}" = okay ]
	[ "${lines[*]:3:5}" = "7 alt0 lo 8 alt0 lo 9 alt0 lo 10 alt0 lo 11 alt0 lo" ]
	[ "${lines[*]:8}" = "7: 3f204000.spi - 8: 3f204000.spi - 9: 3f204000.spi - 10: 3f204000.spi - 11: 3f204000.spi -" ]
}

@test "the HAT's LED drives GPIO17 through hat_gpio: an output, its level read back from the GPIO block" {
	pins 'l=/sys/class/leds/spi-led-hat:green && echo 1 > $l/brightness && pin_fn 17 &&
		echo 0 > $l/brightness && pin_fn 17 && pin_owner 17'
	[ "$status" = 0 ]
	[ "${lines[0]}" = "17 gpio_out hi" ]
	[ "${lines[1]}" = "17 gpio_out lo" ]
	[[ ${lines[2]} == "17: - pinctrl-bcm2835:"* ]]
}

@test "a HAT+ on GPIO8, SPI0's chip select, is refused while SPI0 holds it: the registers do not change" {
	pins 'c=$(hat_cfs) && d=$c/capes/cs && mkdir $d && cat /host/gpio8-led-hat.eep > $d/eeprom &&
		cat /host/raspi2b-gpio8-led.dtbo > $d/dtbo && { echo 1 > $d/enable; echo enable=$?; } &&
		cat $d/status && rmdir $d && ls /sys/class/leds'" | grep -c gpio8; pin_fn 8"
	[ "${lines[0]}" = enable=1 ]
	[[ ${lines[1]} == *GPIO8* ]]
	[ "${lines[2]}" = 0 ]
	[ "${lines[3]}" = "8 alt0 lo" ]
}

@test "rmdir: pinctrl-bcm2835 returns SPI0's pins and GPIO17 to GPIO inputs, unclaimed, and SPI0 is disabled again" {
	pins 'c=$(hat_cfs) && rmdir $c/capes/spi && cat /proc/device-tree/soc/spi@7e204000/status && echo' \
		"&& pin_fn $SPI_PINS 17 && pin_owner $SPI_PINS 17"
	[ "$status" = 0 ]
	[ "${lines[0]}" = disabled ]
	[ "${lines[*]:1:6}" = "7 gpio_in lo 8 gpio_in lo 9 gpio_in lo 10 gpio_in lo 11 gpio_in lo 17 gpio_in lo" ]
	[ "${lines[*]:7}" = "7: - - 8: - - 9: - - 10: - - 11: - - 17: - -" ]
}

@test "after SPI0 leaves, the GPIO8 HAT+ takes GPIO8 as an output, and its rmdir gives it back" {
	pins 'c=$(hat_cfs) && d=$c/capes/cs && mkdir $d && cat /host/gpio8-led-hat.eep > $d/eeprom &&
		cat /host/raspi2b-gpio8-led.dtbo > $d/dtbo && echo 1 > $d/enable && cat $d/status &&
		echo 1 > /sys/class/leds/gpio8-led-hat:red/brightness && pin_fn 8 && rmdir $d && pin_fn 8 && pin_owner 8'
	[ "$status" = 0 ]
	[ "${lines[0]}" = loaded ]
	[ "${lines[1]}" = "8 gpio_out hi" ]
	# (QEMU's GPLEV0 keeps the last level set: "in hi".)
	[[ ${lines[2]} == "8 gpio_in "* ]]
	[ "${lines[3]}" = "8: - -" ]
}
