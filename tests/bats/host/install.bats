#!/usr/bin/env bats
# make -C capetool install: the release binary, the man page and the bash
# completion under $(DESTDIR)$(PREFIX); the completion knows what --help
# says.

load helpers

# The build directory `make check` uses (its release binary and man page
# are up to date there, so install only copies).
O=${CAPETOOL_O:-$TOP/build/capetool}
COMMANDS="create decode check flash read override remove list status schema pinout resolve import-rpi"

@test "make install puts the binary, the man page and the bash completion under DESTDIR/PREFIX" {
	d=$BATS_TEST_TMPDIR/root
	run make -s --no-print-directory -C "$TOP/capetool" O="$O" install DESTDIR="$d" PREFIX=/opt/ct
	echo "$output"
	[ "$status" -eq 0 ]
	[ -x "$d/opt/ct/bin/capetool" ]
	run "$d/opt/ct/bin/capetool" --version
	[[ "$output" == "capetool "* ]]
	[ -f "$d/opt/ct/share/man/man1/capetool.1" ]
	[ -f "$d/opt/ct/share/bash-completion/completions/capetool" ]
	[ "$(cd "$d" && find . -type f | sort | tr '\n' ' ')" = \
	  "./opt/ct/bin/capetool ./opt/ct/share/bash-completion/completions/capetool ./opt/ct/share/man/man1/capetool.1 " ]
	# the man page renders, with its examples
	MANWIDTH=80 run man -l "$d/opt/ct/share/man/man1/capetool.1"
	[ "$status" -eq 0 ]
	[[ "$output" == *"EXAMPLES"* ]]
	[[ "$output" == *"capetool create cape-defs/weather.cape"* ]]
	[[ "$output" == *"EXIT STATUS"* ]]
	# PREFIX defaults to /usr/local
	run make -s --no-print-directory -C "$TOP/capetool" O="$O" install DESTDIR="$BATS_TEST_TMPDIR/d2"
	[ "$status" -eq 0 ]
	[ -x "$BATS_TEST_TMPDIR/d2/usr/local/bin/capetool" ]
	[ -f "$BATS_TEST_TMPDIR/d2/usr/local/share/man/man1/capetool.1" ]
}

# complete WORD...: what the completion offers for the command line
# "capetool WORD...", the last word being completed.
complete_words() {
	bash -c '
		. "$1"; shift
		COMP_WORDS=(capetool "$@"); COMP_CWORD=$#
		_capetool capetool "${!#}" "${COMP_WORDS[COMP_CWORD - 1]}"
		printf "%s\n" "${COMPREPLY[@]}"' complete "$TOP/capetool/capetool.bash-completion" "$@"
}

@test "the bash completion offers every command, and each command's options as its --help lists them" {
	run complete_words ""
	echo "$output"
	for c in $COMMANDS; do
		grep -qx -- "$c" <<< "$output" || { echo "no command $c"; false; }
	done
	for c in $COMMANDS; do
		run ct "$c" --help
		want=$(grep -oE -- '(^|[ ,[(|])--[a-z][a-z-]*' <<< "$output" | sed 's/^[ ,[(|]//' | sort -u)
		run complete_words "$c" --
		got=$(grep -- '^--' <<< "$output" | sed 's/=$//' | sort -u)
		[ "$got" = "$want" ] || { echo "$c: --help says"; echo "$want"; echo "completion offers"; echo "$got"; false; }
	done
	# a board name after --board
	run complete_words create x.cape --board ""
	[[ "$output" == *beaglebone-black* && "$output" == *qemu-vexpress* ]]
}

@test "the completion offers the values of --format= and --color=, whether bash splits the word at '=' or not" {
	run complete_words decode --format = ""
	[ "$(echo $output)" = "text json cape eepdump" ]
	run complete_words decode --format = j
	[ "$output" = json ]
	# COMP_WORDBREAKS without '=': one word, completed whole
	run complete_words decode --format=
	[ "$(echo $output)" = "--format=text --format=json --format=cape --format=eepdump" ]
	run complete_words pinout --color=a
	[ "$(echo $output)" = "--color=auto --color=always" ]
	run complete_words pinout --color ""
	[ "$(echo $output)" = "auto always never" ]
}

@test "the man page's FILES section renders each path whole, its variable parts in italics (man -l)" {
	MANWIDTH=80 run man -l "$O/man/capetool.1"
	[ "$status" -eq 0 ]
	files=$(sed -n '/^FILES/,/^EXAMPLES/p' <<< "$output")
	echo "$files"
	[[ "$files" == *"/sys/class/capebus/ctrl/slotN/"* ]]
	[[ "$files" == *"/sys/bus/capebus/devices/cape/"* ]]
	[[ "$files" == *"/sys/kernel/config/capebus/ctrl/capes/name/"* ]]
	[[ "$files" != *"capebus/ ctrl"* ]]
}
