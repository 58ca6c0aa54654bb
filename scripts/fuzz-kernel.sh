#!/bin/bash
# Fuzz the kernel's parsers of untrusted bytes in userspace: build the
# libFuzzer targets of tests/fuzz/kernel (each runs a kernel/drivers/capebus
# file unmodified against a header shim), then
#  (a) replay every regression input and every seed-corpus file once,
#  (b) run each target coverage-guided for FUZZ_SECONDS seconds, from a
#      scratch copy of its corpus (the committed corpus does not grow).
# TAP on stdout: one line per regression input and one per target per
# phase; libFuzzer's exec count and cov:/ft: as comments; a crash, timeout,
# leak or OOM is "not ok", its input saved under $O/artifacts/<target>/ and
# its log under $O/logs/.  Exit status 1 if anything was not ok.
#
# usage: scripts/fuzz-kernel.sh [TARGET...]       (default: every target)
# environment:
#   FUZZ_SECONDS     seconds per target in phase (b); default 60, 0 skips it
#   FUZZ_KEEP_GOING  1: phase (b) goes on past crashes (libFuzzer -fork=1
#                    -ignore_crashes=1 ...) and lists the distinct ones
#   O                build directory; default build/fuzz-kernel
#
# Installs clang, libclang-rt-14-dev and libfdt-dev if missing (apt-get,
# as root or through sudo), as scripts/deps.sh does.
set -uo pipefail
export LC_ALL=C	# sanitizer logs quote raw bytes

top=$(cd "$(dirname "$0")/.." && pwd)
fz=$top/tests/fuzz/kernel
O=${O:-$top/build/fuzz-kernel}
mkdir -p "$O"
O=$(cd "$O" && pwd)
secs=${FUZZ_SECONDS:-60}
keep_going=${FUZZ_KEEP_GOING:-0}

# --- what it needs ---------------------------------------------------------
pkgs=(clang libclang-rt-14-dev libfdt-dev make)
missing=()
for p in "${pkgs[@]}"; do
	dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null | grep -q '^install ok installed$' ||
		missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
	sudo=
	[ "$(id -u)" = 0 ] || sudo=sudo
	echo "# installing ${missing[*]}"
	# A failed index (a mirror mid-sync) need not stop us: install decides.
	$sudo apt-get -o Acquire::Retries=3 update -qq >/dev/null 2>&1 ||
		echo "# apt-get update reported failed indexes; going on"
	if ! DEBIAN_FRONTEND=noninteractive $sudo apt-get -o Acquire::Retries=3 \
		install -y -qq --no-install-recommends "${missing[@]}" >/dev/null; then
		echo "Bail out! cannot install ${missing[*]}"
		exit 1
	fi
fi

# --- build -----------------------------------------------------------------
mkdir -p "$O/logs"
if ! make -C "$fz" O="$O" >"$O/logs/build.log" 2>&1; then
	echo "Bail out! build failed (log: $O/logs/build.log)"
	tail -n 20 "$O/logs/build.log" | sed 's/^/# /'
	exit 1
fi
if [ $# -gt 0 ]; then
	targets=("$@")
else
	mapfile -t targets < <(make -s -C "$fz" O="$O" list)
fi

export ASAN_OPTIONS=${ASAN_OPTIONS:-halt_on_error=1:detect_leaks=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-halt_on_error=1:print_stacktrace=1}

n=0
passed=0
failed=0
tap() {	# ok|not-ok DESCRIPTION
	n=$((n + 1))
	if [ "$1" = ok ]; then
		passed=$((passed + 1))
		echo "ok $n - $2"
	else
		failed=$((failed + 1))
		echo "not ok $n - $2"
	fi
}

# What a libFuzzer log says went wrong, on one line: the sanitizer's or the
# harness's first words and the first frame in the kernel's files.
signature() {	# LOG
	local what where
	what=$(grep -a -m1 -oE 'ERROR: (AddressSanitizer|LeakSanitizer|libFuzzer): [a-z -]+|runtime error: .*|property violated: .*|kshim: .*' "$1" |
		sed -E 's/ on address.*//; s/"[^"]*"/"..."/g; s/0x[0-9a-f]+/0x../g; s/ +$//')
	where=$(grep -a -m1 -oE 'in [A-Za-z_0-9]+ [^ ]*kernel/drivers/capebus/[^ ]+' "$1" |
		sed -E "s|$top/||; s/^in //")
	[ -n "$where" ] || where=$(grep -a -m1 -oE '[^ ]*kernel/drivers/capebus/[^ :]+:[0-9]+' "$1" | sed "s|$top/||")
	echo "${what:-exit without a report}${where:+ at $where}"
}

# Run BIN on one input; on failure say why as TAP comments.
replay_one() {	# TARGET INPUT LOG
	local bin=$O/$1
	timeout 120 "$bin" -timeout=20 -rss_limit_mb=2048 "$2" >"$3" 2>&1
}

# --- (a) regression inputs and seed corpus, once each ------------------------
for t in "${targets[@]}"; do
	if [ ! -x "$O/$t" ]; then
		tap not-ok "$t: no such target (make -C tests/fuzz/kernel list)"
		continue
	fi
	mkdir -p "$O/logs/$t"
	for f in "$fz/regress/$t"/*; do
		[ -f "$f" ] || continue
		log=$O/logs/$t/regress-$(basename "$f").log
		if replay_one "$t" "$f" "$log"; then
			tap ok "$t: regression input $(basename "$f")"
		else
			tap not-ok "$t: regression input $(basename "$f")"
			echo "# $(signature "$log")"
			echo "# log: $log"
		fi
	done
	count=0
	bad=()
	for f in "$fz/corpus/$t"/*; do
		[ -f "$f" ] || continue
		count=$((count + 1))
		log=$O/logs/$t/corpus-$(basename "$f").log
		replay_one "$t" "$f" "$log" || bad+=("$f")
	done
	if [ ${#bad[@]} -eq 0 ]; then
		tap ok "$t: $count seed-corpus files replayed"
	else
		tap not-ok "$t: ${#bad[@]} of $count seed-corpus files crash"
		for f in "${bad[@]}"; do
			log=$O/logs/$t/corpus-$(basename "$f").log
			echo "# $(basename "$f"): $(signature "$log")"
		done
	fi
done

# --- (b) coverage-guided runs ------------------------------------------------
for t in "${targets[@]}"; do
	[ -x "$O/$t" ] || continue
	if [ "$secs" = 0 ]; then
		tap ok "$t: coverage-guided run # SKIP FUZZ_SECONDS=0"
		continue
	fi
	work=$O/run/$t
	art=$O/artifacts/$t
	log=$O/logs/$t/fuzz.log
	rm -rf "$work"
	mkdir -p "$work/corpus" "$art"
	cp "$fz/corpus/$t"/* "$work/corpus/" 2>/dev/null
	opts=(-max_total_time="$secs" -print_final_stats=1 -timeout=20 -rss_limit_mb=2048
		-artifact_prefix="$art/")
	[ -f "$fz/$t.dict" ] && opts+=(-dict="$fz/$t.dict")
	before=$(ls "$art" | wc -l)
	if [ "$keep_going" = 1 ]; then
		opts+=(-fork=1 -ignore_crashes=1 -ignore_timeouts=1 -ignore_ooms=1)
	fi
	(cd "$work" && timeout $((secs + 300)) "$O/$t" "${opts[@]}" corpus) >"$log" 2>&1
	rc=$?
	if [ "$keep_going" = 1 ]; then
		stats=$(grep -a -E '^#[0-9]+: cov: ' "$log" | tail -n 1)
		execs=$(sed -E 's/^#([0-9]+):.*/\1/' <<<"$stats")
		crashes=$(grep -oE 'oom/timeout/crash: [0-9/]+' <<<"$stats")
	else
		stats=$(grep -a -E '^#[0-9]+.*cov: ' "$log" | tail -n 1)
		execs=$(grep -a -oE 'stat::number_of_executed_units: [0-9]+' "$log" | grep -oE '[0-9]+$')
		crashes=
	fi
	cov=$(grep -oE 'cov: [0-9]+' <<<"$stats")
	ft=$(grep -oE 'ft: [0-9]+' <<<"$stats")
	new=$(($(ls "$art" | wc -l) - before))
	if [ $rc -eq 0 ] && [ $new -eq 0 ]; then
		tap ok "$t: ${secs}s coverage-guided run"
	else
		tap not-ok "$t: ${secs}s coverage-guided run"
	fi
	echo "# execs: ${execs:-?}, ${cov:-cov: ?}, ${ft:-ft: ?}${crashes:+, $crashes}; log: $log"
	if [ $new -gt 0 ]; then
		# The distinct findings among the new artifacts (300 at most,
		# drawn at random: each replay is a process).
		[ $new -le 300 ] || echo "# distinct findings among 300 of the $new inputs:"
		for a in $(ls -t "$art" | head -n "$new" | shuf -n 300); do
			replay_one "$t" "$art/$a" "$O/logs/$t/artifact-$a.log"
			echo "$(signature "$O/logs/$t/artifact-$a.log")|$art/$a"
		done | sort -t'|' -k1,1 -u | while IFS='|' read -r sig path; do
			echo "# $sig"
			echo "#   input: $path"
		done
	elif [ $rc -ne 0 ]; then
		echo "# libFuzzer exited $rc: $(signature "$log")"
	fi
done

echo "1..$n"
echo "fuzz-kernel: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
