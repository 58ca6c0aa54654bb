#!/usr/bin/env bats
# The kernel series' layering, checked on the source: a generic core that
# knows no board family, board-family modules that import it and never the
# reverse, and exports only for other modules (drivers/siox is the model).

setup() {
	top=$(cd "$BATS_TEST_DIRNAME/../../.." && pwd)
	k=$top/kernel
	# The core module's sources (its KUnit tests may borrow real pin names).
	core=()
	for f in "$k"/drivers/capebus/capebus-*.[ch] "$k/include/linux/capebus.h"; do
		case $f in *-test.c) ;; *) core+=("$f") ;; esac
	done
}

@test "the core names nothing of the BeagleBone SRM EEPROM format" {
	# Identifiers and words that only the SRM layout has.
	run grep -nE '\bcape_eeprom|CAPE_EEPROM|CAPE_PIN_|CAPE_BONE|cape_bone|uapi/linux/capebus-bone\.h|bone-eeprom|VDD_3V3B|pin[- ]usage|\bbone_[a-bd-z]' "${core[@]}"
	echo "$output"
	[ "$status" -eq 1 ]
}

# The board-family names a generic core must not carry (tests/tools/
# family-names.ere, which tests/bats/host/kernel-module.bats greps the built
# capebus.ko for): words of any case ('_' is no word character here, so
# bone_capemgr names the bone too), and the BeagleBone's part prefix and
# default version wherever they occur.  Comments count: they are what a
# reader takes for the core's assumptions.
family_names=$(cat "$BATS_TEST_DIRNAME/../../tools/family-names.ere")

@test "the core names no board family: BeagleBone, Raspberry Pi, their HATs, parts or versions" {
	run grep -niE "$family_names" "${core[@]}"
	echo "$output"
	[ "$status" -eq 1 ]
	# The rule finds what it is meant to.
	for w in 'the BeagleBone' 'bone_capemgr' 'BB-WTHR-01' 'version 00A0' \
		 'Raspberry Pi' 'an rpi HAT+' 'HAT'; do
		run grep -ciE "$family_names" <<< "$w"
		[ "$output" = 1 ] || { echo "rule misses: $w"; false; }
	done
	for w in 'that' 'what' 'chat' 'bones_x' 'rpix' 'header'; do
		run grep -ciE "$family_names" <<< "$w"
		[ "$output" = 0 ] || { echo "rule matches a plain word: $w"; false; }
	done
}

@test "the core includes no board-family header; controllers see only the public one" {
	run grep -nE '#include.*(bone/|bone\.h|bone-)' "${core[@]}"
	echo "$output"
	[ "$status" -eq 1 ]
	run grep -nE '#include "(\.\./)?capebus-' "$k"/drivers/capebus/bone/*.[ch]
	echo "$output"
	[ "$status" -eq 1 ]
	# The test controller proves it: only <linux/capebus.h> of ours.
	run grep -nE '#include "' "$k/drivers/capebus/capebus-controller-test.c"
	[ "$status" -eq 1 ]
}

@test "the core never calls a controller module's functions" {
	# Every non-static function the bone module defines...
	fns=$(grep -hoE '^[a-z_ ]+\**\b(bone_[a-z_]+|cape_[a-z_]+)\(' "$k"/drivers/capebus/bone/*.c |
		grep -oE '(bone_[a-z_]+|cape_[a-z_]+)\($' | tr -d '(' | sort -u)
	[ -n "$fns" ]
	for f in $fns; do
		run grep -nw "$f" "${core[@]}"
		[ "$status" -eq 1 ] || { echo "core calls $f: $output"; false; }
	done
}

@test "every symbol the core exports is used by a separate module or is cape-driver API" {
	driver_api='__capebus_driver_register capebus_driver_unregister capebus_cape_apply_overlay capebus_cape_revert_overlay'
	exports=$(grep -hoE 'EXPORT_SYMBOL_GPL\([a-z_]+\)' "$k"/drivers/capebus/capebus-*.c |
		sed 's/.*(\(.*\))/\1/' | sort -u)
	[ -n "$exports" ]
	for s in $exports; do
		case " $driver_api " in *" $s "*) continue ;; esac
		# A caller outside the core's own module: a controller module
		# (bone, rpi), the test module (capebus-*-test.c) or a test
		# module of the guest suites (tests/modules/), directly or through a macro of
		# the public header (__devm_..._alloc behind devm_..._alloc).
		users=$s
		m=$(grep -oE "^#define [a-z_]+\(" "$k/include/linux/capebus.h" | sed 's/#define //; s/($//' |
			while read -r d; do grep -A3 "^#define $d(" "$k/include/linux/capebus.h" | grep -qw "$s" && echo "$d"; done || true)
		[ -n "$m" ] && users="$s|$(echo $m | tr ' ' '|')"
		run grep -lwE "$users" "$k"/drivers/capebus/bone/*.c "$k"/drivers/capebus/rpi/*.c \
			"$k"/drivers/capebus/capebus-*-test.c "$BATS_TEST_DIRNAME"/../../modules/*/*.c
		[ "$status" -eq 0 ] || { echo "$s is exported but no other module uses it"; false; }
	done
	# And nothing is exported from a file that no other module links.
	run grep -l 'EXPORT_SYMBOL_GPL' "$k"/drivers/capebus/capebus-resources.c "$k"/drivers/capebus/capebus-partno.c
	[ "$status" -eq 1 ]
}

@test "every device capebus creates has a device_type with its release" {
	for t in capebus_cape_type capebus_slot_type capebus_controller_type; do
		run grep -A4 -E "struct device_type $t = \{" "$k"/drivers/capebus/capebus-*.c
		[[ "$output" == *".release"* ]] || { echo "$t has no release"; false; }
	done
	# No device is given a bare ->release.
	run grep -nE 'dev\.release *=' "$k"/drivers/capebus/capebus-*.c
	[ "$status" -eq 1 ]
}

@test "every reference fw_devlink parses, and every legacy GPIO name gpiolib reads, is one the overlay verifier checks" {
	local ksrc=${KSRC:-${CAPEBUS_CACHE:-$HOME/.cache/capebus}/linux-6.12}
	if [ ! -f "$ksrc/drivers/of/property.c" ]; then
		[ -z "${CB_REQUIRE_KSRC:-}" ] || { echo "no 6.12 tree at $ksrc" >&2; return 1; }
		skip "no 6.12 tree at $ksrc (make kernel-tree)"
	fi
	run "$top/tests/tools/of-refs-check.py" "$ksrc" "$k/drivers/capebus/capebus-overlay.c"
	echo "$output"
	[ "$status" -eq 0 ]
	# It reads the table: a binding left out of it is found.
	sed 's/{ "regmap", .=. },//; s/{ "-supply", .>. },//' \
		"$k/drivers/capebus/capebus-overlay.c" > "$BATS_TEST_TMPDIR/overlay.c"
	run "$top/tests/tools/of-refs-check.py" "$ksrc" "$BATS_TEST_TMPDIR/overlay.c"
	[ "$status" -eq 1 ]
	[[ "$output" == *"NOT COVERED: suffix -supply"* ]]
	# And gpiolib's legacy names (spi-gpio's gpio-sck).
	sed 's/{ "gpio-sck", .=., CAPEBUS_REFS_CELLS, "#gpio-cells" },//' \
		"$k/drivers/capebus/capebus-overlay.c" > "$BATS_TEST_TMPDIR/overlay.c"
	run "$top/tests/tools/of-refs-check.py" "$ksrc" "$BATS_TEST_TMPDIR/overlay.c"
	[ "$status" -eq 1 ]
	[[ "$output" == *"NOT COVERED: gpiolib legacy name gpio-sck"* ]]
}

# legacy_gpio_names FILE: the legacy GPIO names FILE lists, sorted: capetool's
# legacy_gpio() table (nexus.c), or the overlay verifier's CAPEBUS_REFS_CELLS
# "#gpio-cells" entries.
legacy_gpio_names() {
	case $1 in
	*nexus.c) sed -n '/^static bool legacy_gpio(/,/^}/p' "$1" | grep -oE '"[^"]+"' | tr -d '"' ;;
	*) grep -oE '\{ "[^"]+", .=., CAPEBUS_REFS_CELLS, "#gpio-cells" \}' "$1" | cut -d'"' -f2 ;;
	esac | sort
}

@test "capetool's walk of a cape's nexus specifiers reads gpiolib's legacy GPIO names as the overlay verifier does" {
	local kernel=$k/drivers/capebus/capebus-overlay.c ct=$top/capetool/nexus.c
	[ -n "$(legacy_gpio_names "$kernel")" ]
	run diff <(legacy_gpio_names "$kernel") <(legacy_gpio_names "$ct")
	echo "$output"
	[ "$status" -eq 0 ]
	# It reads both tables: a name one leaves out is found.
	sed 's/"gpio-sck", //' "$ct" > "$BATS_TEST_TMPDIR/nexus.c"
	run diff <(legacy_gpio_names "$kernel") <(legacy_gpio_names "$BATS_TEST_TMPDIR/nexus.c")
	[ "$status" -eq 1 ]
	[[ "$output" == *"< gpio-sck"* ]]
}
