#!/usr/bin/env bats
# capetool and the kernel against each other: images made by `capetool
# create` on the host (plain, with the overlay embedded, A0), booted, and
# every field the kernel reports compared with what `capetool decode --json`
# says of the same image, and with the independent reference
# (tests/reference/cape_eeprom.py).
#
# Slot 0: weather (A1, overlay from /lib/firmware), slot 1: RTC (A1, overlay
# embedded); then a second boot with the weather cape written as A0 in
# slot 0.

load ../../qemu/lib
load slot-wait

CTRL=/sys/class/capebus/capebus0
REF=$CB_TOP/tests/reference/cape_eeprom.py

setup_file() {
	local ct=${CB_CAPETOOL:-$CB_TOP/build/capetool/host/capetool} d=$BATS_FILE_TMPDIR
	mkdir -p "$d/plain" "$d/embedded" "$d/a0"
	"$ct" create "$CB_TOP/cape-defs/weather.cape" --board qemu-vexpress -o "$d/plain" >/dev/null
	# Four different currents: a swap of any two rails shows.
	sed 's/^power = .*/power = { vdd-3v3b = 20; vdd-5v = 150; sys-5v = 75; dc-supplied = 5; };/' \
		"$CB_TOP/cape-defs/rtc.cape" > "$d/rtc.cape"
	"$ct" create "$d/rtc.cape" --board qemu-vexpress --embed-overlay \
		--serial 4926EXLB0099 -o "$d/embedded" >/dev/null
	sed 's/format *= "A1"/format = "A0"/' "$CB_TOP/cape-defs/weather.cape" > "$d/a0.cape"
	"$ct" create "$d/a0.cape" --board qemu-vexpress --serial 4926EXLB00A0 -o "$d/a0" >/dev/null
	cp "$d/plain/BB-WTHR-01-00A2.eeprom" "$d/slot0.eeprom"
	cp "$d/embedded/EXL-RTC-01-00A0.eeprom" "$d/slot1.eeprom"
	cp "$d/a0/BB-WTHR-01-00A2.eeprom" "$d/slot2.eeprom"
	for s in 0 1 2; do
		"$ct" decode --json "$d/slot$s.eeprom" > "$d/slot$s.json"
	done
	guest_boot --append capebus.eeprom_overlays=1 --slot 0="$d/slot0.eeprom" --slot 1="$d/slot1.eeprom"
	wait_state 0 loaded
	wait_state 1 loaded
}

teardown_file() {
	guest_shutdown
}

setup() {
	guest_setup
}

teardown() {
	guest_teardown
}

# kernel_fields SLOT: the cape's attributes as NAME=VALUE lines, pins and
# currents one line each.
kernel_fields() {
	guest_ok "cd \$(readlink -f $CTRL/slot$1/cape) &&
		for a in board_name version manufacturer part_number serial format; do echo \"\$a=\$(cat \$a)\"; done
		sed 's/^/pins=/' pins; sed 's/^/currents=/' currents
		echo \"overlay=\$(cat overlay)\"; echo \"overlay_file=\$(cat overlay_file)\""
}

# capetool_fields SLOT: the same lines from capetool decode --json.
capetool_fields() {
	python3 - "$BATS_FILE_TMPDIR/slot$1.json" <<-'PY'
	import json, sys
	j = json.load(open(sys.argv[1]))
	for k in ("board_name", "version", "manufacturer", "part_number", "serial", "format"):
	    print("%s=%s" % (k, j[k]))
	for p in j["pins"]:
	    print("pins=" + p["words"])
	for r in ("vdd-3v3b", "vdd-5v", "sys-5v", "dc-supplied"):
	    print("currents=%s %d" % (r, j["power"][r]))
	ext = j.get("extension") or {}
	print("overlay=" + ("eeprom" if "overlay" in json.dumps(ext) else "firmware"))
	print("overlay_file=" + ("" if "overlay" in json.dumps(ext) else "%s-%s.dtbo" % (j["part_number"], j["version"])))
	PY
}

# same_fields IMAGE [SLOT]: the kernel's lines for the cape in SLOT (default
# IMAGE) are capetool's for image IMAGE, and the reference's.
same_fields() {
	kernel_fields "${2:-$1}"
	printf '%s\n' "${lines[@]}" > "$BATS_TEST_TMPDIR/kernel"
	capetool_fields "$1" > "$BATS_TEST_TMPDIR/capetool"
	diff -u "$BATS_TEST_TMPDIR/capetool" "$BATS_TEST_TMPDIR/kernel"
	"$REF" sysfs "$BATS_FILE_TMPDIR/slot$1.eeprom" > "$BATS_TEST_TMPDIR/reference"
	diff -u "$BATS_TEST_TMPDIR/reference" <(grep -v '^overlay' "$BATS_TEST_TMPDIR/kernel")
}

@test "a plain A1 image from capetool create: the kernel reports what capetool decodes" {
	same_fields 0
	grep -qx 'overlay=firmware' "$BATS_TEST_TMPDIR/kernel"
	grep -qx 'pins=P9.19 mode3 bidir pull-up rx slow' "$BATS_TEST_TMPDIR/kernel"
}

@test "an image with the overlay embedded by capetool create: same fields, the overlay from the EEPROM" {
	same_fields 1
	grep -qx 'overlay=eeprom' "$BATS_TEST_TMPDIR/kernel"
	grep -qx 'serial=4926EXLB0099' "$BATS_TEST_TMPDIR/kernel"
	grep -qx 'currents=vdd-5v 150' "$BATS_TEST_TMPDIR/kernel"
	grep -qx 'currents=sys-5v 75' "$BATS_TEST_TMPDIR/kernel"
	grep -qx 'currents=dc-supplied 5' "$BATS_TEST_TMPDIR/kernel"
	# The embedded overlay is the one applied: its RTC is there.
	guest_ok "cat /sys/class/rtc/rtc*/name"
	[[ "$output" == *ds13* ]]
}

@test "an A0 image from capetool create: the kernel reads the A0 offsets as capetool wrote them" {
	guest_shutdown
	guest_boot --append capebus.eeprom_overlays=1 --slot 0="$BATS_FILE_TMPDIR/slot2.eeprom"
	wait_state 0 loaded
	same_fields 2 0
	grep -qx 'format=A0' "$BATS_TEST_TMPDIR/kernel"
	# The definition's 150 mA, read at 228 (A0), not 236 (A1).
	grep -qx 'currents=vdd-3v3b 150' "$BATS_TEST_TMPDIR/kernel"
	grep -qx 'serial=4926EXLB00A0' "$BATS_TEST_TMPDIR/kernel"
}
