#!/usr/bin/env bats
# capetool status against a captured tree: sysfs as tests/bats/host/
# helpers.bash's fake_sysfs lays it out, plus configfs (a declared cape in a
# virtual slot, one refused) and the live tree's /chosen/overlays.  The
# guest suite (tests/bats/guest/status.bats) checks it against a kernel.

load helpers

# status_tree DIR: DIR/sys as fake_sysfs, slot 0's overlay applied by the
# bootloader (its record in the live tree), configfs with the slots' state
# and two declarations: "led" (loaded in virtual slot 5, its dtbo's
# exclusive-use P8.8) and "clash" (refused).
status_tree() {
	local s=$1/sys c
	fake_sysfs "$s"
	c=$s/bus/capebus/devices/capebus0-slot0
	echo bootloader > "$c/overlay"
	echo "applied before Linux started (/chosen/overlays/BB-WTHR-01-00A2.rec); it stays until reboot" \
		> "$s/class/capebus/capebus0/slot0/reason"
	mkdir -p "$s/firmware/devicetree/base/chosen/overlays"
	echo -n ok > "$s/firmware/devicetree/base/chosen/overlays/BB-WTHR-01-00A2.rec"
	echo bone > "$s/class/capebus/capebus0/family"
	mkdir -p "$s/bus/capebus/drivers/capebus-generic"
	ln -s ../../../bus/capebus/drivers/capebus-generic "$c/driver"
	local cfs=$s/kernel/config/capebus/capebus0
	for i in 0 1 2 3; do
		mkdir -p "$cfs/slots/$i"
		echo none > "$cfs/slots/$i/override_status"
		: > "$cfs/slots/$i/eeprom"
	done
	echo "refused: blank EEPROM (all 0x00)" > "$cfs/slots/1/override_status"
	mkdir -p "$cfs/capes/led" "$cfs/capes/clash"
	echo loaded > "$cfs/capes/led/status"; echo 1 > "$cfs/capes/led/enable"
	echo virtual > "$cfs/capes/led/slot"; echo capebus0-slot5 > "$cfs/capes/led/cape"
	: > "$cfs/capes/led/pins"
	printf '/dts-v1/;\n/plugin/;\n/ { exclusive-use = "P8.8"; fragment@0 { target-path = "/"; __overlay__ { }; }; };\n' |
		dtc -q -I dts -O dtb -o "$cfs/capes/led/dtbo" -
	echo "failed: pin P8.13 is held by BB-WTHR-01 (slot 0)" > "$cfs/capes/clash/status"
	echo 0 > "$cfs/capes/clash/enable"; echo virtual > "$cfs/capes/clash/slot"
	echo > "$cfs/capes/clash/cape"; echo P8.13 > "$cfs/capes/clash/pins"
	c=$s/bus/capebus/devices/capebus0-slot5
	mkdir -p "$c"
	echo "LED cape" > "$c/board_name"; echo 00A0 > "$c/version"; echo t > "$c/manufacturer"
	echo CT-LED-01 > "$c/part_number"; echo > "$c/serial"; echo > "$c/format"; echo 5 > "$c/slot"
	echo configfs > "$c/overlay"; echo > "$c/overlay_file"; : > "$c/pins"
	printf 'vdd-3v3b 0\nvdd-5v 0\nsys-5v 0\ndc-supplied 0\n' > "$c/currents"
	echo within > "$c/budget"
	ln -s ../../../bus/capebus/drivers/capebus-generic "$c/driver"
}

@test "status: per slot the state, reason, the ID decoded from its EEPROM, the cape and its overlay's source" {
	status_tree "$BATS_TEST_TMPDIR"
	run ct status --root "$BATS_TEST_TMPDIR"
	no_sanitizer_report
	[ "$status" -eq 0 ]
	[ "${lines[0]}" = "capebus0 (bone)" ]
	[ "${lines[1]}" = "  slot 0: loaded, BB-WTHR-01 00A2" ]
	[[ "$output" == *'    id:        nvmem 0-00540: A1, part BB-WTHR-01 version 00A2, board "Weather Cape", manufacturer "Example Labs", serial "4012EXLB0042", 3 pins'* ]]
	[[ "$output" == *'    overlay:   bootloader (/chosen/overlays/BB-WTHR-01-00A2.rec, in the live tree)'* ]]
	[[ "$output" == *'    driver:    capebus-generic'* ]]
	[[ "$output" == *$'    pins:      P9.19 mode3 bidir pull-up rx slow\n               P8.13 mode7 out no-pull fast\n               P9.39'* ]]
	[[ "$output" == *$'  slot 1: empty\n    id:        none (nvmem 0-00550: blank, or not read yet)\n    last:      override refused: blank EEPROM (all 0x00)'* ]]
	[[ "$output" == *$'  slot 2: failed\n    reason:    pin P8.13 is held by BB-WTHR-01 (slot 0)\n    id:        nvmem 0-00560: A1, part BB-HUMID-01'* ]]
	[[ "$output" == *$'  slot 5 (virtual): loaded, CT-LED-01 00A0'*'    overlay:   configfs'*'    declared:  configfs capes/led'* ]]
	[[ "$output" == *$'  declared (configfs capes/):\n    clash: failed: pin P8.13 is held by BB-WTHR-01 (slot 0)\n      pins:      P8.13\n    led: loaded, as capebus0-slot5\n      exclusive: P8.8'* ]]
}

@test "status --json: the documented keys, the live tree's record, the declared capes" {
	status_tree "$BATS_TEST_TMPDIR"
	run ct status --json --root "$BATS_TEST_TMPDIR"
	no_sanitizer_report
	[ "$status" -eq 0 ]
	echo "$output" | python3 -c '
import json, sys
j = json.load(sys.stdin)
assert j["status_version"] == 1 and j["failed"] == 2, j["failed"]
c = j["controllers"][0]
assert c["name"] == "capebus0" and c["family"] == "bone" and c["configfs"] is True
s = {x["slot"]: x for x in c["slots"]}
assert sorted(s) == [0, 1, 2, 3, 5]
assert [s[n]["kind"] for n in (0, 3, 5)] == ["hardware", "hardware", "virtual"]
k = s[0]["cape"]
assert set(k) == {"name", "board_name", "version", "manufacturer", "part_number", "serial", "family",
                  "uuid", "vendor_id", "product_id", "product_version", "format", "budget", "overlay",
                  "driver", "of_node", "declared_as", "pins", "currents"}, sorted(k)
assert k["overlay"] == {"source": "bootloader", "file": None,
                        "applied_by": "/chosen/overlays/BB-WTHR-01-00A2.rec", "in_live_tree": True}
assert k["driver"] == "capebus-generic" and k["uuid"] is None
assert k["pins"][1] == "P8.13 mode7 out no-pull fast"
i = s[0]["id"]
assert i["from"] == "nvmem 0-00540" and i["part_number"] == "BB-WTHR-01" and i["pins"] == 3, i
assert s[1]["override"] == "refused: blank EEPROM (all 0x00)" and s[1]["id"] is None
assert s[2]["state"] == "failed" and s[2]["cape"] is None and s[2]["id"]["part_number"] == "BB-HUMID-01"
assert s[5]["state"] == "loaded" and s[5]["cape"]["declared_as"] == "led"
d = {x["name"]: x for x in c["declared"]}
assert d["led"]["overlay_exclusive_use"] == ["P8.8"] and d["led"]["enable"] is True
assert d["clash"] == {"name": "clash", "status": "failed: pin P8.13 is held by BB-WTHR-01 (slot 0)",
                      "state": "failed", "reason": "pin P8.13 is held by BB-WTHR-01 (slot 0)",
                      "enable": False, "slot": "virtual", "cape": None, "pins": ["P8.13"],
                      "overlay_exclusive_use": None}, d["clash"]
'
}

@test "status: a bootloader record missing from the live tree is said" {
	status_tree "$BATS_TEST_TMPDIR"
	rm "$BATS_TEST_TMPDIR/sys/firmware/devicetree/base/chosen/overlays/BB-WTHR-01-00A2.rec"
	run ct status --root "$BATS_TEST_TMPDIR"
	[ "$status" -eq 0 ]
	[[ "$output" == *'bootloader (/chosen/overlays/BB-WTHR-01-00A2.rec, not in the live tree)'* ]]
}

@test "status: the ID is what the controller kept (configfs slots/N/eeprom) before the nvmem device" {
	status_tree "$BATS_TEST_TMPDIR"
	cp "$GOLDEN/EXL-RTC-01-00A0.eeprom" "$BATS_TEST_TMPDIR/sys/kernel/config/capebus/capebus0/slots/0/eeprom"
	run ct status --root "$BATS_TEST_TMPDIR"
	[ "$status" -eq 0 ]
	[[ "$output" == *'    id:        configfs slots/0/eeprom: A1, part EXL-RTC-01 version 00A0'* ]]
}

@test "status: an EEPROM that does not decode says why" {
	status_tree "$BATS_TEST_TMPDIR"
	printf 'garbage!garbage!garbage!' > "$BATS_TEST_TMPDIR/sys/bus/nvmem/devices/0-00560/nvmem"
	run ct status --json --root "$BATS_TEST_TMPDIR"
	no_sanitizer_report
	[ "$status" -eq 0 ]
	echo "$output" | python3 -c '
import json, sys
i = json.load(sys.stdin)["controllers"][0]["slots"][2]["id"]
assert i["from"] == "nvmem 0-00560" and "magic" in i["error"] and "part_number" not in i, i'
}

@test "status --check: exit 15 if a slot or declaration failed or an overlay file is missing, else 0" {
	status_tree "$BATS_TEST_TMPDIR"
	run ct status --check --root "$BATS_TEST_TMPDIR"
	[ "$status" -eq 15 ]
	local s=$BATS_TEST_TMPDIR/sys
	echo empty > "$s/class/capebus/capebus0/slot2/state"
	rm -r "$s/kernel/config/capebus/capebus0/capes/clash"
	run ct status --check --root "$BATS_TEST_TMPDIR"
	[ "$status" -eq 0 ]
	echo none > "$s/bus/capebus/devices/capebus0-slot5/overlay"
	echo CT-LED-01-00A0.dtbo > "$s/bus/capebus/devices/capebus0-slot5/overlay_file"
	run ct status --check --root "$BATS_TEST_TMPDIR"
	[ "$status" -eq 15 ]
	[[ "$output" == *'overlay:   none (CT-LED-01-00A0.dtbo not found)'* ]]
	# without --check, the report is the result
	run ct status --root "$BATS_TEST_TMPDIR"
	[ "$status" -eq 0 ]
}

@test "status --controller picks by name or family; a wrong one, an argument, no capebus" {
	status_tree "$BATS_TEST_TMPDIR"
	run ct status --controller bone --root "$BATS_TEST_TMPDIR"
	[ "$status" -eq 0 ]
	[ "${lines[0]}" = "capebus0 (bone)" ]
	run ct status --controller rpi --root "$BATS_TEST_TMPDIR"
	[ "$status" -eq 2 ]
	[[ "$output" == *"--controller rpi: no capebus controller of that name or family"* ]]
	run ct status slot0 --root "$BATS_TEST_TMPDIR"
	[ "$status" -eq 2 ]
	mkdir -p "$BATS_TEST_TMPDIR/empty/sys"
	run ct status --root "$BATS_TEST_TMPDIR/empty"
	[ "$status" -eq 9 ]
	[[ "$output" == *"no capebus controllers"* ]]
	run ct status --root "$BATS_TEST_TMPDIR/nowhere"
	[ "$status" -eq 9 ]
}
