#!/usr/bin/env bats
# The real boards' connector (the series' am335x-bone-capebus.dtsi, in
# am335x-boneblack.dts, -nohdmi and am335x-bonegreen.dts, from the 6.12
# tree with the series applied) against every cape in cape-defs/ and
# cape-defs/bone/, through the kernel's own EEPROM parser and overlay
# resolver built in userspace: tests/fuzz/kernel/bone-connector-check.c
# (its header says which rules are the kernel's code and which are
# written again there).
load helpers

# dtb NAME: the board's DTB as Linux's build makes it (no symbols).
dtb() {
	cpp -nostdinc -undef -D__DTS__ -x assembler-with-cpp \
		-I "$KSRC/arch/arm/boot/dts" -I "$KSRC/arch/arm/boot/dts/ti/omap" \
		-I "$KSRC/include" -I "$KSRC/scripts/dtc/include-prefixes" \
		"$KSRC/arch/arm/boot/dts/ti/omap/$1.dts" |
		dtc -q -i "$KSRC/arch/arm/boot/dts/ti/omap" -I dts -O dtb \
			-o "$BATS_FILE_TMPDIR/$1.dtb" -
}

setup_file() {
	local c
	[ -f "$KSRC/arch/arm/boot/dts/ti/omap/am335x-bone-capebus.dtsi" ] || return 0
	make -s -C "$TOP/tests/fuzz/kernel" O="$BATS_FILE_TMPDIR/fz" checker >&2 || return 0
	for c in am335x-boneblack am335x-boneblack-nohdmi am335x-bonegreen; do
		dtb "$c" || return 0
	done
	mkdir -p "$BATS_FILE_TMPDIR/capes"
	for c in "$DEFS"/*.cape "$DEFS"/bone/*.cape; do
		"$CAPETOOL_RELEASE" create "$c" --board beaglebone-black \
			-o "$BATS_FILE_TMPDIR/capes/" >/dev/null 2>&1 || return 0
	done
}

# need: the checker and the DTBs setup_file built, or no_ksrc.
need() {
	[ -x "$BATS_FILE_TMPDIR/fz/bone-connector-check" ] &&
		[ -f "$BATS_FILE_TMPDIR/am335x-bonegreen.dtb" ] &&
		[ -d "$BATS_FILE_TMPDIR/capes" ] && return 0
	no_ksrc "no checker, DTBs or capes: needs the 6.12 tree with the series at $KSRC, clang, libfdt"
}

# check BOARD CAPEDIR: bone-connector-check on every cape in CAPEDIR.
check() {
	local e args=()
	for e in "$2"/*.eeprom; do args+=("$e" "${e%.eeprom}.dtbo"); done
	run "$BATS_FILE_TMPDIR/fz/bone-connector-check" "$BATS_FILE_TMPDIR/$1.dtb" "${args[@]}"
	echo "$output"
}

# pin_cape PIN: a cape asking for PIN, with an RTC on the cape bus.  Its
# EEPROM image from the reference encoder (tests/reference/cape_eeprom.py:
# capetool's board profiles refuse the board's pins themselves), its
# overlay from capetool (it holds no pins).
pin_cape() {
	mkdir -p "$BATS_TEST_TMPDIR/pc"
	cat > "$BATS_TEST_TMPDIR/pin.cape" <<CAPE
eeprom = {
  board-name   = "Pin test cape";
  version      = "00A0";
  manufacturer = "Example Labs";
  part-number  = "EXL-PIN-01";
  serial       = "0000EXLB0001";
};
devices = (
  { type = "i2c"; bus = "i2c2"; address = 0x68; compatible = "dallas,ds1338"; name = "rtc"; }
);
CAPE
	"$CAPETOOL_RELEASE" create "$BATS_TEST_TMPDIR/pin.cape" --board beaglebone-black \
		-o "$BATS_TEST_TMPDIR/pc/" >/dev/null
	echo "pins = ( { pin = \"$1\"; mode = 7; direction = \"out\"; } );" >> "$BATS_TEST_TMPDIR/pin.cape"
	python3 "$TOP/tests/reference/cape_eeprom.py" encode "$BATS_TEST_TMPDIR/pin.cape" \
		> "$BATS_TEST_TMPDIR/pc/EXL-PIN-01-00A0.eeprom"
}

@test "the series gives the Black, its HDMI-off variant and the Green a capebus connector" {
	need
	for b in am335x-boneblack am335x-boneblack-nohdmi am335x-bonegreen; do
		[ "$(fdtget "$BATS_FILE_TMPDIR/$b.dtb" /capebus compatible)" = beagle,bone-capebus ]
	done
}

@test "every cape of cape-defs/ and cape-defs/bone/ resolves against the Black's connector" {
	need
	n=$(ls "$BATS_FILE_TMPDIR"/capes/*.eeprom | wc -l)
	[ "$n" -eq $(( $(ls "$DEFS"/*.cape "$DEFS"/bone/*.cape | wc -l) )) ]
	check am335x-boneblack "$BATS_FILE_TMPDIR/capes"
	[ "$status" -eq 0 ]
	[ "$(grep -c '^ok' <<< "$output")" -eq "$n" ]
}

@test "every cape of cape-defs/ and cape-defs/bone/ resolves against the Green's connector" {
	need
	n=$(ls "$BATS_FILE_TMPDIR"/capes/*.eeprom | wc -l)
	check am335x-bonegreen "$BATS_FILE_TMPDIR/capes"
	[ "$status" -eq 0 ]
	[ "$(grep -c '^ok' <<< "$output")" -eq "$n" ]
}

@test "a cape asking for an HDMI pin is refused on the Black, naming the pin; the HDMI-off Black and the Green take it" {
	need
	pin_cape P8.45
	check am335x-boneblack "$BATS_TEST_TMPDIR/pc"
	[ "$status" -eq 1 ]
	[[ $output == *"not ok 1 "*"pin P8.45 is the board's"* ]]
	check am335x-boneblack-nohdmi "$BATS_TEST_TMPDIR/pc"
	[ "$status" -eq 0 ]
	check am335x-bonegreen "$BATS_TEST_TMPDIR/pc"
	[ "$status" -eq 0 ]
}

@test "a cape asking for an eMMC pin is refused on every board, naming the pin" {
	need
	pin_cape P8.3
	for b in am335x-boneblack am335x-boneblack-nohdmi am335x-bonegreen; do
		check "$b" "$BATS_TEST_TMPDIR/pc"
		[ "$status" -eq 1 ]
		[[ $output == *"pin P8.3 is the board's"* ]]
	done
}

@test "a cape asking for the Green's Grove UART pins is refused there only" {
	need
	pin_cape P9.21
	check am335x-bonegreen "$BATS_TEST_TMPDIR/pc"
	[ "$status" -eq 1 ]
	[[ $output == *"pin P9.21 is the board's"* ]]
	check am335x-boneblack "$BATS_TEST_TMPDIR/pc"
	[ "$status" -eq 0 ]
}

@test "an overlay naming a bus the connector does not export is refused by the kernel's resolver" {
	need
	pin_cape P8.7
	# bone_timer_4 is a bone-bus name this connector does not export.
	dtc -q -I dtb -O dts "$BATS_TEST_TMPDIR"/pc/*.dtbo |
		sed 's/bone_i2c_2/bone_timer_4/g' |
		dtc -q -I dts -O dtb -o "$BATS_TEST_TMPDIR/x.dtbo" -
	mv "$BATS_TEST_TMPDIR/x.dtbo" "$BATS_TEST_TMPDIR"/pc/*.dtbo
	check am335x-boneblack "$BATS_TEST_TMPDIR/pc"
	[ "$status" -eq 1 ]
	[[ $output == *bone_timer_4* ]]
}
