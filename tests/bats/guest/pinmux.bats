#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
# The connector muxes its capes' pads (Documentation/capebus/overlays-and-pins.rst,
# "Pin multiplexing"), through the test board's real pinctrl-single instance
# (tests/qemu/capebus-vexpress-a9.dts: pinmux@2,00000800 over the
# motherboard SRAM, the am335x conf_ offsets in the connector's cape-pads,
# the UART1 pads P9.24/P9.26 hogged by the board).  The expected register
# values are computed here from the pin words written into the EEPROM
# images (bits 6-0, the SRM's pad control value; a disabled pull's type
# bit cleared), not taken from the kernel; the pads' offsets are the
# BeagleBone Black's (schemas/boards/beaglebone-black.board).

load ../../qemu/lib
load cfs-run

FIX=$BATS_TEST_DIRNAME/fixtures
PCTL=/sys/kernel/debug/pinctrl/48000800.pinmux-pinctrl-single
GROUPS_DIR=/proc/device-tree/bus@40000000/motherboard-bus@40000000/pinmux@2,00000800

# Pads (register offsets) of the header pins used here.
declare -gA PAD=([P9.19]=0x17c [P9.20]=0x178 [P9.24]=0x184 [P8.13]=0x024 [P8.14]=0x028
	[P8.7]=0x090 [P8.17]=0x02c [P8.19]=0x020)

# conf WORD: the pad value a pin word asks for.
conf() {
	local v=$(($1 & 0x7f))
	(( v & 0x08 )) && v=$((v & ~0x10))
	printf '%08x' "$v"
}

# image OUT PART PIN=WORD...: an EEPROM image (no overlay) for PART.
image() {
	local out=$1 part=$2 p args=()
	shift 2
	for p in "$@"; do args+=(--pin "$p"); done
	"$FIX/configfs-eeprom.py" "$BATS_FILE_TMPDIR/$out" "Pinmux Test Cape" 00A0 \
		capebus-tests "$part" 0000TEST0009 "${args[@]}"
}

setup_file() {
	image slot0.eeprom PM-SLOT P8.13=0xC007 P8.14=0xA037
	image a.eeprom PM-A P9.19=0xE073 P9.20=0xC01A
	image b.eeprom PM-B P9.19=0xA027
	image c.eeprom PM-C P9.20=0xC00A
	image hog.eeprom PM-HOG P9.19=0xE033 P9.24=0xC000
	image victim.eeprom PM-VICTIM P9.19=0xA037
	# shellcheck disable=SC2046 # one PIN=WORD argument each
	image forger.eeprom PM-FORGER $("$FIX/forge-pin-group.py" P9.19=0xA037 -- \
		P8.7 P8.8 P8.9 P8.10 P8.11 P8.12 P8.15 P8.16 P8.17 P8.18 P8.19 P8.26)
	# P8.19 (gpmc_ad8) in mode 2 is mmc1_dat0, an input of the eMMC's
	# controller on the Black: bidir, pull-up, rx, slow, as mmc1 muxes
	# its data lines.  Its pad offers capes modes 4 (ehrpwm2a) and 7.
	image emmc.eeprom PM-EMMC P8.7=0xC007 P8.19=0xE072
	image pwm.eeprom PM-PWM P8.19=0xC004 P8.17=0xA037
	dtc -q -I dts -O dtb -o "$BATS_FILE_TMPDIR/pin-controller.dtbo" "$FIX/hostile/pin-controller.dtso"
	# slub_debug=P: freed objects are poisoned (0x6b, "k"), so a name the
	# pin controller kept of a node that is gone reads as "kkkk...".
	guest_boot --slot 0="$BATS_FILE_TMPDIR/slot0.eeprom" \
		   --slot 1="$BATS_FILE_TMPDIR/emmc.eeprom" --append "slub_debug=P"
	for f in a b c hog victim forger emmc pwm; do
		guest_put "$BATS_FILE_TMPDIR/$f.eeprom"
	done
	guest_put "$BATS_FILE_TMPDIR/pin-controller.dtbo"
	guest_put "$FIX/configfs-lib.sh" cfs.sh
	# No overlay, so no driver: the slot's cape is "detected".
	guest_run '. /host/cfs.sh; for i in $(seq 600); do [ "$(cat $CB/slots/0/state 2>/dev/null)" = detected ] && exit 0; sleep 0.1; done; exit 1'
	[ "$status" -eq 0 ] || { echo "slot 0 not detected: $output" >&2; return 1; }
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

# pad_value PIN: the pad's register as the pin controller shows it.
pad_value() {
	local addr
	addr=$(printf '%x' $((0x48000800 + PAD[$1])))
	guest_run "grep ' $addr ' $PCTL/pins"
	echo "# $1: $output" >&2
	sed -n "s/.* $addr \([0-9a-f]*\) pinctrl-single.*/\1/p" <<< "$output"
}

# pad_owner PIN: the pinmux-pins line of the pin's pad, without "pin N (PINN): ".
pad_owner() {
	guest_run "grep '^pin $((PAD[$1] / 4)) ' $PCTL/pinmux-pins"
	echo "# $1: $output" >&2
	echo "${output#*): }"
}

# enable NAME IMAGE: declare a cape from an EEPROM image (configfs).
enable() {
	cfs_run "mkdir \$CAPES/$1 && cat /host/$2 > \$CAPES/$1/eeprom && echo 1 > \$CAPES/$1/enable"
}

@test "a cape detected in a slot has the pads of its pins muxed as its pin words say" {
	[ "$(pad_value P8.13)" = "$(conf 0xC007)" ]
	[ "$(pad_value P8.14)" = "$(conf 0xA037)" ]
	# A group per pad and value, named after both (offset, value in hex).
	[ "$(pad_owner P8.13)" = "capebus0-slot0 (GPIO UNCLAIMED) function capebus-pad-024-07 group capebus-pad-024-07" ]
	[ "$(pad_owner P8.14)" = "capebus0-slot0 (GPIO UNCLAIMED) function capebus-pad-028-37 group capebus-pad-028-37" ]
	# The connector's node for the cape is the cape device's of_node.
	guest_run 'cat /sys/bus/capebus/devices/capebus0-slot0/of_node/pinctrl-names'
	[ "$output" = default ]
}

@test "the connector writes its groups in the pin controller's cell layout, <offset conf mux>" {
	# The test board's pin controller is described as the AM335x's
	# (#pinctrl-cells = <2>): three cells per pad, the pad bits apart from
	# the mux mode, as AM33XX_PADCONF() writes them.
	guest_run "cat $GROUPS_DIR/#pinctrl-cells | od -An -tx1 | tr -d ' \\n'"
	[ "$output" = 00000002 ]
	guest_run "od -An -tx1 $GROUPS_DIR/capebus-pad-024-07/pinctrl-single,pins $GROUPS_DIR/capebus-pad-028-37/pinctrl-single,pins | tr -d ' \\n'"
	echo "# $output" >&2
	# P8.13 (0x024) 0xC007: out, pull-down, mode 7; P8.14 (0x028) 0xA037:
	# in, rx, pull-up, mode 7.  Big-endian cells.
	[ "$(sed 's/\(.\{8\}\)/\1 /g; s/ $//' <<< "$output")" = \
	  "00000024 00000000 00000007 00000028 00000030 00000007" ]
}

@test "a cape declared from an EEPROM image gets its pads; removing it frees them, as they were, and its groups" {
	local p19 p20
	cfs_run 'dt_hash > /tmp/dt.base'
	p19=$(pad_value P9.19) p20=$(pad_value P9.20)
	[ "$p19" != "$(conf 0xE073)" ]
	enable a a.eeprom
	[ "$status" -eq 0 ]
	[ "$(pad_value P9.19)" = "$(conf 0xE073)" ]
	[ "$(pad_value P9.20)" = "$(conf 0xC01A)" ]
	[ "$(conf 0xC01A)" = 0000000a ]	# no-pull: the pull type bit is cleared
	[ "$(pad_owner P9.19)" = "capebus0-slot4 (GPIO UNCLAIMED) function capebus-pad-17c-73 group capebus-pad-17c-73" ]
	cfs_run 'rmdir $CAPES/a; [ "$(dt_hash)" = "$(cat /tmp/dt.base)" ] && echo same-tree;
		ls '"$GROUPS_DIR"' | grep -c -e capebus-pad-17c- -e capebus-pad-178-'
	[ "${lines[*]}" = "same-tree 0" ]
	[ "$(pad_owner P9.19)" = "(MUX UNCLAIMED) (GPIO UNCLAIMED)" ]
	[ "$(pad_owner P9.20)" = "(MUX UNCLAIMED) (GPIO UNCLAIMED)" ]
	# The pads as the board had them, not left in the cape's modes (red
	# team round 13, F8: pinctrl-single leaves a freed pad's register).
	[ "$(pad_value P9.19)" = "$p19" ]
	[ "$(pad_value P9.20)" = "$p20" ]
}

@test "the next cape on the same pads gets its own values, not the last one's group" {
	enable b b.eeprom
	[ "$status" -eq 0 ]
	[ "$(pad_value P9.19)" = "$(conf 0xA027)" ]
	# P9.20 was the last cape's, not this one's: not muxed, not held.
	[ "$(pad_owner P9.20)" = "(MUX UNCLAIMED) (GPIO UNCLAIMED)" ]
	# The pin controller keeps every group it parsed, named after its node:
	# the removed cape's group for P9.19 is still listed beside this one's,
	# by a name that outlived the node (series patch 0002; without it the
	# name reads as slab poison).
	guest_run "cat $PCTL/pingroups $PCTL/pinmux-functions"
	[ "$status" -eq 0 ]
	[[ "$output" != *kkkkkkkk* ]]
	[ "$(grep -cx -e 'group: capebus-pad-17c-73' -e 'group: capebus-pad-17c-27' <<< "$output")" = 2 ]
	cfs_run 'rmdir $CAPES/b'
	[ "$(pad_owner P9.19)" = "(MUX UNCLAIMED) (GPIO UNCLAIMED)" ]
}

@test "two capes declaring one pad: capebus refuses the second, naming the holder" {
	enable a a.eeprom
	[ "$status" -eq 0 ]
	enable b b.eeprom
	[ "$status" -ne 0 ]
	cfs_run 'cat $CAPES/b/status; cape_devices | grep -c slot'
	[ "${lines[0]}" = "failed: pin P9.19 is held by PM-A (slot 4)" ]
	[ "${lines[1]}" = 2 ]
	# The holder's pads are untouched.
	[ "$(pad_value P9.19)" = "$(conf 0xE073)" ]
	[[ "$(pad_owner P9.19)" == "capebus0-slot4 "* ]]
	cfs_run 'rmdir $CAPES/b; rmdir $CAPES/a'
	[ "$status" -eq 0 ]
}

@test "a cape declaring a pad the board hogs is refused before any of its pads is written" {
	cfs_run 'dt_hash > /tmp/dt.base'
	hog_before=$(pad_value P9.24)
	p19_before=$(pad_value P9.19)
	[[ "$(pad_owner P9.24)" == "48000800.pinmux (GPIO UNCLAIMED) function board-uart1-pins group board-uart1-pins" ]]
	enable hog hog.eeprom
	[ "$status" -ne 0 ]
	cfs_run 'cat $CAPES/hog/status; cape_devices | grep -c slot4;
		[ "$(dt_hash)" = "$(cat /tmp/dt.base)" ] && echo same-tree'
	[ "${lines[0]}" = "failed: pin P9.24 is held by the board: /bus@40000000/motherboard-bus@40000000/pinmux@2,00000800 muxes its pad (pinctrl-0)" ]
	[ "${lines[1]}" = 0 ]
	[ "${lines[2]}" = same-tree ]
	# Nothing of it stays: its other pad is free and as it was (the pin
	# subsystem, asked, would have written P9.19's group before refusing
	# P9.24's), the hog is the board's.
	[ "$(pad_owner P9.19)" = "(MUX UNCLAIMED) (GPIO UNCLAIMED)" ]
	[ "$(pad_value P9.19)" = "$p19_before" ]
	[ "$(conf 0xE033)" != "$p19_before" ]
	[ "$(pad_value P9.24)" = "$hog_before" ]
	[[ "$(pad_owner P9.24)" == "48000800.pinmux (GPIO UNCLAIMED) function board-uart1-pins "* ]]
	# and the pins it declared are free for capebus too.
	enable c c.eeprom
	[ "$status" -eq 0 ]
	cfs_run 'rmdir $CAPES/c; rmdir $CAPES/hog'
	[ "$status" -eq 0 ]
}

# The connector offers capes, per pad, the modes cape-pads lists
# (am335x-bone-capebus-pins.dtsi, the real Black's table): never one that
# feeds a unit the board uses itself.
@test "P8.19 in mode 2 (the eMMC controller's mmc1_dat0) is refused before any pad or node is touched" {
	local p7 p19
	cfs_run 'dt_hash > /tmp/dt.base'
	p7=$(pad_value P8.7)
	p19=$(pad_value P8.19)
	enable emmc emmc.eeprom
	[ "$status" -ne 0 ]
	cfs_run 'cat $CAPES/emmc/status; cape_devices | grep -c slot4;
		[ "$(dt_hash)" = "$(cat /tmp/dt.base)" ] && echo same-tree'
	[ "${lines[0]}" = "failed: P8.19: mode 2 is not offered to capes by this connector (offered: 4 7)" ]
	[ "${lines[1]}" = 0 ]
	[ "${lines[2]}" = same-tree ]
	# Neither the refused pad nor the cape's other one was written or held.
	[ "$(pad_value P8.19)" = "$p19" ]
	[ "$(pad_value P8.7)" = "$p7" ]
	[ "$(pad_owner P8.19)" = "(MUX UNCLAIMED) (GPIO UNCLAIMED)" ]
	[ "$(pad_owner P8.7)" = "(MUX UNCLAIMED) (GPIO UNCLAIMED)" ]
	cfs_run 'rmdir $CAPES/emmc'
	[ "$status" -eq 0 ]
}

@test "the same EEPROM in a slot fails the slot, with the pin, the mode and what is offered" {
	guest_run 'for i in $(seq 300); do [ "$(cat /sys/class/capebus/capebus0/slot1/state)" = failed ] && break; sleep 0.1; done
		cat /sys/class/capebus/capebus0/slot1/state /sys/class/capebus/capebus0/slot1/reason'
	printf '# slot 1: %s\n' "${lines[@]}" >&2
	[ "${lines[0]}" = failed ]
	[ "${lines[1]}" = "P8.19: mode 2 is not offered to capes by this connector (offered: 4 7)" ]
	[ "$(pad_owner P8.19)" = "(MUX UNCLAIMED) (GPIO UNCLAIMED)" ]
}

@test "a mode the pad offers capes still loads: P8.19 as ehrpwm2a (mode 4)" {
	enable pwm pwm.eeprom
	[ "$status" -eq 0 ]
	[ "$(pad_value P8.19)" = "$(conf 0xC004)" ]
	[ "$(pad_value P8.17)" = "$(conf 0xA037)" ]
	[ "$(pad_owner P8.19)" = "capebus0-slot4 (GPIO UNCLAIMED) function capebus-pad-020-04 group capebus-pad-020-04" ]
	cfs_run 'rmdir $CAPES/pwm'
	[ "$status" -eq 0 ]
	[ "$(pad_owner P8.19)" = "(MUX UNCLAIMED) (GPIO UNCLAIMED)" ]
}

@test "an overlay adding a pin group under the pin controller is refused by the target rule" {
	cfs_run 'dt_hash > /tmp/dt.base; declare_cape h PM-EVIL && cat /host/pin-controller.dtbo > $CAPES/h/dtbo && echo 1 > $CAPES/h/enable'
	[ "$status" -ne 0 ]
	cfs_run 'cat $CAPES/h/status; [ "$(dt_hash)" = "$(cat /tmp/dt.base)" ] && echo same-tree; rmdir $CAPES/h'
	[ "${lines[0]}" = "failed: overlay refused: targets: fragment fragment@0 targets /bus@40000000/motherboard-bus@40000000/pinmux@2,00000800, which is not a cape target of capebus0" ]
	[ "${lines[1]}" = same-tree ]
	[ "$(pad_owner P9.24)" != "(MUX UNCLAIMED) (GPIO UNCLAIMED)" ]
}

@test "unloading capebus-bone frees every cape's pads; loading it again muxes the slot's cape again" {
	enable a a.eeprom
	[ "$status" -eq 0 ]
	cfs_run 'rmmod capebus_bone && ls '"$GROUPS_DIR"' | grep -c capebus0; ls /proc/device-tree/capebus | grep -c capebus0'
	[ "${lines[*]}" = "0 0" ]
	for p in P8.13 P8.14 P9.19 P9.20; do
		[ "$(pad_owner $p)" = "(MUX UNCLAIMED) (GPIO UNCLAIMED)" ]
	done
	# The controller comes back once its slots' EEPROMs are read and
	# probing has settled: seconds on a loaded host.  It is capebus0 again
	# only if the old controller's last reference went first; else the
	# next number (seen in full runs): the rest of the file uses that one.
	cfs_run 'rmdir $CAPES/a; modprobe capebus-bone && for i in $(seq 600); do
			for c in /sys/kernel/config/capebus/capebus*; do
				[ "$(cat $c/slots/0/state 2>/dev/null)" = detected ] && echo $c > /tmp/cb && break 2
			done; sleep 0.1; done
		. /host/cfs.sh; cat $CB/slots/0/state; basename $CB'
	[ "${lines[0]}" = detected ]
	echo "${lines[1]}" > "$BATS_FILE_TMPDIR/ctrl"
	[ "$(pad_value P8.13)" = "$(conf 0xC007)" ]
	[[ "$(pad_owner P8.14)" == "${lines[1]}-slot0 "* ]]
}

@test "removing the slot's cape (slot disable) frees its pads, enabling muxes them again" {
	cfs_run 'echo 1 > $CB/slots/0/disable; cat $CB/slots/0/state'
	[ "$output" = disabled ]
	[ "$(pad_owner P8.13)" = "(MUX UNCLAIMED) (GPIO UNCLAIMED)" ]
	cfs_run 'echo 0 > $CB/slots/0/disable; cat $CB/slots/0/state'
	[ "$output" = detected ]
	[ "$(pad_value P8.14)" = "$(conf 0xA037)" ]
	[[ "$(pad_owner P8.14)" == "$(cat "$BATS_FILE_TMPDIR/ctrl" 2>/dev/null || echo capebus0)-slot0 "* ]]
}

# pinctrl-single keeps every group and function it parsed, and takes a node
# parsed again (the same cape coming back: same group name) as the group it
# has.  Each re-parse must then allocate nothing that stays: its devm
# allocations on the pin controller would be orphaned, invisible to kmemleak
# (devres holds them).  CONFIG_DEBUG_DEVRES (kernel/configs/debug.config)
# with devres.log=1 logs every devres ADD, REM(ove) and REL(ease) of every
# device: over 50 rounds of the slot's cape going and coming back, what the
# pin controller's device holds must not grow.
@test "the same cape coming back 50 times leaves the pin controller's devres as it was" {
	local dev=48000800.pinmux
	cfs_run 'echo 1 > $CB/slots/0/disable && echo 0 > $CB/slots/0/disable &&
		echo 1 > /sys/module/devres/parameters/log && echo capebus-devres-mark > /dev/kmsg &&
		for i in $(seq 50); do echo 1 > $CB/slots/0/disable && echo 0 > $CB/slots/0/disable || exit 1; done
		echo 0 > /sys/module/devres/parameters/log; cat $CB/slots/0/state'
	[ "$status" -eq 0 ]
	[ "$output" = detected ]
	guest_run "dmesg | sed -n '/capebus-devres-mark/,\$p' | grep -c '$dev: DEVRES ADD';
		dmesg | sed -n '/capebus-devres-mark/,\$p' | grep -cE '$dev: DEVRES (REM|REL)'"
	echo "# $dev devres over 50 rounds: ${lines[0]} added, ${lines[1]} removed or released" >&3
	[ "${lines[0]}" -ge 50 ]
	[ "${lines[0]}" = "${lines[1]}" ]
	[ "$(pad_value P8.14)" = "$(conf 0xA037)" ]
}

@test "a cape cannot forge the name of the next cape's pin group" {
	# The forger's pin words give its cells the CRC-32 of the victim's
	# (fixtures/forge-pin-group.py): while groups were named by it, the
	# victim, next in the slot, got the forger's group, its pads P8.7-P8.16
	# muxed and held and its own P9.19 not (red team round 7).
	local ctrl
	ctrl=$(cat "$BATS_FILE_TMPDIR/ctrl" 2>/dev/null || echo capebus0)
	enable f forger.eeprom
	[ "$status" -eq 0 ]
	[[ "$(pad_owner P8.7)" == "$ctrl-slot"* ]]
	cfs_run 'rmdir $CAPES/f'
	enable v victim.eeprom
	[ "$status" -eq 0 ]
	[ "$(pad_value P9.19)" = "$(conf 0xA037)" ]
	[[ "$(pad_owner P9.19)" == "$ctrl-slot"* ]]
	[ "$(pad_owner P8.7)" = "(MUX UNCLAIMED) (GPIO UNCLAIMED)" ]
	cfs_run 'rmdir $CAPES/v'
}
