# Shared setup for the capetool host suites.
# CAPETOOL: binary under test: the test build (ASan/UBSan, and the
# CAPETOOL_FAULT_* hooks the release build does not have), as make -C
# capetool check passes it.  CAPETOOL_RELEASE: the release build.
TOP=$(cd "$BATS_TEST_DIRNAME/../../.." && pwd)
CAPETOOL=${CAPETOOL:-$TOP/build/capetool/asan/capetool}
CAPETOOL_RELEASE=${CAPETOOL_RELEASE:-$TOP/build/capetool/host/capetool}
DEFS=$TOP/cape-defs
GOLDEN=$TOP/capetool/tests/golden
FIX=$BATS_TEST_DIRNAME/fixtures
# The 6.12 tree `make kernel` unpacks, in the same cache as the Makefile's.
KSRC=${KSRC:-${CAPEBUS_CACHE:-$HOME/.cache/capebus}/linux-6.12}
# The sanitizers stop at their first report and exit 86, a status no
# capetool command gives: a test expecting capetool's exit 1 cannot mistake
# a sanitizer's for it.
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=0:halt_on_error=1:exitcode=86}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1:exitcode=86}
export LSAN_OPTIONS=${LSAN_OPTIONS:-exitcode=86}
unset CAPETOOL_SYSFS CAPETOOL_FAULT_VERIFY_OFFSET

# What a sanitizer prints when it finds something.
SANITIZER_REPORT='ERROR: (Address|Leak|Memory|Thread)Sanitizer|runtime error:|SUMMARY: [A-Za-z]+Sanitizer'

# ct ARGS...: capetool.  Its stderr still reaches the caller (and `run`'s
# $output), and is also kept in the test's sanitizer log: a report there
# fails the test in teardown, whatever the exit status and whatever the
# test did with it (`run ct`, `! ct`, `ct ... || true`).  Where the caller
# reads both streams as one (`run`), capetool writes both into one file, so
# they keep the order capetool wrote them in: through a pipe to tee, stderr
# could reach `run` before, after or in the middle of a line of stdout, and
# a test matching a line failed at random.  Otherwise stdout goes straight
# to the caller's (a file, a pipe), and stderr through a file.
ct() {
	local rc tmp=$BATS_TEST_TMPDIR/.ct-output
	if [ /dev/fd/1 -ef /dev/fd/2 ]; then
		"$CAPETOOL" "$@" >"$tmp" 2>&1
		rc=$?
		cat "$tmp" >> "$BATS_TEST_TMPDIR.capetool-stderr"
		cat "$tmp"
	else
		"$CAPETOOL" "$@" 2>"$tmp"
		rc=$?
		cat "$tmp" >> "$BATS_TEST_TMPDIR.capetool-stderr"
		cat "$tmp" >&2
	fi
	rm -f "$tmp"
	return "$rc"
}

# Every test of the host suites ends here (a file that needs its own
# teardown must call it).
teardown() {
	sanitizer_teardown
}

sanitizer_teardown() {
	local log=$BATS_TEST_TMPDIR.capetool-stderr
	if [ -f "$log" ] && grep -qE "$SANITIZER_REPORT" "$log"; then
		echo "a sanitizer reported an error in capetool during this test:" >&2
		grep -E -A 12 "$SANITIZER_REPORT" "$log" | head -n 40 >&2
		return 1
	fi
}

# A sanitizer report anywhere in the output fails the test (at once; the
# teardown would fail it anyway).
no_sanitizer_report() {
	if grep -qE "$SANITIZER_REPORT" <<< "$output"; then
		echo "$output" >&2
		return 1
	fi
}

# Write a definition into the test's temp dir: mkdef NAME <<'EOF' ... EOF
mkdef() {
	cat > "$BATS_TEST_TMPDIR/$1"
	echo "$BATS_TEST_TMPDIR/$1"
}

# The weather cape with one line replaced/added, for error-path tests.
weather_with() {
	{ cat "$DEFS/weather.cape"; printf '%s\n' "$@"; } > "$BATS_TEST_TMPDIR/w.cape"
	echo "$BATS_TEST_TMPDIR/w.cape"
}

# Base device trees with symbols, built once per suite (needs the 6.12 tree).
build_base_dtbs() {
	local out=$1
	[ -f "$out/bbb.dtb" ] && [ -f "$out/vexpress.dtb" ] && return 0
	[ -d "$KSRC/arch/arm/boot/dts" ] || return 1
	cpp -nostdinc -undef -D__DTS__ -x assembler-with-cpp \
		-I "$KSRC/arch/arm/boot/dts" -I "$KSRC/arch/arm/boot/dts/ti/omap" \
		-I "$KSRC/include" -I "$KSRC/scripts/dtc/include-prefixes" \
		"$KSRC/arch/arm/boot/dts/ti/omap/am335x-boneblack.dts" |
		dtc -q -@ -i "$KSRC/arch/arm/boot/dts/ti/omap" -I dts -O dtb -o "$out/bbb.dtb" - || return 1
	# The test board's connector resolves overlays through its
	# export-symbols (the kernel does: capebus-fdt.c); fdtoverlay knows only
	# __symbols__, so each exported name becomes a label of its node here:
	# "bone_i2c_2 = <&v2m_i2c_dvi>;" -> "bone_i2c_2: &v2m_i2c_dvi { };"
	# (both connectors' names: the bone's and the 40-pin header's).
	{
		cat "$TOP/tests/qemu/capebus-vexpress-a9.dts"
		sed -n '/export-symbols {/,/};/s/^[[:space:]]*\([a-z0-9_]*\) = <&\([a-z0-9_]*\)>;/\1: \&\2 { };/p' \
			"$TOP/tests/qemu/capebus-vexpress-a9.dts" |
			sed '/^\([a-z0-9_]*\): &\1 { };$/d'	# a name that is its node's label already
	} | cpp -nostdinc -undef -D__DTS__ -x assembler-with-cpp \
		-I "$KSRC/arch/arm/boot/dts" -I "$KSRC/include" \
		-I "$KSRC/scripts/dtc/include-prefixes" - |
		dtc -q -@ -I dts -O dtb -o "$out/vexpress.dtb" - || return 1
}

# no_ksrc WHY [SKIP]: what a test does when what it needs from the 6.12
# tree (or the kernel built from it) is missing: a skip, saying SKIP, when
# the suite runs alone without it; a failure, saying WHY, under make check
# (CB_REQUIRE_KSRC=1), which builds them first.
no_ksrc() {
	if [ "${CB_REQUIRE_KSRC:-0}" = 1 ]; then
		echo "$1" >&2
		return 1
	fi
	skip "${2:-no 6.12 tree at $KSRC}"
}

# need_base_dtb NAME: the base DTB built by build_base_dtbs (setup_file),
# or no_ksrc.
need_base_dtb() {
	[ -f "$BASE_DTBS/$1" ] && return 0
	no_ksrc "no $1: the base DTBs need the 6.12 tree at $KSRC, and dtc to build them"
}

# dtc_clean DTBO: dtc decompiles it, and compiles the source back as an
# overlay (/plugin/), without a warning.  dtc 1.6 reading a .dtb does not
# know it is an overlay and warns about every phandle the overlay leaves to
# __fixups__ (0xffffffff), and then takes the next cell, the GPIO line,
# for a phandle: "Could not get phandle node", or, where the line equals a
# phandle of the overlay's own (gpio2 line 1 and pin group 1), "Missing
# property '#gpio-cells'" of that node.  Those warnings are allowed in the
# first pass only: the second pass, as an overlay, runs the same check
# knowing it.
dtc_clean() {
	local w1 w2
	w1=$(dtc -I dtb -O dts -o "$BATS_TEST_TMPDIR/o.dts" "$1" 2>&1 |
		grep -v -E 'Warning \((gpios_property|interrupts_extended_property)\): .*: (Could not get phandle node for \(cell [0-9]+\)|Missing property .#(gpio|interrupt)-cells. in node .* or bad phandle \(referred from [a-z-]+\[[0-9]+\]\))$') || true
	[ -z "$w1" ] || { echo "$1: $w1"; return 1; }
	sed -i 's|^/dts-v1/;|/dts-v1/;\n/plugin/;|' "$BATS_TEST_TMPDIR/o.dts"
	w2=$(dtc -I dts -O dtb -o /dev/null "$BATS_TEST_TMPDIR/o.dts" 2>&1) ||
		{ echo "$1: $w2"; return 1; }
	[ -z "$w2" ] || { echo "$1: $w2"; return 1; }
}

# resolved DEF DIR [BOARD]: create DEF's portable overlay and resolve it
# for BOARD (default beaglebone-black), the pin words from DEF; both land
# in DIR (<part>-<version>.dtbo and <part>-<version>.BOARD.dtbo); print the
# resolved one.
resolved() {
	local board=${3:-beaglebone-black} tmp f
	tmp=$(mktemp -d "$BATS_TEST_TMPDIR/create.XXXXXX")
	ct create "$1" --board "$board" -o "$tmp" >/dev/null || return
	f=$(cd "$tmp" && ls -- *.dtbo) || return
	mkdir -p "$2" && cp "$tmp/$f" "$2/$f" && rm -rf "$tmp" || return
	ct resolve --board "$board" --cape "$1" "$2/$f" -o "$2/${f%.dtbo}.$board.dtbo" >/dev/null || return
	echo "$2/${f%.dtbo}.$board.dtbo"
}

# A fake /sys for list, decode --slot and flash --slot.
# fake_sysfs DIR: capebus0 with slots 0-3; slot 0 holds the weather cape.
fake_sysfs() {
	local s=$1 i
	for i in 0 1 2 3; do
		mkdir -p "$s/class/capebus/capebus0/slot$i"
		echo empty > "$s/class/capebus/capebus0/slot$i/state"
		echo > "$s/class/capebus/capebus0/slot$i/reason"
		# no EEPROM, no cape: no nvmem or cape link
	done
	echo loaded > "$s/class/capebus/capebus0/slot0/state"
	ln -s ../../../../bus/nvmem/devices/0-00540 "$s/class/capebus/capebus0/slot0/nvmem"
	ln -s ../../../../bus/capebus/devices/capebus0-slot0 "$s/class/capebus/capebus0/slot0/cape"
	ln -s ../../../../bus/nvmem/devices/0-00550 "$s/class/capebus/capebus0/slot1/nvmem"
	echo failed > "$s/class/capebus/capebus0/slot2/state"
	echo "pin P8.13 is held by BB-WTHR-01 (slot 0)" > "$s/class/capebus/capebus0/slot2/reason"
	ln -s ../../../../bus/nvmem/devices/0-00560 "$s/class/capebus/capebus0/slot2/nvmem"
	mkdir -p "$s/bus/nvmem/devices/0-00540" "$s/bus/nvmem/devices/0-00550" "$s/bus/nvmem/devices/0-00560"
	{ cat "$GOLDEN/BB-WTHR-01-00A2.eeprom"; head -c 2000 /dev/zero | tr '\0' '\377'; } \
		> "$s/bus/nvmem/devices/0-00540/nvmem"
	head -c 4096 /dev/zero | tr '\0' '\377' > "$s/bus/nvmem/devices/0-00550/nvmem"
	cp "$GOLDEN/BB-HUMID-01-00A0.eeprom" "$s/bus/nvmem/devices/0-00560/nvmem"
	local c=$s/bus/capebus/devices/capebus0-slot0
	mkdir -p "$c"
	echo "Weather Cape" > "$c/board_name"; echo 00A2 > "$c/version"
	echo "Example Labs" > "$c/manufacturer"; echo BB-WTHR-01 > "$c/part_number"
	echo 4012EXLB0042 > "$c/serial"; echo A1 > "$c/format"; echo 0 > "$c/slot"
	echo eeprom > "$c/overlay"; echo > "$c/overlay_file"
	printf 'P9.19 mode3 bidir pull-up rx slow\nP8.13 mode7 out no-pull fast\nP9.39\n' > "$c/pins"
	printf 'vdd-3v3b 150\nvdd-5v 0\nsys-5v 0\ndc-supplied 0\n' > "$c/currents"
}

# hat_patch IN OUT PYTHON: OUT is IN after PYTHON edits bytearray b; then
# fix=True (the default) makes every atom's CRC right again as far as the
# atoms can be walked.
hat_patch() {
	python3 - "$1" "$2" "$3" <<'PY'
import struct, sys
def crc16(d):
    c = 0
    for x in d:
        c ^= x
        for _ in range(8):
            c = (c >> 1) ^ 0xA001 if c & 1 else c >> 1
    return c
b = bytearray(open(sys.argv[1], 'rb').read())
fix = True
exec(sys.argv[3])
if fix and len(b) >= 12:
    off, n = 12, struct.unpack_from('<H', b, 6)[0]
    for i in range(n):
        if off + 8 > len(b):
            break
        dlen = struct.unpack_from('<I', b, off + 4)[0]
        if dlen < 2 or off + 8 + dlen > len(b):
            break
        struct.pack_into('<H', b, off + 8 + dlen - 2, crc16(b[off:off + 8 + dlen - 2]))
        off += 8 + dlen
open(sys.argv[2], 'wb').write(b)
PY
}
