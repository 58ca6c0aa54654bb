#!/usr/bin/env bats
# Raspberry Pi HAT (v1) and HAT+ (v2) ID EEPROMs: capetool create from
# eepmake's settings text, byte for byte what eepmake writes; capetool
# decode against eepdump's dump; hostile images refused with exit 11-14.
# The images and dumps in fixtures/hat/ are eepmake's and eepdump's own
# (fixtures/hat/README.md says which commit and how).

load helpers

HAT=$FIX/hat

# the eepmake arguments each fixture was made with, after the settings file
hat_args() {
	case $1 in
	v1-gpio-dt) echo "--dt-blob $HAT/v1-gpio-dt.dtbo" ;;
	v2-custom) echo "--custom $HAT/v2-custom.bin" ;;
	# a compute module carrier's: the 40-pin header's connector refuses bank 1
	v1-bank1) echo "--force" ;;
	esac
}

HAT_FIXTURES="v1-minimal v1-gpio-dt v1-bank1 v2-minimal v2-overlay v2-power v2-custom"

@test "create writes eepmake's image, byte for byte, for every fixture" {
	local f
	for f in $HAT_FIXTURES; do
		# shellcheck disable=SC2046
		run ct create "$HAT/$f.txt" $(hat_args "$f") --eeprom-out "$BATS_TEST_TMPDIR/$f.eep"
		[ "$status" -eq 0 ] || { echo "$f: $output"; false; }
		cmp "$BATS_TEST_TMPDIR/$f.eep" "$HAT/$f.eep" || { echo "$f differs from eepmake's"; false; }
	done
}

@test "create -o DIR names the image after the settings file, and says what it wrote" {
	run ct create "$HAT/v2-power.txt" -o "$BATS_TEST_TMPDIR/out"
	[ "$status" -eq 0 ]
	[[ "$output" == *"v2-power.eep (111 bytes, HAT+ v2, 3 atoms)"* ]]
	cmp "$BATS_TEST_TMPDIR/out/v2-power.eep" "$HAT/v2-power.eep"
	# v1 from the GPIO map in the file, as eepmake -v1
	cd "$BATS_TEST_TMPDIR"
	run ct create "$HAT/v1-minimal.txt"
	[ "$status" -eq 0 ]
	[[ "$output" == *"v1-minimal.eep ("*"HAT v1, 2 atoms)"* ]]
	cmp v1-minimal.eep "$HAT/v1-minimal.eep"
}

@test "the input kind is told by content: settings under any name, from stdin; a definition named .txt" {
	cp "$HAT/v2-overlay.txt" "$BATS_TEST_TMPDIR/hat.cfg"
	run ct create "$BATS_TEST_TMPDIR/hat.cfg" --eeprom-out "$BATS_TEST_TMPDIR/a.eep"
	[ "$status" -eq 0 ]
	cmp "$BATS_TEST_TMPDIR/a.eep" "$HAT/v2-overlay.eep"
	ct create - --eeprom-out - < "$HAT/v2-overlay.txt" > "$BATS_TEST_TMPDIR/b.eep"
	cmp "$BATS_TEST_TMPDIR/b.eep" "$HAT/v2-overlay.eep"
	cp "$DEFS/weather.cape" "$BATS_TEST_TMPDIR/weather.txt"
	run ct create "$BATS_TEST_TMPDIR/weather.txt" --board beaglebone-black -o "$BATS_TEST_TMPDIR/w"
	[ "$status" -eq 0 ] || { echo "$output"; false; }
	[ -f "$BATS_TEST_TMPDIR/w/BB-WTHR-01-00A2.eeprom" ]
}

@test "decode --format=eepdump prints eepdump's dump for every fixture" {
	local f
	for f in $HAT_FIXTURES; do
		# v1-bank1 decodes, and exits 3: the connector refuses bank 1
		ct decode --format=eepdump "$HAT/$f.eep" > "$BATS_TEST_TMPDIR/$f.dump" ||
			[ $? -eq 3 -a "$f" = v1-bank1 ] || { echo "$f: exit $?"; false; }
		if [ "$f" = v1-bank1 ]; then
			# eepdump reads the 20-byte bank 1 atom as 30 bytes and stops
			# there: its dump is where ours begins.
			cmp -n "$(stat -c %s "$HAT/$f.dump")" "$HAT/$f.dump" "$BATS_TEST_TMPDIR/$f.dump"
			grep -q '^bank1_gpio_drive 2$' "$BATS_TEST_TMPDIR/$f.dump"
			grep -q '^setgpio  45      ALT0     NONE$' "$BATS_TEST_TMPDIR/$f.dump"
		else
			diff -u "$HAT/$f.dump" "$BATS_TEST_TMPDIR/$f.dump" || { echo "$f differs from eepdump's"; false; }
		fi
	done
}

@test "decode --format=cape prints the settings create turns back into the same image" {
	local f
	for f in $HAT_FIXTURES; do
		ct decode --format=cape "$HAT/$f.eep" > "$BATS_TEST_TMPDIR/$f.txt" || [ "$f" = v1-bank1 ]
		# shellcheck disable=SC2046
		run ct create "$BATS_TEST_TMPDIR/$f.txt" $([ "$f" = v1-bank1 ] && echo --force) \
			--eeprom-out "$BATS_TEST_TMPDIR/$f.eep"
		[ "$status" -eq 0 ] || { echo "$f: $output"; false; }
		cmp "$BATS_TEST_TMPDIR/$f.eep" "$HAT/$f.eep"
	done
}

@test "decode prints every atom: vendor, GPIO map with header pins, overlay, power, custom" {
	run ct decode "$HAT/v1-gpio-dt.eep"
	[ "$status" -eq 0 ]
	[[ "$output" == *"format:        HAT (version 1), 3 atoms, 510 bytes"* ]]
	[[ "$output" == *"uuid:          9b2e7c10-44d1-4a8e-b3f2-0c5d6e7f8091"* ]]
	[[ "$output" == *"product:       Sense HAT clone"* ]]
	[[ "$output" == *"overlay:       389-byte device tree blob, valid"* ]]
	[[ "$output" == *"drive 8 mA, slew limited, hysteresis enabled, back-power 2 A"* ]]
	[[ "$output" == *"GPIO17 (pin 11)  OUTPUT pull NONE"* ]]
	[[ "$output" == *"crc 0x08c7 (ok)"* ]]
	run ct decode "$HAT/v2-power.eep"
	[ "$status" -eq 0 ]
	[[ "$output" == *"HAT+ (version 2)"* ]]
	[[ "$output" == *"overlay name:  example-power (overlays/example-power.dtbo)"* ]]
	[[ "$output" == *"power supply:  5000 mA"* ]]
	run ct decode "$HAT/v2-custom.eep"
	[[ "$output" == *"custom 1      18 bytes: \"calibration=1.0042\""* ]]
	# decoded whole, and exit 3: the 40-pin header's connector refuses bank 1
	run ct decode --json "$HAT/v1-bank1.eep"
	[ "$status" -eq 3 ]
	[ "${lines[-1]}" = "capetool: $HAT/v1-bank1.eep: the kernel refuses it: GPIO map bank 1 uses GPIO28, which the 40-pin header does not have" ]
	python3 -c 'import json, sys; d = json.loads(sys.argv[1]); assert d["gpio_bank1"]["pins"][1]["gpio"] == 45, d' "${lines[0]}"
}

@test "decode reads a whole EEPROM dump: the bytes after eeplen are not the image's" {
	{ cat "$HAT/v2-overlay.eep"; head -c 4000 /dev/zero | tr '\0' '\377'; } > "$BATS_TEST_TMPDIR/dump"
	run ct decode "$BATS_TEST_TMPDIR/dump"
	[ "$status" -eq 0 ]
	[[ "$output" == *"example-weather"* ]]
	run ct decode - < "$BATS_TEST_TMPDIR/dump"
	[ "$status" -eq 0 ]
	[[ "$output" == *"4000 bytes after the image (not part of it)"* ]]
}

@test "decode -x extracts a v1 HAT's device tree blob; a HAT+ has none" {
	run ct decode -x "$BATS_TEST_TMPDIR/dt.dtbo" "$HAT/v1-gpio-dt.eep"
	[ "$status" -eq 0 ]
	cmp "$BATS_TEST_TMPDIR/dt.dtbo" "$HAT/v1-gpio-dt.dtbo"
	run ct decode -x - "$HAT/v2-overlay.eep"
	[ "$status" -eq 1 ]
	[[ "$output" == *"a HAT+ names its overlay (example-weather), it embeds none to extract"* ]]
}

@test "an all-zero product_uuid gets a random version 4 UUID, as with eepmake" {
	sed 's/^product_uuid .*/product_uuid 00000000-0000-0000-0000-000000000000/' "$HAT/v2-minimal.txt" > "$BATS_TEST_TMPDIR/z.txt"
	run ct create "$BATS_TEST_TMPDIR/z.txt" --eeprom-out "$BATS_TEST_TMPDIR/z.eep"
	[ "$status" -eq 0 ]
	[[ "$output" =~ UUID=[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}\ \(generated ]]
	run ct decode "$BATS_TEST_TMPDIR/z.eep"
	[ "$status" -eq 0 ]
}

# bad_settings TEXT WANT [ARGS...]: create refuses TEXT with exit 3 and WANT in its words
bad_settings() {
	local text=$1 want=$2
	shift 2
	printf '%s\n' "$text" > "$BATS_TEST_TMPDIR/s.txt"
	run ct create "$BATS_TEST_TMPDIR/s.txt" --eeprom-out "$BATS_TEST_TMPDIR/s.eep" "$@"
	[ "$status" -eq 3 ] || { echo "status $status: $output"; return 1; }
	[[ "$output" == *"$want"* ]] || { echo "want: $want"; echo "got: $output"; return 1; }
	[ ! -e "$BATS_TEST_TMPDIR/s.eep" ]
}

@test "settings errors name the file, the line and the key; nothing is written" {
	local head
	head=$(cat "$HAT/v2-minimal.txt")
	bad_settings "$head"$'\nprodcut_id 0x1' "s.txt:7: prodcut_id: not a key of the settings format; did you mean product_id?"
	bad_settings "$head"$'\ncurrent_supply 500\ngpio_drive 1\ngpio_slew 0\ngpio_hysteresis 0\nback_power 0' \
		"s.txt:7: current_supply: not supported on a v1 HAT (gpio_drive at line 8 makes this file one)"
	bad_settings "$head"$'\ngpio_drive 1' "s.txt:7: gpio_drive: not supported on HAT+" --hat-version 2
	bad_settings "$head"$'\ngpio_drive 10' "s.txt:7: gpio_drive: one digit, 0 to 8"
	bad_settings "$head"$'\nproduct_id 0x2' "s.txt:7: product_id: set again (first at line 3)"
	bad_settings "$head"$'\ncustom_data\n0x12' "s.txt:8: custom_data: 'x' is not a hex digit"
	bad_settings "$head"$'\ncustom_data\nabc' "s.txt:8: custom_data: an odd number of hex digits"
	bad_settings "$head"$'\ncustom_data "\nnever closed' "s.txt:7: custom_data: the multi-line string is not closed"
	bad_settings "$head"$'\ncustom_data "\n\\q\n\\"' "s.txt:8: custom_data: bad escape '\\q'"
	bad_settings "$head"$'\ndt_blob "/lib/x.dtbo"' "s.txt:7: dt_blob: a HAT+ names its overlay"
	bad_settings "$head"$'\ndt_blob "a"\ndt_blob "b"' "s.txt:8: dt_blob: set again (first at line 7)"
	bad_settings "$(sed 's/^vendor .*/vendor ""/' <<< "$head")" "s.txt:5: vendor: an empty string"
	bad_settings "$(sed 's/^vendor .*/vendor "A#B"/' <<< "$head")" "s.txt:5: vendor: no closing quote"
	bad_settings "$(sed 's/^product_uuid .*/product_uuid 1234/' <<< "$head")" "s.txt:2: product_uuid: a UUID"
	bad_settings "$(grep -v '^product ' <<< "$head")" "s.txt: product: required key missing"
	bad_settings "$head"$'\nsetgpio 1 INPUT DEFAULT' "GPIO \"1\": 2 to 45 (GPIO0 and GPIO1 are the ID EEPROM's bus)" --hat-version 1
	bad_settings "$head"$'\ngpio_drive 0\ngpio_slew 0\ngpio_hysteresis 0\nback_power 0\nsetgpio 4 INPT UP' \
		"s.txt:11: setgpio: function \"INPT\": INPUT, OUTPUT or ALT0-ALT5 (did you mean INPUT?)"
	bad_settings "$head"$'\ngpio_drive 0\ngpio_slew 0\ngpio_hysteresis 0\nback_power 0\nsetgpio 30 INPUT UP' \
		"s.txt: bank1_gpio_drive: required key missing (GPIO map bank 1 is used: setgpio 28-45)"
	bad_settings "$head" "--dt-blob: a HAT+ names its overlay in the settings" --dt-blob "$HAT/v1-gpio-dt.dtbo"
	bad_settings "$head"$'\ngpio_drive 0' "s.txt: gpio_slew: required key missing" --hat-version 1
}

@test "create: cape options with a settings file, HAT options with a definition, are usage errors" {
	run ct create "$HAT/v2-minimal.txt" --serial 000000000000 -o "$BATS_TEST_TMPDIR"
	[ "$status" -eq 2 ]
	[[ "$output" == *"--serial is for cape definitions"* ]]
	run ct create "$HAT/v2-minimal.txt" --board beaglebone-black -o "$BATS_TEST_TMPDIR"
	[ "$status" -eq 2 ]
	[[ "$output" == *"board beaglebone-black is a BeagleBone cape header (family bone): HATs go on a Raspberry Pi's (--board rpi)"* ]]
	run ct create "$DEFS/weather.cape" --custom "$HAT/v2-custom.bin" -o "$BATS_TEST_TMPDIR"
	[ "$status" -eq 2 ]
	[[ "$output" == *"for HAT settings files, and this is none"* ]]
	run ct create "$HAT/v2-minimal.txt" --hat-version 3
	[ "$status" -eq 2 ]
	run ct create "$HAT/v2-minimal.txt" --custom "$BATS_TEST_TMPDIR/missing" --eeprom-out "$BATS_TEST_TMPDIR/m.eep"
	[ "$status" -eq 4 ]
}

@test "decode on a settings file says to use create" {
	run ct decode "$HAT/v2-power.txt"
	[ "$status" -eq 10 ]
	[[ "$output" == *"this is a HAT settings file (eepmake's), not an EEPROM image; use capetool create"* ]]
	run ct decode --format=eepdump "$GOLDEN/BB-WTHR-01-00A2.eeprom"
	[ "$status" -eq 10 ]
}

# hostile IMAGE-EDIT STATUS WANT: decode refuses v2-custom.eep edited so
hostile() {
	hat_patch "$HAT/v2-custom.eep" "$BATS_TEST_TMPDIR/h.eep" "$1"
	run ct decode "$BATS_TEST_TMPDIR/h.eep"
	no_sanitizer_report
	[ "$status" -eq "$2" ] || { echo "$1: status $status: $output"; return 1; }
	[[ "$output" == *"$3"* ]] || { echo "$1: want: $3"; echo "got: $output"; return 1; }
	run ct decode --format=eepdump "$BATS_TEST_TMPDIR/h.eep"
	[ "$status" -eq "$2" ]
	run ct decode --json "$BATS_TEST_TMPDIR/h.eep"
	[ "$status" -eq "$2" ]
}

@test "hostile images are refused with a clear message and exit 11-14, never a crash" {
	hostile 'b[:] = b[:5]' 14 "truncated: 5 bytes, the HAT header alone is 12"
	hostile 'b[:] = b[:100]' 14 "truncated: the header says 276 bytes (eeplen), only 100 are there"
	hostile 'b[200] ^= 1; fix = False' 13 "bad CRC: atom 4 (custom, offset 162) says 0xd8bf"
	hostile 'struct.pack_into("<I", b, 12 + 4, 0xfffffff0)' 14 "atom 0 (offset 12): length 4294967280 runs past the end of the image"
	hostile 'struct.pack_into("<I", b, 12 + 4, 1)' 14 "atom 0 (offset 12): length 1 leaves no room for its CRC"
	hostile 'struct.pack_into("<H", b, 6, 0); b[:] = b[:12]; struct.pack_into("<I", b, 8, 12)' 14 "numatoms 0: no vendor atom"
	hostile 'struct.pack_into("<H", b, 6, 0xffff)' 14 "65535 atoms cannot fit in eeplen 276"
	hostile 'struct.pack_into("<H", b, 6, 6)' 14 "bytes of eeplen 276 left after 6 atoms"
	hostile 'struct.pack_into("<I", b, 8, 0xffffffff)' 14 "the header says 4294967295 bytes (eeplen)"
	hostile 'struct.pack_into("<I", b, 8, 4)' 14 "eeplen 4 is less than the header's 12 bytes"
	hostile 'b[4] = 3' 11 "unknown HAT format version 3"
	hostile 'struct.pack_into("<H", b, 12 + 2, 5)' 14 "atom 0 (offset 12): count 5, expected 0"
	hostile 'struct.pack_into("<H", b, 72, 0xffff)' 14 "atom 1 (offset 72): invalid type 0xffff"
	hostile 'struct.pack_into("<H", b, 72, 1)' 14 "atom 1: a second vendor atom (the first is atom 0)"
	hostile 'b[12 + 8 + 22] = 7' 12 "bad text: a control character in the vendor string"
	hostile 'b[12 + 8 + 20] = 200' 14 "vendor atom: 50 bytes of data, its two string lengths say otherwise"
	hostile 'b[72 + 8] = 0x0a' 12 "the HAT+ device tree atom names no overlay"
}

@test "a v1 HAT image without its GPIO map, or with a short one, is refused" {
	# v1-minimal's GPIO map atom turned into a custom atom
	hat_patch "$HAT/v1-minimal.eep" "$BATS_TEST_TMPDIR/g.eep" \
		'struct.pack_into("<H", b, 20 + struct.unpack_from("<I", b, 16)[0], 4)'
	run ct decode "$BATS_TEST_TMPDIR/g.eep"
	[ "$status" -eq 14 ]
	[[ "$output" == *"a v1 HAT image without the GPIO map atom it requires"* ]]
	# its GPIO map 2 bytes short, the image's lengths made to agree
	hat_patch "$HAT/v1-minimal.eep" "$BATS_TEST_TMPDIR/s.eep" '
o = 20 + struct.unpack_from("<I", b, 16)[0]
del b[o + 8:o + 10]
struct.pack_into("<I", b, o + 4, 30)
struct.pack_into("<I", b, 8, len(b))'
	run ct decode "$BATS_TEST_TMPDIR/s.eep"
	[ "$status" -eq 14 ]
	[[ "$output" == *"GPIO map atom: 28 bytes of data, not 30"* ]]
}

@test "the hostile images eepdump reads past the end of are refused here" {
	# eepdump trusts dlen; decode checks it against eeplen first
	hat_patch "$HAT/v2-power.eep" "$BATS_TEST_TMPDIR/p.eep" 'struct.pack_into("<I", b, 97 + 4, 100)'
	run ct decode --format=eepdump "$BATS_TEST_TMPDIR/p.eep"
	[ "$status" -eq 14 ]
	[[ "$output" == *"atom 2 (offset 97): length 100 runs past the end of the image (eeplen)"* ]]
}

@test "a one-line string with a '#' in it: eepdump's text loses it, --format=cape keeps it" {
	printf '%s\ncustom_data "\nnot a # comment\\"\n' "$(cat "$HAT/v2-minimal.txt")" > "$BATS_TEST_TMPDIR/h.txt"
	ct create "$BATS_TEST_TMPDIR/h.txt" --eeprom-out "$BATS_TEST_TMPDIR/h.eep"
	run ct decode --format=eepdump "$BATS_TEST_TMPDIR/h.eep"
	[[ "$output" == *'custom_data "not a # comment"'* ]]
	ct decode --format=cape "$BATS_TEST_TMPDIR/h.eep" > "$BATS_TEST_TMPDIR/back.txt"
	ct create "$BATS_TEST_TMPDIR/back.txt" --eeprom-out "$BATS_TEST_TMPDIR/back.eep"
	cmp "$BATS_TEST_TMPDIR/h.eep" "$BATS_TEST_TMPDIR/back.eep"
}

@test "a HAT whose embedded overlay is a version-3 tree: decode says it is not a valid one, no crash in libfdt (red team 14 F5's class)" {
	# eepmake's v1-gpio-dt image, its dt blob's version and last_comp_version set to 3 (hat_patch
	# makes the atom's CRC right again)
	hat_patch "$HAT/v1-gpio-dt.eep" "$BATS_TEST_TMPDIR/v3.eep" "
d = b.index(b'\\xd0\\x0d\\xfe\\xed')
b[d + 0x14:d + 0x1c] = struct.pack('>II', 3, 3)"
	run ct decode "$BATS_TEST_TMPDIR/v3.eep"
	echo "$output"
	no_sanitizer_report
	# printed whole, then the kernel's refusal of that overlay, as check says it (exit 3)
	[ "$status" -eq 3 ]
	[[ "$output" == *"device tree blob, not a valid one: FDT_ERR_BADVERSION"* ]]
	[ "${lines[-1]}" = "capetool: $BATS_TEST_TMPDIR/v3.eep: its overlay (its device tree atom): the kernel refuses it: overlay is of flattened tree version 3, not 17" ]
}
