#!/usr/bin/env bats
# capetool's command line: help, version, exit codes.

load helpers

@test "--version prints the version" {
	run ct --version
	[ "$status" -eq 0 ]
	[[ "$output" =~ ^capetool\ [0-9]+\.[0-9]+\.[0-9]+$ ]]
}

@test "--help lists every command and every exit code" {
	run ct --help
	[ "$status" -eq 0 ]
	for c in create decode check flash read override remove list schema pinout resolve import-rpi; do
		[[ "$output" == *"  $c "* ]]
	done
	for code in 0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15; do
		[[ "$output" =~ (^|$'\n')" "*"$code  " ]] || { echo "no exit code $code"; false; }
	done
}

@test "every command has --help" {
	for c in create decode check flash read override remove list schema pinout resolve import-rpi; do
		run ct "$c" --help
		[ "$status" -eq 0 ]
		[[ "$output" == *"usage: capetool $c"* ]]
		run ct help "$c"
		[ "$status" -eq 0 ]
		[[ "$output" == *"usage: capetool $c"* ]]
	done
}

@test "no command or an unknown one is a usage error" {
	run ct
	[ "$status" -eq 2 ]
	run ct frobnicate
	[ "$status" -eq 2 ]
	[[ "$output" == *"'frobnicate' is not a command"* ]]
	run ct create --bogus-option "$DEFS/weather.cape"
	[ "$status" -eq 2 ]
}

@test "a short option means the same long option in every command's --help" {
	local c line s l bad=0
	declare -A long_of used_in
	for c in create decode check flash read override remove list schema pinout resolve import-rpi; do
		run ct "$c" --help
		[ "$status" -eq 0 ]
		while IFS= read -r line; do
			[[ $line =~ ^[[:space:]]+-([A-Za-z]),\ --([a-z-]+) ]] || continue
			s=${BASH_REMATCH[1]} l=${BASH_REMATCH[2]}
			if [ -n "${long_of[$s]:-}" ] && [ "${long_of[$s]}" != "$l" ]; then
				echo "-$s is --${long_of[$s]} in${used_in[$s]}, --$l in $c"
				bad=1
			fi
			long_of[$s]=${long_of[$s]:-$l}
			used_in[$s]="${used_in[$s]:-} $c"
		done <<< "$output"
	done
	[ "$bad" -eq 0 ]
}

@test "the short options that meant two things are gone; their long options work" {
	cd "$BATS_TEST_TMPDIR"
	# -s is --slot; -f is --force; -b is --board; -o is --output; -c is --cape
	run ct create "$DEFS/weather.cape" -s 0125EXLB9999 -o out
	[ "$status" -eq 2 ] || { echo "create -s: $output"; false; }
	run ct create "$DEFS/weather.cape" --serial 0125EXLB9999 -o out
	[ "$status" -eq 0 ]
	run ct decode -f cape out/BB-WTHR-01-00A2.eeprom
	[ "$status" -eq 2 ] || { echo "decode -f: $output"; false; }
	run ct decode --format=cape out/BB-WTHR-01-00A2.eeprom
	[ "$status" -eq 0 ]
	run ct pinout -s p.svg "$DEFS/weather.cape"
	[ "$status" -eq 2 ] || { echo "pinout -s: $output"; false; }
	[ ! -e p.svg ]
	run ct flash out/BB-WTHR-01-00A2.eeprom --device ee -b old.eeprom
	[ "$status" -eq 2 ] || { echo "flash -b: $output"; false; }
	run ct override out/BB-WTHR-01-00A2.eeprom -o x.dtbo
	[ "$status" -eq 2 ] || { echo "override -o: $output"; false; }
	run ct remove X -c capebus0
	[ "$status" -eq 2 ] || { echo "remove -c: $output"; false; }
}

@test "--variant once (a repeat or an empty name is a usage error) and - once among check's and pinout's files" {
	run ct check --variant no-hdmi --variant no-emmc "$DEFS/weather.cape"
	no_sanitizer_report
	[ "$status" -eq 2 ]
	[[ "$output" == *"--variant given twice (\"no-hdmi\", \"no-emmc\"): name the variants once, comma-separated (--variant no-hdmi,no-emmc)"* ]]
	for v in --variant= --variant=no-hdmi, --variant=,no-hdmi --variant=no-hdmi,,no-emmc; do
		run ct check "$v" "$DEFS/weather.cape"
		[ "$status" -eq 2 ]
		[[ "$output" == *"an empty variant name"* ]]
	done
	for c in create resolve pinout; do
		run ct $c --variant no-hdmi --variant no-emmc x
		[ "$status" -eq 2 ]
		[[ "$output" == *"--variant given twice"* ]]
	done
	run ct check --variant no-hdmi,no-emmc "$DEFS/weather.cape"
	[ "$status" -eq 0 ]
	run ct check - - < "$DEFS/weather.cape"
	[ "$status" -eq 2 ]
	[[ "$output" == *"- (standard input) given twice"* ]]
	run ct pinout - - < "$DEFS/weather.cape"
	[ "$status" -eq 2 ]
}

@test "an unknown --board is said once, with a did-you-mean, by every command (user test 26, defect 6)" {
	for c in check pinout create resolve; do
		case $c in
		resolve) run ct resolve -b beagle-bone-black -c "$DEFS/weather.cape" x.dtbo -o "$BATS_TEST_TMPDIR/r.dtbo" ;;
		create) run ct create -b beagle-bone-black "$DEFS/weather.cape" -o "$BATS_TEST_TMPDIR/o" ;;
		*) run ct $c -b beagle-bone-black "$DEFS/weather.cape" ;;
		esac
		echo "$c: $output"
		no_sanitizer_report
		[ "$status" -eq 2 ]
		[[ "$output" == *'unknown board "beagle-bone-black" (did you mean beaglebone-black?); known boards:'* ]]
		# the list once
		[ "$(grep -c '^  qemu-vexpress$' <<< "$output")" -eq 1 ]
		[ "$(grep -c 'unknown board' <<< "$output")" -eq 1 ]
	done
	run ct check -b nosuchthing "$DEFS/weather.cape"
	[ "$status" -eq 2 ]
	[[ "$output" == *'unknown board "nosuchthing"; known boards:'* ]]
}

@test "-V prints the version, as --version does (clig.dev)" {
	run ct -V
	[ "$status" -eq 0 ]
	[[ "$output" =~ ^capetool\ [0-9]+\.[0-9]+\.[0-9]+$ ]]
	[ "$output" = "$(ct --version)" ]
	run ct --help
	[[ "$output" == *"usage: capetool [-V|--version] [-h|--help]"* ]]
}

@test "a misspelled command gets a did-you-mean; one like none gets none" {
	run ct creat "$DEFS/weather.cape"
	[ "$status" -eq 2 ]
	[ "$output" = "capetool: 'creat' is not a command; did you mean 'create'? (see 'capetool --help')" ]
	run ct resolv
	[ "$status" -eq 2 ]
	[[ "$output" == *"did you mean 'resolve'?"* ]]
	run ct frobnicate
	[ "$status" -eq 2 ]
	[[ "$output" != *"did you mean"* ]]
}

@test "binary data to a terminal is refused, saying to give a file (exit 2, nothing written); to a pipe it is written" {
	cd "$BATS_TEST_TMPDIR"
	def=$DEFS/bone/bborg-relay.cape
	ct create "$def" -b beaglebone-black -o o >/dev/null
	for cmd in "create $def --eeprom-out -" "create $def --dtbo-out -" \
		   "resolve -b beaglebone-black -c $def o/BBORG_RELAY-00A2.dtbo -o -" \
		   "decode -x - o/BBORG_RELAY-00A2.eeprom" "read --device o/BBORG_RELAY-00A2.eeprom -o -"; do
		# script(1) gives capetool a terminal for standard output
		run script -qec "'$CAPETOOL' $cmd" /dev/null
		echo "$cmd: $output"
		[ "$status" -eq 2 ]
		[[ "$output" == *"capetool: refusing to write binary data to a terminal: give a file (-o FILE) or redirect standard output"* ]]
		[[ "$output" != *$'\xd0\x0d\xfe\xed'* ]]
	done
	ct resolve -b beaglebone-black -c "$def" o/BBORG_RELAY-00A2.dtbo -o - > piped.dtbo
	ct resolve -b beaglebone-black -c "$def" o/BBORG_RELAY-00A2.dtbo -o r.dtbo >/dev/null
	cmp piped.dtbo r.dtbo
	[ "$(ct create "$def" --eeprom-out - | head -c 4 | od -An -tx1 | tr -d ' ')" = aa5533ee ]
}

@test "--board NAME.board without a '/' is that file, as ./NAME.board is; other names are profiles" {
	cd "$BATS_TEST_TMPDIR"
	sed 's/^name = "beaglebone-black";/name = "my-bone";/' "$TOP/schemas/boards/beaglebone-black.board" > my.board
	run ct check --board my.board "$DEFS/weather.cape"
	echo "$output"
	no_sanitizer_report
	[ "$status" -eq 0 ]
	[[ "$output" == *"(board my-bone)"* ]]
	[ "$output" = "$(ct check --board ./my.board "$DEFS/weather.cape")" ]
	# a .board name that is no file: said as a file, exit 4
	run ct check --board nothere.board "$DEFS/weather.cape"
	[ "$status" -eq 4 ]
	[[ "$output" == *"nothere.board: cannot read board profile"* ]]
	# a profile's name is the profile, whatever the directory holds
	cp my.board beaglebone-black
	run ct check --board beaglebone-black "$DEFS/weather.cape"
	[[ "$output" == *"(board beaglebone-black)"* ]]
}
