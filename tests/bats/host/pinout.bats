#!/usr/bin/env bats
# capetool pinout: the headers as the capes use them, as text, JSON and SVG.
#
# The goldens in fixtures/pinout/ were checked by hand against the
# BeagleBone Black SRM's P8/P9 tables (pin names, fixed pins, the mode-N
# function of every claimed pin) and the definitions' pin lists; do not
# just regenerate them.  The stack is bborg-servo, the sample RTC cape's
# EEPROM image, weather-conflict and the kitchen-sink fixture.  P9.41 is the
# board's (am335x-bone-common.dtsi muxes clkout2 there), so the servo
# cape's vendor overlay leaves its IN5 off it.

load helpers

PO=$FIX/pinout
STACK=("$DEFS/bborg-servo.cape" "$GOLDEN/EXL-RTC-01-00A0.eeprom" "$DEFS/weather-conflict.cape"
       "$FIX/defs/kitchen-sink.cape")

# Every line of $output fits 80 columns.
fits_80() {
	local l
	while IFS= read -r l; do
		[ "${#l}" -le 80 ] || { echo "too wide (${#l}): $l" >&2; return 1; }
	done <<< "$output"
}

@test "pinout of one cape matches the golden drawing" {
	run ct pinout --board beaglebone-black "$DEFS/weather.cape"
	no_sanitizer_report
	[ "$status" -eq 0 ]
	diff -u "$PO/one.txt" <(printf '%s\n' "$output")
	fits_80
}

@test "pinout of four stacked capes (definitions and an image) matches the golden" {
	run ct pinout --board beaglebone-black "${STACK[@]}"
	no_sanitizer_report
	[ "$status" -eq 0 ]
	diff -u "$PO/stack.txt" <(printf '%s\n' "$output")
	fits_80
}

@test "a conflicting pair: exit 5, the pin marked and both claimants named" {
	run ct pinout --board beaglebone-black "$DEFS/weather.cape" "$DEFS/weather-conflict.cape"
	no_sanitizer_report
	[ "$status" -eq 5 ]
	diff -u "$PO/conflict.txt" <(printf '%s\n' "$output")
	fits_80
	[[ "$output" == *"! A+B CONFLICT EHRPWM2B 13 () () 14"* ]]
	[[ "$output" == *"P8.13 is claimed by A BB-WTHR-01 (mode7 out no-pull fast) and"* ]]
}

@test "a cape on a board pin conflicts with the board, named with its use" {
	f=$(mkdef emmc.cape <<'CAPE'
eeprom = { board-name = "X"; version = "00A0"; manufacturer = "M"; part-number = "BB-EMMC"; };
pins = ( { pin = "P8.3"; mode = 7; direction = "in"; } );
CAPE
)
	run ct pinout --board beaglebone-black "$f"
	[ "$status" -eq 5 ]
	[[ "$output" == *"! board+A CONFLICT GPIO1_6  3 () () 4  # eMMC DAT7"* ]]
	[[ "$output" == *"P8.3 is claimed by the board (eMMC DAT6) and"$'\n'"      A BB-EMMC (mode7 in no-pull rx fast)"* ]]
}

@test "an EEPROM image draws as its definition does (content, not name, decides)" {
	cp "$GOLDEN/BB-WTHR-01-00A2.eeprom" "$BATS_TEST_TMPDIR/weather.cape"
	run ct pinout --board beaglebone-black "$BATS_TEST_TMPDIR/weather.cape"
	[ "$status" -eq 0 ]
	diff -u "$PO/one.txt" <(printf '%s\n' "$output")
	# an A0 image: its pin words taken by index
	run ct pinout --board beaglebone-black "$FIX/images/weather-a0.eeprom"
	[ "$status" -eq 0 ]
	[[ "$output" == *"A gpio0_23 m7 out 13 () () 14"* ]]
	# a broken image says why, as decode does
	run ct pinout --board beaglebone-black "$FIX/images/bad-crc.eeprom"
	[ "$status" -eq 13 ]
	[[ "$output" == *"bad CRC"* ]]
}

@test "the QEMU board: fixed pins and reserved pins from its profile, modes unknown" {
	run ct pinout --board qemu-vexpress "$DEFS/weather.cape"
	[ "$status" -eq 0 ]
	[[ "$output" == *"= DGND  1 [] () 2  = DGND"* ]]
	[[ "$output" == *"# reserved: eMMC DAT6  3 () () 4  # reserved: eMMC DAT7"* ]]
	[[ "$output" == *"A m7 out 13 () () 14 . GPIO0_26"* ]]
	[[ "$output" == *"A m3 io up 19 () () 20 ~ I2C2 SDA: cape EEPROMs"* ]]
	fits_80
}

@test "no colour when piped; --color=always colours; NO_COLOR is respected on a tty" {
	run ct pinout --board beaglebone-black "$DEFS/weather.cape" "$DEFS/weather-conflict.cape"
	[[ "$output" != *$'\e['* ]]
	run ct pinout --color=always --board beaglebone-black "$DEFS/weather.cape" "$DEFS/weather-conflict.cape"
	[[ "$output" == *$'\e[1;97;41m! A+B CONFLICT EHRPWM2B\e[0m'* ]]
	[[ "$output" == *$'\e[32mA i2c2_scl m3 io up\e[0m'* ]]
	run ct pinout --color=never --board beaglebone-black "$DEFS/weather.cape"
	[[ "$output" != *$'\e['* ]]
	# on a terminal (script(1) gives it a pty)
	run script -qec "'$CAPETOOL' pinout --board beaglebone-black '$DEFS/weather.cape'" /dev/null
	[[ "$output" == *$'\e[32mA gpio0_23 m7 out\e[0m'* ]]
	NO_COLOR=1 run script -qec "'$CAPETOOL' pinout --board beaglebone-black '$DEFS/weather.cape'" /dev/null
	[[ "$output" == *"A gpio0_23 m7 out"* ]]
	[[ "$output" != *$'\e['* ]]
	run ct pinout --color=sometimes "$DEFS/weather.cape"
	[ "$status" -eq 2 ]
}

@test "no colour on a terminal that cannot show it: TERM=dumb, or no TERM (clig.dev); --color=always still colours" {
	TERM=dumb run script -qec "'$CAPETOOL' pinout --board beaglebone-black '$DEFS/weather.cape'" /dev/null
	[[ "$output" == *"A gpio0_23 m7 out"* ]]
	[[ "$output" != *$'\e['* ]]
	run env -u TERM script -qec "'$CAPETOOL' pinout --board beaglebone-black '$DEFS/weather.cape'" /dev/null
	[[ "$output" == *"A gpio0_23 m7 out"* ]]
	[[ "$output" != *$'\e['* ]]
	TERM=xterm run script -qec "'$CAPETOOL' pinout --board beaglebone-black '$DEFS/weather.cape'" /dev/null
	[[ "$output" == *$'\e[32mA gpio0_23 m7 out\e[0m'* ]]
	TERM=dumb run script -qec "'$CAPETOOL' pinout --color=always --board beaglebone-black '$DEFS/weather.cape'" /dev/null
	[[ "$output" == *$'\e[32mA gpio0_23 m7 out\e[0m'* ]]
}

@test "--json is valid JSON with every pin, its claims and the conflicts" {
	ct pinout --json --board beaglebone-black "$DEFS/weather.cape" "$DEFS/weather-conflict.cape" \
		> "$BATS_TEST_TMPDIR/p.json" || [ $? -eq 5 ]
	python3 -m json.tool "$BATS_TEST_TMPDIR/p.json" > /dev/null
	run python3 - "$BATS_TEST_TMPDIR/p.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
assert d["board"] == "beaglebone-black"
assert [c["part_number"] for c in d["capes"]] == ["BB-WTHR-01", "BB-HUMID-01"]
pins = {p["pin"]: p for h in d["headers"] for p in h["pins"]}
assert len(pins) == 92 and [h["header"] for h in d["headers"]] == ["P8", "P9"]
assert pins["P9.1"]["kind"] == "fixed" and pins["P9.1"]["fixed"] == "DGND"
assert pins["P9.3"]["fixed"] == "VDD_3V3" and pins["P9.32"]["fixed"] == "VDD_ADC"
assert pins["P8.3"]["kind"] == "board" and pins["P8.3"]["use"] == "eMMC DAT6"
assert pins["P9.20"]["kind"] == "shared"
assert pins["P8.7"]["kind"] == "free" and pins["P8.7"]["signal"] == "TIMER4"
c = pins["P9.19"]["claims"]
assert pins["P9.19"]["kind"] == "cape" and len(c) == 1
assert (c[0]["cape"], c[0]["mode"], c[0]["function"], c[0]["direction"], c[0]["pull"],
        c[0]["rx"], c[0]["slew"]) == ("A", 3, "i2c2_scl", "bidir", "up", True, "slow")
assert c[0]["pins"] == "P9.19 mode3 bidir pull-up rx slow"
assert pins["P9.39"]["claims"][0].get("analog") is True
assert pins["P8.13"]["kind"] == "conflict"
assert d["conflicts"] == [{"pin": "P8.13", "claimants": ["BB-WTHR-01", "BB-HUMID-01"]}]
assert pins["P8.15"]["claims"][0]["function"] == "gpio1_15"
print("ok")
PY
	echo "$output"
	[ "$output" = ok ]
}

svg_check() {	# svg_check FILE PIN... : well-formed, each PIN drawn as a cape's
	python3 - "$@" <<'PY'
import sys, xml.etree.ElementTree as ET
ns = {"s": "http://www.w3.org/2000/svg"}
root = ET.parse(sys.argv[1]).getroot()
assert root.tag == "{http://www.w3.org/2000/svg}svg", root.tag
assert root.get("width").endswith("in") and root.get("viewBox").startswith("0 0 ")
g = {e.get("id"): e for e in root.iter("{http://www.w3.org/2000/svg}g") if e.get("id")}
drawn = [k for k in g if k.startswith("P8.") or k.startswith("P9.")]
assert len(drawn) == 92, len(drawn)
for pin in sys.argv[2:]:
    cls = g[pin].get("class").split()
    assert "cape" in cls or "conflict" in cls, (pin, cls)
    assert pin in g[pin].find("s:title", ns).text
used = {k for k in drawn if set(g[k].get("class").split()) & {"cape", "conflict"}}
assert used == set(sys.argv[2:]), sorted(used ^ set(sys.argv[2:]))
# pins on the 0.1" grid: 100 units (mils) apart
ys = sorted({float(c.get("cy")) for c in g["P9"].iter("{http://www.w3.org/2000/svg}circle")})
assert all(abs(b - a - 100) < 1e-6 for a, b in zip(ys, ys[1:])), ys
print("ok")
PY
}

@test "--svg writes a well-formed drawing with every used pin, atomically" {
	out=$BATS_TEST_TMPDIR/p.svg
	run ct pinout --svg "$out" --board beaglebone-black "$DEFS/weather.cape" "$DEFS/weather-conflict.cape"
	no_sanitizer_report
	[ "$status" -eq 5 ]
	run svg_check "$out" P9.19 P8.13 P9.39 P8.15
	echo "$output"
	[ "$output" = ok ]
	grep -q 'id="P8.13" class="pin conflict" data-capes="A+B"' "$out"
	grep -q 'P8.13 is claimed by A BB-WTHR-01 (mode7 out no-pull fast) and B BB-HUMID-01' "$out"
	# nothing left beside it; an unwritable place fails without a partial file
	[ "$(ls "$BATS_TEST_TMPDIR")" = p.svg ]
	run ct pinout --svg "$BATS_TEST_TMPDIR/no/such/dir/p.svg" "$DEFS/weather.cape"
	[ "$status" -eq 4 ]
	[ ! -e "$BATS_TEST_TMPDIR/no" ]
}

@test "the stacked and conflicting SVGs render to PNG (build/pinout/ for a person to look at)" {
	command -v rsvg-convert || { echo "rsvg-convert missing: scripts/deps.sh installs librsvg2-bin" >&2; false; }
	mkdir -p "$TOP/build/pinout"
	ct pinout --svg "$TOP/build/pinout/stack.svg" --board beaglebone-black "${STACK[@]}" > /dev/null
	ct pinout --svg "$TOP/build/pinout/conflict.svg" --board beaglebone-black \
		"$DEFS/weather.cape" "$DEFS/weather-conflict.cape" > /dev/null || [ $? -eq 5 ]
	for n in stack conflict; do
		rm -f "$TOP/build/pinout/$n.png"
		rsvg-convert -d 150 -p 150 "$TOP/build/pinout/$n.svg" -o "$TOP/build/pinout/$n.png"
		[ "$(head -c 8 "$TOP/build/pinout/$n.png" | od -An -tx1 | tr -d ' ')" = 89504e470d0a1a0a ]
		[ "$(stat -c %s "$TOP/build/pinout/$n.png")" -gt 20000 ]
	done
	run svg_check "$TOP/build/pinout/stack.svg" P8.10 P8.11 P8.12 P8.13 P8.15 P9.12 P9.15 P9.17 \
		P9.18 P9.19 P9.20 P9.21 P9.22 P9.24 P9.26 P9.27 P9.30 P9.40 P9.42
	echo "$output"
	[ "$output" = ok ]
	# one colour per cape: four capes, four swatches of their own
	[ "$(grep -o 'r="32" fill="#[0-9a-f]*"' "$TOP/build/pinout/stack.svg" | sort -u | wc -l)" -ge 4 ]
}

# fake_sysfs (helpers.bash) plus a second cape, declared through configfs.
live_tree() {
	fake_sysfs "$1"
	local c=$1/bus/capebus/devices/capebus0-slot2
	mkdir -p "$c"
	echo "Kitchen Sink Cape" > "$c/board_name"; echo 00A0 > "$c/version"
	echo BB-SINK-01 > "$c/part_number"; echo 2 > "$c/slot"
	printf 'P9.17 mode0 out no-pull fast\nP9.21 mode0 in pull-up rx fast\nP9.22 mode0 bidir pull-down rx slow\nP9.40\n' > "$c/pins"
}

@test "--live on a bone header leaves out the capes of another header family (a HAT on a Pi header)" {
	live_tree "$BATS_TEST_TMPDIR/sys"
	local h=$BATS_TEST_TMPDIR/sys/bus/capebus/devices/capebus1-slot0
	mkdir -p "$h"
	echo "LED HAT+" > "$h/board_name"; echo 0x0001 > "$h/version"
	echo "LED HAT+" > "$h/part_number"; echo 0 > "$h/slot"; echo rpi > "$h/family"
	printf 'GPIO17 output\n' > "$h/pins"
	CAPETOOL_SYSFS=$BATS_TEST_TMPDIR/sys run ct pinout --live --board beaglebone-black
	no_sanitizer_report
	[ "$status" -eq 0 ]
	[[ "$output" == *"  B BB-SINK-01 00A0"* ]]
	[[ "$output" != *"LED HAT+"* ]]
}

@test "--live draws the capes the kernel reports, from their pins files" {
	live_tree "$BATS_TEST_TMPDIR/sys"
	CAPETOOL_SYSFS=$BATS_TEST_TMPDIR/sys run ct pinout --live --board beaglebone-black
	no_sanitizer_report
	[ "$status" -eq 0 ]
	fits_80
	[[ "$output" == *"  A BB-WTHR-01 00A2 \"Weather Cape\" (capebus0-slot0, slot 0), 3 pins"* ]]
	[[ "$output" == *"  B BB-SINK-01 00A0 \"Kitchen Sink Cape\" (capebus0-slot2, slot 2), 4 pins"* ]]
	[[ "$output" == *"A gpio0_23 m7 out 13 () () 14"* ]]
	[[ "$output" == *"B spi0_d0 m0 in up 21 () () 22 B spi0_sclk m0 io down"* ]]
	# the JSON's claims say again exactly what each pins file says
	CAPETOOL_SYSFS=$BATS_TEST_TMPDIR/sys ct pinout --live --json --board beaglebone-black > "$BATS_TEST_TMPDIR/l.json"
	run python3 - "$BATS_TEST_TMPDIR/l.json" "$BATS_TEST_TMPDIR/sys/bus/capebus/devices" <<'PY'
import json, os, sys
d = json.load(open(sys.argv[1]))
got = {}
for h in d["headers"]:
    for p in h["pins"]:
        for c in p["claims"]:
            got.setdefault(c["part_number"], set()).add(c["pins"])
want = {}
for dev in os.listdir(sys.argv[2]):
    part = open(os.path.join(sys.argv[2], dev, "part_number")).read().strip()
    want[part] = set(l for l in open(os.path.join(sys.argv[2], dev, "pins")).read().splitlines() if l)
assert got == want, (got, want)
print("ok")
PY
	echo "$output"
	[ "$output" = ok ]
}

@test "--live with a planned cape: the conflict with a loaded one is shown" {
	live_tree "$BATS_TEST_TMPDIR/sys"
	CAPETOOL_SYSFS=$BATS_TEST_TMPDIR/sys run ct pinout --live --board beaglebone-black "$DEFS/weather-conflict.cape"
	[ "$status" -eq 5 ]
	[[ "$output" == *"P8.13 is claimed by A BB-WTHR-01 (mode7 out no-pull fast) and"* ]]
	[[ "$output" == *"C BB-HUMID-01 (mode7 out no-pull fast)"* ]]
}

@test "--live without capebus, or with an unreadable pins line, fails saying so" {
	mkdir -p "$BATS_TEST_TMPDIR/empty"
	CAPETOOL_SYSFS=$BATS_TEST_TMPDIR/empty run ct pinout --live
	[ "$status" -eq 9 ]
	[[ "$output" == *"bus/capebus/devices"* ]]
	live_tree "$BATS_TEST_TMPDIR/sys"
	echo "P9.17 mode9 out no-pull fast" > "$BATS_TEST_TMPDIR/sys/bus/capebus/devices/capebus0-slot2/pins"
	CAPETOOL_SYSFS=$BATS_TEST_TMPDIR/sys run ct pinout --live --board beaglebone-black
	[ "$status" -eq 1 ]
	[[ "$output" == *'capebus0-slot2/pins: cannot read "P9.17 mode9 out no-pull fast"'* ]]
	no_sanitizer_report
}

@test "a bad input to pinout is reported" {
	run ct pinout --board beaglebone-black "$BATS_TEST_TMPDIR/missing.cape"
	[ "$status" -eq 4 ]
	f=$(weather_with 'bogus = 1;')
	run ct pinout --board beaglebone-black "$f"
	[ "$status" -eq 3 ]
	[[ "$output" == *"bogus: unknown key"* ]]
}

@test "a profile's header table is checked when it loads" {
	b=$BATS_TEST_TMPDIR/b.board
	sed 's/{ pin = "P9.32"; fixed = "VDD_ADC"; }/{ pin = "P9.32"; use = "x"; }/' \
		"$TOP/schemas/boards/beaglebone-black.board" > "$b"
	! cmp -s "$b" "$TOP/schemas/boards/beaglebone-black.board"
	run ct pinout --board "$b" "$DEFS/weather.cape"
	[ "$status" -eq 1 ]
	[[ "$output" == *'header: P9.32 is no signal pin and has no "fixed" name'* ]]
	sed 's/{ pin = "P8.1"; fixed = "DGND"; }/{ pin = "P8.13"; fixed = "DGND"; }/' \
		"$TOP/schemas/boards/beaglebone-black.board" > "$b"
	run ct pinout --board "$b" "$DEFS/weather.cape"
	[ "$status" -eq 1 ]
	[[ "$output" == *"header: P8.13 is a signal pin, not a fixed one"* ]]
	sed 's/{ pin = "P9.1"; fixed = "DGND"; }/{ pin = "P9.1"; fixed = "DGND"; name = "X"; }/' \
		"$TOP/schemas/boards/beaglebone-black.board" > "$b"
	run ct pinout --board "$b" "$DEFS/weather.cape"
	[ "$status" -eq 1 ]
	[[ "$output" == *"header: P9.1: only a signal pin takes a name"* ]]
	# the names drawn are the profile's
	sed 's/{ pin = "P8.7"; name = "TIMER4";/{ pin = "P8.7"; name = "MY_TIMER";/' \
		"$TOP/schemas/boards/beaglebone-black.board" > "$b"
	run ct pinout --board "$b" "$DEFS/weather.cape"
	[ "$status" -eq 0 ]
	[[ "$output" == *" . MY_TIMER  7 () () 8  . TIMER7"* ]]
}

@test "pinout has --help and is listed by capetool --help" {
	run ct pinout --help
	[ "$status" -eq 0 ]
	[[ "$output" == *"usage: capetool pinout"* ]]
	run ct help pinout
	[[ "$output" == *"usage: capetool pinout"* ]]
	run ct --help
	[[ "$output" == *"  pinout "* ]]
	[[ "$output" == *"5  check: pin, bus address or slot conflict; pinout: pin conflict"* ]]
}

@test "with the I2C2 pins shared, the capes of cape-defs/ stack; each is named on the pin" {
	# what the profiles say once they list P9.19/P9.20 in shared-pins
	b=$BATS_TEST_TMPDIR/shared.board
	sed 's/^shared-pins = .*;/shared-pins = ["P9.19", "P9.20"];/' \
		"$TOP/schemas/boards/beaglebone-black.board" > "$b"
	grep -qx 'shared-pins = \["P9.19", "P9.20"\];' "$b"
	run ct pinout --board "$b" "$DEFS/weather.cape" "$DEFS/circuitco-weather.cape" \
		"$DEFS/scs-dfe.cape" "$DEFS/bborg-servo.cape" "$DEFS/rtc.cape"
	no_sanitizer_report
	[ "$status" -eq 0 ]
	fits_80
	[[ "$output" == *"A+B+C+D i2c2_scl m3 io up 19 () () 20 B+C+D i2c2_sda m3 io up"* ]]
	[[ "$output" != *Conflicts:* ]]
	# and without shared pins they do conflict there
	sed 's/^shared-pins = .*;/shared-pins = [];/' "$TOP/schemas/boards/beaglebone-black.board" > "$b"
	run ct pinout --board "$b" "$DEFS/weather.cape" "$DEFS/bborg-servo.cape"
	[ "$status" -eq 5 ]
	[[ "$output" == *"! A+B CONFLICT I2C2_SCL 19 () () 20 B i2c2_sda m3 io up"* ]]
}

@test "pinout --board B without capes draws the blank header map" {
	run ct pinout --board beaglebone-black
	echo "$output"
	no_sanitizer_report
	[ "$status" -eq 0 ]
	fits_80
	[[ "$output" == *"= DGND  1 [] () 2  = DGND"* ]]
	[[ "$output" == *". TIMER4  7 () () 8  . TIMER7"* ]]
	[[ "$output" == *"~ I2C2 SCL: cape EEPROMs 19 () () 20 ~ I2C2 SDA: cape EEPROMs"* ]]
	[[ "$output" == *"Capes: none"* ]]
	[[ "$output" != *Conflicts:* ]]
	run ct pinout --board qemu-vexpress --json
	[ "$status" -eq 0 ]
	python3 -c 'import json,sys; d=json.load(sys.stdin); assert d["capes"] == [] and len(d["headers"]) == 2' <<< "$output"
	# without --board: the detected board's (beaglebone-black off a bone)
	run ct pinout
	[ "$status" -eq 0 ]
	[[ "$output" == *"Board beaglebone-black."* ]]
}

# svg_page FILE: the drawing's size in inches fits A4 and Letter in
# landscape with 0.5" margins (10 x 7.27 in), and it says so.
svg_page() {
	python3 - "$1" <<'PY'
import sys, xml.etree.ElementTree as ET
root = ET.parse(sys.argv[1]).getroot()
w, h = (float(root.get(k)[:-2]) for k in ("width", "height"))
assert root.get("width").endswith("in") and root.get("height").endswith("in")
assert w <= 10.0 and h <= 7.27, (w, h)
print("ok %.2f x %.2f in" % (w, h))
PY
}

@test "the SVG fits A4 and Letter landscape, shows the board's orientation and names each cape's devices" {
	out=$BATS_TEST_TMPDIR/p.svg
	run ct pinout --svg "$out" --board beaglebone-black "$DEFS/weather.cape" "${STACK[@]}"
	no_sanitizer_report
	[ "$status" -eq 5 ]
	run svg_page "$out"
	echo "$output"
	[[ "$output" == "ok "* ]]
	grep -q 'landscape' "$out"
	# where pin 1 is, as on the board: the headers' ends named
	grep -q '<g id="orientation"' "$out"
	grep -q 'Ethernet' "$out"
	grep -q 'USB host' "$out"
	# the devices a cape puts on its pins, on the pins and in the legend
	python3 - "$out" <<'PY'
import sys, xml.etree.ElementTree as ET
S = "{http://www.w3.org/2000/svg}"
root = ET.parse(sys.argv[1]).getroot()
g = {e.get("id"): e for e in root.iter(S + "g") if e.get("id")}
def text(e): return " ".join("".join(t.itertext()) for t in e.iter(S + "text"))
assert "LED weather:status" in text(g["P8.13"]), text(g["P8.13"])
assert "tmp105" in text(g["P9.19"]), text(g["P9.19"])
assert "w1-gpio" in text(g["P9.15"]), text(g["P9.15"])
assert "key enter" in text(g["P9.12"]), text(g["P9.12"])
legend = text(g["legend"])
assert "LED weather:status (P8.13)" in legend, legend
print("ok")
PY
	# a blank map is a page too
	ct pinout --svg "$out" --board beaglebone-black > /dev/null
	run svg_page "$out"
	[[ "$output" == "ok "* ]]
}
