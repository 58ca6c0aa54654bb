#!/usr/bin/env bats
# "-" is standard input or standard output wherever a command reads or
# writes one file (issue 26): never a file named "-".  create writes two
# files: --eeprom-out and --dtbo-out name each (either may be "-"), and
# -o - is a usage error.  Messages name standard input "<stdin>".

load helpers

W=$GOLDEN/BB-WTHR-01-00A2.eeprom
WD=$GOLDEN/BB-WTHR-01-00A2.qemu-vexpress.dtbo

@test "decode - reads the image from standard input" {
	cd "$BATS_TEST_TMPDIR"
	run ct decode - < "$W"
	echo "$output"
	no_sanitizer_report
	[ "$status" -eq 0 ]
	[[ "$output" == *"source:        <stdin>"* ]]
	[[ "$output" == *"part number:   BB-WTHR-01"* ]]
	run ct decode --format=cape - < "$W"
	[ "$status" -eq 0 ]
	[[ "$output" == *'part-number  = "BB-WTHR-01";'* ]]
	[ ! -e ./- ]
}

@test "check, create and pinout read a definition from standard input; errors name <stdin>:LINE" {
	cd "$BATS_TEST_TMPDIR"
	run ct check --board qemu-vexpress - < "$DEFS/weather.cape"
	echo "$output"
	[ "$status" -eq 0 ]
	[[ "$output" == *"<stdin>: ok: BB-WTHR-01-00A2 in slot 0"* ]]
	run ct create - --board qemu-vexpress -o out < "$DEFS/weather.cape"
	echo "$output"
	[ "$status" -eq 0 ]
	cmp out/BB-WTHR-01-00A2.eeprom "$W"
	cmp out/BB-WTHR-01-00A2.dtbo "$WD"
	run ct pinout --board beaglebone-black - < "$DEFS/weather.cape"
	[ "$status" -eq 0 ]
	[[ "$output" == *"A gpio0_23 m7 out 13 () () 14"* ]]
	{ cat "$DEFS/weather.cape"; echo 'bogus = 1;'; } > bad.cape
	run ct check - < bad.cape
	echo "$output"
	[ "$status" -eq 3 ]
	[[ "$output" == *"<stdin>:23: bogus: unknown key"* ]]
	[ ! -e ./- ]
}

@test "create -o - is refused; --eeprom-out and --dtbo-out name each file, - for standard output" {
	cd "$BATS_TEST_TMPDIR"
	run ct create "$DEFS/weather.cape" --board qemu-vexpress -o -
	echo "$output"
	[ "$status" -eq 2 ]
	[[ "$output" == *"--eeprom-out"* ]]
	[ ! -e ./- ]
	ct create "$DEFS/weather.cape" --board qemu-vexpress --eeprom-out - > img
	cmp img "$W"
	ct create "$DEFS/weather.cape" --board qemu-vexpress --dtbo-out - > ov
	cmp ov "$WD"
	# one to a file, the other to standard output: only the named ones
	ct create "$DEFS/weather.cape" --board qemu-vexpress --eeprom-out a.eeprom --dtbo-out - > ov2
	cmp a.eeprom "$W"
	cmp ov2 "$WD"
	[ "$(ls | sort | tr '\n' ' ')" = "a.eeprom img ov ov2 " ]
	run ct create "$DEFS/weather.cape" --eeprom-out - --dtbo-out -
	[ "$status" -eq 2 ]
	run ct create "$DEFS/weather.cape" -o dir --eeprom-out x.eeprom
	[ "$status" -eq 2 ]
	[ ! -e ./- ] && [ ! -e dir ]
}

@test "read -o -, decode -x - and resolve -o - write to standard output, not to a file named -" {
	cd "$BATS_TEST_TMPDIR"
	ct read --device "$W" -o - > dump
	cmp dump "$W"
	ct decode "$GOLDEN/BB-WTHR-01-00A2.embedded.eeprom" -x - > x.dtbo
	cmp x.dtbo "$WD"
	ct create "$DEFS/bone/bborg-relay.cape" --board beaglebone-black -o c >/dev/null
	ct resolve -b beaglebone-black -c "$DEFS/bone/bborg-relay.cape" c/BBORG_RELAY-00A2.dtbo -o r.dtbo >/dev/null
	ct resolve -b beaglebone-black -c "$DEFS/bone/bborg-relay.cape" c/BBORG_RELAY-00A2.dtbo -o - > r2.dtbo
	cmp r.dtbo r2.dtbo
	[ ! -e ./- ]
}

@test "resolve and flash read their input from standard input" {
	cd "$BATS_TEST_TMPDIR"
	ct create "$DEFS/bone/bborg-relay.cape" --board beaglebone-black -o c >/dev/null
	ct resolve -b beaglebone-black -c "$DEFS/bone/bborg-relay.cape" c/BBORG_RELAY-00A2.dtbo -o r.dtbo >/dev/null
	ct resolve -b beaglebone-black -c - c/BBORG_RELAY-00A2.dtbo -o r2.dtbo < "$DEFS/bone/bborg-relay.cape" >/dev/null
	ct resolve -b beaglebone-black -c c/BBORG_RELAY-00A2.eeprom - -o r3.dtbo < c/BBORG_RELAY-00A2.dtbo >/dev/null
	cmp r.dtbo r2.dtbo
	cmp r.dtbo r3.dtbo
	run ct resolve -b beaglebone-black -c - - -o r4.dtbo < c/BBORG_RELAY-00A2.dtbo
	[ "$status" -eq 2 ]
	head -c 4096 /dev/zero | tr '\0' '\377' > ee
	run ct flash - --device ee --no-backup < "$W"
	echo "$output"
	[ "$status" -eq 0 ]
	cmp <(head -c 244 ee) "$W"
	[ ! -e ./- ]
}

@test "pinout --svg - writes the SVG to standard output instead of the drawing" {
	cd "$BATS_TEST_TMPDIR"
	ct pinout --board beaglebone-black --svg - "$DEFS/weather.cape" > p.svg
	python3 -c 'import sys, xml.etree.ElementTree as ET; assert ET.parse(sys.argv[1]).getroot().tag.endswith("svg")' p.svg
	[ ! -e ./- ]
	run ct pinout --board beaglebone-black --json --svg - "$DEFS/weather.cape"
	[ "$status" -eq 2 ]
}

@test "a read stops at 1 MiB: a definition, image, overlay or standard input longer is refused, saying so" {
	cd "$BATS_TEST_TMPDIR"
	head -c 2M /dev/zero > big
	run ct check - < big
	no_sanitizer_report
	[ "$status" -eq 4 ]
	[[ "$output" == *"<stdin>: longer than 1 MiB, the most capetool reads of a file"* ]]
	run ct decode - < big
	[ "$status" -eq 4 ]
	[[ "$output" == *"<stdin>: longer than 1 MiB"* ]]
	ct create "$DEFS/bone/bborg-relay.cape" --board beaglebone-black -o c >/dev/null
	run ct resolve -b beaglebone-black -c c/BBORG_RELAY-00A2.eeprom big -o r.dtbo
	[ "$status" -eq 4 ]
	[[ "$output" == *"big: longer than 1 MiB"* ]]
	[ ! -e r.dtbo ]
	# an escape hatch the definition names
	sed '/^eeprom/,$!d' "$DEFS/weather.cape" > hatch.cape
	printf 'overlay = "%s";\n' "$PWD/big" >> hatch.cape
	run ct check --board qemu-vexpress hatch.cape
	[ "$status" -ne 0 ]
	[[ "$output" == *"big: longer than 1 MiB"* ]]
	# and a file with no end
	run timeout 60 "$CAPETOOL" check - < /dev/zero
	[ "$status" -eq 4 ]
	printf 'overlay = "/dev/zero";\n' >> hatch.cape
	sed -i '/big"/d' hatch.cape
	run timeout 60 "$CAPETOOL" check --board qemu-vexpress hatch.cape
	[ "$status" -ne 0 ] && [ "$status" -ne 124 ]
	[[ "$output" == *"/dev/zero: longer than 1 MiB"* ]]
}
