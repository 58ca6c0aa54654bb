#!/usr/bin/env bats
# scripts/ktap2tap.py on synthetic console logs: a KUnit run that failed,
# stopped or panicked must come out with a `not ok`, never as a short green
# run.  kunit-green.log is a whole run of two suites (one with a
# parameterised case and a skip), in the format Linux 6.12 prints.

setup() {
	top=$(cd "$BATS_TEST_DIRNAME/../../.." && pwd)
	green=$BATS_TEST_DIRNAME/fixtures/kunit-green.log
	log=$BATS_TEST_TMPDIR/console.log
}

ktap() {
	run "$top/scripts/ktap2tap.py" "$@"
	echo "$output"
	[ "$status" -eq 0 ]
}

# Only the plan and ok lines: what check.sh counts.
@test "a green run: one ok per case, the skip kept, no not ok" {
	ktap "$green"
	[ "${lines[0]}" = "1..4" ]
	[ "${lines[1]}" = "ok 1 kunit capebus-resources.claim_and_release" ]
	[ "${lines[3]}" = "ok 3 kunit bone-eeprom.cape_eeprom_test_text" ]
	[ "${lines[4]}" = "ok 4 kunit bone-eeprom.crc_unused # SKIP no CRC in A1" ]
	[[ "$output" != *"not ok"* ]]
}

@test "a failed case is a not ok" {
	sed 's/    ok 2 overlap_refused/    not ok 2 overlap_refused/; s/^\(\[[^]]*\] \)ok 1 capebus-resources/\1not ok 1 capebus-resources/' "$green" > "$log"
	ktap "$log"
	[[ "$output" == *"not ok 2 kunit capebus-resources.overlap_refused"* ]]
	[ "$(grep -c '^not ok' <<< "$output")" -eq 1 ]
}

@test "a suite whose init failed (only its top-level not ok) is a failure" {
	# What KUnit prints when suite_init fails: the plan, no case, not ok.
	sed -e '/ok 1 claim_and_release/d' -e '/ok 2 overlap_refused/d' -e '/    1\.\.2$/d' \
	    -e 's/^\(\[[^]]*\] \)ok 1 capebus-resources/\1not ok 1 capebus-resources/' "$green" > "$log"
	ktap "$log"
	[[ "$output" == *"not ok 1 kunit capebus-resources: the suite failed"* ]]
}

@test "a run that stops inside a suite (no suite result, cases missing) is a failure" {
	# The kernel died after the first case of the first suite.
	sed '/ok 2 overlap_refused/,$d' "$green" > "$log"
	ktap "$log"
	[[ "$output" == *"not ok"*"capebus-resources: stopped after 1 of 2 cases"* ]]
	[[ "$output" == *"not ok"*"capebus-resources: no result for the suite"* ]]
	[[ "$output" == *"not ok"*"stopped early (0 of 2 suites)"* ]]
}

@test "a whole suite missing from the plan's count is a failure" {
	sed '/# Subtest: bone-eeprom/,$d' "$green" > "$log"
	ktap "$log"
	[[ "$output" == *"not ok 3 kunit the KTAP output stopped early (1 of 2 suites)"* ]]
}

@test "a kernel panic anywhere in the log is a failure, even after a complete run" {
	{ cat "$green"; echo "[    2.000000] Kernel panic - not syncing: Attempted to kill init! exitcode=0x0000000b"; } > "$log"
	ktap "$log"
	[[ "$output" == *"not ok 5 kunit the kernel panicked: Kernel panic - not syncing: Attempted to kill init!"* ]]
}

@test "a log with no KTAP at all is a failure" {
	grep -v 'KTAP\|ok \|1\.\.' "$green" > "$log"
	ktap "$log"
	[ "${lines[0]}" = "1..1" ]
	[[ "${lines[1]}" == "not ok 1 kunit no KUnit suite ran"* ]]
}

@test "the kernel-log judge's verdict is one more test: ok if it found nothing" {
	: > "$BATS_TEST_TMPDIR/judged"
	ktap "$green" --judged "$BATS_TEST_TMPDIR/judged"
	[ "${lines[0]}" = "1..5" ]
	[ "${lines[5]}" = "ok 5 kunit the kernel log has no error line" ]
}

@test "a lockdep splat during a green KUnit run fails it (kunit.sh judges the log)" {
	{ cat "$green"; echo "[    1.5] WARNING: possible circular locking dependency detected"; } > "$log"
	(. "$top/tests/qemu/lib.bash"; cb_kernel_errors < "$log") > "$BATS_TEST_TMPDIR/judged"
	ktap "$log" --judged "$BATS_TEST_TMPDIR/judged"
	[ "${lines[0]}" = "1..5" ]
	[ "${lines[5]}" = "not ok 5 kunit the kernel log has no error line" ]
	[ "${lines[6]}" = "# [    1.5] WARNING: possible circular locking dependency detected" ]
}

@test "a guest that did not come up is a failure" {
	ktap "$green" --boot-failed "guest_boot: no answer from the guest in 120s"
	[ "${lines[5]}" = "not ok 5 kunit the guest booted and answered: guest_boot: no answer from the guest in 120s" ]
}
