#!/usr/bin/env bats
# The real capes in cape-defs/ (and cape-defs/bone/, BeagleBone Black only)
# match their vendor overlays in beagleboard/bb.org-overlays src/arm/ (the
# definitions' comments say where and why they differ), sample capes use
# part numbers of no real product, and four real capes stack.

load helpers

setup_file() {
	export BASE_DTBS=$BATS_FILE_TMPDIR
	build_base_dtbs "$BASE_DTBS" || true
}

# bbb DEF: create DEF for the bone into $BATS_TEST_TMPDIR/out, print the
# (portable) .dtbo
bbb() {
	rm -rf "$BATS_TEST_TMPDIR/out"
	ct create "$1" --board beaglebone-black -o "$BATS_TEST_TMPDIR/out" >/dev/null
	ls "$BATS_TEST_TMPDIR"/out/*.dtbo
}

# i2c_nodes DTBO: "name compatible" of each node of the fragment on LABEL
i2c_nodes() {
	local f
	for f in $(fdtget -l "$1" /); do
		[[ $f == fragment@* ]] || continue
		for n in $(fdtget -l "$1" "/$f/__overlay__"); do
			[[ $n == *@* ]] && echo "$n $(fdtget "$1" "/$f/__overlay__/$n" compatible)"
		done
	done
}

@test "the servo cape's PCA9685 is at 0x7f (BBORG_SERVO-00A2.dts)" {
	o=$(bbb "$DEFS/bborg-servo.cape")
	no_sanitizer_report
	run i2c_nodes "$o"
	[ "$output" = "pca@7f nxp,pca9685-pwm" ]
}

@test "the CircuitCo weather cape has the vendor overlay's compatibles (BB-BONE-WTHR-01-00B0.dts)" {
	o=$(bbb "$DEFS/circuitco-weather.cape")
	run i2c_nodes "$o"
	[ "$output" = $'tsl2550@39 tsl,tsl2550\nhtu21@40 meas-spec,htu21\nbmp085@77 bosch,bmp085' ]
}

@test "the RTC cape: MCP7940x at 0x68 on I2C1, MFP key on P8.26 (BB-RTC-01-00A0.dts)" {
	o=$(bbb "$DEFS/bone/bb-rtc-01.cape")
	[ "$(basename "$o")" = BB-RTC-01-00A0.dtbo ]
	run i2c_nodes "$o"
	[ "$output" = "mcp7940x@68 microchip,mcp7940x" ]
	# portable: the bone bus I2C1, the key's pin by its code (P8.26: 826)
	[ "$(fdtget "$o" /__fixups__ bone_i2c_1)" = "/fragment@0:target:0" ]
	[ "$(fdtget "$o" /fragment@0/__overlay__ status)" = okay ]
	[ "$(fdtget "$o" /fragment@1/__overlay__/bb-rtc-01-keys/key-0 linux,code)" = 143 ]
	[ "$(fdtget "$o" /fragment@1/__overlay__/bb-rtc-01-keys/key-0 label)" = rtc_mfp ]
	[ "$(fdtget "$o" /fragment@1/__overlay__/bb-rtc-01-keys/key-0 gpios)" = "-1 826 0" ]
	# resolved for the bone: i2c1_sda/scl (conf 0x158/0x15c) mode 2, input pull-up, slow
	r=$(resolved "$DEFS/bone/bb-rtc-01.cape" "$BATS_TEST_TMPDIR/r")
	[ "$(fdtget "$r" /__fixups__ i2c1)" = "/fragment@0:target:0" ]
	[ "$(fdtget -t x "$r" /fragment@2/__overlay__/bb-rtc-01-i2c1-pins pinctrl-single,pins)" = "15c 70 2 158 70 2" ]
	[ "$(fdtget -t x "$r" /fragment@1/__overlay__/bb-rtc-01-keys/key-0 gpios)" = "ffffffff 1d 0" ]
}

@test "the comms cape: dcan1 and uart4 with the overlay's pads (BBORG_COMMS-00A2.dts)" {
	o=$(bbb "$DEFS/bone/bborg-comms.cape")
	for label in bone_can_1 bone_uart_4; do
		frag=$(fdtget "$o" /__fixups__ $label | sed 's|^/\(fragment@[0-9]*\):.*|\1|')
		[ "$(fdtget "$o" "/$frag/__overlay__" status)" = okay ]
	done
	run dtc -I dtb -O dts "$o"
	[[ "$output" != *pinctrl* ]]
	r=$(resolved "$DEFS/bone/bborg-comms.cape" "$BATS_TEST_TMPDIR/r")
	for label in dcan1 uart4; do
		frag=$(fdtget "$r" /__fixups__ $label | sed 's|^/\(fragment@[0-9]*\):.*|\1|')
		[ "$(fdtget "$r" "/$frag/__overlay__" status)" = okay ]
	done
	dtc -I dtb -O dts "$r" 2>/dev/null > "$BATS_TEST_TMPDIR/c.dts"
	grep -q 'pinctrl-single,pins = <0x184 0x30 0x02 0x180 0x10 0x02>;' "$BATS_TEST_TMPDIR/c.dts"
	grep -q 'pinctrl-single,pins = <0x70 0x28 0x06 0x74 0x08 0x06>;' "$BATS_TEST_TMPDIR/c.dts"
}

@test "the relay cape: relays JP2-JP4 as gpio-leds kept as they are (BBORG_RELAY-00A2.dts)" {
	o=$(bbb "$DEFS/bone/bborg-relay.cape")
	for i in 0 1 2; do
		[ "$(fdtget "$o" /fragment@0/__overlay__/bborg-relay-leds/led-$i label)" = "relay-jp$((i + 2))" ]
		[ "$(fdtget "$o" /fragment@0/__overlay__/bborg-relay-leds/led-$i default-state)" = keep ]
	done
}

@test "part numbers are unique across cape-defs, and samples use no real one" {
	run bash -c "grep -h 'part-number' '$DEFS'/*.cape '$DEFS'/bone/*.cape | sed 's/.*\"\\(.*\\)\".*/\\1/' | sort | uniq -d"
	[ -z "$output" ] || { echo "duplicate part numbers: $output"; false; }
	# part numbers of real BeagleBone capes (bb.org-overlays src/arm) that a
	# sample (manufacturer Example Labs) must not take
	for f in $(grep -l 'manufacturer *= *"Example Labs"' "$DEFS"/*.cape); do
		p=$(sed -n 's/.*part-number *= *"\(.*\)".*/\1/p' "$f")
		case $p in
		BB-RTC-01|BB-BONE-WTHR-01|BBORG_*|BB-BONE-*|BB-CAN*|BB-UART*|BB-I2C*|BB-SPI*)
			echo "$f: $p is a real cape's part number"; false ;;
		esac
	done
}

@test "four real capes stack: check passes and they apply together onto am335x-boneblack.dtb" {
	stack1=("$DEFS/circuitco-weather.cape" "$DEFS/bborg-servo.cape" "$DEFS/bone/bborg-comms.cape" "$DEFS/bone/bb-rtc-01.cape")
	stack2=("$DEFS/circuitco-weather.cape" "$DEFS/bone/bborg-relay.cape" "$DEFS/bone/bborg-comms.cape" "$DEFS/bone/bb-rtc-01.cape")
	for s in 1 2; do
		eval 'defs=("${stack'$s'[@]}")'
		run ct check --board beaglebone-black "${defs[@]}"
		no_sanitizer_report
		[ "$status" -eq 0 ] || { echo "$output"; false; }
		[[ "$output" == *"in slot 3"* ]]
	done
	# the servo and relay capes share P9.27/P9.30/P9.42: not together
	run ct check --board beaglebone-black "$DEFS/bborg-servo.cape" "$DEFS/bone/bborg-relay.cape"
	[ "$status" -eq 5 ]
	[[ "$output" == *"bborg-relay.cape: pin P9.42 is held by BBORG_SERVO (slot 0)"* ]]
	need_base_dtb bbb.dtb
	rm -rf "$BATS_TEST_TMPDIR/out"
	for d in "${stack1[@]}"; do
		resolved "$d" "$BATS_TEST_TMPDIR/out" >/dev/null
	done
	run fdtoverlay -i "$BASE_DTBS/bbb.dtb" -o "$BATS_TEST_TMPDIR/all.dtb" "$BATS_TEST_TMPDIR"/out/*.beaglebone-black.dtbo
	[ "$status" -eq 0 ] || { echo "$output"; false; }
	sym() { fdtget "$BASE_DTBS/bbb.dtb" /__symbols__ "$1"; }
	[ "$(fdtget "$BATS_TEST_TMPDIR/all.dtb" "$(sym i2c2)/pca@7f" reg)" = 127 ]
	[ "$(fdtget "$BATS_TEST_TMPDIR/all.dtb" "$(sym i2c2)/htu21@40" compatible)" = meas-spec,htu21 ]
	[ "$(fdtget "$BATS_TEST_TMPDIR/all.dtb" "$(sym i2c1)/mcp7940x@68" compatible)" = microchip,mcp7940x ]
	[ "$(fdtget "$BATS_TEST_TMPDIR/all.dtb" "$(sym dcan1)" status)" = okay ]
	[ "$(fdtget "$BATS_TEST_TMPDIR/all.dtb" "$(sym uart4)" status)" = okay ]
	# the base tree's cape EEPROMs are still on i2c2, untouched
	[ "$(fdtget "$BATS_TEST_TMPDIR/all.dtb" "$(sym i2c2)/cape_eeprom0@54" reg)" = 84 ]
}
