#!/usr/bin/env bats
# capetool override / remove against a fake configfs tree.  A plain
# directory cannot act like the kernel (no status appears on enable), so
# these cover what capetool writes and its error paths; the guest suite
# covers the kernel's answers.

load helpers

fake_configfs() {
	mkdir -p "$1/kernel/config/capebus/capebus0/capes" "$1/kernel/config/capebus/capebus0/slots/0"
}

@test "override writes fields, image and overlay, and undoes them when the kernel gives no status" {
	fake_configfs "$BATS_TEST_TMPDIR/sys"
	CAPETOOL_SYSFS=$BATS_TEST_TMPDIR/sys run ct override "$DEFS/weather.cape" --board qemu-vexpress --slot 1
	no_sanitizer_report
	[ "$status" -eq 15 ]
	[[ "$output" == *"the kernel refused BB-WTHR-01: no status"* ]]
	d=$BATS_TEST_TMPDIR/sys/kernel/config/capebus/capebus0/capes/BB-WTHR-01
	cmp "$d/eeprom" "$GOLDEN/BB-WTHR-01-00A2.eeprom"
	cmp "$d/dtbo" "$GOLDEN/BB-WTHR-01-00A2.qemu-vexpress.dtbo"
	[ "$(cat "$d/board_name")" = "Weather Cape" ]
	[ "$(cat "$d/part_number")" = "BB-WTHR-01" ]
	[ "$(cat "$d/serial")" = "4012EXLB0042" ]
	[ "$(cat "$d/slot")" = 1 ]
	[ "$(cat "$d/enable")" = 0 ]
}

@test "override of an image uses its embedded overlay and --name" {
	fake_configfs "$BATS_TEST_TMPDIR/sys"
	CAPETOOL_SYSFS=$BATS_TEST_TMPDIR/sys run ct override "$GOLDEN/BB-WTHR-01-00A2.embedded.eeprom" --name wx
	[ "$status" -eq 15 ]
	d=$BATS_TEST_TMPDIR/sys/kernel/config/capebus/capebus0/capes/wx
	cmp "$d/dtbo" "$GOLDEN/BB-WTHR-01-00A2.qemu-vexpress.dtbo"
	cmp "$d/eeprom" "$GOLDEN/BB-WTHR-01-00A2.embedded.eeprom"
}

@test "override reports the kernel's status when it is a failure" {
	fake_configfs "$BATS_TEST_TMPDIR/sys"
	d=$BATS_TEST_TMPDIR/sys/kernel/config/capebus/capebus0/capes/BB-HUMID-01
	# a pre-made status file stands for the kernel's answer
	mkdir "$d" && echo "failed: pin P8.13 is held by BB-WTHR-01 (slot 0)" > "$d/status"
	CAPETOOL_SYSFS=$BATS_TEST_TMPDIR/sys run ct override "$DEFS/weather-conflict.cape" --board qemu-vexpress
	[ "$status" -eq 1 ]
	[[ "$output" == *"already declared"* ]]
}

@test "override without capebus configfs exits 9" {
	mkdir -p "$BATS_TEST_TMPDIR/sys"
	CAPETOOL_SYSFS=$BATS_TEST_TMPDIR/sys run ct override "$DEFS/weather.cape"
	[ "$status" -eq 9 ]
	[[ "$output" == *"no capebus controller in configfs"* ]]
	CAPETOOL_SYSFS=$BATS_TEST_TMPDIR/sys run ct override "$DEFS/weather.cape" --controller capebus3
	[ "$status" -eq 9 ]
}

@test "override of an invalid definition or image writes nothing" {
	fake_configfs "$BATS_TEST_TMPDIR/sys"
	f=$(weather_with 'bogus = 1;')
	CAPETOOL_SYSFS=$BATS_TEST_TMPDIR/sys run ct override "$f"
	[ "$status" -eq 3 ]
	CAPETOOL_SYSFS=$BATS_TEST_TMPDIR/sys run ct override "$FIX/images/bad-crc.eeprom"
	[ "$status" -eq 13 ]
	[ -z "$(ls "$BATS_TEST_TMPDIR/sys/kernel/config/capebus/capebus0/capes")" ]
}

@test "remove deletes a declared cape" {
	fake_configfs "$BATS_TEST_TMPDIR/sys"
	mkdir "$BATS_TEST_TMPDIR/sys/kernel/config/capebus/capebus0/capes/wx"
	CAPETOOL_SYSFS=$BATS_TEST_TMPDIR/sys run ct remove wx
	[ "$status" -eq 0 ]
	[[ "$output" == "removed wx" ]]
	[ ! -e "$BATS_TEST_TMPDIR/sys/kernel/config/capebus/capebus0/capes/wx" ]
}

@test "remove of an unknown cape exits 1" {
	fake_configfs "$BATS_TEST_TMPDIR/sys"
	CAPETOOL_SYSFS=$BATS_TEST_TMPDIR/sys run ct remove nope
	[ "$status" -eq 1 ]
	[[ "$output" == *'no cape "nope" declared'* ]]
	run ct remove
	[ "$status" -eq 2 ]
	run ct remove ../x
	[ "$status" -eq 2 ]
}
