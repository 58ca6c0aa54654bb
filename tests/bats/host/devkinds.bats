#!/usr/bin/env bats
# The device kinds that enable a unit behind the header (capetool/devkinds.c):
# pwm, adc, can, rs485, lcd, audio.  What each puts in the portable overlay
# and in the one resolved for the Black, and what each refuses, saying why.

load helpers

# the Black with its HDMI framer off: its LCD and McASP pins the capes'
NOHDMI=(--board beaglebone-black --variant no-hdmi)

EEPROM='eeprom = { board-name = "Kind test"; version = "00A0"; manufacturer = "Example Labs"; part-number = "EXL-KIND-01"; };'

# kinddef PINS DEVICES: a definition with those pins and devices
kinddef() {
	mkdef kind.cape <<EOF
$EEPROM
pins = ( $1 );
devices = ( $2 );
EOF
}

# portable DEF [BOARD OPTIONS...]: create it (default --board
# beaglebone-black), print the .dtbo
portable() {
	local def=$1
	shift
	[ $# -gt 0 ] || set -- --board beaglebone-black
	rm -rf "$BATS_TEST_TMPDIR/out"
	ct create "$def" "$@" -o "$BATS_TEST_TMPDIR/out" >/dev/null || return
	ls "$BATS_TEST_TMPDIR"/out/*.dtbo
}

# errs ARGS...: capetool's standard error alone in $output, its exit status
# in $status (run's $output has its standard output too, and the verdict
# line can land inside a message line there)
errs() {
	status=0
	output=$(ct "$@" 2>&1 >/dev/null) || status=$?
}

# frag DTBO LABEL: the __overlay__ path of the (last) fragment whose target is LABEL
# (an escape hatch's fragments come first)
frag() {
	echo "$(fdtget "$1" /__fixups__ "$2" | tr ' ' '\n' | grep ':target:0$' | tail -n 1 | sed 's|:target:0$||')/__overlay__"
}

@test "pwm: the unit on by the connector's name; resolved, the unit references its pins" {
	d=$(kinddef '{ pin = "P9.14"; mode = "ehrpwm1a"; direction = "out"; pull = "down"; }' \
		'{ type = "pwm"; unit = "ehrpwm1"; }')
	o=$(portable "$d")
	[ "$(fdtget "$o" "$(frag "$o" bone_pwm_1)" status)" = okay ]
	r=$(resolved "$d" "$BATS_TEST_TMPDIR/r")
	f=$(frag "$r" ehrpwm1)
	[ "$(fdtget "$r" "$f" status)" = okay ]
	[ "$(fdtget "$r" "$f" pinctrl-names)" = default ]
	pm=$(frag "$r" am33xx_pinmux)
	[ "$(fdtget -t x "$r" "$pm/exl-kind-01-ehrpwm1-pins" pinctrl-single,pins)" = "48 0 6" ]
	# the ecap: P9.42, mode 0
	d=$(kinddef '{ pin = "P9.42"; mode = 0; direction = "out"; }' '{ type = "pwm"; unit = "ecap0"; }')
	o=$(portable "$d")
	[ "$(fdtget "$o" "$(frag "$o" bone_ecap_0)" status)" = okay ]
}

@test "pwm: refused without one of the unit's outputs muxed, or for a unit the board has not, saying which" {
	d=$(kinddef '{ pin = "P9.14"; mode = "gpio"; direction = "out"; }' '{ type = "pwm"; unit = "ehrpwm1"; }')
	run ct check --board beaglebone-black "$d"
	[ "$status" -eq 3 ]
	[[ $output == *"PWM unit ehrpwm1: no pin of pins is muxed as one of its outputs (P9.14 mode 6 (ehrpwm1a), P9.16 mode 6 (ehrpwm1b)"* ]]
	run ct create "$d" --board beaglebone-black -o "$BATS_TEST_TMPDIR/x"
	[ "$status" -eq 3 ]
	d=$(kinddef '{ pin = "P9.14"; mode = 6; direction = "out"; }' '{ type = "pwm"; unit = "ehrpwm7"; }')
	run ct check --board beaglebone-black "$d"
	[ "$status" -eq 3 ]
	[[ $output == *'board beaglebone-black has no pwm bus "ehrpwm7" (it has: ehrpwm0, ehrpwm1, ehrpwm2, ecap0, ecap2)'* ]]
	d=$(kinddef '{ pin = "P9.14"; mode = 6; direction = "out"; }' '{ type = "pwm"; }')
	run ct check --board beaglebone-black "$d"
	[ "$status" -eq 3 ]
	[[ $output == *"devices[0].unit: required key missing"* ]]
}

@test "adc: the ADC unit on; its channels must be analog inputs the cape lists" {
	d=$(kinddef '{ pin = "P9.39"; }, { pin = "P9.40"; }' '{ type = "adc"; }')
	o=$(portable "$d")
	[ "$(fdtget "$o" "$(frag "$o" bone_adc)" status)" = okay ]
	d=$(kinddef '{ pin = "P9.39"; }' '{ type = "adc"; channels = [0, 4]; }')
	run ct check --board beaglebone-black "$d"
	[ "$status" -eq 3 ]
	[[ $output == *"devices[0].channels: AIN4 (P9.33) is not listed in pins"* ]]
	d=$(kinddef '{ pin = "P9.14"; mode = 7; direction = "out"; }' '{ type = "adc"; }')
	run ct check --board beaglebone-black "$d"
	[ "$status" -eq 3 ]
	[[ $output == *"an ADC needs its analog inputs (AIN0-AIN6, P9.33-P9.40) in pins"* ]]
	d=$(kinddef '{ pin = "P9.39"; }' '{ type = "adc"; channels = [0, 9]; }')
	run ct check --board beaglebone-black "$d"
	[ "$status" -eq 3 ]
	[[ $output == *"devices[0].channels: 9 is out of range (0 to 6)"* ]]
}

@test "can: dcan1 on with its pins; refused when they are not muxed as d_can1" {
	d=$(kinddef '{ pin = "P9.24"; mode = 2; direction = "in"; pull = "up"; }, { pin = "P9.26"; mode = 2; direction = "out"; pull = "up"; }' \
		'{ type = "can"; bus = "can1"; }')
	o=$(portable "$d")
	[ "$(fdtget "$o" "$(frag "$o" bone_can_1)" status)" = okay ]
	r=$(resolved "$d" "$BATS_TEST_TMPDIR/r")
	[ "$(fdtget -t x "$r" "$(frag "$r" am33xx_pinmux)/exl-kind-01-can1-pins" pinctrl-single,pins)" = "184 30 2 180 10 2" ]
	d=$(kinddef '{ pin = "P9.24"; mode = 0; direction = "out"; }, { pin = "P9.26"; mode = 2; direction = "out"; }' \
		'{ type = "can"; bus = "can1"; }')
	run ct check --board beaglebone-black "$d"
	[ "$status" -eq 3 ]
	[[ $output == *"can1 needs P9.24 muxed mode 2 (dcan1_rx); pins has it in mode 0"* ]]
}

@test "can: CAN0 (BB-CAN0) is refused, in a definition or an escape hatch: its pins are I2C2, the cape EEPROM bus the board keeps" {
	# bb.org's BB-CAN0: dcan0 on P9.19 (d_can0_rx) and P9.20 (d_can0_tx), mode 2
	d=$(kinddef '{ pin = "P9.19"; mode = "d_can0_rx"; direction = "in"; pull = "up"; }, { pin = "P9.20"; mode = "d_can0_tx"; direction = "out"; pull = "up"; }' \
		'{ type = "can"; bus = "can0"; }')
	why="can0 (dcan0) needs P9.19 (dcan0_rx, mode 2) and P9.20 (dcan0_tx, mode 2), which are the board's i2c2 (i2c2_scl, i2c2_sda): the shared cape bus, where the cape ID EEPROMs answer (0x54-0x57); muxed for can0, no cape's EEPROM could be read, and no --variant gives them away: use can1 (P9.24, P9.26)"
	for v in "" no-hdmi,no-emmc; do
		errs check --board beaglebone-black ${v:+--variant $v} "$d"
		no_sanitizer_report
		[ "$status" -eq 3 ] || { echo "$output"; return 1; }
		[[ $output == *"kind.cape:3: devices: $why"* ]] || { echo "$output"; return 1; }
		[[ $output != *'no can bus "can0"'* ]]
	done
	run ct create "$d" --board beaglebone-black -o "$BATS_TEST_TMPDIR/o"
	[ "$status" -eq 3 ]
	[[ $output == *"$why"* ]]
	# a board file with a second unit on those pins: named by neither's message
	sed 's/^  # dcan1 (bone bus/  { name = "can9"; label = "dcan9"; type = "can"; pins = ["P9.19", "P9.20"];\n    mux = ( { pin = "P9.19"; mode = 2; signal = "dcan9_rx"; rx = true; required = true; },\n            { pin = "P9.20"; mode = 2; signal = "dcan9_tx"; required = true; } ); },\n&/' \
		"$TOP/schemas/boards/beaglebone-black.board" > "$BATS_TEST_TMPDIR/two.board"
	grep -q dcan9_tx "$BATS_TEST_TMPDIR/two.board"
	errs check --board "$BATS_TEST_TMPDIR/two.board" "$d"
	no_sanitizer_report
	[ "$status" -eq 3 ]
	[[ $output == *"kind.cape:3: devices: $why"* ]] || { echo "$output"; return 1; }
	# the same through an escape hatch that enables the connector's bone_can_0
	cat > "$BATS_TEST_TMPDIR/can0.dtso" <<'EOF'
/dts-v1/;
/plugin/;
&bone_can_0 { status = "okay"; };
EOF
	mkdef hatch.cape <<EOF
$EEPROM
pins = ( { pin = "P9.19"; mode = 2; direction = "in"; }, { pin = "P9.20"; mode = 2; direction = "out"; } );
overlay = "can0.dtso";
EOF
	errs check --board beaglebone-black "$BATS_TEST_TMPDIR/hatch.cape"
	no_sanitizer_report
	[ "$status" -eq 3 ]
	[[ $output == *"hatch.cape:3: overlay "*"can0.dtso: fragment@0 enables can0 (bone_can_0), which needs P9.19 (dcan0_rx, mode 2) and P9.20 (dcan0_tx, mode 2), which are the board's i2c2"* ]] ||
		{ echo "$output"; return 1; }
}

@test "rs485: the UART on with the serial core's RS-485 properties and the DE GPIO through the connector" {
	d=$DEFS/bone/board-props/bb-uart4-rs485.cape
	o=$(portable "$d")
	f=$(frag "$o" bone_uart_4)
	[ "$(fdtget "$o" "$f" status)" = okay ]
	[ "$(fdtget "$o" "$f" rs485-rts-delay)" = "0 0" ]
	fdtget "$o" "$f" linux,rs485-enabled-at-boot-time >/dev/null
	[ "$(fdtget "$o" "$f" rts-gpios)" = "-1 927 0" ]
	r=$(resolved "$d" "$BATS_TEST_TMPDIR/r")
	f=$(frag "$r" uart4)
	[ "$(fdtget -t x "$r" "$f" rts-gpios)" = "ffffffff 13 0" ]
	[ "$(fdtget "$r" /__fixups__ gpio3)" = "$f:rts-gpios:0" ]
}

@test "rs485: the DE pin must be listed, muxed as a GPIO and an output" {
	pins='{ pin = "P9.13"; mode = 6; direction = "out"; }, { pin = "P9.11"; mode = 6; direction = "in"; }'
	d=$(kinddef "$pins" '{ type = "rs485"; bus = "uart4"; de-pin = "P9.27"; }')
	run ct check --board beaglebone-black "$d"
	[ "$status" -eq 3 ]
	[[ $output == *"devices[0].de-pin: P9.27 is not listed in pins"* ]]
	d=$(kinddef "$pins"', { pin = "P9.27"; mode = 0; direction = "out"; }' '{ type = "rs485"; bus = "uart4"; de-pin = "P9.27"; }')
	run ct check --board beaglebone-black "$d"
	[ "$status" -eq 3 ]
	[[ $output == *"the RS-485 driver enable needs P9.27 muxed as a GPIO, mode 7 (gpio3_19); pins has it in mode 0 (mcasp0_fsr"* ]]
	d=$(kinddef "$pins"', { pin = "P9.27"; mode = 7; direction = "in"; }' '{ type = "rs485"; bus = "uart4"; de-pin = "P9.27"; delay = [1]; }')
	run ct check --board beaglebone-black "$d"
	[ "$status" -eq 3 ]
	[[ $output == *"the RS-485 driver enable drives P9.27, but pins sets it as an input"* ]]
	[[ $output == *"devices[0].delay: two values: [before-send, after-send] in ms"* ]]
}

@test "lcd: the LCD controller, a tilcdc panel with its timing and a PWM backlight; the Black's HDMI pins refuse it, naming them" {
	d=$DEFS/bone/hdmi-pins/bb-bone-lcd4-01.cape
	run ct check --board beaglebone-black "$d"
	[ "$status" -eq 5 ]
	[[ $output == *"pin P8.45 is held by the board"* ]]
	run ct create "$d" --board beaglebone-black -o "$BATS_TEST_TMPDIR/x"
	[ "$status" -eq 5 ]
	o=$(portable "$d" "${NOHDMI[@]}")
	[ "$(fdtget "$o" "$(frag "$o" bone_lcdc)" status)" = okay ]
	[ "$(fdtget "$o" "$(frag "$o" bone_pwm_1)" status)" = okay ]
	dev=$(frag "$o" bone_devices)
	p=$dev/bb-bone-lcd4-01-panel
	[ "$(fdtget "$o" "$p" compatible)" = ti,tilcdc,panel ]
	[ "$(fdtget "$o" "$p/panel-info" bpp)" = 16 ]
	[ "$(fdtget "$o" "$p/display-timings/timing-480x272" clock-frequency)" = 9200000 ]
	[ "$(fdtget "$o" "$p/display-timings" native-mode)" = "$(fdtget "$o" "$p/display-timings/timing-480x272" phandle)" ]
	bl=$dev/bb-bone-lcd4-01-backlight
	[ "$(fdtget "$o" "$p" backlight)" = "$(fdtget "$o" "$bl" phandle)" ]
	[ "$(fdtget "$o" "$bl" compatible)" = pwm-backlight ]
	[ "$(fdtget "$o" "$bl" pwms)" = "-1 0 500000 0" ]
	[[ "$(fdtget "$o" /__fixups__ bone_pwm_1)" == *"bb-bone-lcd4-01-backlight:pwms:0"* ]]
	[ "$(fdtget "$o" "$bl" default-brightness-level)" = 100 ]
	[ "$(fdtget "$o" "$bl" brightness-levels | wc -w)" = 101 ]
}

@test "lcd: refused without the LCD pins in mode 0 or a full timing, saying which" {
	d=$(kinddef '{ pin = "P8.45"; mode = 0; direction = "out"; }' \
		'{ type = "lcd"; timings = { clock-frequency = 9200000; hactive = 480; vactive = 272; }; }')
	run ct check "${NOHDMI[@]}" "$d"
	[ "$status" -eq 3 ]
	[[ $output == *"devices[0].timings.hfront-porch: required key missing"* ]]
	sed -i 's/vactive = 272;/vactive = 272; hfront-porch = 8; hback-porch = 47; hsync-len = 41; vback-porch = 2; vfront-porch = 3; vsync-len = 10; hsync-active = 0; vsync-active = 0; de-active = 1; pixelclk-active = 0;/' "$d"
	run ct check "${NOHDMI[@]}" "$d"
	[ "$status" -eq 3 ]
	[[ $output == *"lcdc needs P8.46 muxed mode 0 (lcd_data1); it is not in pins"* ]]
	[[ $output == *"lcdc needs P8.28 muxed mode 0 (lcd_pclk); it is not in pins"* ]]
	[[ $output != *"P8.45 muxed"* ]]
}

@test "lcd: a panel that states no de-active or pixelclk-active (real panels omit them) is built without them" {
	d=$BATS_TEST_TMPDIR/nodeflags.cape
	sed 's/ de-active = 1; pixelclk-active = 0;//' "$DEFS/bone/hdmi-pins/bb-bone-lcd4-01.cape" > "$d"
	! grep -q de-active "$d"
	cp "$DEFS/bone/hdmi-pins/bb-bone-lcd4-01.dtso" "$BATS_TEST_TMPDIR/"
	o=$(portable "$d" "${NOHDMI[@]}")
	t=$(frag "$o" bone_devices)/bb-bone-lcd4-01-panel/display-timings/timing-480x272
	[ "$(fdtget "$o" "$t" hsync-active)" = 0 ]
	[ "$(fdtget "$o" "$t" vsync-len)" = 10 ]
	run fdtget "$o" "$t" de-active
	[ "$status" -ne 0 ]
	run fdtget "$o" "$t" pixelclk-active
	[ "$status" -ne 0 ]
	# stated, they are written
	o=$(portable "$DEFS/bone/hdmi-pins/bb-bone-lcd4-01.cape" "${NOHDMI[@]}")
	t=$(frag "$o" bone_devices)/bb-bone-lcd4-01-panel/display-timings/timing-480x272
	[ "$(fdtget "$o" "$t" de-active)" = 1 ]
	[ "$(fdtget "$o" "$t" pixelclk-active)" = 0 ]
}

@test "lcd: the backlight's levels are used and checked, and default-level is an index into them" {
	d=$BATS_TEST_TMPDIR/bl.cape
	sed 's/default-level = 100;/levels = [0, 10, 50, 255]; default-level = 2;/' \
		"$DEFS/bone/hdmi-pins/bb-bone-lcd4-01.cape" > "$d"
	grep -q 'levels = \[0, 10, 50, 255\]' "$d"
	cp "$DEFS/bone/hdmi-pins/bb-bone-lcd4-01.dtso" "$BATS_TEST_TMPDIR/"
	o=$(portable "$d" "${NOHDMI[@]}")
	bl=$(frag "$o" bone_devices)/bb-bone-lcd4-01-backlight
	[ "$(fdtget "$o" "$bl" brightness-levels)" = "0 10 50 255" ]
	[ "$(fdtget "$o" "$bl" default-brightness-level)" = 2 ]
	# a default past the last level, a negative level, an empty list
	sed -i 's/default-level = 2;/default-level = 7;/' "$d"
	run ct check "${NOHDMI[@]}" "$d"
	[ "$status" -eq 3 ]
	[[ $output == *"bl.cape:"[0-9]*": devices[0].backlight.default-level: 7 is past the last of 4 levels"* ]]
	sed -i 's/levels = \[0, 10, 50, 255\]; default-level = 7;/levels = [100, 0, -5];/' "$d"
	run ct check "${NOHDMI[@]}" "$d"
	[ "$status" -eq 3 ]
	[[ $output == *"devices[0].backlight.levels: -5 is out of range"* ]]
	sed -i 's/levels = \[100, 0, -5\];/levels = [];/' "$d"
	run ct check "${NOHDMI[@]}" "$d"
	[ "$status" -eq 3 ]
	[[ $output == *"devices[0].backlight.levels: an empty list"* ]]
}

@test "lcd: a backlight on a PWM channel whose output pins does not mux is refused (channel 1, only ehrpwm1a muxed)" {
	d=$BATS_TEST_TMPDIR/bl1.cape
	sed 's/channel = 0;/channel = 1;/' "$DEFS/bone/hdmi-pins/bb-bone-lcd4-01.cape" > "$d"
	cp "$DEFS/bone/hdmi-pins/bb-bone-lcd4-01.dtso" "$BATS_TEST_TMPDIR/"
	run ct check "${NOHDMI[@]}" "$d"
	echo "$output"
	no_sanitizer_report
	[ "$status" -eq 3 ]
	[[ "$output" == *"PWM unit ehrpwm1 channel 1: no pin of pins is muxed as its output (P9.16 mode 6 (ehrpwm1b), P8.34 mode 2 (ehrpwm1b))"* ]]
	run ct check "${NOHDMI[@]}" "$DEFS/bone/hdmi-pins/bb-bone-lcd4-01.cape"
	[ "$status" -eq 0 ]
}

@test "pwm: ecap2 (P9.28 mode 4) is a unit, HDMI audio's on the Black, the capes' under --variant no-hdmi; a bad backlight.pwm is said at its line (user test 26, defect 10)" {
	d=$(kinddef '{ pin = "P9.28"; mode = "ecap2_in_pwm2_out"; direction = "out"; pull = "down"; }' \
		'{ type = "pwm"; unit = "ecap2"; }')
	run ct check --board beaglebone-black "$d"
	echo "$output"
	no_sanitizer_report
	[ "$status" -eq 5 ]
	[[ $output == *"pin P9.28 is held by the board (HDMI audio data; --variant no-hdmi gives it to capes)"* ]]
	run ct check "${NOHDMI[@]}" "$d"
	echo "$output"
	[ "$status" -eq 0 ]
	o=$(portable "$d" "${NOHDMI[@]}")
	[ "$(fdtget "$o" "$(frag "$o" bone_ecap_2)" status)" = okay ]
	ct resolve "${NOHDMI[@]}" --cape "$d" "$o" -o "$BATS_TEST_TMPDIR/r.dtbo" >/dev/null
	r=$BATS_TEST_TMPDIR/r.dtbo
	[ "$(fdtget "$r" "$(frag "$r" ecap2)" status)" = okay ]
	[ "$(fdtget -t x "$r" "$(frag "$r" am33xx_pinmux)/exl-kind-01-ecap2-pins" pinctrl-single,pins)" = "19c 0 4" ]
	# BB-CAPE-DISP-CT4's backlight: an LCD's pwm-backlight on ecap2
	bl=$BATS_TEST_TMPDIR/bl2.cape
	sed -e 's/{ pin = "P9.14"; mode = 6; direction = "out"; pull = "down"; },  # ehrpwm1a/{ pin = "P9.28"; mode = 4; direction = "out"; pull = "down"; },/' \
	    -e 's/backlight = { pwm = "ehrpwm1";/backlight = { pwm = "ecap2";/' \
		"$DEFS/bone/hdmi-pins/bb-bone-lcd4-01.cape" > "$bl"
	cp "$DEFS/bone/hdmi-pins/bb-bone-lcd4-01.dtso" "$BATS_TEST_TMPDIR/"
	grep -q 'pwm = "ecap2"' "$bl"
	o=$(portable "$bl" "${NOHDMI[@]}")
	[ "$(fdtget "$o" "$(frag "$o" bone_ecap_2)" status)" = okay ]
	[[ "$(fdtget "$o" /__fixups__ bone_ecap_2)" == *"bb-bone-lcd4-01-backlight:pwms:0"* ]]
	# a unit the board has not: at backlight.pwm's line, not the device's
	line=$(grep -n 'backlight = { pwm' "$bl" | cut -d: -f1)
	sed -i 's/pwm = "ecap2"/pwm = "ecap7"/' "$bl"
	run ct check "${NOHDMI[@]}" "$bl"
	echo "$output"
	[ "$status" -eq 3 ]
	[[ $output == *"bl2.cape:$line: devices[0].backlight.pwm: board beaglebone-black has no pwm bus \"ecap7\" (it has: ehrpwm0, ehrpwm1, ehrpwm2, ecap0, ecap2)"* ]]
}

@test "audio: McASP on, the cape's codec a DAI, its crystal a clock, a simple-audio-card between them" {
	d=$DEFS/bone/hdmi-pins/bb-bone-audi-02.cape
	run ct check --board beaglebone-black "$d"
	[ "$status" -eq 5 ]
	[[ $output == *"pin P9.31 is held by the board"* ]]
	o=$(portable "$d" "${NOHDMI[@]}")
	[ "$(fdtget "$o" "$(frag "$o" bone_mcasp_0)" status)" = okay ]
	c=$(frag "$o" bone_i2c_2)/tlv320aic3104@18
	[ "$(fdtget "$o" "$c" '#sound-dai-cells')" = 0 ]
	dev=$(frag "$o" bone_devices)
	s=$dev/bb-bone-audi-02-sound
	[ "$(fdtget "$o" "$s" compatible)" = simple-audio-card ]
	[ "$(fdtget "$o" "$s" simple-audio-card,name)" = "AudioCape Rev B" ]
	[ "$(fdtget "$o" "$s" simple-audio-card,format)" = dsp_b ]
	[ "$(fdtget "$o" "$s/simple-audio-card,codec" sound-dai)" = "$(fdtget "$o" "$c" phandle)" ]
	[ "$(fdtget "$o" "$s/simple-audio-card,codec" clocks)" = "$(fdtget "$o" "$dev/bb-bone-audi-02-mclk" phandle)" ]
	[ "$(fdtget "$o" "$s" simple-audio-card,bitclock-master)" = "$(fdtget "$o" "$s/simple-audio-card,codec" phandle)" ]
	[[ "$(fdtget "$o" /__fixups__ bone_mcasp_0)" == *"simple-audio-card,cpu:sound-dai:0"* ]]
	[ "$(fdtget "$o" "$dev/bb-bone-audi-02-mclk" clock-frequency)" = 24576000 ]
}

@test "audio: the codec must be a device of the cape (did you mean), the MCLK gate a GPIO output" {
	pins='{ pin = "P9.31"; mode = 0; direction = "in"; }, { pin = "P9.29"; mode = 0; direction = "in"; }, { pin = "P8.7"; mode = "gpio"; direction = "out"; }'
	d=$(kinddef "$pins" '{ type = "i2c"; bus = "i2c2"; address = 0x18; compatible = "ti,tlv320aic3104"; },
		{ type = "audio"; codec = "tlv320aic3140"; }')
	run ct check "${NOHDMI[@]}" "$d"
	[ "$status" -eq 3 ]
	[[ $output == *'devices[1].codec: no i2c or spi device of this cape is named "tlv320aic3140" (its name, or its compatible after the comma); did you mean tlv320aic3104?'* ]]
	sed -i 's/tlv320aic3140/tlv320aic3104/; s/codec = "tlv320aic3104"; }/codec = "tlv320aic3104"; mclk = { frequency = 12288000; enable-pin = "P8.7"; }; }/' "$d"
	o=$(portable "$d" "${NOHDMI[@]}")
	g=$(frag "$o" bone_devices)/exl-kind-01-mclk-gate
	[ "$(fdtget "$o" "$g" compatible)" = gpio-gate-clock ]
	[ "$(fdtget "$o" "$g" enable-gpios)" = "-1 807 0" ]
	sed -i 's/{ pin = "P8.7"; mode = "gpio"; direction = "out"; }/{ pin = "P8.7"; mode = "timer4"; direction = "out"; }/' "$d"
	run ct check "${NOHDMI[@]}" "$d"
	[ "$status" -eq 3 ]
	[[ $output == *"devices[1].enable-pin: the MCLK gate needs P8.7 muxed as a GPIO, mode 7"* ]]
}

@test "audio: McASP's clock pins need their receiver on, even where the McASP drives them; its data pins do not" {
	pins='{ pin = "P9.31"; mode = 0; direction = "out"; }, { pin = "P9.29"; mode = 0; direction = "in"; rx = false; }, { pin = "P9.25"; mode = "mcasp0_ahclkx"; direction = "out"; }, { pin = "P9.30"; mode = 0; direction = "out"; }'
	d=$(kinddef "$pins" '{ type = "i2c"; bus = "i2c2"; address = 0x18; compatible = "ti,tlv320aic3104"; },
		{ type = "audio"; codec = "tlv320aic3104"; bitclock-master = "cpu"; frame-master = "cpu"; }')
	for c in check create; do
		if [ "$c" = check ]; then
			errs check "${NOHDMI[@]}" "$d"
		else
			errs create "$d" "${NOHDMI[@]}" -o "$BATS_TEST_TMPDIR/o"
		fi
		no_sanitizer_report
		[ "$status" -eq 3 ] || { echo "$c: $output"; return 1; }
		[[ $output == *"kind.cape:"[0-9]*": devices: mcasp0 reads P9.31 (mcasp0_aclkx), a clock it takes back through the pad's receiver even where it drives it, but its receiver is disabled (pins: direction out, line 2): set rx = true"* ]]
		[[ $output == *"mcasp0 reads P9.29 (mcasp0_fsx), a clock it takes back through the pad's receiver even where it drives it, but its receiver is disabled (pins: rx = false, line 2)"* ]]
		[[ $output == *"mcasp0 reads P9.25 (mcasp0_ahclkx), a clock"* ]]
		[[ $output != *"P9.30"* ]]
	done
	# the receivers on: accepted, the serializer P9.30 still an output
	sed -i 's/direction = "out"; }, { pin = "P9.29"; mode = 0; direction = "in"; rx = false; }, { pin = "P9.25"; mode = "mcasp0_ahclkx"; direction = "out"; }/direction = "out"; rx = true; }, { pin = "P9.29"; mode = 0; direction = "bidir"; }, { pin = "P9.25"; mode = "mcasp0_ahclkx"; direction = "in"; }/' "$d"
	run ct check "${NOHDMI[@]}" "$d"
	[ "$status" -eq 0 ] || { echo "$output"; return 1; }
	# the real audio cape muxes them as inputs
	run ct check "${NOHDMI[@]}" "$DEFS/bone/hdmi-pins/bb-bone-audi-02.cape"
	[ "$status" -eq 0 ]
}

@test "the definition format documents every device kind and its groups" {
	run ct schema
	[ "$status" -eq 0 ]
	for k in pwm adc can rs485 lcd audio; do
		[[ $output == *"device type \"$k\""* ]] || { echo "no $k"; return 1; }
	done
	[[ $output == *"lcd: timings = { ... }"* ]]
	[[ $output == *"audio: mclk = { ... }"* ]]
}

@test "pinout names the units the kinds enable" {
	run ct pinout --board beaglebone-black --svg - "$DEFS/bone/bb-pwm1.cape" "$DEFS/bone/bb-can1.cape"
	[ "$status" -eq 0 ]
	[[ $output == *"PWM ehrpwm1"* ]]
	[[ $output == *"CAN can1"* ]]
}

@test "resolve gives a pin two units can have to the one its pin word muxes it for" {
	# ehrpwm1 can have P8.36 and P8.34 (mode 2); the LCD4 cape muxes them
	# as lcd_data10/11 (mode 0): the lcdc's group has them, even with the
	# PWM unit's fragment first
	h=$DEFS/bone/hdmi-pins
	sed 's/^devices = (/devices = (\n  { type = "pwm"; unit = "ehrpwm1"; },/' "$h/bb-bone-lcd4-01.cape" \
		> "$BATS_TEST_TMPDIR/lcd4.cape"
	cp "$h/bb-bone-lcd4-01.dtso" "$BATS_TEST_TMPDIR/"
	o=$(portable "$BATS_TEST_TMPDIR/lcd4.cape" "${NOHDMI[@]}")
	r=$BATS_TEST_TMPDIR/r.dtbo
	ct resolve "${NOHDMI[@]}" --cape "$BATS_TEST_TMPDIR/lcd4.cape" "$o" -o "$r"
	pm=$(frag "$r" am33xx_pinmux)
	[ "$(fdtget -t x "$r" "$pm/bb-bone-lcd4-01-ehrpwm1-pins" pinctrl-single,pins)" = "48 0 6" ]
	[[ " $(fdtget -t x "$r" "$pm/bb-bone-lcd4-01-lcdc-pins" pinctrl-single,pins) " == *" c8 8 0 cc 8 0 "* ]]
}

@test "one lcd and one audio device a cape" {
	t='{ type = "lcd"; timings = { clock-frequency = 1; hactive = 1; vactive = 1; hfront-porch = 0; hback-porch = 0; hsync-len = 0; vback-porch = 0; vfront-porch = 0; vsync-len = 0; hsync-active = 0; vsync-active = 0; de-active = 0; pixelclk-active = 0; }; }'
	d=$(kinddef '{ pin = "P9.39"; }' "$t, $t")
	run ct check "${NOHDMI[@]}" "$d"
	[ "$status" -eq 3 ]
	[[ $output == *"devices[1].type: a second lcd device (the first at line 3): one a cape"* ]]
}

@test "one device a unit: a second rs485, pwm, can or adc device on the same unit is refused" {
	U4='{ pin = "P9.11"; mode = "uart4_rxd"; direction = "in"; }, { pin = "P9.13"; mode = "uart4_txd"; direction = "out"; }'
	d=$(kinddef "$U4" '{ type = "rs485"; bus = "uart4"; delay = [5, 5]; },
	                   { type = "rs485"; bus = "uart4"; delay = [1, 1]; }')
	run ct check "$d"
	echo "$output"
	no_sanitizer_report
	[ "$status" -eq 3 ]
	[[ "$output" == *"kind.cape:4: devices[1].type: a second rs485 device on uart4 (the first at line 3): one a unit"* ]]
	d=$(kinddef '{ pin = "P9.14"; mode = 6; direction = "out"; }' '{ type = "pwm"; unit = "ehrpwm1"; }, { type = "pwm"; unit = "ehrpwm1"; }')
	run ct check "$d"
	[ "$status" -eq 3 ]
	[[ "$output" == *"a second pwm device on ehrpwm1"* ]]
	d=$(kinddef '{ pin = "P9.39"; }' '{ type = "adc"; channels = [0]; }, { type = "adc"; channels = [0]; }')
	run ct check "$d"
	[ "$status" -eq 3 ]
	[[ "$output" == *"a second adc device on adc"* ]]
	d=$(kinddef '{ pin = "P9.24"; mode = "d_can1_rx"; direction = "in"; }, { pin = "P9.26"; mode = "d_can1_tx"; direction = "out"; }' \
		'{ type = "can"; bus = "can1"; }, { type = "can"; bus = "can1"; }')
	run ct check "$d"
	echo "$output"
	[ "$status" -eq 3 ]
	[[ "$output" == *"a second can device on can1"* ]]
	# two units, one device each: fine
	d=$(kinddef '{ pin = "P9.14"; mode = 6; direction = "out"; }, { pin = "P9.22"; mode = "ehrpwm0a"; direction = "out"; }' \
		'{ type = "pwm"; unit = "ehrpwm1"; }, { type = "pwm"; unit = "ehrpwm0"; }')
	run ct check "$d"
	echo "$output"
	[ "$status" -eq 0 ]
}
