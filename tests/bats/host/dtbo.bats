#!/usr/bin/env bats
# Everything that ends up in the .dtbo is checked first: node and property
# names by the devicetree specification, reserved properties, cell ranges,
# the escape hatch's fragments and fixups, the overlay file name.  And every
# overlay capetool generates passes dtc without a warning.

load helpers

HEAD='eeprom = { board-name = "X"; version = "00A0"; manufacturer = "M"; part-number = "P"; };
pins = ( { pin = "P9.19"; mode = 3; direction = "bidir"; }, { pin = "P9.20"; mode = 3; direction = "bidir"; } );'

# i2c_dev FILE 'extra keys': a definition with one i2c device
i2c_dev() {
	printf '%s\ndevices = (\n  { type = "i2c"; bus = "i2c2"; address = 0x48; compatible = "ti,tmp105"; %s }\n);\n' \
		"$HEAD" "$2" > "$BATS_TEST_TMPDIR/$1"
	echo "$BATS_TEST_TMPDIR/$1"
}

@test "a device node name with '/', empty, too long or with other characters is refused" {
	f=$(i2c_dev slash.cape 'name = "a/b";')
	run ct check "$f"
	no_sanitizer_report
	[ "$status" -eq 3 ]
	[[ "$output" == *"slash.cape:4: devices[0].name: node name \"a/b\" may hold only letters, digits and , . _ + -"* ]]
	f=$(i2c_dev empty.cape 'name = "";')
	run ct check "$f"
	[ "$status" -eq 3 ]
	[[ "$output" == *"empty.cape:4: devices[0].name: node name \"\" must be 1 to 31 characters"* ]]
	f=$(i2c_dev long.cape 'name = "abcdefghijklmnopqrstuvwxyz012345";')
	run ct check "$f"
	[ "$status" -eq 3 ]
	[[ "$output" == *"devices[0].name: node name \"abcdefghijklmnopqrstuvwxyz012345\" must be 1 to 31 characters"* ]]
	f=$(i2c_dev at.cape 'name = "temp@1";')
	run ct check "$f"
	[ "$status" -eq 3 ]
	f=$(i2c_dev digit.cape 'name = "1wire";')
	run ct check "$f"
	[ "$status" -eq 3 ]
	[[ "$output" == *"must start with a letter"* ]]
	# the default name comes from the compatible
	printf '%s\ndevices = ( { type = "i2c"; bus = "i2c2"; address = 0x48; compatible = "acme,temp sensor"; } );\n' \
		"$HEAD" > "$BATS_TEST_TMPDIR/compat.cape"
	run ct check "$BATS_TEST_TMPDIR/compat.cape"
	[ "$status" -eq 3 ]
	[[ "$output" == *"compat.cape:3: devices[0].compatible: node name \"temp sensor\" may hold only letters, digits and , . _ + - (set name)"* ]]
	# a good name passes
	f=$(i2c_dev good.cape 'name = "temp-sensor_1.a+b,c";')
	run ct check "$f"
	[ "$status" -eq 0 ]
}

@test "properties the generated node owns, or phandles, are refused" {
	for p in phandle reg compatible name; do
		f=$(i2c_dev "$p.cape" "properties = { $p = 1; };")
		run ct check "$f"
		no_sanitizer_report
		[ "$status" -eq 3 ] || { echo "$p: $output"; false; }
		[[ "$output" == *"$p.cape:4: properties.$p: is "* ]]
	done
	printf '%s\ndevices = ( { type = "spi"; bus = "spi0"; cs = 0; compatible = "acme,adc";\n  properties = { spi-max-frequency = 5; }; } );\n' \
		"$HEAD" > "$BATS_TEST_TMPDIR/spi.cape"
	run ct check "$BATS_TEST_TMPDIR/spi.cape"
	[ "$status" -eq 3 ]
	[[ "$output" == *"properties.spi-max-frequency: is generated from max-frequency: set it there"* ]]
}

@test "a property name outside the DT character set or over 31 characters is refused" {
	f=$(i2c_dev star.cape 'properties = { a*b = 1; };')
	run ct check "$f"
	[ "$status" -eq 3 ]
	[[ "$output" == *"star.cape:4: properties.a*b: may hold only letters, digits and , . _ + ? # -"* ]]
	f=$(i2c_dev plong.cape 'properties = { abcdefghijklmnopqrstuvwxyz-01234 = 1; };')
	run ct check "$f"
	[ "$status" -eq 3 ]
	[[ "$output" == *"must be 1 to 31 characters"* ]]
}

@test "an integer that does not fit a cell is refused, not truncated" {
	f=$(i2c_dev big.cape 'properties = { big = 0x100000000L; };')
	run ct check "$f"
	no_sanitizer_report
	[ "$status" -eq 3 ]
	[[ "$output" == *"big.cape:4: properties.big: 4294967296 does not fit a 32-bit cell (-2147483648 to 4294967295); write a 64-bit value as two cells [high, low]"* ]]
	f=$(i2c_dev arr.cape 'properties = { arr = [1L, 5000000000L]; };')
	run ct check "$f"
	[ "$status" -eq 3 ]
	[[ "$output" == *"properties.arr: 5000000000 does not fit a 32-bit cell"* ]]
	f=$(i2c_dev neg.cape 'properties = { neg = -2147483649L; };')
	run ct check "$f"
	[ "$status" -eq 3 ]
	# the edges fit
	f=$(i2c_dev edge.cape 'properties = { hi = 0xffffffffL; lo = -1; two = [0x1L, 0xffffffffL]; };')
	ct create "$f" --board qemu-vexpress -o "$BATS_TEST_TMPDIR/out" >/dev/null
	run fdtget -t x "$BATS_TEST_TMPDIR/out/P-00A0.dtbo" /fragment@0/__overlay__/tmp105@48 hi
	[ "$output" = ffffffff ]
	run fdtget -t x "$BATS_TEST_TMPDIR/out/P-00A0.dtbo" /fragment@0/__overlay__/tmp105@48 two
	[ "$output" = "1 ffffffff" ]
}

@test "an integer without L that libconfig would wrap is refused at its line: address, power, property" {
	f=$(i2c_dev wrap.cape 'properties = { big = 9999999999; neg = -2147483649; ok = 4294967295; m = -2147483648; h = 0xffffffff; };')
	run ct check "$f"
	no_sanitizer_report
	[ "$status" -eq 3 ]
	[[ "$output" == *"wrap.cape:4: 9999999999 does not fit 32 bits (-2147483648 to 4294967295); a 64-bit property value is two cells [high, low]"* ]]
	[[ "$output" == *"wrap.cape:4: -2147483649 does not fit 32 bits"* ]]
	[ "$(grep -c 'does not fit' <<< "$output")" = 2 ]
	# an i2c address of 0x3c plus 2^32, a power draw of 100 plus 2^32
	mkdef addr.cape <<EOF
$HEAD
devices = (
  { type = "i2c"; bus = "i2c2"; address = 4294967356; compatible = "solomon,ssd1306fb-i2c"; }
);
power = { vdd-3v3b = 4294967396; };
EOF
	run ct check "$BATS_TEST_TMPDIR/addr.cape"
	[ "$status" -eq 3 ]
	[[ "$output" == *"addr.cape:"[0-9]*": 4294967356 does not fit 32 bits"* ]]
	[[ "$output" == *"addr.cape:"[0-9]*": 4294967396 does not fit 32 bits"* ]]
	# with L, the value reaches the schema's check whole
	sed -i 's/4294967356/4294967356L/; s/4294967396/4294967396L/' "$BATS_TEST_TMPDIR/addr.cape"
	run ct check "$BATS_TEST_TMPDIR/addr.cape"
	[ "$status" -eq 3 ]
	[[ "$output" == *"devices[0].address: 4294967356 is above the maximum 127"* ]]
	[[ "$output" == *"power.vdd-3v3b: 4294967396 is above the maximum 65535"* ]]
	# keys with digits, comments and strings are not numbers
	mkdef fine.cape <<EOF
$HEAD
devices = (
  { type = "i2c"; bus = "i2c2"; address = 0x48; compatible = "ti,tmp105"; # 99999999999
    properties = { label-x = "99999999999"; }; } /* 88888888888 */
);
power = { vdd-3v3b = 100; vdd-5v = 0; };
EOF
	run ct check "$BATS_TEST_TMPDIR/fine.cape"
	[ "$status" -eq 0 ]
}

@test "properties capetool writes or that hold phandles are refused: status, pinctrl-*, pwms, interrupt-parent, interrupts-extended" {
	f=$(i2c_dev ph.cape 'properties = ( ("pinctrl-0", 1), ("pinctrl-names", "default"), ("pwms", [1, 0, 500000]), ("interrupt-parent", 1), ("interrupts-extended", [1, 2]), ("status", "disabled") );')
	run ct check "$f"
	echo "$output"
	no_sanitizer_report
	[ "$status" -eq 3 ]
	[[ "$output" == *"ph.cape:4: properties.pinctrl-0: is capetool's: the device's pins are muxed from pins"* ]]
	[[ "$output" == *"ph.cape:4: properties.pinctrl-names: is capetool's"* ]]
	[[ "$output" == *"ph.cape:4: properties.pwms: holds phandles, which a definition cannot write"* ]]
	[[ "$output" == *"ph.cape:4: properties.interrupt-parent: holds phandles"* ]]
	[[ "$output" == *"ph.cape:4: properties.interrupts-extended: holds phandles"* ]]
	[[ "$output" == *"ph.cape:4: properties.status: is capetool's"* ]]
	# as a group too
	f=$(i2c_dev ph2.cape 'properties = { interrupt-parent = 1; };')
	run ct check "$f"
	[ "$status" -eq 3 ]
	[[ "$output" == *"properties.interrupt-parent: holds phandles"* ]]
}

@test "an SPI max-frequency beyond the cell is refused, not replaced by the default" {
	printf '%s\ndevices = ( { type = "spi"; bus = "spi0"; cs = 0; compatible = "acme,adc"; max-frequency = 5000000000L; } );\n' \
		"$HEAD" > "$BATS_TEST_TMPDIR/f.cape"
	run ct check "$BATS_TEST_TMPDIR/f.cape"
	[ "$status" -eq 3 ]
	[[ "$output" == *"f.cape:3: devices[0].max-frequency: 5000000000 is above the maximum 2147483647"* ]]
}

@test "a part number or version ending in '.' is refused (readers strip it)" {
	cat > "$BATS_TEST_TMPDIR/dot.cape" <<'D'
eeprom = { board-name = "X"; version = "00A."; manufacturer = "M"; part-number = "BB-DOT."; };
D
	run ct create "$BATS_TEST_TMPDIR/dot.cape" -o "$BATS_TEST_TMPDIR"
	[ "$status" -eq 3 ]
	[[ "$output" == *"dot.cape:1: eeprom.part-number: names the overlay file: must not end in '.'"* ]]
	[[ "$output" == *"dot.cape:1: eeprom.version: names the overlay file: must not end in '.'"* ]]
	! ls "$BATS_TEST_TMPDIR"/BB-DOT* 2>/dev/null
}

@test "an escape hatch with more than 64 fragments is merged whole" {
	{
		echo '/dts-v1/;'
		echo '/plugin/;'
		for i in $(seq 0 69); do
			echo "&bone_devices { n$i { compatible = \"acme,n\"; gpios = <&bone_gpio 807 0>; }; };"
		done
	} > "$BATS_TEST_TMPDIR/many.dtso"
	# the GPIO is a pin the cape declares, muxed as a GPIO (the hatch is checked)
	printf '%s\noverlay = "many.dtso";\n' \
		"${HEAD/mode = 3; direction = \"bidir\"; \} );/mode = 3; direction = \"bidir\"; \}, { pin = \"P8.7\"; mode = \"gpio\"; direction = \"out\"; \} );}" \
		> "$BATS_TEST_TMPDIR/many.cape"
	grep -q P8.7 "$BATS_TEST_TMPDIR/many.cape"
	run ct create "$BATS_TEST_TMPDIR/many.cape" --board qemu-vexpress -o "$BATS_TEST_TMPDIR/out"
	no_sanitizer_report
	[ "$status" -eq 0 ]
	[[ "$output" != *"ignored"* ]]
	# every fragment's two references are fixed up, the last ones too
	run fdtget "$BATS_TEST_TMPDIR/out/P-00A0.dtbo" /__fixups__ bone_gpio
	[ "$(printf '%s\n' $output | wc -l)" -eq 70 ]
	[[ "$output" == *"/fragment@69/__overlay__/n69:gpios:0"* ]]
	run fdtget "$BATS_TEST_TMPDIR/out/P-00A0.dtbo" /__fixups__ bone_devices
	[ "$(printf '%s\n' $output | wc -l)" -eq 70 ]
}

@test "an escape-hatch fixup naming no node is an error, not dropped" {
	cat > "$BATS_TEST_TMPDIR/dangling.dtso" <<'D'
/dts-v1/;
/ {
	fragment@0 { target-path = "/"; __overlay__ { x { y = <0xffffffff>; }; }; };
	__fixups__ { bone_gpio = "/fragment@0/__overlay__/x:y:0", "/fragment@7/__overlay__/z:y:0"; };
};
D
	printf '%s\noverlay = "dangling.dtso";\n' "$HEAD" > "$BATS_TEST_TMPDIR/d.cape"
	run ct create "$BATS_TEST_TMPDIR/d.cape" --board qemu-vexpress -o "$BATS_TEST_TMPDIR/out"
	[ "$status" -eq 3 ]
	[[ "$output" == *"dangling.dtso: __fixups__ entry \"/fragment@7/__overlay__/z:y:0\" names no node of its fragments"* ]]
	[ ! -e "$BATS_TEST_TMPDIR/out/P-00A0.dtbo" ]
}

@test "every generated overlay passes dtc without a warning (all cape-defs, both boards)" {
	n=0
	for def in "$DEFS"/*.cape "$DEFS"/bone/*.cape "$FIX/defs/kitchen-sink.cape"; do
		for board in qemu-vexpress beaglebone-black; do
			# the kitchen sink and cape-defs/bone/ are for the bone only
			[[ ($def != *kitchen-sink* && $def != */bone/*) || $board != qemu-vexpress ]] || continue
			rm -rf "$BATS_TEST_TMPDIR/out"
			run ct create "$def" --board "$board" -o "$BATS_TEST_TMPDIR/out"
			[ "$status" -eq 0 ] || { echo "$def $board: $output"; false; }
			for f in "$BATS_TEST_TMPDIR"/out/*.dtbo; do
				dtc_clean "$f"
				n=$((n + 1))
				# and the bone's portable overlays resolved for its tree
				[ "$board" = beaglebone-black ] || continue
				ct resolve --board "$board" --cape "$def" "$f" -o "$BATS_TEST_TMPDIR/r.dtbo" >/dev/null
				dtc_clean "$BATS_TEST_TMPDIR/r.dtbo"
				n=$((n + 1))
			done
		done
	done
	[ "$n" -ge 26 ]
}

@test "dtc_clean fails on a warning (the check can fail)" {
	# two nodes at one unit address: dtc warns unique_unit_address
	cat > "$BATS_TEST_TMPDIR/dup.dts" <<'D'
/dts-v1/;
/ { #address-cells = <1>; #size-cells = <0>; a@48 { reg = <0x48>; }; b@48 { reg = <0x48>; }; };
D
	dtc -q -I dts -O dtb -o "$BATS_TEST_TMPDIR/dup.dtb" "$BATS_TEST_TMPDIR/dup.dts"
	run dtc_clean "$BATS_TEST_TMPDIR/dup.dtb"
	[ "$status" -ne 0 ]
	[[ "$output" == *"unique_unit_address"* ]]
}

@test "two devices at one address on one bus in a cape are refused, naming both" {
	cat > "$BATS_TEST_TMPDIR/two.cape" <<'D'
eeprom = { board-name = "X"; version = "00A0"; manufacturer = "M"; part-number = "P"; };
devices = (
  { type = "i2c"; bus = "i2c2"; address = 0x48; compatible = "ti,tmp105"; },
  { type = "i2c"; bus = "i2c2"; address = 0x48; compatible = "nxp,lm75"; },
  { type = "i2c"; bus = "i2c1"; address = 0x48; compatible = "nxp,lm75"; name = "other"; }
);
D
	run ct check "$BATS_TEST_TMPDIR/two.cape"
	no_sanitizer_report
	[ "$status" -eq 3 ]
	[[ "$output" == *"two.cape:4: devices[1].address: i2c2 address 0x48 is taken by ti,tmp105 (line 3)"* ]]
	[[ "$output" != *"devices[2]"* ]]
}

@test "an escape-hatch .dtbo with a valid header but a corrupt structure is refused (def-fuzz finding)" {
	# found by fuzz/def-fuzz: a property length past the strings block made
	# the merge allocate (size_t)-4 bytes
	printf '%s\noverlay = "%s";\n' "$HEAD" "$FIX/defs/corrupt-hatch.dtbo" > "$BATS_TEST_TMPDIR/c.cape"
	run ct create "$BATS_TEST_TMPDIR/c.cape" --board qemu-vexpress -o "$BATS_TEST_TMPDIR/out"
	no_sanitizer_report
	[ "$status" -eq 3 ]
	[[ "$output" == *"corrupt-hatch.dtbo: not a valid flattened device tree"* ]]
}
