#!/usr/bin/env bats
# resolve for the tree the user boots, and check --dtb (issue 37 items 1
# and 7), on the stock 6.12 am335x-boneblack.dtb: the 6.12 source's own
# am335x-boneblack.dts (the pristine copy scripts/kernel-series.sh keeps,
# without the series' connector), through cpp and dtc -@ as U-Boot users
# build it.  There epwmss0-2 are disabled and the ADC lists no channel.

load helpers

setup_file() {
	local d=$KSRC/arch/arm/boot/dts/ti/omap
	local dts=$KSRC/.capebus/pristine/arch/arm/boot/dts/ti/omap/am335x-boneblack.dts
	[ -f "$dts" ] || return 0
	cpp -nostdinc -undef -D__DTS__ -x assembler-with-cpp -I "$KSRC/arch/arm/boot/dts" -I "$d" \
		-I "$KSRC/include" -I "$KSRC/scripts/dtc/include-prefixes" "$dts" > "$BATS_FILE_TMPDIR/stock.dts" || return 0
	dtc -q -@ -i "$d" -I dts -O dtb -o "$BATS_FILE_TMPDIR/stock.dtb" "$BATS_FILE_TMPDIR/stock.dts" || rm -f "$BATS_FILE_TMPDIR/stock.dtb"
	dtc -q -i "$d" -I dts -O dtb -o "$BATS_FILE_TMPDIR/nosym.dtb" "$BATS_FILE_TMPDIR/stock.dts" || true
}

STOCK=$BATS_FILE_TMPDIR/stock.dtb

need_stock() {
	[ -f "$STOCK" ] && return 0
	no_ksrc "no stock am335x-boneblack.dtb: needs the 6.12 tree at $KSRC (its pristine copy), cpp and dtc"
}

# stock LABEL [PROP]: the node LABEL names in the stock tree, or its PROP.
stock() {
	local p
	p=$(fdtget "$STOCK" /__symbols__ "$1")
	if [ -n "${2:-}" ]; then fdtget "${3:-$STOCK}" "$p" "$2"; else echo "$p"; fi
}

# res DEF [ARGS...]: create DEF's portable overlay, resolve it (ARGS: resolve's); the output in $R.
res() {
	local def=$1 part
	shift
	part=$(sed -n 's/.*part-number *= *"\([^"]*\)".*/\1/p' "$def")
	rm -rf "$BATS_TEST_TMPDIR/o"
	"$CAPETOOL_RELEASE" create --force "$def" --board beaglebone-black -o "$BATS_TEST_TMPDIR/o/" >/dev/null 2>&1
	R=$BATS_TEST_TMPDIR/o/$part.resolved.dtbo
	run ct resolve -b beaglebone-black -c "$def" "$@" "$(ls "$BATS_TEST_TMPDIR"/o/"$part"-*.dtbo)" -o "$R"
	echo "$output"
}

@test "resolve for the stock tree: BB-PWM1, BB-PWM0, LCD4's backlight and BBORG_MOTOR enable their epwmss, and the applied tree has them on (defect: the PWM never started)" {
	need_stock
	for c in "$DEFS/bone/bb-pwm1.cape:epwmss1:ehrpwm1" "$DEFS/bone/bb-pwm0.cape:epwmss0:ehrpwm0" \
		 "$DEFS/bone/hdmi-pins/bb-bone-lcd4-01.cape:epwmss1:ehrpwm1" \
		 "$DEFS/bone/bborg-motor.cape:epwmss1:ehrpwm1" "$DEFS/bone/bborg-motor.cape:epwmss2:ehrpwm2"; do
		IFS=: read -r def parent unit <<< "$c"
		[ "$(stock "$parent" status)" = disabled ]
		res "$def" --variant no-hdmi
		no_sanitizer_report
		[ "$status" -eq 0 ]
		msg=$output
		run fdtoverlay -i "$STOCK" -o "$BATS_TEST_TMPDIR/a.dtb" "$R"
		[ "$status" -eq 0 ] || { echo "$output"; false; }
		[ "$(stock "$unit" status "$BATS_TEST_TMPDIR/a.dtb")" = okay ]
		[ "$(stock "$parent" status "$BATS_TEST_TMPDIR/a.dtb")" = okay ]
		[[ "$msg" == *"$parent: enabled for $unit (disabled in board beaglebone-black's stock tree)"* ]]
	done
}

@test "resolve for the stock tree: the ADC gets the cape's AIN pins as ti,adc-channels (defect: \"Need at least one channel\")" {
	need_stock
	run stock am335x_adc ti,adc-channels
	[ "$status" -ne 0 ]
	res "$DEFS/bone/bb-adc.cape"
	no_sanitizer_report
	[ "$status" -eq 0 ]
	msg=$output
	fdtoverlay -i "$STOCK" -o "$BATS_TEST_TMPDIR/a.dtb" "$R"
	[ "$(stock tscadc status "$BATS_TEST_TMPDIR/a.dtb")" = okay ]
	[ "$(stock am335x_adc ti,adc-channels "$BATS_TEST_TMPDIR/a.dtb")" = "0 1 2 3 4 5 6" ]
	[[ "$msg" == *"am335x_adc: ti,adc-channels for tscadc (adc) (board beaglebone-black's stock tree lists none)"* ]]
}

@test "resolve --dtb reads the user's tree: nothing added where it has the parents and channels, a parent without a label by its path, a label it lacks named (exit 16), a tree without __symbols__ refused (16)" {
	need_stock
	# the tree with the parents on and the ADC's channels: nothing to add
	cp "$STOCK" "$BATS_TEST_TMPDIR/on.dtb"
	fdtput -t s "$BATS_TEST_TMPDIR/on.dtb" "$(stock epwmss1)" status okay
	fdtput -t u "$BATS_TEST_TMPDIR/on.dtb" "$(stock am335x_adc)" ti,adc-channels 0 1 2 3 4 5 6
	res "$DEFS/bone/bb-pwm1.cape" --dtb "$BATS_TEST_TMPDIR/on.dtb"
	[ "$status" -eq 0 ]
	[[ "$output" != *epwmss1* ]]
	run fdtget "$R" /__fixups__ epwmss1
	[ "$status" -ne 0 ]
	res "$DEFS/bone/bb-adc.cape" --dtb "$BATS_TEST_TMPDIR/on.dtb"
	[ "$status" -eq 0 ]
	[[ "$output" != *adc-channels* ]]
	# the stock tree read from the file: as the profile says
	res "$DEFS/bone/bb-pwm1.cape" --dtb "$STOCK"
	[ "$status" -eq 0 ]
	[[ "$output" == *"epwmss1: enabled for ehrpwm1 (disabled in $STOCK)"* ]]
	# a disabled parent with no label: by its path
	cp "$STOCK" "$BATS_TEST_TMPDIR/nolabel.dtb"
	fdtput -d "$BATS_TEST_TMPDIR/nolabel.dtb" /__symbols__ epwmss1
	res "$DEFS/bone/bb-pwm1.cape" --dtb "$BATS_TEST_TMPDIR/nolabel.dtb"
	[ "$status" -eq 0 ]
	[[ "$output" == *"$(stock epwmss1): enabled for ehrpwm1"* ]]
	fdtoverlay -i "$BATS_TEST_TMPDIR/nolabel.dtb" -o "$BATS_TEST_TMPDIR/a.dtb" "$R"
	[ "$(stock epwmss1 status "$BATS_TEST_TMPDIR/a.dtb")" = okay ]
	# a label the cape needs that the tree lacks: named, nothing written
	cp "$STOCK" "$BATS_TEST_TMPDIR/noehr.dtb"
	fdtput -d "$BATS_TEST_TMPDIR/noehr.dtb" /__symbols__ ehrpwm1
	res "$DEFS/bone/bb-pwm1.cape" --dtb "$BATS_TEST_TMPDIR/noehr.dtb"
	no_sanitizer_report
	[ "$status" -eq 16 ]
	[[ "$output" == *"needs the node labelled ehrpwm1, which $BATS_TEST_TMPDIR/noehr.dtb does not have"* ]]
	[ ! -e "$R" ]
	res "$DEFS/bone/bb-pwm1.cape" --dtb "$BATS_FILE_TMPDIR/nosym.dtb"
	[ "$status" -eq 16 ]
	[[ "$output" == *"nosym.dtb: no __symbols__ node: the tree was built without dtc -@"* ]]
	res "$DEFS/bone/bb-pwm1.cape" --dtb "$BATS_TEST_TMPDIR/missing.dtb"
	[ "$status" -eq 4 ]
	res "$DEFS/bone/bb-pwm1.cape" --dtb "$DEFS/bone/bb-pwm1.cape"
	[ "$status" -eq 3 ]
	[[ "$output" == *"not a valid device tree blob"* ]]
}

@test "check runs the kernel's rules as resolve does: a hatch node with 33 properties is refused by check, create and resolve alike (exit 3)" {
	cd "$BATS_TEST_TMPDIR"
	{ printf '/dts-v1/;\n/plugin/;\n&bone_i2c_1 { #address-cells = <1>; #size-cells = <0>; status = "okay"; rtc@68 { compatible = "dallas,ds1307"; reg = <0x68>;'
	  for i in $(seq 1 32); do printf ' p%d = <%d>;' "$i" "$i"; done
	  printf ' }; };\n'; } > many.dtso
	cat > many.cape <<'D'
eeprom = { board-name = "M"; version = "00A0"; manufacturer = "M"; part-number = "MANY"; };
pins = ( { pin = "P9.17"; mode = "i2c1_scl"; direction = "in"; pull = "up"; }, { pin = "P9.18"; mode = "i2c1_sda"; direction = "in"; pull = "up"; } );
overlay = "many.dtso";
D
	run ct check -b beaglebone-black many.cape
	echo "$output"
	no_sanitizer_report
	[ "$status" -eq 3 ]
	[[ "$output" == *"many.cape:3: overlay ./many.dtso: the kernel refuses this overlay (capebus-fdt.c, against board beaglebone-black's exports): node rtc@68 has more than 32 properties"* ]]
	run ct create -b beaglebone-black many.cape -o out/
	[ "$status" -eq 3 ]
	[ ! -e out ]
}

@test "check --dtb: real capes resolved for the stock tree and applied together pass (exit 0), and the applied capes' units are on" {
	need_stock
	run ct check -b beaglebone-black --variant no-hdmi --dtb "$STOCK" "$DEFS/bone/bb-pwm1.cape" "$DEFS/bone/bb-adc.cape" \
		"$DEFS/bone/bb-pwm0.cape" "$DEFS/bone/bb-i2c1-rtc-ds3231.cape"
	echo "$output"
	no_sanitizer_report
	[ "$status" -eq 0 ]
	[[ "$output" == *"bb-i2c1-rtc-ds3231.cape: ok: BB-I2C1-DS3231-00A0 in slot 3"*"applied to $STOCK)"* ]]
	[[ "$output" == *"epwmss1: enabled for ehrpwm1 (disabled in $STOCK)"* ]]
	[[ "$output" == *"am335x_adc: ti,adc-channels for tscadc (adc) ($STOCK lists none)"* ]]
	run ct check -b beaglebone-black --dtb "$STOCK" "$DEFS/bone/bborg-motor.cape" "$DEFS/bone/bb-adc.cape" \
		"$DEFS/bone/bb-pwm0.cape"
	echo "$output"
	[ "$status" -eq 0 ]
	[[ "$output" == *"epwmss2: enabled for ehrpwm2 (disabled in $STOCK)"* ]]
	[[ "$output" == *"bb-pwm0.cape: ok: BB-PWM0-00A0 in slot 2"* ]]
}

@test "check --dtb knows the tree's own pin groups: a cape on pins the stock tree's HDMI framer or eMMC muxes is refused naming the device, whatever --variant says (5); with the device off in the tree it passes" {
	need_stock
	cd "$BATS_TEST_TMPDIR"
	# --variant no-hdmi says the framer is off; the stock tree has it on
	run ct check -b beaglebone-black --variant no-hdmi --dtb "$STOCK" "$DEFS/bone/hdmi-pins/bb-bone-lcd4-01.cape"
	echo "$output"
	no_sanitizer_report
	[ "$status" -eq 5 ]
	[[ "$output" == *"bb-bone-lcd4-01.cape: $STOCK: BB-BONE-LCD4-01's pins P8.45, P8.46, "*" are muxed by tda19988 ($(stock tda19988), pinctrl-0: nxp-hdmi-bonelt-pins), enabled in the tree"* ]]
	[[ "$output" != *"ok: BB-BONE-LCD4-01"* ]]
	# the tree with the framer off
	cp "$STOCK" nohdmi.dtb
	fdtput -t s nohdmi.dtb "$(stock tda19988)" status disabled
	run ct check -b beaglebone-black --variant no-hdmi --dtb nohdmi.dtb "$DEFS/bone/hdmi-pins/bb-bone-lcd4-01.cape"
	echo "$output"
	[ "$status" -eq 0 ]
	[[ "$output" == *"ok: BB-BONE-LCD4-01-00A1 in slot 0"*"applied to nohdmi.dtb)"* ]]
	# the eMMC: mmc2's pin group, after a cape that fits
	cat > emmc.cape <<D
eeprom = { board-name = "E"; version = "00A0"; manufacturer = "M"; part-number = "EMMC-LED"; };
pins = ( { pin = "P8.3"; mode = "gpio"; direction = "out"; } );
devices = ( { type = "led"; label = "e:led"; pin = "P8.3"; } );
D
	run ct check -b beaglebone-black --variant no-emmc --dtb "$STOCK" "$DEFS/bone/bb-pwm1.cape" emmc.cape
	echo "$output"
	[ "$status" -eq 5 ]
	[[ "$output" == *"bb-pwm1.cape: ok"* ]]
	[[ "$output" == *"emmc.cape: $STOCK: EMMC-LED's pin P8.3 is muxed by mmc2 ($(stock mmc2), pinctrl-0: emmc-pins), enabled in the tree"* ]]
	# the cape bus's shared pins (i2c2, which the stock tree muxes) stay the capes'
	grep -q 'pin = "P9.19"' "$DEFS/weather.cape"
	run ct check -b beaglebone-black --dtb "$STOCK" "$DEFS/weather.cape"
	echo "$output"
	[ "$status" -eq 0 ]
}

@test "check --dtb says what would fail and why: an address the tree holds (5), an ADC input a later cape's overlay drops (5), pins between capes (5), a tree without symbols or a label (16), usage (2)" {
	need_stock
	cd "$BATS_TEST_TMPDIR"
	# the user's tree has its own RTC at i2c1 0x68
	cp "$STOCK" rtc.dtb
	fdtput -c rtc.dtb "$(stock i2c1)/rtc@68"
	run ct check -b beaglebone-black --dtb rtc.dtb "$DEFS/bone/bb-i2c1-rtc-ds3231.cape"
	echo "$output"
	no_sanitizer_report
	[ "$status" -eq 5 ]
	[[ "$output" == *"rtc.dtb: BB-I2C1-DS3231's $(stock i2c1)/ds3231@68 is at the address of $(stock i2c1)/rtc@68, the tree's own"* ]]
	# two capes on the ADC: each resolved overlay lists its own inputs
	for a in 0:P9.39 1:P9.40; do
		cat > "ain${a%%:*}.cape" <<D
eeprom = { board-name = "A"; version = "00A0"; manufacturer = "M"; part-number = "AIN${a%%:*}"; };
pins = ( { pin = "${a#*:}"; } );
devices = ( { type = "adc"; } );
D
	done
	run ct check -b beaglebone-black --dtb "$STOCK" ain0.cape ain1.cape
	echo "$output"
	[ "$status" -eq 5 ]
	[[ "$output" == *"ain1.cape: $STOCK: AIN0 of AIN0 is not in the ADC's ti,adc-channels once AIN1's overlay is applied"* ]]
	# conflicting pins between capes, as check says them
	run ct check -b beaglebone-black --dtb "$STOCK" "$DEFS/bone/bb-adc.cape" ain0.cape
	[ "$status" -eq 5 ]
	[[ "$output" == *"ain0.cape: pin P9.39 is held by BB-ADC (slot 0)"* ]]
	# a label the cape needs, missing from the tree
	cp "$STOCK" noehr.dtb
	fdtput -d noehr.dtb /__symbols__ ehrpwm1
	run ct check -b beaglebone-black --dtb noehr.dtb "$DEFS/bone/bb-pwm1.cape" "$DEFS/bone/bb-pwm0.cape"
	echo "$output"
	[ "$status" -eq 16 ]
	[[ "$output" == *"needs the node labelled ehrpwm1, which noehr.dtb does not have"* ]]
	[[ "$output" == *"bb-pwm0.cape: ok"* ]]
	run ct check -b beaglebone-black --dtb "$BATS_FILE_TMPDIR/nosym.dtb" "$DEFS/bone/bb-pwm1.cape"
	[ "$status" -eq 16 ]
	run ct check -b beaglebone-black --dtb missing.dtb "$DEFS/bone/bb-pwm1.cape"
	[ "$status" -eq 4 ]
	run ct check --board rpi --dtb "$STOCK" "$TOP/cape-defs/hats/led-hat.txt"
	[ "$status" -eq 2 ]
	[[ "$output" == *"--dtb: a Raspberry Pi header has no resolve"* ]]
}

@test "check --dtb and resolve --dtb refuse a tree older than version 17 (exit 3), not crash in libfdt (red team 14 F5: SIGSEGV, exit 139)" {
	need_stock
	cd "$BATS_TEST_TMPDIR"
	# the header's version and last_comp_version set to 3, as the red team's fuzzer found it
	python3 -c "
b = bytearray(open('$STOCK', 'rb').read())
b[0x14:0x18] = (3).to_bytes(4, 'big'); b[0x18:0x1c] = (3).to_bytes(4, 'big')
open('v3.dtb', 'wb').write(b)"
	run ct check -b beaglebone-black --variant no-hdmi --dtb v3.dtb "$DEFS/bone/bb-pwm1.cape"
	echo "$output"
	no_sanitizer_report
	[ "$status" -eq 3 ]
	[[ "$output" == *"v3.dtb: not a valid device tree blob"* ]]
	res "$DEFS/bone/bb-pwm1.cape" --variant no-hdmi --dtb v3.dtb
	no_sanitizer_report
	[ "$status" -eq 3 ]
	[[ "$output" == *"v3.dtb: not a valid device tree blob"* ]]
}
