#!/usr/bin/env bats
# capetool against an independent reference of the EEPROM format
# (tests/reference/cape_eeprom.py, written from the SRM tables and the
# definition schema, not from capetool's code).  The golden images are
# checked here, not just regenerated: a field that capetool writes and reads
# back wrongly (two rails swapped in both writer and reader, say) is
# still wrong against the reference.

load helpers

REF=$TOP/tests/reference/cape_eeprom.py

# part_version DEF: the <part>-<version> a definition names.
part_version() {
	python3 -c 'import sys; sys.path.insert(0, sys.argv[1]); import cape_eeprom as c
e = c.parse_cape(open(sys.argv[2]).read())["eeprom"]; print(e["part-number"] + "-" + e["version"])' \
		"$TOP/tests/reference" "$1"
}

# same_image REF_IMAGE IMAGE: byte for byte; if not, which fields differ.
same_image() {
	cmp -s "$1" "$2" && return 0
	echo "$2 differs from the reference's $1:"
	ct decode --json "$2" | "$REF" compare "$1" - || true
	cmp -l "$1" "$2" | head -n 10
	return 1
}

@test "the reference itself: the SRM's CRC check value, big-endian currents" {
	run python3 -c 'import sys; sys.path.insert(0, sys.argv[1]); import cape_eeprom as c
print("%08x" % c.crc32(b"123456789"))
d = {"eeprom": {"board-name": "x", "version": "00A0", "manufacturer": "m", "part-number": "p"},
     "power": {"vdd-5v": 1500}}
print(c.encode(d)[238:240].hex())' "$TOP/tests/reference"
	[ "${lines[0]}" = cbf43926 ]
	[ "${lines[1]}" = 05dc ]
}

@test "every golden image is the reference's encoding of its definition" {
	for def in "$DEFS"/*.cape; do
		pv=$(part_version "$def")
		"$REF" encode "$def" > "$BATS_TEST_TMPDIR/$pv.ref"
		same_image "$BATS_TEST_TMPDIR/$pv.ref" "$GOLDEN/$pv.eeprom"
	done
}

@test "the embedded-overlay golden is the reference's, with the golden overlay inside" {
	"$REF" encode "$DEFS/weather.cape" --overlay "$GOLDEN/BB-WTHR-01-00A2.qemu-vexpress.dtbo" \
		> "$BATS_TEST_TMPDIR/ref.eeprom"
	same_image "$BATS_TEST_TMPDIR/ref.eeprom" "$GOLDEN/BB-WTHR-01-00A2.embedded.eeprom"
}

@test "capetool create writes the reference's image for every definition, A1 and A0, --serial" {
	for def in "$DEFS"/*.cape; do
		pv=$(part_version "$def")
		rm -f "$BATS_TEST_TMPDIR"/*.eeprom
		ct create "$def" --board qemu-vexpress -o "$BATS_TEST_TMPDIR" >/dev/null
		"$REF" encode "$def" > "$BATS_TEST_TMPDIR/ref"
		same_image "$BATS_TEST_TMPDIR/ref" "$BATS_TEST_TMPDIR/$pv.eeprom"
	done
	sed 's/format *= "A1"/format = "A0"/' "$DEFS/weather.cape" > "$BATS_TEST_TMPDIR/a0.cape"
	ct create "$BATS_TEST_TMPDIR/a0.cape" --board qemu-vexpress --serial 4912EXLB0007 \
		-o "$BATS_TEST_TMPDIR" >/dev/null
	"$REF" encode "$BATS_TEST_TMPDIR/a0.cape" --serial 4912EXLB0007 > "$BATS_TEST_TMPDIR/ref"
	[ "$(stat -c %s "$BATS_TEST_TMPDIR/ref")" -eq 236 ]
	same_image "$BATS_TEST_TMPDIR/ref" "$BATS_TEST_TMPDIR/BB-WTHR-01-00A2.eeprom"
}

@test "capetool create --embed-overlay: the reference finds both CRCs right and the .dtbo inside" {
	ct create "$DEFS/rtc.cape" --board qemu-vexpress --embed-overlay -o "$BATS_TEST_TMPDIR" >/dev/null
	pv=$(part_version "$DEFS/rtc.cape")
	"$REF" encode "$DEFS/rtc.cape" --overlay "$BATS_TEST_TMPDIR/$pv.dtbo" > "$BATS_TEST_TMPDIR/ref"
	same_image "$BATS_TEST_TMPDIR/ref" "$BATS_TEST_TMPDIR/$pv.eeprom"
	run "$REF" decode "$BATS_TEST_TMPDIR/$pv.eeprom"
	[ "$status" -eq 0 ]
	[[ "$output" == *'"records": [{"type": 1, "length": 4, '* ]]
	[[ "$output" == *"\"overlay\": \"$(xxd -p "$BATS_TEST_TMPDIR/$pv.dtbo" | tr -d '\n')\""* ]]
}

@test "capetool decode --json agrees with the reference on every image it accepts, field by field" {
	n=0
	for img in "$GOLDEN"/*.eeprom "$FIX"/images/*.eeprom; do
		if "$REF" decode "$img" >/dev/null 2>&1; then
			run ct decode --json "$img"
			[ "$status" -eq 0 ] || { echo "$img: the reference accepts it, capetool: $output"; false; }
			"$REF" compare "$img" - <<< "$output" || { echo "in $img"; false; }
			n=$((n + 1))
		fi
	done
	# The 7 goldens and the valid fixtures, A0 among them.
	[ "$n" -ge 11 ]
}

@test "images the reference refuses, capetool refuses too" {
	n=0
	for img in "$FIX"/images/*.eeprom; do
		"$REF" decode "$img" >/dev/null 2>&1 && continue
		run ct decode "$img"
		[ "$status" -ne 0 ] || { echo "$img: the reference refuses it, capetool decodes it"; false; }
		n=$((n + 1))
	done
	[ "$n" -ge 8 ]
}
