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

@test "a GPIO device on a pin not muxed as GPIO is refused, naming the pin and the mode it needs" {
	f=$(mkdef gm.cape <<'CAPE'
eeprom = { board-name = "X"; version = "00A0"; manufacturer = "M"; part-number = "BB-GM"; };
pins = ( { pin = "P8.7"; mode = 2; direction = "out"; },
         { pin = "P8.8"; mode = 7; direction = "in"; rx = false; },
         { pin = "P8.9"; mode = 7; direction = "out"; } );
devices = (
  { type = "led"; label = "a"; pin = "P8.7"; },
  { type = "key"; label = "b"; pin = "P8.8"; code = 28; },
  { type = "key"; label = "c"; pin = "P8.9"; code = 29; }
);
CAPE
)
	for board in beaglebone-black qemu-vexpress; do
		run ct check --board "$board" "$f"
		echo "$output"
		no_sanitizer_report
		[ "$status" -eq 3 ]
		[[ "$output" == *'gm.cape:6: devices[0].pin: LED "a" needs P8.7 muxed as a GPIO, mode 7 (gpio2_2); pins has it in mode 2 (timer4, line 2)'* ]]
		[[ "$output" == *'gm.cape:7: devices[1].pin: key "b" reads P8.8, but its receiver is disabled (rx = false, line 3)'* ]]
		[[ "$output" == *'gm.cape:8: devices[2].pin: key "c" reads P8.9, but pins sets it as an output (line 4)'* ]]
	done
}

# same_refusal WHAT CHECK-ARGS -- OTHER-ARGS: check and the other command
# refuse with the same exit status and the same message.
same_refusal() {
	local want=$1 msg=$2; shift 2
	local -a a=() b=()
	while [ "$1" != -- ]; do a+=("$1"); shift; done
	shift
	b=("$@")
	run ct check "${a[@]}"
	echo "check: $status $output"
	[ "$status" -eq "$want" ] || return 1
	[[ "$output" == *"$msg"* ]] || return 1
	run ct "${b[@]}"
	echo "${b[0]}: $status $output"
	[ "$status" -eq "$want" ] || return 1
	[[ "$output" == *"$msg"* ]] || return 1
}

@test "create and resolve refuse what check refuses, with the same message and exit status" {
	cd "$BATS_TEST_TMPDIR"
	ct create "$DEFS/weather.cape" --board beaglebone-black -o w >/dev/null
	dtbo=w/BB-WTHR-01-00A2.dtbo
	# an LED on a pin muxed mode 2, timer4 (an invalid definition: 3)
	cat > led0.cape <<'CAPE'
eeprom = { board-name = "X"; version = "00A0"; manufacturer = "M"; part-number = "BB-LED0"; };
pins = ( { pin = "P8.7"; mode = 2; direction = "out"; } );
devices = ( { type = "led"; label = "a"; pin = "P8.7"; } );
CAPE
	m='led0.cape:3: devices[0].pin: LED "a" needs P8.7 muxed as a GPIO, mode 7 (gpio2_2)'
	same_refusal 3 "$m" --board beaglebone-black led0.cape -- create led0.cape --board beaglebone-black -o c1
	[ ! -e c1 ]
	same_refusal 3 "$m" --board beaglebone-black led0.cape -- resolve -b beaglebone-black -c led0.cape "$dtbo" -o r1.dtbo
	[ ! -e r1.dtbo ]
	# a pin the board holds (a conflict: 5)
	cat > emmc.cape <<'CAPE'
eeprom = { board-name = "X"; version = "00A0"; manufacturer = "M"; part-number = "BB-EMMC"; };
pins = ( { pin = "P8.3"; mode = 7; direction = "in"; } );
CAPE
	m='emmc.cape: pin P8.3 is held by the board'
	same_refusal 5 "$m" --board beaglebone-black emmc.cape -- create emmc.cape --board beaglebone-black -o c2
	[ ! -e c2 ]
	same_refusal 5 "$m" --board beaglebone-black emmc.cape -- resolve -b beaglebone-black -c emmc.cape "$dtbo" -o r2.dtbo
	[ ! -e r2.dtbo ]
	# the same pin words from the cape's image: resolve refuses them too
	# (create --force writes what check refuses, saying why)
	run ct create emmc.cape --board beaglebone-black --force -o c3
	echo "$output"
	[ "$status" -eq 0 ]
	[[ "$output" == *"$m"* ]]
	run ct resolve -b beaglebone-black -c c3/BB-EMMC-00A0.eeprom "$dtbo" -o r3.dtbo
	echo "$output"
	[ "$status" -eq 5 ]
	[[ "$output" == *"BB-EMMC-00A0.eeprom: pin P8.3 is held by the board"* ]]
	[ ! -e r3.dtbo ]
	# power over the board's budget (6)
	cat > hungry.cape <<'CAPE'
eeprom = { board-name = "X"; version = "00A0"; manufacturer = "M"; part-number = "BB-HUNGRY"; };
power = { sys-5v = 300; };
CAPE
	m='hungry.cape: sys-5v over budget: needs 300 mA, 0 of 250 mA in use'
	same_refusal 6 "$m" --board beaglebone-black hungry.cape -- create hungry.cape --board beaglebone-black -o c4
	[ ! -e c4 ]
}

@test "resolve refuses an image whose GPIO pin is not muxed as a GPIO (the overlay's GPIO users are checked)" {
	cd "$BATS_TEST_TMPDIR"
	cat > p.cape <<'CAPE'
eeprom = { board-name = "X"; version = "00A0"; manufacturer = "M"; part-number = "BB-P87"; };
pins = ( { pin = "P8.7"; mode = 2; direction = "out"; } );
CAPE
	ct create p.cape --board beaglebone-black -o c >/dev/null
	printf '/dts-v1/;\n/plugin/;\n&bone_devices { leds { compatible = "gpio-leds"; a { gpios = <&bone_gpio 807 0>; }; }; };\n' > l.dtso
	dtc -q -I dts -O dtb -o l.dtbo l.dtso
	run ct resolve -b beaglebone-black -c c/BB-P87-00A0.eeprom l.dtbo -o r.dtbo
	echo "$output"
	no_sanitizer_report
	[ "$status" -eq 3 ]
	[[ "$output" == *"/fragment@0/__overlay__/leds/a:gpios: P8.7 is used as a GPIO, but the cape's pin word muxes it mode 2 (timer4): a GPIO needs mode 7 (gpio2_2)"* ]]
	[ ! -e r.dtbo ]
}

@test "create --force writes a cape that does not fit the board, saying why; a bus address the board holds is a warning" {
	cd "$BATS_TEST_TMPDIR"
	cat > emmc.cape <<'CAPE'
eeprom = { board-name = "X"; version = "00A0"; manufacturer = "M"; part-number = "BB-EMMC"; };
pins = ( { pin = "P8.3"; mode = 7; direction = "in"; } );
CAPE
	run ct create emmc.cape --board beaglebone-black -o a
	echo "$output"
	[ "$status" -eq 5 ]
	[ ! -e a ]
	run ct create emmc.cape --board beaglebone-black --force -o a
	echo "$output"
	[ "$status" -eq 0 ]
	[[ "$output" == *"warning: emmc.cape: pin P8.3 is held by the board"* ]]
	[ -f a/BB-EMMC-00A0.eeprom ]
	# circuitco's weather cape: its TSL2550 at 0x39 meets the QEMU board's
	# DVI transmitter.  check refuses it (so does the kernel: the guest's
	# stacking suite loads it to see that); create says so and writes the
	# files, which are the same for every board
	run ct check --board qemu-vexpress "$DEFS/circuitco-weather.cape"
	[ "$status" -eq 5 ]
	[[ "$output" == *"circuitco-weather.cape: i2c2 address 0x39 is held by the board (dvi-transmitter@39, vexpress-v2m.dtsi)"* ]]
	run ct create "$DEFS/circuitco-weather.cape" --board qemu-vexpress -o b
	echo "$output"
	[ "$status" -eq 0 ]
	[[ "$output" == *"warning: "*"circuitco-weather.cape: i2c2 address 0x39 is held by the board (dvi-transmitter@39, vexpress-v2m.dtsi)"* ]]
	cmp b/BB-BONE-WTHR-01-00B0.eeprom "$GOLDEN/BB-BONE-WTHR-01-00B0.eeprom"
	cmp b/BB-BONE-WTHR-01-00B0.dtbo "$GOLDEN/BB-BONE-WTHR-01-00B0.qemu-vexpress.dtbo"
	# resolve writes an overlay for that board's tree: it refuses
	run ct resolve -b qemu-vexpress -c "$DEFS/circuitco-weather.cape" b/BB-BONE-WTHR-01-00B0.dtbo -o r.dtbo
	[ "$status" -eq 5 ]
	[ ! -e r.dtbo ]
}
