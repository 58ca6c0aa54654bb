#!/usr/bin/env bats
# The test board itself: QEMU's vexpress-a9 with cape EEPROMs on I2C, as the
# capebus kernel code will find it.  These facts hold with no capebus code.

load ../../qemu/lib

setup_file() {
	# Slot 0: a host file with a known pattern; slot 3: a blank part;
	# slots 1 and 2: no EEPROM at all.
	export PATTERN=$BATS_FILE_TMPDIR/pattern.bin
	python3 -c 'import sys; sys.stdout.buffer.write(bytes((i * 7 + 3) & 0xff for i in range(512)))' > "$PATTERN"
	guest_boot --slot 0="$PATTERN" --blank 3
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

# Path of the nvmem file of the at24 EEPROM at ADDR (e.g. 0054).
nvmem_of() {
	echo "\$(ls -d /sys/bus/i2c/devices/*-$1/*-$1*/nvmem)"
}

@test "the guest runs commands and reports their exit status and stderr" {
	guest_run 'echo out; echo err >&2; exit 3'
	[ "$status" -eq 3 ]
	[ "$stdout" = out ]
	[ "$stderr" = err ]
}

@test "output without a trailing newline is not lost" {
	guest_run 'printf "no newline"'
	[ "$status" -eq 0 ]
	[ "$output" = "no newline" ]
}

@test "proc, sys, devtmpfs and configfs are mounted" {
	guest_run 'grep -E " (/proc|/sys|/dev|/sys/kernel/config) " /proc/mounts | cut -d" " -f2,3'
	[ "$status" -eq 0 ]
	[[ "$output" == *"/proc proc"* ]]
	[[ "$output" == *"/sys sysfs"* ]]
	[[ "$output" == *"/dev devtmpfs"* ]]
	[[ "$output" == *"/sys/kernel/config configfs"* ]]
}

@test "the EEPROM at 0x54 reads back the bytes of the host file" {
	guest_run "head -c 512 $(nvmem_of 0054) | md5sum | cut -d' ' -f1"
	[ "$status" -eq 0 ]
	[ "$output" = "$(md5sum < "$PATTERN" | cut -d' ' -f1)" ]
}

@test "a slot with no EEPROM device has no nvmem device" {
	guest_run 'ls -d /sys/bus/i2c/devices/*-0055/*-0055* 2>/dev/null; ls /sys/bus/i2c/devices/ | grep -c -- -0055'
	[ "$status" -eq 0 ]
	[ "$output" = 1 ]
}

@test "a blank EEPROM reads as 0xff" {
	guest_run "head -c 16 $(nvmem_of 0057) | od -A n -t x1 | tr -d ' \n'"
	[ "$status" -eq 0 ]
	[ "$output" = ffffffffffffffffffffffffffffffff ]
}

@test "cape devices are not in the base device tree" {
	guest_run 'ls /sys/bus/i2c/devices/ | grep -E -- "-00(48|68)$" || echo none'
	[ "$output" = none ]
}

@test "configfs can declare a gpio-sim chip, and its lines follow their pulls" {
	guest_ok 'd=/sys/kernel/config/gpio-sim/board-bats
		mkdir $d $d/bank0 && echo 4 > $d/bank0/num_lines && echo 1 > $d/live
		chip=$(cat $d/bank0/chip_name); line=/sys/devices/platform/$(cat $d/dev_name)/$chip/sim_gpio2
		ls -d /sys/devices/platform/$(cat $d/dev_name)/$chip/sim_gpio* | wc -l
		echo pull-up > $line/pull; cat $line/value
		echo pull-down > $line/pull; cat $line/value
		echo 0 > $d/live; rmdir $d/bank0 $d; [ ! -e $line ] && echo gone'
	[ "${lines[0]}" = 4 ]
	[ "${lines[1]}" = 1 ]
	[ "${lines[2]}" = 0 ]
	[ "${lines[3]}" = gone ]
}

@test "a write from the guest lands in the host file and survives a reboot" {
	guest_ok "printf 'capebus!' | dd of=$(nvmem_of 0054) bs=1 seek=100 conv=notrunc 2>/dev/null"
	guest_reboot
	[ "$(dd if="$CB_RUN/slot0.eeprom" bs=1 skip=100 count=8 2>/dev/null)" = 'capebus!' ]
	guest_run "dd if=$(nvmem_of 0054) bs=1 skip=100 count=8 2>/dev/null"
	[ "$output" = 'capebus!' ]
}
