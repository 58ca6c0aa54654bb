#!/usr/bin/env bats
# capetool check: validation, pin conflicts and power in the kernel's words.

load helpers

@test "check accepts capes that fit together" {
	run ct check --board qemu-vexpress "$DEFS/weather.cape" "$DEFS/rtc.cape"
	no_sanitizer_report
	[ "$status" -eq 0 ]
	[[ "$output" == *"weather.cape: ok: BB-WTHR-01-00A2 in slot 0"* ]]
	[[ "$output" == *"rtc.cape: ok: EXL-RTC-01-00A0 in slot 1"* ]]
}

@test "check reports a pin conflict in the kernel's words" {
	run ct check --board qemu-vexpress "$DEFS/weather.cape" "$DEFS/weather-conflict.cape"
	[ "$status" -eq 5 ]
	[[ "$output" == *"weather-conflict.cape: pin P8.13 is held by BB-WTHR-01 (slot 0)"* ]]
}

@test "several conflicting pins are joined with '; '" {
	for p in A B; do
		cat > "$BATS_TEST_TMPDIR/$p.cape" <<CAPE
eeprom = { board-name = "X"; version = "00A0"; manufacturer = "M"; part-number = "BB-$p"; };
pins = ( { pin = "P8.11"; mode = 7; direction = "in"; }, { pin = "P8.12"; mode = 7; direction = "in"; } );
CAPE
	done
	run ct check --board qemu-vexpress "$BATS_TEST_TMPDIR/A.cape" "$BATS_TEST_TMPDIR/B.cape"
	[ "$status" -eq 5 ]
	[[ "$output" == *"B.cape: pin P8.12 is held by BB-A (slot 0); pin P8.11 is held by BB-A (slot 0)"* ]]
}

@test "a pin the board uses is held by the board" {
	f=$(mkdef emmc.cape <<'CAPE'
eeprom = { board-name = "X"; version = "00A0"; manufacturer = "M"; part-number = "BB-EMMC"; };
pins = ( { pin = "P8.3"; mode = 7; direction = "in"; } );
CAPE
)
	run ct check --board beaglebone-black "$f"
	[ "$status" -eq 5 ]
	[[ "$output" == *"emmc.cape: pin P8.3 is held by the board"* ]]
}

@test "power over a rail's budget is reported in the kernel's words" {
	f=$(mkdef hungry.cape <<'CAPE'
eeprom = { board-name = "X"; version = "00A0"; manufacturer = "M"; part-number = "BB-HUNGRY"; };
power = { vdd-3v3b = 150; sys-5v = 300; };
CAPE
)
	run ct check --board qemu-vexpress "$DEFS/weather.cape" "$f"
	[ "$status" -eq 6 ]
	[[ "$output" == *"hungry.cape: vdd-3v3b over budget: needs 150 mA, 150 of 250 mA in use; sys-5v over budget: needs 300 mA, 0 of 250 mA in use"* ]]
}

@test "a refused cape holds nothing: the next one may use its pins" {
	run ct check --board qemu-vexpress "$DEFS/weather.cape" "$DEFS/weather-conflict.cape" "$DEFS/rtc.cape"
	[ "$status" -eq 5 ]
	[[ "$output" == *"rtc.cape: ok: EXL-RTC-01-00A0 in slot 2"* ]]
}

@test "an invalid definition makes check exit 3" {
	f=$(weather_with 'bogus = 1;')
	run ct check "$f" "$DEFS/rtc.cape"
	[ "$status" -eq 3 ]
	[[ "$output" == *"bogus: unknown key"* ]]
	[[ "$output" == *"w.cape: invalid"* ]]
}

@test "check validates devices against the board profile" {
	run ct check --board qemu-vexpress "$FIX/defs/kitchen-sink.cape"
	[ "$status" -eq 3 ]
	[[ "$output" == *'has no spi bus "spi0"'* ]]
	run ct check --board beaglebone-black --quiet "$FIX/defs/kitchen-sink.cape"
	[ "$status" -eq 0 ]
	[ -z "$output" ]
}

@test "check writes nothing" {
	cd "$BATS_TEST_TMPDIR"
	run ct check "$DEFS/weather.cape"
	[ "$status" -eq 0 ]
	[ -z "$(ls "$BATS_TEST_TMPDIR")" ]
}

@test "check without definitions is a usage error" {
	run ct check
	[ "$status" -eq 2 ]
}

@test "conflicting pins are listed in pin-usage order, as the kernel lists them" {
	# weather holds P8.13 and P9.39; index order puts P8.13 before the AIN
	# pins (P9.19 is the shared cape bus: never held)
	f=$(mkdef order.cape <<'CAPE'
eeprom = { board-name = "X"; version = "00A0"; manufacturer = "M"; part-number = "BB-ORDER"; };
pins = ( { pin = "P9.39"; },
         { pin = "P8.13"; mode = 7; direction = "out"; } );
CAPE
)
	run ct check --board qemu-vexpress "$DEFS/weather.cape" "$f"
	[ "$status" -eq 5 ]
	[[ "$output" == *"order.cape: pin P8.13 is held by BB-WTHR-01 (slot 0); pin P9.39 is held by BB-WTHR-01 (slot 0)"* ]]
}
