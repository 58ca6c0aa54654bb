#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
# capetool status in the guest, against what sysfs and configfs say, on one
# boot with a cape from every source and both ways of failing:
#   bone slot 0  the weather cape, its overlay applied by the bootloader
#                (the board DTB as U-Boot hands it over, with its
#                /chosen/overlays record: fixtures/bootloader-dtb.sh)
#   bone slot 1  the RTC cape, its overlay embedded in its EEPROM
#   bone slot 2  a corrupt EEPROM (a control byte in the board name): failed
#   bone slot 3  the humidity alarm cape: wants P8.13, the weather cape's
#   Pi slot 0    the LED HAT+ (vendor, product, uuid)
# and declared through configfs: "led" (an LED on P8.8, its dtbo written
# to configfs), "clash" (an LED on P8.13: refused), "ghost" (no overlay
# anywhere: its firmware file is not found).

load ../../qemu/lib
load slot-wait
load cfs-run

CFS=/sys/kernel/config/capebus/capebus0
RECORD=BB-WTHR-01-00A2.bb.org-overlays

setup_file() {
	local d=$BATS_FILE_TMPDIR fix=$BATS_TEST_DIRNAME/fixtures
	"$CB_CAPETOOL" create "$CB_TOP/cape-defs/weather.cape" --board qemu-vexpress -o "$d" >/dev/null
	"$fix/bootloader-dtb.sh" "$CB_DTB" "$d/board.dtb" "$RECORD" "$d/BB-WTHR-01-00A2.dtbo"
	"$CB_CAPETOOL" create "$CB_TOP/cape-defs/rtc.cape" --board qemu-vexpress --embed-overlay \
		-o "$d" >/dev/null
	python3 - "$CB_FIRMWARE/BB-WTHR-01-00A2.eeprom" "$d/corrupt.eeprom" <<-'PY'
	import sys
	img = bytearray(open(sys.argv[1], "rb").read())
	img[8] = 0x07
	open(sys.argv[2], "wb").write(img)
	PY
	sed 's/P8.13/P8.8/; s/813/808/; s/cape:user/cape:status/' "$fix/configfs-leds.dtso" |
		dtc -q -@ -I dts -O dtb -o "$d/led.dtbo" -
	dtc -q -@ -I dts -O dtb -o "$d/clash.dtbo" "$fix/configfs-leds.dtso"
	export CB_DTB=$d/board.dtb
	guest_boot --append capebus.eeprom_overlays=1 \
		   --slot 0="$CB_FIRMWARE/BB-WTHR-01-00A2.eeprom" \
		   --slot 1="$d/EXL-RTC-01-00A0.eeprom" \
		   --slot 2="$d/corrupt.eeprom" \
		   --slot 3="$CB_FIRMWARE/BB-HUMID-01-00A0.eeprom" \
		   --hat 0="$CB_FIRMWARE/led-hat.eep"
	guest_put "$fix/configfs-lib.sh" cfs.sh
	guest_put "$d/led.dtbo"
	guest_put "$d/clash.dtbo"
	wait_state 0 loaded
	wait_state 1 loaded
	wait_state 2 failed
	wait_state 3 failed
	CTRL=$(hat_ctrl) wait_state 0 loaded
	cfs_run 'declare_cape led CT-LED-01 && cat /host/led.dtbo > $CAPES/led/dtbo &&
		echo 1 > $CAPES/led/enable &&
		declare_cape clash CT-CLASH-01 && cat /host/clash.dtbo > $CAPES/clash/dtbo &&
		{ ! echo 1 > $CAPES/clash/enable; } &&
		declare_cape ghost CT-GHOST-01 && echo 1 > $CAPES/ghost/enable'
	[ "$status" -eq 0 ]
}

# The Raspberry Pi header's controller.
hat_ctrl() {
	guest_ok 'for c in /sys/class/capebus/*; do [ "$(cat $c/family)" = rpi ] && echo $c && break; done; :'
	echo "$output"
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

# status_json: capetool status --json's output in $BATS_FILE_TMPDIR/status.json.
status_json() {
	guest_run 'capetool status --json'
	[ "$status" -eq 0 ]
	printf '%s\n' "$output" > "$BATS_FILE_TMPDIR/status.json"
}

@test "status --json says what sysfs and configfs say, slot by slot and field by field" {
	status_json
	# What the kernel says, as "CTRL WHERE KEY=VALUE" lines: each slot's
	# state and reason, its cape's every attribute there is (not empty), its
	# pins and currents a line each, its driver; each declaration's status.
	guest_run 'for c in /sys/class/capebus/*; do n=${c##*/}
		for s in $c/slot*; do w=${s##*/slot}
			echo "$n $w state=$(cat $s/state)"
			r=$(cat $s/reason); [ -z "$r" ] || echo "$n $w reason=$r"
			[ -e $s/cape ] || continue
			d=$(readlink -f $s/cape); echo "$n $w cape=${d##*/}"
			for a in board_name version manufacturer part_number serial family uuid \
				 vendor_id product_id product_version format budget; do
				[ -e $d/$a ] && v=$(cat $d/$a) && [ -n "$v" ] && echo "$n $w $a=$v"
			done
			echo "$n $w overlay=$(cat $d/overlay)"
			v=$(cat $d/overlay_file); [ -z "$v" ] || echo "$n $w overlay_file=$v"
			sed "s/^/$n $w pin=/" $d/pins; sed "s/^/$n $w current=/" $d/currents
			[ -e $d/driver ] && v=$(readlink $d/driver) && echo "$n $w driver=${v##*/}"
		done
		for k in /sys/kernel/config/capebus/$n/capes/*; do [ -d $k ] || continue
			echo "$n ${k##*/} status=$(cat $k/status)"
			v=$(cat $k/cape); [ -z "$v" ] || echo "$n ${k##*/} cape=$v"
		done
	done'
	[ "$status" -eq 0 ]
	printf '%s\n' "$output" | sort > "$BATS_FILE_TMPDIR/sysfs.lines"
	python3 - "$BATS_FILE_TMPDIR/status.json" <<-'PY' | sort > "$BATS_FILE_TMPDIR/status.lines"
	import json, sys
	j = json.load(open(sys.argv[1]))
	for c in j["controllers"]:
	    n = c["name"]
	    for s in c["slots"]:
	        if s["kind"] != "hardware":
	            continue
	        w = s["slot"]
	        print(f"{n} {w} state={s['state']}")
	        if s["reason"]:
	            print(f"{n} {w} reason={s['reason']}")
	        k = s["cape"]
	        if not k:
	            continue
	        print(f"{n} {w} cape={k['name']}")
	        for a in ("board_name", "version", "manufacturer", "part_number", "serial", "family",
	                  "uuid", "vendor_id", "product_id", "product_version", "format", "budget"):
	            if k[a] is not None:
	                print(f"{n} {w} {a}={k[a]}")
	        print(f"{n} {w} overlay={k['overlay']['source']}")
	        if k["overlay"]["file"]:
	            print(f"{n} {w} overlay_file={k['overlay']['file']}")
	        for p in k["pins"]:
	            print(f"{n} {w} pin={p}")
	        for p in k["currents"]:
	            print(f"{n} {w} current={p}")
	        if k["driver"]:
	            print(f"{n} {w} driver={k['driver']}")
	    for d in c["declared"]:
	        print(f"{n} {d['name']} status={d['status']}")
	        if d["cape"]:
	            print(f"{n} {d['name']} cape={d['cape']}")
	PY
	diff -u "$BATS_FILE_TMPDIR/sysfs.lines" "$BATS_FILE_TMPDIR/status.lines"
	# and the comparison is of something: every slot and declaration is there
	grep -q '^capebus0 3 reason=pin P8.13 is held' "$BATS_FILE_TMPDIR/status.lines"
	grep -q '^capebus0 clash status=failed: ' "$BATS_FILE_TMPDIR/status.lines"
	grep -q 'uuid=' "$BATS_FILE_TMPDIR/status.lines"
}

@test "status: each cape's overlay source, and the bootloader's record found in the live tree" {
	status_json
	python3 - "$BATS_FILE_TMPDIR/status.json" "$RECORD" <<-'PY'
	import json, sys
	j = json.load(open(sys.argv[1]))
	bone = next(c for c in j["controllers"] if c["family"] == "bone")
	slot = {s["slot"]: s for s in bone["slots"]}
	o = slot[0]["cape"]["overlay"]
	assert o["source"] == "bootloader", o
	assert o["applied_by"] == "/chosen/overlays/" + sys.argv[2], o
	assert o["in_live_tree"] is True, o
	o = slot[1]["cape"]["overlay"]
	assert o["source"] == "eeprom" and o["file"] is None, o
	assert slot[1]["id"]["overlay_embedded"] is True, slot[1]["id"]
	virt = {s["cape"]["declared_as"]: s for s in bone["slots"] if s["kind"] == "virtual"}
	assert sorted(virt) == ["ghost", "led"], virt
	assert virt["led"]["state"] == "loaded" and virt["led"]["cape"]["overlay"]["source"] == "configfs"
	assert virt["ghost"]["cape"]["overlay"] == {"source": "none", "file": "CT-GHOST-01-00A0.dtbo",
	                                            "applied_by": None, "in_live_tree": None}
	decl = {d["name"]: d for d in bone["declared"]}
	assert decl["led"]["overlay_exclusive_use"] == ["P8.8"], decl["led"]
	assert decl["clash"]["state"] == "failed" and decl["clash"]["enable"] is False, decl["clash"]
	assert "P8.13" in decl["clash"]["reason"], decl["clash"]
	PY
	guest_ok "test -e /proc/device-tree/chosen/overlays/$RECORD"
}

@test "status: the ID each slot's EEPROM holds, decoded, and why a corrupt one does not decode" {
	status_json
	guest_run 'cat /sys/class/capebus/capebus0/slot2/reason'
	local reason=$output
	python3 - "$BATS_FILE_TMPDIR/status.json" "$reason" <<-'PY'
	import json, sys
	j = json.load(open(sys.argv[1]))
	bone = next(c for c in j["controllers"] if c["family"] == "bone")
	slot = {s["slot"]: s for s in bone["slots"]}
	for n, part in ((0, "BB-WTHR-01"), (1, "EXL-RTC-01"), (3, "BB-HUMID-01")):
	    i = slot[n]["id"]
	    assert i["error"] is None and i["part_number"] == part and i["format"] == "A1", i
	    assert i["from"] == "configfs slots/%d/eeprom" % n, i
	# the humidity cape was refused: the ID says what it is, the slot has no cape
	assert slot[3]["state"] == "failed" and slot[3]["cape"] is None, slot[3]
	i = slot[2]["id"]
	assert i["error"] and "board_name" not in i, i
	print(i["error"]); print(sys.argv[2])
	hat = next(c for c in j["controllers"] if c["family"] == "rpi")
	i = {s["slot"]: s for s in hat["slots"]}[0]["id"]
	assert i["format"] == "HAT+" and i["uuid"] and i["vendor"], i
	PY
}

@test "status text: a line per slot with its state, reason and overlay; the declarations" {
	guest_run 'capetool status --controller bone'
	[ "$status" -eq 0 ]
	[[ "$output" == "capebus0 (bone)"* ]]
	[[ "$output" == *"  slot 0: loaded, BB-WTHR-01 00A2"*"overlay:   bootloader (/chosen/overlays/$RECORD, in the live tree)"* ]]
	[[ "$output" == *"  slot 2: failed"*"reason:    "* ]]
	[[ "$output" == *"  slot 3: failed"*"reason:    pin P8.13 is held by"* ]]
	[[ "$output" == *"(virtual): detected, CT-GHOST-01 00A0"*"overlay:   none (CT-GHOST-01-00A0.dtbo not found)"* ]]
	[[ "$output" == *"declared (configfs capes/):"*"clash: failed: "* ]]
	[[ "$output" != *rpi* ]]
}

@test "status --check: exit 15 while a slot failed, 0 for a controller with none" {
	guest_run 'capetool status --check >/dev/null'
	[ "$status" -eq 15 ]
	guest_run 'capetool status --check --controller rpi'
	[ "$status" -eq 0 ]
	guest_run 'capetool status >/dev/null'
	[ "$status" -eq 0 ]
}
