#!/usr/bin/env bats
# capetool flash on plain files (and a fake slot): backup, refusal, verify.

load helpers

W=$GOLDEN/BB-WTHR-01-00A2.eeprom

blank() { head -c "${2:-4096}" /dev/zero | tr '\0' '\377' > "$1"; }

@test "flash writes only the image's bytes and verifies them" {
	blank "$BATS_TEST_TMPDIR/ee"
	cd "$BATS_TEST_TMPDIR"
	run ct flash "$W" --device "$BATS_TEST_TMPDIR/ee"
	no_sanitizer_report
	[ "$status" -eq 0 ]
	[[ "$output" == *"wrote 244 bytes (Weather Cape 00A2, part BB-WTHR-01) to $BATS_TEST_TMPDIR/ee, verified"* ]]
	[ "$(stat -c %s ee)" -eq 4096 ]
	cmp -n 244 ee "$W"
	# the rest of the part is untouched
	[ "$(tail -c +245 ee | tr -d '\377' | wc -c)" -eq 0 ]
}

@test "flash backs up the old content first" {
	cp "$GOLDEN/BB-WTHR-01-00A2.embedded.eeprom" "$BATS_TEST_TMPDIR/ee"
	blank "$BATS_TEST_TMPDIR/pad" 1000
	cat "$BATS_TEST_TMPDIR/pad" >> "$BATS_TEST_TMPDIR/ee"
	run ct flash "$W" --device "$BATS_TEST_TMPDIR/ee" --backup "$BATS_TEST_TMPDIR/old.eeprom"
	[ "$status" -eq 0 ]
	# the old image was longer than the new one: all of it is saved
	[[ "$output" == *"backed up 1010 bytes"* ]]
	cmp "$BATS_TEST_TMPDIR/old.eeprom" "$GOLDEN/BB-WTHR-01-00A2.embedded.eeprom"
}

@test "the default backup file is named after the device" {
	blank "$BATS_TEST_TMPDIR/ee"
	cd "$BATS_TEST_TMPDIR"
	run ct flash "$W" --device ee
	[ "$status" -eq 0 ]
	ls capetool-backup-ee-*.eeprom
	[ "$(stat -c %s capetool-backup-ee-*.eeprom)" -eq 244 ]
}

@test "--no-backup skips the backup" {
	blank "$BATS_TEST_TMPDIR/ee"
	cd "$BATS_TEST_TMPDIR"
	run ct flash "$W" --device ee --no-backup
	[ "$status" -eq 0 ]
	[[ "$output" != *"backed up"* ]]
	! ls capetool-backup-* 2>/dev/null
}

@test "flash refuses to replace another part without --force" {
	cp "$GOLDEN/BB-RTC-01-00A0.eeprom" "$BATS_TEST_TMPDIR/ee"
	run ct flash "$W" --device "$BATS_TEST_TMPDIR/ee" --no-backup
	[ "$status" -eq 7 ]
	[[ "$output" == *"holds RTC Cape 00A0 (part BB-RTC-01), the image is part BB-WTHR-01: use --force"* ]]
	cmp "$BATS_TEST_TMPDIR/ee" "$GOLDEN/BB-RTC-01-00A0.eeprom"
	run ct flash "$W" --device "$BATS_TEST_TMPDIR/ee" --no-backup --force
	[ "$status" -eq 0 ]
	cmp "$BATS_TEST_TMPDIR/ee" "$W"
}

@test "flash replaces the same part (a new version) without --force" {
	cp "$W" "$BATS_TEST_TMPDIR/ee"
	sed 's/"00A2"/"00A3"/' "$DEFS/weather.cape" > "$BATS_TEST_TMPDIR/w3.cape"
	ct create "$BATS_TEST_TMPDIR/w3.cape" -o "$BATS_TEST_TMPDIR" >/dev/null
	run ct flash "$BATS_TEST_TMPDIR/BB-WTHR-01-00A3.eeprom" --device "$BATS_TEST_TMPDIR/ee" --no-backup
	[ "$status" -eq 0 ]
}

@test "a verify mismatch exits 8 with the first bad offset" {
	blank "$BATS_TEST_TMPDIR/ee"
	CAPETOOL_FAULT_VERIFY_OFFSET=77 run ct flash "$W" --device "$BATS_TEST_TMPDIR/ee" --no-backup
	[ "$status" -eq 8 ]
	[[ "$output" == *"verify failed at offset 77 (0x4d): wrote 0x30, read 0xcf"* ]]
}

@test "a write-protected EEPROM exits 9 and is left alone" {
	blank "$BATS_TEST_TMPDIR/ee"
	chmod 0444 "$BATS_TEST_TMPDIR/ee"
	run ct flash "$W" --device "$BATS_TEST_TMPDIR/ee" --no-backup
	[ "$status" -eq 9 ]
	[[ "$output" == *"EEPROM is write-protected"* ]]
	[ "$(tr -d '\377' < "$BATS_TEST_TMPDIR/ee" | wc -c)" -eq 0 ]
}

@test "a read-only device (a read-only nvmem attribute) exits 9" {
	run ct flash "$W" --device /proc/version --no-backup
	[ "$status" -eq 9 ]
}

@test "a missing EEPROM exits 9" {
	run ct flash "$W" --device "$BATS_TEST_TMPDIR/nothing" --no-backup
	[ "$status" -eq 9 ]
	[[ "$output" == *"nothing: no EEPROM there: No such file or directory"* ]]
}

@test "an invalid image is not flashed" {
	blank "$BATS_TEST_TMPDIR/ee"
	run ct flash "$FIX/images/bad-crc.eeprom" --device "$BATS_TEST_TMPDIR/ee" --no-backup
	[ "$status" -eq 13 ]
	[[ "$output" == *"not a valid cape image, refusing to flash it"* ]]
	[ "$(tr -d '\377' < "$BATS_TEST_TMPDIR/ee" | wc -c)" -eq 0 ]
}

@test "flash --slot goes through the slot's nvmem device" {
	fake_sysfs "$BATS_TEST_TMPDIR/sys"
	cd "$BATS_TEST_TMPDIR"
	CAPETOOL_SYSFS=$BATS_TEST_TMPDIR/sys run ct flash "$W" --slot 1
	[ "$status" -eq 0 ]
	cmp -n 244 "$BATS_TEST_TMPDIR/sys/bus/nvmem/devices/0-00550/nvmem" "$W"
	ls capetool-backup-slot1-*.eeprom
	CAPETOOL_SYSFS=$BATS_TEST_TMPDIR/sys run ct flash "$W" --slot 3
	[ "$status" -eq 9 ]
	[[ "$output" == *"slot 3 has no EEPROM device"* ]]
}

@test "flash --slot refuses the conflicting cape's EEPROM without --force" {
	fake_sysfs "$BATS_TEST_TMPDIR/sys"
	CAPETOOL_SYSFS=$BATS_TEST_TMPDIR/sys run ct flash "$W" --slot 2 --no-backup
	[ "$status" -eq 7 ]
}

@test "flash usage errors exit 2" {
	run ct flash "$W"
	[ "$status" -eq 2 ]
	run ct flash "$W" --slot 0 --device x
	[ "$status" -eq 2 ]
	run ct flash "$W" --device x --no-backup --backup y
	[ "$status" -eq 2 ]
}

@test "flash writes only the bytes the image defines, not a dump's padding" {
	blank "$BATS_TEST_TMPDIR/ee"
	{ cat "$W"; head -c 500 /dev/zero; } > "$BATS_TEST_TMPDIR/dump.eeprom"
	run ct flash "$BATS_TEST_TMPDIR/dump.eeprom" --device "$BATS_TEST_TMPDIR/ee" --no-backup
	[ "$status" -eq 0 ]
	[[ "$output" == *"writing the 244 bytes the image defines (500 trailing bytes ignored)"* ]]
	cmp -n 244 "$BATS_TEST_TMPDIR/ee" "$W"
	[ "$(tail -c +245 "$BATS_TEST_TMPDIR/ee" | tr -d '\377' | wc -c)" -eq 0 ]
}
