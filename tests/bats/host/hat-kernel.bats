#!/usr/bin/env bats
# A HAT as the kernel takes it: capetool runs the kernel's own parsers
# (rpi/rpi-eeprom.c on an image, capebus-fdt.c's resolver on an overlay,
# linked in through the fuzzers' userspace shim) and the series' Pi
# connector's rules (bcm2711-rpi-hat-capebus.dtsi: board-pins, console-pins, shared-pins,
# targets, target-pins, platform compatibles, as the rpi profile states
# them).  What the kernel refuses, check, create, flash, decode and pinout
# refuse, in its words; a HAT+'s overlay is found beside its settings or
# image (NAME.dtbo, or a source NAME.dtso/NAME.dts compiled with dtc), a
# v1 HAT's is its device tree atom.

load helpers

HAT=$FIX/hat
UUID=product_uuid\ 5f0c2a1e-9d3b-4c7a-8e61-2b4d6f8a0c13

# hat_plus DIR NAME [OVERLAY]: DIR/NAME.txt, a HAT+ naming overlay NAME
# (or OVERLAY), product "NAME HAT+".
hat_plus() {
	mkdir -p "$1"
	printf '%s\nproduct_id 0x0a01\nproduct_ver 0x0003\nvendor "Example Labs"\nproduct "%s HAT+"\ndt_blob "%s"\n' \
		"$UUID" "$2" "${3:-$2}" > "$1/$2.txt"
}

# overlay FILE FRAGMENT-BODY [ROOT-PROPS]: a HAT+ overlay source with one fragment.
overlay() {
	printf '/dts-v1/;\n/plugin/;\n/ {\n%s\n\tfragment@0 {\n%s\n\t};\n};\n' "${3:-}" "$2" > "$1"
}

# hat_build OUT PYTHON: OUT is a HAT image of the atoms PYTHON lists in
# `atoms` as (type, bytes), each with its count and CRC; version v (2);
# vendor(): a vendor atom's data.
hat_build() {
	python3 - "$1" "$2" <<'PY'
import struct, sys
def crc16(d):
    c = 0
    for x in d:
        c ^= x
        for _ in range(8):
            c = (c >> 1) ^ 0xA001 if c & 1 else c >> 1
    return c
def vendor(product=b'Test HAT'):
    return struct.pack('<IIIIHHBB', 1, 2, 3, 4, 1, 1, 4, len(product)) + b'Labs' + product
def gpio_map(pins, n=28):
    b = bytearray(2 + n)
    for g, v in pins.items():
        b[2 + g] = v
    return bytes(b)
v, atoms = 2, []
exec(sys.argv[2])
body = b''
for i, (t, d) in enumerate(atoms):
    h = struct.pack('<HHI', t, i, len(d) + 2) + d
    body += h + struct.pack('<H', crc16(h))
open(sys.argv[1], 'wb').write(b'R-Pi' + struct.pack('<BBHI', v, 0, len(atoms), 12 + len(body)) + body)
PY
}

@test "a v1 HAT's junk device tree atom: create, check and flash refuse it in the kernel's words" {
	{ cat "$HAT/v1-minimal.txt"; printf 'dt_blob\n00 01 02 03\n'; } > "$BATS_TEST_TMPDIR/junk.txt"
	run ct create "$BATS_TEST_TMPDIR/junk.txt" -o "$BATS_TEST_TMPDIR/out"
	no_sanitizer_report
	[ "$status" -eq 3 ]
	[[ "$output" == *"junk.txt:12: dt_blob: its overlay (its device tree atom): the kernel refuses it: overlay is not a flattened device tree"* ]]
	[ ! -e "$BATS_TEST_TMPDIR/out/junk.eep" ]
	run ct check "$BATS_TEST_TMPDIR/junk.txt"
	[ "$status" -eq 3 ]
	[[ "$output" == *"junk.txt: invalid: its overlay (its device tree atom): the kernel refuses it: "* ]]
	# the image eepmake would write: check and flash refuse it too
	hat_build "$BATS_TEST_TMPDIR/junk.eep" "v = 1; atoms = [(1, vendor()), (2, gpio_map({})), (3, bytes([0, 1, 2, 3]))]"
	run ct check "$BATS_TEST_TMPDIR/junk.eep"
	[ "$status" -eq 3 ]
	[[ "$output" == *"junk.eep: invalid: its overlay (its device tree atom): the kernel refuses it: "* ]]
	run ct flash "$BATS_TEST_TMPDIR/junk.eep" --device "$BATS_TEST_TMPDIR/eeprom.bin"
	[ "$status" -eq 3 ]
	[[ "$output" == *"junk.eep: refusing to flash it"* ]]
	[ ! -e "$BATS_TEST_TMPDIR/eeprom.bin" ]
	# a real overlay in the atom goes through
	run ct check "$HAT/v1-gpio-dt.eep"
	[ "$status" -eq 0 ]
	[[ "$output" == *"overlay its device tree atom: 0 GPIOs (board raspberry-pi)" ]]
}

@test "a HAT+'s overlay is found beside it, a source compiled with dtc, and checked by the kernel's resolver" {
	local d=$BATS_TEST_TMPDIR/h
	hat_plus "$d" leds
	overlay "$d/leds.dtso" $'\t\ttarget = <&hat_devices>;\n\t\t__overlay__ {\n\t\t\t#address-cells = <1>;\n\t\t\t#size-cells = <0>;\n\t\t\tleds { compatible = "gpio-leds"; led-0 { gpios = <&hat_gpio 17 0>; }; };\n\t\t};' \
		$'\texclusive-use = "GPIO17";'
	run ct check "$d/leds.txt"
	no_sanitizer_report
	[ "$status" -eq 0 ]
	[ "$output" = "$d/leds.txt: ok: HAT+ \"leds HAT+\" by Example Labs at 0x50, overlay $d/leds.dtso: 1 GPIO (board raspberry-pi)" ]
	# the compiled one first, as the firmware directory holds it
	dtc -q -@ -I dts -O dtb -o "$d/leds.dtbo" "$d/leds.dtso"
	run ct check "$d/leds.txt"
	[ "$status" -eq 0 ]
	[[ "$output" == *"overlay $d/leds.dtbo: 1 GPIO"* ]]
	# junk where the overlay should be: create, check and flash refuse
	echo junk > "$d/leds.dtbo"
	run ct create "$d/leds.txt" -o "$d/out"
	[ "$status" -eq 3 ]
	[[ "$output" == *"leds.txt:6: dt_blob: its overlay ($d/leds.dtbo): the kernel refuses it: overlay is not a flattened device tree"* ]]
	rm "$d/leds.dtbo"
	ct create "$d/leds.txt" -o "$d"
	echo junk > "$d/leds.dtbo"
	run ct check "$d/leds.eep"
	[ "$status" -eq 3 ]
	run ct flash "$d/leds.eep" --device "$d/eeprom.bin"
	[ "$status" -eq 3 ]
	[ ! -e "$d/eeprom.bin" ]
	# none beside it: said, not checked
	run ct check "$HAT/v2-overlay.txt"
	[ "$status" -eq 0 ]
	[ "$output" = "$HAT/v2-overlay.txt: ok: HAT+ \"Weather HAT+\" by Example Labs at 0x50, overlay example-weather.dtbo not beside it: not checked (board raspberry-pi)" ]
	run ct create "$HAT/v2-overlay.txt" -o "$d/out"
	[ "$status" -eq 0 ]
	[[ "$output" == *"warning: $HAT/v2-overlay.txt: its overlay example-weather.dtbo is not beside it (nor a .dtso or .dts source): not checked"* ]]
}

@test "an overlay the connector refuses: an unexported target, a property of the target, an unlisted platform device, a board pin" {
	local d=$BATS_TEST_TMPDIR/h
	hat_plus "$d" bad
	overlay "$d/bad.dtso" $'\t\ttarget = <&gpio>;\n\t\t__overlay__ { x { }; };'
	run ct check "$d/bad.txt"
	no_sanitizer_report
	[ "$status" -eq 3 ]
	[[ "$output" == *"bad.txt:6: dt_blob: its overlay ($d/bad.dtso): the kernel refuses it: overlay refers to &gpio, which the connector does not export"* ]]
	overlay "$d/bad.dtso" $'\t\ttarget = <&i2s>;\n\t\t__overlay__ { status = "okay"; #sound-dai-cells = <0>; };'
	run ct check "$d/bad.txt"
	[ "$status" -eq 3 ]
	[[ "$output" == *"which the connector does not let HATs set (target-properties)"* ]]
	overlay "$d/bad.dtso" $'\t\ttarget = <&spi0>;\n\t\t__overlay__ { spi-max-frequency = <1000>; };'
	run ct check "$d/bad.txt"
	[ "$status" -eq 3 ]
	[[ "$output" == *"add only: fragment fragment@0 sets property spi-max-frequency of spi"* ]]
	overlay "$d/bad.dtso" $'\t\ttarget = <&hat_devices>;\n\t\t__overlay__ { motor { compatible = "pwm-vibrator"; }; };'
	run ct check "$d/bad.txt"
	[ "$status" -eq 3 ]
	[[ "$output" == *"motor: a platform device of compatible pwm-vibrator, which the connector does not list"* ]]
	overlay "$d/bad.dtso" $'\t\ttarget = <&uart3>;\n\t\t__overlay__ { status = "okay"; };' $'\texclusive-use = "GPIO15";'
	run ct check "$d/bad.txt"
	[ "$status" -eq 3 ]
	[[ "$output" == *"pin GPIO15 is held by the board's serial console: RXD1 (serial console), one of the connector's console-pins, which no HAT may claim"* ]]
	overlay "$d/bad.dtso" $'\t\ttarget = <&uart3>;\n\t\t__overlay__ { status = "okay"; };' $'\texclusive-use = "GPIO1";'
	run ct check "$d/bad.txt"
	[ "$status" -eq 3 ]
	[[ "$output" == *"pin GPIO1 is held by the board: ID_SC (HAT EEPROM), one of the connector's board-pins, which no HAT may claim"* ]]
	overlay "$d/bad.dtso" $'\t\ttarget = <&uart3>;\n\t\t__overlay__ { status = "okay"; };' $'\texclusive-use = "GPIO28";'
	run ct check "$d/bad.txt"
	[ "$status" -eq 3 ]
	[[ "$output" == *'exclusive-use names "GPIO28", which is not a header pin'* ]]
}

@test "check refuses the images the kernel's parser refuses: atom 0 not the vendor atom, an overlay name over 250 bytes or with '/'" {
	hat_build "$BATS_TEST_TMPDIR/a.eep" "atoms = [(6, bytes(4)), (1, vendor())]"
	run ct check "$BATS_TEST_TMPDIR/a.eep"
	no_sanitizer_report
	[ "$status" -eq 14 ]
	[[ "$output" == *"a.eep: the kernel refuses it: atom 0 (power supply, type 0x0006) is not the vendor atom"* ]]
	run ct flash "$BATS_TEST_TMPDIR/a.eep" --device "$BATS_TEST_TMPDIR/eeprom.bin"
	[ "$status" -eq 14 ]
	[ ! -e "$BATS_TEST_TMPDIR/eeprom.bin" ]
	hat_build "$BATS_TEST_TMPDIR/b.eep" "atoms = [(1, vendor()), (3, b'a' * 251)]"
	run ct check "$BATS_TEST_TMPDIR/b.eep"
	[ "$status" -eq 12 ]
	[[ "$output" == *"the kernel refuses it: device tree atom at offset 56: overlay name of 251 bytes, longer than 250"* ]]
	hat_build "$BATS_TEST_TMPDIR/c.eep" "atoms = [(1, vendor()), (3, b'hats/leds')]"
	run ct check "$BATS_TEST_TMPDIR/c.eep"
	[ "$status" -eq 12 ]
	[[ "$output" == *"the kernel refuses it: overlay name: '/' at offset 68 (it names a firmware file)"* ]]
	# the settings that would make them, at their line
	hat_plus "$BATS_TEST_TMPDIR" long "$(printf 'a%.0s' {1..251})"
	run ct check "$BATS_TEST_TMPDIR/long.txt"
	[ "$status" -eq 3 ]
	[[ "$output" == *"long.txt:6: dt_blob: an overlay name of 251 bytes: the kernel takes at most 250"* ]]
	hat_plus "$BATS_TEST_TMPDIR" slash hats/leds
	run ct create "$BATS_TEST_TMPDIR/slash.txt" -o "$BATS_TEST_TMPDIR"
	[ "$status" -eq 3 ]
	[[ "$output" == *"slash.txt:6: dt_blob: '/' in the overlay name: it names a file of the firmware directory, not a path (the kernel refuses it)"* ]]
}

@test "a HAT+ overlay name ending in '.' (NAME..dtbo, which the capebus core refuses) is refused" {
	hat_plus "$BATS_TEST_TMPDIR" dot "my-hat."
	run ct create "$BATS_TEST_TMPDIR/dot.txt" -o "$BATS_TEST_TMPDIR/out"
	no_sanitizer_report
	[ "$status" -eq 3 ]
	[[ "$output" == *'dot.txt:6: dt_blob: overlay name "my-hat." makes the file my-hat..dtbo, which the capebus core refuses (".." in a firmware file name)'* ]]
	hat_build "$BATS_TEST_TMPDIR/dot.eep" "atoms = [(1, vendor()), (3, b'my-hat.')]"
	run ct check "$BATS_TEST_TMPDIR/dot.eep"
	[ "$status" -eq 12 ]
	[[ "$output" == *'makes the file my-hat..dtbo, which the capebus core refuses'* ]]
}

@test "GPIO14/15 are the board's serial console's (the connector's console-pins); bank 1 is not on the header" {
	{ cat "$HAT/v1-minimal.txt"; echo 'setgpio 14 ALT0 DEFAULT'; } > "$BATS_TEST_TMPDIR/serial.txt"
	run ct check "$BATS_TEST_TMPDIR/serial.txt"
	no_sanitizer_report
	[ "$status" -eq 3 ]
	[[ "$output" == *"serial.txt:12: setgpio: GPIO14 (pin 8) is held by the board's serial console: TXD1 (serial console), one of the connector's console-pins, which no HAT may claim"* ]]
	hat_build "$BATS_TEST_TMPDIR/serial.eep" "v = 1; atoms = [(1, vendor()), (2, gpio_map({15: 0x84}))]"
	run ct check "$BATS_TEST_TMPDIR/serial.eep"
	[ "$status" -eq 3 ]
	[[ "$output" == *"GPIO15 (pin 10) is held by the board's serial console: RXD1 (serial console)"* ]]
	# the kernel's words for a GPIO of bank 1 (rpi_info_from_eeprom())
	{ cat "$HAT/v1-minimal.txt"; printf 'bank1_gpio_drive 0\nbank1_gpio_slew 0\nbank1_gpio_hysteresis 0\nsetgpio 30 INPUT DEFAULT\n'; } \
		> "$BATS_TEST_TMPDIR/cm.txt"
	run ct check "$BATS_TEST_TMPDIR/cm.txt"
	[ "$status" -eq 3 ]
	[[ "$output" == *"cm.txt:15: setgpio: GPIO map bank 1 uses GPIO30, which the 40-pin header does not have"* ]]
	# the profile draws them as the board's
	run ct pinout --board rpi
	[ "${lines[4]}" = "                   . GPIO4 GPCLK0  7 () () 8  # GPIO14 TXD1 (serial console)" ]
}

@test "a HAT+ taking GPIO25's interrupt through hat_irq passes; one on GPIO14 (TXD) is refused naming the board's serial console" {
	local d=$BATS_TEST_TMPDIR/h
	hat_plus "$d" can
	overlay "$d/can.dtso" $'\t\ttarget = <&hat_devices>;\n\t\t__overlay__ {\n\t\t\t#address-cells = <1>;\n\t\t\t#size-cells = <0>;\n\t\t\tkeys { compatible = "gpio-keys"; key-0 { linux,code = <0x100>; interrupt-parent = <&hat_irq>; interrupts = <25 8>; }; };\n\t\t};' \
		$'\texclusive-use = "GPIO25";'
	run ct check "$d/can.txt"
	no_sanitizer_report
	[ "$status" -eq 0 ]
	[[ "$output" == *"overlay $d/can.dtso: 1 GPIO (board raspberry-pi)" ]]
	hat_plus "$d" gps
	overlay "$d/gps.dtso" $'\t\ttarget = <&hat_devices>;\n\t\t__overlay__ {\n\t\t\t#address-cells = <1>;\n\t\t\t#size-cells = <0>;\n\t\t\tpps { compatible = "pps-gpio"; gpios = <&hat_gpio 14 0>; };\n\t\t};' \
		$'\texclusive-use = "GPIO14";'
	run ct check "$d/gps.txt"
	[ "$status" -eq 3 ]
	[[ "$output" == *"pin GPIO14 is held by the board's serial console: TXD1 (serial console), one of the connector's console-pins, which no HAT may claim"* ]]
}

@test "two HAT+s whose overlays hold GPIO18 conflict, and pinout shows their overlays' GPIOs; a unit both enable is shared" {
	local d=$BATS_TEST_TMPDIR/h
	hat_plus "$d" led18
	overlay "$d/led18.dtso" $'\t\ttarget = <&hat_devices>;\n\t\t__overlay__ {\n\t\t\t#address-cells = <1>;\n\t\t\t#size-cells = <0>;\n\t\t\tleds { compatible = "gpio-leds"; led-0 { gpios = <&hat_gpio 18 0>; }; };\n\t\t};' \
		$'\texclusive-use = "GPIO18";'
	hat_plus "$d" audio
	overlay "$d/audio.dtso" $'\t\ttarget = <&i2s>;\n\t\t__overlay__ { status = "okay"; };'
	run ct check "$d/led18.txt" "$d/audio.txt@0x51"
	no_sanitizer_report
	[ "$status" -eq 5 ]
	[[ "$output" == *"audio.txt: GPIO18 (pin 12) is held by HAT+ \"led18 HAT+\" ($d/led18.txt), its overlay's exclusive-use"* ]]
	run ct pinout "$d/led18.txt" "$d/audio.txt@0x51"
	[ "$status" -eq 5 ]
	[[ "$output" == *"12 ! A+B CONFLICT GPIO18"* ]]
	[[ "$output" == *"B GPIO19 i2s 35 () ()"* ]]
	[[ "$output" == *'A HAT+ "led18 HAT+" by Example Labs (led18.txt) at 0x50, 1 GPIO'* ]]
	[[ "$output" == *'B HAT+ "audio HAT+" by Example Labs (audio.txt) at 0x51, 4 GPIOs'* ]]
	[[ "$output" == *'pin 12 GPIO18 is claimed by A "led18 HAT+" (its overlay'"'"'s exclusive-use) and'* ]]
	# I2S enabled by two HAT+s: its pins are shared by them
	cp "$d/audio.txt" "$d/audio2.txt"
	run ct check "$d/audio.txt" "$d/audio2.txt@0x51"
	[ "$status" -eq 0 ]
	[[ "$output" == *"audio2.txt: ok: HAT+ \"audio HAT+\" by Example Labs at 0x51, overlay $d/audio.dtso: 4 GPIOs"* ]]
}

@test "read of a HAT+ EEPROM dump names the HAT, not a cape's bad magic" {
	python3 -c 'import sys; b = open(sys.argv[1], "rb").read(); open(sys.argv[2], "wb").write(b + b"\xff" * (4096 - len(b)))' \
		"$HAT/v2-overlay.eep" "$BATS_TEST_TMPDIR/dump.bin"
	run ct read --device "$BATS_TEST_TMPDIR/dump.bin" -o "$BATS_TEST_TMPDIR/r.bin"
	no_sanitizer_report
	[ "$status" -eq 0 ]
	[ "$output" = "read 4096 bytes of $BATS_TEST_TMPDIR/dump.bin to $BATS_TEST_TMPDIR/r.bin (HAT+ \"Weather HAT+\" by Example Labs, 93 bytes)" ]
	cmp "$BATS_TEST_TMPDIR/dump.bin" "$BATS_TEST_TMPDIR/r.bin"
}

@test "a device tree source given as a definition or settings says what to do, not libconfig's syntax error" {
	cp "$TOP/cape-defs/hats/capebus-hat-leds.dtso" "$BATS_TEST_TMPDIR/leds-overlay.dts"
	for cmd in check create; do
		run ct $cmd "$BATS_TEST_TMPDIR/leds-overlay.dts"
		no_sanitizer_report
		[ "$status" -eq 3 ]
		[[ "$output" != *"syntax error"* ]]
		[[ "$output" == *"leds-overlay.dts: a device tree source (an overlay?), not a cape definition or HAT settings: a HAT+'s settings name its overlay (dt_blob \"NAME\"), and create and check find NAME.dtbo, NAME.dtso or NAME.dts beside them"* ]]
	done
	run ct create "$HAT/v1-minimal.txt" --dt-blob "$BATS_TEST_TMPDIR/leds-overlay.dts" -o "$BATS_TEST_TMPDIR"
	[ "$status" -eq 3 ]
	[[ "$output" == *"leds-overlay.dts: a device tree source: --dt-blob embeds the compiled overlay (dtc -@ -I dts -O dtb -o NAME.dtbo"* ]]
	# no dtc to compile a HAT+'s overlay source with: said, and what to do
	hat_plus "$BATS_TEST_TMPDIR/h" leds-overlay
	cp "$BATS_TEST_TMPDIR/leds-overlay.dts" "$BATS_TEST_TMPDIR/h/"
	CAPETOOL_DTC=/nonexistent/dtc run ct check "$BATS_TEST_TMPDIR/h/leds-overlay.txt"
	[ "$status" -eq 1 ]
	[[ "$output" == *"leds-overlay.dts: a device tree source: compiling it needs dtc, and /nonexistent/dtc cannot be run (No such file or directory): install it (Debian: apt-get install device-tree-compiler)"* ]]
}
