#!/usr/bin/env bats
# capetool definitions say real properties, capes share buses by address,
# the escape hatch is checked as generated devices are, and a board variant
# gives the board's pins to capes (issue 26).

load helpers

# The I2C1 pins as a cape muxes them for the bus.
I2C1_PINS='{ pin = "P9.17"; mode = "i2c1_scl"; direction = "bidir"; pull = "up"; },
         { pin = "P9.18"; mode = "i2c1_sda"; direction = "bidir"; pull = "up"; }'

@test "property names with , and #, and compatible lists, are emitted as written" {
	cd "$BATS_TEST_TMPDIR"
	cat > oled.cape <<CAPE
eeprom = { board-name = "X"; version = "00A0"; manufacturer = "M"; part-number = "BB-OLED"; };
pins = ( $I2C1_PINS );
devices = ( { type = "i2c"; bus = "i2c1"; address = 0x3c;
              compatible = ["solomon,ssd1306fb-i2c", "solomon,ssd1306"];
              properties = ( ("solomon,width", 128), ("solomon,height", 64),
                             ("#sound-dai-cells", 0), ("solomon,com-invdir", true) ); } );
CAPE
	run ct check oled.cape
	echo "$output"
	no_sanitizer_report
	[ "$status" -eq 0 ]
	ct create oled.cape -o o >/dev/null
	dtc -q -I dtb -O dts o/BB-OLED-00A0.dtbo > o.dts
	cat o.dts
	grep -q 'ssd1306fb-i2c@3c {' o.dts
	grep -q 'compatible = "solomon,ssd1306fb-i2c\\0solomon,ssd1306";' o.dts
	grep -q 'solomon,width = <0x80>;' o.dts
	grep -q '#sound-dai-cells = <0x00>;' o.dts
	grep -q 'solomon,com-invdir;' o.dts
	# the group form still takes the names libconfig spells
	cat > grp.cape <<'CAPE'
eeprom = { board-name = "X"; version = "00A0"; manufacturer = "M"; part-number = "BB-GRP"; };
devices = ( { type = "i2c"; bus = "i2c2"; address = 0x3c; compatible = "x,y"; properties = { width-px = 128; }; } );
CAPE
	run ct check grp.cape
	echo "$output"
	[ "$status" -eq 0 ]
}

@test "a byte string property: { bytes = [...]; } is dtc's [..] (local-mac-address), each a byte, refused otherwise at its line" {
	cd "$BATS_TEST_TMPDIR"
	cat > mac.cape <<'CAPE'
eeprom = { board-name = "X"; version = "00A0"; manufacturer = "M"; part-number = "BB-MAC"; };
devices = ( { type = "i2c"; bus = "i2c2"; address = 0x50; compatible = "x,mac";
              properties = ( ("local-mac-address", { bytes = [0x02, 0x00, 0x5e, 0x10, 0x00, 0xff]; }) ); } );
CAPE
	run ct check mac.cape
	echo "$output"
	no_sanitizer_report
	[ "$status" -eq 0 ]
	ct create mac.cape -o o >/dev/null
	dtc -q -I dtb -O dts o/BB-MAC-00A0.dtbo > o.dts
	grep -q 'local-mac-address = \[02 00 5e 10 00 ff\];' o.dts
	cat > bad.cape <<'CAPE'
eeprom = { board-name = "X"; version = "00A0"; manufacturer = "M"; part-number = "BB-MAC"; };
devices = ( { type = "i2c"; bus = "i2c2"; address = 0x50; compatible = "x,mac";
              properties = ( ("a-mac", { bytes = [0x02, 256]; }),
                             ("b-mac", { bytes = []; }),
                             ("c-mac", { bytes = [1]; pin = "P9.15"; }) ); } );
CAPE
	run ct check bad.cape
	echo "$output"
	no_sanitizer_report
	[ "$status" -eq 3 ]
	[[ "$output" == *'bad.cape:3: properties.a-mac: bytes[1] is not a byte (an integer 0 to 255)'* ]]
	[[ "$output" == *'bad.cape:4: properties.b-mac: bytes must be a non-empty array'* ]]
	[[ "$output" == *'bad.cape:5: properties.c-mac: a byte string is { bytes = [0x02, 0x00, ...]; } and nothing else'* ]]
}

@test "a compatible list the kernel would not take, a bad pair or a property set twice is refused" {
	cd "$BATS_TEST_TMPDIR"
	cat > c.cape <<'CAPE'
eeprom = { board-name = "X"; version = "00A0"; manufacturer = "M"; part-number = "BB-C"; };
devices = ( { type = "i2c"; bus = "i2c2"; address = 0x3c; compatible = ["a,1", "a,2", "a,3", "a,4", "a,5", "a,6", "a,7", "a,8", "a,9"]; },
            { type = "i2c"; bus = "i2c2"; address = 0x3d; compatible = []; },
            { type = "i2c"; bus = "i2c2"; address = 0x3e; compatible = "x,y"; properties = ( ("a,b", 1), ("a,b", 2), ("x", 1, 2), ("bad name", 1) ); } );
CAPE
	run ct check c.cape
	echo "$output"
	no_sanitizer_report
	[ "$status" -eq 3 ]
	[[ "$output" == *"c.cape:2: devices[0].compatible: 9 strings, 36 bytes: the kernel takes at most 8 strings and 256 bytes"* ]]
	[[ "$output" == *"c.cape:3: devices[1].compatible: must be a string or an array of strings"* ]]
	[[ "$output" == *'c.cape:4: properties.a,b: is set twice'* ]]
	[[ "$output" == *'c.cape:4: properties[2]: must be a pair ("name", value)'* ]]
	[[ "$output" == *'c.cape:4: properties.bad name: may hold only letters'* ]]
}

@test "a header-pin GPIO reference becomes <&bone_gpio PIN FLAGS>, and resolve maps it to the SoC's GPIO" {
	cd "$BATS_TEST_TMPDIR"
	cat > g.cape <<CAPE
eeprom = { board-name = "X"; version = "00A0"; manufacturer = "M"; part-number = "BB-G"; };
pins = ( $I2C1_PINS, { pin = "P9_15"; mode = "gpio"; direction = "out"; },
         { pin = "P9.23"; mode = "gpio"; direction = "in"; } );
devices = ( { type = "i2c"; bus = "i2c1"; address = 0x3c; compatible = "solomon,ssd1306fb-i2c";
              properties = { reset-gpios = { pin = "P9.15"; active-low = true; };
                             other-gpios = ( { pin = "P9.23"; flags = 4; }, { pin = "p9.15"; } ); }; } );
CAPE
	run ct check g.cape
	echo "$output"
	no_sanitizer_report
	[ "$status" -eq 0 ]
	ct create g.cape -o o >/dev/null
	dtc -q -I dtb -O dts o/BB-G-00A0.dtbo > o.dts
	cat o.dts
	grep -q 'reset-gpios = <0xffffffff 0x393 0x01>;' o.dts
	grep -q 'other-gpios = <0xffffffff 0x39b 0x04 0xffffffff 0x393 0x00>;' o.dts
	grep -q 'bone_gpio = .*reset-gpios:0.*other-gpios:0.*other-gpios:12' o.dts
	# resolve: P9.15 is gpio1 16, P9.23 gpio1 17, pinmuxed for the device
	ct resolve -b beaglebone-black -c g.cape o/BB-G-00A0.dtbo -o r.dtbo
	dtc -q -I dtb -O dts r.dtbo > r.dts
	cat r.dts
	grep -q 'reset-gpios = <0xffffffff 0x10 0x01>;' r.dts
	grep -q 'other-gpios = <0xffffffff 0x11 0x04 0xffffffff 0x10 0x00>;' r.dts
	grep -q 'gpio1 = .*reset-gpios:0.*other-gpios:0.*other-gpios:12' r.dts
	grep -q 'bb-g-ssd1306fb-i2c-3c-pins {' r.dts
}

@test "a pin written as a string where a GPIO is meant is refused, never emitted as text" {
	cd "$BATS_TEST_TMPDIR"
	cat > s.cape <<'CAPE'
eeprom = { board-name = "X"; version = "00A0"; manufacturer = "M"; part-number = "BB-S"; };
pins = ( { pin = "P9.15"; mode = "gpio"; direction = "out"; }, { pin = "P9.16"; mode = 6; direction = "out"; } );
devices = ( { type = "i2c"; bus = "i2c2"; address = 0x3c; compatible = "x,y";
              properties = { reset-gpios = "P9.15"; enable-pin = "P9_15"; dc-gpio = 915;
                             cs-gpios = ( { pin = "P9.12"; } ); x-gpios = { pin = "P9.16"; };
                             y-gpios = { pin = "P9.15"; polarity = 1; }; label = "P9.15"; }; } );
CAPE
	for board in beaglebone-black qemu-vexpress; do
		run ct check --board $board s.cape
		echo "$output"
		no_sanitizer_report
		[ "$status" -eq 3 ]
		[[ "$output" == *'s.cape:4: properties.reset-gpios: is a GPIO property: write the header pin as a GPIO reference, e.g. reset-gpios = { pin = "P9.15"; flags = 0; }, not as a string'* ]]
		[[ "$output" == *'s.cape:4: properties.enable-pin: "P9_15" names a header pin, but a string is only text to the driver'* ]]
		[[ "$output" == *'s.cape:4: properties.dc-gpio: is a GPIO property'*'not as a number'* ]]
		[[ "$output" == *'s.cape:5: properties.cs-gpios: P9.12 is not listed in pins (a cape'?'s GPIOs are its declared pins)'* ]]
		[[ "$output" == *'s.cape:5: properties.x-gpios: x-gpios needs P9.16 muxed as a GPIO, mode 7 (gpio1_19); pins has it in mode 6 (ehrpwm1b) (line 2)'* ]]
		[[ "$output" == *'s.cape:6: properties.y-gpios: unknown key "polarity" in a GPIO reference'* ]]
		[[ "$output" != *'properties.label'* ]]
	done
	run ct create s.cape -o o
	[ "$status" -eq 3 ]
	[ ! -e o ]
}

@test "bus properties and aliases are refused, saying the kernel's connector would refuse them" {
	cd "$BATS_TEST_TMPDIR"
	cat > b.cape <<CAPE
eeprom = { board-name = "X"; version = "00A0"; manufacturer = "M"; part-number = "BB-B"; };
pins = ( $I2C1_PINS );
devices = ( { type = "i2c"; bus = "i2c1"; address = 0x68; compatible = "maxim,ds3231";
              bus-properties = { clock-frequency = 400000; }; } );
aliases = { rtc1 = "/ocp/i2c@4802a000/rtc@68"; };
CAPE
	run ct check b.cape
	echo "$output"
	no_sanitizer_report
	[ "$status" -eq 3 ]
	[[ "$output" == *"b.cape:6: aliases: a cape cannot add /aliases entries: /aliases is the board's, no cape target of the kernel's connector"* ]]
	[[ "$output" == *"b.cape:5: devices[0].bus-properties: a cape cannot set a property of the board's bus (its clock-frequency, ...)"*'rule "add only"'* ]]
	run ct create b.cape -o o
	[ "$status" -eq 3 ]
}

# bus_cape NAME BUS ADDR-KEY ADDR COMPATIBLE PINS: a cape with one device on a bus.
bus_cape() {
	cat > "$BATS_TEST_TMPDIR/$1.cape" <<CAPE
eeprom = { board-name = "X"; version = "00A0"; manufacturer = "M"; part-number = "$1"; };
pins = ( $6 );
devices = ( { type = "${2%[0-9]}"; bus = "$2"; $3 = $4; compatible = "$5"; } );
CAPE
}

SPI0_PINS='{ pin = "P9.22"; mode = "spi0_sclk"; direction = "out"; rx = true; },
         { pin = "P9.21"; mode = "spi0_d0"; direction = "in"; },
         { pin = "P9.18"; mode = "spi0_d1"; direction = "out"; },
         { pin = "P9.17"; mode = "spi0_cs0"; direction = "out"; }'

@test "capes with devices on one I2C or SPI bus stack at different addresses, its pins muxed alike" {
	cd "$BATS_TEST_TMPDIR"
	bus_cape RTC i2c1 address 0x68 maxim,ds3231 "$I2C1_PINS"
	bus_cape OLED i2c1 address 0x3c solomon,ssd1306fb-i2c "$I2C1_PINS"
	run ct check RTC.cape OLED.cape
	echo "$output"
	no_sanitizer_report
	[ "$status" -eq 0 ]
	[[ "$output" == *"OLED.cape: ok: OLED-00A0 in slot 1"* ]]
	run ct pinout -b beaglebone-black RTC.cape OLED.cape
	echo "$output"
	[ "$status" -eq 0 ]
	[[ "$output" == *"A+B i2c1_scl m2 io up 17"* ]]
	# SPI: by chip select (SPI1, whose cs1 reaches the header on P9.42;
	# spi0's cs1 does not)
	SPI1='{ pin = "P9.31"; mode = "spi1_sclk"; direction = "out"; rx = true; },
	      { pin = "P9.29"; mode = "spi1_d0"; direction = "in"; },
	      { pin = "P9.30"; mode = "spi1_d1"; direction = "out"; }'
	bus_cape ADC spi1 cs 0 ti,adc128s052 "$SPI1, { pin = \"P9.28\"; mode = \"spi1_cs0\"; direction = \"out\"; }"
	bus_cape DAC spi1 cs 1 ti,dac7512 "$SPI1, { pin = \"P9.42\"; mode = \"spi1_cs1\"; direction = \"out\"; }"
	run ct check --variant no-hdmi ADC.cape DAC.cape
	echo "$output"
	[ "$status" -eq 0 ]
}

# line_ends TEXT: a line of $output ends with TEXT.  (Not "$output ends
# with": ct's stderr reaches $output through tee, in any order with stdout.)
line_ends() {
	local l
	for l in "${lines[@]}"; do
		[[ "$l" == *"$1" ]] && return 0
	done
	echo "no line ends with: $1" >&2
	return 1
}

@test "capes on one bus at one address, or muxing its pins otherwise, are refused naming bus, address and pin" {
	cd "$BATS_TEST_TMPDIR"
	bus_cape RTC i2c1 address 0x68 maxim,ds3231 "$I2C1_PINS"
	bus_cape RTC2 i2c1 address 0x68 maxim,ds1307 "$I2C1_PINS"
	run ct check RTC.cape RTC2.cape
	echo "$output"
	no_sanitizer_report
	[ "$status" -eq 5 ]
	line_ends "RTC2.cape: i2c1 address 0x68 is held by RTC (slot 0)"
	bus_cape ADC spi0 cs 0 ti,adc128s052 "$SPI0_PINS"
	bus_cape ADC2 spi0 cs 0 ti,adc128s052 "$SPI0_PINS"
	run ct check ADC.cape ADC2.cape
	[ "$status" -eq 5 ]
	line_ends "ADC2.cape: spi0 chip select 0 is held by ADC (slot 0)"
	# the pins muxed otherwise (no pull-up): the running bus would be remuxed
	bus_cape NOPULL i2c1 address 0x3c solomon,ssd1306fb-i2c "${I2C1_PINS//pull = \"up\"/pull = \"none\"}"
	run ct check RTC.cape NOPULL.cape
	echo "$output"
	[ "$status" -eq 5 ]
	[[ "$output" == *'NOPULL.cape: pin P9.18 of bus i2c1 is muxed "P9.18 mode2 bidir pull-up rx fast" by RTC (slot 0), "P9.18 mode2 bidir no-pull rx fast" here: capes sharing a bus mux its pins alike'* ]]
	# another bus on the same pins (spi0 on P9.17/P9.18) is no sharing
	run ct check RTC.cape ADC.cape
	echo "$output"
	[ "$status" -eq 5 ]
	line_ends "ADC.cape: pin P9.18 is held by RTC (slot 0); pin P9.17 is held by RTC (slot 0)"
	# nor is a cape using a bus pin without a device on the bus
	cat > gp.cape <<'CAPE'
eeprom = { board-name = "X"; version = "00A0"; manufacturer = "M"; part-number = "GP"; };
pins = ( { pin = "P9.17"; mode = "i2c1_scl"; direction = "bidir"; pull = "up"; } );
CAPE
	run ct check RTC.cape gp.cape
	[ "$status" -eq 5 ]
	line_ends "gp.cape: pin P9.17 is held by RTC (slot 0)"
	run ct pinout -b beaglebone-black RTC.cape gp.cape
	[ "$status" -eq 5 ]
}

# hatch NAME 'PINS' 'DTSO BODY' ['MORE KEYS']: a cape whose escape hatch is the body.
hatch() {
	printf '/dts-v1/;\n/plugin/;\n%s\n' "$3" > "$BATS_TEST_TMPDIR/$1.dtso"
	cat > "$BATS_TEST_TMPDIR/$1.cape" <<CAPE
eeprom = { board-name = "X"; version = "00A0"; manufacturer = "M"; part-number = "$1"; };
pins = ( $2 );
overlay = "$1.dtso";
$4
CAPE
}

@test "an escape-hatch GPIO must be a declared pin muxed as a GPIO: one on an eMMC pin is refused" {
	cd "$BATS_TEST_TMPDIR"
	led='&bone_devices { leds { compatible = "gpio-leds"; l { gpios = <&bone_gpio 803 0>; }; }; };'
	hatch H1 '' "$led"
	run ct check H1.cape
	echo "$output"
	no_sanitizer_report
	[ "$status" -eq 3 ]
	[[ "$output" == *"H1.cape:3: overlay ./H1.dtso: /fragment@0/__overlay__/leds/l:gpios uses P8.3 as a GPIO, which pins does not list: a cape's GPIOs are its declared pins"* ]]
	# declared, it is the board's eMMC
	hatch H2 '{ pin = "P8.3"; mode = "gpio"; direction = "out"; }' "$led"
	run ct check H2.cape
	echo "$output"
	[ "$status" -eq 5 ]
	[[ "$output" == *"H2.cape: pin P8.3 is held by the board"* ]]
	# declared in another mode
	hatch H3 '{ pin = "P8.7"; mode = 2; direction = "out"; }' "${led/803/807}"
	run ct check H3.cape
	echo "$output"
	[ "$status" -eq 3 ]
	[[ "$output" == *"/fragment@0/__overlay__/leds/l:gpios uses P8.7 as a GPIO, which needs mode 7 (gpio2_2); pins has it in mode 2 (line 2)"* ]]
	# create and resolve refuse it as check does
	run ct create H1.cape -o o
	[ "$status" -eq 3 ]
	[ ! -e o ]
	hatch OK '{ pin = "P8.7"; mode = "gpio"; direction = "out"; }' "${led/803/807}"
	run ct check OK.cape
	[ "$status" -eq 0 ]
}

@test "an escape hatch enabling a bus must declare its pins: CAN1 beside a UART1 cape is refused" {
	cd "$BATS_TEST_TMPDIR"
	hatch CAN '' '&bone_can_1 { status = "okay"; };'
	run ct check CAN.cape
	echo "$output"
	no_sanitizer_report
	[ "$status" -eq 3 ]
	[[ "$output" == *"CAN.cape:3: overlay ./CAN.dtso: fragment@0 enables can1 (bone_can_1), which needs P9.24 muxed mode 2 (dcan1_rx); it is not in pins"* ]]
	[[ "$output" == *"needs P9.26 muxed mode 2 (dcan1_tx); it is not in pins"* ]]
	hatch CAN2 '{ pin = "P9.24"; mode = "d_can1_rx"; direction = "in"; }, { pin = "P9.26"; mode = "d_can1_tx"; direction = "out"; }' \
		'&bone_can_1 { status = "okay"; };'
	cat > UART.cape <<'CAPE'
eeprom = { board-name = "X"; version = "00A0"; manufacturer = "M"; part-number = "UART"; };
pins = ( { pin = "P9.24"; mode = "uart1_txd"; direction = "out"; }, { pin = "P9.26"; mode = "uart1_rxd"; direction = "in"; } );
devices = ( { type = "uart"; bus = "uart1"; } );
CAPE
	run ct check UART.cape CAN2.cape
	echo "$output"
	[ "$status" -eq 5 ]
	[[ "$output" == *"CAN2.cape: pin P9.26 is held by UART (slot 0); pin P9.24 is held by UART (slot 0)"* ]]
}

@test "an escape hatch's PWM unit and its pwms users go through the pwm checks: the output muxed, the unit on" {
	cd "$BATS_TEST_TMPDIR"
	user='&bone_devices { x { compatible = "pwm-leds"; l { pwms = <&bone_pwm_1 0 500000 0>; }; }; };'
	# P9.14 (ehrpwm1a) is a GPIO LED of the same cape
	hatch PWM '{ pin = "P9.14"; mode = "gpio"; direction = "out"; }' \
		"&bone_pwm_1 { status = \"okay\"; }; $user" 'devices = ( { type = "led"; label = "a"; pin = "P9.14"; } );'
	run ct check PWM.cape
	echo "$output"
	no_sanitizer_report
	[ "$status" -eq 3 ]
	[[ "$output" == *"fragment@0 enables PWM unit ehrpwm1 (bone_pwm_1), but no pin of pins is muxed as one of its outputs (P9.14 mode 6 (ehrpwm1a)"* ]]
	[[ "$output" == *"/fragment@1/__overlay__/x/l:pwms uses PWM unit ehrpwm1 channel 0, whose output no pin of pins is muxed as (P9.14 mode 6 (ehrpwm1a), P8.36 mode 2 (ehrpwm1a))"* ]]
	# a pwm user of a unit nothing enables, its pin muxed
	hatch PWM2 '{ pin = "P9.14"; mode = 6; direction = "out"; }' "$user"
	run ct check PWM2.cape
	[ "$status" -eq 3 ]
	[[ "$output" == *"l:pwms uses PWM unit ehrpwm1 (bone_pwm_1), which nothing enables"* ]]
	# channel 1 (ehrpwm1b) with only ehrpwm1a muxed
	hatch PWM3 '{ pin = "P9.14"; mode = 6; direction = "out"; }' \
		"&bone_pwm_1 { status = \"okay\"; }; ${user/bone_pwm_1 0/bone_pwm_1 1}"
	run ct check PWM3.cape
	[ "$status" -eq 3 ]
	[[ "$output" == *"l:pwms uses PWM unit ehrpwm1 channel 1, whose output no pin of pins is muxed as (P9.16 mode 6 (ehrpwm1b), P8.34 mode 2 (ehrpwm1b))"* ]]
	# enabled and muxed: fine
	hatch PWM4 '{ pin = "P9.14"; mode = 6; direction = "out"; }' "&bone_pwm_1 { status = \"okay\"; }; $user"
	run ct check PWM4.cape
	echo "$output"
	[ "$status" -eq 0 ]
}

@test "an escape hatch sets no property of the board's nodes, and its bus devices hold their addresses" {
	cd "$BATS_TEST_TMPDIR"
	hatch FAST "$I2C1_PINS" '&bone_i2c_1 { status = "okay"; clock-frequency = <400000>; #address-cells = <1>; #size-cells = <0>; rtc@68 { compatible = "maxim,ds3231"; reg = <0x68>; }; };'
	run ct check FAST.cape
	echo "$output"
	no_sanitizer_report
	[ "$status" -eq 3 ]
	# the kernel's rule (kernel-rules.c), said at the hatch's line
	[[ "$output" == *"FAST.cape:4: overlay ./FAST.dtso: fragment@0 sets clock-frequency of bone_i2c_1 (i2c1), which the connector does not let capes set (its target-properties): the kernel refuses it"* ]]
	hatch RTCH "$I2C1_PINS" '&bone_i2c_1 { status = "okay"; #address-cells = <1>; #size-cells = <0>; rtc@68 { compatible = "maxim,ds3231"; reg = <0x68>; }; };' \
		'devices = ( { type = "i2c"; bus = "i2c1"; address = 0x68; compatible = "maxim,ds1307"; } );'
	run ct check RTCH.cape
	echo "$output"
	[ "$status" -eq 3 ]
	[[ "$output" == *"RTCH.cape:4: overlay ./RTCH.dtso: fragment@0/rtc@68 is at i2c1 address 0x68, which devices (line 5, maxim,ds1307) has"* ]]
	# against another cape: the hatch's device holds its address, and shares the bus's pins
	hatch RTCH2 "$I2C1_PINS" '&bone_i2c_1 { status = "okay"; #address-cells = <1>; #size-cells = <0>; rtc@68 { compatible = "maxim,ds3231"; reg = <0x68>; }; };'
	bus_cape RTC i2c1 address 0x68 maxim,ds1307 "$I2C1_PINS"
	bus_cape OLED i2c1 address 0x3c solomon,ssd1306fb-i2c "$I2C1_PINS"
	run ct check RTCH2.cape OLED.cape RTC.cape
	echo "$output"
	[ "$status" -eq 5 ]
	[[ "$output" == *"OLED.cape: ok: OLED-00A0 in slot 1"* ]]
	line_ends "RTC.cape: i2c1 address 0x68 is held by RTCH2 (slot 0)"
}

@test "an escape hatch naming what the connector does not export, or a path, is refused by the kernel's rules, at the hatch's line" {
	cd "$BATS_TEST_TMPDIR"
	hatch UNEXP '' '&am33xx_pinmux { cape_pins: pins { pinctrl-single,pins = <0x78 7>; }; };'
	run ct check UNEXP.cape
	echo "$output"
	no_sanitizer_report
	[ "$status" -eq 3 ]
	[[ "$output" == *"UNEXP.cape:3: overlay ./UNEXP.dtso: the kernel refuses this overlay (capebus-fdt.c, against board beaglebone-black's exports): overlay refers to &am33xx_pinmux, which the connector does not export"* ]]
	# create refuses what check refuses
	run ct create UNEXP.cape -o out
	[ "$status" -eq 3 ]
	[ ! -e out/UNEXP-00A0.dtbo ]
	hatch PATH1 '' '/ { fragment@0 { target-path = "/"; __overlay__ { x { compatible = "gpio-leds"; }; }; }; };'
	run ct check PATH1.cape
	echo "$output"
	no_sanitizer_report
	[ "$status" -eq 3 ]
	[[ "$output" == *"PATH1.cape:3: overlay ./PATH1.dtso: "*"target-path"* ]]
	[[ "$output" == *"the kernel refuses"* ]]
}

@test "an escape hatch's bus address is one the bus core uses as it is: I2C 0x10048, SPI 0x100 and <2 0> are refused" {
	cd "$BATS_TEST_TMPDIR"
	hatch HI "$I2C1_PINS" '&bone_i2c_1 { status = "okay"; #address-cells = <1>; #size-cells = <0>; t@10048 { compatible = "ti,tmp105"; reg = <0x10048>; }; };'
	run ct check HI.cape
	echo "$output"
	no_sanitizer_report
	[ "$status" -eq 3 ]
	[[ "$output" == *"HI.cape:4: overlay ./HI.dtso: fragment@0/t@10048 has reg 0x10048 on i2c1, which is no 7-bit I2C address (the I2C core would use 0x48); the kernel's connector allows 0x01-0x7f"* ]]
	hatch CS "$SPI0_PINS" '&bone_spi_0 { status = "okay"; #address-cells = <1>; #size-cells = <0>; f@100 { compatible = "jedec,spi-nor"; reg = <0x100>; }; };'
	run ct check CS.cape
	echo "$output"
	[ "$status" -eq 3 ]
	[[ "$output" == *"fragment@0/f@100 has reg 0x100 on spi0, which is no chip select of the header's (no pin can be spi0_cs256; the SPI core would use 0)"* ]]
	hatch CS2 "$SPI0_PINS" '&bone_spi_0 { status = "okay"; #address-cells = <1>; #size-cells = <0>; f@2 { compatible = "jedec,spi-nor"; reg = <2 0>; }; };'
	run ct check CS2.cape
	echo "$output"
	[ "$status" -eq 3 ]
	[[ "$output" == *"fragment@0/f@2 has a reg of 8 bytes; on spi0 (spi) the kernel's connector allows one cell, a chip select"* ]]
	# chip select 0, muxed: fine
	hatch CS0 "$SPI0_PINS" '&bone_spi_0 { status = "okay"; #address-cells = <1>; #size-cells = <0>; f@0 { compatible = "jedec,spi-nor"; reg = <0>; }; };'
	run ct check CS0.cape
	echo "$output"
	[ "$status" -eq 0 ]
}

@test "an escape hatch's SPI device is under the chip-select rule of a definition's: its chip select's pin muxed, else refused naming where" {
	cd "$BATS_TEST_TMPDIR"
	# spi1 on the Black with HDMI off; chip select 1 can be P9.42 (mode 2): the cape muxes only cs0
	local spi1='{ pin = "P9.31"; mode = "spi1_sclk"; direction = "out"; rx = true; },
		{ pin = "P9.29"; mode = "spi1_d0"; direction = "in"; },
		{ pin = "P9.30"; mode = "spi1_d1"; direction = "out"; },
		{ pin = "P9.28"; mode = "spi1_cs0"; direction = "out"; }'
	hatch CS1 "$spi1" '&bone_spi_1 { status = "okay"; #address-cells = <1>; #size-cells = <0>; f@1 { compatible = "jedec,spi-nor"; reg = <1>; }; };'
	run ct check --board beaglebone-black --variant no-hdmi CS1.cape
	echo "$output"
	no_sanitizer_report
	[ "$status" -eq 3 ]
	[[ "$output" == *"overlay ./CS1.dtso: fragment@0/f@1 has reg 1 on spi1: chip select 1 needs a pin of pins muxed as spi1_cs1 ("*"P9.42 mode 2"*"); there is none"* ]]
	# the same device in a definition is refused alike
	bus_cape DCS1 spi1 cs 1 jedec,spi-nor "$spi1"
	run ct check --board beaglebone-black --variant no-hdmi DCS1.cape
	echo "$output"
	[ "$status" -eq 3 ]
	[[ "$output" == *"spi1 chip select 1 needs a pin of pins muxed as spi1_cs1"* ]]
	# with P9.42 muxed as spi1_cs1, the hatch's device is taken
	hatch CS1OK "$spi1, { pin = \"P9.42\"; mode = \"spi1_cs1\"; direction = \"out\"; }" \
		'&bone_spi_1 { status = "okay"; #address-cells = <1>; #size-cells = <0>; f@1 { compatible = "jedec,spi-nor"; reg = <1>; }; };'
	run ct check --board beaglebone-black --variant no-hdmi CS1OK.cape
	echo "$output"
	[ "$status" -eq 0 ]
}

@test "--variant no-hdmi,no-emmc gives the HDMI and eMMC pins to capes; without it they are refused naming the board's use" {
	cd "$BATS_TEST_TMPDIR"
	cat > lcd.cape <<'CAPE'
eeprom = { board-name = "X"; version = "00A0"; manufacturer = "M"; part-number = "LCD"; };
pins = ( { pin = "P8.45"; mode = "lcd_data0"; direction = "out"; }, { pin = "P8.27"; mode = "lcd_vsync"; direction = "out"; } );
CAPE
	cat > audio.cape <<'CAPE'
eeprom = { board-name = "X"; version = "00A0"; manufacturer = "M"; part-number = "AUDIO"; };
pins = ( { pin = "P9.31"; mode = "mcasp0_aclkx"; direction = "bidir"; }, { pin = "P8.5"; mode = "gpio"; direction = "out"; } );
CAPE
	run ct check lcd.cape audio.cape
	echo "$output"
	no_sanitizer_report
	[ "$status" -eq 5 ]
	[[ "$output" == *"lcd.cape: pin P8.45 is held by the board (HDMI D0; --variant no-hdmi gives it to capes); pin P8.27 is held by the board (HDMI VSYNC; --variant no-hdmi gives it to capes)"* ]]
	[[ "$output" == *"audio.cape: pin P8.5 is held by the board (eMMC DAT2; --variant no-emmc gives it to capes); pin P9.31 is held by the board (HDMI audio BCLK; --variant no-hdmi gives it to capes)"* ]]
	run ct check --variant no-hdmi lcd.cape audio.cape
	echo "$output"
	[ "$status" -eq 5 ]
	[[ "$output" == *"lcd.cape: ok: LCD-00A0 in slot 0, 2 pins, vdd-3v3b 0 mA, vdd-5v 0 mA, sys-5v 0 mA (board beaglebone-black, variant no-hdmi)"* ]]
	line_ends "audio.cape: pin P8.5 is held by the board (eMMC DAT2; --variant no-emmc gives it to capes)"
	run ct check --board beaglebone-black --variant no-hdmi,no-emmc lcd.cape audio.cape
	echo "$output"
	[ "$status" -eq 0 ]
	# create and resolve take the variant as check does
	run ct create lcd.cape -o o
	[ "$status" -eq 5 ]
	ct create --variant no-hdmi lcd.cape -o o >/dev/null
	run ct resolve -b beaglebone-black -c lcd.cape o/LCD-00A0.dtbo -o r.dtbo
	[ "$status" -eq 5 ]
	[[ "$output" == *"pin P8.27 is held by the board (HDMI VSYNC"* ]]
	ct resolve -b beaglebone-black --variant no-hdmi -c lcd.cape o/LCD-00A0.dtbo -o r.dtbo
	dtc -q -I dtb -O dts r.dtbo | grep -q 'lcd-other-pins'
	# pinout draws the pins free
	run ct pinout -b beaglebone-black --variant no-hdmi
	echo "$output"
	[ "$status" -eq 0 ]
	[[ "$output" == *". GPIO2_6 45"* ]]
	[[ "$output" == *"# eMMC DAT2"* ]]
	# an unknown variant, or one on a board without any, is a usage error naming those there are
	run ct check --variant no-hdm lcd.cape
	echo "$output"
	[ "$status" -eq 2 ]
	[[ "$output" == *'board beaglebone-black has no variant "no-hdm" (did you mean no-hdmi?); it has:'* ]]
	[[ "$output" == *"  no-emmc: eMMC off"* ]]
	run ct check -b qemu-vexpress --variant no-hdmi lcd.cape
	[ "$status" -eq 2 ]
	[[ "$output" == *'board qemu-vexpress has no variant "no-hdmi" (it has none)'* ]]
}

@test "SPI1 on the Black: its pins are HDMI audio's, the capes' under --variant no-hdmi" {
	cd "$BATS_TEST_TMPDIR"
	cat > spi1.cape <<'CAPE'
eeprom = { board-name = "X"; version = "00A0"; manufacturer = "M"; part-number = "SPI1"; };
pins = ( { pin = "P9.31"; mode = "spi1_sclk"; direction = "out"; rx = true; }, { pin = "P9.29"; mode = "spi1_d0"; direction = "in"; },
         { pin = "P9.30"; mode = "spi1_d1"; direction = "out"; }, { pin = "P9.28"; mode = "spi1_cs0"; direction = "out"; } );
devices = ( { type = "spi"; bus = "spi1"; cs = 0; compatible = "microchip,mcp3008"; } );
CAPE
	run ct check spi1.cape
	echo "$output"
	[ "$status" -eq 5 ]
	[[ "$output" == *"pin P9.28 is held by the board (HDMI audio data; --variant no-hdmi gives it to capes)"* ]]
	run ct check --variant no-hdmi spi1.cape
	echo "$output"
	no_sanitizer_report
	[ "$status" -eq 0 ]
}

@test "a bus's input pins need their receiver: a UART's rxd muxed as an output, an I2C pin with rx = false, are refused" {
	cd "$BATS_TEST_TMPDIR"
	cat > u.cape <<'CAPE'
eeprom = { board-name = "X"; version = "00A0"; manufacturer = "M"; part-number = "U"; };
pins = ( { pin = "P9.24"; mode = "uart1_txd"; direction = "out"; }, { pin = "P9.26"; mode = "uart1_rxd"; direction = "out"; },
         { pin = "P9.17"; mode = "i2c1_scl"; direction = "bidir"; rx = false; }, { pin = "P9.18"; mode = "i2c1_sda"; direction = "bidir"; } );
devices = ( { type = "uart"; bus = "uart1"; }, { type = "i2c"; bus = "i2c1"; address = 0x50; compatible = "atmel,at24c32"; } );
CAPE
	run ct check u.cape
	echo "$output"
	no_sanitizer_report
	[ "$status" -eq 3 ]
	[[ "$output" == *"u.cape:4: devices: uart1 reads P9.26 (uart1_rxd), but its receiver is disabled (pins: direction out, line 2): set rx = true"* ]]
	[[ "$output" == *"u.cape:4: devices: i2c1 reads P9.17 (i2c1_scl), but its receiver is disabled (pins: rx = false, line 3): set rx = true"* ]]
	run ct create u.cape -o o
	[ "$status" -eq 3 ]
	hatch CANRX '{ pin = "P9.24"; mode = 2; direction = "in"; rx = false; }, { pin = "P9.26"; mode = 2; direction = "out"; }' \
		'&bone_can_1 { status = "okay"; };'
	run ct check CANRX.cape
	echo "$output"
	[ "$status" -eq 3 ]
	[[ "$output" == *"CANRX.cape:3: overlay ./CANRX.dtso: fragment@0 enables can1 (bone_can_1), which reads P9.24 (dcan1_rx), but its receiver is disabled (line 2): set rx = true"* ]]
}

@test "on a running board, the variants its connector's board-pins leave out are taken without --variant" {
	cd "$BATS_TEST_TMPDIR"
	dt=fs/firmware/devicetree/base
	mkdir -p $dt/capebus
	printf 'ti,am335x-bone-black\0ti,am335x-bone\0ti,am33xx\0' > $dt/compatible
	# am335x-boneblack-nohdmi.dts: clkout2 and the eMMC stay the board's
	printf 'P9.41\0P8.3\0P8.4\0P8.5\0P8.6\0P8.20\0P8.21\0P8.22\0P8.23\0P8.24\0P8.25\0' > $dt/capebus/board-pins
	cat > lcd.cape <<'CAPE'
eeprom = { board-name = "X"; version = "00A0"; manufacturer = "M"; part-number = "LCD"; };
pins = ( { pin = "P8.45"; mode = "lcd_data0"; direction = "out"; } );
CAPE
	CAPETOOL_SYSFS=$PWD/fs run ct check lcd.cape
	echo "$output"
	no_sanitizer_report
	[ "$status" -eq 0 ]
	[[ "$output" == *"(board beaglebone-black, variant no-hdmi)"* ]]
	# a board named on the command line is the profile as written
	CAPETOOL_SYSFS=$PWD/fs run ct check -b beaglebone-black lcd.cape
	[ "$status" -eq 5 ]
	# the Black as the series builds it keeps HDMI
	printf 'P9.41\0P8.3\0P8.45\0P9.25\0' > $dt/capebus/board-pins
	CAPETOOL_SYSFS=$PWD/fs run ct check lcd.cape
	echo "$output"
	[ "$status" -eq 5 ]
	[[ "$output" == *"pin P8.45 is held by the board (HDMI D0; --variant no-hdmi gives it to capes)"* ]]
}

@test "a GPIO expander's provider properties are ordinary values; gpio-ranges holds phandles (user test 26, defect 1)" {
	cd "$BATS_TEST_TMPDIR"
	cat > x.cape <<'CAPE'
eeprom = { board-name = "X"; version = "00A0"; manufacturer = "M"; part-number = "BB-X"; };
pins = ( { pin = "P9.22"; mode = "spi0_sclk"; direction = "in"; },
         { pin = "P9.21"; mode = "spi0_d0"; direction = "in"; },
         { pin = "P9.18"; mode = "spi0_d1"; direction = "in"; },
         { pin = "P9.17"; mode = "spi0_cs0"; direction = "in"; } );
devices = ( { type = "spi"; bus = "spi0"; cs = 0; name = "gpio"; compatible = "microchip,mcp23s08";
              properties = ( ("gpio-controller", true), ("#gpio-cells", 2), ("ngpios", 8),
                             ("gpio-line-names", ["a", "b", "P9.15"]), ("gpio-reserved-ranges", [0, 2]),
                             ("microchip,spi-present-mask", 1) ); } );
CAPE
	run ct check x.cape
	echo "$output"
	no_sanitizer_report
	[ "$status" -eq 0 ]
	ct create x.cape -o o >/dev/null
	dtc -q -I dtb -O dts o/BB-X-00A0.dtbo > o.dts
	grep -q 'gpio-controller;' o.dts
	grep -q '#gpio-cells = <0x02>;' o.dts
	grep -qF 'gpio-line-names = "a\0b\0P9.15";' o.dts
	grep -q 'gpio-reserved-ranges = <0x00 0x02>;' o.dts
	# gpio-ranges: <&pinctrl offset base count>, a phandle
	sed -i 's/("ngpios", 8),/("ngpios", 8), ("gpio-ranges", [1, 0, 0, 8]),/' x.cape
	run ct check x.cape
	echo "$output"
	[ "$status" -eq 3 ]
	[[ "$output" == *'x.cape:7: properties.gpio-ranges: holds phandles, which a definition cannot write'* ]]
	[[ "$output" != *'gpio-controller'* ]]
	[[ "$output" != *'{ pin ='* ]]
	# the legacy GPIO names gpiolib still reads stay GPIO properties
	sed -i 's/("gpio-ranges", \[1, 0, 0, 8\]),/("gpio-reset", 915),/' x.cape
	run ct check x.cape
	echo "$output"
	[ "$status" -eq 3 ]
	[[ "$output" == *'properties.gpio-reset: is a GPIO property'*'not as a number'* ]]
	sed -i 's/("gpio-reset", 915),/("gpio-sck", 915),/' x.cape
	run ct check x.cape
	[ "$status" -eq 3 ]
	[[ "$output" == *'properties.gpio-sck: is a GPIO property'* ]]
}

@test "an escape hatch's interrupt through bone_gpio (no #interrupt-cells: the kernel refuses it) is refused by check and create, pointing at bone_irq; <&bone_irq 912 2> passes all three (user test 26, defect 2)" {
	cd "$BATS_TEST_TMPDIR"
	pins='{ pin = "P9.22"; mode = "spi0_sclk"; direction = "in"; }, { pin = "P9.21"; mode = "spi0_d0"; direction = "in"; },
	      { pin = "P9.18"; mode = "spi0_d1"; direction = "in"; }, { pin = "P9.17"; mode = "spi0_cs0"; direction = "in"; },
	      { pin = "P9.12"; mode = "gpio"; direction = "in"; pull = "up"; }'
	for irq in 'interrupt-parent = <&bone_gpio>; interrupts = <912 2>;' 'interrupts-extended = <&bone_gpio 912 2>;'; do
		hatch IRQ "$pins" "&bone_spi_0 { #address-cells = <1>; #size-cells = <0>; status = \"okay\";
			can@0 { compatible = \"microchip,mcp2515\"; reg = <0>; $irq }; };"
		run ct check -b beaglebone-black IRQ.cape
		echo "$output"
		no_sanitizer_report
		[ "$status" -eq 3 ]
		[[ "$output" == *"IRQ.cape:5: overlay ./IRQ.dtso: /fragment@0/__overlay__/can@0:interrupt"*": bone_gpio is the connector's GPIO nexus, no interrupt controller (it has no #interrupt-cells), so the kernel refuses the interrupt: a header pin's interrupt is <&bone_irq PIN TYPE> (interrupts-extended = <&bone_irq 912 2>, or interrupt-parent = <&bone_irq> with interrupts = <912 2>)"* ]]
		run ct create -b beaglebone-black IRQ.cape -o o
		[ "$status" -eq 3 ]
		[[ "$output" == *"IRQ.cape:5: overlay ./IRQ.dtso: "*"<&bone_irq PIN TYPE>"* ]]
		[ ! -e o/IRQ-00A0.dtbo ]
	done
	# the kernel's forms (overlays-and-pins.rst): accepted by all three,
	# resolved to P9.12's bank and line (gpio1 28) as the interrupt
	# controller, and P9.12 muxed for the device
	for irq in 'interrupts-extended = <&bone_irq 912 2>;' 'interrupt-parent = <&bone_irq>; interrupts = <912 2>;'; do
		hatch IRQX "$pins" "&bone_spi_0 { #address-cells = <1>; #size-cells = <0>; status = \"okay\";
			can@0 { compatible = \"microchip,mcp2515\"; reg = <0>; $irq }; };"
		run ct check -b beaglebone-black IRQX.cape
		echo "$output"
		[ "$status" -eq 0 ]
		rm -rf o
		ct create -b beaglebone-black IRQX.cape -o o >/dev/null
		ct resolve -b beaglebone-black -c IRQX.cape o/IRQX-00A0.dtbo -o r.dtbo >/dev/null
		dtc -q -I dtb -O dts r.dtbo > r.dts
		grep -Eq 'interrupts-extended = <0xffffffff 0x1c 0x02>;|interrupts = <0x1c 0x02>;' r.dts
		[ "$(fdtget r.dtbo /__fixups__ gpio1)" = "/fragment@0/__overlay__/can@0:${irq%% =*}:0" ]
		grep -q '0x78 0x30 0x07' r.dts
	done
	# a pin the cape does not declare, and IRQ_TYPE_NONE, are refused
	hatch IRQN "$pins" '&bone_spi_0 { #address-cells = <1>; #size-cells = <0>; status = "okay";
		can@0 { compatible = "microchip,mcp2515"; reg = <0>; interrupts-extended = <&bone_irq 915 0>; }; };'
	run ct check -b beaglebone-black IRQN.cape
	echo "$output"
	[ "$status" -eq 3 ]
	[[ "$output" == *"can@0:interrupts-extended: <&bone_irq 915 0>: 0 is no trigger the nexus maps"* ]]
	[[ "$output" == *"can@0:interrupts-extended uses P9.15 as an interrupt, which pins does not list"* ]]
}

@test "an escape hatch's interrupts take their parent as the kernel finds it: bone_irq from a parent node on a declared pin passes, on an undeclared one or with no parent in the overlay is refused in the kernel's words (red team 14 F4)" {
	cd "$BATS_TEST_TMPDIR"
	pins='{ pin = "P9.12"; mode = "gpio"; direction = "in"; pull = "up"; }'
	keys() { echo "&bone_devices { keys { compatible = \"gpio-keys\"; $1 k { linux,code = <1>; interrupts = <$2 2>; }; }; };"; }
	hatch INH "$pins" "$(keys 'interrupt-parent = <&bone_irq>;' 912)"
	run ct check -b beaglebone-black INH.cape
	echo "$output"
	no_sanitizer_report
	[ "$status" -eq 0 ]
	# resolve cannot make one GPIO bank of it, and says so
	ct create -b beaglebone-black INH.cape -o o >/dev/null
	run ct resolve -b beaglebone-black -c INH.cape o/INH-00A0.dtbo -o r.dtbo
	[ "$status" -eq 3 ]
	[[ "$output" == *"keys:interrupt-parent is bone_irq on a node without interrupts, which resolve cannot turn into one GPIO bank"* ]]
	hatch INU "$pins" "$(keys 'interrupt-parent = <&bone_irq>;' 915)"
	run ct check -b beaglebone-black INU.cape
	echo "$output"
	[ "$status" -eq 3 ]
	[[ "$output" == *"INU.cape:3: overlay ./INU.dtso: the kernel refuses this overlay on board beaglebone-black: references: property interrupts of node k uses header pin P9.15, which the cape does not declare"* ]]
	run ct create -b beaglebone-black INU.cape -o o
	[ "$status" -eq 3 ]
	[ ! -e o/INU-00A0.dtbo ]
	hatch INB "$pins" "$(keys '' 912)"
	run ct check -b beaglebone-black INB.cape
	echo "$output"
	[ "$status" -eq 3 ]
	[[ "$output" == *"INB.cape:3: overlay ./INB.dtso: the kernel refuses this overlay on board beaglebone-black: interrupts: node k has interrupts but no interrupt-parent in the overlay: it would take the board's"* ]]
}
