#!/usr/bin/env bats
# capebus overlay rules, with overlays carried in the EEPROMs' extension
# records: one that follows them is applied, one that targets a node
# outside the board's cape targets, one that refers to a label the
# connector does not export and one built with symbols are refused before
# the live tree changes.  tests/bats/guest/overlay-rules.bats has the rest
# of the rules.

load ../../qemu/lib
load slot-wait

CTRL=/sys/class/capebus/capebus0
FX=$BATS_TEST_DIRNAME/fixtures

# The whole device tree as one hash.
DT_HASH='find /proc/device-tree/ -type f | LC_ALL=C sort | xargs md5sum | md5sum | cut -d" " -f1'

setup_file() {
	local d=$BATS_FILE_TMPDIR
	# The device tree of the board with no cape, to compare with later
	# (booted as below: the command line is in /chosen).
	guest_boot --append capebus.eeprom_overlays=1
	guest_ok "$DT_HASH"
	echo "$output" > "$d/bare.hash"
	guest_shutdown
	dtc -q -I dts -O dtb -o "$d/oos.dtbo" "$FX/out-of-scope.dts"
	dtc -q -I dts -O dtb -o "$d/badref.dtbo" "$FX/bad-reference.dts"
	dtc -@ -q -I dts -O dtb -o "$d/sym.dtbo" "$FX/with-symbols.dts"
	# The weather overlay, declaring P9.20 instead of P9.39.
	cp "$CB_FIRMWARE/BB-WTHR-01-00A2.dtbo" "$d/wthr.dtbo"
	fdtput -t s "$d/wthr.dtbo" / exclusive-use P9.19 P8.13 P9.20
	"$FX/ext-eeprom.py" "$CB_FIRMWARE/BB-WTHR-01-00A2.eeprom" "$d/wthr.eeprom" \
		--overlay "$d/wthr.dtbo"
	"$FX/ext-eeprom.py" "$CB_FIRMWARE/EXL-RTC-01-00A0.eeprom" "$d/oos.eeprom" \
		--part BB-OOS-01 --overlay "$d/oos.dtbo"
	"$FX/ext-eeprom.py" "$CB_FIRMWARE/EXL-RTC-01-00A0.eeprom" "$d/badref.eeprom" \
		--part BB-BADREF-01 --overlay "$d/badref.dtbo"
	"$FX/ext-eeprom.py" "$CB_FIRMWARE/EXL-RTC-01-00A0.eeprom" "$d/sym.eeprom" \
		--part BB-SYM-01 --overlay "$d/sym.dtbo"
	guest_boot --append capebus.eeprom_overlays=1 --slot 0="$d/wthr.eeprom" --slot 1="$d/oos.eeprom" \
		   --slot 2="$d/badref.eeprom" --slot 3="$d/sym.eeprom"
	wait_state 0 loaded
	wait_state 3 failed
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

@test "an overlay from the EEPROM's extension record is applied" {
	guest_ok "cat /sys/bus/capebus/devices/capebus0-slot0/overlay; cat /sys/class/hwmon/hwmon*/name"
	[ "${lines[0]}" = eeprom ]
	[ "${lines[1]}" = tmp105 ]
}

@test "EEPROM pins and exclusive-use that disagree are reported" {
	guest_ok "dmesg | grep 'disagree'"
	[[ "$output" == *"BB-WTHR-01 (slot 0): EEPROM pins and overlay exclusive-use disagree: "* ]]
	[[ "$output" == *"P9.20 in exclusive-use but not used in the EEPROM"* ]]
	[[ "$output" == *"P9.39 used in the EEPROM but not in exclusive-use"* ]]
}

@test "a fragment targeting a node outside the cape targets refuses the whole overlay" {
	guest_ok "cat $CTRL/slot1/state $CTRL/slot1/reason"
	[ "${lines[0]}" = failed ]
	[ "${lines[1]}" = "overlay refused: targets: fragment fragment@1 targets /, which is not a cape target of capebus0" ]
	guest_run "ls -d /proc/device-tree/evil /proc/device-tree/cape-devices/ok-node"
	[ "$status" -ne 0 ]
	# Nothing of the three refused capes is in the tree (their pin groups
	# neither): without the one applied cape, it is the bare board's,
	# property for property, but for the pin groups (one per pad and
	# value) the connector keeps for that cape while it is there, bound or
	# not: exactly as many as its node's pinctrl-0 names.
	guest_ok "find /proc/device-tree/ -name 'capebus0-slot[1-3]*' | grep -c . || true"
	[ "$output" = 0 ]
	guest_ok "find /proc/device-tree/ -type d -name 'capebus-pad-*' | grep -c . || true;
		echo \$((\$(wc -c < \$(find /proc/device-tree/ -path '*/capebus0-slot0/pinctrl-0')) / 4))"
	[ "${lines[0]}" -gt 0 ]
	[ "${lines[0]}" = "${lines[1]}" ]
	guest_ok "echo capebus0-slot0 > /sys/bus/capebus/drivers/capebus-generic/unbind && ${DT_HASH/xargs/grep -v -e /capebus0-slot0 -e /capebus-pad- | xargs}"
	local h=$output
	guest_ok "echo capebus0-slot0 > /sys/bus/capebus/drivers/capebus-generic/bind; cat $CTRL/slot0/state"
	[ "$output" = loaded ]
	[ "$h" = "$(cat "$BATS_FILE_TMPDIR/bare.hash")" ]
}

@test "an overlay referring to a board label the connector does not export is refused" {
	guest_ok "cat $CTRL/slot2/state $CTRL/slot2/reason"
	[ "${lines[0]}" = failed ]
	[ "${lines[1]}" = "overlay refers to &cape_ee0, which the connector does not export" ]
	guest_run "ls -d /proc/device-tree/cape-devices/thief"
	[ "$status" -ne 0 ]
}

@test "an overlay carrying __symbols__ is refused" {
	guest_ok "cat $CTRL/slot3/reason"
	[[ "$output" == *"__symbols__"* ]]
	guest_run "ls -d /proc/device-tree/cape-devices/labelled"
	[ "$status" -ne 0 ]
}

@test "refused capes do not become capebus devices" {
	guest_ok "ls /sys/bus/capebus/devices/"
	[ "$output" = capebus0-slot0 ]
}
