#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
# The guest suites run in parallel (scripts/run-suites.sh) and are joined
# into one stage per lane (scripts/merge-suites.sh): the joined stage must
# be exactly as honest as one bats run of them all.  Toy suites stand in
# for guest suites here.

setup() {
	top=$(cd "$BATS_TEST_DIRNAME/../../.." && pwd)
	d=$BATS_TEST_TMPDIR
	export SUITE_TIMES=$d/times
	mkdir -p "$d/out"
	printf '@test "a1" { true; }\n@test "a2" { true; }\n' > "$d/a.bats"
	printf '@test "b1" { true; }\n@test "b2" { false; }\n' > "$d/b.bats"
	printf '@test "c1" { sleep 1; true; }\n' > "$d/c.bats"
}

@test "suites run two at a time and join into one stage with every test, renumbered" {
	printf 'a fast %s -\nc fast %s -\n' "$d/a.bats" "$d/c.bats" > "$d/jobs"
	run "$top/scripts/run-suites.sh" -j 2 "$d/out" "$d/jobs"
	[ "$status" -eq 0 ]
	"$top/scripts/merge-suites.sh" "$d/out" "$d/stage" a c
	[ "$(cat "$d/stage.rc")" = 0 ]
	run grep -E '^(1\.\.|(not )?ok )' "$d/stage.tap"
	[ "${lines[0]}" = 1..3 ]
	[[ "${lines[1]}" == "ok 1 a: a1"* ]]
	[[ "${lines[3]}" == "ok 3 c: c1"* ]]
	# Each suite's wall time is kept for the next run's order.
	grep -q '^c ' "$SUITE_TIMES"
}

@test "a failing test in one parallel suite turns the joined stage red" {
	printf 'a fast %s -\nb fast %s -\nc fast %s -\n' "$d/a.bats" "$d/b.bats" "$d/c.bats" > "$d/jobs"
	"$top/scripts/run-suites.sh" -j 2 "$d/out" "$d/jobs"
	"$top/scripts/merge-suites.sh" "$d/out" "$d/stage" a b c
	[ "$(cat "$d/stage.rc")" = 1 ]
	grep -q '^not ok 4 b: b2' "$d/stage.tap"
	[ "$(grep -c '^ok ' "$d/stage.tap")" = 4 ]
}

@test "a suite cut short, or with no plan at all, adds a failure of its own" {
	printf '1..3\nok 1 x1\n' > "$d/out/x.tap"
	echo 137 > "$d/out/x.rc"
	: > "$d/out/y.tap"
	echo 1 > "$d/out/y.rc"
	"$top/scripts/merge-suites.sh" "$d/out" "$d/stage" x y
	[ "$(cat "$d/stage.rc")" = 1 ]
	grep -q '^not ok 2 x: bats stopped after 1 of 3 tests (exit 137' "$d/stage.tap"
	grep -q '^not ok 3 y: bats stopped after 0 of ? tests' "$d/stage.tap"
	# The plan counts x's three: the summary also sees results missing.
	[ "$(head -n1 "$d/stage.tap")" = 1..3 ]
}

@test "a suite whose gate failed is not run, and fails; one whose gate is open runs" {
	echo 2 > "$d/gate-bad"
	echo 0 > "$d/gate-ok"
	printf 'a distro %s %s\nc distro %s %s\n' "$d/a.bats" "$d/gate-bad" "$d/c.bats" "$d/gate-ok" > "$d/jobs"
	"$top/scripts/run-suites.sh" -j 2 "$d/out" "$d/jobs"
	grep -q "^not ok 1 a: not run: $d/gate-bad says 2" "$d/out/a.tap"
	[ "$(cat "$d/out/a.rc")" = 1 ]
	[ "$(cat "$d/out/c.rc")" = 0 ]
}

@test "a suite waits for its gate to appear" {
	printf 'c distro %s %s\n' "$d/c.bats" "$d/gate" > "$d/jobs"
	( sleep 2; echo 0 > "$d/gate" ) &
	"$top/scripts/run-suites.sh" -j 2 "$d/out" "$d/jobs"
	[ "$(cat "$d/out/c.rc")" = 0 ]
	read -r start _ < "$d/out/c.time"
	[ "$(stat -c %Y "$d/gate")" -le "${start%.*}" ]
}

@test "every guest suite of both lanes has a committed cost: a fresh clone starts the longest first" {
	local f name missing=()
	eval "$(sed -n "/^DISTRO_SUITES='/,/^'/p" "$top/scripts/check.sh")"
	[ -n "$DISTRO_SUITES" ]
	for f in "$top"/tests/bats/guest/*.bats "$top"/tests/bats/distro/*.bats; do
		name=$(basename "$f" .bats)
		[[ $f == */distro/* ]] && name=distro-$name
		grep -qE "^$name [0-9]+$" "$top/tests/bats/suite-costs" || missing+=("$name")
	done
	while read -r name _; do
		[ -n "$name" ] || continue
		grep -qE "^distro-$name [0-9]+$" "$top/tests/bats/suite-costs" || missing+=("distro-$name")
	done <<< "$DISTRO_SUITES"
	[ ${#missing[@]} -eq 0 ] || { echo "no cost in tests/bats/suite-costs: ${missing[*]}" >&2; false; }
}
