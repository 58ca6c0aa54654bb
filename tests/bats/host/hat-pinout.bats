#!/usr/bin/env bats
# capetool pinout of a Raspberry Pi 40-pin header (--board rpi): the blank
# map as pinout.xyz draws it, HATs' GPIOs with their functions, conflicts;
# text in 80 columns, JSON and SVG.  The header's facts come from
# schemas/boards/raspberry-pi.board.

load helpers

HAT=$FIX/hat

@test "the blank map: pin 1 3V3 top left, odd pins left, power, ground and ID_SD/ID_SC marked" {
	run ct pinout --board rpi --color=never
	no_sanitizer_report
	[ "$status" -eq 0 ]
	[ "${lines[0]}" = "                           Raspberry Pi 40-pin header" ]
	[ "${lines[1]}" = "                      = 3V3 power  1 [] () 2  = 5V power" ]
	[ "${lines[2]}" = "                     . GPIO2 SDA1  3 () () 4  = 5V power" ]
	[ "${lines[4]}" = "                   . GPIO4 GPCLK0  7 () () 8  # GPIO14 TXD1 (serial console)" ]
	[ "${lines[6]}" = "                         . GPIO17 11 () () 12 . GPIO18 PCM_CLK" ]
	[ "${lines[14]}" = "       # GPIO0 ID_SD (HAT EEPROM) 27 () () 28 # GPIO1 ID_SC (HAT EEPROM)" ]
	[ "${lines[20]}" = "                         = Ground 39 () () 40 . GPIO21 PCM_DOUT" ]
	[[ "$output" == *"HATs: none"* ]]
	while IFS= read -r l; do
		[ "${#l}" -le 80 ] || { echo "too wide: $l"; false; }
	done <<< "$output"
	# the same by the profile's name, and by its path
	run ct pinout --board raspberry-pi
	[ "${lines[1]}" = "                      = 3V3 power  1 [] () 2  = 5V power" ]
	run ct pinout --board "$TOP/schemas/boards/raspberry-pi.board"
	[ "${lines[1]}" = "                      = 3V3 power  1 [] () 2  = 5V power" ]
}

@test "the profile's header pins are the ones decode names (hat.c's table)" {
	{
		sed -n '/^product_uuid/,/^product /p' "$HAT/v1-minimal.txt"
		printf 'gpio_drive 0\ngpio_slew 0\ngpio_hysteresis 0\nback_power 0\n'
		for g in $(seq 2 27); do echo "setgpio $g INPUT DEFAULT"; done
	} > "$BATS_TEST_TMPDIR/all.txt"
	# GPIO14/15 are the console's: written with --force, decode says so (exit 3)
	ct create "$BATS_TEST_TMPDIR/all.txt" --force -o "$BATS_TEST_TMPDIR"
	run ct decode --json "$BATS_TEST_TMPDIR/all.eep"
	[ "$status" -eq 3 ]
	echo "${lines[0]}" > "$BATS_TEST_TMPDIR/decode.json"
	run ct pinout --board rpi --json
	[ "$status" -eq 0 ]
	echo "$output" | python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
want = {p["gpio"]: p["header_pin"] for p in d["gpio"]["pins"]}
assert len(want) == 26, want
p = json.load(sys.stdin)
have = {x["gpio"]: x["pin"] for x in p["header"] if x["gpio"] is not None}
assert have.pop(0) == 27 and have.pop(1) == 28, have
assert have == want, (have, want)
fixed = {x["pin"]: x["fixed"] for x in p["header"] if x["gpio"] is None}
assert fixed == {1: "3V3 power", 17: "3V3 power", 2: "5V power", 4: "5V power",
                 6: "Ground", 9: "Ground", 14: "Ground", 20: "Ground", 25: "Ground",
                 30: "Ground", 34: "Ground", 39: "Ground"}, fixed
assert [x["column"] for x in p["header"][:2]] == ["odd", "even"]
assert all(x["kind"] in ("fixed", "free", "board") for x in p["header"])
' "$BATS_TEST_TMPDIR/decode.json"
}

@test "the common functions come from the profile: I2C1, SPI0, UART0, PCM, PWM" {
	run ct pinout --board rpi --json
	echo "$output" | python3 -c '
import json, sys
alt = {x["gpio"]: x["alt"] for x in json.load(sys.stdin)["header"] if x["gpio"] is not None}
want0 = {2: "SDA1", 3: "SCL1", 7: "SPI0_CE1_N", 8: "SPI0_CE0_N", 9: "SPI0_MISO",
         10: "SPI0_MOSI", 11: "SPI0_SCLK", 14: "TXD0", 15: "RXD0", 18: "PCM_CLK",
         19: "PCM_FS", 20: "PCM_DIN", 21: "PCM_DOUT", 12: "PWM0", 13: "PWM1"}
for g, f in want0.items():
    assert alt[g][0] == f, (g, alt[g])
assert alt[18][5] == "PWM0" and alt[19][5] == "PWM1", (alt[18], alt[19])'
}

@test "a HAT's GPIOs are marked with the HAT and their function" {
	run ct pinout --board rpi "$HAT/v1-gpio-dt.txt"
	no_sanitizer_report
	[ "$status" -eq 0 ]
	[ "${lines[2]}" = "                A GPIO2 ALT0 SDA1  3 () () 4  = 5V power" ]
	[ "${lines[4]}" = "               A GPIO4 in pull-up  7 () () 8  # GPIO14 TXD1 (serial console)" ]
	[ "${lines[6]}" = "             A GPIO17 out no-pull 11 () () 12 A GPIO18 ALT5 PWM0 pull-down" ]
	[ "${lines[8]}" = "           A GPIO22 ALT4 ARM_TRST 15 () () 16 A GPIO23 ALT1 SD15 pull-up" ]
	[[ "$output" == *'  A HAT "Sense HAT clone" by Example Labs (v1-gpio-dt.txt) at 0x50, 10 GPIOs'* ]]
	# an image the same, and without --board (told by content)
	run ct pinout "$HAT/v1-gpio-dt.eep" --json
	[ "$status" -eq 0 ]
	echo "$output" | python3 -c '
import json, sys
d = json.load(sys.stdin)
assert d["board"] == "raspberry-pi" and d["hats"][0]["product"] == "Sense HAT clone", d["hats"]
p12 = [x for x in d["header"] if x["pin"] == 12][0]
assert p12["kind"] == "hat" and p12["claims"] == [{"hat": "A", "function": "ALT5", "signal": "PWM0", "pull": "DOWN", "byte": 194}], p12
assert d["conflicts"] == []'
	# GPIOs of bank 1 are not on the header: counted apart
	run ct pinout "$HAT/v1-bank1.eep"
	[ "${lines[-2]}" = '  A HAT "CM carrier" by Example Labs (v1-bank1.eep) at 0x50, 1 GPIO, 2 off the' ]
	[ "${lines[-1]}" = '      header (bank 1)' ]
}

@test "a GPIO claimed by two HATs, or GPIO0 by one, is a conflict: exit 5, both named" {
	printf '%s\n' 'product_uuid 3f1a2b4c-5d6e-4f70-8192-a3b4c5d6e7f8' 'product_id 0x0001' \
		'product_ver 0x0002' 'vendor "Example Labs"' 'product "Button HAT"' 'gpio_drive 0' \
		'gpio_slew 0' 'gpio_hysteresis 0' 'back_power 0' 'setgpio 4 OUTPUT NONE' > "$BATS_TEST_TMPDIR/b.txt"
	run ct pinout "$HAT/v1-gpio-dt.txt" "$BATS_TEST_TMPDIR/b.txt"
	no_sanitizer_report
	[ "$status" -eq 5 ]
	[ "${lines[4]}" = "             ! A+B CONFLICT GPIO4  7 () () 8  # GPIO14 TXD1 (serial console)" ]
	[ "${lines[-2]}" = '  pin 7 GPIO4 is claimed by A "Sense HAT clone" (INPUT UP) and B "Button HAT"' ]
	[ "${lines[-1]}" = '      (OUTPUT NONE)' ]
	while IFS= read -r l; do
		[ "${#l}" -le 80 ] || { echo "too wide: $l"; false; }
	done <<< "$output"
	hat_patch "$HAT/v1-minimal.eep" "$BATS_TEST_TMPDIR/id.eep" '
off = 12
for i in range(struct.unpack_from("<H", b, 6)[0]):
    t, c, dlen = struct.unpack_from("<HHI", b, off)
    if t == 2:
        b[off + 10 + 1] = 0x81
    off += 8 + dlen'
	run ct pinout --board rpi "$BATS_TEST_TMPDIR/id.eep" --json
	[ "$status" -eq 5 ]
	echo "$output" | python3 -c '
import json, sys
d = json.load(sys.stdin)
assert d["conflicts"] == [{"pin": 28, "gpio": 1, "claimants": ["board", "Minimal HAT"]}], d["conflicts"]'
}

@test "--svg draws the header: pin 1 square, every pin a group with its kind" {
	run ct pinout "$HAT/v1-gpio-dt.txt" --svg "$BATS_TEST_TMPDIR/p.svg"
	no_sanitizer_report
	[ "$status" -eq 0 ]
	python3 - "$BATS_TEST_TMPDIR/p.svg" <<'PY'
import sys, xml.etree.ElementTree as ET
ns = {"s": "http://www.w3.org/2000/svg"}
root = ET.parse(sys.argv[1]).getroot()
pins = {g.get("id"): g for g in root.iter("{http://www.w3.org/2000/svg}g") if g.get("id", "").startswith("pin")}
assert len(pins) == 40, len(pins)
assert pins["pin1"].find("s:rect", ns) is not None and pins["pin2"].find("s:circle", ns) is not None
assert pins["pin12"].get("class") == "pin hat" and pins["pin12"].get("data-hats") == "A"
assert pins["pin27"].get("class") == "pin board" and pins["pin6"].get("class") == "pin fixed"
assert "A GPIO18 ALT5 PWM0 pull-down" in "".join(pins["pin12"].itertext())
PY
	run ct pinout --board rpi --svg -
	[ "$status" -eq 0 ]
	[[ "${lines[0]}" == '<?xml version="1.0" encoding="UTF-8"?>' ]]
	[[ "$output" == *'HATs: none'* ]]
}

@test "pinout of HATs takes no --live or --variant" {
	run ct pinout --board rpi --live
	[ "$status" -eq 2 ]
	[[ "$output" == *"--live: a Raspberry Pi header's pinout draws HAT files"* ]]
	run ct pinout "$HAT/v1-minimal.eep" --variant no-hdmi
	[ "$status" -eq 2 ]
	run ct pinout --board beaglebone-black "$HAT/v1-minimal.eep"
	[ "$status" -eq 2 ]
	[[ "$output" == *"v1-minimal.eep is a Raspberry Pi HAT (settings or image): HATs are drawn on a Raspberry Pi's header (--board rpi), apart from capes"* ]]
	run ct pinout "$DEFS/weather.cape" "$HAT/v1-minimal.txt"
	[ "$status" -eq 2 ]
	[[ "$output" == *"v1-minimal.txt is a Raspberry Pi HAT"* ]]
}
