#!/usr/bin/env bats
# Errors: one exit code per failure class whatever the command, every bad
# value with the allowed ones, no doubled messages; decode trusts no
# embedded overlay it has not checked; JSON is valid UTF-8; a decoded
# definition survives any file name.

load helpers

HEAD='eeprom = { board-name = "X"; version = "00A0"; manufacturer = "M"; part-number = "P"; };'

@test "a missing escape-hatch file is an I/O error (4), .dtso or .dtbo alike" {
	for ext in dtso dtbo; do
		printf '%s\noverlay = "missing.%s";\n' "$HEAD" "$ext" > "$BATS_TEST_TMPDIR/m.cape"
		run ct create "$BATS_TEST_TMPDIR/m.cape" -o "$BATS_TEST_TMPDIR"
		no_sanitizer_report
		[ "$status" -eq 4 ] || { echo "$ext: $status $output"; false; }
		[[ "$output" == *"missing.$ext: No such file or directory"* ]]
	done
}

@test "an escape-hatch source dtc rejects is an invalid input (3)" {
	echo 'not a device tree' > "$BATS_TEST_TMPDIR/bad.dtso"
	printf '%s\noverlay = "bad.dtso";\n' "$HEAD" > "$BATS_TEST_TMPDIR/b.cape"
	run ct create "$BATS_TEST_TMPDIR/b.cape" -o "$BATS_TEST_TMPDIR"
	[ "$status" -eq 3 ]
}

@test "a board profile file: syntax error and invalid content exit 3, missing exits 4" {
	printf 'name = "x";\nthis is not libconfig\n' > "$BATS_TEST_TMPDIR/syntax.board"
	run ct check "$DEFS/weather.cape" --board "$BATS_TEST_TMPDIR/syntax.board"
	no_sanitizer_report
	[ "$status" -eq 3 ]
	[[ "$output" == *"syntax.board:2: syntax error"* ]]
	[[ "$output" != *"syntax error: syntax error"* ]]
	printf 'name = "x";\n' > "$BATS_TEST_TMPDIR/invalid.board"
	run ct check "$DEFS/weather.cape" --board "$BATS_TEST_TMPDIR/invalid.board"
	[ "$status" -eq 3 ]
	[[ "$output" == *"invalid.board:"*"required key missing"* ]]
	run ct check "$DEFS/weather.cape" --board "$BATS_TEST_TMPDIR/none.board"
	[ "$status" -eq 4 ]
	[[ "$output" == *"none.board: cannot read board profile"* ]]
}

@test "a definition syntax error is reported once, not as 'syntax error: syntax error'" {
	printf 'eeprom = { board-name = "X";\n  this is wrong\n};\n' > "$BATS_TEST_TMPDIR/s.cape"
	run ct check "$BATS_TEST_TMPDIR/s.cape"
	[ "$status" -eq 3 ]
	[[ "$output" == *"s.cape:2: syntax error"* ]]
	[[ "$output" != *"syntax error: syntax error"* ]]
	# a libconfig message that says more keeps it
	printf '%s\ndevices = ( { type = "i2c"; properties = { a = [1, "x"]; }; } );\n' "$HEAD" > "$BATS_TEST_TMPDIR/m.cape"
	run ct check "$BATS_TEST_TMPDIR/m.cape"
	[ "$status" -eq 3 ]
	[[ "$output" == *"m.cape:2: syntax error: mismatched element type in array"* ]]
}

@test "a bad value lists the allowed ones" {
	printf 'eeprom = { format = "A2"; board-name = "X"; version = "00A0"; manufacturer = "M"; part-number = "P"; };\n' \
		> "$BATS_TEST_TMPDIR/f.cape"
	run ct check "$BATS_TEST_TMPDIR/f.cape"
	[ "$status" -eq 3 ]
	[[ "$output" == *"f.cape:1: eeprom.format: bad value \"A2\" (allowed: A1, A0)"* ]]
	printf '%s\ndevices = ( { type = "pru"; } );\n' "$HEAD" > "$BATS_TEST_TMPDIR/t.cape"
	run ct check "$BATS_TEST_TMPDIR/t.cape"
	[ "$status" -eq 3 ]
	[[ "$output" == *"bad value \"pru\" (allowed: i2c, spi, led, key, w1, uart, pwm, adc, can, rs485, lcd, audio)"* ]]
	printf '%s\ndevices = ( { type = "i2c"; bus = "i2c9"; address = 0x48; compatible = "ti,tmp105"; } );\n' \
		"$HEAD" > "$BATS_TEST_TMPDIR/b.cape"
	run ct check "$BATS_TEST_TMPDIR/b.cape" --board beaglebone-black
	[ "$status" -eq 3 ]
	[[ "$output" == *"board beaglebone-black has no i2c bus \"i2c9\" (it has: "*"i2c2"*")"* ]]
	run ct decode "$GOLDEN/BB-WTHR-01-00A2.eeprom" --format=yaml
	[ "$status" -eq 2 ]
	[[ "$output" == *"text, json or cape"* ]]
}

# embedded_with_overlay OUT BYTES...: the weather image with its embedded
# overlay replaced by BYTES (hex), every length and CRC made right.
embedded_with_overlay() {
	python3 - "$GOLDEN/BB-WTHR-01-00A2.embedded.eeprom" "$1" "$2" <<'PY'
import struct, sys, zlib
img = bytearray(open(sys.argv[1], 'rb').read())
ov = bytes.fromhex(sys.argv[3])
std = 244
# header, id-crc record (8 + 4), overlay record header (8), crc (4), overlay
head = img[:std + 8 + 12]
rec = struct.pack('>HHI', 2, 0, 4 + len(ov)) + struct.pack('>I', zlib.crc32(ov)) + ov
out = head + rec
struct.pack_into('>H', out, std + 6, len(out) - std - 8)
open(sys.argv[2], 'wb').write(out)
PY
}

@test "decode refuses an embedded overlay that is not a device tree, even with a good CRC" {
	# the record types as the weather image has them: check that first
	run ct decode "$GOLDEN/BB-WTHR-01-00A2.embedded.eeprom" --json
	python3 -c 'import json,sys; d=json.load(sys.stdin); assert d["extension"]["overlay_length"] == 731' <<<"$output"
	embedded_with_overlay "$BATS_TEST_TMPDIR/junk.eeprom" "d00dfeed0000002000000000"
	run ct decode "$BATS_TEST_TMPDIR/junk.eeprom"
	no_sanitizer_report
	[ "$status" -eq 14 ]
	[[ "$output" == *"the overlay record is not a valid device tree"* ]]
	run ct flash "$BATS_TEST_TMPDIR/junk.eeprom" --device "$BATS_TEST_TMPDIR/ee" --no-backup
	[ "$status" -eq 14 ]
	# the real overlay passes through the same path
	dd if="$GOLDEN/BB-WTHR-01-00A2.embedded.eeprom" bs=1 skip=276 2>/dev/null > "$BATS_TEST_TMPDIR/ov.dtbo"
	embedded_with_overlay "$BATS_TEST_TMPDIR/good.eeprom" "$(python3 -c 'import sys; print(open(sys.argv[1], "rb").read().hex())' "$BATS_TEST_TMPDIR/ov.dtbo")"
	cmp "$BATS_TEST_TMPDIR/good.eeprom" "$GOLDEN/BB-WTHR-01-00A2.embedded.eeprom"
}

@test "decode --json is valid UTF-8 JSON whatever the file name" {
	name=$'Wetterstation \xc3\xa4 "q" \\ tab\tnl\nend \xff.eeprom'
	cp "$GOLDEN/BB-WTHR-01-00A2.eeprom" "$BATS_TEST_TMPDIR/$name"
	cd "$BATS_TEST_TMPDIR"
	ct decode --json "$name" > out.json
	python3 - "$name" <<'PY'
import json, sys
raw = open('out.json', 'rb').read()
raw.decode('utf-8')                     # strict: valid UTF-8
d = json.loads(raw)
name = sys.argv[1].encode('utf-8', 'surrogateescape').decode('utf-8', 'replace')
assert d['source'] == name, (d['source'], name)
assert d['part_number'] == 'BB-WTHR-01'
PY
	python3 -m json.tool out.json >/dev/null
}

@test "list --json is valid UTF-8 JSON" {
	fake_sysfs "$BATS_TEST_TMPDIR/sys"
	printf 'pin P8.13 is held by Wetterstation \xc3\xa4 \xff\n' > "$BATS_TEST_TMPDIR/sys/class/capebus/capebus0/slot2/reason"
	CAPETOOL_SYSFS=$BATS_TEST_TMPDIR/sys ct list --json > "$BATS_TEST_TMPDIR/l.json"
	python3 -c 'import json,sys; json.loads(open(sys.argv[1],"rb").read().decode("utf-8"))' "$BATS_TEST_TMPDIR/l.json"
	python3 - "$BATS_TEST_TMPDIR/l.json" <<'PY'
import json, sys
d = json.loads(open(sys.argv[1], 'rb').read().decode('utf-8'))
def strings(x):
    if isinstance(x, dict):
        for v in x.values(): yield from strings(v)
    elif isinstance(x, list):
        for v in x: yield from strings(v)
    elif isinstance(x, str):
        yield x
assert sum('Wetterstation \u00e4 \ufffd' in s for s in strings(d)) == 1, d
PY
}

@test "decode --format=cape survives a file name with a newline" {
	name=$'two\nlines "and" \\ quote.eeprom'
	cp "$GOLDEN/BB-WTHR-01-00A2.eeprom" "$BATS_TEST_TMPDIR/$name"
	cd "$BATS_TEST_TMPDIR"
	ct decode --format=cape "$name" > back.cape
	run ct create back.cape -o out
	[ "$status" -eq 0 ]
	cmp out/BB-WTHR-01-00A2.eeprom "$GOLDEN/BB-WTHR-01-00A2.eeprom"
	[[ "$(head -1 back.cape)" == *'two\x0alines "and" \x5c quote.eeprom'* ]]
}

@test "a bad --slot says what a slot number is" {
	run ct decode --slot x
	[ "$status" -eq 2 ]
	[[ "$output" == *"--slot: not a slot number: x (a number, 0 or above)"* ]]
	run ct read --slot -1 -o "$BATS_TEST_TMPDIR/x"
	[ "$status" -eq 2 ]
	[[ "$output" == *"(a number, 0 or above)"* ]]
}

@test "every command takes --slot the same way: digits only, not empty" {
	for bad in "" " 1" "+1" 1x; do
		run ct decode --slot "$bad"
		[ "$status" -eq 2 ] || { echo "decode '$bad': $output"; false; }
		run ct flash "$GOLDEN/BB-WTHR-01-00A2.eeprom" --slot "$bad"
		[ "$status" -eq 2 ] || { echo "flash '$bad': $output"; false; }
		run ct override "$DEFS/weather.cape" --slot "$bad"
		[ "$status" -eq 2 ] || { echo "override '$bad': $output"; false; }
		[[ "$output" == *"(a number, 0 or above)"* ]]
	done
}

@test "check and create on an EEPROM image say it is one (use decode), not 'syntax error'" {
	run ct check "$GOLDEN/BB-WTHR-01-00A2.eeprom"
	echo "$output"
	no_sanitizer_report
	[ "$status" -eq 3 ]
	[[ "$output" == *"BB-WTHR-01-00A2.eeprom: this is a cape EEPROM image, not a definition; use capetool decode"* ]]
	[[ "$output" != *"syntax error"* ]]
	run ct create "$GOLDEN/BB-WTHR-01-00A2.eeprom" -o "$BATS_TEST_TMPDIR/out"
	[ "$status" -eq 3 ]
	[[ "$output" == *"this is a cape EEPROM image, not a definition; use capetool decode"* ]]
	[ ! -e "$BATS_TEST_TMPDIR/out" ]
}

@test "decode and flash on a definition or an overlay say what it is, not just 'bad magic'" {
	run ct decode "$DEFS/weather.cape"
	echo "$output"
	no_sanitizer_report
	[ "$status" -eq 10 ]
	[[ "$output" == *"weather.cape: this is a cape definition, not an EEPROM image; use capetool check or create"* ]]
	run ct flash "$DEFS/weather.cape" --device "$BATS_TEST_TMPDIR/ee" --no-backup
	[ "$status" -eq 10 ]
	[[ "$output" == *"this is a cape definition, not an EEPROM image"* ]]
	[ ! -e "$BATS_TEST_TMPDIR/ee" ]
	run ct decode "$GOLDEN/BB-WTHR-01-00A2.qemu-vexpress.dtbo"
	[ "$status" -eq 10 ]
	[[ "$output" == *"this is a device tree blob (an overlay?), not an EEPROM image"* ]]
	# a bad magic that is neither still says bad magic
	run ct decode "$FIX/images/bad-magic.eeprom"
	[ "$status" -eq 10 ]
	[[ "$output" == *"bad magic: ab 55 33 ee"* ]]
}
