#!/usr/bin/env bats
# The real boards' connector (the series' am335x-bone-capebus.dtsi, in
# am335x-boneblack.dts, -nohdmi and am335x-bonegreen.dts, from the 6.12
# tree with the series applied) against every cape in cape-defs/ and
# cape-defs/bone/, through the kernel's own EEPROM parser and overlay
# resolver built in userspace: tests/fuzz/kernel/bone-connector-check.c
# (its header says which rules are the kernel's code and which are
# written again there).  And the Pi 4 B's (bcm2711-rpi-hat-capebus.dtsi
# in bcm2711-rpi-4-b.dts): what it exports, the pins it holds for each
# unit, and HAT overlays through the same checker.
load helpers

# dtb NAME [DIR]: the board's DTB as Linux's build makes it (no symbols),
# from arch/arm/boot/dts/DIR (ti/omap by default).
dtb() {
	local d=$KSRC/arch/arm/boot/dts/${2:-ti/omap}
	cpp -nostdinc -undef -D__DTS__ -x assembler-with-cpp \
		-I "$KSRC/arch/arm/boot/dts" -I "$d" \
		-I "$KSRC/include" -I "$KSRC/scripts/dtc/include-prefixes" \
		"$d/$1.dts" |
		dtc -q -i "$d" -I dts -O dtb -o "$BATS_FILE_TMPDIR/$1.dtb" -
}

setup_file() {
	local c
	if [ -f "$KSRC/arch/arm/boot/dts/broadcom/bcm2711-rpi-hat-capebus.dtsi" ]; then
		dtb bcm2711-rpi-4-b broadcom || rm -f "$BATS_FILE_TMPDIR/bcm2711-rpi-4-b.dtb"
	fi
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

# pin_cape PIN [MODE]: a cape asking for PIN (in MODE, 7 by default), with
# an RTC on the cape bus.  Its
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
	echo "pins = ( { pin = \"$1\"; mode = ${2:-7}; direction = \"out\"; } );" >> "$BATS_TEST_TMPDIR/pin.cape"
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

@test "a cape asking for P8.19 in mode 2 (mmc1_dat0, the eMMC's) is refused on every board, naming the mode and what is offered" {
	need
	pin_cape P8.19 2
	for b in am335x-boneblack am335x-boneblack-nohdmi am335x-bonegreen; do
		check "$b" "$BATS_TEST_TMPDIR/pc"
		[ "$status" -eq 1 ]
		[[ $output == *"not ok 1 "*"P8.19: mode 2 is not offered to capes by this connector (offered: 4 7)"* ]]
	done
	# ehrpwm2a, mode 4, is offered
	pin_cape P8.19 4
	check am335x-boneblack "$BATS_TEST_TMPDIR/pc"
	[ "$status" -eq 0 ]
}

# not_offered_dt DTB: "PIN MODE" for every mode the connector's cape-pads does
# not offer capes, one a line, sorted.
not_offered_dt() {
	local cells i m code
	read -ra cells <<< "$(fdtget -t u "$1" /capebus cape-pads)"
	for ((i = 0; i < ${#cells[@]}; i += 3)); do
		code=${cells[i]}
		for m in 0 1 2 3 4 5 6 7; do
			(( cells[i + 2] >> m & 1 )) || echo "P$((code / 100)).$((code % 100)) $m"
		done
	done | sort
}

# not_offered_capetool BOARD PIN...: the same, as capetool create refuses
# the pins' modes on BOARD (a definition per mode, every PIN in it).
not_offered_capetool() {
	local board=$1 m p d=$BATS_TEST_TMPDIR/modes
	shift
	mkdir -p "$d"
	for m in 0 1 2 3 4 5 6 7; do
		{
			echo 'eeprom = { board-name = "Modes"; version = "00A0"; manufacturer = "Example Labs";'
			echo '           part-number = "EXL-MODES"; serial = "0000EXLB0001"; };'
			echo 'pins = ('
			for p in "$@"; do echo "  { pin = \"$p\"; mode = $m; direction = \"out\"; },"; done
			echo '  { pin = "P9.39"; } );'
		} > "$d/mode$m.cape"
		"$CAPETOOL_RELEASE" create "$d/mode$m.cape" --board "$board" -o "$d/out/" 2>&1 |
			sed -n 's/.*pins\[[0-9]*\]\.mode: \(P[89]\.[0-9]*\): mode \([0-7]\).* is not offered to capes .*/\1 \2/p'
	done | sort
}

@test "capetool's profiles offer capes each pad's modes exactly as the connector's cape-pads does (one table)" {
	need
	local want pins=() cells i
	want=$(not_offered_dt "$BATS_FILE_TMPDIR/am335x-boneblack.dtb")
	[[ $want == *"P8.19 2"* ]]
	[[ $want != *"P8.19 4"* ]]
	# every pin with a pad (67; P9.28 offers all its eight functions)
	read -ra cells <<< "$(fdtget -t u "$BATS_FILE_TMPDIR/am335x-boneblack.dtb" /capebus cape-pads)"
	for ((i = 0; i < ${#cells[@]}; i += 3)); do
		pins+=("P$((cells[i] / 100)).$((cells[i] % 100))")
	done
	[ "${#pins[@]}" -eq 67 ]
	[ "$(cut -d' ' -f1 <<< "$want" | sort -u | wc -l)" -eq 66 ]
	for b in beaglebone-black qemu-vexpress; do
		diff -u <(echo "$want") <(not_offered_capetool "$b" "${pins[@]}")
	done
	# The Green's and the HDMI-off Black's connector: the same table.
	for b in am335x-boneblack-nohdmi am335x-bonegreen; do
		[ "$(not_offered_dt "$BATS_FILE_TMPDIR/$b.dtb")" = "$want" ]
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

@test "the connector's interrupt nexus (bone_irq) maps every gpio-map pin to its bank line, once per trigger type" {
	need
	local b
	for b in am335x-boneblack am335x-boneblack-nohdmi am335x-bonegreen; do
		run python3 - "$BATS_FILE_TMPDIR/$b.dtb" <<'PY'
import subprocess, sys
dtb = sys.argv[1]
def get(node, prop, t="u"):
    out = subprocess.run(["fdtget", "-t", t, dtb, node, prop], capture_output=True, text=True)
    return [int(x, 16 if t == "x" else 10) for x in out.stdout.split()] if out.returncode == 0 else None
nexus = "/capebus/interrupt-nexus"
assert get("/capebus/export-symbols", "bone_irq") == get(nexus, "phandle"), "bone_irq is not the nexus"
assert get(nexus, "#interrupt-cells") == [2] and get(nexus, "#address-cells") == [0]
assert get(nexus, "interrupt-map-mask", "x") == [0xffffffff, 0xffffffff]
g, m = get("/capebus", "gpio-map"), get(nexus, "interrupt-map")
want = sorted((g[i], t, g[i + 2], g[i + 3], t) for i in range(0, len(g), 5) for t in (1, 2, 3, 4, 8))
have = sorted(tuple(m[i:i + 5]) for i in range(0, len(m), 5))
assert len(m) % 5 == 0 and have == want, "interrupt-map is not gpio-map's pins by 1, 2, 3, 4, 8"
print(len(g) // 5, "pins", len(have), "entries")
PY
		echo "$b: $output"
		[ "$status" -eq 0 ]
		[ "$output" = "67 pins 335 entries" ]
	done
	# P9.12's falling edge is gpio1 line 28's, falling edge (gpio1: the
	# bank at 0x4804c000; no #address-cells, #interrupt-cells 2).
	local d=$BATS_FILE_TMPDIR/am335x-boneblack.dtb m i gpio1
	gpio1=/ocp/interconnect@48000000/segment@0/target-module@4c000/gpio@0
	[ "$(fdtget -t u "$d" "$gpio1" '#interrupt-cells')" = 2 ]
	run fdtget "$d" "$gpio1" '#address-cells'
	[ "$status" -ne 0 ]
	read -ra m <<< "$(fdtget -t u "$d" /capebus/interrupt-nexus interrupt-map)"
	gpio1=$(fdtget -t u "$d" "$gpio1" phandle)
	for ((i = 0; i < ${#m[@]}; i += 5)); do
		[ "${m[i]} ${m[i + 1]}" = "912 2" ] && break
	done
	[ "${m[*]:i:5}" = "912 2 $gpio1 28 2" ]
}

@test "an overlay taking a header pin's interrupt through bone_irq resolves through the kernel's resolver" {
	need
	pin_cape P9.12
	dtc -q -I dts -O dtb -o "$BATS_TEST_TMPDIR/pc/EXL-PIN-01-00A0.dtbo" - <<'DTS'
/dts-v1/;
/plugin/;

&bone_devices {
	keys {
		compatible = "gpio-keys";

		key-0 {
			linux,code = <0x100>;
			interrupts-extended = <&bone_irq 912 2>;
		};
	};
};
DTS
	check am335x-boneblack "$BATS_TEST_TMPDIR/pc"
	[ "$status" -eq 0 ]
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
	[[ $output == *"add only: fragment fragment@0 sets property rts-gpios of serial@"* ]]
}

# need_rpi: the Pi 4 B's DTB setup_file built, or no_ksrc.
need_rpi() {
	RPI=$BATS_FILE_TMPDIR/bcm2711-rpi-4-b.dtb
	[ -f "$RPI" ] && return 0
	no_ksrc "no bcm2711-rpi-4-b.dtb: needs the 6.12 tree with the series at $KSRC, cpp and dtc"
}

# node_of DTB PHANDLE: the path of the node whose phandle is PHANDLE
# (decimal), from dtc's decompiled tree (the DTB has no __symbols__).
node_of() {
	dtc -q -I dtb -O dts "$1" | awk -v want="$2" '
	function hex(s,  i, v) {
		v = 0
		for (i = 3; i <= length(s); i++)
			v = v * 16 + index("0123456789abcdef", substr(s, i, 1)) - 1
		return v
	}
	/^[ \t]*[^ \t]+ \{$/ { depth++; path[depth] = (depth == 1 ? "" : path[depth - 1] "/" $1); next }
	/^[ \t]*\};$/ { depth--; next }
	$1 == "phandle" {
		v = $3; gsub(/[<>;]/, "", v)
		if (hex(v) == want) { print (path[depth] == "" ? "/" : path[depth]); exit }
	}'
}

# exported DTB NAME: the path of the node the HAT connector exports as NAME.
exported() {
	local ph
	ph=$(fdtget -t u "$1" /hat-capebus/export-symbols "$2") || return 1
	node_of "$1" "$ph"
}

# group_pins DTB PATH: the header GPIOs the pin group at PATH sets, as
# GPIOn, one a line, sorted: bcm283x.dtsi's groups name them in
# brcm,pins, bcm2711.dtsi's in the pins of their subnodes ("gpio12").
group_pins() {
	local sub
	{
		fdtget -t u "$1" "$2" brcm,pins 2>/dev/null | tr ' ' '\n'
		for sub in $(fdtget -l "$1" "$2"); do
			fdtget -t s "$1" "$2/$sub" pins | tr ' ' '\n' | sed 's/^gpio//'
		done
	} | grep . | sed 's/^/GPIO/' | sort -V
}

# The units a HAT enables: exported name, the node (by its address on
# /soc), the pin groups its pinctrl-0 names (mainline's), its target-pins.
RPI_UNITS='spi0 spi@7e204000 spi0-gpio7 GPIO7,GPIO8,GPIO9,GPIO10,GPIO11
spi1 spi@7e215080 spi1-gpio16 GPIO16,GPIO17,GPIO18,GPIO19,GPIO20,GPIO21
i2s i2s@7e203000 pcm-gpio18 GPIO18,GPIO19,GPIO20,GPIO21
pwm pwm@7e20c000 pwm0-0-gpio12,pwm0-1-gpio13 GPIO12,GPIO13
uart3 serial@7e201600 uart3-gpio4 GPIO4,GPIO5
uart4 serial@7e201800 uart4-gpio8 GPIO8,GPIO9
uart5 serial@7e201a00 uart5-gpio12 GPIO12,GPIO13'

@test "the Pi 4 B's HAT connector exports SPI0, SPI1, I2S, PWM and UART3-5 by Raspberry Pi's names, each a target the board leaves disabled" {
	need_rpi
	[ "$(fdtget "$RPI" /hat-capebus compatible)" = raspberrypi,hat-capebus ]
	targets=$(fdtget -t u "$RPI" /hat-capebus cape-targets)
	while read -r name node groups pins; do
		path=$(exported "$RPI" "$name")
		[ "$path" = "/soc/$node" ] || { echo "$name is ${path:-not exported}, not /soc/$node"; return 1; }
		ph=$(fdtget -t u "$RPI" "$path" phandle)
		[[ " $targets " == *" $ph "* ]] || { echo "$name ($path) is not a cape target"; return 1; }
		[ "$(fdtget -t s "$RPI" "$path" status)" = disabled ] ||
			{ echo "$name ($path) is not left disabled"; return 1; }
	done <<< "$RPI_UNITS"
	# UART2 is on GPIO0/1, the ID bus: not exported.
	! fdtget "$RPI" /hat-capebus/export-symbols uart2
	[ "$(fdtget "$RPI" /hat-capebus board-pins)" = "GPIO0 GPIO1" ]
}

@test "the Pi 4 B's GPIO14/15 are its serial console's (console-pins): the mini UART, uart1, the board's, not exported" {
	need_rpi
	[ "$(fdtget "$RPI" /hat-capebus console-pins)" = "GPIO14 GPIO15" ]
	[ "$(fdtget "$RPI" /chosen stdout-path)" = serial1:115200n8 ]
	[ "$(fdtget "$RPI" /aliases serial1)" = /soc/serial@7e215040 ]
	[ "$(fdtget "$RPI" /soc/serial@7e215040 status)" = okay ]
	! fdtget "$RPI" /hat-capebus/export-symbols uart1
	! fdtget "$RPI" /hat-capebus/target-pins uart1
	# the pins its pinctrl-0 (the board's uart1_gpio14) sets
	g=$(node_of "$RPI" "$(fdtget -t u "$RPI" /soc/serial@7e215040 pinctrl-0)")
	[ "$(group_pins "$RPI" "$g" | paste -sd' ')" = "GPIO14 GPIO15" ]
}

@test "the Pi 4 B's interrupt nexus (hat_irq) maps GPIO0-27 to &gpio's line of the same number, once per trigger type" {
	need_rpi
	run python3 - "$RPI" <<'PY'
import subprocess, sys
dtb = sys.argv[1]
def get(node, prop, t="u"):
    out = subprocess.run(["fdtget", "-t", t, dtb, node, prop], capture_output=True, text=True)
    return [int(x, 16 if t == "x" else 10) for x in out.stdout.split()] if out.returncode == 0 else None
nexus = "/hat-capebus/interrupt-nexus"
gpio = get("/soc/gpio@7e200000", "phandle")[0]
assert get("/hat-capebus/export-symbols", "hat_irq") == get(nexus, "phandle"), "hat_irq is not the nexus"
assert get(nexus, "#interrupt-cells") == [2] and get(nexus, "#address-cells") == [0]
assert get(nexus, "interrupt-map-mask", "x") == [0xffffffff, 0xffffffff]
assert get("/soc/gpio@7e200000", "#interrupt-cells") == [2]
assert get("/soc/gpio@7e200000", "#address-cells") is None
g, m = get("/hat-capebus", "gpio-map"), get(nexus, "interrupt-map")
want = sorted((g[i], t, g[i + 2], g[i + 3], t) for i in range(0, len(g), 5) for t in (1, 2, 3, 4, 8))
have = sorted(tuple(m[i:i + 5]) for i in range(0, len(m), 5))
assert len(m) % 5 == 0 and have == want, "interrupt-map is not gpio-map's GPIOs by 1, 2, 3, 4, 8"
assert all(e[2] == gpio and e[3] == e[0] for e in have), "an entry is not &gpio's line of its number"
print(len(g) // 5, "GPIOs", len(have), "entries")
PY
	echo "$output"
	[ "$status" -eq 0 ]
	[ "$output" = "28 GPIOs 140 entries" ]
}

@test "a HAT overlay taking GPIO25's interrupt through hat_irq (as MCP2515 HATs) resolves through the kernel's resolver on the Pi 4 B" {
	need
	need_rpi
	hat_overlay can <<'DTS'
/dts-v1/;
/plugin/;
/ {
	exclusive-use = "GPIO25";
	fragment@0 {
		target = <&spi0>;
		__overlay__ {
			#address-cells = <1>;
			#size-cells = <0>;
			status = "okay";
			can@0 {
				compatible = "microchip,mcp2515";
				reg = <0>;
				spi-max-frequency = <10000000>;
				interrupt-parent = <&hat_irq>;
				interrupts = <25 8>;
			};
		};
	};
};
DTS
	run "$BATS_FILE_TMPDIR/fz/bone-connector-check" "$RPI" - "$BATS_TEST_TMPDIR/can.dtbo"
	echo "$output"
	[ "$status" -eq 0 ]
	[[ "$(sed -n 2p <<< "$output")" == "ok 1 "*"/can.dtbo: 0 pins (0 with a pad), 1 nodes, 2 references" ]]
}

@test "the Pi 4 B's I2S is usable by a HAT's sound card: DMA channels and #sound-dai-cells on the board's node" {
	need_rpi
	dma=$(fdtget -t u "$RPI" /soc/dma-controller@7e007000 phandle)
	[ "$(fdtget -t u "$RPI" /soc/i2s@7e203000 dmas)" = "$dma 2 $dma 3" ]
	[ "$(fdtget "$RPI" /soc/i2s@7e203000 dma-names)" = "tx rx" ]
	[ "$(fdtget -t u "$RPI" /soc/i2s@7e203000 '#sound-dai-cells')" = 0 ]
}

@test "the Pi 4 B's connector holds each unit's pins while a HAT enables it, the pins its pinctrl-0 (mainline's groups) sets; none of them the board's" {
	need_rpi
	board=$(fdtget "$RPI" /hat-capebus board-pins)
	[ "$(fdtget -p "$RPI" /hat-capebus/target-pins | sort | tr '\n' ' ')" = "i2s pwm spi0 spi1 uart3 uart4 uart5 " ]
	while read -r name node groups pins; do
		held=$(fdtget "$RPI" /hat-capebus/target-pins "$name" | tr ' ' ',')
		[ "$held" = "$pins" ] || { echo "target-pins $name: $held, not $pins"; return 1; }
		for p in ${pins//,/ }; do
			[[ " $board " != *" $p "* ]] || { echo "$name holds the board's $p"; return 1; }
		done
		[ "$(fdtget -t s "$RPI" "/soc/$node" pinctrl-names)" = default ]
		set=() named=()
		for ph in $(fdtget -t u "$RPI" "/soc/$node" pinctrl-0); do
			g=$(node_of "$RPI" "$ph")
			named+=("${g##*/}")
			set+=($(group_pins "$RPI" "$g"))
		done
		[ "$(IFS=,; echo "${named[*]}")" = "$groups" ] ||
			{ echo "$name's pinctrl-0: ${named[*]}, not $groups"; return 1; }
		[ "$(printf '%s\n' "${set[@]}" | sort -V | paste -sd,)" = "$pins" ] ||
			{ echo "$name's pinctrl-0 sets ${set[*]}, it holds $pins"; return 1; }
	done <<< "$RPI_UNITS"
	# SPI1's chip selects as GPIOs, CE0-CE2 on GPIO18, 17, 16, active low
	# (spi-bcm2835aux: its native ones do not work).
	gpio=$(fdtget -t u "$RPI" /soc/gpio@7e200000 phandle)
	[ "$(fdtget -t u "$RPI" /soc/spi@7e215080 cs-gpios)" = "$gpio 18 1 $gpio 17 1 $gpio 16 1" ]
}

@test "the Pi 4 B's units sharing a pin exclude each other: SPI1 and I2S (GPIO18-21), PWM and UART5 (GPIO12/13), SPI0 and UART4 (GPIO8/9)" {
	need_rpi
	# both: the pins two targets both hold, comma-separated.
	both() {
		comm -12 <(fdtget "$RPI" /hat-capebus/target-pins "$1" | tr ' ' '\n' | sort) \
			 <(fdtget "$RPI" /hat-capebus/target-pins "$2" | tr ' ' '\n' | sort) |
			sort -V | paste -sd,
	}
	[ "$(both spi1 i2s)" = GPIO18,GPIO19,GPIO20,GPIO21 ]
	[ "$(both pwm uart5)" = GPIO12,GPIO13 ]
	[ "$(both spi0 uart4)" = GPIO8,GPIO9 ]
	# and no other two
	names=$(fdtget -p "$RPI" /hat-capebus/target-pins)
	for a in $names; do
		for b in $names; do
			[[ "$a" < "$b" ]] || continue
			case "$a $b" in
			"i2s spi1" | "pwm uart5" | "spi0 uart4") continue ;;
			esac
			[ -z "$(both "$a" "$b")" ] || { echo "$a and $b share $(both "$a" "$b")"; return 1; }
		done
	done
}

# hat_overlay NAME <<DTS: a HAT overlay, compiled as Raspberry Pi's
# overlays are but without -@ (the connector refuses __symbols__).
hat_overlay() {
	dtc -q -I dts -O dtb -o "$BATS_TEST_TMPDIR/$1.dtbo" -
}

@test "the kernel's resolver takes a HAT overlay enabling SPI1, UART3 and PWM on the Pi 4 B; it refuses &gpio, a unit's property, and UART2" {
	need
	need_rpi
	hat_overlay units <<'DTS'
/dts-v1/;
/plugin/;
/ {
	fragment@0 {
		target = <&spi1>;
		__overlay__ {
			#address-cells = <1>;
			#size-cells = <0>;
			status = "okay";
			adc@0 {
				compatible = "microchip,mcp3008";
				reg = <0>;
				spi-max-frequency = <1000000>;
			};
		};
	};
	fragment@1 {
		target = <&uart3>;
		__overlay__ {
			status = "okay";
		};
	};
	fragment@2 {
		target = <&pwm>;
		__overlay__ {
			status = "okay";
		};
	};
	fragment@3 {
		target = <&hat_devices>;
		__overlay__ {
			leds {
				compatible = "gpio-leds";
				led-0 {
					gpios = <&hat_gpio 17 0>;
				};
			};
		};
	};
};
DTS
	hat_overlay gpio <<'DTS'
/dts-v1/;
/plugin/;
/ {
	fragment@0 {
		target = <&gpio>;
		__overlay__ {
			hat_pins: hat-pins {
				brcm,pins = <23>;
				brcm,function = <0>;
			};
		};
	};
};
DTS
	hat_overlay numcs <<'DTS'
/dts-v1/;
/plugin/;
/ {
	fragment@0 {
		target = <&spi0>;
		__overlay__ {
			num-cs = <2>;
			status = "okay";
		};
	};
};
DTS
	hat_overlay uart2 <<'DTS'
/dts-v1/;
/plugin/;
/ {
	fragment@0 {
		target = <&uart2>;
		__overlay__ {
			status = "okay";
		};
	};
};
DTS
	run "$BATS_FILE_TMPDIR/fz/bone-connector-check" "$RPI" - "$BATS_TEST_TMPDIR/units.dtbo" \
		- "$BATS_TEST_TMPDIR/gpio.dtbo" - "$BATS_TEST_TMPDIR/numcs.dtbo" - "$BATS_TEST_TMPDIR/uart2.dtbo"
	echo "$output"
	[ "$status" -eq 1 ]
	[[ "$(sed -n 2p <<< "$output")" == "ok 1 "*"/units.dtbo: 0 pins (0 with a pad), 3 nodes, 5 references" ]]
	[[ "$(sed -n 3p <<< "$output")" == "not ok 2 "*"/gpio.dtbo: overlay refers to &gpio, which the connector does not export"* ]]
	# A property set on a target the fragment enables: target-properties
	# (the Pi's connector lists none), as capebus-enable.c refuses it
	[[ "$(sed -n 4p <<< "$output")" == "not ok 3 "*"/numcs.dtbo: fragment fragment@0 sets property num-cs of spi0, which the connector does not let capes set (target-properties)"* ]]
	[[ "$(sed -n 5p <<< "$output")" == "not ok 4 "*"/uart2.dtbo: overlay refers to &uart2, which the connector does not export"* ]]
}

@test "ecap2: a cape enabling bone_ecap_2 (P9.28 mode 4) is refused on the Black, whose HDMI audio holds P9.28; the HDMI-off Black and the Green take it (user test 26, defect 10)" {
	need
	mkdir -p "$BATS_TEST_TMPDIR/ec"
	cat > "$BATS_TEST_TMPDIR/ec.cape" <<CAPE
eeprom = {
  board-name   = "ecap2 test cape";
  version      = "00A0";
  manufacturer = "Example Labs";
  part-number  = "EXL-ECAP2";
  serial       = "0000EXLB0001";
};
pins = ( { pin = "P9.28"; mode = "ecap2_in_pwm2_out"; direction = "out"; pull = "down"; } );
devices = ( { type = "pwm"; unit = "ecap2"; } );
CAPE
	"$CAPETOOL_RELEASE" create "$BATS_TEST_TMPDIR/ec.cape" --board beaglebone-black --variant no-hdmi \
		-o "$BATS_TEST_TMPDIR/ec/" >/dev/null
	[ "$(fdtget "$BATS_TEST_TMPDIR/ec/EXL-ECAP2-00A0.dtbo" /__fixups__ bone_ecap_2)" = /fragment@0:target:0 ]
	check am335x-boneblack "$BATS_TEST_TMPDIR/ec"
	[ "$status" -eq 1 ]
	[[ $output == *"pin P9.28 is the board's"* ]]
	check am335x-boneblack-nohdmi "$BATS_TEST_TMPDIR/ec"
	[ "$status" -eq 0 ]
	check am335x-bonegreen "$BATS_TEST_TMPDIR/ec"
	[ "$status" -eq 0 ]
	# the pad the connector writes: P9.28's, mode 4, pull-down
	[ "$(pads am335x-boneblack-nohdmi "$BATS_TEST_TMPDIR/ec" EXL-ECAP2-00A0)" = "0x19c 0x4" ]
}

@test "capetool's raspberry-pi profile states the Pi 4 B's HAT connector: exports, target-pins, cells, board and shared pins, platform compatibles" {
	need_rpi
	# the DTB's connector, one fact a line, as the profile's below
	{
		echo "board-pins $(fdtget "$RPI" /hat-capebus board-pins)"
		echo "console-pins $(fdtget "$RPI" /hat-capebus console-pins)"
		echo "shared-pins $(fdtget "$RPI" /hat-capebus shared-pins)"
		echo "platform-compatibles $(fdtget "$RPI" /hat-capebus cape-platform-compatibles)"
		for name in $(fdtget -p "$RPI" /hat-capebus/export-symbols); do
			path=$(exported "$RPI" "$name")
			if [ "$path" = /hat-capebus ]; then
				echo "export $name gpio-map"
				continue
			fi
			if [ "$path" = /hat-capebus/interrupt-nexus ]; then
				echo "export $name interrupt-map"
				continue
			fi
			pins=$(fdtget "$RPI" /hat-capebus/target-pins "$name" 2>/dev/null || true)
			cells=$(fdtget "$RPI" "$path" '#address-cells' 2>/dev/null || true)
			[ -z "$cells" ] || cells="$cells $(fdtget "$RPI" "$path" '#size-cells')"
			echo "export $name node $path pins ${pins:--} cells ${cells:--}"
		done | sort
	} > "$BATS_TEST_TMPDIR/dtb"
	# the profile's, the node by the first export naming the same target
	python3 - "$TOP/schemas/boards/raspberry-pi.board" "$BATS_TEST_TMPDIR/dtb" > "$BATS_TEST_TMPDIR/profile" <<'PY'
import re, sys
text = re.sub(r'#[^\n]*', '', open(sys.argv[1]).read())
def strings(key):
    m = re.search(r'\b' + key + r'\s*=\s*\[([^\]]*)\]', text)
    return ' '.join(re.findall(r'"([^"]*)"', m.group(1)))
nodes = {l.split()[1]: l.split()[3] for l in open(sys.argv[2]) if l.startswith('export ') and ' node ' in l}
print('board-pins', strings('board-pins'))
print('console-pins', strings('console-pins'))
print('shared-pins', strings('shared-pins'))
print('platform-compatibles', strings('platform-compatibles'))
block = re.search(r'\bexports\s*=\s*\((.*?)\);', text, re.S).group(1)
out, first = [], {}
for e in re.findall(r'\{(.*?)\}', block, re.S):
    name = re.search(r'name\s*=\s*"([^"]*)"', e).group(1)
    if re.search(r'gpio-map\s*=\s*true', e):
        out.append('export %s gpio-map' % name)
        continue
    if re.search(r'interrupt-map\s*=\s*true', e):
        out.append('export %s interrupt-map' % name)
        continue
    target = re.search(r'target\s*=\s*"([^"]*)"', e).group(1)
    first.setdefault(target, name)
    pins = re.search(r'pins\s*=\s*\[([^\]]*)\]', e)
    cells = re.search(r'cells\s*=\s*\[([^\]]*)\]', e)
    out.append('export %s node %s pins %s cells %s' % (
        name, nodes.get(first[target], '?' + target),
        ' '.join(re.findall(r'"([^"]*)"', pins.group(1))) if pins else '-',
        ' '.join(cells.group(1).replace(',', ' ').split()) if cells else '-'))
print('\n'.join(sorted(out)))
PY
	diff -u "$BATS_TEST_TMPDIR/dtb" "$BATS_TEST_TMPDIR/profile"
}
