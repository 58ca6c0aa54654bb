#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
# What distinct untrusted inputs leave in the kernel is bounded
# (Documentation/capebus/overlays-and-pins.rst, "What capes leave behind"):
# 2,000 capes declared one after another in the guest, each with pin words
# and a target property value no cape before it had, and the kernel's
# unreclaimable slab measured after the first 1,000 and after the next
# 1,000.  The pin controller keeps a group per pad and value, capebus sets
# at most 16 values of a target property: past those bounds the second
# 1,000 capes leave nothing.  A pin group and a property value kept per cape
# grew the slab by 2.4 MB per 1,000 (with kmemleak's tracking, as the fast
# lane has it), and the pin controller's groups by 1,000.

load ../../qemu/lib
load cfs-run

FIX=$BATS_TEST_DIRNAME/fixtures
PCTL=/sys/kernel/debug/pinctrl/48000800.pinmux-pinctrl-single

# Unreclaimable slab may wander by this much (kB) while 1,000 capes come and
# go leaving nothing behind: kmemleak's own objects, partly filled slabs
# (configfs.bats measured about 450 kB with no trend over 600 rounds; here
# 392 kB was seen).  A group and a value kept per cape grew it by 2,396 kB
# per 1,000.
SLAB_NOISE_KB=1024

setup_file() {
	# The real RS-485 cape (cape-defs/bone/board-props/), whose overlay
	# sets rs485-rts-delay on uart4: the guest writes other pin words and
	# delays in place (fixtures/bounded-capes.sh).
	"${CB_CAPETOOL:-$CB_TOP/build/capetool/host/capetool}" create \
		"$CB_TOP/cape-defs/bone/board-props/bb-uart4-rs485.cape" --board beaglebone-black \
		-o "$BATS_FILE_TMPDIR/fw" >/dev/null
	"$FIX/fdt-prop-offset.py" "$BATS_FILE_TMPDIR/fw/BB-UART4-RS485-00A0.dtbo" rs485-rts-delay \
		> "$BATS_FILE_TMPDIR/delay-at"
	guest_boot
	guest_put "$BATS_FILE_TMPDIR/fw/BB-UART4-RS485-00A0.eeprom" rs485.eeprom
	guest_put "$BATS_FILE_TMPDIR/fw/BB-UART4-RS485-00A0.dtbo" rs485.dtbo
	guest_put "$FIX/configfs-lib.sh" cfs.sh
	guest_put "$FIX/bounded-capes.sh" bounded.sh
	guest_ok '. /host/cfs.sh; dt_hash > /tmp/dt.base'
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

# capes CMD: cfs_run CMD with bounded-capes.sh sourced.  1,000 capes take
# minutes on a loaded host.
capes() {
	CB_RUN_TIMEOUT=1800 cfs_run "RS485_DELAY_AT=$(cat "$BATS_FILE_TMPDIR/delay-at"); . /host/bounded.sh; $*"
}

@test "2,000 capes with distinct pin words and rs485-rts-delay values leave the pin groups and the slab flat past the bounds" {
	capes 'pin_groups; declare_capes 0 1000; pin_groups; slab_kb'
	[ "$status" -eq 0 ]
	local groups0=${lines[0]} loaded1=${lines[1]} first=${lines[2]} groups1=${lines[3]} slab1=${lines[4]}
	capes 'declare_capes 1000 2000; pin_groups; slab_kb'
	[ "$status" -eq 0 ]
	local loaded2=${lines[0]} groups2=${lines[2]} slab2=${lines[3]}
	echo "# capes loaded: $loaded1 of the first 1,000, $loaded2 of the next; pin groups: $groups0 at boot, $groups1 after 1,000 capes, $groups2 after 2,000; SUnreclaim: $slab1 kB after 1,000, $slab2 kB after 2,000" >&3
	# The first 16 delays load; each later cape is refused before anything
	# is enabled, naming the property and the bound.
	[ "$loaded1" = 16 ]
	[ "$loaded2" = 0 ]
	[[ "$first" == "cape 16: failed: "*"targets: property rs485-rts-delay of /serial-header4 has had 16 distinct values, the most capebus sets (the kernel keeps each for good): only one of those may be set again" ]]
	# Every cape's pads were muxed (refused capes' too, before their
	# overlay): four pads at 12 values each in mode 7, and the RS-485
	# cape's own three pins, make 51 groups at most, all made by the first
	# 12 capes; and each of those seven pads, put back as the board had it
	# when its cape goes, one group more at the board's value: 58.
	[ "$groups1" -le $((groups0 + 58)) ]
	[ "$groups2" = "$groups1" ]
	[ $((slab2 - slab1)) -le $SLAB_NOISE_KB ]
}

@test "a cape with a kept rs485-rts-delay value loads, and leaves the tree as the board has it" {
	capes 'declare_capes 3 4; tr -d "\\0" < /proc/device-tree/serial-header4/status; echo;
		rmdir $CAPES/c; [ "$(dt_hash)" = "$(cat /tmp/dt.base)" ] && echo same-tree'
	[ "$status" -eq 0 ]
	[ "${lines[*]}" = "1 none disabled same-tree" ]
}
