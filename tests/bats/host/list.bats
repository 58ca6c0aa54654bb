#!/usr/bin/env bats
# capetool list against a fake sysfs tree laid out as CONTRACT section 4.

load helpers

@test "list shows every slot's state, reason and nvmem, and the capes" {
	fake_sysfs "$BATS_TEST_TMPDIR/sys"
	CAPETOOL_SYSFS=$BATS_TEST_TMPDIR/sys run ct list
	no_sanitizer_report
	[ "$status" -eq 0 ]
	[[ "${lines[0]}" == "capebus0:" ]]
	[[ "${lines[1]}" == "  slot 0  loaded    BB-WTHR-01 00A2 (capebus0-slot0, nvmem 0-00540)" ]]
	[[ "${lines[2]}" == "  slot 1  empty     (nvmem 0-00550)" ]]
	[[ "${lines[3]}" == "  slot 2  failed    (nvmem 0-00560) reason: pin P8.13 is held by BB-WTHR-01 (slot 0)" ]]
	[[ "${lines[4]}" == "  slot 3  empty" ]]
	[[ "$output" == *"capebus0-slot0: Weather Cape 00A2 by Example Labs, part BB-WTHR-01, serial 4012EXLB0042, format A1, slot 0, overlay eeprom"* ]]
	[[ "$output" == *"    P9.19 mode3 bidir pull-up rx slow"* ]]
	[[ "$output" == *"currents: vdd-3v3b 150,vdd-5v 0,sys-5v 0,dc-supplied 0"* ]]
}

@test "list --json is valid JSON" {
	fake_sysfs "$BATS_TEST_TMPDIR/sys"
	CAPETOOL_SYSFS=$BATS_TEST_TMPDIR/sys run ct list --json
	[ "$status" -eq 0 ]
	echo "$output" | python3 -c '
import json, sys
d = json.load(sys.stdin)
s = d["controllers"][0]["slots"]
assert [x["state"] for x in s] == ["loaded", "empty", "failed", "empty"], s
assert s[2]["reason"] == "pin P8.13 is held by BB-WTHR-01 (slot 0)"
c = d["capes"][0]
assert c["part_number"] == "BB-WTHR-01" and c["slot"] == "0"
assert c["pins"][2] == "P9.39" and c["currents"][0] == "vdd-3v3b 150"'
}

@test "slots sort numerically" {
	fake_sysfs "$BATS_TEST_TMPDIR/sys"
	mkdir "$BATS_TEST_TMPDIR/sys/class/capebus/capebus0/slot10"
	echo empty > "$BATS_TEST_TMPDIR/sys/class/capebus/capebus0/slot10/state"
	CAPETOOL_SYSFS=$BATS_TEST_TMPDIR/sys run ct list
	[[ "${lines[5]}" == "  slot 10 empty" ]]
}

@test "list with no capes says so" {
	fake_sysfs "$BATS_TEST_TMPDIR/sys"
	rm -r "$BATS_TEST_TMPDIR/sys/bus/capebus"
	CAPETOOL_SYSFS=$BATS_TEST_TMPDIR/sys run ct list
	[ "$status" -eq 0 ]
	[[ "$output" == *"capes: none"* ]]
}

@test "list without capebus exits 9" {
	mkdir -p "$BATS_TEST_TMPDIR/sys"
	CAPETOOL_SYSFS=$BATS_TEST_TMPDIR/sys run ct list
	[ "$status" -eq 9 ]
	[[ "$output" == *"no capebus controllers"* ]]
}
