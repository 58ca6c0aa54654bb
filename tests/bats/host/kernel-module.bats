#!/usr/bin/env bats
# The built core module, capebus.ko, carries no board family's name: no
# string a reader of `strings capebus.ko` (messages, parameter
# descriptions, sysfs words, file names) would take for a BeagleBone or
# Raspberry Pi assumption.  tests/bats/tooling/kernel-layout.bats checks the
# core's sources with the same rule (tests/tools/family-names.ere); this
# checks what was built from them, so it runs after the kernel build (the
# host stage of `make check`).

load helpers

setup() {
	ko=${CAPEBUS_CACHE:-$HOME/.cache/capebus}/build/kernel/drivers/capebus/capebus.ko
	names=$(cat "$TOP/tests/tools/family-names.ere")
	if [ ! -f "$ko" ]; then
		no_ksrc "no $ko (make kernel)" "no $ko (make kernel)" || return
	fi
	# Built from these sources: the tree's copies are the worktree's and
	# none is newer than the module.
	stale=
	for f in "$TOP"/kernel/drivers/capebus/capebus-*.[ch] "$TOP/kernel/include/linux/capebus.h"; do
		case $f in *-test.c) continue ;; esac
		t=$KSRC/${f#"$TOP/kernel/"}
		if ! cmp -s "$f" "$t" || [ "$t" -nt "$ko" ]; then
			stale+=" ${f#"$TOP/"}"
		fi
	done
	if [ -n "$stale" ]; then
		no_ksrc "$ko is older than$stale (make kernel)" \
			"$ko is older than$stale (make kernel)" || return
	fi
}

@test "capebus.ko has no BeagleBone or Raspberry Pi name in it (strings)" {
	run bash -c "strings -a '$ko' | grep -iE '$names'"
	echo "$output"
	[ "$status" -eq 1 ]
	# And the module is the core: its own strings are there.
	run bash -c "strings -a '$ko' | grep -c 'capebus:f'"
	[ "$output" -ge 1 ]
}
