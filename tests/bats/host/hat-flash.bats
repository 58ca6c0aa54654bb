#!/usr/bin/env bats
# Two capebus controllers, a bone header and a Raspberry Pi one, each with
# a slot 0: --slot alone picks the controller of the image's family (a
# HAT's: rpi; a cape's: bone), and without an image (read, decode) is
# ambiguous and refused; --controller picks one by name or family; a HAT
# image is flashed and verified as far as its eeplen.  list names each
# controller's family; override takes the bone controller for a cape
# definition and refuses to pick one of two of them; remove takes the
# controller the cape is declared on.

load helpers

HAT=$FIX/hat

# two_ctrls DIR: capebus0 (bone) and capebus1 (rpi), each a slot 0 with an
# erased 4 KiB EEPROM (0-00540, 1-00500).
two_ctrls() {
	local s=$1 c dev
	for c in 0 1; do
		dev=$([ $c = 0 ] && echo 0-00540 || echo 1-00500)
		mkdir -p "$s/class/capebus/capebus$c/slot0" "$s/bus/nvmem/devices/$dev"
		echo empty > "$s/class/capebus/capebus$c/slot0/state"
		ln -s "../../../../bus/nvmem/devices/$dev" "$s/class/capebus/capebus$c/slot0/nvmem"
		head -c 4096 /dev/zero | tr '\0' '\377' > "$s/bus/nvmem/devices/$dev/nvmem"
	done
	echo bone > "$s/class/capebus/capebus0/family"
	echo rpi > "$s/class/capebus/capebus1/family"
}

setup() {
	S=$BATS_TEST_TMPDIR/sys
	two_ctrls "$S"
	export CAPETOOL_SYSFS=$S
	PI=$S/bus/nvmem/devices/1-00500/nvmem
	BONE=$S/bus/nvmem/devices/0-00540/nvmem
}

@test "--slot 0 on two controllers: flash takes the image's family's; read and decode are refused, naming both" {
	run ct flash "$HAT/v2-power.eep" --slot 0 --no-backup
	no_sanitizer_report
	[ "$status" -eq 0 ]
	# the HAT went to the Pi's slot 0, nothing to the bone's
	cmp -n "$(stat -c %s "$HAT/v2-power.eep")" "$HAT/v2-power.eep" "$PI"
	[ "$(tr -d '\377' < "$BONE" | wc -c)" -eq 0 ]
	run ct flash "$GOLDEN/BB-WTHR-01-00A2.eeprom" --slot 0 --no-backup
	[ "$status" -eq 0 ]
	cmp -n "$(stat -c %s "$GOLDEN/BB-WTHR-01-00A2.eeprom")" "$GOLDEN/BB-WTHR-01-00A2.eeprom" "$BONE"
	run ct read --slot 0 -o "$BATS_TEST_TMPDIR/d"
	[ "$status" -eq 2 ]
	[[ "$output" == *"slot 0 is on 2 capebus controllers: capebus0 (bone), capebus1 (rpi); say which with --controller NAME or FAMILY"* ]]
	run ct decode --slot 0
	[ "$status" -eq 2 ]
	[[ "$output" == *"slot 0 is on 2 capebus controllers"* ]]
}

@test "two controllers of the image's family with that slot: flash refuses to pick, writing nothing" {
	mkdir -p "$S/class/capebus/capebus2/slot0" "$S/bus/nvmem/devices/2-00500"
	echo rpi > "$S/class/capebus/capebus2/family"
	ln -s ../../../../bus/nvmem/devices/2-00500 "$S/class/capebus/capebus2/slot0/nvmem"
	head -c 4096 /dev/zero | tr '\0' '\377' > "$S/bus/nvmem/devices/2-00500/nvmem"
	run ct flash "$HAT/v2-power.eep" --slot 0 --no-backup
	[ "$status" -eq 2 ]
	[[ "$output" == *"slot 0 is on 3 capebus controllers"* ]]
	[ "$(tr -d '\377' < "$PI" | wc -c)" -eq 0 ]
}

@test "flash --controller rpi writes a HAT+ image as far as eeplen and verifies it" {
	run ct flash "$HAT/v2-power.eep" --slot 0 --controller rpi --no-backup
	no_sanitizer_report
	[ "$status" -eq 0 ]
	[[ "$output" == *"wrote 111 bytes (HAT+ \"5A Power HAT+\" by Example Power Co. (uuid e3b0c442-98fc-4c14-9afb-f4c8996fb924)) to $PI, verified"* ]]
	cmp -n 111 "$PI" "$HAT/v2-power.eep"
	# the rest of the EEPROM is untouched
	[ "$(tail -c +112 "$PI" | tr -d '\377' | wc -c)" -eq 0 ]
	[ "$(tr -d '\377' < "$BONE" | wc -c)" -eq 0 ]
	# the controller by name is the same one; decode reads it back
	run ct decode --slot 0 --controller capebus1
	[ "$status" -eq 0 ]
	[[ "$output" == *"product:       5A Power HAT+"* ]]
}

@test "a dump's bytes after eeplen are not written" {
	{ cat "$HAT/v1-gpio-dt.eep"; printf 'PADDING'; } > "$BATS_TEST_TMPDIR/dump"
	run ct flash "$BATS_TEST_TMPDIR/dump" --slot 0 --controller rpi --no-backup
	[ "$status" -eq 0 ]
	n=$(stat -c %s "$HAT/v1-gpio-dt.eep")
	[[ "$output" == *"writing the $n bytes the image defines (7 trailing bytes ignored)"* ]]
	cmp -n "$n" "$PI" "$HAT/v1-gpio-dt.eep"
	[ "$(tail -c +$((n + 1)) "$PI" | tr -d '\377' | wc -c)" -eq 0 ]
}

@test "another HAT's product UUID, or a cape, is replaced only with --force; a new version is not" {
	ct flash "$HAT/v2-power.eep" --slot 0 --controller rpi --no-backup
	run ct flash "$HAT/v2-minimal.eep" --slot 0 --controller rpi --no-backup
	[ "$status" -eq 7 ]
	[[ "$output" == *"holds HAT+ \"5A Power HAT+\" by Example Power Co. (uuid e3b0c442-98fc-4c14-9afb-f4c8996fb924), the image is HAT+ \"Blank HAT+\""*"use --force"* ]]
	cmp -n 111 "$PI" "$HAT/v2-power.eep"
	run ct flash "$GOLDEN/BB-WTHR-01-00A2.eeprom" --device "$PI" --no-backup
	[ "$status" -eq 7 ]
	[[ "$output" == *"holds HAT+ \"5A Power HAT+\""*"the image is part BB-WTHR-01"* ]]
	run ct flash "$HAT/v2-minimal.eep" --slot 0 --controller rpi --no-backup --force
	[ "$status" -eq 0 ]
	cmp -n "$(stat -c %s "$HAT/v2-minimal.eep")" "$PI" "$HAT/v2-minimal.eep"
	# the same product UUID, another product_ver: no --force needed
	python3 - "$HAT/v2-minimal.txt" "$BATS_TEST_TMPDIR/next.txt" <<'PY'
import sys
s = open(sys.argv[1]).read()
import re
s = re.sub(r'product_ver 0x[0-9a-fA-F]+', 'product_ver 0x0002', s)
open(sys.argv[2], 'w').write(s)
PY
	ct create "$BATS_TEST_TMPDIR/next.txt" -o "$BATS_TEST_TMPDIR"
	run ct flash "$BATS_TEST_TMPDIR/next.eep" --slot 0 --controller rpi --no-backup
	[ "$status" -eq 0 ]
	# a cape's EEPROM is not overwritten by a HAT without --force
	ct flash "$GOLDEN/BB-WTHR-01-00A2.eeprom" --slot 0 --controller bone --no-backup
	run ct flash "$HAT/v2-power.eep" --device "$BONE" --no-backup
	[ "$status" -eq 7 ]
	[[ "$output" == *"holds Weather Cape 00A2 (part BB-WTHR-01), the image is HAT+"* ]]
}

@test "a HAT image for a bone slot, or a cape for a Pi slot, needs --force" {
	run ct flash "$HAT/v2-power.eep" --slot 0 --controller bone --no-backup
	[ "$status" -eq 7 ]
	[[ "$output" == *"slot 0 is on a header of family bone: a Raspberry Pi HAT image does not go there (use --force"* ]]
	[ "$(tr -d '\377' < "$BONE" | wc -c)" -eq 0 ]
	run ct flash "$GOLDEN/BB-WTHR-01-00A2.eeprom" --slot 0 --controller capebus1 --no-backup
	[ "$status" -eq 7 ]
	[[ "$output" == *"family rpi: a cape image does not go there"* ]]
}

@test "a HAT flash that fails verify exits 8 and names the restore command" {
	ct flash "$HAT/v2-minimal.eep" --slot 0 --controller rpi --no-backup
	cd "$BATS_TEST_TMPDIR"
	CAPETOOL_FAULT_VERIFY_OFFSET=20 run ct flash "$HAT/v2-minimal.eep" --slot 0 --controller rpi --backup b.eep
	[ "$status" -eq 8 ]
	[[ "$output" == *"verify failed at offset 20"* ]]
	[[ "$output" == *"capetool flash 'b.eep' --device '$PI' --force --no-backup"* ]]
	cmp -n "$(stat -c %s "$HAT/v2-minimal.eep")" b.eep "$HAT/v2-minimal.eep"
}

@test "an invalid HAT image is not flashed: its decode exit code" {
	head -c 40 "$HAT/v2-power.eep" > "$BATS_TEST_TMPDIR/short.eep"
	run ct flash "$BATS_TEST_TMPDIR/short.eep" --slot 0 --controller rpi --no-backup
	[ "$status" -eq 14 ]
	[[ "$output" == *"not a valid HAT image, refusing to flash it: truncated"* ]]
	[ "$(tr -d '\377' < "$PI" | wc -c)" -eq 0 ]
}

@test "--controller names no controller: exit 9 with the ones there are; without --slot: usage" {
	run ct flash "$HAT/v2-power.eep" --slot 0 --controller capebus7 --no-backup
	[ "$status" -eq 9 ]
	[[ "$output" == *"--controller capebus7: no capebus controller of that name or family"*"(there: capebus0 (bone), capebus1 (rpi))"* ]]
	run ct flash "$HAT/v2-power.eep" --device "$PI" --controller rpi
	[ "$status" -eq 2 ]
	run ct read --device "$PI" --controller rpi -o "$BATS_TEST_TMPDIR/x"
	[ "$status" -eq 2 ]
}

@test "read --controller saves that controller's EEPROM" {
	ct flash "$HAT/v2-power.eep" --slot 0 --controller rpi --no-backup
	run ct read --slot 0 --controller rpi -o "$BATS_TEST_TMPDIR/r.bin"
	[ "$status" -eq 0 ]
	cmp "$BATS_TEST_TMPDIR/r.bin" "$PI"
}

@test "list names each controller's family" {
	run ct list
	[ "$status" -eq 0 ]
	[ "${lines[0]}" = "capebus0 (family bone):" ]
	[ "${lines[1]}" = "  slot 0  empty     (nvmem 0-00540)" ]
	[ "${lines[2]}" = "capebus1 (family rpi):" ]
	[ "${lines[3]}" = "  slot 0  empty     (nvmem 1-00500)" ]
	run ct list --json
	echo "$output" | python3 -c '
import json, sys
d = json.load(sys.stdin)
assert [(c["name"], c["family"]) for c in d["controllers"]] == [("capebus0", "bone"), ("capebus1", "rpi")], d'
}

@test "override takes the bone controller for a definition, refuses two of them; remove finds the cape's" {
	for c in 0 1; do mkdir -p "$S/kernel/config/capebus/capebus$c/capes"; done
	# a plain directory gives no status: the kernel "refuses" (15), after writing there
	run ct override "$DEFS/weather.cape" --board qemu-vexpress
	[ "$status" -eq 15 ]
	[[ "$output" == *"the kernel refused BB-WTHR-01: no status"* ]]
	[ -d "$S/kernel/config/capebus/capebus0/capes/BB-WTHR-01" ]
	[ -z "$(ls "$S/kernel/config/capebus/capebus1/capes")" ]
	# (configfs removes a cape's attribute files with it; a plain directory
	# must be emptied first)
	rm -f "$S/kernel/config/capebus/capebus0/capes/BB-WTHR-01"/*
	run ct remove BB-WTHR-01
	[ "$status" -eq 0 ]
	[ ! -e "$S/kernel/config/capebus/capebus0/capes/BB-WTHR-01" ]
	# a second bone controller: which one is the user's to say
	mkdir -p "$S/class/capebus/capebus2" "$S/kernel/config/capebus/capebus2/capes"
	echo bone > "$S/class/capebus/capebus2/family"
	run ct override "$DEFS/weather.cape" --board qemu-vexpress
	[ "$status" -eq 2 ]
	[[ "$output" == *"2 capebus controllers of family bone in $S/kernel/config/capebus: capebus0 (bone), capebus2 (bone); say which with --controller NAME or FAMILY"* ]]
	[ -z "$(ls "$S/kernel/config/capebus/capebus0/capes")" ]
	[ -z "$(ls "$S/kernel/config/capebus/capebus2/capes")" ]
	run ct override "$DEFS/weather.cape" --board qemu-vexpress --controller capebus2
	[ "$status" -eq 15 ]
	[ -d "$S/kernel/config/capebus/capebus2/capes/BB-WTHR-01" ]
	# the same part declared on two controllers: remove asks which
	mkdir -p "$S/kernel/config/capebus/capebus0/capes/BB-WTHR-01"
	run ct remove BB-WTHR-01
	[ "$status" -eq 2 ]
}
