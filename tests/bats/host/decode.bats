#!/usr/bin/env bats
# capetool decode: every field, A0 and A1, extension records, distinct errors.

load helpers

IMG=$FIX/images

@test "decode prints every field of the weather image" {
	run ct decode "$GOLDEN/BB-WTHR-01-00A2.eeprom"
	no_sanitizer_report
	[ "$status" -eq 0 ]
	[[ "$output" == *"format:        A1 (244-byte standard area)"* ]]
	[[ "$output" == *"board name:    Weather Cape"* ]]
	[[ "$output" == *"version:       00A2"* ]]
	[[ "$output" == *"manufacturer:  Example Labs"* ]]
	[[ "$output" == *"part number:   BB-WTHR-01"* ]]
	[[ "$output" == *"overlay name:  BB-WTHR-01-00A2.dtbo"* ]]
	[[ "$output" == *"serial:        4012EXLB0042 (week 40, year 2012, assembly EXLB, unit 0042)"* ]]
	[[ "$output" == *"pins:          3 declared, 3 used"* ]]
	[[ "$output" == *"P9.19 mode3 bidir pull-up rx slow"*"I2C2_SCL (0xe073)"* ]]
	[[ "$output" == *"P8.13 mode7 out no-pull fast"*"EHRPWM2B (0xc00f)"* ]]
	[[ "$output" == *"P9.39 "*"AIN0 (0x8000)"* ]]
	[[ "$output" == *"power (mA):    vdd-3v3b 150 vdd-5v 0 sys-5v 0 dc-supplied 0"* ]]
	[[ "$output" == *"extension:     none"* ]]
}

@test "decode shows the extension records of an embedded image" {
	run ct decode "$GOLDEN/BB-WTHR-01-00A2.embedded.eeprom"
	[ "$status" -eq 0 ]
	[[ "$output" == *"extension:     version 1, 2 records, 755 bytes"* ]]
	[[ "$output" == *"id-crc:      0x5202904a (ok)"* ]]
	[[ "$output" == *"overlay:     731 bytes, crc 0xa84dcaa7 (ok)"* ]]
}

@test "decode --json is valid JSON with the same fields" {
	run ct decode --json "$GOLDEN/BB-WTHR-01-00A2.embedded.eeprom"
	[ "$status" -eq 0 ]
	echo "$output" | python3 -c '
import json, sys
d = json.load(sys.stdin)
assert d["format"] == "A1" and d["part_number"] == "BB-WTHR-01", d
assert [p["pin"] for p in d["pins"]] == ["P9.19", "P8.13", "P9.39"], d
assert d["pins"][0]["words"] == "P9.19 mode3 bidir pull-up rx slow"
assert d["power"]["vdd-3v3b"] == 150
assert d["extension"]["overlay_length"] == 731'
}

@test "decode --format=cape round-trips every golden image through create" {
	for img in "$GOLDEN"/*.eeprom "$IMG/weather-a0.eeprom" "$IMG/dot-ff-padding.eeprom"; do
		[[ "$img" == *.embedded.eeprom ]] && continue
		run ct decode --format=cape "$img"
		no_sanitizer_report
		[ "$status" -eq 0 ]
		echo "$output" > "$BATS_TEST_TMPDIR/rt.cape"
		rm -rf "$BATS_TEST_TMPDIR/out"; mkdir "$BATS_TEST_TMPDIR/out"
		run ct create "$BATS_TEST_TMPDIR/rt.cape" -o "$BATS_TEST_TMPDIR/out"
		[ "$status" -eq 0 ] || { echo "$img: $output"; false; }
		if [[ "$img" == *dot-ff-padding* ]]; then
			# padding is normalized to NUL: same fields, canonical bytes
			cmp "$BATS_TEST_TMPDIR"/out/*.eeprom "$GOLDEN/BB-WTHR-01-00A2.eeprom"
		else
			cmp "$BATS_TEST_TMPDIR"/out/*.eeprom "$img"
		fi
	done
}

@test "decode -x extracts the embedded overlay" {
	run ct decode -x "$BATS_TEST_TMPDIR/o.dtbo" "$GOLDEN/BB-WTHR-01-00A2.embedded.eeprom"
	[ "$status" -eq 0 ]
	cmp "$BATS_TEST_TMPDIR/o.dtbo" "$GOLDEN/BB-WTHR-01-00A2.qemu-vexpress.dtbo"
	run ct decode -x "$BATS_TEST_TMPDIR/o2.dtbo" "$GOLDEN/BB-WTHR-01-00A2.eeprom"
	[ "$status" -eq 1 ]
	[[ "$output" == *"no overlay record to extract"* ]]
}

@test "an A0 image decodes with A0 offsets" {
	run ct decode "$IMG/weather-a0.eeprom"
	[ "$status" -eq 0 ]
	[[ "$output" == *"format:        A0 (236-byte standard area)"* ]]
	[[ "$output" == *"decoded by index"* ]]
	[[ "$output" == *"vdd-3v3b 150"* ]]
}

@test "trailing '.', 0xff and NUL padding is stripped" {
	run ct decode "$IMG/dot-ff-padding.eeprom"
	[ "$status" -eq 0 ]
	[[ "$output" == *"board name:    Weather Cape"$'\n'* ]]
	[[ "$output" == *"part number:   BB-WTHR-01"$'\n'* ]]
}

@test "bad magic exits 10" {
	run ct decode "$IMG/bad-magic.eeprom"
	no_sanitizer_report
	[ "$status" -eq 10 ]
	[[ "$output" == *"bad magic: ab 55 33 ee, expected aa 55 33 ee"* ]]
}

@test "a blank EEPROM is bad magic, with a hint" {
	run ct decode "$IMG/blank.eeprom"
	[ "$status" -eq 10 ]
	[[ "$output" == *"(blank EEPROM?)"* ]]
}

@test "an unknown revision exits 11" {
	run ct decode "$IMG/bad-revision.eeprom"
	[ "$status" -eq 11 ]
	[[ "$output" == *"unknown format revision 0x42 0x37"* ]]
}

@test "bad text exits 12 naming the field" {
	run ct decode "$IMG/bad-text.eeprom"
	[ "$status" -eq 12 ]
	[[ "$output" == *"bad text in board name: byte 0x07"* ]]
}

@test "a bad standard-area CRC exits 13" {
	run ct decode "$IMG/bad-crc.eeprom"
	[ "$status" -eq 13 ]
	[[ "$output" == *"bad CRC: standard area CRC is"* ]]
}

@test "a bad overlay CRC exits 13" {
	run ct decode "$IMG/bad-overlay-crc.eeprom"
	[ "$status" -eq 13 ]
	[[ "$output" == *"overlay record CRC mismatch"* ]]
}

@test "a truncated image exits 14" {
	run ct decode "$IMG/truncated.eeprom"
	[ "$status" -eq 14 ]
	[[ "$output" == *"image too short: 200 bytes, format A1 needs 244"* ]]
	run ct decode "$IMG/truncated-ext.eeprom"
	[ "$status" -eq 14 ]
	[[ "$output" == *"extension area claims 758 bytes, only 48 follow"* ]]
	head -c 3 "$GOLDEN/BB-WTHR-01-00A2.eeprom" > "$BATS_TEST_TMPDIR/t"
	run ct decode "$BATS_TEST_TMPDIR/t"
	[ "$status" -eq 14 ]
}

@test "an extension area of a newer version is ignored" {
	run ct decode "$IMG/ext-newer-version.eeprom"
	[ "$status" -eq 0 ]
	[[ "$output" == *"(newer version: ignored)"* ]]
}

@test "unknown extension records are skipped" {
	run ct decode "$IMG/ext-unknown-record.eeprom"
	[ "$status" -eq 0 ]
	[[ "$output" == *"unknown:     1 records skipped"* ]]
}

@test "decode --slot reads the slot's nvmem device" {
	fake_sysfs "$BATS_TEST_TMPDIR/sys"
	CAPETOOL_SYSFS=$BATS_TEST_TMPDIR/sys run ct decode --slot 0
	[ "$status" -eq 0 ]
	[[ "$output" == *"part number:   BB-WTHR-01"* ]]
	[[ "$output" == *"/sys/bus/nvmem/devices/0-00540/nvmem"* ]]
}

@test "decode --slot of an erased EEPROM is bad magic" {
	fake_sysfs "$BATS_TEST_TMPDIR/sys"
	CAPETOOL_SYSFS=$BATS_TEST_TMPDIR/sys run ct decode --slot 1
	[ "$status" -eq 10 ]
}

@test "decode --slot of a slot without EEPROM device exits 9" {
	fake_sysfs "$BATS_TEST_TMPDIR/sys"
	CAPETOOL_SYSFS=$BATS_TEST_TMPDIR/sys run ct decode --slot 3
	[ "$status" -eq 9 ]
	[[ "$output" == *"slot 3 has no EEPROM device"* ]]
	CAPETOOL_SYSFS=$BATS_TEST_TMPDIR/sys run ct decode --slot 7
	[ "$status" -eq 9 ]
	[[ "$output" == *"no slot 7"* ]]
	CAPETOOL_SYSFS=$BATS_TEST_TMPDIR/none run ct decode --slot 0
	[ "$status" -eq 9 ]
	[[ "$output" == *"no capebus controller"* ]]
}

@test "decode of a missing file exits 4; bad usage exits 2" {
	run ct decode "$BATS_TEST_TMPDIR/missing"
	[ "$status" -eq 4 ]
	run ct decode
	[ "$status" -eq 2 ]
	run ct decode --format=xml "$GOLDEN/BB-WTHR-01-00A2.eeprom"
	[ "$status" -eq 2 ]
	run ct decode --slot x
	[ "$status" -eq 2 ]
}

@test "extension areas the kernel rejects exit 14" {
	run ct decode "$IMG/ext-version-0.eeprom"
	[ "$status" -eq 14 ]
	[[ "$output" == *"extension: version 0"* ]]
	run ct decode "$IMG/ext-count-length-disagree.eeprom"
	[ "$status" -eq 14 ]
	[[ "$output" == *"count and length disagree"* ]]
	run ct decode "$IMG/ext-second-id-crc.eeprom"
	[ "$status" -eq 14 ]
	[[ "$output" == *"second id CRC record"* ]]
}

@test "a part number with '/' is bad text (it names a firmware file)" {
	run ct decode "$IMG/part-number-slash.eeprom"
	[ "$status" -eq 12 ]
	[[ "$output" == *"name a firmware file"* ]]
}

@test "an image cut inside the extension header is truncated (14), not 'extension: none'" {
	for n in 245 247 248 251; do
		head -c "$n" "$GOLDEN/BB-WTHR-01-00A2.embedded.eeprom" > "$BATS_TEST_TMPDIR/t"
		run ct decode "$BATS_TEST_TMPDIR/t"
		echo "$n: $output"
		no_sanitizer_report
		[ "$status" -eq 14 ]
		[[ "$output" == *"extension header cut short: $((n - 244)) of its 8 bytes"* ]]
		[[ "$output" != *"extension:     none"* ]]
		run ct flash "$BATS_TEST_TMPDIR/t" --device "$BATS_TEST_TMPDIR/ee" --no-backup
		[ "$status" -eq 14 ]
	done
	# the standard area alone is a whole image without extension area
	head -c 244 "$GOLDEN/BB-WTHR-01-00A2.embedded.eeprom" > "$BATS_TEST_TMPDIR/t"
	run ct decode "$BATS_TEST_TMPDIR/t"
	[ "$status" -eq 0 ]
	[[ "$output" == *"extension:     none"* ]]
}
