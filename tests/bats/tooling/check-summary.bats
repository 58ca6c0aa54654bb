#!/usr/bin/env bats
# scripts/check.sh's summary (--summary DIR): the green line must not be
# greener than the stages.  Each test builds a results directory where every
# stage passed with exactly its floor of tests, then breaks one stage.

setup() {
	top=$(cd "$BATS_TEST_DIRNAME/../../.." && pwd)
	r=$BATS_TEST_TMPDIR/results
	mkdir -p "$r"
	while read -r name floor; do
		{ echo "1..$floor"; for i in $(seq "$floor"); do echo "ok $i $name test $i"; done; } > "$r/$name.tap"
		echo 0 > "$r/$name.rc"
	done < <("$top/scripts/check.sh" --floors)
}

# floor STAGE: the stage's floor in check.sh's table.
floor() {
	"$top/scripts/check.sh" --floors | awk -v s="$1" '$1 == s { print $2 }'
}

summary() {
	run "$top/scripts/check.sh" --summary "$r"
	echo "$output"
}

@test "every stage at its floor, exit 0: green, with a line per stage" {
	summary
	[ "$status" -eq 0 ]
	[[ "${lines[-1]}" =~ ^[0-9]+\ passed,\ 0\ failed$ ]]
	g=$(floor guest)
	[[ "$output" == *"  guest      $g passed, 0 failed, 0 skipped (floor $g)"* ]]
	[ "$(grep -c 'floor' <<< "$output")" -eq "$("$top/scripts/check.sh" --floors | wc -l)" ]
}

@test "a stage that exited non-zero with all its TAP ok fails" {
	# The fuzzer's crash, after the host suites' TAP.
	echo 2 > "$r/host.rc"
	summary
	[ "$status" -ne 0 ]
	[[ "$output" == *"host       FAILED: exit status 2"* ]]
	[[ "${lines[-1]}" == *" passed, 1 failed" ]]
}

@test "a bats directory with no files (1..0, exit 0) fails" {
	echo "1..0" > "$r/tooling.tap"
	summary
	[ "$status" -ne 0 ]
	[[ "$output" == *"tooling    FAILED: 0 tests, fewer than its floor"* ]]
}

@test "a stage one test short of its floor fails" {
	g=$(floor guest)
	sed -i "\$d; s/^1\.\.[0-9]*/1..$((g - 1))/" "$r/guest.tap"
	summary
	[ "$status" -ne 0 ]
	[[ "$output" == *"guest      FAILED: $((g - 1)) tests, fewer than its floor"* ]]
	[[ "${lines[-1]}" == *" passed, 1 failed" ]]
}

@test "a stage that printed no TAP fails" {
	: > "$r/kunit.tap"
	summary
	[ "$status" -ne 0 ]
	[[ "$output" == *"kunit      FAILED: printed no TAP"* ]]
}

@test "a stage that never ran (no TAP file, no status) fails" {
	rm "$r/bisect.tap" "$r/bisect.rc"
	summary
	[ "$status" -ne 0 ]
	[[ "$output" == *"bisect     FAILED: printed no TAP; exit status missing"* ]]
}

@test "fewer results than the stage's own plan fails (bats killed mid-file)" {
	# (a plan above the floor, whatever the floor is)
	local plan=$(($(floor guest) + 5))
	sed -i "s/^1\.\.\([0-9]*\)/1..$plan/" "$r/guest.tap"
	summary
	[ "$status" -ne 0 ]
	[[ "$output" == *"guest      FAILED: $(floor guest) results of the $plan planned"* ]]
}

@test "a not ok fails, counted once with the stage's exit status" {
	sed -i 's/^ok 3 /not ok 3 /' "$r/host.tap"
	echo 1 > "$r/host.rc"
	summary
	[ "$status" -ne 0 ]
	[[ "${lines[-1]}" == *" passed, 1 failed" ]]
}

@test "skips are counted apart from passes in the summary" {
	sed -i 's/^ok 3 \(.*\)/ok 3 \1 # skip no tree/' "$r/host.tap"
	summary
	[ "$status" -eq 0 ]
	[[ "${lines[-1]}" == *" passed, 0 failed, 1 skipped" ]]
}
