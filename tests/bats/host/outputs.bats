#!/usr/bin/env bats
# Output files: written whole or not at all (temporary file + rename), the
# -o directory created, empty names refused.

load helpers

# Run capetool with files limited to 1 KiB (RLIMIT_FSIZE): a write past
# that fails with EFBIG, as a full disk fails a write part way.
ct_fsize_1k() {
	bash -c 'ulimit -f 1; trap "" XFSZ; exec "$@"' limited "$CAPETOOL" "$@"
}

# No temporary file left in DIR.
no_temp_files() {
	! ls -A "$1" | grep -E '^\..*\.[A-Za-z0-9]{6}$'
}

@test "create -o out/ creates the directory (the README's first example)" {
	cd "$BATS_TEST_TMPDIR"
	run ct create "$DEFS/weather.cape" --board qemu-vexpress -o out/
	no_sanitizer_report
	[ "$status" -eq 0 ]
	[[ "$output" == *"out/BB-WTHR-01-00A2.eeprom (244 bytes)"* ]]
	[[ "$output" != *"out//"* ]]
	[ -f out/BB-WTHR-01-00A2.eeprom ] && [ -f out/BB-WTHR-01-00A2.dtbo ]
	run ct create "$DEFS/weather.cape" --board qemu-vexpress -o deeper/still
	[ "$status" -eq 0 ]
	[ -f deeper/still/BB-WTHR-01-00A2.dtbo ]
}

@test "create -o on a file that is not a directory says so" {
	touch "$BATS_TEST_TMPDIR/plain"
	run ct create "$DEFS/weather.cape" -o "$BATS_TEST_TMPDIR/plain"
	[ "$status" -eq 4 ]
	[[ "$output" == *"plain: cannot create the output directory: Not a directory"* ]]
}

@test "an empty output name is refused, not taken as /" {
	run ct create "$DEFS/weather.cape" -o ""
	[ "$status" -eq 2 ]
	[[ "$output" == *"-o: an empty directory name (use -o . for the current directory)"* ]]
	run ct decode "$GOLDEN/BB-WTHR-01-00A2.embedded.eeprom" -x ""
	[ "$status" -eq 2 ]
	[[ "$output" == *"-x: an empty file name"* ]]
	run ct flash "$GOLDEN/BB-WTHR-01-00A2.eeprom" --device "$BATS_TEST_TMPDIR/ee" --backup ""
	[ "$status" -eq 2 ]
	[[ "$output" == *"--backup: an empty file name"* ]]
	run ct read --device "$GOLDEN/BB-WTHR-01-00A2.eeprom" -o ""
	[ "$status" -eq 2 ]
}

@test "a create that fails part way leaves the old .eeprom and .dtbo as they were" {
	cd "$BATS_TEST_TMPDIR"
	ct create "$FIX/defs/kitchen-sink.cape" --board beaglebone-black -o out >/dev/null
	cp out/BB-SINK-01-00A0.eeprom old.eeprom
	cp out/BB-SINK-01-00A0.dtbo old.dtbo
	# the .dtbo (over 1 KiB) cannot be written whole; the .eeprom could
	[ "$(stat -c %s old.dtbo)" -gt 1024 ]
	[ "$(stat -c %s old.eeprom)" -lt 1024 ]
	run ct_fsize_1k create "$FIX/defs/kitchen-sink.cape" --board beaglebone-black -o out --serial 0000XXXX9999
	[ "$status" -eq 4 ]
	[[ "$output" == *"out/BB-SINK-01-00A0.dtbo: cannot write: File too large"* ]]
	cmp out/BB-SINK-01-00A0.eeprom old.eeprom
	cmp out/BB-SINK-01-00A0.dtbo old.dtbo
	no_temp_files out
}

@test "a backup that cannot be written whole is not left behind, and nothing is flashed" {
	cd "$BATS_TEST_TMPDIR"
	# an old image larger than 1 KiB: the servo cape with its overlay embedded
	mkdir big
	ct create "$DEFS/bborg-servo.cape" --board beaglebone-black --embed-overlay -o big >/dev/null
	cp big/BBORG_SERVO-00A2.eeprom ee
	[ "$(stat -c %s ee)" -gt 1024 ]
	cp ee orig
	run ct_fsize_1k flash "$GOLDEN/BBORG_SERVO-00A2.eeprom" --device ee --backup old.eeprom
	[ "$status" -eq 4 ]
	[[ "$output" == *"old.eeprom: cannot write the backup: File too large"* ]]
	[ ! -e old.eeprom ]
	cmp ee orig
	no_temp_files .
}

@test "decode -x and read -o replace their file whole or not at all" {
	cd "$BATS_TEST_TMPDIR"
	mkdir big
	ct create "$FIX/defs/kitchen-sink.cape" --board beaglebone-black --embed-overlay -o big >/dev/null
	[ "$(stat -c %s big/BB-SINK-01-00A0.dtbo)" -gt 1024 ]
	echo previous > x.dtbo
	run ct_fsize_1k decode big/BB-SINK-01-00A0.eeprom -x x.dtbo
	[ "$status" -eq 4 ]
	[[ "$output" == *"x.dtbo: cannot write: File too large"* ]]
	[ "$(cat x.dtbo)" = previous ]
	run ct decode big/BB-SINK-01-00A0.eeprom -x x.dtbo
	[ "$status" -eq 0 ]
	cmp x.dtbo big/BB-SINK-01-00A0.dtbo
	echo previous > dump
	head -c 4096 /dev/zero > dev
	run ct_fsize_1k read --device dev -o dump
	[ "$status" -eq 4 ]
	[ "$(cat dump)" = previous ]
	no_temp_files .
}

@test "an output that is a device or a symlink is written through, not replaced" {
	cd "$BATS_TEST_TMPDIR"
	# a character device stays one (a private null device: a capetool
	# that renamed over it must not take the system's /dev/null with it)
	if mknod -m 666 null c 1 3 2>/dev/null; then
		run ct read --device "$GOLDEN/BB-WTHR-01-00A2.eeprom" -o null
		no_sanitizer_report
		[ "$status" -eq 0 ]
		[ -c null ]
	fi
	# a FIFO is written into
	mkfifo fifo
	cat fifo > from-fifo &
	run ct decode "$GOLDEN/BB-WTHR-01-00A2.embedded.eeprom" -x fifo
	wait
	[ "$status" -eq 0 ]
	[ -p fifo ]
	[ "$(stat -c %s from-fifo)" -eq 731 ]
	# a symlink keeps pointing at its target, which gets the new content
	mkdir real
	echo old > real/dump
	ln -s real/dump link
	run ct read --device "$GOLDEN/BB-WTHR-01-00A2.eeprom" -o link
	[ "$status" -eq 0 ]
	[ -L link ]
	cmp real/dump "$GOLDEN/BB-WTHR-01-00A2.eeprom"
	no_temp_files real
	no_temp_files .
}

@test "pinout --svg writes through a FIFO or a symlink, and a failed write is exit 4" {
	cd "$BATS_TEST_TMPDIR"
	# a FIFO is written into, not renamed over
	mkfifo fifo
	timeout 20 cat fifo > from-fifo &
	run ct pinout --board beaglebone-black "$DEFS/weather.cape" --svg fifo
	wait
	no_sanitizer_report
	[ "$status" -eq 0 ]
	[ -p fifo ]
	grep -q '</svg>' from-fifo
	# a symlink keeps pointing at its target, which gets the drawing
	mkdir real
	echo old > real/p.svg
	ln -s real/p.svg link
	run ct pinout --board beaglebone-black "$DEFS/weather.cape" --svg link
	[ "$status" -eq 0 ]
	[ -L link ]
	grep -q '</svg>' real/p.svg
	no_temp_files real
	no_temp_files .
	# a write that fails (the file size limit) is exit 4, the old file kept
	echo previous > p.svg
	run ct_fsize_1k pinout --board beaglebone-black "$DEFS/weather.cape" --svg p.svg
	[ "$status" -eq 4 ]
	[[ "$output" == *"p.svg: cannot write"* ]]
	[ "$(cat p.svg)" = previous ]
	no_temp_files .
}

@test "create and resolve leave their outputs to the page cache, as dtc does (no fsync); read's dump is flushed to disk (strace)" {
	command -v strace >/dev/null || skip "no strace"
	cd "$BATS_TEST_TMPDIR"
	def=$DEFS/bone/bborg-relay.cape
	run strace -f -e trace=fsync,fdatasync,sync,syncfs "$CAPETOOL_RELEASE" create "$def" -b beaglebone-black -o o
	echo "$output"
	[ "$status" -eq 0 ]
	[ -s o/BBORG_RELAY-00A2.dtbo ]
	[[ "$output" != *sync* ]]
	run strace -f -e trace=fsync,fdatasync,sync,syncfs "$CAPETOOL_RELEASE" resolve -b beaglebone-black -c "$def" o/BBORG_RELAY-00A2.dtbo -o r.dtbo
	[ "$status" -eq 0 ]
	[[ "$output" != *sync* ]]
	# a dump of an EEPROM may be all that is left of its content
	run strace -f -e trace=fsync "$CAPETOOL_RELEASE" read --device o/BBORG_RELAY-00A2.eeprom -o dump.bin
	echo "$output"
	[ "$status" -eq 0 ]
	[[ "$output" == *"fsync("* ]]
	cmp dump.bin o/BBORG_RELAY-00A2.eeprom
}
