#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
# The connector's overlay rules (Documentation/capebus/threat-model.rst), against hostile overlays declared through configfs and carried
# in an EEPROM image: each is refused with a reason that names the rule it
# broke, the live tree is unchanged (hash of every property), no cape
# device stays, and the kernel logs no warning (the harness judges every
# test's log).  The expected reasons are the rules' words as the
# documentation states them, written here by hand.

load ../../qemu/lib
load cfs-run
load test-module

FIX=$BATS_TEST_DIRNAME/fixtures
HOSTILE=(edit-property edit-node eeprom-address two-at-one-address rtc-at-68
	raw-phandle unexported self-target lookalike-fixups wrong-cells
	out-of-targets undeclared-pin undeclared-irq-pin rs485-undeclared
	rs485-not-enabled rs485-raw-phandle rs485-join rs485-child rs485-refused
	i2c-high-address spi-high-cs spi-two-cells)

setup_file() {
	local f raw
	# The raw phandle of the board's gpio-sim bank, as a hostile cape
	# author would read it off /proc/device-tree.
	raw=$(fdtget -t x "$CB_DTB" /gpio-sim/bank0 phandle)
	for f in "${HOSTILE[@]}"; do
		sed "s/RAW_PHANDLE/0x$raw/" "$FIX/hostile/$f.dtso" |
			dtc -q -I dts -O dtb -o "$BATS_FILE_TMPDIR/$f.dtbo" -
	done
	for f in rtc weather spi-cs1; do
		dtc -q -@ -I dts -O dtb -o "$BATS_FILE_TMPDIR/$f.dtbo" "$FIX/configfs-$f.dtso"
	done
	dtc -q -I dts -O dtb -o "$BATS_FILE_TMPDIR/irq-keys.dtbo" "$FIX/irq-keys.dtso"
	# The same out-of-bounds device, from an EEPROM image's extension record.
	"$FIX/configfs-eeprom.py" "$BATS_FILE_TMPDIR/thief.eeprom" "Thief Cape" 00A0 \
		capebus-tests CFS-THIEF 0000TEST0002 --pin P9.19=0xE072 --pin P9.20=0xE072 \
		--overlay "$BATS_FILE_TMPDIR/eeprom-address.dtbo"

	# The real RS-485 cape (cape-defs/bone/board-props/), as capetool
	# writes it for the BeagleBone Black: its EEPROM image and overlay.
	"${CB_CAPETOOL:-$CB_TOP/build/capetool/host/capetool}" create \
		"$CB_TOP/cape-defs/bone/board-props/bb-uart4-rs485.cape" --board beaglebone-black \
		-o "$BATS_FILE_TMPDIR/fw" >/dev/null
	# The MCP23017 with its INTA on P9.15, written from capetool(1) and
	# README.md alone (tests/bats/host/fixtures/defs/), for this board.
	"${CB_CAPETOOL:-$CB_TOP/build/capetool/host/capetool}" create \
		"$CB_TOP/tests/bats/host/fixtures/defs/mcp23017-irq.cape" --board qemu-vexpress \
		-o "$BATS_FILE_TMPDIR/fw" >/dev/null

	# Counts the devices the driver core adds for a node.
	build_test_module devwatch

	guest_boot
	guest_put "$BATS_FILE_TMPDIR/mod/capebus-devwatch.ko"
	for f in "${HOSTILE[@]}" rtc weather spi-cs1 irq-keys; do
		guest_put "$BATS_FILE_TMPDIR/$f.dtbo"
	done
	guest_put "$BATS_FILE_TMPDIR/fw/BB-UART4-RS485-00A0.eeprom" rs485.eeprom
	guest_put "$BATS_FILE_TMPDIR/fw/BB-UART4-RS485-00A0.dtbo" rs485.dtbo
	guest_put "$BATS_FILE_TMPDIR/fw/CB-MCP23017-00A0.dtbo" mcp23017.dtbo
	guest_put "$BATS_FILE_TMPDIR/thief.eeprom"
	guest_put "$FIX/configfs-lib.sh" cfs.sh
	guest_run '. /host/cfs.sh; dt_hash > /tmp/dt.base; cat /tmp/dt.base'
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

# refused NAME RULE: the cape declared with NAME.dtbo is refused with EINVAL
# and a status naming RULE; no device, no I2C client, the tree unchanged.
refused() {
	cfs_run "declare_cape h CFS-HOSTILE && cat /host/$1.dtbo > \$CAPES/h/dtbo && echo 1 > \$CAPES/h/enable"
	[ "$status" -ne 0 ]
	[[ "$output" == *"Invalid argument"* ]]
	cfs_run "cat \$CAPES/h/status; cape_devices; [ \"\$(dt_hash)\" = \"\$(cat /tmp/dt.base)\" ] && echo same-tree; rmdir \$CAPES/h"
	[ "$status" -eq 0 ]
	[[ "${lines[0]}" == "failed: "*"$2"* ]] || { echo "want: $2" >&2; return 1; }
	[ "${lines[1]}" = none ]
	[ "${lines[2]}" = same-tree ]
}

@test "add-only: an overlay setting a property of the board's bus is refused" {
	refused edit-property "overlay refused: add only: fragment fragment@0 sets property clock-frequency of /"
}

@test "add-only: an overlay rewriting a node the board has below a target is refused" {
	refused edit-node "overlay refused: add only: fragment fragment@0 changes /"
	[[ "${lines[0]}" == *"/eeprom@54, which the board has" ]]
}

@test "bus addresses: a device at a cape EEPROM's address is refused, naming the board's node" {
	refused eeprom-address "is held by the board (eeprom@54)"
	[[ "${lines[0]}" == *"bus addresses: address 0x54 on /"* ]]
}

@test "bus addresses: two devices of one overlay at one address are refused" {
	refused two-at-one-address "bus addresses: two nodes of the overlay use address 0x48 on /"
}

@test "bus addresses: I2C reg 0x10048 (0x48 to the I2C core) is refused; the weather cape then loads at 0x48" {
	refused i2c-high-address "bus addresses: node thief on i2c@16000: reg 0x10048 is no 7-bit I2C address (the I2C core would use 0x48); allowed: 7-bit addresses 0x01-0x7f"
	cfs_run 'declare_cape w BB-WTHR-01 && cat /host/weather.dtbo > $CAPES/w/dtbo && echo 1 > $CAPES/w/enable && cb-settle && cat $CAPES/w/status && cape_i2c
		rmdir $CAPES/w; [ "$(dt_hash)" = "$(cat /tmp/dt.base)" ] && echo same-tree'
	[ "$status" -eq 0 ]
	[ "${lines[0]}" = loaded ]
	[[ "${lines[1]}" == *-0048 ]]
	[ "${lines[2]}" = same-tree ]
}

@test "bus addresses: SPI reg 0x100 and <2 0> (chip select 0 to the SPI core) are refused; chip select 1 loads" {
	refused spi-high-cs "bus addresses: node flash on spi-header0: reg 0x100 is no chip select of the bus (the SPI core would use 0); allowed: one cell, a chip select 0-1"
	refused spi-two-cells "bus addresses: node flash on spi-header0: reg has 2 cells, which the SPI core takes for as many chip selects; allowed: one cell, a chip select 0-1"
	cfs_run 'declare_cape s CFS-SPI && cat /host/spi-cs1.dtbo > $CAPES/s/dtbo && echo 1 > $CAPES/s/enable && cat $CAPES/s/status
		rmdir $CAPES/s; [ "$(dt_hash)" = "$(cat /tmp/dt.base)" ] && echo same-tree'
	[ "$status" -eq 0 ]
	[ "${lines[0]}" = loaded ]
	[ "${lines[1]}" = same-tree ]
}

@test "bus addresses: a second cape at an address another cape holds is refused, naming that cape" {
	cfs_run 'declare_cape rtc CFS-RTC && cat /host/rtc.dtbo > $CAPES/rtc/dtbo && echo 1 > $CAPES/rtc/enable && cat $CAPES/rtc/status && dt_hash > /tmp/dt.rtc'
	[ "$status" -eq 0 ]
	[ "${lines[0]}" = loaded ]
	cfs_run "declare_cape h CFS-HOSTILE && cat /host/rtc-at-68.dtbo > \$CAPES/h/dtbo; echo 1 > \$CAPES/h/enable; cat \$CAPES/h/status;
		[ \"\$(dt_hash)\" = \"\$(cat /tmp/dt.rtc)\" ] && echo same-tree; rmdir \$CAPES/h; rmdir \$CAPES/rtc;
		[ \"\$(dt_hash)\" = \"\$(cat /tmp/dt.base)\" ] && echo same-tree"
	[[ "${lines[0]}" == "failed: overlay refused: bus addresses: address 0x68 on /"*" is held by CFS-RTC (slot "*") (rtc@68)" ]]
	[ "${lines[1]}" = same-tree ]
	[ "${lines[2]}" = same-tree ]
}

@test "references: a raw phandle of a board node the connector does not export is refused" {
	refused raw-phandle "references: property gpios of node led-0 names /gpio-sim/bank0, which the connector does not export"
}

@test "exports: a reference to a board label the connector does not export is refused" {
	refused unexported "overlay refers to &header_gpio, which the connector does not export"
}

@test "targets: a fragment targeting a node of the overlay itself is refused" {
	refused self-target "__local_fixups__ patches property target of fragment@1, which is not a node the overlay adds"
}

@test "targets: a fragment adding a node at the board's root is refused" {
	refused out-of-targets "overlay refused: targets: fragment fragment@0 targets /, which is not a cape target of capebus0"
}

@test "structure: a root node the kernel would take for __fixups__ is refused" {
	refused lookalike-fixups "node __fixups__@0 at the root is not __fixups__, but the kernel would take it for it"
}

@test "references: a header GPIO specifier that does not match the nexus's #gpio-cells is refused" {
	refused wrong-cells "references: property gpios of node led-0 does not match the cells of /capebus"
}

@test "pins: a header GPIO of a pin the cape does not declare is refused" {
	refused undeclared-pin "references: property gpios of node led-0 uses header pin P9.12, which the cape does not declare"
}

@test "target properties: the real BB-UART4-RS485 sets the RS-485 properties on uart4, the DE GPIO through the nexus, and they go with it" {
	U=/proc/device-tree/serial-header4
	cfs_run "ls $U > /tmp/u.base; mkdir \$CAPES/rs && cat /host/rs485.eeprom > \$CAPES/rs/eeprom && cat /host/rs485.dtbo > \$CAPES/rs/dtbo &&
		echo 1 > \$CAPES/rs/enable; cat \$CAPES/rs/status; cat $U/status; echo
		od -An -tx1 $U/rts-gpios | tr -d ' \n'; echo; od -An -tx1 /proc/device-tree/capebus/phandle | tr -d ' \n'; echo
		od -An -tx1 $U/rs485-rts-delay | tr -d ' \n'; echo; ls $U | grep -c rs485-enabled-at-boot-time
		rmdir \$CAPES/rs; ls $U | cmp -s - /tmp/u.base && echo same-node; [ \"\$(dt_hash)\" = \"\$(cat /tmp/dt.base)\" ] && echo same-tree"
	[ "$status" -eq 0 ]
	[ "${lines[0]}" = loaded ]
	[ "${lines[1]}" = okay ]
	# <&bone_gpio 927 0>: the connector's nexus, P9.27, active high
	[ "${lines[2]}" = "${lines[3]}0000039f00000000" ]
	[ "${lines[4]}" = 0000000000000000 ]
	[ "${lines[5]}" = 1 ]
	# gone with the cape: the node as the board has it
	[ "${lines[*]:6}" = "same-node same-tree" ]
}

@test "target properties: a property the connector does not list for the target is refused" {
	refused rs485-undeclared "overlay refused: add only: fragment fragment@0 sets property current-speed of /serial-header4, which capebus0 does not let capes set (target-properties)"
}

@test "target properties: a listed property on a target the cape does not enable is refused" {
	refused rs485-not-enabled "overlay refused: targets: fragment fragment@0 targets /serial-header4, which it does not enable (status = \"okay\"): the board leaves it disabled"
}

@test "target properties: a raw phandle in rts-gpios is refused" {
	refused rs485-raw-phandle "overlay refused: references: property rts-gpios of node serial-header4 names /gpio-sim/bank0, which the connector does not export"
}

@test "target properties: no cape joins a target carrying another cape's properties, which would outlive it with its DE pin" {
	# Red team round 12: a cape enabling uart4 with no properties joined
	# the RS-485 cape's uart4; when the RS-485 cape went, uart4 stayed on
	# with its rts-gpios on P9.27, and P9.27 went to the next cape.
	cfs_run "mkdir \$CAPES/rs && cat /host/rs485.eeprom > \$CAPES/rs/eeprom && cat /host/rs485.dtbo > \$CAPES/rs/dtbo &&
		echo 1 > \$CAPES/rs/enable && cat \$CAPES/rs/status &&
		declare_cape j CFS-JOIN && cat /host/rs485-join.dtbo > \$CAPES/j/dtbo &&
		{ echo 1 2>/dev/null > \$CAPES/j/enable && echo enabled || echo refused; }; cat \$CAPES/j/status"
	[ "$status" -eq 0 ]
	[ "${lines[0]}" = loaded ]
	[ "${lines[1]}" = refused ]
	[[ "${lines[2]}" == "failed: "*"targets: /serial-header4 is enabled by BB-UART4-RS485 (slot "*"), with its properties: a target carrying a cape's properties has no other user" ]]
	cfs_run "rmdir \$CAPES/j \$CAPES/rs; cape_devices; [ \"\$(dt_hash)\" = \"\$(cat /tmp/dt.base)\" ] && echo same-tree"
	[ "$status" -eq 0 ]
	[ "${lines[*]}" = "none same-tree" ]
}

@test "targets: a node under uart4 from a cape that does not enable it is refused while the RS-485 cape holds uart4, naming it; the tree unchanged" {
	# Red team round 12b, N1: the node was accepted, below the RS-485
	# cape's UART (on a real one, a serdev device taking the port).
	cfs_run "mkdir \$CAPES/rs && cat /host/rs485.eeprom > \$CAPES/rs/eeprom && cat /host/rs485.dtbo > \$CAPES/rs/dtbo &&
		echo 1 > \$CAPES/rs/enable && cat \$CAPES/rs/status && dt_hash > /tmp/dt.rs &&
		declare_cape c CFS-CHILD && cat /host/rs485-child.dtbo > \$CAPES/c/dtbo &&
		{ echo 1 2>/dev/null > \$CAPES/c/enable && echo enabled || echo refused; }; cat \$CAPES/c/status
		ls /proc/device-tree/serial-header4 | grep -c serdev-thief
		[ \"\$(dt_hash)\" = \"\$(cat /tmp/dt.rs)\" ] && echo same-tree"
	[ "$status" -eq 0 ]
	[ "${lines[0]}" = loaded ]
	[ "${lines[1]}" = refused ]
	[[ "${lines[2]}" == "failed: overlay refused: targets: fragment fragment@0 targets /serial-header4, which it does not enable (status = \"okay\"): BB-UART4-RS485 (slot "*") enabled it, with its properties" ]]
	[ "${lines[3]}" = 0 ]
	[ "${lines[4]}" = same-tree ]
	cfs_run "rmdir \$CAPES/c \$CAPES/rs; cape_devices; [ \"\$(dt_hash)\" = \"\$(cat /tmp/dt.base)\" ] && echo same-tree"
	[ "$status" -eq 0 ]
	[ "${lines[*]}" = "none same-tree" ]
}

@test "targets: a refused RS-485 overlay never enables its UART, even for a moment: no device is added for it" {
	# The uart4 stand-in has no driver: what its enable would probe is the
	# platform device the OF core makes of it, counted by the test module
	# as the driver core adds it.  The real RS-485 cape after it shows the
	# count sees the UART's.
	cfs_run "insmod /host/capebus-devwatch.ko node=serial-header4 && A=/sys/module/capebus_devwatch/parameters/adds &&
		declare_cape bad CFS-RS485-BAD && cat /host/rs485-refused.dtbo > \$CAPES/bad/dtbo &&
		{ echo 1 2>/dev/null > \$CAPES/bad/enable && echo enabled || echo refused; }; cat \$CAPES/bad/status; cat \$A
		mkdir \$CAPES/rs && cat /host/rs485.eeprom > \$CAPES/rs/eeprom && cat /host/rs485.dtbo > \$CAPES/rs/dtbo &&
		echo 1 > \$CAPES/rs/enable && cat \$A
		rmdir \$CAPES/bad \$CAPES/rs; rmmod capebus_devwatch; [ \"\$(dt_hash)\" = \"\$(cat /tmp/dt.base)\" ] && echo same-tree"
	[ "$status" -eq 0 ]
	[ "${lines[0]}" = refused ]
	[ "${lines[1]}" = "failed: overlay refused: references: property gpios of node led-0 names /gpio-sim/bank0, which the connector does not export" ]
	[ "${lines[2]}" = 0 ]
	[ "${lines[3]}" = 1 ]
	[ "${lines[4]}" = same-tree ]
}

@test "pins: a header interrupt through the connector's interrupt nexus on a pin the cape does not declare is refused" {
	refused undeclared-irq-pin "references: property interrupts-extended of node key-0 uses header pin P9.12, which the cape does not declare"
}

# The test board's gpio-sim bank0 (P9.12 is its line 13, P9.15 line 14),
# as the guest's sysfs names its chip.
SIM0='$(for c in /sys/devices/platform/gpio-sim/gpiochip*; do
	case $(readlink $c/of_node) in */gpio-sim/bank0) echo $c ;; esac; done)'

@test "interrupts: keys on header interrupts through the connector's nexus (bone_irq) load, each on its pin's line" {
	cfs_run "declare_cape k CFS-IRQ-KEYS && cat /host/irq-keys.dtbo > \$CAPES/k/dtbo && echo 1 > \$CAPES/k/enable && cat \$CAPES/k/status;
		cat /sys/devices/platform/cape-devices/cape-devices:irq-keys/input/input*/capabilities/key
		grep ' cape-irq-only\$' /proc/interrupts; grep ' cape-irq-gpio\$' /proc/interrupts"
	[ "$status" -eq 0 ]
	[ "${lines[0]}" = loaded ]
	# BTN_0 (0x100) and BTN_1 (0x101): bits 256 and 257.
	[ "${lines[1]}" = "3 0 0 0 0 0 0 0 0" ]
	[ "${#lines[@]}" -eq 4 ]
	# gpio-sim's interrupt domain ("irq_sim"), the bank's lines.
	[[ "${lines[2]}" =~ ^\ *[0-9]+:\ +0\ +0\ +irq_sim\ +13\ .*\ cape-irq-only$ ]]
	[[ "${lines[3]}" =~ ^\ *[0-9]+:\ +0\ +0\ +irq_sim\ +14\ .*\ cape-irq-gpio$ ]]
}

@test "interrupts: a header line pulled high and low again fires its key's interrupt through the nexus" {
	# P9.15's key: gpio-keys requests its GPIO as an input and its
	# interrupt for both edges, so gpio-sim raises it on each pull.
	# P9.12's interrupt-only key does not fire here, on a real bank it
	# would: gpio-sim raises a line's interrupt only while the line is
	# requested as an input, and its interrupt domain has no xlate, so
	# the trigger type the nexus hands it is dropped (gpio-keys asks for
	# no type for an interrupt-only key).  The guest kernel has no evdev:
	# the interrupt count is what is watched, as in real-capes.bats.
	cfs_run "irqs() { grep \" \$1\\\$\" /proc/interrupts | awk '{ print \$2 + \$3 }'; }
		S=$SIM0/sim_gpio14; n=\$(irqs cape-irq-gpio)
		echo pull-up > \$S/pull; sleep 0.3; echo pull-down > \$S/pull; sleep 0.3
		echo \$((\$(irqs cape-irq-gpio) - n))"
	[ "$status" -eq 0 ]
	[ "${lines[0]}" = 2 ]
}

@test "interrupts: removed, the keys' cape leaves the tree as it booted and its interrupts go" {
	cfs_run "cat \$CAPES/k/status; rmdir \$CAPES/k; cape_devices; grep -c ' cape-irq-' /proc/interrupts;
		[ \"\$(dt_hash)\" = \"\$(cat /tmp/dt.base)\" ] && echo same-tree"
	[ "$status" -eq 0 ]
	[ "${lines[*]}" = "loaded none 0 same-tree" ]
}

@test "interrupts: the MCP23017 of the docs (INTA on P9.15, trigger low), as capetool creates it, loads with its interrupt through the nexus" {
	# QEMU's vexpress-a9 has no MCP23017 model and the guest kernel no
	# driver for it (PINCTRL_MCP23S08): nothing requests the interrupt,
	# so no interrupt is counted here.  P9.15's line through the same
	# nexus entry is counted by the keys' tests above.  What the kernel
	# shows: the cape loaded, the chip's I2C client, its node's
	# interrupt as capetool wrote it, <&bone_irq 915 8> (IRQ_TYPE_LEVEL_LOW).
	cfs_run 'declare_cape mcp CB-MCP23017 && cat /host/mcp23017.dtbo > $CAPES/mcp/dtbo &&
		echo 1 > $CAPES/mcp/enable && cat $CAPES/mcp/status &&
		d=$(ls -d /sys/bus/i2c/devices/*-0020) && cat $d/name &&
		od -An -v -tx1 $d/of_node/interrupts-extended | tr -s " \n" " "; echo'
	[ "$status" -eq 0 ]
	[ "${lines[0]}" = loaded ]
	[ "${lines[1]}" = mcp23017 ]
	[[ "${lines[2]}" =~ ^\ ([0-9a-f]{2}\ ){4}00\ 00\ 03\ 93\ 00\ 00\ 00\ 08\ ?$ ]]
	cfs_run 'rmdir $CAPES/mcp; cape_devices; [ "$(dt_hash)" = "$(cat /tmp/dt.base)" ] && echo same-tree'
	[ "${lines[*]}" = "none same-tree" ]
}

@test "an EEPROM image carrying a hostile overlay is refused the same way" {
	cfs_run 'mkdir $CAPES/img && cat /host/thief.eeprom > $CAPES/img/eeprom && echo 1 > $CAPES/img/enable'
	[ "$status" -ne 0 ]
	cfs_run 'cat $CAPES/img/status; cape_devices; [ "$(dt_hash)" = "$(cat /tmp/dt.base)" ] && echo same-tree; rmdir $CAPES/img'
	[[ "${lines[0]}" == "failed: overlay refused: bus addresses: address 0x54 on /"*" is held by the board (eeprom@54)" ]]
	[ "${lines[1]}" = none ]
	[ "${lines[2]}" = same-tree ]
}

@test "after every refusal the tree is the board's and a good cape still loads" {
	cfs_run 'declare_cape rtc CFS-RTC && cat /host/rtc.dtbo > $CAPES/rtc/dtbo && echo 1 > $CAPES/rtc/enable && cat $CAPES/rtc/status &&
		ls /sys/bus/i2c/devices/ | grep -c -- "-0068$"; rmdir $CAPES/rtc; [ "$(dt_hash)" = "$(cat /tmp/dt.base)" ] && echo same-tree'
	[ "$status" -eq 0 ]
	[ "${lines[*]}" = "loaded 1 same-tree" ]
}
