#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
# The distribution lane (CB_LANE=distro): slots follow their EEPROM's driver.
# at24 is a module kept from loading at boot (modprobe.blacklist=at24, which
# /init hands to busybox's modprobe), so mdev loads capebus-bone first and
# its slots find no EEPROM; loading at24 then makes the slots read their
# EEPROMs, unloading it takes the capes away, and mdev loads the cape's own
# driver module (capebus-bone-weather) by the cape's MODALIAS.
#
# Slot 0: the weather cape (tmp105, its driver capebus-bone-weather),
# slot 1: the RTC cape (ds1338, the rtc-ds1307 module).

load ../../qemu/lib

CTRL=/sys/class/capebus/capebus0
WEATHER=/sys/bus/capebus/devices/capebus0-slot0
RTC=/sys/bus/capebus/devices/capebus0-slot1
DT_HASH='find /proc/device-tree/ -type f | LC_ALL=C sort | xargs md5sum | md5sum | cut -d" " -f1'
# The driver bound to the weather cape, by name, or "none".
DRIVER="basename \$(readlink $WEATHER/driver 2>/dev/null || echo none)"
# Module names, one line.
MODS="cut -d' ' -f1 /proc/modules | LC_ALL=C sort | tr '\n' ' '"

# wait_states STATE0 STATE1: both slots in these states, within 60 s.
wait_states() {
	guest_run "for i in \$(seq 300); do [ \"\$(cat $CTRL/slot0/state $CTRL/slot1/state 2>/dev/null | tr '\n' ' ')\" = '$1 $2 ' ] && exit 0; sleep 0.2; done
		cat $CTRL/slot0/state $CTRL/slot1/state; exit 1"
	[ "$status" -eq 0 ] || { echo "slots: '$output', expected $1 $2" >&2; return 1; }
}

setup_file() {
	[ "$CB_LANE" = distro ] || skip "the distribution lane's suite (CB_LANE=distro)"
	guest_boot --slot 0="$CB_FIRMWARE/BB-WTHR-01-00A2.eeprom" \
		   --slot 1="$CB_FIRMWARE/EXL-RTC-01-00A0.eeprom" \
		   --append "modprobe.blacklist=at24"
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

# The suites' waits on mdev rest on this: a burst of uevents (every tty
# again), and cb-settle returns only once mdev has handled each one and no
# helper is left.  Its /dev/mdev.seq is then past the kernel's
# uevent_seqnum, unless an mdev gave up waiting its turn (2 s, on a loaded
# host) and wrote it out of order: then no mdev may still be running, and
# the last one's mark (mdev.seq written after the burst) must be there.
@test "cb-settle returns only once mdev has handled every uevent and no helper runs" {
	guest_ok 'before=$(cat /sys/kernel/uevent_seqnum)
		for u in /sys/class/tty/*/uevent; do echo add > $u; done
		cb-settle && echo settled; echo $(cat /dev/mdev.seq) $(cat /sys/kernel/uevent_seqnum) $before
		pidof mdev modprobe || echo none'
	[ "${lines[0]}" = settled ]
	read -r handled sent before <<< "${lines[1]}"
	[ "$sent" -gt "$before" ]
	[ "$handled" -gt "$before" ]
	[ "${lines[2]}" = none ]
}

# mdev.seq is only a hint: an mdev that waited its 2 s for an earlier one's
# turn goes ahead and writes it out of order, leaving it behind the
# kernel's count for good.  With no helper left, cb-settle settles anyway.
@test "cb-settle settles when mdev.seq was left behind and no helper runs" {
	guest_ok 'cb-settle && echo 1 > /dev/mdev.seq && cb-settle 10 && echo settled
		echo $(($(cat /sys/kernel/uevent_seqnum) + 1)) > /dev/mdev.seq'
	[ "$output" = settled ]
}

@test "without at24, mdev loads capebus-bone and its slots are empty" {
	guest_ok "cb-settle && $MODS"
	[[ " $output " == *" capebus_bone "* ]]
	[[ " $output " != *" at24 "* ]]
	# The scan has run: it would not change its mind without at24.
	sleep 2
	guest_ok "cat $CTRL/slot0/state $CTRL/slot1/state; ls /sys/bus/capebus/devices/ | wc -l;
		[ -e $CTRL/slot0/nvmem ] || echo no-nvmem-link"
	[ "${lines[*]}" = "empty empty 0 no-nvmem-link" ]
	guest_ok "$DT_HASH > /tmp/dt.board && cat /tmp/dt.board"
}

@test "modprobe at24 after capebus-bone: the slots read their EEPROMs and the capes load" {
	guest_ok "modprobe at24"
	wait_states loaded loaded
	guest_ok "cb-settle && cat $WEATHER/part_number $RTC/part_number &&
		readlink $CTRL/slot0/nvmem | sed 's,.*/,,' && readlink $CTRL/slot1/nvmem | sed 's,.*/,,'"
	[ "${lines[*]:0:2}" = "BB-WTHR-01 EXL-RTC-01" ]
	# at24 numbers its nvmem devices in probe order: 0-0054N, 0-0055N.
	[[ "${lines[2]}" == 0-0054? ]]
	[[ "${lines[3]}" == 0-0055? ]]
}

@test "mdev loads the weather cape's driver module by its MODALIAS and it binds" {
	guest_ok "cb-settle && $DRIVER && cat $WEATHER/revision_known && $MODS"
	[ "${lines[0]}" = capebus-bone-weather ]
	[ "${lines[1]}" = 1 ]
	[[ " ${lines[2]} " == *" capebus_bone_weather "* ]]
	# The devices the capes' overlays describe, their drivers loaded by
	# mdev too: lm75 for the weather cape's tmp105, rtc-ds1307 for the RTC
	# cape's DS1338.  (An I2C device with a node has only its OF modalias,
	# so the cape must say "dallas,ds1338", the binding's compatible: with
	# "maxim,ds1338" nothing would load rtc-ds1307.)
	guest_ok "cb-settle; grep -l tmp105 /sys/class/hwmon/hwmon*/name | wc -l;
		readlink /sys/bus/i2c/devices/*-0068/driver | sed 's,.*/,,'"
	[ "${lines[0]}" = 1 ]
	[ "${lines[1]}" = rtc-ds1307 ]
}

@test "unbinding one EEPROM empties its slot only" {
	guest_ok "echo 0-0054 > /sys/bus/i2c/drivers/at24/unbind"
	wait_states empty loaded
	guest_ok "[ -e $WEATHER ] || echo gone; [ -e $CTRL/slot0/nvmem ] || echo no-nvmem-link;
		grep -l tmp105 /sys/class/hwmon/hwmon*/name 2>/dev/null | wc -l"
	[ "${lines[*]}" = "gone no-nvmem-link 0" ]
	guest_ok "echo 0-0054 > /sys/bus/i2c/drivers/at24/bind"
	wait_states loaded loaded
	guest_ok "cb-settle && $DRIVER"
	[ "$output" = capebus-bone-weather ]
}

@test "rmmod at24: the slots are empty, the capes gone, the tree the board's again" {
	guest_ok "rmmod at24"
	wait_states empty empty
	guest_ok "ls /sys/bus/capebus/devices/ | wc -l; [ -e $CTRL/slot0/nvmem ] || echo no-nvmem-link;
		[ -e $CTRL/slot1/nvmem ] || echo no-nvmem-link; [ \"\$($DT_HASH)\" = \"\$(cat /tmp/dt.board)\" ] && echo board-tree;
		cat $CTRL/slot0/reason"
	[ "${lines[*]}" = "0 no-nvmem-link no-nvmem-link board-tree" ]
}

@test "modprobe at24 again: the capes are detected again, the weather driver bound" {
	guest_ok "modprobe at24"
	wait_states loaded loaded
	guest_ok "cb-settle && $DRIVER && cat $WEATHER/part_number"
	[ "${lines[*]}" = "capebus-bone-weather BB-WTHR-01" ]
}

@test "the cape modules unload and load again; the slots read their EEPROMs again" {
	guest_ok "rmmod capebus_bone_weather && rmmod capebus_bone && rmmod capebus_rpi && rmmod capebus && $MODS"
	[[ " $output " != *" capebus"* ]]
	guest_ok "modprobe capebus-bone && modprobe capebus-rpi"
	wait_states loaded loaded
	guest_ok "cb-settle && $DRIVER"
	[ "$output" = capebus-bone-weather ]
}
