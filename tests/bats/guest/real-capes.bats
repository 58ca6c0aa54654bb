#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
# Four real BeagleBone capes load together in QEMU, each detected from its
# EEPROM image in a slot of its own, with the portable overlay capetool
# writes for the BeagleBone Black (--board beaglebone-black: it names only
# the bone-bus names the connector exports), found as a firmware file:
#   slot 0  BBORG_RELAY   BeagleBoard.org Relay Cape: three relays as
#                         gpio-leds on P9.42, P9.30, P9.27 (bone_gpio)
#   slot 1  BBORG_COMMS   BeagleBoard.org Comms Cape: enables dcan1 and
#                         uart4 (bone_can_1, bone_uart_4), pads P9.24,
#                         P9.26 (mode 2), P9.13, P9.11 (mode 6)
#   slot 2  BB-RTC-01     BeagleBoard.org RTC Cape: enables I2C1
#                         (bone_i2c_1) with an MCP7940x at 0x68, and the
#                         MFP key on P8.26
#   slot 3  SCS-DFE-BB    South Coast Science DFE: a DS1338 RTC at 0x68 on
#                         I2C2 (bone_i2c_2), which QEMU emulates
# (circuitco-weather.cape, the fourth of tests/bats/host/resolve.bats's
# stack, cannot be one of them: its TSL2550 at 0x39 meets the test board's
# DVI transmitter; stacking.bats shows the refusal.  Nor can BBORG_SERVO,
# whose inputs IN3, IN4, IN6 are the relay cape's P9.30, P9.27, P9.42.)
#
# What the test board has, and what is a stand-in
# (tests/qemu/capebus-vexpress-a9.dts): the relays and the MFP key are
# gpio-sim lines; I2C1 is i2c-gpio on simulated lines where no chip answers,
# so the MCP7940x is an I2C client that no driver binds; dcan1 and uart4
# are disabled nodes that describe no hardware, so the comms cape's part is
# their "okay" and its pads.  The suite's copy of the board DTB names the
# shared I2C2 pins (as stacking.bats does) and drops the board's hog of the
# UART1 pads (P9.24/P9.26; a fixture of pinmux.bats: a real bone leaves
# them to capes), so that the comms cape can have them.

load ../../qemu/lib
load slot-wait
load cfs-run

CTRL=/sys/class/capebus/capebus0
CFS=/sys/kernel/config/capebus/capebus0
CAPES=(bone/bborg-relay bone/bborg-comms bone/bb-rtc-01 scs-dfe)
PARTS=(BBORG_RELAY-00A2 BBORG_COMMS-00A2 BB-RTC-01-00A0 SCS-DFE-BB-0001)

# sim_line PIN: the gpio-sim directory (sim_gpioN) of header pin PIN's line
# in the bank that stands for the bone's other GPIO banks (bank2).
sim_line() {
	echo "\$(for c in /sys/devices/platform/gpio-sim/gpiochip*; do
		case \$(readlink \$c/of_node) in */gpio-sim/bank2) echo \$c ;; esac; done)/sim_gpio\$((\$(
		tr '\\0' '\\n' < /proc/device-tree/gpio-sim/bank2/gpio-line-names | grep -nx '$1' | cut -d: -f1) - 1))"
}

# The I2C client at ADDR (4 hex digits) on the adapter of device-tree node
# NODE: its name, or "none".
i2c_client() {
	echo "n=none; for a in /sys/bus/i2c/devices/i2c-*; do
		[ \"\$(readlink -f \$a/of_node 2>/dev/null)\" = \"\$(readlink -f /sys/firmware/devicetree/base/$1)\" ] &&
		[ -e /sys/bus/i2c/devices/\${a#*/i2c-}-$2 ] && n=\$(cat /sys/bus/i2c/devices/\${a#*/i2c-}-$2/name); done; echo \$n"
}

setup_file() {
	local ct=${CB_CAPETOOL:-$CB_TOP/build/capetool/host/capetool} i args=()
	export CB_RUN=$BATS_FILE_TMPDIR/guest
	mkdir -p "$CB_RUN/share"
	for i in 0 1 2 3; do
		"$ct" create "$CB_TOP/cape-defs/${CAPES[$i]}.cape" --board beaglebone-black \
			-o "$BATS_FILE_TMPDIR/fw" >/dev/null
		# The overlays, where the guest's firmware loader looks first
		# (firmware_class.path): the share, mounted before capebus loads.
		cp "$BATS_FILE_TMPDIR/fw/${PARTS[$i]}.dtbo" "$CB_RUN/share/"
		args+=(--slot "$i=$BATS_FILE_TMPDIR/fw/${PARTS[$i]}.eeprom")
	done
	cp "$CB_DTB" "$BATS_FILE_TMPDIR/board.dtb"
	fdtput -t s "$BATS_FILE_TMPDIR/board.dtb" /capebus shared-pins P9.19 P9.20
	fdtput -d "$BATS_FILE_TMPDIR/board.dtb" /bus@40000000/motherboard-bus@40000000/pinmux@2,00000800 pinctrl-0
	fdtput -d "$BATS_FILE_TMPDIR/board.dtb" /bus@40000000/motherboard-bus@40000000/pinmux@2,00000800 pinctrl-names
	export CB_DTB=$BATS_FILE_TMPDIR/board.dtb
	guest_boot "${args[@]}" --append firmware_class.path=/host
	guest_put "$BATS_TEST_DIRNAME/fixtures/configfs-lib.sh" cfs.sh
	for i in 0 1 2 3; do
		wait_state $i loaded
	done
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

@test "four real capes, detected from their EEPROMs, load together in slots 0-3" {
	guest_ok "for s in 0 1 2 3; do echo \$(cat $CTRL/slot\$s/state $CTRL/slot\$s/cape/part_number $CTRL/slot\$s/cape/overlay); done"
	[ "${lines[0]}" = "loaded BBORG_RELAY firmware" ]
	[ "${lines[1]}" = "loaded BBORG_COMMS firmware" ]
	[ "${lines[2]}" = "loaded BB-RTC-01 firmware" ]
	[ "${lines[3]}" = "loaded SCS-DFE-BB firmware" ]
}

@test "the relay cape's relays are LEDs driving the header lines P9.42, P9.30, P9.27" {
	local led pin
	for led in jp2:P9.42 jp3:P9.30 jp4:P9.27; do
		pin=${led#*:} led=relay-${led%:*}
		guest_ok "L=/sys/class/leds/$led; S=$(sim_line "$pin"); cat \$S/value;
			echo 1 > \$L/brightness; cat \$S/value; echo 0 > \$L/brightness; cat \$S/value"
		[ "${lines[*]}" = "0 1 0" ] || { echo "$led ($pin): ${lines[*]}"; false; }
	done
}

@test "the comms cape enables dcan1 and uart4, and muxes their pads as the vendor overlay does" {
	guest_ok "cat /proc/device-tree/can-header1/status; echo; cat /proc/device-tree/serial-header4/status; echo;
		ls -d /sys/bus/platform/devices/can-header1 /sys/bus/platform/devices/serial-header4 | wc -l"
	[ "${lines[*]}" = "okay okay 2" ]
	# P9.24, P9.26, P9.13, P9.11: pads 0x184, 0x180, 0x074, 0x070
	# (pins 97, 96, 29, 28); BBORG_COMMS-00A2.dts: 0x184 PIN_INPUT_PULLUP |
	# MUX_MODE2, 0x180 PIN_OUTPUT_PULLUP | MUX_MODE2, 0x074 PIN_OUTPUT |
	# MUX_MODE6, 0x070 PIN_INPUT | MUX_MODE6.
	guest_ok ". /host/cfs.sh; pad_state 97 96 29 28"
	[ "${lines[*]}" = "00000032 capebus0-slot1 00000012 capebus0-slot1 0000000e capebus0-slot1 0000002e capebus0-slot1" ]
}

@test "the RTC cape enables I2C1 with its MCP7940x at 0x68, and its MFP key on P8.26" {
	guest_ok "cat /proc/device-tree/i2c-header1/status; echo; $(i2c_client i2c-header1 0068)"
	[ "${lines[*]}" = "okay mcp7940x" ]
	# P9.17, P9.18 (pads 0x15c, 0x158: pins 87, 86) I2C1 in mode 2, input
	# pull-up, slow; P8.26 (0x07c: pin 31) GPIO, input, no pull.
	guest_ok ". /host/cfs.sh; pad_state 87 86 31"
	[ "${lines[*]}" = "00000072 capebus0-slot2 00000072 capebus0-slot2 0000002f capebus0-slot2" ]
	# The key: gpio-keys, KEY_WAKEUP (143) on P8.26; the kernel here has no
	# evdev, so the key's interrupt is what is watched: the line pulled
	# high and low again is two edges.
	guest_ok "grep -A1 'Name=\"cape-devices:bb-rtc-01-keys\"' /proc/bus/input/devices | sed -n 's/^P: Phys=//p'
		cat /sys/devices/platform/cape-devices/cape-devices:bb-rtc-01-keys/input/input*/capabilities/key
		irqs() { grep ' rtc_mfp\$' /proc/interrupts | awk '{ print \$2 + \$3 }'; }
		S=$(sim_line P8.26); n=\$(irqs)
		echo pull-up > \$S/pull; sleep 0.3; echo pull-down > \$S/pull; sleep 0.3; echo \$((\$(irqs) - n))"
	[ "${lines[0]}" = gpio-keys/input0 ]
	[ "${lines[1]}" = "8000 0 0 0 0" ]
	[ "${lines[2]}" = 2 ]
}

@test "the DFE's DS1338 on I2C2 is an RTC that keeps time" {
	guest_ok "$(i2c_client bus@40000000/motherboard-bus@40000000/iofpga@7,00000000/i2c@16000 0068)
		for r in /sys/class/rtc/rtc*; do grep -q '0-0068' \$r/name && R=\$r; done
		cat \$R/name; t=\$(cat \$R/since_epoch); sleep 2.2; echo \$((\$(cat \$R/since_epoch) - t))"
	[ "${lines[0]}" = ds1338 ]
	[ "${lines[1]}" = "rtc-ds1307 0-0068" ]
	[ "${lines[2]}" -ge 2 ] && [ "${lines[2]}" -le 3 ]
}

@test "unbound, the four leave the board's device tree as it booted" {
	cfs_run "for s in 3 2 1 0; do echo 1 > $CFS/slots/\$s/disable; done;
		for s in 0 1 2 3; do cat $CTRL/slot\$s/state; done;
		cat /sys/firmware/fdt > /host/boot.dtb; tar -C /sys/firmware/devicetree -cf /host/live.tar base"
	[ "$status" -eq 0 ]
	[ "${lines[*]}" = "disabled disabled disabled disabled" ]
	mkdir "$BATS_TEST_TMPDIR/live"
	tar -C "$BATS_TEST_TMPDIR/live" -xf "$CB_RUN/share/live.tar"
	dtc -q -s -I fs -O dts "$BATS_TEST_TMPDIR/live/base" | grep -v '^[[:space:]]*name = ' > "$BATS_TEST_TMPDIR/live.dts"
	dtc -q -s -I dtb -O dts "$CB_RUN/share/boot.dtb" | grep -v '^[[:space:]]*name = ' > "$BATS_TEST_TMPDIR/boot.dts"
	diff -u "$BATS_TEST_TMPDIR/boot.dts" "$BATS_TEST_TMPDIR/live.dts"
	# (and what was compared is the tree, with the nodes the capes enabled)
	awk '/^\t(i2c-header1|can-header1|serial-header4) \{/,/^\t\};/' "$BATS_TEST_TMPDIR/live.dts" |
		grep -c 'status = "disabled"' | grep -qx 3
}

@test "enabled again, the four load together again" {
	guest_ok "for s in 0 1 2 3; do echo 0 > $CFS/slots/\$s/disable; done;
		for s in 0 1 2 3; do cat $CTRL/slot\$s/state; done; ls /sys/class/leds | grep -c relay"
	[ "${lines[*]}" = "loaded loaded loaded loaded 3" ]
}
