#!/usr/bin/env bats
# capetool import-rpi: Raspberry Pi's own overlay sources (fixtures/rpi-overlays,
# as raspberrypi/linux ships them) into HAT+ overlays for the capebus Pi
# connector, their __overrides__ parameters set on the command line; the
# results go through create, check and flash (to a file) as any HAT+'s
# overlay, and what the connector cannot confine is refused saying why.

load helpers

RPI=$FIX/rpi-overlays

# dts DTBO: the overlay's source, as dtc prints it back.
dts() {
	dtc -q -I dtb -O dts "$1"
}

# hat_plus NAME PRODUCT: a HAT+'s eepmake settings naming overlay NAME.
hat_plus() {
	printf 'product_uuid 5b0c7d2e-1a3f-4e6d-8c9b-0a1b2c3d4e5f\nproduct_id 0x0001\n' > "$BATS_TEST_TMPDIR/$1.txt"
	printf 'product_ver 0x0001\nvendor "Example HATs"\nproduct "%s"\n' "$2" >> "$BATS_TEST_TMPDIR/$1.txt"
	printf 'current_supply 0\ndt_blob "%s"\n' "$1" >> "$BATS_TEST_TMPDIR/$1.txt"
}

# through NAME: NAME.dtbo (beside) as a HAT+'s overlay: create, check, flash
# to a file; check's words in $checked.
through() {
	local d=$BATS_TEST_TMPDIR
	hat_plus "$1" "$1 HAT+"
	run ct create "$d/$1.txt" -o "$d"
	[ "$status" -eq 0 ] || { echo "$output"; return 1; }
	run ct check "$d/$1.eep"
	echo "$output"
	checked=$output
	[ "$status" -eq 0 ] || return 1
	[[ "$output" == *"overlay $d/$1.dtbo: "* ]] || return 1
	head -c 4096 /dev/zero > "$d/$1.bin"
	run ct flash "$d/$1.eep" --device "$d/$1.bin" --no-backup
	[ "$status" -eq 0 ] || { echo "$output"; return 1; }
	[[ "$output" == *"verified"* ]]
}

@test "mcp2515-can0 with interrupt=25: spi0, its clock on hat_devices, the interrupt through hat_irq, GPIO25 held" {
	run ct import-rpi "$RPI/mcp2515-can0-overlay.dts" interrupt=25 oscillator=16000000 \
		-o "$BATS_TEST_TMPDIR/mcp2515-can0.dtbo"
	echo "$output"
	[ "$status" -eq 0 ]
	[[ "$output" == *"mcp2515-can0.dtbo ("*" bytes): pins GPIO25"* ]]
	[[ "$output" == *"spidev@0 dropped: it disables the Pi's own spidev@0 node"* ]]
	run dts "$BATS_TEST_TMPDIR/mcp2515-can0.dtbo"
	echo "$output"
	[[ "$output" == *'exclusive-use = "GPIO25";'* ]]
	[[ "$output" == *'interrupts = <0x19 0x02>;'* ]]
	[[ "$output" == *'compatible = "microchip,mcp2515";'* ]]
	[[ "$output" == *'clock-frequency = <0xf42400>;'* ]]
	[[ "$output" == *'hat_irq = "/fragment@3/__overlay__/mcp2515@0:interrupt-parent:0";'* ]]
	[[ "$output" == *'hat_devices = "/fragment@2:target:0";'* ]]
	[[ "$output" == *'spi0 = "/fragment@0:target:0\0/fragment@3:target:0";'* ]]
	# nothing of the Pi's board tree or its labels is left
	[[ "$output" != *"__symbols__"* && "$output" != *"gpio ="* && "$output" != *"brcm,"* ]]
	[[ "$output" != *"pinctrl"* && "$output" != *"spidev"* && "$output" != *"__overrides__"* ]]
	through mcp2515-can0
	[[ "$checked" == *"overlay $BATS_TEST_TMPDIR/mcp2515-can0.dtbo: 6 GPIOs"* ]]	# GPIO25, spi0's GPIO7-11
}

@test "a parameter moves the pin everywhere the overlay names it: interrupt=24 is GPIO24's interrupt and pin" {
	run ct import-rpi "$RPI/mcp2515-can0-overlay.dts" interrupt=24 -o "$BATS_TEST_TMPDIR/can.dts"
	[ "$status" -eq 0 ]
	run cat "$BATS_TEST_TMPDIR/can.dts"
	echo "$output"
	[[ "$output" == *'interrupt-parent = <&hat_irq>;'* ]]
	[[ "$output" == *'interrupts = <24 2>;'* ]]
	[[ "$output" == *'exclusive-use = "GPIO24";'* ]]
	[[ "$output" == *'clocks = <&can0_osc>;'* ]]
	[[ "$output" != *"GPIO25"* ]]
}

@test "i2c-rtc: ds3231 switches its dormant fragment on, wakeup-source sets a boolean; without one nothing applies" {
	run ct import-rpi "$RPI/i2c-rtc-overlay.dts" ds3231 wakeup-source -o "$BATS_TEST_TMPDIR/i2c-rtc.dtbo"
	echo "$output"
	[ "$status" -eq 0 ]
	[[ "$output" == *"pins none of its own"* ]]
	run dts "$BATS_TEST_TMPDIR/i2c-rtc.dtbo"
	echo "$output"
	[[ "$output" == *"ds3231@68 {"* && "$output" == *'compatible = "maxim,ds3231";'* ]]
	[[ "$output" == *"wakeup-source;"* ]]
	[[ "$output" == *'i2c_arm = "/fragment@3:target:0";'* ]]
	[[ "$output" != *"ds1307"* && "$output" != *"pcf8563"* && "$output" != *"__dormant__"* ]]
	through i2c-rtc
	# no RTC chosen: refused, naming the parameters that choose one
	run ct import-rpi "$RPI/i2c-rtc-overlay.dts" -o "$BATS_TEST_TMPDIR/none.dtbo"
	[ "$status" -eq 3 ]
	[[ "$output" == *"refused: no fragment applies: its fragments are __dormant__ until a parameter switches one on (its parameters: abx80x, ds1307, "* ]]
	[ ! -e "$BATS_TEST_TMPDIR/none.dtbo" ]
}

@test "w1-gpio gpiopin=17: <&hat_gpio 17 0>, the node's unit address follows (reg), GPIO17 held" {
	run ct import-rpi "$RPI/w1-gpio-overlay.dts" gpiopin=17 -o "$BATS_TEST_TMPDIR/w1-gpio.dtbo"
	echo "$output"
	[ "$status" -eq 0 ]
	run dts "$BATS_TEST_TMPDIR/w1-gpio.dtbo"
	echo "$output"
	[[ "$output" == *"onewire@11 {"* && "$output" == *'compatible = "w1-gpio";'* ]]
	[[ "$output" == *'gpios = <0xffffffff 0x11 0x00>;'* ]]
	[[ "$output" == *'hat_gpio = "/fragment@0/__overlay__/onewire@11:gpios:0";'* ]]
	[[ "$output" == *'exclusive-use = "GPIO17";'* ]]
	through w1-gpio
}

@test "a pin the board holds is refused naming its holder: w1-gpio on GPIO14, the serial console" {
	run ct import-rpi "$RPI/w1-gpio-overlay.dts" gpiopin=14 -o "$BATS_TEST_TMPDIR/w1.dtbo"
	[ "$status" -eq 3 ]
	[[ "$output" == *"refused: &gpio pin group w1_pins@0: pin GPIO14 is held by the board's serial console: TXD1 (serial console), one of the connector's console-pins, which no HAT may claim"* ]]
	run ct import-rpi "$RPI/w1-gpio-overlay.dts" gpiopin=1 -o "$BATS_TEST_TMPDIR/w1.dtbo"
	[ "$status" -eq 3 ]
	[[ "$output" == *"pin GPIO1 is held by the board"* ]]
	[ ! -e "$BATS_TEST_TMPDIR/w1.dtbo" ]
}

@test "gpio-fan: its cpu_thermal trip is refused with what to do; --drop fragment@1 keeps the fan, gpiopin=22 moves it" {
	run ct import-rpi "$RPI/gpio-fan-overlay.dts" -o "$BATS_TEST_TMPDIR/gpio-fan.dtbo"
	[ "$status" -eq 3 ]
	[[ "$output" == *"refused: fragment@1 targets &cpu_thermal, a board node the connector does not export (it exports i2c1, i2c_arm, spi0, spi1, i2s, pwm, uart3, uart4, uart5, hat_devices); leave the fragment out with --drop fragment@1 if the HAT works without it"* ]]
	[ ! -e "$BATS_TEST_TMPDIR/gpio-fan.dtbo" ]
	run ct import-rpi "$RPI/gpio-fan-overlay.dts" --drop fragment@1 gpiopin=22 -o "$BATS_TEST_TMPDIR/gpio-fan.dtbo"
	echo "$output"
	[ "$status" -eq 0 ]
	[[ "$output" == *"fragment@1 left out (--drop)"* ]]
	run dts "$BATS_TEST_TMPDIR/gpio-fan.dtbo"
	echo "$output"
	[[ "$output" == *'compatible = "gpio-fan";'* && "$output" == *'gpios = <0xffffffff 0x16 0x01>;'* ]]
	[[ "$output" == *'exclusive-use = "GPIO22";'* && "$output" != *"cpu_thermal"* ]]
	through gpio-fan
}

@test "enc28j60: the fragment disabling the Pi's &spidev0 is left out, saying so" {
	run ct import-rpi "$RPI/enc28j60-overlay.dts" int_pin=24 -o "$BATS_TEST_TMPDIR/enc28j60.dtbo"
	echo "$output"
	[ "$status" -eq 0 ]
	[[ "$output" == *"fragment@1 left out: it disables the Pi's &spidev0, which the connector's SPI units do not have"* ]]
	run dts "$BATS_TEST_TMPDIR/enc28j60.dtbo"
	[[ "$output" == *'exclusive-use = "GPIO24";'* && "$output" != *"spidev"* ]]
	through enc28j60
}

@test "pwm: an ALT function on a header pin is refused, naming the pin, the function and what the connector does instead; the unit's own pins are taken" {
	run ct import-rpi "$RPI/pwm-overlay.dts" -o "$BATS_TEST_TMPDIR/pwm.dtbo"
	[ "$status" -eq 3 ]
	[ "$output" = "capetool: $RPI/pwm-overlay.dts: refused: &gpio pin group pwm_pins: GPIO18 as ALT5 (brcm,function 2): the connector sets no HAT pin's function; a unit's pins are set by the board when the HAT enables the unit (status = \"okay\" on spi0, pwm, uart3...)" ]
	[ ! -e "$BATS_TEST_TMPDIR/pwm.dtbo" ]
	# on GPIO12 as ALT0, the pins the board sets for pwm: taken, saying so;
	# its clk_pwm fragment is the board's
	run ct import-rpi "$RPI/pwm-overlay.dts" pin=12 func=4 -o "$BATS_TEST_TMPDIR/pwm.dtbo"
	[ "$status" -eq 3 ]
	[[ "$output" == *"GPIO12 as ALT0: set by the board for pwm, which the HAT enables (the unit's own pin group)"* ]]
	[[ "$output" == *"refused: fragment@2 targets &clk_pwm, a board node the connector does not export"* ]]
	run ct import-rpi "$RPI/pwm-overlay.dts" --drop 2 pin=12 func=4 -o "$BATS_TEST_TMPDIR/pwm.dtbo"
	[ "$status" -eq 0 ]
	run dts "$BATS_TEST_TMPDIR/pwm.dtbo"
	echo "$output"
	[[ "$output" == *'pwm = "/fragment@1:target:0";'* && "$output" == *'status = "okay";'* ]]
	[[ "$output" != *"pinctrl"* && "$output" != *"clock-frequency"* ]]
	through pwm
}

@test "the Pi's overlay as Raspberry Pi builds it is refused by check; imported, the same HAT+ passes" {
	hat_plus mcp2515-can0 "CAN HAT+"
	dtc -q -@ -I dts -O dtb -o "$BATS_TEST_TMPDIR/mcp2515-can0.dtbo" "$RPI/mcp2515-can0-overlay.dts"
	run ct check "$BATS_TEST_TMPDIR/mcp2515-can0.txt"
	echo "$output"
	[ "$status" -eq 3 ]
	run ct import-rpi "$RPI/mcp2515-can0-overlay.dts" -o "$BATS_TEST_TMPDIR/mcp2515-can0.dtbo"
	[ "$status" -eq 0 ]
	run ct check "$BATS_TEST_TMPDIR/mcp2515-can0.txt"
	echo "$output"
	[ "$status" -eq 0 ]
}

@test "parameters: an unknown one lists the overlay's (exit 2); a bad number or boolean names it; a literal assignment is refused" {
	run ct import-rpi "$RPI/mcp2515-can0-overlay.dts" interupt=25 -o "$BATS_TEST_TMPDIR/x.dtbo"
	[ "$status" -eq 2 ]
	[[ "$output" == *"no parameter interupt (its parameters: oscillator, spimaxfrequency, interrupt)"* ]]
	run ct import-rpi "$RPI/mcp2515-can0-overlay.dts" oscillator=16MHz -o "$BATS_TEST_TMPDIR/x.dtbo"
	[ "$status" -eq 2 ]
	[[ "$output" == *'parameter oscillator: "16MHz" is not a number'* ]]
	# a string parameter, its quote and backslash kept (dtc's escapes)
	run ct import-rpi "$RPI/i2c-rtc-overlay.dts" abx80x 'trickle-diode-type=sch"ott\ky' -o "$BATS_TEST_TMPDIR/s.dts"
	[ "$status" -eq 0 ]
	grep -qF 'abracon,tc-diode = "sch\"ott\\ky";' "$BATS_TEST_TMPDIR/s.dts"
	run ct import-rpi "$RPI/i2c-rtc-overlay.dts" abx80x 'trickle-diode-type=sch"ott\ky' -o "$BATS_TEST_TMPDIR/s.dtbo"
	[ "$status" -eq 0 ]
	run ct import-rpi "$RPI/i2c-rtc-overlay.dts" ds3231=maybe -o "$BATS_TEST_TMPDIR/x.dtbo"
	[ "$status" -eq 2 ]
	[[ "$output" == *'parameter ds3231: "maybe" is not a boolean'* ]]
	printf '/dts-v1/;\n/plugin/;\n/ {\n\tfragment@0 {\n\t\ttarget = <&i2c_arm>;\n\t\t__overlay__ {\n\t\t\tr: rtc@68 { compatible = "maxim,ds3231"; reg = <0x68>; };\n\t\t};\n\t};\n\t__overrides__ {\n\t\tx = <&r>,"status=disabled";\n\t};\n};\n' > "$BATS_TEST_TMPDIR/lit.dts"
	run ct import-rpi "$BATS_TEST_TMPDIR/lit.dts" x -o "$BATS_TEST_TMPDIR/x.dtbo"
	[ "$status" -eq 3 ]
	[[ "$output" == *'parameter x: target "status=disabled": a literal assignment, which capetool does not apply'* ]]
	[ ! -e "$BATS_TEST_TMPDIR/x.dtbo" ]
}

@test "#include and #define go through cpp first, the source's directory on the include path, and -I DIR" {
	mkdir -p "$BATS_TEST_TMPDIR/inc/pins"
	printf '#define KEY_GPIO 23\n' > "$BATS_TEST_TMPDIR/inc/pins/key.h"
	printf '#define ACTIVE_LOW 1\n' > "$BATS_TEST_TMPDIR/local.h"
	printf '/dts-v1/;\n/plugin/;\n#include "local.h"\n#include <pins/key.h>\n/ {\n\tfragment@0 {\n\t\ttarget-path = "/";\n\t\t__overlay__ {\n\t\t\tkeys {\n\t\t\t\tcompatible = "gpio-keys";\n\t\t\t\tk { linux,code = <116>; gpios = <&gpio KEY_GPIO ACTIVE_LOW>; };\n\t\t\t};\n\t\t};\n\t};\n};\n' > "$BATS_TEST_TMPDIR/key-overlay.dts"
	run ct import-rpi "$BATS_TEST_TMPDIR/key-overlay.dts" -o "$BATS_TEST_TMPDIR/key.dts"
	[ "$status" -eq 3 ]
	[[ "$output" == *"pins/key.h: No such file or directory"* ]]
	[[ "$output" == *"it uses the C preprocessor (#include), and cpp -x assembler-with-cpp on it: it failed (its includes: -I DIR"* ]]
	run ct import-rpi -I "$BATS_TEST_TMPDIR/inc" "$BATS_TEST_TMPDIR/key-overlay.dts" -o "$BATS_TEST_TMPDIR/key.dts"
	echo "$output"
	[ "$status" -eq 0 ]
	grep -q 'gpios = <&hat_gpio 23 1>;' "$BATS_TEST_TMPDIR/key.dts"
	grep -q 'exclusive-use = "GPIO23";' "$BATS_TEST_TMPDIR/key.dts"
}

@test "-o - writes the .dtbo to standard output; a command line without -o or a source is a usage error" {
	ct import-rpi "$RPI/w1-gpio-overlay.dts" -o - > "$BATS_TEST_TMPDIR/out.dtbo"
	run dts "$BATS_TEST_TMPDIR/out.dtbo"
	[[ "$output" == *'exclusive-use = "GPIO4";'* ]]
	run ct import-rpi "$RPI/w1-gpio-overlay.dts"
	[ "$status" -eq 2 ]
	[[ "$output" == *"-o OUT is required"* ]]
	run ct import-rpi -o x.dtbo
	[ "$status" -eq 2 ]
	run ct import-rpi --drop fragment@7 "$RPI/w1-gpio-overlay.dts" -o "$BATS_TEST_TMPDIR/x.dtbo"
	[ "$status" -eq 2 ]
	[[ "$output" == *"--drop fragment@7: $RPI/w1-gpio-overlay.dts has no such fragment"* ]]
}

@test "a reference to a board node the connector does not export, or to &gpio outside gpios and interrupts, is refused naming the property" {
	printf '/dts-v1/;\n/plugin/;\n/ { fragment@0 { target = <&i2c_arm>; __overlay__ { x@1 { compatible = "a"; reg = <1>; clocks = <&clk_osc>; }; }; }; };\n' > "$BATS_TEST_TMPDIR/ext.dts"
	run ct import-rpi "$BATS_TEST_TMPDIR/ext.dts" -o "$BATS_TEST_TMPDIR/ext.dtbo"
	[ "$status" -eq 3 ]
	[[ "$output" == *"refused: fragment@0/__overlay__/x@1 clocks refers to &clk_osc, a board node the connector does not export (it exports i2c1, i2c_arm, "* ]]
	printf '/dts-v1/;\n/plugin/;\n/ { fragment@0 { target = <&i2c_arm>; __overlay__ { x@1 { compatible = "a"; reg = <1>; gpio-controller-of = <&gpio>; }; }; }; };\n' > "$BATS_TEST_TMPDIR/g.dts"
	run ct import-rpi "$BATS_TEST_TMPDIR/g.dts" -o "$BATS_TEST_TMPDIR/g.dtbo"
	[ "$status" -eq 3 ]
	[[ "$output" == *"refused: fragment@0/__overlay__/x@1 gpio-controller-of refers to &gpio, which the connector exports as hat_gpio (GPIOs: gpios, *-gpios) and hat_irq (interrupts) only"* ]]
	# an interrupt of a trigger type hat_irq does not map (0: none)
	printf '/dts-v1/;\n/plugin/;\n/ { fragment@0 { target = <&i2c_arm>; __overlay__ { x@1 { compatible = "a"; reg = <1>; interrupt-parent = <&gpio>; interrupts = <22 0>; }; }; }; };\n' > "$BATS_TEST_TMPDIR/t.dts"
	run ct import-rpi "$BATS_TEST_TMPDIR/t.dts" -o "$BATS_TEST_TMPDIR/t.dtbo"
	[ "$status" -eq 3 ]
	[[ "$output" == *"interrupts: trigger type 0 on GPIO22: hat_irq maps edge rising (1), falling (2), both (3), level high (4) and low (8) only"* ]]
	[ ! -e "$BATS_TEST_TMPDIR/ext.dtbo" ] && [ ! -e "$BATS_TEST_TMPDIR/g.dtbo" ] && [ ! -e "$BATS_TEST_TMPDIR/t.dtbo" ]
}

# an overlay source from elsewhere reading this machine's files (red team 14 F3: exit 0, the file's bytes in the output)
leaky() {
	cat <<D
/dts-v1/;
/plugin/;
$1
/ {
	compatible = "brcm,bcm2835";
	fragment@0 {
		target = <&i2c1>;
		__overlay__ {
			#address-cells = <1>;
			#size-cells = <0>;
			status = "okay";
			rtc@68 {
				compatible = "dallas,ds3231";
				reg = <0x68>;
				$2
			};
		};
	};
};
D
}

@test "import-rpi: a source that reads a file of this machine (dtc's /incbin/ or /include/, cpp's #include outside its directory) is refused, nothing written" {
	cd "$BATS_TEST_TMPDIR"
	mkdir -p src inc
	printf 'SECRET-%s\n' "$RANDOM" > secret.txt
	leaky "" "secret = /incbin/(\"$PWD/secret.txt\");" > src/a.dts
	run ct import-rpi src/a.dts -o a.out.dts
	echo "$output"
	no_sanitizer_report
	[ "$status" -eq 3 ]
	[[ "$output" == *"src/a.dts:15: /incbin/ reads a file of this machine into the overlay"* ]]
	[ ! -e a.out.dts ]
	# dtc's /include/ of a file beside the source is dtc's too: refused the same
	printf '/ { };\n' > src/x.dtsi
	leaky '/include/ "x.dtsi"' "" > src/b.dts
	run ct import-rpi src/b.dts -o b.out.dts
	[ "$status" -eq 3 ]
	[[ "$output" == *"src/b.dts:3: /include/ reads a file of this machine"* ]]
	# cpp: a header beside the source or under -I is fine, one elsewhere is not
	printf '#define RTC_ADDR 0x68\n' > src/ok.h
	printf '#define RTC_ADDR 0x68\n' > inc/ok2.h
	printf '#define RTC_ADDR 0x68\n' > outside.h
	leaky '#include "ok.h"' "" | sed 's/reg = <0x68>/reg = <RTC_ADDR>/' > src/c.dts
	run ct import-rpi src/c.dts -o c.out.dts
	echo "$output"
	[ "$status" -eq 0 ]
	leaky '#include <ok2.h>' "" | sed 's/reg = <0x68>/reg = <RTC_ADDR>/' > src/d.dts
	run ct import-rpi -I inc src/d.dts -o d.out.dts
	[ "$status" -eq 0 ]
	leaky '#include "../outside.h"' "" | sed 's/reg = <0x68>/reg = <RTC_ADDR>/' > src/e.dts
	run ct import-rpi src/e.dts -o e.out.dts
	echo "$output"
	[ "$status" -eq 3 ]
	[[ "$output" == *"src/e.dts: it includes src/../outside.h, outside its directory and the -I DIRs: refused"* ]]
	[ ! -e e.out.dts ]
}
