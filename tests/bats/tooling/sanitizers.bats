#!/usr/bin/env bats
# Sanitizer findings are failures wherever they come from: the host
# helpers (tests/bats/host/helpers.bash) fail a test on any report in
# capetool's stderr whatever its exit status, and the fuzzer (capetool's
# `make fuzz-run`) stops at the first UBSan report with a non-zero status.

setup() {
	top=$(cd "$BATS_TEST_DIRNAME/../../.." && pwd)
	d=$BATS_TEST_TMPDIR
}

# fake_capetool SOURCE: a stand-in for capetool built like the ASan one.
fake_capetool() {
	printf '%s\n' "$1" > "$d/fake.c"
	gcc -O1 -g -fsanitize=address,undefined -fno-sanitize-recover=all -o "$d/fake" "$d/fake.c"
}

# host_test BODY: run BODY as a host-suite test against the stand-in.
host_test() {
	mkdir -p "$d/host"
	# (Written with printf: bats would rewrite an @test line here.)
	printf 'load %s\n%s "t" {\n%s\n}\n' "$top/tests/bats/host/helpers" '@test' "$1" > "$d/host/t.bats"
	# A bats of its own: none of this run's BATS_ variables.
	run env $(compgen -e | grep '^BATS_' | sed 's/^/-u /') CAPETOOL="$d/fake" \
		bats --tap "$d/host/t.bats"
	echo "$output"
}

LEAK='#include <stdlib.h>
#include <string.h>
char *volatile keep;
int main(int c, char **v) { keep = strdup(v[0]); keep = NULL; return 1; }'

@test "a leak in a command that was meant to exit 1 fails the test" {
	fake_capetool "$LEAK"
	host_test 'run ct remove x; [ "$status" -eq 1 ]'
	[ "$status" -ne 0 ]
	[[ "$output" == *"not ok 1 t"* ]]
	[[ "$output" == *"LeakSanitizer: detected memory leaks"* ]]
}

@test "a report fails the test even when the test ignores the command's status" {
	fake_capetool '#include <limits.h>
int main(int c, char **v) { volatile int x = INT_MAX; x += c; return 0; }'
	host_test 'ct decode x || true
	! ct decode y'
	[ "$status" -ne 0 ]
	[[ "$output" == *"runtime error: signed integer overflow"* ]]
}

@test "the same command without the leak passes: the check is on the report" {
	fake_capetool 'int main(void) { return 1; }'
	host_test 'run ct remove x; [ "$status" -eq 1 ]'
	[ "$status" -eq 0 ]
}

@test "a UBSan shift overflow planted in the decoder makes the fuzzer fail" {
	# A scratch copy of capetool whose decoder shifts a byte into int's sign.
	mkdir -p "$d/tree"
	cp -r "$top/capetool" "$d/tree/capetool"
	ln -s "$top/kernel" "$d/tree/kernel"
	ln -s "$top/tests" "$d/tree/tests"
	ln -s "$top/schemas" "$d/tree/schemas"
	ln -s "$top/cape-defs" "$d/tree/cape-defs"
	sed -i 's|^\tmemset(img, 0, sizeof(\*img));$|&\n\t{ volatile int planted = buf[0] << 24; (void)planted; }|' \
		"$d/tree/capetool/eeprom.c"
	grep -q planted "$d/tree/capetool/eeprom.c"
	run make -s -C "$d/tree/capetool" O="$d/out" fuzz-run FUZZ_TIME=20
	echo "$output"
	[ "$status" -ne 0 ]
	[[ "$output" == *"runtime error: left shift of "*"cannot be represented in type 'int'"* ]]
	# Without the plant, the same run passes.
	cp "$top/capetool/eeprom.c" "$d/tree/capetool/eeprom.c"
	run make -s -C "$d/tree/capetool" O="$d/out" fuzz-run FUZZ_TIME=3
	[ "$status" -eq 0 ]
}
