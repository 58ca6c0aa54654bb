#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
# The control plane under stress, from several guest shells at once (two
# CPUs, lockdep, kmemleak, slub_debug): slot writers and readers, declared
# capes raced through enable/disable/rmdir, dozens of capes in random order,
# module unloads attempted under load, storms of bad bytes to every
# attribute.  Bounded: each test runs for a fixed number of rounds.  After
# each, the documented state, the live device tree and (at the end) kmemleak
# are checked; guest_teardown fails any test during which the kernel
# complained.

load ../../qemu/lib
load fixtures/rtc-slot

FIX=$BATS_TEST_DIRNAME/fixtures

# 40 header pins the test board and the RTC cape leave free: one per cape.
FREE_PINS="P8.7 P8.8 P8.9 P8.10 P8.11 P8.12 P8.13 P8.14 P8.15 P8.16 P8.17 P8.18 P8.19
P8.26 P8.27 P8.28 P8.29 P8.30 P8.31 P8.32 P8.33 P8.34 P8.35 P8.36 P8.37 P8.38 P8.39
P8.40 P8.41 P8.42 P8.43 P8.44 P8.45 P8.46 P9.11 P9.12 P9.13 P9.14 P9.15 P9.16"

setup_file() {
	boot_rtc_slot1 weather leds
	guest_run '. /host/cfs.sh; dt_hash > /tmp/dt.rtc'
	guest_run "echo '$FREE_PINS' | tr ' ' '\n' | grep . > /tmp/free-pins"
	guest_run 'echo scan > /sys/kernel/debug/kmemleak; echo clear > /sys/kernel/debug/kmemleak'
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

# The state every test must leave: the RTC cape loaded in slot 1, nothing
# declared, the tree as it was with the RTC cape.
baseline='[ "$(cat $S/state)" = loaded ] && [ "$(ls $CAPES | wc -l)" = 0 ] &&
	[ "$(cape_devices)" = capebus0-slot1 ] && [ "$(dt_hash)" = "$(cat /tmp/dt.rtc)" ] && echo baseline'

@test "slot writers and readers at once: every state read is a documented word, and it ends where asked" {
	cfs_run 'words=" empty detected loaded failed disabled "
		w() { for r in $(seq 60); do echo $((RANDOM % 2)) > $S/disable 2>/dev/null; done; }
		rd() { for r in $(seq 200); do
			st=$(cat $S/state); case "$words" in *" $st "*) ;; *) echo "odd state [$st]";; esac
			cat $S/reason $S/disable /sys/class/capebus/capebus0/slot1/state >/dev/null
			readlink /sys/class/capebus/capebus0/slot1/cape >/dev/null; done; }
		w & a=$!; w & b=$!; rd & c=$!; rd & d=$!
		wait $a $b $c $d
		echo 0 > $S/disable && '"$baseline"
	[ "$status" -eq 0 ]
	[ "$output" = baseline ]
}

@test "declared capes raced through enable, disable and rmdir while others read them" {
	cfs_run 'mk() { for r in $(seq 40); do n=r$((RANDOM % 6)); declare_cape $n CFS-R$n 2>/dev/null &&
			cat /host/leds.dtbo > $CAPES/$n/dtbo; echo 1 > $CAPES/$n/enable 2>/dev/null;
			echo $((RANDOM % 2)) > $CAPES/$n/enable 2>/dev/null; done; }
		rm() { for r in $(seq 40); do rmdir $CAPES/r$((RANDOM % 6)) 2>/dev/null; usleep 2000; done; }
		rd() { for r in $(seq 150); do cat $CAPES/*/status $CAPES/*/cape /sys/bus/capebus/devices/*/part_number \
			/sys/bus/capebus/devices/*/pins >/dev/null 2>&1; done; }
		# A write to a cape another shell removed fails in the shell itself.
		mk 2>/dev/null & a=$!; mk 2>/dev/null & b=$!; rm & c=$!; rd & d=$!
		wait $a $b $c $d
		for n in $(ls $CAPES); do
			st=$(cat $CAPES/$n/status)
			case "$st" in disabled|loaded|detected|"detected (no overlay: "*|"failed: "*) ;; *) echo "odd status [$st]";; esac
			rmdir $CAPES/$n
		done
		'"$baseline"
	[ "$status" -eq 0 ]
	[ "$output" = baseline ]
}

@test "forty capes declared, each on its own pin, removed in random order" {
	cfs_run 'i=0; for p in $(cat /tmp/free-pins); do i=$((i + 1))
			declare_cape m$i CFS-M$i && echo $p > $CAPES/m$i/pins && echo 1 > $CAPES/m$i/enable || echo "m$i refused"
		done
		echo "$(ls /sys/bus/capebus/devices | wc -l) devices"
		# Every pin is held now: one more cape on any of them is refused.
		declare_cape extra CFS-EXTRA && echo P8.13 > $CAPES/extra/pins && echo 1 > $CAPES/extra/enable 2>/dev/null || echo refused
		cat $CAPES/extra/status; rmdir $CAPES/extra
		for n in $(ls $CAPES | shuf); do rmdir $CAPES/$n || echo "rmdir $n failed"; done
		'"$baseline"
	[ "$status" -eq 0 ]
	[ "${lines[0]}" = "41 devices" ]
	[ "${lines[1]}" = refused ]
	[[ "${lines[2]}" == "failed: pin P8.13 is held by CFS-M7 (slot "*")" ]]
	[ "${lines[3]}" = baseline ]
}

@test "unloading the module is refused while capes are enabled and disabled around it" {
	cfs_run 'declare_cape u CFS-U && cat /host/leds.dtbo > $CAPES/u/dtbo
		flip() { for r in $(seq 40); do echo $((r % 2)) > $CAPES/u/enable 2>/dev/null; done; }
		unload() { n=0; for r in $(seq 20); do rmmod capebus 2>/dev/null && n=$((n + 1)); usleep 5000; done; echo "unloaded $n"; }
		rmmod capebus_rpi 2>/dev/null; flip & a=$!; unload; wait $a
		rmdir $CAPES/u && '"$baseline"
	[ "$status" -eq 0 ]
	[ "${lines[*]}" = "unloaded 0 baseline" ]
	# With nothing declared the controller module unloads and comes back.
	cfs_run 'rmmod capebus_bone && cape_devices && modprobe capebus-bone &&
		for i in $(seq 600); do [ "$(cat $S/state 2>/dev/null)" = loaded ] && break; sleep 0.1; done; '"$baseline"
	[ "$status" -eq 0 ]
	[ "${lines[*]}" = "none baseline" ]
}

@test "storms of random bytes to every attribute change nothing they must not" {
	cfs_run 'declare_cape b CFS-B && cat /host/weather.dtbo > $CAPES/b/dtbo && echo 1 > $CAPES/b/enable && echo 0 > $CAPES/b/enable
		for r in $(seq 25); do
			for a in board_name version manufacturer part_number serial slot pins currents enable; do
				head -c $((RANDOM % 40 + 1)) /dev/urandom > $CAPES/b/$a 2>/dev/null
			done
			for a in disable clear_override; do
				head -c $((RANDOM % 8 + 1)) /dev/urandom > $S/$a 2>/dev/null
			done
			head -c $((RANDOM % 600 + 1)) /dev/urandom > $CAPES/b/eeprom 2>/dev/null
			head -c $((RANDOM % 300 + 1)) /dev/urandom > $S/override 2>/dev/null
		done
		st=$(cat $CAPES/b/status)
		case "$st" in disabled*|loaded*|detected*|"failed: "*) ;; *) echo "odd status [$st]";; esac
		case "$(cat $S/override_status)" in none|active|"refused: "*) ;; *) echo "odd override_status";; esac
		echo 1 > $S/clear_override; rmdir $CAPES/b; echo 0 > $S/disable
		'"$baseline"
	[ "$status" -eq 0 ]
	[ "$output" = baseline ]
}

@test "after the storms: no leak past kmemleak's minimum age" {
	guest_run 'sleep 6; echo scan > /sys/kernel/debug/kmemleak; echo scan > /sys/kernel/debug/kmemleak;
		grep -c "^unreferenced object" /sys/kernel/debug/kmemleak'
	[ "$output" = 0 ]
}
