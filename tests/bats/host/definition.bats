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
devices = ( { type = "can"; bus = "dcan1"; } );
CAPE
)
	run ct create "$f" -o "$BATS_TEST_TMPDIR"
	[ "$status" -eq 3 ]
	[[ "$output" == *'t.cape:2: devices[0].type: bad value "can"'* ]]
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
	[ "$output" = "$(printf 'beaglebone-black\nqemu-vexpress')" ]
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
