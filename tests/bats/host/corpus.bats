#!/usr/bin/env bats
# The real-cape corpus (fixtures/realcapes/README): for each real
# BeagleBoard cape a definition of cape-defs/ describes, capetool's overlay
# resolved for the Black sets what BeagleBoard.org's own overlay sets
# (devices, buses and addresses, compatibles, GPIOs, pads and modes, units
# enabled), but where the facts file says why not; it applies onto
# am335x-boneblack.dtb; real stacks pass check, real conflicts are refused
# naming the pin.

load helpers

RC=$BATS_TEST_DIRNAME/fixtures/realcapes

setup_file() {
	export BASE_DTBS=$BATS_FILE_TMPDIR
	build_base_dtbs "$BASE_DTBS" || true
}

# field FACTS KEY: the value of a facts file's KEY line
field() {
	sed -n "s/^$2 //p" "$1"
}

# board_of FACTS: the options naming the facts' board and its variant
# (no-hdmi: the Black with its HDMI framer off, the series'
# am335x-boneblack-nohdmi.dts: its LCD and McASP pins the capes'), one a line
board_of() {
	echo --board
	field "$1" board
	[ -z "$(field "$1" variant)" ] || printf '%s\n' --variant "$(field "$1" variant)"
}

# expected FACTS: bb.org's facts with the only-* lines applied, sorted
expected() {
	python3 - "$1" <<'PY'
import sys
facts, only_orig, only_ct = set(), set(), set()
for l in open(sys.argv[1]):
    l = l.rstrip("\n")
    if not l or l.startswith("#") or l.split()[0] in ("source", "definition", "board", "variant"):
        continue
    if l.startswith("only-original ") or l.startswith("only-capetool "):
        kind, rest = l.split(" ", 1)
        fact = rest.split(" # ", 1)[0]
        (only_orig if kind == "only-original" else only_ct).add(fact)
    else:
        facts.add(l)
stale = only_orig - facts
if stale:
    sys.exit("only-original lines bb.org's facts do not have: %s" % sorted(stale))
for f in sorted((facts - only_orig) | only_ct):
    print(f)
PY
}

# resolved_of FACTS DIR: create and resolve the facts' definition for its
# board into DIR; print the resolved overlay
resolved_of() {
	local board def=$DEFS/$(field "$1" definition) f
	mapfile -t board < <(board_of "$1")
	rm -rf "$2" && mkdir -p "$2" || return
	ct create "$def" "${board[@]}" -o "$2" >/dev/null || return
	f=$(cd "$2" && ls -- *.dtbo) || return
	ct resolve "${board[@]}" --cape "$def" "$2/$f" -o "$2/resolved.dtbo" >/dev/null || return
	echo "$2/resolved.dtbo"
}

@test "the corpus: at least 20 real capes of at least 10 kinds, each citing its original" {
	n=0
	for f in "$RC"/*.facts; do
		src=$(field "$f" source)
		[[ $src == "beagleboard/bb.org-overlays 2992ff2066e0716a26775dcd4936795c612d8428 src/arm/"*.dts ]] ||
			{ echo "$f: no source line naming the original"; return 1; }
		[ -f "$DEFS/$(field "$f" definition)" ] || { echo "$f: no definition"; return 1; }
		n=$((n + 1))
	done
	[ "$n" -ge 20 ]
	# the device kinds the corpus's definitions use (an escape hatch's
	# gpio-keys count as key)
	kinds=$(for f in "$RC"/*.facts; do
		d=$DEFS/$(field "$f" definition)
		sed -n 's/.*type = "\([a-z0-9]*\)".*/\1/p' "$d"
		grep -qs gpio-keys "${d%.cape}.dtso" && echo key
	done | sort -u)
	echo "$kinds"
	for k in i2c spi uart can pwm adc led key lcd audio w1 rs485; do
		grep -qx "$k" <<< "$kinds" || { echo "no real cape of kind $k"; return 1; }
	done
}

@test "each real cape's overlay, resolved for the Black, sets what BeagleBoard.org's sets, but where its facts say why not" {
	full=0
	for f in "$RC"/*.facts; do
		r=$(resolved_of "$f" "$BATS_TEST_TMPDIR/$(basename "$f" .facts)") ||
			{ echo "$f: create or resolve failed"; return 1; }
		got=$(python3 "$RC/facts.py" --cells 3 "$r")
		want=$(expected "$f") || return 1
		diff <(echo "$want") <(echo "$got") ||
			{ echo "$(basename "$f"): bb.org's facts (<) and capetool's (>) differ"; return 1; }
		grep -q '^only-' "$f" || full=$((full + 1))
	done
	echo "$full match fully"
	[ "$full" -ge 9 ]
}

@test "each real cape, resolved, applies onto am335x-boneblack.dtb: its devices and units are in the merged tree" {
	need_base_dtb bbb.dtb
	sym() { fdtget "$BASE_DTBS/bbb.dtb" /__symbols__ "$1"; }
	for f in "$RC"/*.facts; do
		r=$(resolved_of "$f" "$BATS_TEST_TMPDIR/r") || return 1
		m=$BATS_TEST_TMPDIR/merged.dtb
		run fdtoverlay -i "$BASE_DTBS/bbb.dtb" -o "$m" "$r"
		[ "$status" -eq 0 ] || { echo "$f: $output"; return 1; }
		while read -r what a b c; do
			case $what in
			enabled)
				[ "$(fdtget "$m" "$(sym "$a")" status)" = okay ] ||
					{ echo "$f: $a is not on in the merged tree"; return 1; } ;;
			device)
				[ "$a" = / ] && p=/ || p=$(sym "$a") || continue
				found=
				for n in $(fdtget -l "$m" "$p"); do
					[ "$p" = / ] && np=/$n || np=$p/$n
					[ "$(fdtget "$m" "$np" compatible 2>/dev/null | cut -d' ' -f1)" = "$b" ] || continue
					[ "$c" = - ] || [ "$(printf '0x%x' "$(fdtget "$m" "$np" reg | cut -d' ' -f1)")" = "$c" ] || continue
					found=$np
				done
				[ -n "$found" ] || { echo "$f: no $b at $c under $a in the merged tree"; return 1; } ;;
			esac
		done < <(expected "$f" | grep -E '^(enabled|device) [^ ]+ ')
		rm -rf "$BATS_TEST_TMPDIR/r"
	done
}

@test "real stacks pass check and apply together onto am335x-boneblack.dtb" {
	B=$DEFS/bone
	stack1=("$B/bb-pwm1.cape" "$B/bb-adc.cape" "$B/bb-can1.cape" "$B/bb-i2c2-rtc-ds1338.cape")
	stack2=("$B/bb-uart2.cape" "$B/bb-pwm2.cape" "$B/bb-w1-p9.12.cape" "$B/bb-i2c1-rtc-ds3231.cape")
	stack3=("$B/board-props/bb-uart4-rs485.cape" "$B/bb-pwm0.cape" "$B/bborg-comms.cape")
	for s in 1 2 3; do
		eval 'defs=("${stack'$s'[@]}")'
		run ct check --board beaglebone-black "${defs[@]}"
		no_sanitizer_report
		if [ "$s" = 3 ]; then
			# the Comms Cape's RS-485 is uart4 as well: P9.11 and P9.13
			[ "$status" -eq 5 ]
			[[ $output == *"bborg-comms.cape: "*"pin P9.13 is held by BB-UART4-RS485 (slot 0)"* ]]
			continue
		fi
		[ "$status" -eq 0 ] || { echo "$output"; return 1; }
		need_base_dtb bbb.dtb
		rm -rf "$BATS_TEST_TMPDIR/out"
		for d in "${defs[@]}"; do
			resolved "$d" "$BATS_TEST_TMPDIR/out" >/dev/null
		done
		run fdtoverlay -i "$BASE_DTBS/bbb.dtb" -o "$BATS_TEST_TMPDIR/all.dtb" "$BATS_TEST_TMPDIR"/out/*.beaglebone-black.dtbo
		[ "$status" -eq 0 ] || { echo "$output"; return 1; }
	done
	sym() { fdtget "$BASE_DTBS/bbb.dtb" /__symbols__ "$1"; }
	for u in uart2 ehrpwm2 i2c1; do
		[ "$(fdtget "$BATS_TEST_TMPDIR/all.dtb" "$(sym $u)" status)" = okay ]
	done
	[ "$(fdtget "$BATS_TEST_TMPDIR/all.dtb" "$(sym i2c1)/ds3231@68" compatible)" = maxim,ds3231 ]
}

@test "real conflicts are refused, naming the pin" {
	B=$DEFS/bone
	run ct check --board beaglebone-black "$B/bb-uart1.cape" "$B/bb-can1.cape"
	[ "$status" -eq 5 ]
	[[ $output == *"bb-can1.cape: "*"pin P9.24 is held by BB-UART1 (slot 0)"* ]]
	run ct check --board beaglebone-black "$B/bb-pwm0.cape" "$B/bb-spi0-mcp3008.cape"
	[ "$status" -eq 5 ]
	[[ $output == *"bb-spi0-mcp3008.cape: "*"pin P9.22 is held by BB-PWM0 (slot 0)"* ]]
	run ct check --board beaglebone-black "$B/bb-p9_27-led.cape" "$B/board-props/bb-uart4-rs485.cape"
	[ "$status" -eq 5 ]
	[[ $output == *"bb-uart4-rs485.cape: "*"pin P9.27 is held by BB-P9_27-LED (slot 0)"* ]]
	# the LCD and audio capes on the Black: its HDMI framer's pins
	run ct check --board beaglebone-black "$B/hdmi-pins/bb-bone-lcd4-01.cape"
	[ "$status" -eq 5 ]
	[[ $output == *"pin P8.45 is held by the board"* ]]
	run ct check --board beaglebone-black "$B/hdmi-pins/bb-bone-audi-02.cape"
	[ "$status" -eq 5 ]
	[[ $output == *"pin P9.31 is held by the board"* ]]
	# with the HDMI framer off, they stack, but not with the relay cape (P9.30)
	run ct check --board beaglebone-black --variant no-hdmi "$B/hdmi-pins/bb-bone-lcd4-01.cape" "$B/bb-adc.cape"
	[ "$status" -eq 0 ] || { echo "$output"; return 1; }
	run ct check --board beaglebone-black --variant no-hdmi "$B/hdmi-pins/bb-bone-audi-02.cape" "$B/bborg-relay.cape"
	[ "$status" -eq 5 ]
	[[ $output == *"bborg-relay.cape: "*"pin P9.30 is held by BB-BONE-AUDI-02 (slot 0)"* ]]
}
