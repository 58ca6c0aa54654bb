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
	for c in create decode check flash read override remove list schema pinout resolve; do
		[[ "$output" == *"  $c "* ]]
	done
	for code in 0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15; do
		[[ "$output" =~ (^|$'\n')" "*"$code  " ]] || { echo "no exit code $code"; false; }
	done
}

@test "every command has --help" {
	for c in create decode check flash read override remove list schema pinout resolve; do
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
