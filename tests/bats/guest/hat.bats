#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
# A second board family on the same core: the Raspberry Pi 40-pin header
# (capebus-rpi) beside the BeagleBone header, in one boot.  The test board's
# ID bus is segment 0 of QEMU's PCA9548 switch, with real at24 EEPROMs at
# 0x50-0x53; I2C1 is segment 1, with QEMU's TMP105 at 0x49.  The HATs are
# HAT+s whose images capetool writes from eepmake settings, and whose
# overlays (<name>.dtbo, named in the EEPROM) the firmware loader finds: the
# sample HAT+s of cape-defs/hats in the guest's /lib/firmware, the thief's
# in the share:
#   slot 0 (0x50)  Sensor HAT+: TMP105 on I2C1, LED on GPIO4
#   slot 1 (0x51)  LED HAT+ (stackable): LED on GPIO17, supplies 1500 mA
#   slot 2 (0x52)  Thief HAT+: wants GPIO4, which the Sensor HAT+ holds
# and the weather cape sits in the bone's slot 0.

load ../../qemu/lib
load slot-wait

FIX=$BATS_TEST_DIRNAME/fixtures/hat
# Overlays taking interrupts through hat_irq on pins the kernel refuses:
# capetool's check refuses the same files (host hat-kernel.bats), here
# compared word for word.
IRQ_REFUSED="hat-irq-gpio3 hat-irq-gpio14 hat-irq-inherited"

# The first controller of family $1 (after a reload of its module, its
# number may have changed).
ctrl_of() {
	guest_ok "for c in /sys/class/capebus/*; do [ \"\$(cat \$c/family)\" = $1 ] && echo \$c && break; done; :"
	echo "$output"
}

setup_file() {
	local ct=${CB_CAPETOOL:-$CB_TOP/build/capetool/host/capetool} d=$BATS_FILE_TMPDIR h
	export CB_RUN=$d/guest
	mkdir -p "$CB_RUN/share"
	for h in thief gpio-v1; do
		"$ct" create "$FIX/$h.txt" -o "$d" >/dev/null
	done
	# A HAT+ that fills its 24C32 (a custom atom of 3900 bytes): reading
	# it takes seconds in QEMU.
	{ printf 'product_uuid 33333333-4444-4555-8666-777777777777\nproduct_id 0x0105\n'
	  printf 'product_ver 0x0001\nvendor "capebus test"\nproduct "Big HAT+"\ncustom_data\n'
	  head -c 3900 /dev/zero | od -An -v -tx1 | tr -d ' ' ; printf 'end\n'; } > "$d/big.txt"
	"$ct" create "$d/big.txt" -o "$d" >/dev/null
	cp "$d/big.eep" "$CB_RUN/share/big.eep"
	dtc -q -@ -I dts -O dtb -o "$CB_RUN/share/capebus-hat-thief.dtbo" "$FIX/capebus-hat-thief.dtso"
	for h in hat-gpio2-led hat-irq-keys hat-irq-thief hat-serial hat-gpio14-led $IRQ_REFUSED; do
		dtc -q -@ -I dts -O dtb -o "$CB_RUN/share/$h.dtbo" "$FIX/$h.dtso"
	done
	# what capetool says of the overlays the kernel is to refuse, in $d/NAME.why
	for h in $IRQ_REFUSED; do
		printf 'product_uuid 11111111-2222-4333-8444-666666666666\nproduct_id 0x0106\nproduct_ver 0x0001\nvendor "capebus test"\nproduct "IRQ HAT+"\ndt_blob "%s"\n' \
			"$h" > "$d/$h.txt"
		cp "$FIX/$h.dtso" "$d/"
		"$ct" check "$d/$h.txt" 2>&1 | sed -n "s|^$d/$h.txt: invalid: its overlay ($d/$h.dtso): ||p" > "$d/$h.why"
	done
	cp "$d/gpio-v1.eep" "$CB_RUN/share/gpio-v1.eep"
	guest_boot --slot 0="$CB_FIRMWARE/BB-WTHR-01-00A2.eeprom" \
		   --hat 0="$CB_FIRMWARE/sensor-hat.eep" --hat 1="$CB_FIRMWARE/led-hat.eep" \
		   --hat 2="$d/thief.eep" --append firmware_class.path=/host
	guest_put "$BATS_TEST_DIRNAME/fixtures/configfs-lib.sh" cfs.sh
	wait_state 0 loaded
	export HAT
	HAT=$(ctrl_of rpi)
	CTRL=$HAT wait_state 0 loaded
	CTRL=$HAT wait_state 1 loaded
	CTRL=$HAT wait_state 2 failed
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

@test "one boot detects both families: a bone cape and two stacked HAT+s" {
	guest_ok "for c in /sys/class/capebus/*; do echo \$(cat \$c/family) \$(cat \$c/slot0/state); done | sort"
	[ "${lines[*]}" = "bone loaded rpi loaded" ]
	guest_ok "cat $HAT/slot0/cape/part_number $HAT/slot1/cape/part_number"
	[ "${lines[*]}" = "Sensor HAT+ LED HAT+" ]
}

@test "a HAT+'s identity: product, vendor, version, UUID, ids, format, family" {
	guest_ok "cd $HAT/slot0/cape && cat board_name manufacturer version uuid product_id product_version format family overlay overlay_file"
	[ "${lines[0]}" = "Sensor HAT+" ]
	[ "${lines[1]}" = "capebus test" ]
	[ "${lines[2]}" = 0x0002 ]
	[ "${lines[3]}" = 6a1f0c3e-2b4d-4e8f-9a7c-1d2e3f405162 ]
	[ "${lines[4]}" = 0x0101 ] || [ "${lines[4]}" = 257 ]
	[ "${lines[6]}" = "HAT+" ]
	[ "${lines[7]}" = rpi ]
	[ "${lines[8]}" = firmware ]
	[ "${lines[9]}" = capebus-hat-sensor.dtbo ]
	guest_ok "cat $HAT/slot0/cape/modalias"
	[ "$output" = "capebus:frpi:pSensor%20HAT%2B:v0x0002" ]
}

@test "each HAT+'s overlay is applied: the sensor on I2C1 reads, the LEDs light" {
	guest_ok "for d in /sys/bus/i2c/devices/*-004[89]; do [ \"\$(cat \$d/name)\" = tmp105 ] && ls \$d/hwmon/*/temp1_input >/dev/null && echo \$d; done | wc -l"
	# The weather cape's tmp105 at 0x48 on the bone's bus, the HAT's at 0x49 on I2C1.
	[ "$output" = 2 ]
	# The HAT's sensor is QEMU's TMP105 behind the switch: what QEMU sets,
	# Linux reads through the HAT's overlay.
	guest_qmp qom-set '{"path": "hat-temp", "property": "temperature", "value": 27500}' >/dev/null
	guest_ok "cat /sys/bus/i2c/devices/*-0049/hwmon/hwmon*/temp1_input"
	[ "$output" = 27500 ]
	# The header's lines are gpio-sim's bank "hat-gpio" (the one with 28
	# lines): line n is GPIOn.
	guest_ok "echo 1 > /sys/class/leds/sensor-hat:green/brightness && echo 1 > /sys/class/leds/led-hat:red/brightness"
	guest_ok "c=\$(for d in /sys/devices/platform/gpio-sim*/gpiochip*; do [ -e \$d/sim_gpio27 ] && echo \$d; done | head -1);
		cat \$c/sim_gpio4/value \$c/sim_gpio17/value \$c/sim_gpio5/value"
	[ "${lines[*]}" = "1 1 0" ]
}

@test "a conflicting HAT+ is refused naming the pin and its holder; the tree is unchanged" {
	guest_ok "cat $HAT/slot2/reason"
	[[ "$output" == *"pin GPIO4 is held by Sensor HAT+ (slot 0)"* ]]
	[[ "$output" == *"Sensor HAT+ (slot 0)"* ]]
	guest_ok "ls /sys/class/leds | grep -c thief-hat || true; ls /proc/device-tree/hat-devices | grep -c thief || true"
	[ "${lines[*]}" = "0 0" ]
}

@test "a HAT may not take a shared pin (I2C1's GPIO2) as its GPIO; the tree is unchanged" {
	local c
	c=$(basename "$(ctrl_of rpi)")
	guest_ok ". /host/cfs.sh; CAPES=/sys/kernel/config/capebus/$c/capes; d=\$CAPES/sda; dt_hash > /tmp/dt.sda; declare_cape sda CFS-SDA &&
		cat /host/hat-gpio2-led.dtbo > \$d/dtbo; echo 1 > \$d/enable; cat \$d/status; rmdir \$d;
		[ \"\$(dt_hash)\" = \"\$(cat /tmp/dt.sda)\" ] && echo same-tree; ls /sys/class/leds | grep -c sda || true"
	echo "$output"
	[[ "${lines[0]}" == "failed: "*"uses header pin GPIO2 as a GPIO, which every cape shares (a bus's pin)"* ]]
	[ "${lines[1]}" = same-tree ]
	[ "${lines[2]}" = 0 ]
}

# The test board's gpio-sim bank for the 40-pin header (line n is GPIOn),
# as the guest's sysfs names its chip.
HATSIM='$(for c in /sys/devices/platform/gpio-sim/gpiochip*; do
	case $(readlink $c/of_node) in */gpio-sim/bank3) echo $c ;; esac; done)'

@test "a HAT+ takes header interrupts through the connector's nexus (hat_irq): its keys load, each on its GPIO's line, and GPIO25's fires" {
	local c
	c=$(basename "$(ctrl_of rpi)")
	guest_ok ". /host/cfs.sh; CAPES=/sys/kernel/config/capebus/$c/capes; declare_cape irq CFS-HAT-IRQ &&
		cat /host/hat-irq-keys.dtbo > \$CAPES/irq/dtbo && echo 1 > \$CAPES/irq/enable && cat \$CAPES/irq/status;
		# a probe the driver core deferred finishes in its own work: wait for it
		for i in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20; do
			grep -q ' hat-irq-gpio25\$' /proc/interrupts && break; sleep 1; done
		grep ' hat-irq-gpio24\$' /proc/interrupts; grep ' hat-irq-gpio25\$' /proc/interrupts"
	echo "$output"
	[ "${lines[0]}" = loaded ]
	# gpio-sim's interrupt domain ("irq_sim"), bank3's lines 24 and 25.
	[[ "${lines[1]}" =~ ^\ *[0-9]+:\ +0\ +0\ +irq_sim\ +24\ .*\ hat-irq-gpio24$ ]]
	[[ "${lines[2]}" =~ ^\ *[0-9]+:\ +0\ +0\ +irq_sim\ +25\ .*\ hat-irq-gpio25$ ]]
	# GPIO25 pulled high and low again: gpio-keys requested its line as an
	# input and its interrupt for both edges, gpio-sim raises one on each
	# (the level type the nexus hands it is dropped: gpio-sim's interrupt
	# domain has no xlate; see the test board's CB_IRQ).
	guest_ok "irqs() { grep \" \$1\\\$\" /proc/interrupts | awk '{ print \$2 + \$3 }'; }
		S=$HATSIM/sim_gpio25; n=\$(irqs hat-irq-gpio25)
		echo pull-up > \$S/pull; sleep 0.3; echo pull-down > \$S/pull; sleep 0.3
		echo \$((\$(irqs hat-irq-gpio25) - n))"
	[ "$output" = 2 ]
}

@test "a second HAT+ wanting GPIO25's interrupt is refused naming the pin and its holder; removed, the first's interrupts go" {
	local c
	c=$(basename "$(ctrl_of rpi)")
	guest_ok ". /host/cfs.sh; CAPES=/sys/kernel/config/capebus/$c/capes; dt_hash > /tmp/dt.irq; declare_cape thief CFS-HAT-IRQ2 &&
		cat /host/hat-irq-thief.dtbo > \$CAPES/thief/dtbo; echo 1 > \$CAPES/thief/enable; cat \$CAPES/thief/status; rmdir \$CAPES/thief;
		[ \"\$(dt_hash)\" = \"\$(cat /tmp/dt.irq)\" ] && echo same-tree; grep -c ' hat-irq-thief\$' /proc/interrupts;
		rmdir \$CAPES/irq; grep -c ' hat-irq-' /proc/interrupts || true"
	echo "$output"
	[[ "${lines[0]}" == "failed: "*"pin GPIO25 is held by CFS-HAT-IRQ (slot "*")"* ]]
	[ "${lines[1]}" = same-tree ]
	[ "${lines[2]}" = 0 ]
	[ "${lines[3]}" = 0 ]
}

@test "HAT+ interrupts through hat_irq on a shared pin, an undeclared one, one whose parent is inherited: refused in the words capetool refuses them with; the tree is unchanged (red team 14 F4)" {
	local c h why
	c=$(basename "$(ctrl_of rpi)")
	for h in $IRQ_REFUSED; do
		why=$(cat "$BATS_FILE_TMPDIR/$h.why")
		echo "# capetool: $why"
		[ -n "$why" ]
		guest_ok ". /host/cfs.sh; CAPES=/sys/kernel/config/capebus/$c/capes; d=\$CAPES/f4; dt_hash > /tmp/dt.f4; declare_cape f4 CFS-F4 &&
			cat /host/$h.dtbo > \$d/dtbo; echo 1 > \$d/enable; cat \$d/status; rmdir \$d;
			[ \"\$(dt_hash)\" = \"\$(cat /tmp/dt.f4)\" ] && echo same-tree"
		echo "$output"
		[[ "${lines[0]}" == "failed: "*"$why" ]]
		[ "${lines[1]}" = same-tree ]
	done
}

@test "a serial HAT+ enables the UART on GPIO14/15 (no console there on this board); its pins are the UART's while it is enabled" {
	local c
	c=$(basename "$(ctrl_of rpi)")
	guest_ok ". /host/cfs.sh; CAPES=/sys/kernel/config/capebus/$c/capes; declare_cape gps CFS-HAT-GPS &&
		cat /host/hat-serial.dtbo > \$CAPES/gps/dtbo && echo 1 > \$CAPES/gps/enable && cat \$CAPES/gps/status;
		cat /proc/device-tree/serial-hat0/status; echo; ls /sys/bus/platform/devices | grep -c serial-hat0;
		declare_cape led CFS-HAT-TXD && cat /host/hat-gpio14-led.dtbo > \$CAPES/led/dtbo; echo 1 > \$CAPES/led/enable; cat \$CAPES/led/status;
		rmdir \$CAPES/led \$CAPES/gps; cat /proc/device-tree/serial-hat0/status; echo; ls /sys/bus/platform/devices | grep -c serial-hat0 || true"
	echo "$output"
	[ "${lines[0]}" = loaded ]
	[ "${lines[1]}" = okay ]
	[ "${lines[2]}" = 1 ]
	[[ "${lines[3]}" == "failed: "*"pin GPIO14 is held by bus uart0"* ]]
	[ "${lines[4]}" = disabled ]
	[ "${lines[5]}" = 0 ]
}

@test "a HAT+ lists no ID pins (its overlay's exclusive-use claims them) and supplies what its power atom says" {
	guest_ok "cat $HAT/slot0/cape/pins | wc -l; cat $HAT/slot1/cape/currents"
	[ "${lines[0]}" = 0 ]
	[ "${lines[*]:1}" = "vdd-3v3 0 vdd-5v 0 dc-supplied 1500" ]
}

@test "a stacked HAT+ goes with its EEPROM and comes back, the other stays" {
	guest_ok "a=\$(basename \$(readlink -f $HAT/slot1/nvmem/..)); echo \$a > /tmp/hat1;
		echo \$a > /sys/bus/i2c/drivers/at24/unbind"
	CTRL=$HAT wait_state 1 empty
	guest_ok "ls /sys/class/leds | grep -c led-hat || true; cat $HAT/slot0/state"
	[ "${lines[*]}" = "0 loaded" ]
	guest_ok "cat /tmp/hat1 > /sys/bus/i2c/drivers/at24/bind"
	CTRL=$HAT wait_state 1 loaded
	guest_ok "ls /sys/class/leds | grep -c led-hat"
	[ "$output" = 1 ]
}

@test "rmmod capebus-rpi removes the HATs' overlays and leaves the bone's cape; modprobe brings them back" {
	guest_ok "rmmod capebus_rpi &&
		ls /sys/class/leds | grep -c hat || true; ls /sys/class/capebus | wc -l; cat /sys/class/capebus/*/slot0/state"
	[ "${lines[*]}" = "0 1 loaded" ]
	# Nothing of the HATs' overlays is left in the tree: not the nodes
	# they added under the connector's targets, nor the I2C client.
	guest_ok "{ find /proc/device-tree/hat-devices -mindepth 1 -type d; find /proc/device-tree -type d -path '*/i2c-mux@70/i2c@1/*'; } | grep -c . || true;
		ls /sys/bus/i2c/devices | grep -c -- -0049 || true"
	[ "${lines[*]}" = "0 0" ]
	guest_ok "modprobe capebus-rpi && for i in \$(seq 300); do
			for c in /sys/class/capebus/*; do [ \"\$(cat \$c/family)\" = rpi ] &&
				[ \"\$(cat \$c/slot0/state \$c/slot1/state 2>/dev/null | tr '\n' ' ')\" = 'loaded loaded ' ] && exit 0; done; sleep 0.2; done; exit 1"
	guest_ok "ls /sys/class/leds | grep -c hat"
	[ "$output" = 2 ]
}

@test "configfs declares a v1 HAT from its image: its GPIO map's pins and settings, decoded by the connector" {
	local hat
	hat=$(ctrl_of rpi)
	hat=$(basename "$hat")
	# No overlay (no device tree atom) and no driver for it: detected.
	guest_ok "d=/sys/kernel/config/capebus/$hat/capes/button; mkdir \$d && cat /host/gpio-v1.eep > \$d/eeprom &&
		echo 1 > \$d/enable && cat \$d/status && c=/sys/bus/capebus/devices/\$(cat \$d/cape) &&
		cat \$c/part_number \$c/format \$c/pins"
	[ "${lines[0]}" = detected ]
	[ "${lines[1]}" = "Button HAT" ]
	[ "${lines[2]}" = HAT ]
	[ "${lines[*]:3}" = "GPIO2 alt0 GPIO3 alt0 GPIO22 input pull-up" ]
	guest_ok "rmdir /sys/kernel/config/capebus/$hat/capes/button && echo gone"
}

@test "a HAT read while a declared cape holds its slot is the slot's disabled cape once that goes" {
	local hat c
	hat=$(ctrl_of rpi)
	c=$(basename "$hat")
	guest_ok ". /host/cfs.sh; K=/sys/kernel/config/capebus/$c; CAPES=\$K/capes; A=/sys/bus/i2c/drivers/at24; d=\$K/capes/into1
		a=\$(basename \$(readlink -f $hat/slot1/nvmem/..))
		echo 1 > \$K/slots/1/disable && declare_cape into1 CFS-INTO && echo 1 > \$d/slot &&
		echo 1 > \$d/enable && cat \$d/status &&
		echo \$a > \$A/unbind && sleep 1 && echo \$a > \$A/bind &&
		for i in \$(seq 300); do dmesg | grep -q 'slot 1: LED HAT+ not loaded: the slot holds another cape' && break; sleep 0.2; done
		cat $hat/slot1/cape/part_number; echo 0 > \$d/enable; rmdir \$d; cat $hat/slot1/state \$K/slots/1/disable
		echo 0 > \$K/slots/1/disable && cat $hat/slot1/state $hat/slot1/cape/part_number"
	echo "$output"
	[ "${lines[0]}" = detected ]
	[ "${lines[1]}" = CFS-INTO ]
	[ "${lines[2]}" = disabled ]
	[ "${lines[3]}" = 1 ]
	[ "${lines[4]}" = loaded ]
	[ "${lines[5]}" = "LED HAT+" ]
}

@test "rmmod capebus-rpi while a slot is being read: its EEPROM's unbind waits for the read, at24 binds again" {
	# Before: the notifier went before the read was waited for; the unbind
	# did not wait, at24 freed what the read went through (an Oops in
	# at24_read() under load) and every later bind failed with -EEXIST
	# (red team round 9).
	guest_ok "A=/sys/bus/i2c/drivers/at24; cat /host/big.eep > /sys/bus/i2c/devices/2-0052/eeprom &&
		echo 2-0052 > \$A/unbind && echo 2-0052 > \$A/bind && sleep 1 &&
		{ rmmod capebus_rpi & } && sleep 0.5 &&
		echo 2-0052 > \$A/unbind && echo 2-0052 > \$A/bind && wait && echo rebound &&
		dmesg | grep -c -e 'cannot create duplicate' -e 'Oops' -e 'probe with driver at24 failed' || true"
	[ "${lines[*]}" = "rebound 0" ]
	guest_ok "modprobe capebus-rpi && for i in \$(seq 300); do
			for c in /sys/class/capebus/*; do [ \"\$(cat \$c/family)\" = rpi ] &&
				[ \"\$(cat \$c/slot2/state 2>/dev/null)\" = detected ] && cat \$c/slot2/cape/part_number && exit 0; done; sleep 0.2; done; exit 1"
	[ "$output" = "Big HAT+" ]
}
