#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
# Capes share a header bus capebus enables by address, with its pads muxed
# once (issue 26): BB-I2C1-RTC-DS3231 (cape-defs/bone/, BeagleBoard.org's
# DS3231 at 0x68 on I2C1) and an SSD1306 display at 0x3c on I2C1
# (fixtures/bus-share/i2c1-ssd1306.cape) both state P9.17 and P9.18 as
# "mode2 bidir pull-up rx slow".  The first to come enables the bus (the
# test board's I2C1, i2c-gpio on simulated lines where no chip answers: the
# devices are I2C clients) and muxes its pads; the second leaves them as
# they are.  Either may go first; the other keeps the bus, its device and
# the pads' setting, and after both the tree and the pin controller's pads
# are as the board booted.  A cape with another word for one of the bus's
# pins (pull-down on P9.17) is refused naming the pin, the bus and the cape
# that muxed it; one at an address the bus has taken (BB-RTC-01's MCP7940x
# at 0x68, cape-defs/bone/) by the overlay rules' bus addresses.
# P9.17 and P9.18 are pads 0x15c and 0x158 (pins 87 and 86).

load ../../qemu/lib
load cfs-run

FIX=$BATS_TEST_DIRNAME/fixtures
I2C1=/proc/device-tree/i2c-header1
PCTL=/sys/kernel/debug/pinctrl/48000800.pinmux-pinctrl-single

setup_file() {
	local ct=${CB_CAPETOOL:-$CB_TOP/build/capetool/host/capetool}
	local out=$BATS_FILE_TMPDIR/fw f
	mkdir -p "$out"
	# The display again, with P9.17 pulled down: one word differs.
	sed -e '/P9.17/s/pull = "up"/pull = "down"/' -e 's/CB-I2C1-SSD1306/CB-I2C1-OLED-PD/' \
		"$FIX/bus-share/i2c1-ssd1306.cape" > "$BATS_FILE_TMPDIR/pull-down.cape"
	for f in "$CB_TOP/cape-defs/bone/bb-i2c1-rtc-ds3231.cape" "$FIX/bus-share/i2c1-ssd1306.cape" \
		"$CB_TOP/cape-defs/bone/bb-rtc-01.cape" "$BATS_FILE_TMPDIR/pull-down.cape"; do
		"$ct" create "$f" --board beaglebone-black -o "$out" >/dev/null
	done
	# A cape that enables I2C1 and states no pin words (bus-enable.bats').
	dtc -q -@ -I dts -O dtb -o "$out/enable-i2c1-a.dtbo" "$FIX/enable-i2c1-a.dtso"
	dtc -q -@ -I dts -O dtb -o "$out/add-to-i2c1.dtbo" "$FIX/add-to-i2c1.dtso"
	guest_boot
	for f in "$out"/*; do
		guest_put "$f"
	done
	guest_put "$FIX/configfs-lib.sh" cfs.sh
	guest_ok "mount -t debugfs none /sys/kernel/debug 2>/dev/null; . /host/cfs.sh; dt_hash > /tmp/dt.base; cat $PCTL/pinmux-pins > /tmp/pins.base; cat $PCTL/pins > /tmp/pads.base"
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

# Guest shell functions for the tests below (after cfs.sh):
#   add NAME PART: declare cape NAME from PART's EEPROM image and overlay,
#	enable it and print its status
#   clients: the I2C clients on the header's I2C1 at 0x3c and 0x68, or none
#   pads: P9.17's and P9.18's pad values and holders
#   same: "same-tree same-pins" when the tree, and the pads' holders and
#	values, are as the board booted (red team round 13, F8: a removed
#	cape's pads kept its mux)
LIB="add() { mkdir \$CAPES/\$1 && cat /host/\$2.eeprom > \$CAPES/\$1/eeprom && cat /host/\$2.dtbo > \$CAPES/\$1/dtbo;
		echo 1 > \$CAPES/\$1/enable; cat \$CAPES/\$1/status; }
	clients() { a=none; for d in /sys/bus/i2c/devices/i2c-*; do
		[ \"\$(readlink -f \$d/of_node 2>/dev/null)\" = \"\$(readlink -f /sys/firmware/devicetree/base/i2c-header1)\" ] && a=\${d##*/i2c-}; done
		echo \$(ls /sys/bus/i2c/devices/ | grep -E \"^\$a-00(3c|68)\$\" || echo none); }
	pads() { pad_state 87 86; }
	same() { echo \$([ \"\$(dt_hash)\" = \"\$(cat /tmp/dt.base)\" ] && echo same-tree) \$(cat $PCTL/pinmux-pins | cmp -s - /tmp/pins.base && cat $PCTL/pins | cmp -s - /tmp/pads.base && echo same-pins); }"

@test "two capes with I2C1's pin words both load: the bus's pads are muxed once, by the first" {
	cfs_run "$LIB; add rtc BB-I2C1-DS3231-00A0; add oled CB-I2C1-SSD1306-00A0; cat $I2C1/status; echo; clients
		cat \$CAPES/rtc/cape; pads"
	[ "$status" -eq 0 ]
	[ "${lines[0]}" = loaded ]
	[ "${lines[1]}" = loaded ]
	[ "${lines[2]}" = okay ]
	[[ "${lines[3]}" =~ ^[0-9]+-003c\ [0-9]+-0068$ ]]
	[ "${lines[5]}" = "00000072 ${lines[4]}" ]
	[ "${lines[6]}" = "00000072 ${lines[4]}" ]
}

@test "the cape that enabled the bus goes first: the other keeps the bus, its device and the pads' setting" {
	cfs_run "$LIB; rmdir \$CAPES/rtc; cat \$CAPES/oled/status $I2C1/status; echo; clients; pads"
	[ "$status" -eq 0 ]
	[ "${lines[0]}" = loaded ]
	[ "${lines[1]}" = okay ]
	[[ "${lines[2]}" =~ ^[0-9]+-003c$ ]]
	# Held for the bus now, muxed as they were (not left unheld).
	[[ "${lines[3]}" == "00000072 capebus0-bus-pads"* ]]
	[[ "${lines[4]}" == "00000072 capebus0-bus-pads"* ]]
	# A cape adding to the bus without asking for it is refused, and the
	# reason does not name the cape that enabled it: it is gone (red team
	# round 13, F4).
	cfs_run "declare_cape sneak CB-SNEAK && cat /host/add-to-i2c1.dtbo > \$CAPES/sneak/dtbo;
		echo 1 > \$CAPES/sneak/enable; cat \$CAPES/sneak/status; rmdir \$CAPES/sneak"
	[ "${lines[0]}" = "failed: overlay refused: targets: fragment fragment@0 targets /i2c-header1, which it does not enable (status = \"okay\"): a cape since removed enabled it" ]
	cfs_run "$LIB; rmdir \$CAPES/oled; cat $I2C1/status; echo; clients; same"
	[ "$status" -eq 0 ]
	[ "${lines[0]}" = disabled ]
	[ "${lines[1]}" = none ]
	[ "${lines[2]}" = "same-tree same-pins" ]
}

@test "the cape that shares the bus goes first: the other keeps the bus, its device and the pads" {
	cfs_run "$LIB; add rtc BB-I2C1-DS3231-00A0; add oled CB-I2C1-SSD1306-00A0; rmdir \$CAPES/oled
		cat \$CAPES/rtc/status $I2C1/status; echo; clients; cat \$CAPES/rtc/cape; pads"
	[ "$status" -eq 0 ]
	[ "${lines[0]}" = loaded ]
	[ "${lines[1]}" = loaded ]
	[ "${lines[2]}" = loaded ]
	[ "${lines[3]}" = okay ]
	[[ "${lines[4]}" =~ ^[0-9]+-0068$ ]]
	[ "${lines[6]}" = "00000072 ${lines[5]}" ]
	[ "${lines[7]}" = "00000072 ${lines[5]}" ]
	cfs_run "$LIB; rmdir \$CAPES/rtc; cat $I2C1/status; echo; clients; same"
	[ "$status" -eq 0 ]
	[ "${lines[0]}" = disabled ]
	[ "${lines[1]}" = none ]
	[ "${lines[2]}" = "same-tree same-pins" ]
}

@test "a third cape with another word for P9.17 is refused, naming the pin, the bus and who muxed it" {
	cfs_run "$LIB; add rtc BB-I2C1-DS3231-00A0; add oled CB-I2C1-SSD1306-00A0; h=\$(dt_hash); p=\$(pads)
		add pd CB-I2C1-OLED-PD-00A0; [ \"\$(dt_hash)\" = \"\$h\" ] && echo same-tree; [ \"\$(pads)\" = \"\$p\" ] && echo same-pads; clients"
	[ "$status" -eq 0 ]
	[ "${lines[0]}" = loaded ]
	[ "${lines[1]}" = loaded ]
	[[ "${lines[2]}" == "failed: "*"pin P9.17 is held by bus bone_i2c_1, which another cape enabled: BB-I2C1-DS3231 (slot "*") muxed it \"mode2 bidir pull-up rx slow\", not \"mode2 bidir pull-down rx slow\"" ]]
	[ "${lines[3]}" = same-tree ]
	[ "${lines[4]}" = same-pads ]
	[[ "${lines[5]}" =~ ^[0-9]+-003c\ [0-9]+-0068$ ]]
	# The bus keeps the words after the cape that muxed it is gone (and
	# names it no more).
	cfs_run "$LIB; rmdir \$CAPES/rtc; echo 1 > \$CAPES/pd/enable; cat \$CAPES/pd/status; clients"
	[ "$status" -eq 0 ]
	[[ "${lines[0]}" == "failed: "*"pin P9.17 is held by bus bone_i2c_1, which another cape enabled: a cape since removed muxed it \"mode2 bidir pull-up rx slow\", not \"mode2 bidir pull-down rx slow\"" ]]
	[[ "${lines[1]}" =~ ^[0-9]+-003c$ ]]
	# With the bus disabled, the pull-down cape is the first, and loads.
	cfs_run "$LIB; rmdir \$CAPES/oled; echo 1 > \$CAPES/pd/enable; cat \$CAPES/pd/status; pads; rmdir \$CAPES/pd; same"
	[ "$status" -eq 0 ]
	[ "${lines[0]}" = loaded ]
	[[ "${lines[1]}" == "00000062 "* ]]
	[ "${lines[3]}" = "same-tree same-pins" ]
}

@test "a cape at an address a cape on the shared bus holds is refused by bus addresses (BB-RTC-01's 0x68)" {
	cfs_run "$LIB; add rtc BB-I2C1-DS3231-00A0; h=\$(dt_hash); add mcp BB-RTC-01-00A0
		[ \"\$(dt_hash)\" = \"\$h\" ] && echo same-tree; clients; rmdir \$CAPES/mcp \$CAPES/rtc; same"
	[ "$status" -eq 0 ]
	[ "${lines[0]}" = loaded ]
	[[ "${lines[1]}" == "failed: overlay refused: bus addresses: address 0x68 on /i2c-header1 is held by BB-I2C1-DS3231 (slot "* ]]
	[ "${lines[2]}" = same-tree ]
	[[ "${lines[3]}" =~ ^[0-9]+-0068$ ]]
	[ "${lines[4]}" = "same-tree same-pins" ]
}

# Round 10 (outside): the pads were kept only for capes that stated the
# bus's words, so a bus another cape's overlay still used was left with its
# pads unheld; and kept for an attached cape whose driver was unbound, after
# the bus was disabled, so that no cape could enable it again.  The pads
# are the bus's while capebus holds it enabled, whoever uses it.
@test "a bus still used by a cape with no pin words keeps its pads held when the cape that muxed them goes" {
	cfs_run "$LIB; add rtc BB-I2C1-DS3231-00A0; declare_cape en CB-EN-I2C1 && cat /host/enable-i2c1-a.dtbo > \$CAPES/en/dtbo &&
		echo 1 > \$CAPES/en/enable; cat \$CAPES/en/status; rmdir \$CAPES/rtc; cat $I2C1/status; echo; pads
		add oled CB-I2C1-SSD1306-00A0; pads; rmdir \$CAPES/oled \$CAPES/en; cat $I2C1/status; echo; same"
	[ "$status" -eq 0 ]
	[ "${lines[0]}" = loaded ]
	[ "${lines[1]}" = loaded ]
	[ "${lines[2]}" = okay ]
	[[ "${lines[3]}" == "00000072 capebus0-bus-pads"* ]]
	[[ "${lines[4]}" == "00000072 capebus0-bus-pads"* ]]
	[ "${lines[5]}" = loaded ]
	[[ "${lines[6]}" == "00000072 capebus0-bus-pads"* ]]
	[[ "${lines[7]}" == "00000072 capebus0-bus-pads"* ]]
	[ "${lines[8]}" = disabled ]
	[ "${lines[9]}" = "same-tree same-pins" ]
}

@test "a sharer whose driver is unbound does not keep a disabled bus's pads: the next cape enables the bus" {
	cfs_run "$LIB; D=/sys/bus/capebus/drivers/capebus-generic; add rtc BB-I2C1-DS3231-00A0; add oled CB-I2C1-SSD1306-00A0
		o=\$(grep -l SSD1306 /sys/bus/capebus/devices/*/board_name | head -n 1); o=\${o%/board_name}; o=\${o##*/}
		echo \$o > \$D/unbind; rmdir \$CAPES/rtc; cat $I2C1/status; echo; pads
		add rtc2 BB-I2C1-DS3231-00A0; echo \$o > \$D/bind; cat \$CAPES/oled/status; clients
		rmdir \$CAPES/oled \$CAPES/rtc2; same"
	[ "$status" -eq 0 ]
	[ "${lines[0]}" = loaded ]
	[ "${lines[1]}" = loaded ]
	[ "${lines[2]}" = disabled ]
	# the pads as the board left them: held by nobody
	[[ "${lines[3]}" == *" (MUX" ]]
	[[ "${lines[4]}" == *" (MUX" ]]
	[ "${lines[5]}" = loaded ]
	# bound again, it shares the bus rtc2 enabled with the same words
	[ "${lines[6]}" = loaded ]
	[[ "${lines[7]}" =~ ^[0-9]+-003c\ [0-9]+-0068$ ]]
	[ "${lines[8]}" = "same-tree same-pins" ]
}
