#!/usr/bin/env bats
# capetool check of Raspberry Pi HATs: settings files and images (told by
# content), every problem of a file in one run at FILE:LINE, and the HATs
# stacked: GPIOs claimed twice, ID EEPROM addresses (FILE@0x51).

load helpers

HAT=$FIX/hat

# hat_settings NAME PRODUCT SETGPIO-LINES...: a v1 HAT's settings file.
hat_settings() {
	local f=$BATS_TEST_TMPDIR/$1 p=$2
	shift 2
	{
		printf 'product_uuid 3f1a2b4c-5d6e-4f70-8192-a3b4c5d6e7f8\nproduct_id 0x0001\n'
		printf 'product_ver 0x0002\nvendor "Example Labs"\nproduct "%s"\n' "$p"
		printf 'gpio_drive 0\ngpio_slew 0\ngpio_hysteresis 0\nback_power 0\n'
		printf '%s\n' "$@"
	} > "$f"
	echo "$f"
}

# gpio_byte IN OUT GPIO BYTE: IN's GPIO map (bank 0) with GPIO's byte set.
gpio_byte() {
	hat_patch "$1" "$2" "
off = 12
for i in range(struct.unpack_from('<H', b, 6)[0]):
    t, c, dlen = struct.unpack_from('<HHI', b, off)
    if t == 2:
        b[off + 8 + 2 + $3] = $4
    off += 8 + dlen"
}

@test "a v1 HAT, settings or image, checks ok with what it is" {
	run ct check "$HAT/v1-gpio-dt.txt"
	no_sanitizer_report
	[ "$status" -eq 0 ]
	[ "$output" = "$HAT/v1-gpio-dt.txt: ok: HAT \"Sense HAT clone\" by Example Labs at 0x50, 10 GPIOs (board raspberry-pi)" ]
	run ct check "$HAT/v2-power.eep"
	[ "$status" -eq 0 ]
	[ "$output" = "$HAT/v2-power.eep: ok: HAT+ \"5A Power HAT+\" by Example Power Co. at 0x50, current_supply 5000 mA, overlay example-power.dtbo not beside it: not checked (board raspberry-pi)" ]
	run ct check --quiet "$HAT/v1-gpio-dt.eep" --board rpi
	[ "$status" -eq 0 ]
	[ -z "$output" ]
}

@test "every problem of a settings file in one run, each at FILE:LINE: GPIO0/GPIO1 refused" {
	f=$(hat_settings bad.txt "Bad HAT" 'setgpio 0 INPUT DEFAULT' 'setgpio 1 OUTPUT UP' \
		'setgpio 4 INPUTT UP' 'setgpio 5 OUTPUT DEFAULT' 'setgpio 5 INPUT DEFAULT')
	run ct check "$f"
	no_sanitizer_report
	[ "$status" -eq 3 ]
	[[ "$output" == *"bad.txt:10: setgpio: GPIO \"0\": 2 to 45 (GPIO0 and GPIO1 are the ID EEPROM's bus)"* ]]
	[[ "$output" == *"bad.txt:11: setgpio: GPIO \"1\": 2 to 45 (GPIO0 and GPIO1 are the ID EEPROM's bus)"* ]]
	[[ "$output" == *"bad.txt:12: setgpio: function \"INPUTT\": INPUT, OUTPUT or ALT0-ALT5 (did you mean INPUT?)"* ]]
	[[ "$output" == *"bad.txt:14: setgpio: GPIO5 set again (first at line 13)"* ]]
	[[ "$output" == *"$f: invalid"* ]]
}

@test "an image whose GPIO map claims GPIO0 or GPIO1 is invalid" {
	gpio_byte "$HAT/v1-minimal.eep" "$BATS_TEST_TMPDIR/id.eep" 0 0x81
	# decode prints it whole, then says why, as check does
	run ct decode "$BATS_TEST_TMPDIR/id.eep"
	[ "$status" -eq 3 ]
	[[ "$output" == *"GPIO0 (pin 27)"*"id.eep: GPIO0 (pin 27) is ID_SD, the ID EEPROM's own bus: a GPIO map leaves GPIO0 and GPIO1 alone" ]]
	run ct check "$BATS_TEST_TMPDIR/id.eep"
	no_sanitizer_report
	[ "$status" -eq 3 ]
	[ "$output" = "$BATS_TEST_TMPDIR/id.eep: invalid: GPIO0 (pin 27) is ID_SD, the ID EEPROM's own bus: a GPIO map leaves GPIO0 and GPIO1 alone" ]
}

@test "a HAT+ with a GPIO map is refused: settings at a HAT+ address, an image" {
	run ct check "$HAT/v1-gpio-dt.txt@0x51"
	[ "$status" -eq 3 ]
	[[ "$output" == *"v1-gpio-dt.txt:11: gpio_drive: not supported on HAT+ (a v1 HAT's GPIO map)"* ]]
	[[ "$output" == *"v1-gpio-dt.txt:17: setgpio: not supported on HAT+ (a v1 HAT's GPIO map)"* ]]
	[[ "$output" == *"v1-gpio-dt.txt: invalid"* ]]
	# a v1 image with its version byte made 2: a HAT+ carrying a GPIO map
	hat_patch "$HAT/v1-minimal.eep" "$BATS_TEST_TMPDIR/v2map.eep" 'b[4] = 2'
	run ct check "$BATS_TEST_TMPDIR/v2map.eep"
	[ "$status" -eq 3 ]
	[[ "$output" == *"v2map.eep: invalid: a GPIO map in a HAT+ (eepmake refuses every GPIO keyword on HAT+"* ]]
}

@test "two v1 HATs claiming one GPIO: the GPIO, its header pin and both HATs named" {
	a=$(hat_settings a.txt "Relay HAT" 'setgpio 4 OUTPUT DEFAULT' 'setgpio 17 OUTPUT DEFAULT')
	b=$(hat_settings b.txt "Button HAT" 'setgpio 22 INPUT UP' 'setgpio 4 INPUT UP')
	run ct check "$a" "$b"
	no_sanitizer_report
	[ "$status" -eq 5 ]
	[[ "${lines[0]}" == "$a: ok: HAT \"Relay HAT\" by Example Labs at 0x50, 2 GPIOs (board raspberry-pi)" ]]
	[[ "$output" == *"b.txt:11: setgpio: GPIO4 (pin 7) is held by HAT \"Relay HAT\" ($a)"* ]]
	[[ "$output" == *"$b: ID EEPROM address 0x50 is held by HAT \"Relay HAT\" ($a): one HAT per address; GPIO4 (pin 7) is held by HAT \"Relay HAT\" ($a)"* ]]
	# GPIO22 is only b's
	[[ "$output" != *"GPIO22"* ]]
	# an image stacks the same way (no line to name)
	run ct check "$HAT/v1-gpio-dt.eep" "$b"
	[ "$status" -eq 5 ]
	[[ "$output" == *"GPIO4 (pin 7) is held by HAT \"Sense HAT clone\" ($HAT/v1-gpio-dt.eep); GPIO22 (pin 15) is held by HAT \"Sense HAT clone\""* ]]
}

@test "HAT+ stacking: one per address, 0x50 to 0x53; a v1 HAT at 0x50 only" {
	run ct check "$HAT/v2-minimal.eep" "$HAT/v2-overlay.txt@0x51" "$HAT/v2-power.eep@0x52" "$HAT/v2-custom.eep@0x53"
	no_sanitizer_report
	[ "$status" -eq 0 ]
	[[ "${lines[1]}" == "$HAT/v2-overlay.txt: ok: HAT+ \"Weather HAT+\" by Example Labs at 0x51, overlay example-weather.dtbo not beside it: not checked (board raspberry-pi)" ]]
	[[ "$output" == *"warning: $HAT/v2-power.eep: current_supply 5000 mA counts only for a standard HAT+ (0x50) alone on the Pi; this one is stackable"* ]]
	run ct check "$HAT/v2-overlay.txt@0x51" "$HAT/v2-minimal.eep@0x51"
	[ "$status" -eq 5 ]
	[[ "$output" == *"$HAT/v2-minimal.eep: ID EEPROM address 0x51 is held by HAT+ \"Weather HAT+\" ($HAT/v2-overlay.txt): one HAT+ per address"* ]]
	run ct check "$HAT/v1-minimal.eep@0x52"
	[ "$status" -eq 5 ]
	[[ "$output" == *"a v1 HAT's ID EEPROM answers at 0x50 only, not 0x52"* ]]
	run ct check "$HAT/v2-minimal.eep@0x57"
	[ "$status" -eq 2 ]
	[[ "$output" == *"v2-minimal.eep@0x57: a HAT's ID EEPROM answers at 0x50 (a HAT, a standard HAT+), 0x51 (a stackable HAT+), 0x52 or 0x53"* ]]
	# the power HAT+ stacked on a standard one at 0x50: its current_supply does not count
	run ct check "$HAT/v2-power.eep" "$HAT/v2-overlay.txt@0x51"
	[ "$status" -eq 0 ]
	[[ "$output" == *"current_supply 5000 mA counts only for a standard HAT+ (0x50) alone on the Pi; with HATs stacked the firmware ignores it"* ]]
}

@test "an invalid HAT image exits with decode's status; the others are still checked" {
	hat_patch "$HAT/v2-power.eep" "$BATS_TEST_TMPDIR/crc.eep" 'b[20] ^= 1; fix = False'
	run ct check "$BATS_TEST_TMPDIR/crc.eep" "$HAT/v1-minimal.txt"
	no_sanitizer_report
	[ "$status" -eq 13 ]
	[[ "$output" == *"crc.eep: bad CRC"* ]]
	[[ "$output" == *"$BATS_TEST_TMPDIR/crc.eep: invalid"* ]]
	[[ "$output" == *"v1-minimal.txt: ok: HAT \"Minimal HAT\""* ]]
}

@test "HATs and capes together, a cape on --board rpi, a HAT on a bone: usage errors" {
	run ct check "$HAT/v1-minimal.txt" "$DEFS/weather.cape"
	[ "$status" -eq 2 ]
	[[ "$output" == *"HAT settings or images and cape definitions in one check"* ]]
	run ct check --board rpi "$DEFS/weather.cape"
	[ "$status" -eq 2 ]
	[[ "$output" == *"board rpi is a Raspberry Pi header: it takes HAT settings or images"* ]]
	run ct check --board beaglebone-black "$HAT/v1-minimal.eep"
	[ "$status" -eq 2 ]
	[[ "$output" == *"board beaglebone-black is a BeagleBone cape header (family bone): HATs go on a Raspberry Pi's"* ]]
	run ct check --board raspberry-pi --variant no-hdmi "$HAT/v1-minimal.eep"
	[ "$status" -eq 2 ]
	# the rpi profile takes no cape definition anywhere
	run ct create "$DEFS/weather.cape" --board rpi -o "$BATS_TEST_TMPDIR"
	[ "$status" -eq 2 ]
	[[ "$output" == *"board raspberry-pi is a Raspberry Pi 40-pin header (family rpi)"* ]]
}

@test "--hat-version 2 reads settings as eepmake does by default: every GPIO keyword refused at its line" {
	run ct check --hat-version 2 "$HAT/v1-gpio-dt.txt" "$HAT/v2-overlay.txt"
	no_sanitizer_report
	[ "$status" -eq 3 ]
	[[ "$output" == *"v1-gpio-dt.txt:11: gpio_drive: not supported on HAT+ (a v1 HAT's GPIO map)"* ]]
	[[ "$output" == *"v1-gpio-dt.txt:14: back_power: not supported on HAT+ (a v1 HAT's GPIO map)"* ]]
	[[ "$output" == *"$HAT/v1-gpio-dt.txt: invalid"* ]]
	[[ "$output" == *"$HAT/v2-overlay.txt: ok: HAT+ \"Weather HAT+\""* ]]
	run ct check --hat-version 1 "$HAT/v1-gpio-dt.txt"
	[ "$status" -eq 0 ]
	run ct check --hat-version 3 "$HAT/v1-gpio-dt.txt"
	[ "$status" -eq 2 ]
	run ct check --hat-version 2 "$DEFS/weather.cape"
	[ "$status" -eq 2 ]
	[[ "$output" == *"--hat-version is for HAT settings files"* ]]
}
