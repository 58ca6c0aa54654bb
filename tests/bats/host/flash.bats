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
	[[ "$output" == *"backed up 1007 bytes"* ]]
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
	cp "$GOLDEN/EXL-RTC-01-00A0.eeprom" "$BATS_TEST_TMPDIR/ee"
	run ct flash "$W" --device "$BATS_TEST_TMPDIR/ee" --no-backup
	[ "$status" -eq 7 ]
	[[ "$output" == *"holds RTC Cape 00A0 (part EXL-RTC-01), the image is part BB-WTHR-01: use --force"* ]]
	cmp "$BATS_TEST_TMPDIR/ee" "$GOLDEN/EXL-RTC-01-00A0.eeprom"
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

@test "a plain image over an embedded one blanks the old extension area" {
	# same part, same standard area: the old overlay would stay in force
	cp "$GOLDEN/BB-WTHR-01-00A2.embedded.eeprom" "$BATS_TEST_TMPDIR/ee"
	blank "$BATS_TEST_TMPDIR/pad" 1000
	cat "$BATS_TEST_TMPDIR/pad" >> "$BATS_TEST_TMPDIR/ee"
	run ct flash "$W" --device "$BATS_TEST_TMPDIR/ee" --backup "$BATS_TEST_TMPDIR/old.eeprom"
	no_sanitizer_report
	[ "$status" -eq 0 ]
	[[ "$output" == *"the image has no extension area: blanking the old one (bytes 244-1006)"* ]]
	[[ "$output" == *"verified: it decodes as the image"* ]]
	run ct decode "$BATS_TEST_TMPDIR/ee"
	[ "$status" -eq 0 ]
	[[ "$output" == *"extension:     none"* ]]
	cmp -n 244 "$BATS_TEST_TMPDIR/ee" "$W"
	[ "$(tail -c +245 "$BATS_TEST_TMPDIR/ee" | tr -d '\377' | wc -c)" -eq 0 ]
	# the backup holds all of the old image, extension area included
	cmp "$BATS_TEST_TMPDIR/old.eeprom" "$GOLDEN/BB-WTHR-01-00A2.embedded.eeprom"
}

@test "a plain image of another part over an embedded one decodes afterwards" {
	# a different standard area: the old id CRC record would no longer match
	cp "$GOLDEN/BB-WTHR-01-00A2.embedded.eeprom" "$BATS_TEST_TMPDIR/ee"
	run ct flash "$GOLDEN/EXL-RTC-01-00A0.eeprom" --device "$BATS_TEST_TMPDIR/ee" --no-backup --force
	[ "$status" -eq 0 ]
	run ct decode "$BATS_TEST_TMPDIR/ee"
	[ "$status" -eq 0 ]
	[[ "$output" == *"part number:   EXL-RTC-01"* ]]
	[[ "$output" == *"extension:     none"* ]]
}

@test "an embedded image over a plain one verifies its records" {
	blank "$BATS_TEST_TMPDIR/ee"
	run ct flash "$GOLDEN/BB-WTHR-01-00A2.embedded.eeprom" --device "$BATS_TEST_TMPDIR/ee" --no-backup
	[ "$status" -eq 0 ]
	[[ "$output" == *"wrote 1007 bytes"*"verified: it decodes as the image"* ]]
	cmp -n 1007 "$BATS_TEST_TMPDIR/ee" "$GOLDEN/BB-WTHR-01-00A2.embedded.eeprom"
}

@test "a write that stops part way says the EEPROM is partial and how to restore it" {
	cp "$GOLDEN/BB-WTHR-01-00A2.embedded.eeprom" "$BATS_TEST_TMPDIR/ee"
	cp "$BATS_TEST_TMPDIR/ee" "$BATS_TEST_TMPDIR/orig"
	cd "$BATS_TEST_TMPDIR"
	CAPETOOL_FAULT_WRITE_AFTER=100 run ct flash "$GOLDEN/EXL-RTC-01-00A0.eeprom" --device ee --force \
		--backup "it's old.eeprom"
	no_sanitizer_report
	[ "$status" -eq 4 ]
	[[ "$output" == *"ee: write failed after 100 of 1007 bytes: Input/output error"* ]]
	[[ "$output" == *"ee: the EEPROM now holds a partial or wrong image"* ]]
	[[ "$output" == *"ee: its old content is in it's old.eeprom; restore it with:"* ]]
	[[ "$output" == *"  capetool flash 'it'\\''s old.eeprom' --device 'ee' --force --no-backup"* ]]
	! cmp -s ee orig
	# the printed command restores it
	cmd=$(printf '%s\n' "$output" | sed -n 's/^  capetool //p')
	eval "ct $cmd"
	cmp ee orig
}

@test "a partial write over a blank EEPROM names dd to restore it" {
	blank "$BATS_TEST_TMPDIR/ee"
	cp "$BATS_TEST_TMPDIR/ee" "$BATS_TEST_TMPDIR/orig"
	CAPETOOL_FAULT_WRITE_AFTER=10 run ct flash "$W" --device "$BATS_TEST_TMPDIR/ee" \
		--backup "$BATS_TEST_TMPDIR/b.eeprom"
	[ "$status" -eq 4 ]
	[[ "$output" == *"  dd if='$BATS_TEST_TMPDIR/b.eeprom' of='$BATS_TEST_TMPDIR/ee' conv=notrunc"* ]]
	dd if="$BATS_TEST_TMPDIR/b.eeprom" of="$BATS_TEST_TMPDIR/ee" conv=notrunc 2>/dev/null
	cmp "$BATS_TEST_TMPDIR/ee" "$BATS_TEST_TMPDIR/orig"
}

@test "a partial write without a backup says so" {
	blank "$BATS_TEST_TMPDIR/ee"
	CAPETOOL_FAULT_WRITE_AFTER=10 run ct flash "$W" --device "$BATS_TEST_TMPDIR/ee" --no-backup
	[ "$status" -eq 4 ]
	[[ "$output" == *"the EEPROM now holds a partial or wrong image"* ]]
	[[ "$output" == *"no backup was taken (--no-backup)"* ]]
}

@test "a write that fails before any byte says the EEPROM is unchanged" {
	blank "$BATS_TEST_TMPDIR/ee"
	CAPETOOL_FAULT_WRITE_AFTER=0 run ct flash "$W" --device "$BATS_TEST_TMPDIR/ee" --no-backup
	[ "$status" -eq 4 ]
	[[ "$output" == *"nothing was written: the EEPROM is unchanged"* ]]
	[[ "$output" != *"partial"* ]]
}

@test "a verify mismatch names the backup and the restore command" {
	blank "$BATS_TEST_TMPDIR/ee"
	CAPETOOL_FAULT_VERIFY_OFFSET=77 run ct flash "$W" --device "$BATS_TEST_TMPDIR/ee" \
		--backup "$BATS_TEST_TMPDIR/b.eeprom"
	[ "$status" -eq 8 ]
	[[ "$output" == *"its old content is in $BATS_TEST_TMPDIR/b.eeprom; restore it with:"* ]]
}

@test "an image larger than a slot's nvmem device is refused" {
	fake_sysfs "$BATS_TEST_TMPDIR/sys"
	head -c 512 /dev/zero | tr '\0' '\377' > "$BATS_TEST_TMPDIR/sys/bus/nvmem/devices/0-00550/nvmem"
	CAPETOOL_SYSFS=$BATS_TEST_TMPDIR/sys run ct flash "$GOLDEN/BB-WTHR-01-00A2.embedded.eeprom" --slot 1 --no-backup
	[[ "$output" == *"the 1007-byte image does not fit the 512-byte EEPROM"* ]]
	[ "$status" -ne 0 ]
	[ "$(stat -c %s "$BATS_TEST_TMPDIR/sys/bus/nvmem/devices/0-00550/nvmem")" -eq 512 ]
	[ "$(tr -d '\377' < "$BATS_TEST_TMPDIR/sys/bus/nvmem/devices/0-00550/nvmem" | wc -c)" -eq 0 ]
	# the same for the nvmem attribute named with --device
	CAPETOOL_SYSFS=$BATS_TEST_TMPDIR/sys run ct flash "$GOLDEN/BB-WTHR-01-00A2.embedded.eeprom" \
		--device "$BATS_TEST_TMPDIR/sys/bus/nvmem/devices/0-00550/nvmem" --no-backup
	[[ "$output" == *"does not fit the 512-byte EEPROM"* ]]
	[ "$(stat -c %s "$BATS_TEST_TMPDIR/sys/bus/nvmem/devices/0-00550/nvmem")" -eq 512 ]
}

@test "read --slot saves the slot's whole EEPROM" {
	fake_sysfs "$BATS_TEST_TMPDIR/sys"
	CAPETOOL_SYSFS=$BATS_TEST_TMPDIR/sys run ct read --slot 0 -o "$BATS_TEST_TMPDIR/dump"
	no_sanitizer_report
	[ "$status" -eq 0 ]
	[[ "$output" == *"read 2244 bytes of $BATS_TEST_TMPDIR/sys/bus/nvmem/devices/0-00540/nvmem to $BATS_TEST_TMPDIR/dump (Weather Cape 00A2, part BB-WTHR-01)"* ]]
	cmp "$BATS_TEST_TMPDIR/dump" "$BATS_TEST_TMPDIR/sys/bus/nvmem/devices/0-00540/nvmem"
	CAPETOOL_SYSFS=$BATS_TEST_TMPDIR/sys run ct read --slot 1 -o "$BATS_TEST_TMPDIR/blank"
	[ "$status" -eq 0 ]
	[[ "$output" == *"(no valid cape image: bad magic: ff ff ff ff, expected aa 55 33 ee (blank EEPROM?))"* ]]
	[ "$(stat -c %s "$BATS_TEST_TMPDIR/blank")" -eq 4096 ]
	CAPETOOL_SYSFS=$BATS_TEST_TMPDIR/sys run ct read --slot 3 -o "$BATS_TEST_TMPDIR/x"
	[ "$status" -eq 9 ]
	[[ "$output" == *"slot 3 has no EEPROM device"* ]]
	[ ! -e "$BATS_TEST_TMPDIR/x" ]
}

@test "a dump from read flashes back" {
	cp "$GOLDEN/BB-WTHR-01-00A2.embedded.eeprom" "$BATS_TEST_TMPDIR/ee"
	run ct read --device "$BATS_TEST_TMPDIR/ee" -o "$BATS_TEST_TMPDIR/dump"
	[ "$status" -eq 0 ]
	blank "$BATS_TEST_TMPDIR/ee2"
	run ct flash "$BATS_TEST_TMPDIR/dump" --device "$BATS_TEST_TMPDIR/ee2" --no-backup
	[ "$status" -eq 0 ]
	cmp -n 1007 "$BATS_TEST_TMPDIR/ee2" "$GOLDEN/BB-WTHR-01-00A2.embedded.eeprom"
}

@test "read usage errors exit 2; a missing device exits 9" {
	run ct read --slot 0
	[ "$status" -eq 2 ]
	run ct read --slot 0 --device x -o y
	[ "$status" -eq 2 ]
	run ct read -o y
	[ "$status" -eq 2 ]
	run ct read --device "$BATS_TEST_TMPDIR/nothing" -o "$BATS_TEST_TMPDIR/y"
	[ "$status" -eq 9 ]
	[[ "$output" == *"nothing: no EEPROM there: No such file or directory"* ]]
}

@test "read has --help and is listed in capetool --help" {
	run ct read --help
	[ "$status" -eq 0 ]
	[[ "$output" == *"usage: capetool read"* ]]
	run ct help read
	[[ "$output" == *"usage: capetool read"* ]]
	run ct --help
	[[ "$output" == *"  read "* ]]
}

@test "the release binary ignores the fault-injection variables (they are test-build hooks)" {
	rel=$CAPETOOL_RELEASE
	[ -x "$rel" ] || { echo "no release build at $rel (make -C capetool)"; false; }
	head -c 4096 /dev/zero | tr '\0' '\377' > "$BATS_TEST_TMPDIR/ee"
	CAPETOOL_FAULT_WRITE_AFTER=10 CAPETOOL_FAULT_VERIFY_OFFSET=77 run "$rel" flash "$W" \
		--device "$BATS_TEST_TMPDIR/ee" --no-backup
	echo "$output"
	[ "$status" -eq 0 ]
	cmp <(head -c 244 "$BATS_TEST_TMPDIR/ee") "$W"
	# not even the names are in it
	! grep -q CAPETOOL_FAULT "$rel"
	# the test build (the one the suite runs) still has them
	head -c 4096 /dev/zero | tr '\0' '\377' > "$BATS_TEST_TMPDIR/ee"
	CAPETOOL_FAULT_WRITE_AFTER=10 run ct flash "$W" --device "$BATS_TEST_TMPDIR/ee" --no-backup
	[ "$status" -eq 4 ]
}
