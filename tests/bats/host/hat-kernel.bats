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
	[[ "$output" == *"cm.txt:15: setgpio: the kernel refuses it: GPIO map bank 1 uses GPIO30, which the 40-pin header does not have"* ]]
	# the profile draws them as the board's
	run ct pinout --board rpi
	[ "${lines[4]}" = "                   . GPIO4 GPCLK0  7 () () 8  # GPIO14 TXD1 (serial console)" ]
}

@test "create and flash refuse a GPIO map on the console's GPIO14/15 or in bank 1 as check does; --force writes it, saying why" {
	local d=$BATS_TEST_TMPDIR
	{ cat "$HAT/v1-minimal.txt"; echo 'setgpio 14 ALT0 DEFAULT'; } > "$d/serial.txt"
	run ct create "$d/serial.txt" -o "$d/out"
	no_sanitizer_report
	[ "$status" -eq 3 ]
	[ "$output" = "$d/serial.txt:12: setgpio: GPIO14 (pin 8) is held by the board's serial console: TXD1 (serial console), one of the connector's console-pins, which no HAT may claim" ]
	[ ! -e "$d/out/serial.eep" ]
	run ct create "$HAT/v1-bank1.txt" -o "$d/out"
	[ "$status" -eq 3 ]
	# the kernel's own rule (rpi-header.c, linked in), at the line of the GPIO it names
	[ "$output" = "$HAT/v1-bank1.txt:15: setgpio: the kernel refuses it: GPIO map bank 1 uses GPIO28, which the 40-pin header does not have" ]
	[ ! -e "$d/out/v1-bank1.eep" ]
	# --force: written (a compute module carrier's map), each rule a warning
	run ct create "$d/serial.txt" --force -o "$d/out"
	[ "$status" -eq 0 ]
	[[ "$output" == *"warning: $d/serial.txt:12: setgpio: GPIO14 (pin 8) is held by the board's serial console"* ]]
	[[ "$output" == *"warning: $d/serial.txt: --force: the kernel's connector on board raspberry-pi refuses it, going on"* ]]
	[ -s "$d/out/serial.eep" ]
	# flash: nothing written, the device as it was
	head -c 256 /dev/zero > "$d/eeprom.bin"
	cp "$d/eeprom.bin" "$d/eeprom.orig"
	run ct flash "$d/out/serial.eep" --device "$d/eeprom.bin" --no-backup
	[ "$status" -eq 3 ]
	[[ "$output" == *"serial.eep: GPIO14 (pin 8) is held by the board's serial console: TXD1 (serial console)"* ]]
	[[ "$output" == *"serial.eep: refusing to flash it"* ]]
	cmp "$d/eeprom.bin" "$d/eeprom.orig"
	run ct flash "$HAT/v1-bank1.eep" --device "$d/eeprom.bin" --no-backup
	[ "$status" -eq 3 ]
	[[ "$output" == *"v1-bank1.eep: the kernel refuses it: GPIO map bank 1 uses GPIO28, which the 40-pin header does not have"* ]]
	cmp "$d/eeprom.bin" "$d/eeprom.orig"
	run ct flash "$HAT/v1-bank1.eep" --device "$d/eeprom.bin" --no-backup --force
	[ "$status" -eq 0 ]
	[[ "$output" == *"warning: $HAT/v1-bank1.eep: the kernel refuses it: GPIO map bank 1 uses GPIO28"* ]]
	cmp -n 150 "$d/eeprom.bin" "$HAT/v1-bank1.eep"
}

@test "decode prints an image the kernel refuses whole, then says why and exits as check does" {
	local d=$BATS_TEST_TMPDIR f
	hat_build "$d/a.eep" "atoms = [(6, bytes(4)), (1, vendor())]"
	hat_build "$d/b.eep" "atoms = [(1, vendor()), (3, b'a' * 251)]"
	hat_build "$d/c.eep" "atoms = [(1, vendor()), (3, b'hats/leds')]"
	hat_build "$d/dot.eep" "atoms = [(1, vendor()), (3, b'my-hat.')]"
	hat_build "$d/serial.eep" "v = 1; atoms = [(1, vendor()), (2, gpio_map({15: 0x84}))]"
	hat_build "$d/junk.eep" "v = 1; atoms = [(1, vendor()), (2, gpio_map({})), (3, bytes([0, 1, 2, 3]))]"
	for f in a b c dot serial junk; do
		run ct check "$d/$f.eep"
		local want=$status
		run ct decode "$d/$f.eep"
		no_sanitizer_report
		[ "$status" -eq "$want" ] || { echo "$f: decode $status, check $want: $output"; false; }
		[[ "${lines[0]}" == "source:        $d/$f.eep" ]]
		[[ "$output" == *"atoms:"* ]]
	done
	run ct decode "$d/a.eep"
	[ "$status" -eq 14 ]
	[ "${lines[-1]}" = "capetool: $d/a.eep: the kernel refuses it: atom 0 (power supply, type 0x0006) is not the vendor atom" ]
	run ct decode "$d/b.eep"
	[ "$status" -eq 12 ]
	[[ "${lines[-1]}" == *"the kernel refuses it: device tree atom at offset 56: overlay name of 251 bytes, longer than 250" ]]
	run ct decode "$d/c.eep"
	[ "$status" -eq 12 ]
	[[ "${lines[-1]}" == *"the kernel refuses it: overlay name: '/' at offset 68 (it names a firmware file)" ]]
	run ct decode "$d/dot.eep"
	[ "$status" -eq 12 ]
	[[ "${lines[-1]}" == *'makes the file my-hat..dtbo, which the capebus core refuses (".." in a firmware file name)' ]]
	run ct decode --json "$d/serial.eep"
	[ "$status" -eq 3 ]
	[ "${lines[-1]}" = "capetool: $d/serial.eep: GPIO15 (pin 10) is held by the board's serial console: RXD1 (serial console), one of the connector's console-pins, which no HAT may claim" ]
	python3 -c 'import json, sys; json.loads(sys.argv[1])' "${lines[0]}"
	run ct decode "$d/junk.eep"
	[ "$status" -eq 3 ]
	[[ "${lines[-1]}" == "capetool: $d/junk.eep: its overlay (its device tree atom): the kernel refuses it: overlay is not a flattened device tree" ]]
	# -x still extracts what is there, to look at
	run ct decode -x "$d/junk.dtbo" "$d/junk.eep"
	[ "$status" -eq 3 ]
	[ "$(od -An -tx1 "$d/junk.dtbo" | tr -d ' ')" = 00010203 ]
	# what the kernel takes decodes with exit 0
	run ct decode "$HAT/v1-gpio-dt.eep"
	[ "$status" -eq 0 ]
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

# irq_hat NAME: a HAT+ in $BATS_TEST_TMPDIR/h naming the guest suite's
# fixtures/hat/NAME.dtso, the overlay the kernel refuses there (hat.bats).
irq_hat() {
	local d=$BATS_TEST_TMPDIR/h
	hat_plus "$d" "$1"
	cp "$TOP/tests/bats/guest/fixtures/hat/$1.dtso" "$d/$1.dtso"
}

# irq_refused NAME WHY: create and check refuse HAT+ NAME's overlay in the
# kernel's words WHY (capebus_verify_nexus_pin()), create writing nothing.
irq_refused() {
	local d=$BATS_TEST_TMPDIR/h
	run ct create "$d/$1.txt" -o "$d/out"
	echo "$output"
	no_sanitizer_report
	[ "$status" -eq 3 ]
	[[ "$output" == *"$1.txt:6: dt_blob: its overlay ($d/$1.dtso): $2"* ]]
	[ ! -e "$d/out/$1.eep" ]
	run ct check "$d/$1.txt"
	echo "$output"
	[ "$status" -eq 3 ]
	[[ "$output" == *"$1.txt: invalid: its overlay ($d/$1.dtso): $2"* ]]
}

@test "a HAT+ interrupt through hat_irq on GPIO3, I2C1's shared pin, is refused as the kernel refuses it (red team 14 F4)" {
	irq_hat hat-irq-gpio3
	irq_refused hat-irq-gpio3 "references: property interrupts-extended of node key-0 uses header pin GPIO3 as a GPIO, which every cape shares (a bus's pin)"
}

@test "a HAT+ interrupt through hat_irq on GPIO14, which it does not declare, is refused as the kernel refuses it (red team 14 F4)" {
	irq_hat hat-irq-gpio14
	irq_refused hat-irq-gpio14 "references: property interrupts-extended of node key-0 uses header pin GPIO14, which the cape does not declare"
}

@test "a HAT+ interrupt on GPIO23 whose parent hat_irq is its parent node's is refused undeclared as the kernel refuses it; declared, it counts among the HAT's GPIOs (red team 14 F4)" {
	local d=$BATS_TEST_TMPDIR/h
	irq_hat hat-irq-inherited
	irq_refused hat-irq-inherited "references: property interrupts of node key-0 uses header pin GPIO23, which the cape does not declare"
	# declared, the kernel's walk takes it: GPIO22 and GPIO23 are the HAT's
	sed -i 's/exclusive-use = "GPIO22";/exclusive-use = "GPIO22", "GPIO23";/' "$d/hat-irq-inherited.dtso"
	run ct check "$d/hat-irq-inherited.txt"
	echo "$output"
	[ "$status" -eq 0 ]
	[[ "$output" == *"overlay $d/hat-irq-inherited.dtso: 2 GPIOs (board raspberry-pi)" ]]
	run ct create "$d/hat-irq-inherited.txt" -o "$d/out"
	[ "$status" -eq 0 ]
	[ -s "$d/out/hat-irq-inherited.eep" ]
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
	# no dtc to compile a HAT+'s overlay source with: said, and what to do
	hat_plus "$BATS_TEST_TMPDIR/h" leds-overlay
	cp "$BATS_TEST_TMPDIR/leds-overlay.dts" "$BATS_TEST_TMPDIR/h/"
	CAPETOOL_DTC=/nonexistent/dtc run ct check "$BATS_TEST_TMPDIR/h/leds-overlay.txt"
	[ "$status" -eq 1 ]
	[[ "$output" == *"leds-overlay.dts: a device tree source: compiling it needs dtc, and /nonexistent/dtc cannot be run (No such file or directory): install it (Debian: apt-get install device-tree-compiler)"* ]]
}

@test "--dt-blob takes an overlay source: compiled as import-rpi compiles one (cpp for #include), no -@, then checked" {
	local d=$BATS_TEST_TMPDIR
	# a label (a __symbols__ node with dtc -@, which the kernel refuses) and an #include
	printf '#define LED_GPIO 17\n' > "$d/pins.h"
	printf '%s\n' '/dts-v1/;' '/plugin/;' '#include "pins.h"' '/ {' '	exclusive-use = "GPIO17";' \
		'	fragment@0 {' '		target = <&hat_devices>;' '		__overlay__ {' \
		'			#address-cells = <1>;' '			#size-cells = <0>;' \
		'			led: leds { compatible = "gpio-leds"; led-0 { gpios = <&hat_gpio LED_GPIO 0>; }; };' \
		'		};' '	};' '};' > "$d/led-overlay.dts"
	run ct create "$HAT/v1-minimal.txt" --dt-blob "$d/led-overlay.dts" -o "$d/out"
	no_sanitizer_report
	[ "$status" -eq 0 ]
	[[ "$output" == *"v1-minimal.eep ("*"HAT v1, 3 atoms)"* ]]
	run ct check "$d/out/v1-minimal.eep"
	[ "$status" -eq 0 ]
	[[ "$output" == *"overlay its device tree atom: 1 GPIO (board raspberry-pi)" ]]
	# the atom is the overlay dtc makes of the preprocessed source, without -@
	ct decode -x "$d/atom.dtbo" "$d/out/v1-minimal.eep"
	cpp -nostdinc -undef -D__DTS__ -x assembler-with-cpp -I "$d" "$d/led-overlay.dts" |
		dtc -q -I dts -O dtb -o "$d/want.dtbo" -
	cmp "$d/atom.dtbo" "$d/want.dtbo"
	# a HAT+ naming it: the source beside it, compiled the same way
	hat_plus "$d/h" led-overlay
	cp "$d/pins.h" "$d/led-overlay.dts" "$d/h/"
	run ct check "$d/h/led-overlay.txt"
	[ "$status" -eq 0 ]
	[[ "$output" == *"overlay $d/h/led-overlay.dts: 1 GPIO (board raspberry-pi)" ]]
	# dtc refuses a broken source: its messages, then which file
	printf '/dts-v1/;\n/ { x = <1>\n' > "$d/broken.dts"
	run ct create "$HAT/v1-minimal.txt" --dt-blob "$d/broken.dts" -o "$d/out2"
	[ "$status" -eq 3 ]
	[[ "$output" == *"$d/broken.dts: dtc refuses it (its messages above)"* ]]
	[[ "$output" != *"syntax error in"* ]]
	[ ! -e "$d/out2/v1-minimal.eep" ]
	# one of Raspberry Pi's own overlays: compiled, refused, pointing at import-rpi
	run ct create "$HAT/v1-minimal.txt" --dt-blob "$FIX/rpi-overlays/w1-gpio-overlay.dts" -o "$d/out2"
	[ "$status" -eq 3 ]
	[[ "$output" == *"v1-minimal.txt: its overlay (its device tree atom): the kernel refuses it: "*"(a Raspberry Pi overlay, with __overrides__: capetool import-rpi turns it into one for the connector)"* ]]
	# and what import-rpi makes of it goes in
	ct import-rpi "$FIX/rpi-overlays/w1-gpio-overlay.dts" -o "$d/w1.dts"
	run ct create "$HAT/v1-minimal.txt" --dt-blob "$d/w1.dts" -o "$d/out3"
	[ "$status" -eq 0 ]
	run ct check "$d/out3/v1-minimal.eep"
	[ "$status" -eq 0 ]
}
