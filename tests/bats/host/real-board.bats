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
	mkdir -p "$BATS_FILE_TMPDIR/capes" "$BATS_FILE_TMPDIR/hdmi-capes"
	for c in "$DEFS"/*.cape "$DEFS"/bone/*.cape; do
		"$CAPETOOL_RELEASE" create "$c" --board beaglebone-black \
			-o "$BATS_FILE_TMPDIR/capes/" >/dev/null 2>&1 || return 0
	done
	# cape-defs/bone/hdmi-pins/README: capetool's Black profile refuses
	# them; the reference encoder makes their images, named as capetool
	# names its output, and capetool create --force their overlays (the
	# lcd and audio devices, and any escape hatch merged in).
	for c in "$DEFS"/bone/hdmi-pins/*.cape; do
		python3 "$TOP/tests/reference/cape_eeprom.py" encode "$c" \
			> "$BATS_FILE_TMPDIR/hdmi.eeprom" || return 0
		n=$(python3 -c 'import json, sys; d = json.load(sys.stdin); print(d["part_number"] + "-" + d["version"])' \
			< <(python3 "$TOP/tests/reference/cape_eeprom.py" decode "$BATS_FILE_TMPDIR/hdmi.eeprom")) || return 0
		mv "$BATS_FILE_TMPDIR/hdmi.eeprom" "$BATS_FILE_TMPDIR/hdmi-capes/$n.eeprom"
		rm -rf "$BATS_FILE_TMPDIR/hdmi-out"
		"$CAPETOOL_RELEASE" create --force "$c" --board beaglebone-black \
			-o "$BATS_FILE_TMPDIR/hdmi-out/" >/dev/null 2>&1 || return 0
		mv "$BATS_FILE_TMPDIR/hdmi-out/$n.dtbo" "$BATS_FILE_TMPDIR/hdmi-capes/$n.dtbo" || return 0
	done
}

# need: the checker and the DTBs setup_file built, or no_ksrc.
need() {
	[ -x "$BATS_FILE_TMPDIR/fz/bone-connector-check" ] &&
		[ -f "$BATS_FILE_TMPDIR/am335x-bonegreen.dtb" ] &&
		[ -d "$BATS_FILE_TMPDIR/capes" ] &&
		[ "$(ls "$BATS_FILE_TMPDIR"/hdmi-capes/*.dtbo | wc -l)" -eq \
		  "$(ls "$DEFS"/bone/hdmi-pins/*.cape | wc -l)" ] && return 0
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

@test "every cape of cape-defs/ and cape-defs/bone/ resolves against the Green's connector, but those on its Grove UART pins" {
	need
	n=$(ls "$BATS_FILE_TMPDIR"/capes/*.eeprom | wc -l)
	# the Green's Grove UART2 holds P9.21 and P9.22 (BB-PWM0, BB-UART2, BB-SPI0-MCP3008)
	grove=$(grep -l 'pin = "P9\.2[12]"' "$DEFS"/*.cape "$DEFS"/bone/*.cape | wc -l)
	[ "$grove" -ge 3 ]
	check am335x-bonegreen "$BATS_FILE_TMPDIR/capes"
	[ "$(grep -c '^ok' <<< "$output")" -eq $((n - grove)) ]
	[ "$(grep -c '^not ok .*: pin P9\.2[12] is the board.s' <<< "$output")" -eq "$grove" ]
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

@test "the capes on the Black's HDMI pins are refused on the Black, naming an HDMI pin; the HDMI-off Black and the Green take them (but the Green's Grove UART pins)" {
	need
	n=$(ls "$BATS_FILE_TMPDIR"/hdmi-capes/*.eeprom | wc -l)
	[ "$n" -ge 2 ]
	check am335x-boneblack "$BATS_FILE_TMPDIR/hdmi-capes"
	[ "$status" -eq 1 ]
	[ "$(grep -c '^not ok .*: pin P[89]\.[0-9]* is the board.s' <<< "$output")" -eq "$n" ]
	check am335x-boneblack-nohdmi "$BATS_FILE_TMPDIR/hdmi-capes"
	[ "$status" -eq 0 ]
	[ "$(grep -c '^ok' <<< "$output")" -eq "$n" ]
	# the Green: but those on its Grove UART pins P9.21/P9.22 (the LCD7)
	grove=$(grep -l 'pin = "P9\.2[12]"' "$DEFS"/bone/hdmi-pins/*.cape | wc -l)
	check am335x-bonegreen "$BATS_FILE_TMPDIR/hdmi-capes"
	[ "$(grep -c '^ok' <<< "$output")" -eq $((n - grove)) ]
	[ "$(grep -c '^not ok .*: pin P9\.2[12] is the board.s' <<< "$output")" -eq "$grove" ]
}

@test "a real cape for each unit the header offers resolves: PWM, ADC, CAN, SPI, LCD, McASP, I2C, UART" {
	need
	# The exported names the accepted capes' overlays resolve through.
	names=$(for o in "$BATS_FILE_TMPDIR"/capes/*.dtbo "$BATS_FILE_TMPDIR"/hdmi-capes/*.dtbo; do
		fdtget -p "$o" /__fixups__
	done | sort -u)
	for u in bone_pwm_0 bone_pwm_1 bone_pwm_2 bone_adc bone_can_1 bone_spi_0 bone_spi_1 bone_lcdc bone_mcasp_0 \
		 bone_i2c_1 bone_i2c_2 bone_uart_1 bone_uart_2 bone_uart_4 bone_gpio bone_devices; do
		grep -qx "$u" <<< "$names" || { echo "no real cape uses $u"; return 1; }
	done
}

# pads BOARD CAPEDIR PART: the entries the connector writes for PART's pins,
# as "PAD VALUE" (value: pad bits | mux mode, bb.org's two-cell form).
pads() {
	check "$1" "$2" >/dev/null
	python3 -c '
import re, sys
on = False
for l in sys.stdin:
    if re.match(r"(not )?ok ", l):
        on = ("/" + sys.argv[1] + ".dtbo: ") in l
    elif on and l.startswith("# pad "):
        c = [int(x, 16) for x in l.split()[3:]]
        print("%#x %#x" % (c[0], c[1] | (c[2] if len(c) > 2 else 0)))
' "$3" <<< "$output" | sort
}

# bbo PART: the pads BeagleBoard.org's overlay for PART sets, with the
# fixture's "differs" lines applied; fails on a differs line whose bb.org
# value is not bb.org's.
bbo() {
	python3 -c '
import sys
v, d = {}, []
for l in open(sys.argv[1]):
    f = l.split()
    if not f or f[0].startswith("#"):
        continue
    if f[0] == "differs":
        d.append(f[1:4])
    else:
        v[int(f[0], 16)] = int(f[1], 16)
for pad, was, ours in d:
    pad = int(pad, 16)
    if v.get(pad) != int(was, 16):
        sys.exit("stale differs line for %#x" % pad)
    if ours == "-":
        del v[pad]
    else:
        v[pad] = int(ours, 16)
for pad in v:
    print("%#x %#x" % (pad, v[pad]))
' "$TOP/tests/bats/host/fixtures/bbo-pads/$1.pads" | sort
}

@test "the pads the connector writes for each real cape are BeagleBoard.org's own overlay's, but where the fixture says why not" {
	need
	local f part board dir n=0
	for f in "$TOP"/tests/bats/host/fixtures/bbo-pads/*.pads; do
		part=$(basename "$f" .pads)
		if [ -f "$BATS_FILE_TMPDIR/capes/$part.eeprom" ]; then
			board=am335x-boneblack dir=capes
		else
			board=am335x-boneblack-nohdmi dir=hdmi-capes
		fi
		[ -f "$BATS_FILE_TMPDIR/$dir/$part.eeprom" ] || { echo "no cape for $part"; return 1; }
		expected=$(bbo "$part")
		got=$(pads "$board" "$BATS_FILE_TMPDIR/$dir" "$part")
		diff <(echo "$expected") <(echo "$got") || { echo "$part: bb.org (<) and the connector (>) differ"; return 1; }
		n=$((n + 1))
	done
	[ "$n" -ge 18 ]
}

@test "a cape adding a platform device the connector does not list is refused; the real capes' are listed" {
	need
	pin_cape P8.7
	cat > "$BATS_TEST_TMPDIR/x.dtso" <<'DTS'
/dts-v1/;
/plugin/;
&bone_devices {
	pmic-charger {
		compatible = "gpio-leds", "ti,tps65217-charger";
	};
};
DTS
	dtc -q -I dts -O dtb -o "$BATS_TEST_TMPDIR"/pc/EXL-PIN-01-00A0.dtbo "$BATS_TEST_TMPDIR/x.dtso"
	check am335x-boneblack "$BATS_TEST_TMPDIR/pc"
	[ "$status" -eq 1 ]
	[[ $output == *"pmic-charger: a platform device of compatible ti,tps65217-charger, which the connector does not list"* ]]
}

@test "the RS-485 cape (cape-defs/bone/board-props/) fits the connector: its properties are ones target-properties lets capes set on uart4" {
	need
	mkdir -p "$BATS_TEST_TMPDIR/rs"
	"$CAPETOOL_RELEASE" create "$DEFS/bone/board-props/bb-uart4-rs485.cape" --board beaglebone-black \
		-o "$BATS_TEST_TMPDIR/rs/" >/dev/null
	check am335x-boneblack "$BATS_TEST_TMPDIR/rs"
	[ "$status" -eq 0 ]
	[[ ${lines[1]} == "ok 1 "*"BB-UART4-RS485-00A0.dtbo: 3 pins (3 with a pad), 0 nodes, 2 references" ]]
	# a property the connector does not list for uart4: refused
	cat > "$BATS_TEST_TMPDIR/x.dtso" <<'DTS'
/dts-v1/;
/plugin/;
&bone_uart_4 {
	status = "okay";
	current-speed = <9600>;
};
DTS
	dtc -q -I dts -O dtb -o "$BATS_TEST_TMPDIR"/rs/BB-UART4-RS485-00A0.dtbo "$BATS_TEST_TMPDIR/x.dtso"
	check am335x-boneblack "$BATS_TEST_TMPDIR/rs"
	[ "$status" -eq 1 ]
	[[ $output == *"fragment fragment@0 sets property current-speed of bone_uart_4, which the connector does not let capes set (target-properties)"* ]]
	# the DE GPIO through the nexus on a uart4 the cape does not enable: refused
	sed -i -e '/status/d' -e 's/current-speed = <9600>/rts-gpios = <\&bone_gpio 927 0>/' "$BATS_TEST_TMPDIR/x.dtso"
	dtc -q -I dts -O dtb -o "$BATS_TEST_TMPDIR"/rs/BB-UART4-RS485-00A0.dtbo "$BATS_TEST_TMPDIR/x.dtso"
	check am335x-boneblack "$BATS_TEST_TMPDIR/rs"
	[ "$status" -eq 1 ]
	[[ $output == *"fixup of &bone_gpio patches rts-gpios of __overlay__ of fragment@0, which does not enable its target"* ]]
}
