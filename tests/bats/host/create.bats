#!/usr/bin/env bats
# capetool create: definitions in, EEPROM image and overlay out.

load helpers

setup_file() {
	export BASE_DTBS=$BATS_FILE_TMPDIR
	build_base_dtbs "$BASE_DTBS" || true
}

@test "create writes <part>-<version>.eeprom and .dtbo for the weather cape" {
	run ct create "$DEFS/weather.cape" --board qemu-vexpress -o "$BATS_TEST_TMPDIR"
	no_sanitizer_report
	[ "$status" -eq 0 ]
	[ -f "$BATS_TEST_TMPDIR/BB-WTHR-01-00A2.eeprom" ]
	[ -f "$BATS_TEST_TMPDIR/BB-WTHR-01-00A2.dtbo" ]
	[[ "$output" == *"BB-WTHR-01-00A2.eeprom (244 bytes)"* ]]
}

@test "every cape definition matches its golden image and overlays on both boards" {
	for def in "$DEFS"/*.cape "$DEFS"/bone/*.cape; do
		for board in qemu-vexpress beaglebone-black; do
			# cape-defs/bone/: real capes for the BeagleBone Black only
			[[ $def != */bone/* || $board != qemu-vexpress ]] || continue
			rm -f "$BATS_TEST_TMPDIR"/*
			run ct create "$def" --board "$board" -o "$BATS_TEST_TMPDIR"
			no_sanitizer_report
			[ "$status" -eq 0 ] || { echo "$def $board: $output"; false; }
			for f in "$BATS_TEST_TMPDIR"/*.eeprom; do
				cmp "$f" "$GOLDEN/$(basename "$f")"
			done
			for f in "$BATS_TEST_TMPDIR"/*.dtbo; do
				cmp "$f" "$GOLDEN/$(basename "$f" .dtbo).$board.dtbo"
			done
		done
	done
}

@test "the overlay is an ordinary dtc overlay: __fixups__, exclusive-use, no __symbols__" {
	ct create "$DEFS/weather.cape" --board qemu-vexpress -o "$BATS_TEST_TMPDIR" >/dev/null
	run dtc -I dtb -O dts "$BATS_TEST_TMPDIR/BB-WTHR-01-00A2.dtbo"
	[ "$status" -eq 0 ]
	[[ "$output" == *'exclusive-use = "P9.19\0P8.13\0P9.39";'* ]]
	[[ "$output" == *'bone_i2c_2 = "/fragment@0:target:0";'* ]]
	[[ "$output" == *'bone_devices = "/fragment@1:target:0";'* ]]
	[[ "$output" == *'bone_gpio = "/fragment@1/__overlay__/bb-wthr-01-leds/led-0:gpios:0";'* ]]
	# P8.13 through the connector's nexus: 800 + 13.
	[[ "$output" == *'gpios = <0xffffffff 0x32d 0x00>;'* ]]
	[[ "$output" != *"__symbols__"* ]]
	run fdtdump "$BATS_TEST_TMPDIR/BB-WTHR-01-00A2.dtbo"
	[ "$status" -eq 0 ]
	[[ "$output" == *'compatible = "ti,tmp105";'* ]]
}

# in_scope DTBO: every fragment of DTBO targets, through a __fixups__ entry
# for its own "target", one of the names qemu-vexpress's connector exports
# for the nodes its cape-targets allow (tests/qemu/capebus-vexpress-a9.dts);
# none has a target-path or a target phandle of its own.
in_scope() {
	local f frags label e fixed
	frags=$(fdtget -l "$1" /) || return 1
	for f in $frags; do
		case $f in __fixups__|__local_fixups__|__symbols__) continue ;; esac
		if fdtget "$1" "/$f" target-path >/dev/null 2>&1; then
			echo "$1: $f has a target-path: $(fdtget "$1" "/$f" target-path)"
			return 1
		fi
		fixed=""
		for label in $(fdtget -p "$1" /__fixups__ 2>/dev/null); do
			for e in $(fdtget "$1" /__fixups__ "$label"); do
				[ "$e" = "/$f:target:0" ] && fixed=$label
			done
		done
		case $fixed in
		bone_i2c_2|bone_devices) ;;
		"") echo "$1: $f's target is not a reference to a cape target"; return 1 ;;
		*) echo "$1: $f targets &$fixed, not a cape target"; return 1 ;;
		esac
	done
}

@test "qemu-vexpress overlays only target the nodes cape-targets allows" {
	for def in "$DEFS"/*.cape; do
		rm -f "$BATS_TEST_TMPDIR"/*
		ct create "$def" --board qemu-vexpress -o "$BATS_TEST_TMPDIR" >/dev/null
		in_scope "$BATS_TEST_TMPDIR"/*.dtbo
	done
	# The check itself: the guest suite's out-of-scope overlay (a second
	# fragment with target-path = "/") and a fragment aimed at another
	# label fail it.
	dtc -q -I dts -O dtb -o "$BATS_TEST_TMPDIR/oos.dtbo" "$TOP/tests/bats/guest/fixtures/out-of-scope.dts"
	run in_scope "$BATS_TEST_TMPDIR/oos.dtbo"
	[ "$status" -eq 1 ]
	[[ "$output" == *"fragment@1 has a target-path: /"* ]]
	sed 's/target = <&bone_devices>;/target = <\&v2m_sysreg>;/' \
		"$TOP/tests/bats/guest/fixtures/out-of-scope.dts" | sed '/fragment@1/,$d' > "$BATS_TEST_TMPDIR/o.dts"
	echo '};' >> "$BATS_TEST_TMPDIR/o.dts"
	dtc -q -I dts -O dtb -o "$BATS_TEST_TMPDIR/other.dtbo" "$BATS_TEST_TMPDIR/o.dts"
	run in_scope "$BATS_TEST_TMPDIR/other.dtbo"
	[ "$status" -eq 1 ]
	[[ "$output" == *"fragment@0 targets &v2m_sysreg, not a cape target"* ]]
}

@test "beaglebone-black overlays, resolved, apply with fdtoverlay onto am335x-boneblack.dtb (-@)" {
	need_base_dtb bbb.dtb
	for def in "$DEFS"/*.cape; do
		rm -rf "$BATS_TEST_TMPDIR/o"
		o=$(resolved "$def" "$BATS_TEST_TMPDIR/o")
		run fdtoverlay -i "$BASE_DTBS/bbb.dtb" -o "$BATS_TEST_TMPDIR/out.dtb" "$o"
		[ "$status" -eq 0 ] || { echo "$def: $output"; false; }
		# the portable one names what the board's tree does not have
		run fdtoverlay -i "$BASE_DTBS/bbb.dtb" -o "$BATS_TEST_TMPDIR/out.dtb" "${o%.beaglebone-black.dtbo}.dtbo"
		[ "$status" -ne 0 ]
	done
}

@test "the weather overlay on beaglebone-black, resolved, muxes P8.13 as gpio0_23 and wires its LED" {
	need_base_dtb bbb.dtb
	o=$(resolved "$DEFS/weather.cape" "$BATS_TEST_TMPDIR")
	fdtoverlay -i "$BASE_DTBS/bbb.dtb" -o "$BATS_TEST_TMPDIR/out.dtb" "$o"
	gpio0=$(fdtget "$BASE_DTBS/bbb.dtb" /__symbols__ gpio0)
	[ "$(fdtget "$BATS_TEST_TMPDIR/out.dtb" "$gpio0" phandle) 23 0" = \
	  "$(fdtget "$BATS_TEST_TMPDIR/out.dtb" /bb-wthr-01-leds/led-0 gpios)" ]
	pm=$(fdtget "$BASE_DTBS/bbb.dtb" /__symbols__ am33xx_pinmux)
	# conf_gpmc_ad9 is at 0x24; output, pull disabled, mode 7
	[ "$(fdtget -t x "$BATS_TEST_TMPDIR/out.dtb" "$pm/bb-wthr-01-leds-pins" pinctrl-single,pins)" = "24 8 7" ]
	ph=$(fdtget "$BATS_TEST_TMPDIR/out.dtb" "$pm/bb-wthr-01-leds-pins" phandle)
	[ "$(fdtget "$BATS_TEST_TMPDIR/out.dtb" /bb-wthr-01-leds pinctrl-0)" = "$ph" ]
	[ "$(fdtget "$BATS_TEST_TMPDIR/out.dtb" "$(fdtget "$BASE_DTBS/bbb.dtb" /__symbols__ i2c2)/tmp105@48" reg)" = 72 ]
}

@test "qemu-vexpress overlays apply with fdtoverlay onto the test board DTB" {
	need_base_dtb vexpress.dtb
	for def in "$DEFS"/*.cape; do
		rm -f "$BATS_TEST_TMPDIR"/*
		ct create "$def" --board qemu-vexpress -o "$BATS_TEST_TMPDIR" >/dev/null
		run fdtoverlay -i "$BASE_DTBS/vexpress.dtb" -o "$BATS_TEST_TMPDIR/out.dtb" "$BATS_TEST_TMPDIR"/*.dtbo
		[ "$status" -eq 0 ] || { echo "$def: $output"; false; }
	done
	ct create "$DEFS/weather.cape" --board qemu-vexpress -o "$BATS_TEST_TMPDIR" >/dev/null
	fdtoverlay -i "$BASE_DTBS/vexpress.dtb" -o "$BATS_TEST_TMPDIR/out.dtb" "$BATS_TEST_TMPDIR/BB-WTHR-01-00A2.dtbo"
	# The LED names header pin P8.13 through the connector's nexus.
	hg=$(fdtget "$BASE_DTBS/vexpress.dtb" /__symbols__ bone_gpio)
	[ "$hg" = /capebus ]
	[ "$(fdtget "$BATS_TEST_TMPDIR/out.dtb" /cape-devices/bb-wthr-01-leds/led-0 gpios)" = \
	  "$(fdtget "$BATS_TEST_TMPDIR/out.dtb" "$hg" phandle) 813 0" ]
}

@test "--serial overrides the definition's serial" {
	run ct create "$DEFS/weather.cape" --serial 0125EXLB9999 -o "$BATS_TEST_TMPDIR"
	[ "$status" -eq 0 ]
	run ct decode "$BATS_TEST_TMPDIR/BB-WTHR-01-00A2.eeprom"
	[[ "$output" == *"serial:        0125EXLB9999"* ]]
}

@test "--serial of the wrong length is a usage error" {
	run ct create "$DEFS/weather.cape" --serial 123 -o "$BATS_TEST_TMPDIR"
	[ "$status" -eq 2 ]
	[[ "$output" == *"--serial: must be 12"* ]]
}

@test "--embed-overlay stores the overlay and CRC records (golden)" {
	run ct create "$DEFS/weather.cape" --board qemu-vexpress --embed-overlay -o "$BATS_TEST_TMPDIR"
	[ "$status" -eq 0 ]
	cmp "$BATS_TEST_TMPDIR/BB-WTHR-01-00A2.eeprom" "$GOLDEN/BB-WTHR-01-00A2.embedded.eeprom"
	run ct decode -x "$BATS_TEST_TMPDIR/x.dtbo" "$BATS_TEST_TMPDIR/BB-WTHR-01-00A2.eeprom"
	[ "$status" -eq 0 ]
	cmp "$BATS_TEST_TMPDIR/x.dtbo" "$BATS_TEST_TMPDIR/BB-WTHR-01-00A2.dtbo"
}

@test "spi, uart, key and w1 devices on beaglebone-black" {
	run ct create "$FIX/defs/kitchen-sink.cape" --board beaglebone-black -o "$BATS_TEST_TMPDIR"
	no_sanitizer_report
	[ "$status" -eq 0 ]
	# portable: the buses by their bone-bus names, the GPIOs by pin code
	run dtc -I dtb -O dts "$BATS_TEST_TMPDIR/BB-SINK-01-00A0.dtbo"
	[[ "$output" == *'bone_uart_1 = "/fragment@'* ]]
	[[ "$output" == *'bone_spi_0 = "/fragment@'* ]]
	[[ "$output" == *'bone_gpio = "/fragment@'* ]]
	[[ "$output" != *'pinctrl'* ]]
	o=$(resolved "$FIX/defs/kitchen-sink.cape" "$BATS_TEST_TMPDIR/r")
	run dtc -I dtb -O dts "$o"
	[[ "$output" == *'spi-max-frequency = <0x989680>;'* ]]
	[[ "$output" == *'compatible = "w1-gpio";'* ]]
	[[ "$output" == *'compatible = "gpio-keys";'* ]]
	[[ "$output" == *'linux,code = <0x1c>;'* ]]
	[[ "$output" == *'uart1 = "/fragment@'* ]]
	[[ "$output" == *'spi0 = "/fragment@'* ]]
	[[ "$output" == *'spi-cpha;'* ]]
	[[ "$output" == *'gains = <0x01 0x02>;'* ]]
	need_base_dtb bbb.dtb
	run fdtoverlay -i "$BASE_DTBS/bbb.dtb" -o "$BATS_TEST_TMPDIR/out.dtb" "$o"
	[ "$status" -eq 0 ]
	[ "$(fdtget "$BATS_TEST_TMPDIR/out.dtb" "$(fdtget "$BASE_DTBS/bbb.dtb" /__symbols__ spi0)" status)" = okay ]
}

@test "keys: debounce-ms is gpio-keys' debounce-interval, wakeup its wakeup-source; autorepeat keys are a gpio-keys device of their own, with autorepeat" {
	d=$(mkdef keys.cape <<'CAPE'
eeprom = { board-name = "Keys"; version = "00A0"; manufacturer = "Example Labs"; part-number = "EXL-KEYS-01"; };
pins = ( { pin = "P8.15"; mode = "gpio"; direction = "in"; }, { pin = "P8.16"; mode = "gpio"; direction = "in"; },
         { pin = "P8.17"; mode = "gpio"; direction = "in"; } );
devices = (
  { type = "key"; label = "up"; pin = "P8.15"; code = 103; debounce-ms = 50; autorepeat = true; },
  { type = "key"; label = "enter"; pin = "P8.16"; code = 28; debounce-ms = 0; wakeup = true; },
  { type = "key"; label = "down"; pin = "P8.17"; code = 108; autorepeat = true; }
);
CAPE
)
	run ct check --board beaglebone-black "$d"
	no_sanitizer_report
	[ "$status" -eq 0 ] || { echo "$output"; return 1; }
	ct create "$d" --board beaglebone-black -o "$BATS_TEST_TMPDIR/o" >/dev/null
	o=$BATS_TEST_TMPDIR/o/EXL-KEYS-01-00A0.dtbo
	f=$(fdtget "$o" /__fixups__ bone_devices | sed 's|:target:0$||')/__overlay__
	[ "$(fdtget -l "$o" "$f" | sort | tr '\n' ' ')" = "exl-keys-01-keys exl-keys-01-keys-autorepeat " ]
	r=$f/exl-keys-01-keys-autorepeat k=$f/exl-keys-01-keys
	[ "$(fdtget "$o" "$r" compatible)" = gpio-keys ]
	[ "$(fdtget -t x "$o" "$r" autorepeat)" = "" ]
	run fdtget "$o" "$k" autorepeat
	[ "$status" -ne 0 ]
	# the keys numbered in the definition's order, whichever device holds them
	[ "$(fdtget "$o" "$r/key-0" label)" = up ]
	[ "$(fdtget "$o" "$r/key-0" debounce-interval)" = 50 ]
	[ "$(fdtget "$o" "$r/key-2" label)" = down ]
	run fdtget "$o" "$r/key-2" debounce-interval
	[ "$status" -ne 0 ]	# the kernel's default, 5 ms
	[ "$(fdtget "$o" "$k/key-1" label)" = enter ]
	[ "$(fdtget "$o" "$k/key-1" debounce-interval)" = 0 ]	# debouncing off
	[ "$(fdtget "$o" "$k/key-1" linux,code)" = 28 ]
	# wakeup: an empty wakeup-source on that key only
	[ "$(fdtget -t x "$o" "$k/key-1" wakeup-source)" = "" ]
	run fdtget "$o" "$r/key-0" wakeup-source
	[ "$status" -ne 0 ]
	# resolved: each device its own pins
	r=$(resolved "$d" "$BATS_TEST_TMPDIR/r")
	pm=$(fdtget "$r" /__fixups__ am33xx_pinmux | sed 's|:target:0$||')/__overlay__
	[ "$(fdtget -t x "$r" "$pm/exl-keys-01-keys-autorepeat-pins" pinctrl-single,pins)" = "3c 28 7 2c 28 7" ]
	[ "$(fdtget -t x "$r" "$pm/exl-keys-01-keys-pins" pinctrl-single,pins)" = "38 28 7" ]
	# all keys alike: one device
	sed -i 's/debounce-ms = 0; wakeup = true; }/debounce-ms = 0; wakeup = true; autorepeat = true; }/' "$d"
	rm -rf "$BATS_TEST_TMPDIR/o"
	ct create "$d" --board beaglebone-black -o "$BATS_TEST_TMPDIR/o" >/dev/null
	[ "$(fdtget -l "$o" "$f")" = exl-keys-01-keys-autorepeat ]
}

@test "a bus the board does not have is an error naming the definition line" {
	run ct create "$FIX/defs/kitchen-sink.cape" --board qemu-vexpress -o "$BATS_TEST_TMPDIR"
	[ "$status" -eq 3 ]
	[[ "$output" == *'kitchen-sink.cape:'*': devices: board qemu-vexpress has no spi bus "spi0"'* ]]
	[[ "$output" == *'board qemu-vexpress has no uart bus "uart1"'* ]]
}

@test "the escape hatch merges a hand-written .dtbo with its fixups" {
	dtc -q -I dts -O dtb -o "$BATS_TEST_TMPDIR/extra.dtbo" "$FIX/defs/extra.dtso"
	sed "s|@EXTRA@|$BATS_TEST_TMPDIR/extra.dtbo|" "$FIX/defs/hatch.cape.in" > "$BATS_TEST_TMPDIR/hatch.cape"
	run ct create "$BATS_TEST_TMPDIR/hatch.cape" --board qemu-vexpress -o "$BATS_TEST_TMPDIR"
	no_sanitizer_report
	[ "$status" -eq 0 ]
	run dtc -I dtb -O dts "$BATS_TEST_TMPDIR/BB-HATCH-01-00A0.dtbo"
	[[ "$output" == *'compatible = "pwm-beeper";'* ]]
	[[ "$output" == *'compatible = "ti,tmp105";'* ]]
	need_base_dtb vexpress.dtb
	run fdtoverlay -i "$BASE_DTBS/vexpress.dtb" -o "$BATS_TEST_TMPDIR/out.dtb" "$BATS_TEST_TMPDIR/BB-HATCH-01-00A0.dtbo"
	[ "$status" -eq 0 ]
	# the hand-written node references its own label: local fixup kept
	[ "$(fdtget "$BATS_TEST_TMPDIR/out.dtb" /cape-devices/beeper-supply phandle)" = \
	  "$(fdtget "$BATS_TEST_TMPDIR/out.dtb" /cape-devices/beeper power-supply)" ]
}

@test "the escape hatch compiles a .dtso with dtc" {
	sed "s|@EXTRA@|$FIX/defs/extra.dtso|" "$FIX/defs/hatch.cape.in" > "$BATS_TEST_TMPDIR/hatch.cape"
	run ct create "$BATS_TEST_TMPDIR/hatch.cape" --board qemu-vexpress -o "$BATS_TEST_TMPDIR"
	[ "$status" -eq 0 ]
	run dtc -I dtb -O dts "$BATS_TEST_TMPDIR/BB-HATCH-01-00A0.dtbo"
	[[ "$output" == *'compatible = "pwm-beeper";'* ]]
}

@test "a missing escape-hatch overlay is an I/O error" {
	sed "s|@EXTRA@|$BATS_TEST_TMPDIR/none.dtbo|" "$FIX/defs/hatch.cape.in" > "$BATS_TEST_TMPDIR/hatch.cape"
	run ct create "$BATS_TEST_TMPDIR/hatch.cape" --board qemu-vexpress -o "$BATS_TEST_TMPDIR"
	[ "$status" -eq 4 ]
	[[ "$output" == *"none.dtbo: No such file or directory"* ]]
}

@test "format A0 writes a 236-byte image" {
	f=$(mkdef a0.cape <<'CAPE'
eeprom = { format = "A0"; board-name = "Old"; version = "00A0"; manufacturer = "M"; part-number = "OLD-1"; };
pins = ( { pin = "P9.22"; mode = 0; direction = "in"; } );
CAPE
)
	run ct create "$f" -o "$BATS_TEST_TMPDIR"
	[ "$status" -eq 0 ]
	[ "$(stat -c %s "$BATS_TEST_TMPDIR/OLD-1-00A0.eeprom")" -eq 236 ]
	run ct decode "$BATS_TEST_TMPDIR/OLD-1-00A0.eeprom"
	[[ "$output" == *"format:        A0"* ]]
	[[ "$output" == *"P9.22 mode0 in no-pull rx fast"* ]]
}

@test "an unwritable output directory is an I/O error" {
	# a missing directory is created (outputs.bats); one under a file cannot be
	touch "$BATS_TEST_TMPDIR/file"
	run ct create "$DEFS/weather.cape" -o "$BATS_TEST_TMPDIR/file/dir"
	[ "$status" -eq 4 ]
	[[ "$output" == *"cannot create the output directory: Not a directory"* ]]
	# /proc takes no new files, not even root's
	run ct create "$DEFS/weather.cape" -o /proc
	[ "$status" -eq 4 ]
	[[ "$output" == *"/proc/BB-WTHR-01-00A2.eeprom: cannot write"* ]]
}

@test "an unknown board is a usage error listing the known ones" {
	run ct create "$DEFS/weather.cape" --board pocketbeagle
	[ "$status" -eq 2 ]
	[[ "$output" == *'unknown board "pocketbeagle"'* ]]
	[[ "$output" == *"qemu-vexpress"* ]]
}

@test "a board profile can be given as a file" {
	run ct create "$DEFS/weather.cape" --board "$TOP/schemas/boards/qemu-vexpress.board" -o "$BATS_TEST_TMPDIR"
	[ "$status" -eq 0 ]
	cmp "$BATS_TEST_TMPDIR/BB-WTHR-01-00A2.dtbo" "$GOLDEN/BB-WTHR-01-00A2.qemu-vexpress.dtbo"
}

@test "create without a definition is a usage error" {
	run ct create
	[ "$status" -eq 2 ]
	[[ "$output" == *"usage: capetool create"* ]]
}

@test "a definition without devices gets a warning: its overlay has no fragments" {
	f=$(mkdef nodev.cape <<'CAPE'
eeprom = { board-name = "X"; version = "00A0"; manufacturer = "M"; part-number = "BB-NODEV"; };
CAPE
)
	run ct create "$f" --board qemu-vexpress -o "$BATS_TEST_TMPDIR"
	[ "$status" -eq 0 ]
	[[ "$output" == *"warning: $f declares no devices"* ]]
}

@test "an overlay over the kernel's 32 KiB a cape may have is refused by create (embedded or not) and check, in the kernel's words; one under it fits a 24C256 with its image" {
	head -c 40000 /dev/zero > "$BATS_TEST_TMPDIR/blob.bin"
	printf '/dts-v1/;\n/plugin/;\n&bone_devices { big { data = /incbin/("%s"); }; };\n' \
		"$BATS_TEST_TMPDIR/blob.bin" > "$BATS_TEST_TMPDIR/big.dtso"
	sed "s|@EXTRA@|$BATS_TEST_TMPDIR/big.dtso|" "$FIX/defs/hatch.cape.in" > "$BATS_TEST_TMPDIR/hatch.cape"
	for embed in --embed-overlay ""; do
		run ct create "$BATS_TEST_TMPDIR/hatch.cape" --board qemu-vexpress $embed -o "$BATS_TEST_TMPDIR/out/"
		echo "$output"
		[ "$status" -eq 3 ]
		[[ "$output" == *"the kernel refuses this overlay (capebus-fdt.c, against board qemu-vexpress's exports): overlay is "*" bytes, more than the 32768 a cape may have"* ]]
		[ ! -e "$BATS_TEST_TMPDIR/out" ]
	done
	run ct check "$BATS_TEST_TMPDIR/hatch.cape" --board qemu-vexpress
	[ "$status" -eq 3 ]
	[[ "$output" == *"more than the 32768 a cape may have"* ]]
	head -c 32000 /dev/zero > "$BATS_TEST_TMPDIR/blob.bin"
	run ct create "$BATS_TEST_TMPDIR/hatch.cape" --board qemu-vexpress --embed-overlay -o "$BATS_TEST_TMPDIR/out/"
	[ "$status" -eq 0 ]
	[ "$(stat -c %s "$BATS_TEST_TMPDIR"/out/*.eeprom)" -le 32768 ]
}

@test "one overlay for every board: qemu-vexpress and beaglebone-black get the same bytes" {
	for def in "$DEFS"/*.cape; do
		rm -rf "$BATS_TEST_TMPDIR/q" "$BATS_TEST_TMPDIR/b"
		ct create "$def" --board qemu-vexpress -o "$BATS_TEST_TMPDIR/q" >/dev/null
		ct create "$def" --board beaglebone-black -o "$BATS_TEST_TMPDIR/b" >/dev/null
		for f in "$BATS_TEST_TMPDIR"/q/*.dtbo; do
			cmp "$f" "$BATS_TEST_TMPDIR/b/$(basename "$f")" || { echo "$def"; false; }
			# portable: no board label, no pin controller
			run fdtget -p "$f" /__fixups__
			[[ "$output" != *pinmux* ]]
			for l in $output; do [[ "$l" == bone_* ]] || { echo "$def: $l"; false; }; done
		done
	done
}
