#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
# Kernel lifetimes and locking (issue 23):
#
#  - a controller module unloaded while capes are declared in configfs: the
#    declarations keep the controller alive, and nothing they reach may be
#    the unloaded module's (its header's pin and rail names, its ops);
#  - a cape driver's probe (an overlay apply, firmware loads, the probes of
#    what the overlay adds) runs under no lock that a reader of a slot's
#    state or a declared cape's status takes: those answer at once, and a
#    probe that reads its own slot's state does not deadlock.
#
# tests/modules/slowprobe is the cape driver whose probe waits to be let go.

load ../../qemu/lib
load test-module
load cfs-run

FIX=$BATS_TEST_DIRNAME/fixtures
CTRL=/sys/class/capebus/capebus0
SLOW=/sys/kernel/debug/capebus-slowprobe

setup_file() {
	local f
	for f in leds rtc weather; do
		dtc -q -@ -I dts -O dtb -o "$BATS_FILE_TMPDIR/$f.dtbo" "$FIX/configfs-$f.dtso"
	done
	# The weather cape's EEPROM with its overlay embedded.
	"$FIX/configfs-eeprom.py" "$BATS_FILE_TMPDIR/weather.eeprom" "Weather Cape" 00A0 \
		capebus BB-WTHR-01 0123BBBK0002 --pin P9.19=0xE072 --pin P9.20=0xE072 \
		--overlay "$BATS_FILE_TMPDIR/weather.dtbo"
	build_test_module slowprobe
	# No EEPROM in any slot: every cape here is declared.
	guest_boot
	guest_put "$BATS_FILE_TMPDIR/leds.dtbo"
	guest_put "$BATS_FILE_TMPDIR/rtc.dtbo"
	guest_put "$BATS_FILE_TMPDIR/weather.eeprom"
	guest_put "$BATS_FILE_TMPDIR/mod/capebus-slowprobe.ko"
	guest_put "$FIX/configfs-lib.sh" cfs.sh
	guest_ok '. /host/cfs.sh; for i in $(seq 600); do [ -d $CB ] && exit 0; sleep 0.1; done; exit 1'
	guest_teardown
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

# Every readable attribute of the configfs directories given, one line
# each: "<dir>/<attr>: <first line of the value>" ("<N> bytes" for the
# binary ones), or "<dir>/<attr>: error <status>".
read_all='for d in "$@"; do
		for a in $d/*; do
			[ -f $a ] && [ "${a##*/}" != clear_override ] || continue
			if ! cat $a > /tmp/v 2>/dev/null; then
				echo "${d##*/}/${a##*/}: error $?"
				continue
			fi
			case ${a##*/} in
			eeprom|dtbo|override) echo "${d##*/}/${a##*/}: $(wc -c < /tmp/v) bytes" ;;
			*) echo "${d##*/}/${a##*/}: $(head -n 1 /tmp/v)" ;;
			esac
		done
	done'

@test "capebus-bone unloaded with capes declared: their attributes and the slots' answer, enable fails cleanly, rmdir works" {
	# One cape by its fields in hardware slot 2, with an overlay, pins and
	# currents; one from an EEPROM image (the overlay embedded); one never
	# enabled, in hardware slot 3.
	# The bone's group alone: the Pi header's controller goes first.
	cfs_run 'rmmod capebus_rpi 2>/dev/null; declare_cape f CFS-LEDS "LED Cape" && cat /host/leds.dtbo > $CAPES/f/dtbo &&
		echo 2 > $CAPES/f/slot && echo P9.12 > $CAPES/f/pins && echo "vdd-3v3b 20" > $CAPES/f/currents &&
		echo 1 > $CAPES/f/enable &&
		mkdir $CAPES/e && cat /host/weather.eeprom > $CAPES/e/eeprom && echo 1 > $CAPES/e/enable &&
		declare_cape idle CFS-IDLE && echo 3 > $CAPES/idle/slot && echo P8.14 > $CAPES/idle/pins &&
		cb-settle && cat $CAPES/f/status $CAPES/e/status $CAPES/idle/status $CB/slots/2/state'
	[ "$status" -eq 0 ]
	[ "${lines[*]}" = "loaded loaded disabled loaded" ]

	# The controller goes with its module; the declarations keep it.  (On
	# the distribution lane mdev loaded the weather cape's driver: it uses
	# only capebus and stays.)
	cfs_run 'rmmod capebus_bone && cape_devices && cape_i2c && cat $CAPES/f/status $CAPES/e/status $CAPES/idle/status'
	[ "$status" -eq 0 ]
	[ "${lines[*]}" = "none none failed: capebus0 was removed failed: capebus0 was removed disabled" ]

	# Every attribute answers, and what describes a cape reads as written
	# (pin and rail names from the header the controller was given).
	cfs_run "set -- \$CAPES/f \$CAPES/e \$CAPES/idle \$CB/slots/0 \$CB/slots/1 \$CB/slots/2 \$CB/slots/3; $read_all" \
		'; cat $CAPES/f/pins $CAPES/f/currents $CAPES/idle/pins'
	[ "$status" -eq 0 ]
	! grep -q ': error' <<< "$output"
	[ "$(grep -c '^[a-z0-9]*/[a-z_]*: ' <<< "$output")" -eq 67 ]
	grep -qx 'f/board_name: LED Cape' <<< "$output"
	grep -qx 'e/status: failed: capebus0 was removed' <<< "$output"
	grep -qx '2/state: empty' <<< "$output"
	[ "${lines[*]: -6}" = "P9.12 vdd-3v3b 20 vdd-5v 0 sys-5v 0 dc-supplied 0 P8.14" ]

	# Writes: the fields still check against the header; enable, by fields
	# or with the EEPROM image (which the gone controller would decode),
	# fails cleanly and says why; the slots refuse.
	cfs_run 'echo P9.13 > $CAPES/idle/pins && echo "sys-5v 5" > $CAPES/idle/currents &&
		echo "Idle Cape" > $CAPES/idle/board_name && echo ok
		echo P99.1 2>/dev/null > $CAPES/idle/pins; echo "bad pin $?"
		for c in f e idle; do echo 1 2>/dev/null > $CAPES/$c/enable; echo "$c $?"; done
		echo 1 2>/dev/null > $CB/slots/2/disable; echo "disable $?"
		cat /host/weather.eeprom 2>/dev/null > $CB/slots/1/override; cat $CB/slots/1/override_status
		cat $CAPES/f/status $CAPES/e/status $CAPES/idle/status $CAPES/idle/pins $CAPES/idle/currents
		echo 0 > $CAPES/f/enable; cat $CAPES/f/status'
	[ "$status" -eq 0 ]
	[ "${lines[*]:0:6}" = "ok bad pin 1 f 1 e 1 idle 1 disable 1" ]
	[ "${lines[6]}" = "refused: capebus0 was removed" ]
	[ "${lines[7]}" = "failed: capebus0 is going away" ]
	[ "${lines[8]}" = "failed: eeprom: capebus0 is going away" ]
	[ "${lines[9]}" = "failed: capebus0 is going away" ]
	[ "${lines[*]:10}" = "P9.13 vdd-3v3b 0 vdd-5v 0 sys-5v 5 dc-supplied 0 disabled" ]

	# rmdir: the group goes with the last declaration; the core unloads
	# and a new controller comes up.
	cfs_run 'rmdir $CAPES/f $CAPES/e $CAPES/idle && sleep 0.5 && ls /sys/kernel/config/capebus | wc -l &&
		cb-settle && { rmmod capebus_bone_weather 2>/dev/null; unload_core; } &&
		modprobe capebus-bone && for i in $(seq 600); do [ -d $CB ] && break; sleep 0.1; done; ls /sys/kernel/config/capebus'
	[ "$status" -eq 0 ]
	[ "${lines[*]}" = "0 capebus0" ]
}

# While a cape driver's probe runs (here: waits, as a probe loading
# firmware or probing what an overlay added would), nothing that reads a
# slot's state may wait for it.
@test "while a declared cape's probe is blocked, slot state and reason (sysfs, configfs) and the cape's status answer at once" {
	cfs_run "insmod /host/capebus-slowprobe.ko && declare_cape slow CB-SLOW-01 &&
		cat /host/rtc.dtbo > \$CAPES/slow/dtbo && echo 2 > \$CAPES/slow/slot || exit 1
		{ echo 1 > \$CAPES/slow/enable; echo \"enable \$?\" > /tmp/enable.out; } &
		for i in \$(seq 150); do [ \"\$(cat $SLOW/probing)\" = 1 ] && break; sleep 0.2; done
		cat $SLOW/probing
		# Each read in the background: what has not answered in 2 s is blocked.
		n=0
		for f in $CTRL/slot2/state $CTRL/slot2/reason \$CB/slots/2/state \$CB/slots/2/reason \$CAPES/slow/status \$CAPES/slow/enable; do
			n=\$((n + 1)); rm -f /tmp/r\$n
			(v=\$(cat \$f); echo \"[\$v]\" > /tmp/r\$n) &
		done
		sleep 2
		for i in \$(seq \$n); do cat /tmp/r\$i 2>/dev/null || echo blocked; done
		echo 1 > $SLOW/release; wait
		cat /tmp/enable.out \$CAPES/slow/status $CTRL/slot2/state
		ls /sys/bus/i2c/devices | grep -c -- -0068
		rmdir \$CAPES/slow && rmmod capebus_slowprobe && echo cleaned"
	[ "$status" -eq 0 ]
	# Mid-probe: a cape is in the slot, no driver's probe has returned.
	[ "${lines[*]:0:7}" = "1 [detected] [] [detected] [] [detected] [1]" ]
	[ "${lines[*]:7}" = "enable 0 loaded loaded 1 cleaned" ]
}

# Last: before issue 23's fix this deadlocked the controller for good.
@test "a cape driver's probe reading its own slot's state gets an answer, no deadlock" {
	CB_RUN_TIMEOUT=60 cfs_run "insmod /host/capebus-slowprobe.ko wait=0 slot_state=1 &&
		declare_cape self CB-SLOW-01 && cat /host/rtc.dtbo > \$CAPES/self/dtbo &&
		echo 2 > \$CAPES/self/slot && echo 1 > \$CAPES/self/enable &&
		cat $SLOW/slot_state && echo && cat \$CAPES/self/status $CTRL/slot2/state &&
		rmdir \$CAPES/self && rmmod capebus_slowprobe && echo cleaned"
	[ "$status" -eq 0 ]
	[ "${lines[*]}" = "detected loaded loaded cleaned" ]
}
