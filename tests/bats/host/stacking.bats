#!/usr/bin/env bats
# check stacks capes as on a real bone: the shared cape bus (I2C2 on
# P9.19/P9.20) is named by every cape and held by none, muxed alike; bus
# addresses are accounted for (the board's devices, every cape's); pins the
# base tree uses are the board's; a bus needs its pins muxed for it; no more
# capes than slots.

load helpers

# cape NAME PART 'pins' 'devices': a definition in the test's temp dir
cape() {
	cat > "$BATS_TEST_TMPDIR/$1.cape" <<CAPE
eeprom = { board-name = "X"; version = "00A0"; manufacturer = "M"; part-number = "$2"; };
pins = ( $3 );
devices = ( $4 );
CAPE
	echo "$BATS_TEST_TMPDIR/$1.cape"
}

I2C2_PINS='{ pin = "P9.19"; mode = 3; direction = "bidir"; pull = "up"; slew = "slow"; },
  { pin = "P9.20"; mode = 3; direction = "bidir"; pull = "up"; slew = "slow"; }'

@test "two real capes on the cape bus stack: circuitco weather and the servo cape" {
	run ct check "$DEFS/circuitco-weather.cape" "$DEFS/bborg-servo.cape"
	no_sanitizer_report
	[ "$status" -eq 0 ] || { echo "$output"; false; }
	[[ "$output" == *"bborg-servo.cape: ok: BBORG_SERVO-00A2 in slot 1"* ]]
}

@test "capes muxing a shared pin differently are refused, naming both" {
	a=$(cape a BB-A "$I2C2_PINS" '{ type = "i2c"; bus = "i2c2"; address = 0x48; compatible = "ti,tmp105"; }')
	b=$(cape b BB-B '{ pin = "P9.19"; mode = 3; direction = "in"; pull = "up"; }' \
		'{ type = "i2c"; bus = "i2c2"; address = 0x49; compatible = "ti,tmp105"; }')
	run ct check "$a" "$b"
	no_sanitizer_report
	[ "$status" -eq 5 ]
	[[ "$output" == *'b.cape: shared pin P9.19 is muxed "P9.19 mode3 bidir pull-up rx slow" by BB-A (slot 0), "P9.19 mode3 in pull-up rx fast" here'* ]]
}

@test "a shared pin muxed away from the cape bus is refused, naming the bus" {
	a=$(cape a BB-A '{ pin = "P9.19"; mode = 2; direction = "out"; }' '')
	run ct check "$a"
	[ "$status" -eq 5 ]
	[[ "$output" == *"a.cape: pin P9.19 is the shared cape bus i2c2 (i2c2_scl, mode 3), muxed here mode 2"* ]]
}

@test "one I2C address on one bus across capes is refused, naming bus, address and both holders" {
	a=$(cape a BB-A "$I2C2_PINS" '{ type = "i2c"; bus = "i2c2"; address = 0x68; compatible = "maxim,ds1338"; name = "rtc"; }')
	b=$(cape b BB-B '' '{ type = "i2c"; bus = "i2c2"; address = 0x68; compatible = "maxim,ds1307"; name = "rtc"; }')
	run ct check "$a" "$b"
	[ "$status" -eq 5 ]
	[[ "$output" == *"a.cape: ok"* ]]
	[[ "$output" == *"b.cape: i2c2 address 0x68 is held by BB-A (slot 0)"* ]]
	# another bus is another address space
	c=$(cape c BB-C '{ pin = "P9.17"; mode = 2; direction = "bidir"; }, { pin = "P9.18"; mode = 2; direction = "bidir"; }' \
		'{ type = "i2c"; bus = "i2c1"; address = 0x68; compatible = "maxim,ds1307"; name = "rtc"; }')
	run ct check "$a" "$c"
	[ "$status" -eq 0 ]
}

@test "the board's addresses are its own: cape EEPROMs at 0x54-0x57" {
	for addr in 0x54 0x57; do
		a=$(cape a BB-A '' "{ type = \"i2c\"; bus = \"i2c2\"; address = $addr; compatible = \"atmel,24c32\"; name = \"eeprom\"; }")
		run ct check "$a"
		[ "$status" -eq 5 ]
		[[ "$output" == *"a.cape: i2c2 address $addr is held by the board (cape EEPROM of slot "*")"* ]]
	done
	# on the QEMU board the DVI transmitters too
	a=$(cape a BB-A '' '{ type = "i2c"; bus = "i2c2"; address = 0x39; compatible = "taos,tsl2550"; }')
	run ct check --board qemu-vexpress "$a"
	[ "$status" -eq 5 ]
	[[ "$output" == *"i2c2 address 0x39 is held by the board (dvi-transmitter@39, vexpress-v2m.dtsi)"* ]]
}

@test "a pad the base tree muxes is the board's: P9.41 carries clkout2" {
	a=$(cape a BB-A '{ pin = "P9.41"; mode = 7; direction = "in"; }' '')
	run ct check --board beaglebone-black "$a"
	[ "$status" -eq 5 ]
	[[ "$output" == *"a.cape: pin P9.41 is held by the board (CLKOUT2: base tree hogs it)"* ]]
	# the line too, with the same reason (user test 26, defect 8)
	[[ "$output" == *"a.cape:2: pin P9.41 is held by the board (CLKOUT2: base tree hogs it)"* ]]
}

@test "a cape enabling SPI or a UART must mux its pins for it" {
	a=$(cape a BB-A '{ pin = "P9.22"; mode = 7; direction = "out"; }' \
		'{ type = "spi"; bus = "spi0"; cs = 0; compatible = "microchip,mcp3008"; }')
	run ct check --board beaglebone-black "$a"
	no_sanitizer_report
	[ "$status" -eq 3 ]
	[[ "$output" == *"a.cape:3: devices: spi0 needs P9.22 muxed mode 0 (spi0_sclk); pins has it in mode 7 (line 2)"* ]]
	[[ "$output" == *"spi0 needs P9.21 muxed mode 0 (spi0_d0); it is not in pins"* ]]
	run ct create --board beaglebone-black "$a" -o "$BATS_TEST_TMPDIR/out"
	[ "$status" -eq 3 ]
	b=$(cape b BB-B '' '{ type = "uart"; bus = "uart4"; }')
	run ct check --board beaglebone-black "$b"
	[ "$status" -eq 3 ]
	[[ "$output" == *"uart4 needs P9.13 muxed mode 6 (uart4_txd); it is not in pins"* ]]
	[[ "$output" == *"uart4 needs P9.11 muxed mode 6 (uart4_rxd); it is not in pins"* ]]
	c=$(cape c BB-C '{ pin = "P9.13"; mode = 6; direction = "out"; }, { pin = "P9.11"; mode = 6; direction = "in"; }' \
		'{ type = "uart"; bus = "uart4"; }')
	run ct check --board beaglebone-black "$c"
	[ "$status" -eq 0 ]
}

@test "more capes than the board has slots are refused" {
	for i in 0 1 2 3 4; do
		cape "c$i" "BB-C$i" '' '' >/dev/null
	done
	run ct check "$BATS_TEST_TMPDIR"/c{0,1,2,3,4}.cape
	[ "$status" -eq 5 ]
	[[ "$output" == *"c3.cape: ok: BB-C3-00A0 in slot 3"* ]]
	[[ "$output" == *"c4.cape: no free slot: board beaglebone-black has 4"* ]]
}

@test "capes whose part numbers differ only in '_'/'-' or case name the same overlay nodes: refused, naming both and the node (user test 26, defect 3)" {
	a=$(cape a BB-LED-X '{ pin = "P8.12"; mode = "gpio"; direction = "out"; }' '{ type = "led"; label = "a"; pin = "P8.12"; }')
	b=$(cape b BB_LED_X '{ pin = "P8.14"; mode = "gpio"; direction = "out"; }' '{ type = "led"; label = "b"; pin = "P8.14"; }')
	c=$(cape c bb-led-x '{ pin = "P8.16"; mode = "gpio"; direction = "in"; }' '{ type = "key"; label = "k"; pin = "P8.16"; code = 28; }')
	run ct check -b beaglebone-black "$a" "$b" "$c"
	echo "$output"
	no_sanitizer_report
	[ "$status" -eq 5 ]
	[[ "$output" == *"b.cape:1: overlay node bb-led-x-leds of BB_LED_X is also BB-LED-X's (slot 0): part numbers that differ only in case or in '_' and '-' name the same nodes"* ]]
	[[ "$output" == *"c.cape:1: overlay node bb-led-x-keys of bb-led-x is also BB-LED-X's (slot 0)"* ]]
	# alone, and beside a cape of another name, each is fine
	run ct check -b beaglebone-black "$b"
	[ "$status" -eq 0 ]
	d=$(cape d BB-LED-Y '{ pin = "P8.16"; mode = "gpio"; direction = "out"; }' '{ type = "led"; label = "d"; pin = "P8.16"; }')
	run ct check -b beaglebone-black "$a" "$d"
	echo "$output"
	[ "$status" -eq 0 ]
}
