#!/usr/bin/env bats
# capetool resolve: a cape's portable overlay (exported names only:
# bone_i2c_2, bone_devices, <&bone_gpio PIN FLAGS>, no pinmux) into one
# for a board's own tree, as U-Boot's `fdt apply` and fdtoverlay need it;
# proved on am335x-boneblack.dtb built from the 6.12 tree with symbols.

load helpers

setup_file() {
	export BASE_DTBS=$BATS_FILE_TMPDIR
	build_base_dtbs "$BASE_DTBS" || true
}

# Four real capes that stack on the bone: I2C2 (shared), I2C1, dcan1 +
# uart4, and GPIOs on three SoC banks.
STACK=("$DEFS/circuitco-weather.cape" "$DEFS/bone/bborg-relay.cape"
       "$DEFS/bone/bborg-comms.cape" "$DEFS/bone/bb-rtc-01.cape")

# No temporary file left in DIR.
no_temp_files() {
	! ls -A "$1" | grep -E '^\..*\.[A-Za-z0-9]{6}$'
}

@test "four real capes, resolved for the bone, apply in one fdtoverlay call onto am335x-boneblack.dtb" {
	run ct check --board beaglebone-black "${STACK[@]}"
	no_sanitizer_report
	[ "$status" -eq 0 ] || { echo "$output"; false; }
	[[ "$output" == *"bb-rtc-01.cape: ok: BB-RTC-01-00A0 in slot 3"* ]]
	need_base_dtb bbb.dtb
	out=$BATS_TEST_TMPDIR/out
	for d in "${STACK[@]}"; do
		resolved "$d" "$out" >/dev/null
	done
	# every overlay, portable and resolved, is clean to dtc
	n=0
	for f in "$out"/*.dtbo; do
		dtc_clean "$f"
		n=$((n + 1))
	done
	[ "$n" -eq 8 ]
	# the resolved ones name the board's labels, never an exported name
	for f in "$out"/*.beaglebone-black.dtbo; do
		run fdtget -p "$f" /__fixups__
		[[ "$output" != *bone_* ]] || { echo "$f: $output"; false; }
	done
	run fdtoverlay -i "$BASE_DTBS/bbb.dtb" -o "$BATS_TEST_TMPDIR/all.dtb" "$out"/*.beaglebone-black.dtbo
	[ "$status" -eq 0 ] || { echo "$output"; false; }
	all=$BATS_TEST_TMPDIR/all.dtb
	sym() { fdtget "$BASE_DTBS/bbb.dtb" /__symbols__ "$1"; }
	ph() { fdtget "$all" "$1" phandle; }
	pm=$(sym am33xx_pinmux)
	# devices at their addresses, on the buses they name
	[ "$(fdtget "$all" "$(sym i2c2)/tsl2550@39" reg)" = 57 ]
	[ "$(fdtget "$all" "$(sym i2c2)/htu21@40" compatible)" = meas-spec,htu21 ]
	[ "$(fdtget "$all" "$(sym i2c2)/bmp085@77" reg)" = 119 ]
	[ "$(fdtget "$all" "$(sym i2c1)/mcp7940x@68" reg)" = 104 ]
	[ "$(fdtget "$all" "$(sym i2c1)" status)" = okay ]
	[ "$(fdtget "$all" "$(sym dcan1)" status)" = okay ]
	[ "$(fdtget "$all" "$(sym uart4)" status)" = okay ]
	# the shared cape bus keeps the board's pinmux and its cape EEPROMs
	[ "$(fdtget "$all" "$(sym i2c2)" pinctrl-0)" = "$(fdtget "$BASE_DTBS/bbb.dtb" "$(sym i2c2)" pinctrl-0)" ]
	[ "$(fdtget "$all" "$(sym i2c2)/cape_eeprom0@54" reg)" = 84 ]
	# pinmux groups on the pin controller, named by the nodes that use them
	# (pad offset, input/pull bits of the pin word, mode; SRM P8/P9 tables)
	[ "$(fdtget -t x "$all" "$pm/bb-rtc-01-i2c1-pins" pinctrl-single,pins)" = "15c 70 2 158 70 2" ]
	[ "$(fdtget "$all" "$(sym i2c1)" pinctrl-0)" = "$(ph "$pm/bb-rtc-01-i2c1-pins")" ]
	[ "$(fdtget -t x "$all" "$pm/bborg-comms-can1-pins" pinctrl-single,pins)" = "184 30 2 180 10 2" ]
	[ "$(fdtget "$all" "$(sym dcan1)" pinctrl-0)" = "$(ph "$pm/bborg-comms-can1-pins")" ]
	[ "$(fdtget -t x "$all" "$pm/bborg-comms-uart4-pins" pinctrl-single,pins)" = "70 28 6 74 8 6" ]
	[ "$(fdtget "$all" "$(sym uart4)" pinctrl-0)" = "$(ph "$pm/bborg-comms-uart4-pins")" ]
	[ "$(fdtget -t x "$all" "$pm/bborg-relay-leds-pins" pinctrl-single,pins)" = "164 0 7 198 0 7 1a4 0 7" ]
	[ "$(fdtget "$all" /bborg-relay-leds pinctrl-0)" = "$(ph "$pm/bborg-relay-leds-pins")" ]
	[ "$(fdtget -t x "$all" "$pm/bb-rtc-01-keys-pins" pinctrl-single,pins)" = "7c 28 7" ]
	[ "$(fdtget "$all" /bb-rtc-01-keys pinctrl-0)" = "$(ph "$pm/bb-rtc-01-keys-pins")" ]
	# the base tree's own pinmux is still there (clkout2 on P9.41's pad)
	[ "$(fdtget "$all" "$pm" pinctrl-0)" = "$(fdtget "$BASE_DTBS/bbb.dtb" "$pm" pinctrl-0)" ]
	# GPIOs on the SoC's controllers: P9.42 gpio0_7, P9.30 gpio3_16,
	# P9.27 gpio3_19, P8.26 gpio1_29
	[ "$(fdtget "$all" /bborg-relay-leds/led-0 gpios)" = "$(ph "$(sym gpio0)") 7 0" ]
	[ "$(fdtget "$all" /bborg-relay-leds/led-1 gpios)" = "$(ph "$(sym gpio3)") 16 0" ]
	[ "$(fdtget "$all" /bborg-relay-leds/led-2 gpios)" = "$(ph "$(sym gpio3)") 19 0" ]
	[ "$(fdtget "$all" /bb-rtc-01-keys/key-0 gpios)" = "$(ph "$(sym gpio1)") 29 0" ]
	# fdtdump agrees: one tree, every device node present once
	run fdtdump "$all"
	[ "$(grep -c 'relay-jp[234]' <<< "$output")" -eq 3 ]
	[ "$(grep -c 'mcp7940x@68 {' <<< "$output")" -eq 1 ]
}

@test "the four real capes the QEMU guest stacks (guest/real-capes.bats) pass check and apply onto am335x-boneblack.dtb" {
	# As STACK, with the SCS DFE cape for circuitco's weather cape, whose
	# TSL2550 at 0x39 meets the QEMU board's DVI transmitter.
	local qemu_stack=("$DEFS/bone/bborg-relay.cape" "$DEFS/bone/bborg-comms.cape"
			  "$DEFS/bone/bb-rtc-01.cape" "$DEFS/scs-dfe.cape")
	run ct check --board beaglebone-black "${qemu_stack[@]}"
	no_sanitizer_report
	[ "$status" -eq 0 ] || { echo "$output"; false; }
	[[ "$output" == *"scs-dfe.cape: ok: SCS-DFE-BB-0001 in slot 3"* ]]
	need_base_dtb bbb.dtb
	out=$BATS_TEST_TMPDIR/out
	for d in "${qemu_stack[@]}"; do
		resolved "$d" "$out" >/dev/null
	done
	for f in "$out"/*.dtbo; do
		dtc_clean "$f"
	done
	run fdtoverlay -i "$BASE_DTBS/bbb.dtb" -o "$BATS_TEST_TMPDIR/all.dtb" "$out"/*.beaglebone-black.dtbo
	[ "$status" -eq 0 ] || { echo "$output"; false; }
	all=$BATS_TEST_TMPDIR/all.dtb
	sym() { fdtget "$BASE_DTBS/bbb.dtb" /__symbols__ "$1"; }
	# two RTCs at 0x68, each on its own bus
	[ "$(fdtget "$all" "$(sym i2c2)/extrtc@68" compatible)" = maxim,ds1338 ]
	[ "$(fdtget "$all" "$(sym i2c1)/mcp7940x@68" reg)" = 104 ]
	[ "$(fdtget "$all" "$(sym dcan1)" status)" = okay ]
	[ "$(fdtget "$all" "$(sym uart4)" status)" = okay ]
	run fdtdump "$all"
	[ "$(grep -c 'relay-jp[234]' <<< "$output")" -eq 3 ]
}

@test "the pin words may come from the cape's EEPROM image: same overlay as from its definition" {
	out=$BATS_TEST_TMPDIR/out
	ct create "$DEFS/bone/bborg-comms.cape" --board beaglebone-black -o "$out" >/dev/null
	run ct resolve --board beaglebone-black --cape "$out/BBORG_COMMS-00A2.eeprom" \
		"$out/BBORG_COMMS-00A2.dtbo" -o "$out/a.dtbo"
	no_sanitizer_report
	[ "$status" -eq 0 ] || { echo "$output"; false; }
	[[ "$output" == *"a.dtbo ("*" bytes)"* ]]
	ct resolve -b beaglebone-black -c "$DEFS/bone/bborg-comms.cape" "$out/BBORG_COMMS-00A2.dtbo" -o "$out/b.dtbo" >/dev/null
	cmp "$out/a.dtbo" "$out/b.dtbo"
	no_temp_files "$out"
}

@test "a hand-written portable overlay: <&bone_gpio 912 FLAGS> under &bone_devices" {
	cat > "$BATS_TEST_TMPDIR/p.dtso" <<'D'
/dts-v1/;
/plugin/;
&bone_devices {
	buzzer {
		compatible = "gpio-beeper";
		gpios = <&bone_gpio 912 0>;
	};
};
&bone_i2c_2 {
	#address-cells = <1>;
	#size-cells = <0>;
	temp@48 { compatible = "ti,tmp105"; reg = <0x48>; };
};
D
	dtc -q -I dts -O dtb -o "$BATS_TEST_TMPDIR/p.dtbo" "$BATS_TEST_TMPDIR/p.dtso"
	cat > "$BATS_TEST_TMPDIR/p.cape" <<'D'
eeprom = { board-name = "Beeper"; version = "00A0"; manufacturer = "Example Labs"; part-number = "EXL-BEEP-01"; };
pins = ( { pin = "P9.12"; mode = 7; direction = "out"; } );
D
	run ct resolve --board beaglebone-black --cape "$BATS_TEST_TMPDIR/p.cape" "$BATS_TEST_TMPDIR/p.dtbo" -o "$BATS_TEST_TMPDIR/r.dtbo"
	no_sanitizer_report
	[ "$status" -eq 0 ] || { echo "$output"; false; }
	r=$BATS_TEST_TMPDIR/r.dtbo
	dtc_clean "$r"
	# bone_devices is the path / on the bone: the fragment's target-path
	[ "$(fdtget "$r" /fragment@0 target-path)" = / ]
	run fdtget "$r" /fragment@0 target
	[ "$status" -ne 0 ]
	[ "$(fdtget "$r" /__fixups__ gpio1)" = "/fragment@0/__overlay__/buzzer:gpios:0" ]
	[ "$(fdtget "$r" /__fixups__ i2c2)" = "/fragment@1:target:0" ]
	# P9.12 is gpio1_28: line 28, and its pad (gpmc_ben1, 0x78) for the beeper
	[ "$(fdtget -t x "$r" /fragment@0/__overlay__/buzzer gpios)" = "ffffffff 1c 0" ]
	[ "$(fdtget -t x "$r" /fragment@2/__overlay__/exl-beep-01-buzzer-pins pinctrl-single,pins)" = "78 8 7" ]
	need_base_dtb bbb.dtb
	run fdtoverlay -i "$BASE_DTBS/bbb.dtb" -o "$BATS_TEST_TMPDIR/all.dtb" "$r"
	[ "$status" -eq 0 ] || { echo "$output"; false; }
	gpio1=$(fdtget "$BASE_DTBS/bbb.dtb" /__symbols__ gpio1)
	[ "$(fdtget "$BATS_TEST_TMPDIR/all.dtb" /buzzer gpios)" = "$(fdtget "$BATS_TEST_TMPDIR/all.dtb" "$gpio1" phandle) 28 0" ]
}

@test "an MCP23017 with its interrupt on P9.15 (the interrupt key): check, create writes <&bone_irq 915 8>, resolve <&gpio1 16 8> with P9.15 muxed for it, and it applies to am335x-boneblack.dtb" {
	def=$FIX/defs/mcp23017-irq.cape
	run ct check --board beaglebone-black "$def"
	no_sanitizer_report
	[ "$status" -eq 0 ] || { echo "$output"; false; }
	out=$BATS_TEST_TMPDIR/out
	r=$(resolved "$def" "$out")
	p=$out/CB-MCP23017-00A0.dtbo
	dtc_clean "$p"
	# (not dtc_clean "$r": dtc 1.6 reading it as a .dtb checks its
	# __local_fixups__/.../mcp23017@20 as a device node, without reg)
	# portable: the connector's interrupt nexus, P9.15 = 915, IRQ_TYPE_LEVEL_LOW
	[ "$(fdtget -t x "$p" /fragment@0/__overlay__/mcp23017@20 interrupts-extended)" = "ffffffff 393 8" ]
	[ "$(fdtget "$p" /__fixups__ bone_irq)" = "/fragment@0/__overlay__/mcp23017@20:interrupts-extended:0" ]
	[ "$(fdtget "$p" / exclusive-use)" = P9.15 ]
	# resolved: P9.15 is gpio1_16, the bank its interrupt controller
	[ "$(fdtget -t x "$r" /fragment@0/__overlay__/mcp23017@20 interrupts-extended)" = "ffffffff 10 8" ]
	[ "$(fdtget "$r" /__fixups__ gpio1)" = "/fragment@0/__overlay__/mcp23017@20:interrupts-extended:0" ]
	# and its pad (gpmc_a0, 0x40) muxed as a GPIO input with pull-up, for the device
	g=$(fdtget "$r" /fragment@0/__overlay__/mcp23017@20 pinctrl-0)
	[ "$(fdtget -t x "$r" /fragment@1/__overlay__/cb-mcp23017-mcp23017-20-pins pinctrl-single,pins)" = "40 30 7" ]
	[ "$(fdtget "$r" /fragment@1/__overlay__/cb-mcp23017-mcp23017-20-pins phandle)" = "$g" ]
	need_base_dtb bbb.dtb
	run fdtoverlay -i "$BASE_DTBS/bbb.dtb" -o "$BATS_TEST_TMPDIR/all.dtb" "$r"
	[ "$status" -eq 0 ] || { echo "$output"; false; }
	all=$BATS_TEST_TMPDIR/all.dtb
	gpio1=$(fdtget "$BASE_DTBS/bbb.dtb" /__symbols__ gpio1)
	i2c2=$(fdtget "$BASE_DTBS/bbb.dtb" /__symbols__ i2c2)
	[ "$(fdtget "$all" "$i2c2/mcp23017@20" interrupts-extended)" = "$(fdtget "$all" "$gpio1" phandle) 16 8" ]
	# the bank is the interrupt controller the specifier needs: two cells
	fdtget "$all" "$gpio1" interrupt-controller >/dev/null
	[ "$(fdtget "$all" "$gpio1" '#interrupt-cells')" = 2 ]
}

@test "a device's interrupt: its pin declared, muxed as a GPIO and an input, else refused at its line; interrupts beside it, interrupts-extended in properties refused" {
	cd "$BATS_TEST_TMPDIR"
	base=$FIX/defs/mcp23017-irq.cape
	sed 's/{ pin = "P9.15"; trigger/{ pin = "P9.12"; trigger/' "$base" > a.cape
	run ct check -b beaglebone-black a.cape
	echo "$output"
	no_sanitizer_report
	[ "$status" -eq 3 ]
	[[ "$output" == *"a.cape:16: devices[0].interrupt: P9.12 is not listed in pins (a cape's interrupt comes from a pin it declares, muxed as its GPIO, direction in)"* ]]
	sed 's/mode = "gpio"; direction = "in"/mode = 0; direction = "in"/' "$base" > b.cape
	run ct check -b beaglebone-black b.cape
	echo "$output"
	[ "$status" -eq 3 ]
	[[ "$output" == *"b.cape:16: devices[0].interrupt: the interrupt needs P9.15 muxed as a GPIO, mode 7 (gpio1_16); pins has it in mode 0 (gpmc_a0) (line 12)"* ]]
	sed 's/direction = "in"/direction = "out"/' "$base" > c.cape
	run ct check -b beaglebone-black c.cape
	[ "$status" -eq 3 ]
	[[ "$output" == *"c.cape:16: devices[0].interrupt: the interrupt reads P9.15, but pins sets it as an output (line 12)"* ]]
	sed 's/trigger = "low"/trigger = "sideways"/' "$base" > d.cape
	run ct check -b beaglebone-black d.cape
	[ "$status" -eq 3 ]
	[[ "$output" == *"trigger"* ]]
	sed 's/("#interrupt-cells", 2)/("#interrupt-cells", 2), ("interrupts", [16, 8])/' "$base" > e.cape
	run ct check -b beaglebone-black e.cape
	[ "$status" -eq 3 ]
	[[ "$output" == *"devices[0].interrupt: properties sets interrupts too"* ]]
	sed 's/("#interrupt-cells", 2)/("#interrupt-cells", 2), ("interrupts-extended", [1, 16, 8])/' "$base" > f.cape
	run ct check -b beaglebone-black f.cape
	[ "$status" -eq 3 ]
	[[ "$output" == *'properties.interrupts-extended: holds phandles'*'interrupt = { pin = "P9.15"; trigger = "falling"; }'* ]]
}

@test "resolve refuses what the kernel refuses (red team): a node at /, bootargs in /chosen, a raw target = <1>, an edit of the board's i2c2, a root node that is no fragment; nothing written (exit 3)" {
	cd "$BATS_TEST_TMPDIR"
	printf 'eeprom = { board-name = "Bad"; version = "00A0"; manufacturer = "M"; part-number = "BAD"; };\n' > bad.cape
	cat > bad.dtso <<'D'
/dts-v1/;
/plugin/;
&{/} { evil { compatible = "gpio-leds"; }; };
&{/chosen} { bootargs = "init=/bin/sh"; };
/ { fragment@9 { target = <1>; __overlay__ { foo { compatible = "x"; }; }; }; };
&bone_i2c_2 { clock-frequency = <10>; };
D
	dtc -q -I dts -O dtb -o bad.dtbo bad.dtso
	run ct resolve -b beaglebone-black -c bad.cape bad.dtbo -o r.dtbo
	echo "$output"
	no_sanitizer_report
	[ "$status" -eq 3 ]
	[ ! -e r.dtbo ]
	[[ "$output" == *"bad.dtbo: fragment@0 targets a path (target-path), not a name board beaglebone-black's cape connector exports: the kernel refuses it"* ]]
	[[ "$output" == *"bad.dtbo: fragment@1 targets a path (target-path)"* ]]
	[[ "$output" == *"bad.dtbo: fragment@9 targets a raw phandle (<1>), not through a name board beaglebone-black's cape connector exports: the kernel refuses it"* ]]
	[[ "$output" == *"bad.dtbo: fragment@2 sets clock-frequency of bone_i2c_2 (i2c2), a node of the board's"*"(threat-model.rst, Add only)"* ]]
	# the kernel's own checker (capebus-fdt.c): a root node that is no fragment
	printf '/dts-v1/;\n/plugin/;\n/ { evil { compatible = "x"; }; };\n' > root.dtso
	dtc -q -I dts -O dtb -o root.dtbo root.dtso
	run ct resolve -b beaglebone-black -c bad.cape root.dtbo -o r.dtbo
	echo "$output"
	[ "$status" -eq 3 ]
	[ ! -e r.dtbo ]
	[[ "$output" == *"root.dtbo: the kernel refuses this overlay (capebus-fdt.c, against board beaglebone-black's exports): node evil at the root is not a fragment"* ]]
	# a property a UART's target-properties does not list, on the UART it enables
	printf '/dts-v1/;\n/plugin/;\n&bone_uart_4 { status = "okay"; current-speed = <9600>; };\n' > u.dtso
	dtc -q -I dts -O dtb -o u.dtbo u.dtso
	run ct resolve -b beaglebone-black -c bad.cape u.dtbo -o r.dtbo
	echo "$output"
	[ "$status" -eq 3 ]
	[[ "$output" == *"u.dtbo: fragment@0 sets current-speed of bone_uart_4 (uart4), which the connector does not let capes set (its target-properties): the kernel refuses it"* ]]
	# and what it lets a cape set there passes (BB-UART4-RS485's)
	printf '/dts-v1/;\n/plugin/;\n&bone_uart_4 { status = "okay"; rs485-rts-delay = <0 0>; };\n' > u.dtso
	dtc -q -I dts -O dtb -o u.dtbo u.dtso
	run ct resolve -b beaglebone-black -c bad.cape u.dtbo -o r.dtbo
	echo "$output"
	[ "$status" -eq 0 ]
}

@test "one node in two fragments (a device's reset GPIO from the definition, its interrupt from the hatch): one group with both pins, named by both copies, so the applied node muxes P9.12 and P9.15" {
	cd "$BATS_TEST_TMPDIR"
	cat > two.dtso <<'D'
/dts-v1/;
/plugin/;
&bone_spi_0 { #address-cells = <1>; #size-cells = <0>; mcp2515@0 { interrupts-extended = <&bone_irq 912 2>; }; };
D
	cat > two.cape <<'D'
eeprom = { board-name = "CAN"; version = "00A0"; manufacturer = "M"; part-number = "TWO"; };
pins = ( { pin = "P9.22"; mode = "spi0_sclk"; direction = "in"; }, { pin = "P9.21"; mode = "spi0_d0"; direction = "in"; },
         { pin = "P9.18"; mode = "spi0_d1"; direction = "out"; }, { pin = "P9.17"; mode = "spi0_cs0"; direction = "out"; },
         { pin = "P9.12"; mode = "gpio"; direction = "in"; pull = "up"; },
         { pin = "P9.15"; mode = "gpio"; direction = "out"; } );
devices = ( { type = "spi"; bus = "spi0"; cs = 0; compatible = "microchip,mcp2515"; max-frequency = 10000000;
              properties = { reset-gpios = { pin = "P9.15"; }; }; } );
overlay = "two.dtso";
D
	r=$(resolved two.cape out)
	no_sanitizer_report
	# two copies of mcp2515@0 on spi0, each naming the same group
	a=$(fdtget "$r" /fragment@0/__overlay__/mcp2515@0 pinctrl-0)
	b=$(fdtget "$r" /fragment@1/__overlay__/mcp2515@0 pinctrl-0)
	[ "$a" = "$b" ]
	[ "$(fdtget -t x "$r" /fragment@2/__overlay__/two-mcp2515-0-pins pinctrl-single,pins)" = "78 30 7 40 8 7" ]
	[ "$(fdtget "$r" /fragment@2/__overlay__/two-mcp2515-0-pins phandle)" = "$a" ]
	# applied, the node's one pinctrl-0 muxes both pins
	need_base_dtb bbb.dtb
	fdtoverlay -i "$BASE_DTBS/bbb.dtb" -o all.dtb "$r"
	spi0=$(fdtget "$BASE_DTBS/bbb.dtb" /__symbols__ spi0)
	ph=$(fdtget all.dtb "$spi0/mcp2515@0" pinctrl-0)
	found=
	for n in $(fdtget -l all.dtb "$(fdtget "$BASE_DTBS/bbb.dtb" /__symbols__ am33xx_pinmux)"); do
		p=$(fdtget "$BASE_DTBS/bbb.dtb" /__symbols__ am33xx_pinmux)/$n
		[ "$(fdtget all.dtb "$p" phandle 2>/dev/null)" = "$ph" ] && found=$p
	done
	[ -n "$found" ]
	[ "$(fdtget -t x all.dtb "$found" pinctrl-single,pins)" = "78 30 7 40 8 7" ]
}

@test "what is not a portable overlay for the board is refused, naming it (exit 3)" {
	cape=$DEFS/bone/bborg-relay.cape
	# a name the connector does not export: a board-specific overlay
	printf '/dts-v1/;\n/plugin/;\n&am33xx_pinmux { x { pinctrl-single,pins = <0x164 0 7>; }; };\n' > "$BATS_TEST_TMPDIR/b.dtso"
	dtc -q -I dts -O dtb -o "$BATS_TEST_TMPDIR/b.dtbo" "$BATS_TEST_TMPDIR/b.dtso"
	run ct resolve -b beaglebone-black -c "$cape" "$BATS_TEST_TMPDIR/b.dtbo" -o "$BATS_TEST_TMPDIR/o.dtbo"
	no_sanitizer_report
	[ "$status" -eq 3 ]
	[[ "$output" == *'b.dtbo: /fragment@0:target references "am33xx_pinmux", which board beaglebone-black'"'"'s cape connector does not export (it exports: bone_i2c_2, bone_devices, bone_gpio, '*'): not a portable overlay'* ]]
	[ ! -e "$BATS_TEST_TMPDIR/o.dtbo" ]
	# a pin code that is no header pin (P9.50; P9.32 is VDD_ADC), one with
	# no GPIO on the board (P9.39 is AIN0)
	for code in 950 932 939; do
		printf '/dts-v1/;\n/plugin/;\n&bone_devices { k { compatible = "gpio-keys"; b { gpios = <&bone_gpio %s 0>; }; }; };\n' \
			$code > "$BATS_TEST_TMPDIR/g.dtso"
		dtc -q -I dts -O dtb -o "$BATS_TEST_TMPDIR/g.dtbo" "$BATS_TEST_TMPDIR/g.dtso"
		run ct resolve -b beaglebone-black -c "$cape" "$BATS_TEST_TMPDIR/g.dtbo" -o "$BATS_TEST_TMPDIR/o.dtbo"
		[ "$status" -eq 3 ]
		[ ! -e "$BATS_TEST_TMPDIR/o.dtbo" ]
		case $code in
		939) [[ "$output" == *"/fragment@0/__overlay__/k/b:gpios: bone_gpio pin 939 (P9.39): board beaglebone-black has no GPIO on that pin"* ]] ;;
		*) [[ "$output" == *"/fragment@0/__overlay__/k/b:gpios: bone_gpio pin $code is no header signal pin (800+n for P8.n, 900+n for P9.n)"* ]] ;;
		esac
	done
	# a path export named by phandle rather than as a fragment target
	printf '/dts-v1/;\n/plugin/;\n&bone_i2c_2 { x { parent = <&bone_devices>; }; };\n' > "$BATS_TEST_TMPDIR/p.dtso"
	dtc -q -I dts -O dtb -o "$BATS_TEST_TMPDIR/p.dtbo" "$BATS_TEST_TMPDIR/p.dtso"
	run ct resolve -b beaglebone-black -c "$cape" "$BATS_TEST_TMPDIR/p.dtbo" -o "$BATS_TEST_TMPDIR/o.dtbo"
	[ "$status" -eq 3 ]
	[[ "$output" == *"/fragment@0/__overlay__/x:parent references bone_devices, which board beaglebone-black exports as the path /: only a fragment's target can name it"* ]]
	# another cape's pin words: the overlay's exclusive-use says so
	ct create "$cape" --board beaglebone-black -o "$BATS_TEST_TMPDIR/c" >/dev/null
	run ct resolve -b beaglebone-black -c "$DEFS/bone/bb-rtc-01.cape" "$BATS_TEST_TMPDIR/c/BBORG_RELAY-00A2.dtbo" -o "$BATS_TEST_TMPDIR/o.dtbo"
	[ "$status" -eq 3 ]
	[[ "$output" == *"its exclusive-use names P9.42, which the cape's pin words do not use"* ]]
	# not a device tree
	run ct resolve -b beaglebone-black -c "$cape" "$cape" -o "$BATS_TEST_TMPDIR/o.dtbo"
	[ "$status" -eq 3 ]
	[[ "$output" == *"bborg-relay.cape: not a valid flattened device tree"* ]]
	[ ! -e "$BATS_TEST_TMPDIR/o.dtbo" ]
}

@test "resolve refuses another cape's pin words that cover the overlay's pins and more (exit 3)" {
	cd "$BATS_TEST_TMPDIR"
	E='version = "00A0"; manufacturer = "M";'
	I2C='{ pin = "P9.17"; mode = "i2c1_scl"; direction = "bidir"; pull = "up"; }, { pin = "P9.18"; mode = "i2c1_sda"; direction = "bidir"; pull = "up"; }'
	cat > oled.cape <<EOF
eeprom = { board-name = "OLED"; $E part-number = "X-OLED"; };
pins = ( $I2C );
devices = ( { type = "i2c"; bus = "i2c1"; address = 0x3c; compatible = "solomon,ssd1306fb-i2c"; } );
EOF
	cat > pwm.cape <<EOF
eeprom = { board-name = "PWM"; $E part-number = "X-PWM"; };
pins = ( $I2C, { pin = "P9.23"; mode = 7; direction = "out"; } );
devices = ( { type = "i2c"; bus = "i2c1"; address = 0x40; compatible = "nxp,pca9685-pwm"; },
            { type = "led"; pin = "P9.23"; label = "oe"; } );
EOF
	ct create oled.cape --board beaglebone-black -o a >/dev/null
	ct create pwm.cape --board beaglebone-black -o b >/dev/null
	run ct resolve -b beaglebone-black -c b/X-PWM-00A0.eeprom a/X-OLED-00A0.dtbo -o r.dtbo
	no_sanitizer_report
	[ "$status" -eq 3 ]
	[[ "$output" == *"the cape's pin words use P9.23, which its exclusive-use does not name (another cape's EEPROM or definition?)"* ]]
	[ ! -e r.dtbo ]
	run ct resolve -b beaglebone-black -c pwm.cape a/X-OLED-00A0.dtbo -o r.dtbo
	[ "$status" -eq 3 ]
	# its own words resolve
	run ct resolve -b beaglebone-black -c a/X-OLED-00A0.eeprom a/X-OLED-00A0.dtbo -o r.dtbo
	[ "$status" -eq 0 ]
}

@test "a board that exports nothing has nothing to resolve (exit 3)" {
	b=$BATS_TEST_TMPDIR/noexports.board
	sed '/^exports = (/,/^);/d' "$TOP/schemas/boards/beaglebone-black.board" > "$b"
	! grep -q bone_gpio "$b"
	ct create "$DEFS/bone/bborg-relay.cape" --board beaglebone-black -o "$BATS_TEST_TMPDIR/c" >/dev/null
	run ct resolve -b "$b" -c "$DEFS/bone/bborg-relay.cape" "$BATS_TEST_TMPDIR/c/BBORG_RELAY-00A2.dtbo" -o "$BATS_TEST_TMPDIR/o.dtbo"
	no_sanitizer_report
	[ "$status" -eq 3 ]
	[[ "$output" == *"board beaglebone-black lists no names its cape connector exports"* ]]
	# without exports, create writes the board-specific overlay (labels, pinmux)
	ct create "$DEFS/bone/bborg-relay.cape" --board "$b" -o "$BATS_TEST_TMPDIR/d" >/dev/null
	[ "$(fdtget "$BATS_TEST_TMPDIR/d/BBORG_RELAY-00A2.dtbo" /__fixups__ gpio0)" = "/fragment@0/__overlay__/bborg-relay-leds/led-0:gpios:0" ]
	# a profile's exports are checked when it loads
	sed 's/{ name = "bone_gpio"; gpio-map = true; }/{ name = "bone_gpio"; }/' \
		"$TOP/schemas/boards/beaglebone-black.board" > "$b"
	run ct check -b "$b" "$DEFS/bone/bborg-relay.cape"
	[ "$status" -eq 3 ]
	[[ "$output" == *"exports: bone_gpio needs one of a target, gpio-map = true or interrupt-map = true"* ]]
}

@test "resolve: usage errors exit 2, unreadable files 4, and a failed write leaves the old output" {
	cape=$DEFS/bone/bborg-relay.cape
	ct create "$cape" --board beaglebone-black -o "$BATS_TEST_TMPDIR/c" >/dev/null
	in=$BATS_TEST_TMPDIR/c/BBORG_RELAY-00A2.dtbo
	run ct resolve -b beaglebone-black "$in" -o "$BATS_TEST_TMPDIR/o.dtbo"
	no_sanitizer_report
	[ "$status" -eq 2 ]
	[[ "$output" == *"resolve needs --cape FILE"* ]]
	run ct resolve -c "$cape" "$in" -o "$BATS_TEST_TMPDIR/o.dtbo"
	[ "$status" -eq 2 ]
	[[ "$output" == *"resolve needs --board B"* ]]
	run ct resolve -b beaglebone-black -c "$cape" "$in"
	[ "$status" -eq 2 ]
	run ct resolve -b beaglebone-black -c "$cape" "$in" -o ""
	[ "$status" -eq 2 ]
	run ct resolve -b nosuchboard -c "$cape" "$in" -o "$BATS_TEST_TMPDIR/o.dtbo"
	[ "$status" -eq 2 ]
	[[ "$output" == *'unknown board "nosuchboard"'* ]]
	run ct resolve -b beaglebone-black -c "$cape" "$BATS_TEST_TMPDIR/missing.dtbo" -o "$BATS_TEST_TMPDIR/o.dtbo"
	[ "$status" -eq 4 ]
	[[ "$output" == *"missing.dtbo: No such file or directory"* ]]
	run ct resolve -b beaglebone-black -c "$BATS_TEST_TMPDIR/missing.eeprom" "$in" -o "$BATS_TEST_TMPDIR/o.dtbo"
	[ "$status" -eq 4 ]
	# a write that fails (the directory is not there) says so, writes nothing
	run ct resolve -b beaglebone-black -c "$cape" "$in" -o "$BATS_TEST_TMPDIR/nodir/o.dtbo"
	[ "$status" -eq 4 ]
	[[ "$output" == *"nodir/o.dtbo: cannot write: No such file or directory"* ]]
	# the output is replaced whole: the old content stays until the new one
	# is complete (a file size limit below the resolved overlay's size)
	ct resolve -b beaglebone-black -c "$cape" "$in" -o "$BATS_TEST_TMPDIR/full.dtbo" >/dev/null
	[ "$(stat -c %s "$BATS_TEST_TMPDIR/full.dtbo")" -gt 1024 ]
	echo previous > "$BATS_TEST_TMPDIR/o.dtbo"
	run bash -c 'ulimit -f 1; trap "" XFSZ; exec "$@"' limited "$CAPETOOL" resolve \
		-b beaglebone-black -c "$cape" "$in" -o "$BATS_TEST_TMPDIR/o.dtbo"
	no_sanitizer_report
	[ "$status" -eq 4 ]
	[[ "$output" == *"o.dtbo: cannot write: File too large"* ]]
	[ "$(cat "$BATS_TEST_TMPDIR/o.dtbo")" = previous ]
	no_temp_files "$BATS_TEST_TMPDIR"
	run ct resolve --help
	[ "$status" -eq 0 ]
	[[ "$output" == *"usage: capetool resolve --board B --cape CAPE DTBO -o OUT"* ]]
	run ct --help
	[[ "$output" == *"resolve   a portable overlay into one for a board's tree"* ]]
}

@test "pins no device uses: check, create and resolve warn that a bootloader leaves them unmuxed, exit status unchanged (user test 26, defect 5)" {
	cd "$BATS_TEST_TMPDIR"
	cat > u.cape <<'CAPE'
eeprom = { board-name = "X"; version = "00A0"; manufacturer = "M"; part-number = "BB-U"; };
pins = ( { pin = "P8.7"; mode = "gpio"; direction = "in"; pull = "up"; },
         { pin = "P8.8"; mode = "gpio"; direction = "in"; pull = "up"; },
         { pin = "P8.9"; mode = "gpio"; direction = "in"; } );
devices = ( { type = "key"; label = "k"; pin = "P8.9"; code = 28; } );
CAPE
	warn="warning: u.cape: pins P8.7, P8.8 are used by no device: the kernel's cape connector muxes them from the EEPROM's pin words, but an overlay resolved for beaglebone-black puts them in a pinctrl group no device references (bb-u-other-pins), so a bootloader applying it leaves them unmuxed"
	run ct check -b beaglebone-black u.cape
	echo "$output"
	no_sanitizer_report
	[ "$status" -eq 0 ]
	[[ "$output" == *"$warn"* ]]
	ct check -b beaglebone-black u.cape 2>/dev/null | grep -q 'u.cape: ok'
	run ct create -b beaglebone-black u.cape -o o
	echo "$output"
	[ "$status" -eq 0 ]
	[[ "$output" == *"$warn"* ]]
	run ct resolve -b beaglebone-black -c u.cape o/BB-U-00A0.dtbo -o r.dtbo
	echo "$output"
	[ "$status" -eq 0 ]
	[[ "$output" == *"$warn"* ]]
	dtc -q -I dtb -O dts r.dtbo | grep -q 'bb-u-other-pins'
	# from the image: the same words, the same warning
	run ct resolve -b beaglebone-black -c o/BB-U-00A0.eeprom o/BB-U-00A0.dtbo -o r.dtbo
	[ "$status" -eq 0 ]
	[[ "$output" == *"warning: o/BB-U-00A0.eeprom: pins P8.7, P8.8 are used by no device"* ]]
	# every pin used: no warning
	sed -i 's/{ type = "key"; label = "k"; pin = "P8.9"; code = 28; }/&, { type = "key"; label = "a"; pin = "P8.7"; code = 1; }, { type = "key"; label = "b"; pin = "P8.8"; code = 2; }/' u.cape
	run ct check -b beaglebone-black u.cape
	echo "$output"
	[ "$status" -eq 0 ]
	[[ "$output" != *warning* ]]
}
