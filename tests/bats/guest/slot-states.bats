#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
# The slot state machine (Documentation/capebus/slot-states.rst) as a script
# drives it through configfs: writes that are idempotent and retryable,
# concurrent writers that end in a documented state, binary writes that
# never half-replace, text writes that refuse every byte outside the set.

load ../../qemu/lib
load fixtures/rtc-slot

FIX=$BATS_TEST_DIRNAME/fixtures

setup_file() {
	boot_rtc_slot1 weather
	guest_put "$FIX/slot-uevent.sh"
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

# Run CMD in the guest after sourcing the helpers (output shown on failure).
cfs_run() {
	guest_run ". /host/cfs.sh; S=\$CB/slots/1; $*"
	printf '# guest (status %s):\n%s\n' "$status" "$output"
}

# The slot's state, its disable switch and its reason, on one line.
slot_line='echo "$(cat $S/state) $(cat $S/disable) [$(cat $S/reason)]"'

@test "writing the state a slot is in succeeds: 0 to a loaded slot, 1 to a disabled one" {
	cfs_run "echo 0 > \$S/disable && $slot_line"
	[ "$status" -eq 0 ]
	[ "${lines[*]}" = "loaded 0 []" ]
	cfs_run "echo 1 > \$S/disable && echo 1 > \$S/disable && $slot_line && echo 0 > \$S/disable && $slot_line"
	[ "$status" -eq 0 ]
	[ "${lines[0]}" = "disabled 1 [BB-RTC-01 disabled]" ]
	[ "${lines[1]}" = "loaded 0 []" ]
}

@test "two concurrent enables of a disabled slot both succeed and load it once" {
	cfs_run 'fails=0
		for r in $(seq 20); do
			echo 1 > $S/disable || fails=$((fails + 1))
			(echo 0 > $S/disable) 2>/tmp/e1 & a=$!
			(echo 0 > $S/disable) 2>/tmp/e2 & b=$!
			wait $a || { fails=$((fails + 1)); cat /tmp/e1; }
			wait $b || { fails=$((fails + 1)); cat /tmp/e2; }
			[ "$(cat $S/state)" = loaded ] || { fails=$((fails + 1)); cat $S/state $S/reason; }
		done
		echo "fails=$fails devices=$(ls /sys/bus/capebus/devices | wc -l)"'
	[ "$status" -eq 0 ]
	[ "${lines[*]: -1}" = "fails=0 devices=1" ]
}

@test "enables racing a disable end in a documented state from which both writes work" {
	cfs_run 'bad=0
		for r in $(seq 30); do
			(echo 0 > $S/disable) 2>/dev/null & a=$!
			usleep $((r * 5000 % 150000))
			(echo 1 > $S/disable) 2>/dev/null & b=$!
			(echo 0 > $S/disable) 2>/dev/null & c=$!
			wait $a; wait $b; wait $c
			st=$(cat $S/state) d=$(cat $S/disable) why=$(cat $S/reason)
			case "$st $d [$why]" in
			"loaded 0 []"|"disabled 1 [BB-RTC-01 disabled]") ;;
			*) bad=$((bad + 1)); echo "round $r: $st $d [$why]" ;;
			esac
			echo 1 > $S/disable && echo 0 > $S/disable || { bad=$((bad + 1)); echo "round $r: stuck"; }
		done
		echo "bad=$bad"'
	[ "$status" -eq 0 ]
	[ "${lines[*]: -1}" = "bad=0" ]
}

@test "a refused enable keeps the slot disabled, says why, and the same write succeeds once the cause is gone" {
	cfs_run "echo 1 > \$S/disable && declare_cape holder CFS-HOLDER && echo P9.17 > \$CAPES/holder/pins &&
		echo 1 > \$CAPES/holder/enable && $slot_line"
	[ "$status" -eq 0 ]
	[ "${lines[0]}" = "disabled 1 [BB-RTC-01 disabled]" ]
	cfs_run "echo 0 > \$S/disable"
	[ "$status" -ne 0 ]
	[[ "$output" == *"Device or resource busy"* ]]
	cfs_run "$slot_line; cape_i2c"
	[ "${lines[0]}" = "disabled 1 [pin P9.17 is held by CFS-HOLDER (slot 4)]" ]
	[ "${lines[1]}" = none ]
	# Again: still refused, still disabled.
	cfs_run "echo 0 > \$S/disable 2>/dev/null; $slot_line"
	[ "${lines[*]}" = "disabled 1 [pin P9.17 is held by CFS-HOLDER (slot 4)]" ]
	# The holder goes: the same write succeeds and the reason clears.
	cfs_run "rmdir \$CAPES/holder && echo 0 > \$S/disable && $slot_line && cape_i2c"
	[ "$status" -eq 0 ]
	[ "${lines[*]: -2}" = "loaded 0 [] 0-0068" ]
}

@test "an oversized binary write keeps the previous value, and status says it was dropped" {
	cfs_run 'declare_cape big CFS-BIG && cat /host/weather.dtbo > $CAPES/big/dtbo && cat /host/rtc.eeprom > $CAPES/big/eeprom'
	[ "$status" -eq 0 ]
	# Buffered by configfs, refused at the hand-over: the old value stays.
	cfs_run 'head -c 1100000 /dev/zero > $CAPES/big/dtbo; cmp $CAPES/big/dtbo /host/weather.dtbo && echo kept; cat $CAPES/big/status'
	[ "${lines[*]: -2}" = "kept disabled (a write to dtbo was dropped: 1100000 bytes, at most 1048576)" ]
	# Past what configfs buffers: the writer gets an error, the old value stays.
	cfs_run 'head -c 2200000 /dev/zero > $CAPES/big/dtbo'
	[ "$status" -ne 0 ]
	cfs_run 'cmp $CAPES/big/dtbo /host/weather.dtbo && echo kept'
	[ "${lines[*]: -1}" = kept ]
	cfs_run 'head -c 40000 /dev/zero > $CAPES/big/eeprom; cmp $CAPES/big/eeprom /host/rtc.eeprom && echo kept; cat $CAPES/big/status'
	[ "${lines[*]: -2}" = "kept disabled (a write to eeprom was dropped: 40000 bytes, at most 32768)" ]
	# A write that is kept clears the note; the cape still loads.
	cfs_run 'cat /host/weather.dtbo > $CAPES/big/dtbo && cat $CAPES/big/status && rmdir $CAPES/big'
	[ "${lines[*]: -1}" = disabled ]
	# The slot's override image: the same rule.
	cfs_run 'head -c 40000 /dev/zero > $S/override; cat $S/override_status $S/state; cat $S/override | wc -c'
	[ "${lines[*]: -3}" = "refused: image too large: 40000 bytes, at most 32768 loaded 0" ]
}

@test "a NUL or control byte inside a text value is refused with EINVAL and changes nothing" {
	cfs_run 'declare_cape txt CFS-TXT Board'
	[ "$status" -eq 0 ]
	# dd reports the errno of the write (busybox printf only its status).
	for v in 'ab\0cd' 'ab\tcd' 'ab\ncd' '\0' 'ab\033[1m' 'caf\303\251'; do
		cfs_run "printf '$v' | dd of=\$CAPES/txt/board_name 2>&1; cat \$CAPES/txt/board_name"
		[[ "$output" == *"Invalid argument"* ]]
		[ "${lines[*]: -1}" = Board ]
	done
	cfs_run 'printf "ok\n" > $CAPES/txt/manufacturer; cat $CAPES/txt/board_name $CAPES/txt/manufacturer; rmdir $CAPES/txt'
	[ "${lines[*]: -2}" = "Board ok" ]
}

# A netlink listener (busybox uevent, running fixtures/slot-uevent.sh per
# event) sees each slot change (slot-states.rst, "Uevents and poll()").
# Started, it is known to listen once an event written to the controller's
# uevent file reaches /tmp/ev; each wait below is for an event, bounded.
@test "slot uevents: a refused cape's says failed and why, a loaded cape's says loaded, in order" {
	cfs_run 'rm -f /tmp/ev; (uevent sh /host/slot-uevent.sh </dev/null >/dev/null 2>&1 & echo $! > /tmp/ev.pid)
		for i in $(seq 100); do echo change > /sys/class/capebus/capebus0/uevent; [ -s /tmp/ev ] && exit 0; sleep 0.1; done; exit 1'
	[ "$status" -eq 0 ]
	# Slot 2 overridden with the RTC cape of slot 1: its pins are held.
	cfs_run 'cat /host/rtc.eeprom > $CB/slots/2/override; W=/sys/class/capebus/capebus0/slot2
		for i in $(seq 100); do grep -q "^slot2 change failed" /tmp/ev && break; sleep 0.1; done
		cat $W/state; grep -v " none \[" /tmp/ev; grep -Fx "slot2 change failed [$(cat $W/reason)]" /tmp/ev >/dev/null && echo same-reason'
	[ "${lines[*]}" = "failed slot2 change failed [pin P9.18 is held by BB-RTC-01 (slot 1); pin P9.17 is held by BB-RTC-01 (slot 1)] same-reason" ]
	# Slot 1 disabled and enabled again: each step its event, in order.
	cfs_run ': > /tmp/ev; echo 1 > $S/disable && echo 0 > $S/disable
		for i in $(seq 100); do grep -q "^slot1 change loaded \[\]$" /tmp/ev && break; sleep 0.1; done
		cat $S/state; grep "^slot1 " /tmp/ev'
	# unbinding (detected), disabled; added again (detected) and bound
	# while the reason still says disabled, as the files read meanwhile;
	# the transition's end clears it.
	[ "${lines[*]}" = "loaded slot1 change detected [] slot1 change disabled [BB-RTC-01 disabled] slot1 change detected [BB-RTC-01 disabled] slot1 change loaded [BB-RTC-01 disabled] slot1 change loaded []" ]
	# The override cleared: slot 2 tells it is empty again.
	cfs_run 'echo 1 > $CB/slots/2/clear_override
		for i in $(seq 100); do grep -q "^slot2 change empty \[\]$" /tmp/ev && break; sleep 0.1; done
		kill $(cat /tmp/ev.pid); grep "^slot2 change" /tmp/ev | grep -v " none \[" | tail -n 1'
	[ "${lines[0]}" = "slot2 change empty []" ]
}

@test "after all of it: nothing leaked, the slot loaded, one device" {
	guest_run 'sleep 6; echo scan > /sys/kernel/debug/kmemleak; echo scan > /sys/kernel/debug/kmemleak;
		grep -c "^unreferenced object" /sys/kernel/debug/kmemleak; . /host/cfs.sh; cat $CB/slots/1/state; cape_devices'
	[ "${lines[*]}" = "0 loaded capebus0-slot1" ]
}
