#!/usr/bin/env bats
# The definition format: every error names FILE:LINE and the key.

load helpers

@test "the sample definitions are valid for both boards" {
	for board in qemu-vexpress beaglebone-black; do
		run ct check --board "$board" --quiet "$DEFS/weather.cape"
		[ "$status" -eq 0 ]
	done
}

@test "an unknown key is an error naming file, line and key" {
	f=$(weather_with 'colour = "red";')
	run ct create "$f" -o "$BATS_TEST_TMPDIR"
	no_sanitizer_report
	[ "$status" -eq 3 ]
	[[ "$output" == *"w.cape:23: colour: unknown key"* ]]
}

@test "an unknown key inside a group names the group" {
	f=$(mkdef u.cape <<'CAPE'
eeprom = { board-name = "X"; version = "00A0"; manufacturer = "M"; part-number = "P";
  colour = "red"; };
CAPE
)
	run ct create "$f" -o "$BATS_TEST_TMPDIR"
	[ "$status" -eq 3 ]
	[[ "$output" == *"u.cape:2: eeprom.colour: unknown key"* ]]
}

@test "an unknown key in a device is reported for that device type" {
	f=$(mkdef d.cape <<'CAPE'
eeprom = { board-name = "X"; version = "00A0"; manufacturer = "M"; part-number = "P"; };
pins = ( { pin = "P8.13"; mode = 7; direction = "out"; } );
devices = ( { type = "led"; label = "a"; pin = "P8.13"; address = 3; } );
CAPE
)
	run ct create "$f" -o "$BATS_TEST_TMPDIR"
	[ "$status" -eq 3 ]
	[[ "$output" == *"d.cape:3: devices[0].address: unknown key"* ]]
}

@test "a board name longer than 32 characters is rejected" {
	f=$(mkdef l.cape <<'CAPE'
eeprom = { board-name = "123456789012345678901234567890123"; version = "00A0";
  manufacturer = "M"; part-number = "P"; };
CAPE
)
	run ct create "$f" -o "$BATS_TEST_TMPDIR"
	[ "$status" -eq 3 ]
	[[ "$output" == *"l.cape:1: eeprom.board-name: at most 32 characters (has 33)"* ]]
}

@test "a version that is not exactly 4 characters is rejected" {
	f=$(mkdef v.cape <<'CAPE'
eeprom = { board-name = "X"; version = "0A"; manufacturer = "M"; part-number = "P"; };
CAPE
)
	run ct create "$f" -o "$BATS_TEST_TMPDIR"
	[ "$status" -eq 3 ]
	[[ "$output" == *"v.cape:1: eeprom.version: must be exactly 4 characters (has 2)"* ]]
}

@test "manufacturer, part number and serial lengths are checked" {
	f=$(mkdef m.cape <<'CAPE'
eeprom = { board-name = "X"; version = "00A0";
  manufacturer = "12345678901234567";
  part-number = "12345678901234567";
  serial = "123"; };
CAPE
)
	run ct create "$f" -o "$BATS_TEST_TMPDIR"
	[ "$status" -eq 3 ]
	[[ "$output" == *"m.cape:2: eeprom.manufacturer: at most 16 characters (has 17)"* ]]
	[[ "$output" == *"m.cape:3: eeprom.part-number: at most 16 characters (has 17)"* ]]
	[[ "$output" == *"m.cape:4: eeprom.serial: must be exactly 12 characters (has 3)"* ]]
}

@test "non-ASCII text is rejected" {
	f=$(mkdef a.cape <<'CAPE'
eeprom = { board-name = "Wetterstation Ä"; version = "00A0"; manufacturer = "M"; part-number = "P"; };
CAPE
)
	run ct create "$f" -o "$BATS_TEST_TMPDIR"
	[ "$status" -eq 3 ]
	[[ "$output" == *"a.cape:1: eeprom.board-name: must be printable ASCII"* ]]
}

@test "a missing required key is reported" {
	f=$(mkdef r.cape <<'CAPE'
eeprom = { board-name = "X"; version = "00A0"; manufacturer = "M"; };
CAPE
)
	run ct create "$f" -o "$BATS_TEST_TMPDIR"
	[ "$status" -eq 3 ]
	[[ "$output" == *"r.cape:1: eeprom.part-number: required key missing"* ]]
}

@test "a missing eeprom group is reported" {
	f=$(mkdef e.cape <<'CAPE'
power = { vdd-5v = 3; };
CAPE
)
	run ct create "$f" -o "$BATS_TEST_TMPDIR"
	[ "$status" -eq 3 ]
	[[ "$output" == *"eeprom: required key missing"* ]]
}

@test "bad enumerated values are rejected" {
	f=$(mkdef b.cape <<'CAPE'
eeprom = { format = "A2"; board-name = "X"; version = "00A0"; manufacturer = "M"; part-number = "P"; };
pins = ( { pin = "P8.13"; mode = 7; direction = "sideways"; pull = "left"; slew = "medium"; } );
CAPE
)
	run ct create "$f" -o "$BATS_TEST_TMPDIR"
	[ "$status" -eq 3 ]
	[[ "$output" == *'b.cape:1: eeprom.format: bad value "A2"'* ]]
	[[ "$output" == *'b.cape:2: pins[0].direction: bad value "sideways"'* ]]
	[[ "$output" == *'b.cape:2: pins[0].pull: bad value "left"'* ]]
	[[ "$output" == *'b.cape:2: pins[0].slew: bad value "medium"'* ]]
}

@test "out-of-range numbers and wrong types are rejected" {
	f=$(mkdef n.cape <<'CAPE'
eeprom = { board-name = "X"; version = "00A0"; manufacturer = "M"; part-number = "P"; };
power = { vdd-3v3b = 70000; vdd-5v = "lots"; };
pins = ( { pin = "P8.13"; mode = 8; direction = "out"; rx = 1; } );
devices = ( { type = "i2c"; bus = "i2c2"; address = 0x80; compatible = "x,y"; } );
CAPE
)
	run ct create "$f" -o "$BATS_TEST_TMPDIR"
	[ "$status" -eq 3 ]
	[[ "$output" == *"n.cape:2: power.vdd-3v3b: 70000 is above the maximum 65535"* ]]
	[[ "$output" == *"n.cape:2: power.vdd-5v: must be an integer"* ]]
	[[ "$output" == *"n.cape:3: pins[0].mode: 8 is above the maximum 7"* ]]
	[[ "$output" == *"n.cape:3: pins[0].rx: must be true or false"* ]]
	[[ "$output" == *"n.cape:4: devices[0].address: 128 is above the maximum 127"* ]]
}

@test "an unknown device type is rejected" {
	f=$(mkdef t.cape <<'CAPE'
eeprom = { board-name = "X"; version = "00A0"; manufacturer = "M"; part-number = "P"; };
devices = ( { type = "pru"; bus = "pru0"; } );
CAPE
)
	run ct create "$f" -o "$BATS_TEST_TMPDIR"
	[ "$status" -eq 3 ]
	[[ "$output" == *'t.cape:2: devices[0].type: bad value "pru"'* ]]
	[[ "$output" == *'t.cape:2: devices[0].bus: unknown key'* ]]
}

@test "a duplicate pin is rejected, naming the first occurrence" {
	f=$(mkdef p.cape <<'CAPE'
eeprom = { board-name = "X"; version = "00A0"; manufacturer = "M"; part-number = "P"; };
pins = (
  { pin = "P8.13"; mode = 7; direction = "out"; },
  { pin = "P8.13"; mode = 7; direction = "in"; }
);
CAPE
)
	run ct create "$f" -o "$BATS_TEST_TMPDIR"
	[ "$status" -eq 3 ]
	[[ "$output" == *"p.cape:4: pins[1].pin: duplicate pin P8.13 (first at line 3)"* ]]
}

@test "an unknown or power header pin is rejected" {
	f=$(mkdef h.cape <<'CAPE'
eeprom = { board-name = "X"; version = "00A0"; manufacturer = "M"; part-number = "P"; };
pins = ( { pin = "P9.1"; mode = 7; direction = "out"; }, { pin = "GPIO1_6"; mode = 0; direction = "in"; } );
CAPE
)
	run ct create "$f" -o "$BATS_TEST_TMPDIR"
	[ "$status" -eq 3 ]
	[[ "$output" == *'h.cape:2: pins[0].pin: "P9.1" is not a header signal pin'* ]]
	[[ "$output" == *'h.cape:2: pins[1].pin: "GPIO1_6" is not a header signal pin'* ]]
}

@test "mode and direction are required except for AIN pins, which take nothing else" {
	f=$(mkdef m.cape <<'CAPE'
eeprom = { board-name = "X"; version = "00A0"; manufacturer = "M"; part-number = "P"; };
pins = (
  { pin = "P8.13"; },
  { pin = "P9.39"; mode = 0; }
);
CAPE
)
	run ct create "$f" -o "$BATS_TEST_TMPDIR"
	[ "$status" -eq 3 ]
	[[ "$output" == *"m.cape:3: pins[0].mode: required key missing"* ]]
	[[ "$output" == *"m.cape:3: pins[0].direction: required key missing"* ]]
	[[ "$output" == *"m.cape:4: pins[1].mode: P9.39 is an analog input: it takes no mode"* ]]
}

@test "a device pin must be listed in pins and be a GPIO" {
	f=$(mkdef g.cape <<'CAPE'
eeprom = { board-name = "X"; version = "00A0"; manufacturer = "M"; part-number = "P"; };
pins = ( { pin = "P9.39"; } );
devices = (
  { type = "led"; label = "a"; pin = "P8.14"; },
  { type = "w1"; pin = "P9.39"; }
);
CAPE
)
	run ct create "$f" -o "$BATS_TEST_TMPDIR"
	[ "$status" -eq 3 ]
	[[ "$output" == *"g.cape:4: devices[0].pin: P8.14 is not listed in pins"* ]]
	[[ "$output" == *'g.cape:5: devices[1].pin: "P9.39" is not a header GPIO pin'* ]]
}

@test "a pin with no A0 word is rejected in format A0" {
	f=$(mkdef a0.cape <<'CAPE'
eeprom = { format = "A0"; board-name = "X"; version = "00A0"; manufacturer = "M"; part-number = "P"; };
pins = ( { pin = "P9.35"; } );
CAPE
)
	run ct create "$f" -o "$BATS_TEST_TMPDIR"
	[ "$status" -eq 3 ]
	[[ "$output" == *"a0.cape:2: pins[0].pin: P9.35 has no pin-usage word in format A0"* ]]
}

@test "two devices at one address are rejected" {

	f=$(mkdef two.cape <<'CAPE'
eeprom = { board-name = "X"; version = "00A0"; manufacturer = "M"; part-number = "P"; };
devices = (
  { type = "i2c"; bus = "i2c2"; address = 0x48; compatible = "ti,tmp105"; },
  { type = "i2c"; bus = "i2c2"; address = 0x48; compatible = "ti,tmp105"; }
);
CAPE
)
	run ct create "$f" -o "$BATS_TEST_TMPDIR"
	[ "$status" -eq 3 ]
	[[ "$output" == *"two.cape:4: devices[1].address: i2c2 address 0x48 is taken by ti,tmp105 (line 3)"* ]]
}

@test "one GPIO pin, one GPIO device: an LED, a key and 1-Wire on P9.15 are refused" {
	f=$(mkdef dupg.cape <<'CAPE'
eeprom = { board-name = "X"; version = "00A0"; manufacturer = "M"; part-number = "P"; };
pins = ( { pin = "P9.15"; mode = "gpio"; direction = "bidir"; } );
devices = (
  { type = "led"; label = "a"; pin = "P9.15"; },
  { type = "key"; label = "k"; pin = "P9_15"; code = 1; },
  { type = "w1"; pin = "P9.15"; }
);
CAPE
)
	run ct check "$f"
	echo "$output"
	no_sanitizer_report
	[ "$status" -eq 3 ]
	[[ "$output" == *"dupg.cape:5: devices[1].pin: P9.15 is already the GPIO of led \"a\" (line 4): a GPIO has one user"* ]]
	[[ "$output" == *"dupg.cape:6: devices[2].pin: P9.15 is already the GPIO of led \"a\" (line 4)"* ]]
}

@test "one GPIO pin, one user: a device property's GPIO reference counts, as an LED's pin does (user test 26, defect 4)" {
	f=$(mkdef dupp.cape <<'CAPE'
eeprom = { board-name = "X"; version = "00A0"; manufacturer = "M"; part-number = "P"; };
pins = ( { pin = "P9.12"; mode = "gpio"; direction = "bidir"; }, { pin = "P9.15"; mode = "gpio"; direction = "bidir"; } );
devices = (
  { type = "led"; label = "l"; pin = "P9.12"; },
  { type = "i2c"; bus = "i2c2"; address = 0x20; compatible = "a,irq"; properties = { irq-gpios = { pin = "P9.12"; }; }; },
  { type = "i2c"; bus = "i2c2"; address = 0x21; compatible = "a,b"; properties = { reset-gpios = { pin = "P9.15"; }; }; },
  { type = "i2c"; bus = "i2c2"; address = 0x22; compatible = "a,c";
    properties = { x-gpios = ( { pin = "P9.12"; }, { pin = "P9.15"; } ); }; },
  { type = "key"; label = "k"; pin = "P9.15"; code = 1; }
);
CAPE
)
	run ct check "$f"
	echo "$output"
	no_sanitizer_report
	[ "$status" -eq 3 ]
	[[ "$output" == *"dupp.cape:5: properties.irq-gpios: P9.12 is already the GPIO of led \"l\" (line 4): a GPIO has one user"* ]]
	[[ "$output" == *"dupp.cape:8: properties.x-gpios: P9.12 is already the GPIO of led \"l\" (line 4): a GPIO has one user"* ]]
	[[ "$output" == *"dupp.cape:8: properties.x-gpios: P9.15 is already the GPIO of i2c device a,b, its reset-gpios (line 6): a GPIO has one user"* ]]
	[[ "$output" == *"dupp.cape:9: devices[4].pin: P9.15 is already the GPIO of i2c device a,b, its reset-gpios (line 6): a GPIO has one user"* ]]
	run ct create "$f" -o "$BATS_TEST_TMPDIR/o"
	[ "$status" -eq 3 ]
}

@test "an SPI device's chip select must be the controller's and muxed: spi0 cs 3 and an unmuxed spi1 cs 1 are refused" {
	f=$(mkdef cs.cape <<'CAPE'
eeprom = { board-name = "X"; version = "00A0"; manufacturer = "M"; part-number = "P"; };
pins = (
  { pin = "P9.22"; mode = "spi0_sclk"; direction = "bidir"; },
  { pin = "P9.21"; mode = "spi0_d0"; direction = "in"; },
  { pin = "P9.18"; mode = "spi0_d1"; direction = "out"; },
  { pin = "P9.17"; mode = "spi0_cs0"; direction = "out"; }
);
devices = (
  { type = "spi"; bus = "spi0"; cs = 0; compatible = "microchip,mcp3008"; },
  { type = "spi"; bus = "spi0"; cs = 3; compatible = "microchip,mcp3008"; name = "adc2"; }
);
CAPE
)
	run ct check "$f"
	echo "$output"
	no_sanitizer_report
	[ "$status" -eq 3 ]
	[[ "$output" == *"cs.cape:10: devices[1].cs: spi0 has no chip select 3 on the header (no pin can be spi0_cs3)"* ]]
	[[ "$output" != *"devices[0].cs"* ]]
	# SPI1 chip select 1 without P9.42 (or P9.19) muxed as spi1_cs1
	d=$BATS_TEST_TMPDIR/ltc.cape
	sed '/P9.42/d' "$DEFS/bone/hdmi-pins/bb-spi1-ltc2947.cape" > "$d"
	sed -i 's/\(P9.28.*pull = "up"; }\),/\1/' "$d"
	run ct check --variant no-hdmi "$d"
	echo "$output"
	[ "$status" -eq 3 ]
	[[ "$output" == *"ltc.cape:"[0-9]*": devices[1].cs: spi1 chip select 1 needs a pin of pins muxed as spi1_cs1 (P9.42 mode 2, P9.19 mode 4); there is none"* ]]
	run ct check --variant no-hdmi "$DEFS/bone/hdmi-pins/bb-spi1-ltc2947.cape"
	[ "$status" -eq 0 ]
}

@test "an LED label over 63 bytes, a trigger or compatible that is not printable ASCII are refused; a UTF-8 BOM is skipped" {
	L=$(printf 'x%.0s' $(seq 64))
	f=$(mkdef txt.cape <<CAPE
eeprom = { board-name = "X"; version = "00A0"; manufacturer = "M"; part-number = "P"; };
pins = ( { pin = "P9.15"; mode = "gpio"; direction = "out"; } );
devices = ( { type = "led"; label = "$L"; pin = "P9.15"; trigger = "heart\tbeat"; },
  { type = "i2c"; bus = "i2c2"; address = 0x48; compatible = ["ti,tmp105\n", "ti,lm75"]; name = "t"; } );
CAPE
)
	run ct check "$f"
	echo "$output"
	no_sanitizer_report
	[ "$status" -eq 3 ]
	[[ "$output" == *"txt.cape:3: devices[0].label: at most 63 characters (has 64)"* ]]
	[[ "$output" == *"txt.cape:3: devices[0].trigger: must be printable ASCII"* ]]
	[[ "$output" == *"txt.cape:4: devices[1].compatible: \"ti,tmp105"*"must be printable ASCII without spaces or control characters"* ]]
	# 63 bytes is the most; a BOM before the text is no syntax error
	printf '\xef\xbb\xbf' > "$BATS_TEST_TMPDIR/bom.cape"
	sed "s/$L/${L:1}/; s/heart\\\\tbeat/heartbeat/; s/ti,tmp105\\\\n/ti,tmp105/" "$f" >> "$BATS_TEST_TMPDIR/bom.cape"
	run ct check "$BATS_TEST_TMPDIR/bom.cape"
	echo "$output"
	[ "$status" -eq 0 ]
}

@test "a syntax error names file and line" {
	f=$(mkdef s.cape <<'CAPE'
eeprom = { board-name = "X";
  version = ; };
CAPE
)
	run ct create "$f" -o "$BATS_TEST_TMPDIR"
	[ "$status" -eq 3 ]
	[[ "$output" == *"s.cape:2: syntax error"* ]]
}

@test "a missing definition file is an I/O error" {
	run ct create "$BATS_TEST_TMPDIR/nope.cape" -o "$BATS_TEST_TMPDIR"
	[ "$status" -eq 4 ]
	[[ "$output" == *"nope.cape: cannot read definition"* ]]
}

@test "capetool schema documents every key of the compiled-in schema" {
	run ct schema
	[ "$status" -eq 0 ]
	for key in board-name version manufacturer part-number serial vdd-3v3b dc-supplied \
		   mode direction pull rx slew address compatible max-frequency default-state \
		   trigger active-low code properties overlay; do
		[[ "$output" == *"$key ("* ]] || { echo "missing $key"; false; }
	done
	run ct schema --roff
	[[ "$output" == *'.SS Top-level keys'* ]]
	run ct schema --raw
	[ "$output" = "$(cat "$TOP/schemas/cape.schema")" ]
	run ct schema --boards
	[ "$output" = "$(printf 'beaglebone-black\nqemu-vexpress\nraspberry-pi')" ]
}

@test "a definition's errors, its board pins and its power come in one run, each at FILE:LINE; the exit status is the definition's" {
	f=$(mkdef rounds.cape <<'CAPE'
eeprom = { board-name = "X"; version = "00A0"; manufacturer = "M"; part-number = "RND"; };
pins = ( { pin = "P8.3"; mode = 7; direction = "out"; },
         { pin = "P9.12"; mode = 6; direction = "out"; } );
devices = ( { type = "led"; label = "a"; pin = "P9.12"; } );
power = { vdd-3v3b = 60000; };
CAPE
)
	run ct check "$f"
	echo "$output"
	no_sanitizer_report
	[ "$status" -eq 3 ]
	[[ "$output" == *"rounds.cape:4: devices[0].pin: LED \"a\" needs P9.12 muxed as a GPIO"* ]]
	[[ "$output" == *"rounds.cape:2: pin P8.3 is held by the board (eMMC DAT6"* ]]
	[[ "$output" == *"rounds.cape:5: vdd-3v3b over budget: needs 60000 mA, 0 of 250 mA in use"* ]]
	# without the definition error: a conflict (5) still says the budget, with its line
	sed -i 's/mode = 6; direction = "out"; } );/mode = 7; direction = "out"; } );/' "$f"
	run ct check "$f"
	echo "$output"
	[ "$status" -eq 5 ]
	[[ "$output" == *"rounds.cape: pin P8.3 is held by the board (eMMC DAT6; --variant no-emmc gives it to capes); vdd-3v3b over budget"* ]]
	[[ "$output" == *"rounds.cape:2: pin P8.3 is held by the board"* ]]
	[[ "$output" == *"rounds.cape:5: vdd-3v3b over budget"* ]]
}

@test "a mode the board's connector does not offer capes is refused at its FILE:LINE, naming what the pad offers (P8.19 mode 2: the eMMC's mmc1_dat0)" {
	f=$(mkdef emmc-dat.cape <<'CAPE'
eeprom = { board-name = "X"; version = "00A0"; manufacturer = "M"; part-number = "EMD"; };
pins = ( { pin = "P8.13"; mode = "ehrpwm2b"; direction = "out"; },
         { pin = "P8.19"; mode = "mmc1_dat0"; direction = "bidir"; pull = "up"; } );
CAPE
)
	# The test board's connector offers the Black's modes: its profile too.
	for board in beaglebone-black qemu-vexpress; do
		run ct check --board "$board" "$f"
		echo "$output"
		no_sanitizer_report
		[ "$status" -eq 3 ]
		[[ "$output" == *"emmc-dat.cape:3: pins[1].mode: P8.19: mode 2 (mmc1_dat0) is not offered to capes by the board's connector (offered: 4 ehrpwm2a, 7 gpio0_22)"* ]]
		run ct create --board "$board" "$f" -o "$BATS_TEST_TMPDIR/out"
		[ "$status" -eq 3 ]
		[ ! -e "$BATS_TEST_TMPDIR/out" ]
	done
	sed -i 's/"mmc1_dat0"/"ehrpwm2a"/' "$f"
	run ct check --board beaglebone-black "$f"
	echo "$output"
	[ "$status" -eq 0 ]
}

@test "P9.21/P9.22 do not offer mode 2, i2c2_scl/sda: no second pad into the board's cape EEPROM bus (red team round 13, F1)" {
	f=$(mkdef i2c2-twin.cape <<'CAPE'
eeprom = { board-name = "X"; version = "00A0"; manufacturer = "M"; part-number = "I2T"; };
pins = ( { pin = "P9.21"; mode = 2; direction = "bidir"; pull = "up"; rx = true; } );
CAPE
)
	for board in beaglebone-black qemu-vexpress; do
		run ct check --board "$board" "$f"
		echo "$output"
		no_sanitizer_report
		[ "$status" -eq 3 ]
		[[ "$output" == *"i2c2-twin.cape:2: pins[0].mode: P9.21: mode 2 (i2c2_scl) is not offered to capes"* ]]
	done
}

@test "config-pin's words name a mode (gpio_pu, gpio_input, pruout, spi_cs, timer); gpio_pu and gpio_input imply the pull and direction, and refuse another" {
	cd "$BATS_TEST_TMPDIR"
	e='eeprom = { board-name = "X"; version = "00A0"; manufacturer = "M"; part-number = "CPW"; serial = "0000EXLB0001"; };'
	cat > words.cape <<CAPE
$e
pins = ( { pin = "P8.7"; mode = "gpio_pu"; direction = "out"; },
         { pin = "P8.8"; mode = "gpio_input"; },
         { pin = "P8.11"; mode = "pruout"; direction = "out"; },
         { pin = "P9.17"; mode = "spi_cs"; direction = "out"; pull = "up"; },
         { pin = "P8.9"; mode = "timer"; direction = "out"; } );
CAPE
	cat > numbers.cape <<CAPE
$e
pins = ( { pin = "P8.7"; mode = 7; direction = "out"; pull = "up"; },
         { pin = "P8.8"; mode = 7; direction = "in"; pull = "none"; },
         { pin = "P8.11"; mode = 6; direction = "out"; },
         { pin = "P9.17"; mode = 0; direction = "out"; pull = "up"; },
         { pin = "P8.9"; mode = 2; direction = "out"; } );
CAPE
	ct create words.cape --board beaglebone-black -o w/ >/dev/null
	ct create numbers.cape --board beaglebone-black -o n/ >/dev/null
	no_sanitizer_report
	cmp w/CPW-00A0.eeprom n/CPW-00A0.eeprom
	sed -i 's/mode = "gpio_pu"; direction = "out"; }/mode = "gpio_pd"; direction = "out"; pull = "up"; }/;
		s/mode = "gpio_input"; }/mode = "gpio_input"; direction = "out"; }/' words.cape
	run ct check --board beaglebone-black words.cape
	echo "$output"
	no_sanitizer_report
	[ "$status" -eq 3 ]
	[[ "$output" == *'words.cape:2: pins[0].pull: mode "gpio_pd" is the GPIO with pull "down", not "up"'* ]]
	[[ "$output" == *'words.cape:3: pins[1].direction: mode "gpio_input" is the GPIO as an input, not "out"'* ]]
}

@test "a part number or version with '/' is rejected (they name the overlay file)" {
	f=$(mkdef slash.cape <<'CAPE'
eeprom = { board-name = "X"; version = "00/0"; manufacturer = "M"; part-number = "BB/1"; };
CAPE
)
	run ct create "$f" -o "$BATS_TEST_TMPDIR"
	[ "$status" -eq 3 ]
	[[ "$output" == *"slash.cape:1: eeprom.part-number: names the overlay file"* ]]
	[[ "$output" == *"slash.cape:1: eeprom.version: names the overlay file"* ]]
}

@test "pin names as config-pin writes them (P9_19) and in any case (p8.13) are the same pins" {
	sed -e 's/pin = "P9.19"/pin = "P9_19"/' -e 's/pin = "P8.13"; mode/pin = "p8.13"; mode/' \
	    -e 's/pin = "P9.39"/pin = "p9_39"/' -e 's/pin = "P8.13"; default/pin = "P8_13"; default/' \
		"$DEFS/weather.cape" > "$BATS_TEST_TMPDIR/cp.cape"
	grep -q P9_19 "$BATS_TEST_TMPDIR/cp.cape" && grep -q p8.13 "$BATS_TEST_TMPDIR/cp.cape"
	grep -q p9_39 "$BATS_TEST_TMPDIR/cp.cape" && grep -q P8_13 "$BATS_TEST_TMPDIR/cp.cape"
	run ct create "$BATS_TEST_TMPDIR/cp.cape" --board qemu-vexpress -o "$BATS_TEST_TMPDIR/out"
	echo "$output"
	no_sanitizer_report
	[ "$status" -eq 0 ]
	cmp "$BATS_TEST_TMPDIR/out/BB-WTHR-01-00A2.eeprom" "$GOLDEN/BB-WTHR-01-00A2.eeprom"
	cmp "$BATS_TEST_TMPDIR/out/BB-WTHR-01-00A2.dtbo" "$GOLDEN/BB-WTHR-01-00A2.qemu-vexpress.dtbo"
}

@test "an unknown pin, key or enumerated value gets a 'did you mean'" {
	f=$(mkdef dym.cape <<'CAPE'
eeprom = { board-name = "X"; version = "00A0"; manufacturer = "M"; part-number = "P"; };
pins = (
  { pin = "P8.13"; mode = 7; directon = "out"; },
  { pin = "P8.15"; mode = 7; direction = "input"; pull = "upp"; },
  { pin = "P8-16"; mode = 7; direction = "in"; },
  { pin = "GPIO1_12"; mode = 7; direction = "in"; },
  { pin = "P8.50"; mode = 7; direction = "in"; }
);
devices = ( { type = "leds"; label = "a"; pin = "P8.13"; } );
CAPE
)
	run ct check --board beaglebone-black "$f"
	echo "$output"
	no_sanitizer_report
	[ "$status" -eq 3 ]
	[[ "$output" == *'dym.cape:3: pins[0].directon: unknown key; did you mean "direction"?'* ]]
	[[ "$output" == *'dym.cape:4: pins[1].direction: bad value "input" (allowed: in, out, bidir); did you mean "in"?'* ]]
	[[ "$output" == *'dym.cape:4: pins[1].pull: bad value "upp" (allowed: none, up, down); did you mean "up"?'* ]]
	[[ "$output" == *'dym.cape:5: pins[2].pin: "P8-16" is not a header signal pin; did you mean P8.16?'* ]]
	[[ "$output" == *'dym.cape:6: pins[3].pin: "GPIO1_12" is not a header signal pin; did you mean P8.12 (GPIO1_12)?'* ]]
	[[ "$output" == *'dym.cape:7: pins[4].pin: "P8.50" is not a header signal pin (P8 and P9 have pins 1 to 46)'* ]]
	[[ "$output" == *'dym.cape:9: devices[0].type: bad value "leds" (allowed: i2c, spi, led, key, w1, uart, pwm, adc, can, rs485, lcd, audio); did you mean "led"?'* ]]
}

@test "a pin spelled with leading zeros or doubled separators gets the pin it means, not a power pin's words (user test 26, defect 7)" {
	f=$(mkdef zero.cape <<'CAPE'
eeprom = { board-name = "X"; version = "00A0"; manufacturer = "M"; part-number = "P"; };
pins = (
  { pin = "P08.07"; mode = 7; direction = "in"; },
  { pin = "P8__07"; mode = 7; direction = "in"; },
  { pin = "P9_013"; mode = 7; direction = "in"; },
  { pin = "p09-0012"; mode = 7; direction = "in"; },
  { pin = "P09.01"; mode = 7; direction = "in"; },
  { pin = "P9__77"; mode = 7; direction = "in"; }
);
CAPE
)
	run ct check --board beaglebone-black "$f"
	echo "$output"
	no_sanitizer_report
	[ "$status" -eq 3 ]
	[[ "$output" == *'zero.cape:3: pins[0].pin: "P08.07" is not a header signal pin; did you mean P8.7?'* ]]
	[[ "$output" == *'zero.cape:4: pins[1].pin: "P8__07" is not a header signal pin; did you mean P8.7?'* ]]
	[[ "$output" == *'zero.cape:5: pins[2].pin: "P9_013" is not a header signal pin; did you mean P9.13?'* ]]
	[[ "$output" == *'zero.cape:6: pins[3].pin: "p09-0012" is not a header signal pin; did you mean P9.12?'* ]]
	[[ "$output" == *'zero.cape:7: pins[4].pin: "P09.01" is not a header signal pin: P9.1 is DGND'* ]]
	[[ "$output" == *'zero.cape:8: pins[5].pin: "P9__77" is not a header signal pin (P8 and P9 have pins 1 to 46)'* ]]
	[[ "$output" != *'P8.17'* ]]
}

@test "small messages: an empty definition says so, a chip select is a number, pull = \"pullup\" gets \"up\" (user test 26, defect 9)" {
	: > "$BATS_TEST_TMPDIR/empty.cape"
	printf '# nothing yet\n\n' > "$BATS_TEST_TMPDIR/comment.cape"
	for e in empty comment; do
		run ct check "$BATS_TEST_TMPDIR/$e.cape"
		echo "$output"
		no_sanitizer_report
		[ "$status" -eq 3 ]
		[[ "$output" == *"$e.cape: empty definition: it needs at least eeprom = {"* ]]
		[[ "$output" != *"$e.cape:0"* ]]
	done
	# a top-level key missing: no line 0 either
	printf 'pins = ();\n' > "$BATS_TEST_TMPDIR/noeeprom.cape"
	run ct check "$BATS_TEST_TMPDIR/noeeprom.cape"
	echo "$output"
	[ "$status" -eq 3 ]
	[[ "$output" == *"noeeprom.cape: eeprom: required key missing"* ]]
	[[ "$output" != *"noeeprom.cape:0"* ]]
	f=$(mkdef cs.cape <<'CAPE'
eeprom = { board-name = "X"; version = "00A0"; manufacturer = "M"; part-number = "P"; };
pins = ( { pin = "P9.22"; mode = "spi0_sclk"; direction = "in"; }, { pin = "P9.21"; mode = "spi0_d0"; direction = "in"; },
         { pin = "P9.18"; mode = "spi0_d1"; direction = "in"; }, { pin = "P9.17"; mode = "spi0_cs0"; direction = "in"; pull = "pullup"; } );
devices = ( { type = "spi"; bus = "spi0"; cs = 0; compatible = "a,b"; },
            { type = "spi"; bus = "spi0"; cs = 0; compatible = "a,c"; } );
CAPE
)
	run ct check "$f"
	echo "$output"
	[ "$status" -eq 3 ]
	[[ "$output" == *'cs.cape:3: pins[3].pull: bad value "pullup" (allowed: none, up, down); did you mean "up"?'* ]]
	[[ "$output" == *'cs.cape:5: devices[1].cs: spi0 chip select 0 is taken by a,b (line 4)'* ]]
	[[ "$output" != *'0x00'* ]]
}

@test "every error of a definition is reported in one run, each as FILE:LINE" {
	f=$(mkdef all.cape <<'CAPE'
eeprom = { board-name = "X"; version = "00A0"; manufacturer = "M"; part-number = "P"; colour = "red"; };
pins = (
  { pin = "P8.13"; mode = 7; direction = "out"; },
  { pin = "P8.13"; mode = 7; direction = "in"; }
);
devices = ( { type = "i2c"; bus = "i2c9"; address = 0x48; compatible = "ti,tmp105"; } );
CAPE
)
	run ct check --board beaglebone-black "$f"
	echo "$output"
	no_sanitizer_report
	[ "$status" -eq 3 ]
	[[ "$output" == *"all.cape:1: eeprom.colour: unknown key"* ]]
	[[ "$output" == *"all.cape:4: pins[1].pin: duplicate pin P8.13 (first at line 3)"* ]]
	[[ "$output" == *'all.cape:6: devices: board beaglebone-black has no i2c bus "i2c9"'* ]]
	[[ "$output" == *"all.cape: invalid"* ]]
	run ct create "$f" --board beaglebone-black -o "$BATS_TEST_TMPDIR/out"
	[ "$status" -eq 3 ]
	[ "$(grep -c 'all.cape:[0-9]*:' <<< "$output")" -eq 3 ]
	[ ! -e "$BATS_TEST_TMPDIR/out" ]
}

@test "a mux mode may be named by its function in the board's table, in any case" {
	sed -e 's/pin = "P9.19"; mode = 3;/pin = "P9.19"; mode = "i2c2_scl";/' \
	    -e 's/pin = "P8.13"; mode = 7;/pin = "P8.13"; mode = "GPIO";/' \
		"$DEFS/weather.cape" > "$BATS_TEST_TMPDIR/named.cape"
	grep -q '"i2c2_scl"' "$BATS_TEST_TMPDIR/named.cape" && grep -q '"GPIO"' "$BATS_TEST_TMPDIR/named.cape"
	for board in qemu-vexpress beaglebone-black; do
		rm -rf "$BATS_TEST_TMPDIR/out"
		run ct create "$BATS_TEST_TMPDIR/named.cape" --board "$board" -o "$BATS_TEST_TMPDIR/out"
		echo "$output"
		no_sanitizer_report
		[ "$status" -eq 0 ]
		cmp "$BATS_TEST_TMPDIR/out/BB-WTHR-01-00A2.eeprom" "$GOLDEN/BB-WTHR-01-00A2.eeprom"
		cmp "$BATS_TEST_TMPDIR/out/BB-WTHR-01-00A2.dtbo" "$GOLDEN/BB-WTHR-01-00A2.$board.dtbo"
	done
	f=$(mkdef pwm.cape <<'CAPE'
eeprom = { board-name = "X"; version = "00A0"; manufacturer = "M"; part-number = "P"; };
pins = ( { pin = "P9.14"; mode = "pwm"; direction = "out"; },
         { pin = "P8.19"; mode = "ehrpwm2a"; direction = "out"; },
         { pin = "P9.24"; mode = "uart1_txd"; direction = "out"; } );
CAPE
)
	run ct create "$f" --board beaglebone-black --eeprom-out "$BATS_TEST_TMPDIR/pwm.eeprom"
	echo "$output"
	[ "$status" -eq 0 ]
	run ct decode "$BATS_TEST_TMPDIR/pwm.eeprom"
	[[ "$output" == *"P9.14 mode6 out"* ]]
	[[ "$output" == *"P8.19 mode4 out"* ]]
	[[ "$output" == *"P9.24 mode0 out"* ]]
}

@test "a mode name the pin does not have is refused, listing the pin's functions" {
	f=$(mkdef badmode.cape <<'CAPE'
eeprom = { board-name = "X"; version = "00A0"; manufacturer = "M"; part-number = "P"; };
pins = ( { pin = "P8.13"; mode = "uart"; direction = "out"; },
         { pin = "P9.19"; mode = "i2c_scl"; direction = "bidir"; } );
CAPE
)
	run ct check --board beaglebone-black "$f"
	echo "$output"
	no_sanitizer_report
	[ "$status" -eq 3 ]
	[[ "$output" == *'badmode.cape:2: pins[0].mode: P8.13 has no function "uart" (modes: 0 gpmc_ad9, 1 lcd_data22, 2 mmc1_dat1, 3 mmc2_dat5, 4 ehrpwm2b, 5 pr1_mii0_col, 7 gpio0_23)'* ]]
	[[ "$output" == *'badmode.cape:3: pins[1].mode: P9.19 has no function "i2c_scl" ('*'); did you mean "i2c2_scl"?'* ]]
}

@test "a key's debounce-ms, autorepeat and wakeup are checked: range and type, at their line" {
	f=$(mkdef k.cape <<'CAPE'
eeprom = { board-name = "X"; version = "00A0"; manufacturer = "M"; part-number = "P"; };
pins = ( { pin = "P8.15"; mode = 7; direction = "in"; }, { pin = "P8.16"; mode = 7; direction = "in"; },
         { pin = "P8.17"; mode = 7; direction = "in"; }, { pin = "P8.18"; mode = 7; direction = "in"; } );
devices = (
  { type = "key"; label = "a"; pin = "P8.15"; code = 1; debounce-ms = -1; },
  { type = "key"; label = "b"; pin = "P8.16"; code = 2;
    debounce-ms = 2147484; },
  { type = "key"; label = "c"; pin = "P8.17"; code = 3; debounce-ms = "50"; autorepeat = 1; wakeup = "yes"; },
  { type = "key"; label = "d"; pin = "P8.18"; code = 4; debounce-ms = 2147483; autorepeat = false; }
);
CAPE
)
	run ct check --board beaglebone-black "$f"
	echo "$output"
	no_sanitizer_report
	[ "$status" -eq 3 ]
	[[ "$output" == *"k.cape:5: devices[0].debounce-ms: -1 is below the minimum 0"* ]]
	[[ "$output" == *"k.cape:7: devices[1].debounce-ms: 2147484 is above the maximum 2147483"* ]]
	[[ "$output" == *"k.cape:8: devices[2].debounce-ms: must be an integer"* ]]
	[[ "$output" == *"k.cape:8: devices[2].autorepeat: must be true or false"* ]]
	[[ "$output" == *"k.cape:8: devices[2].wakeup: must be true or false"* ]]
	[[ "$output" != *"devices[3]"* ]]
	# a debounce on an LED is an unknown key
	sed -i 's/{ type = "key"; label = "d"; pin = "P8.18"; code = 4;/{ type = "led"; label = "d"; pin = "P8.18";/; s/autorepeat = false; }/}/' "$f"
	run ct check --board beaglebone-black "$f"
	[[ "$output" == *"k.cape:9: devices[3].debounce-ms: unknown key"* ]]
}

@test "LED and key labels that are empty, not UTF-8 or used twice are refused with FILE:LINE" {
	printf '%s\n' \
	  'eeprom = { board-name = "X"; version = "00A0"; manufacturer = "M"; part-number = "P"; };' \
	  'pins = ( { pin = "P8.13"; mode = 7; direction = "out"; }, { pin = "P8.14"; mode = 7; direction = "out"; },' \
	  '  { pin = "P8.15"; mode = 7; direction = "in"; }, { pin = "P8.16"; mode = 7; direction = "in"; },' \
	  '  { pin = "P8.17"; mode = 7; direction = "out"; } );' \
	  'devices = (' \
	  '  { type = "led"; label = ""; pin = "P8.13"; },' \
	  $'  { type = "led"; label = "caf\xe9"; pin = "P8.14"; },' \
	  '  { type = "key"; label = "ok"; pin = "P8.15"; code = 28; },' \
	  '  { type = "key"; label = "ok"; pin = "P8.16"; code = 29; },' \
	  $'  { type = "led"; label = "Wetter \xc3\xa4"; pin = "P8.17"; }' \
	  ');' > "$BATS_TEST_TMPDIR/l.cape"
	run ct check --board beaglebone-black "$BATS_TEST_TMPDIR/l.cape"
	echo "$output"
	no_sanitizer_report
	[ "$status" -eq 3 ]
	[[ "$output" == *'l.cape:6: devices[0].label: must not be empty'* ]]
	[[ "$output" == *'l.cape:7: devices[1].label: must be valid UTF-8'* ]]
	[[ "$output" == *'l.cape:9: devices[3].label: duplicate key label "ok" (first at line 8)'* ]]
	[ "$(grep -c 'l.cape:' <<< "$output")" -eq 4 ]
	[[ "$output" != *"devices[4]"* ]]
}
