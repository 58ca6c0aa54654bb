# shellcheck shell=bash
# Helpers for bats suites that run against the capebus guest in QEMU.
#
#   load ../../qemu/lib      (from tests/bats/guest/*.bats)
#
#   setup_file()    { guest_boot --slot 0="$CB_FIXTURES/weather.eeprom"; }
#   teardown_file() { guest_shutdown; }
#   setup()         { guest_setup; }
#   teardown()      { guest_teardown; }
#
# guest_boot ARGS...   boot once per file (ARGS as for tests/qemu/boot.sh)
# guest_run CMD...     run CMD (text) in a guest subshell: sets $status, $output
#                      (stdout then stderr), $stdout, $stderr, $lines, like
#                      bats' `run`; status 124 after $CB_RUN_TIMEOUT seconds,
#                      with what the guest was doing (unless CB_DIAGNOSE=0)
# guest_ok CMD...      guest_run, and fail the test unless it exits 0
# guest_reboot         power off and boot again with the same options; the
#                      EEPROM files keep what the guest wrote
# guest_dmesg          the guest's kernel log, in $output
# guest_put FILE [NAME]  make FILE readable in the guest as /host/NAME (over
#                      9p; on raspi2b, which has no virtio, through the agent)
# guest_qmp CMD [JSON] a QMP command to this guest's QEMU; prints its return
# guest_settle         wait until the guest's hotplug helpers (mdev, the
#                      modprobe runs they start) are done; at once on the
#                      fast lane, whose kernel runs no helper
# guest_teardown       fails the test if the kernel logged an error (see
#                      CB_KERNEL_ERRORS) while it ran
# guest_shutdown       scan kmemleak, judge the rest of the log, power off;
#                      fails if either found something (teardown_file
#                      calls it: what a file's last test left is judged)
# cb_kernel_errors     the judge: the error lines of the kernel log on stdin
#
# A test that knowingly makes the kernel print an error line names it in
# CB_KERNEL_EXPECTED (an ERE), e.g. mainline's
#   OF: overlay: WARNING: memory leak will occur if overlay removed, property: ...
# which an overlay that sets a property of a base-tree node (status =
# "okay" on a board's bus) makes of_overlay print: the property leaks each
# time the overlay is removed.  That is mainline's, not capebus's, and a
# real cape may do it, but it is a leak: it fails every test that does not
# say it expects it.
#
# The console log of each boot is kept in $CB_LOGDIR (build/test-logs, or
# build/test-logs/distro on the distribution lane).
#
# CB_MACHINE selects the machine, as for boot.sh: "vexpress" (default, the
# test board) or "raspi2b" (the Raspberry Pi 2 B, $CB_RASPI2B_DTB).
#
# CB_LANE selects the kernel: "fast" (default; $CB_KERNEL, $CB_INITRD) or
# "distro", the distribution-like lane ($CB_DISTRO_KERNEL, $CB_DISTRO_INITRD:
# PM, drivers as modules loaded by mdev, KASAN).  A suite that must set
# things up differently on a lane tests "$CB_LANE".

CB_TOP=${CB_TOP:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)}
CB_LANE=${CB_LANE:-fast}
if [ "$CB_LANE" = distro ]; then
	CB_KERNEL=${CB_DISTRO_KERNEL:-}
	CB_INITRD=${CB_DISTRO_INITRD:-}
	CB_LOGDIR=${CB_LOGDIR:-$CB_TOP/build/test-logs/distro}
fi
export CB_LANE CB_KERNEL CB_INITRD
CB_LOGDIR=${CB_LOGDIR:-$CB_TOP/build/test-logs}
# The distribution lane boots KASAN and loads its modules before the agent
# answers: minutes on a loaded machine.
[ "$CB_LANE" != distro ] || CB_BOOT_TIMEOUT=${CB_BOOT_TIMEOUT:-360}
CB_BOOT_TIMEOUT=${CB_BOOT_TIMEOUT:-120}
# Generous: most commands take well under a second, and a timeout fails the
# test either way (with a dump of the guest, see _guest_diagnose).  The
# stress test and the tests of the timeout itself set their own.
CB_RUN_TIMEOUT=${CB_RUN_TIMEOUT:-300}
# What in a kernel log means the kernel is broken.  Beyond Oops/BUG/WARNING
# (which cover lockdep's "WARNING: possible circular locking dependency",
# KASAN's "BUG: KASAN:", "BUG: sleeping function called from invalid
# context"), the lifetime and sysfs bugs that print no WARNING: a pr_err and
# a stack dump (OF refcounts, sysfs duplicates, kobject -EEXIST), the hung
# task and RCU stall reports, kmemleak's.  tests/bats/tooling/kernel-log.bats
# feeds each a real kernel line.
CB_KERNEL_ERRORS='Oops|BUG:|WARNING:|Kernel panic|Unable to handle|kernel BUG|UBSAN|KASAN'
CB_KERNEL_ERRORS+='|possible recursive locking|circular locking|sleeping function called from invalid context'
CB_KERNEL_ERRORS+='|INFO: trying to register non-static key|INFO: task .* blocked|blocked for more than [0-9]+ seconds'
CB_KERNEL_ERRORS+='|rcu: INFO: .*detected stall|self-detected stall'
CB_KERNEL_ERRORS+='|OF: ERROR:|OF: overlay: ERROR:|of_node_get\(\)/of_node_put\(\) unbalanced'
CB_KERNEL_ERRORS+='|sysfs: cannot create duplicate filename|kobject_add_internal failed|kobject: .*-EEXIST'
CB_KERNEL_ERRORS+='|tried to init an initialized object|refcount_t: |list_(add|del) corruption'
CB_KERNEL_ERRORS+='|kmemleak: [0-9]+ new suspected|unreferenced object 0x'

# cb_kernel_errors: the lines of a kernel log (stdin) that mean the kernel
# is broken, less those the test declared in CB_KERNEL_EXPECTED.  The one
# judge of every boot: each test, each file's end, shutdown, and KUnit.
cb_kernel_errors() {
	if [ -n "${CB_KERNEL_EXPECTED:-}" ]; then
		grep -aE "$CB_KERNEL_ERRORS" | grep -avE "$CB_KERNEL_EXPECTED"
	else
		grep -aE "$CB_KERNEL_ERRORS"
	fi
	return 0
}

_cb_die() {
	echo "$*" >&2
	return 1
}

# guest_boot [boot.sh options]
guest_boot() {
	local name
	name=${CB_NAME:-$(basename "${BATS_TEST_FILENAME:-guest}" .bats)}
	export CB_RUN=${CB_RUN:-${BATS_FILE_TMPDIR:-$CB_TOP/build/guest-run}/guest}
	export CB_BOOT_ARGS_FILE=$CB_RUN.args
	export CB_CONSOLE_KEEP=$CB_LOGDIR/$name.console.log
	mkdir -p "$CB_RUN" "$CB_LOGDIR"
	: > "$CB_CONSOLE_KEEP"
	printf '%s\n' "$@" > "$CB_BOOT_ARGS_FILE"
	_guest_start "$@"
}

_guest_start() {
	rm -f "$CB_RUN/answered"
	"$CB_TOP/tests/qemu/boot.sh" "$CB_RUN" "$@" || return 1
	local t0=$SECONDS
	export CB_SEQ=0
	# Wait for the agent: ask it until it answers.
	while :; do
		if ! kill -0 "$(cat "$CB_RUN/qemu.pid")" 2>/dev/null; then
			_guest_keep_log
			_cb_die "guest_boot: QEMU exited during boot: $(cat "$CB_RUN/qemu.err")" \
				"; console log: $CB_CONSOLE_KEEP"
			return 1
		fi
		CB_RUN_TIMEOUT=2 CB_DIAGNOSE=0 guest_run true 2>/dev/null && [ "$status" = 0 ] && break
		if [ $((SECONDS - t0)) -ge "$CB_BOOT_TIMEOUT" ]; then
			_guest_keep_log
			_cb_die "guest_boot: no answer from the guest in ${CB_BOOT_TIMEOUT}s; console log: $CB_CONSOLE_KEEP"
			return 1
		fi
	done
	echo 0 > "$CB_RUN/console.mark"
	touch "$CB_RUN/answered"
	guest_teardown || return 1
}

_guest_keep_log() {
	[ -f "$CB_RUN/console.log" ] && cat "$CB_RUN/console.log" >> "$CB_CONSOLE_KEEP"
	return 0
}

guest_run() {
	local script="$*" id line partial="" seen=0 rc="" section="" pid t0=$SECONDS fin fout
	local -a body
	CB_SEQ=$((${CB_SEQ:-0} + 1))
	id="$$.$CB_SEQ.$RANDOM"
	read -r pid < "$CB_RUN/qemu.pid" || pid=0
	mapfile -t body <<< "$script"
	stdout="" stderr=""
	# Open the FIFOs read-write: that never blocks, even if QEMU is gone.
	exec {fin}<>"$CB_RUN/agent.in" {fout}<>"$CB_RUN/agent.out"
	printf '@@CB-CMD %s %d\n' "$id" "${#body[@]}" >&"$fin"
	printf '%s\n' "${body[@]}" >&"$fin"
	while [ -z "$rc" ]; do
		# A line can straddle read's timeout: read then returns failure
		# with the part it got in $line.  Keep that part, or the rest
		# of the line (an @@CB-END, say) is read as a line of its own.
		if ! IFS= read -r -t 1 line <&"$fout"; then
			partial+=$line
			if ! kill -0 "$pid" 2>/dev/null; then
				rc=255 stderr="guest_run: the guest died running: $script"
			elif [ $((SECONDS - t0)) -ge "$CB_RUN_TIMEOUT" ]; then
				rc=124 stderr="guest_run: timed out after ${CB_RUN_TIMEOUT}s: $script"
				[ "${CB_DIAGNOSE:-1}" = 0 ] || stderr+=$'\n'$(_guest_diagnose)
			fi
			continue
		fi
		line=$partial$line partial=""
		case $line in
		"@@CB-OUT $id") seen=1 section=out ;;
		"@@CB-ERR $id") section=err ;;
		"@@CB-END $id "*) [ $seen = 1 ] && rc=${line##* } ;;
		*) case $section in
		   out) stdout+=$line$'\n' ;;
		   err) stderr+=$line$'\n' ;;
		   esac ;;
		esac
	done
	exec {fin}>&- {fout}>&-
	# Like $(...) and bats' run: trailing newlines go.
	while [[ $stdout == *$'\n' ]]; do stdout=${stdout%$'\n'}; done
	while [[ $stderr == *$'\n' ]]; do stderr=${stderr%$'\n'}; done
	status=$rc
	if [ -n "$stderr" ] && [ -n "$stdout" ]; then
		output="$stdout"$'\n'"$stderr"
	else
		output="$stdout$stderr"
	fi
	lines=()
	[ -z "$output" ] || mapfile -t lines <<< "$output"
	return 0
}

# What the guest was doing when a command timed out: where the CPU is and,
# through SysRq over the console, the blocked tasks (here) and every task's
# stack (in the console log).
_guest_diagnose() {
	local mark pc sym map
	mark=$(stat -c %s "$CB_RUN/console.log" 2>/dev/null || echo 0)
	pc=$(guest_qmp human-monitor-command '{"command-line": "info registers"}' 2>/dev/null |
		grep -o 'R15=[0-9a-f]*' | cut -d= -f2)
	map=$(dirname "$CB_KERNEL")/../../../System.map
	if [ -n "$pc" ] && [ -f "$map" ]; then
		# The symbol at or below the PC.
		# (8 lower-case hex digits on both sides: text order is address order).
		sym=$(awk -v pc="$pc" '$1 <= pc && $1 > best { best = $1; name = $3 }
			END { if (name) print name }' "$map")
	fi
	echo "guest CPU at pc ${pc:-?} ${sym:+($sym)}"
	"$CB_TOP/tests/qemu/sysrq.py" "$CB_RUN" wt >/dev/null 2>&1 || echo "(SysRq failed)"
	echo "blocked tasks (SysRq w; every task's stack, SysRq t, is in $CB_CONSOLE_KEEP):"
	tail -c +"$((mark + 1))" "$CB_RUN/console.log" 2>/dev/null |
		sed -n '/sysrq: Show Blocked State/,/sysrq: Show State/p' | head -n 60
}

guest_ok() {
	guest_run "$@"
	if [ "$status" != 0 ]; then
		printf 'guest command failed (status %s): %s\n%s\n' "$status" "$*" "$output" >&2
		return 1
	fi
}

guest_dmesg() {
	guest_run dmesg
}

guest_put() {
	local name=${2:-$(basename "$1")}
	if [ "${CB_MACHINE:-vexpress}" = raspi2b ]; then
		guest_run "base64 -d > /host/$name <<'@@CB-B64'
$(base64 "$1")
@@CB-B64"
		[ "$status" = 0 ] || _cb_die "guest_put: $1: $output"
		return
	fi
	cp "$1" "$CB_RUN/share/$name"
}

guest_qmp() {
	"$CB_TOP/tests/qemu/qmp.py" "$CB_RUN/qmp.sock" "$@"
}

# Stop the guest and wait for QEMU to go.  Not through the guest's poweroff:
# vexpress's power-off handler takes a mutex in atomic context, and lockdep
# reports it (a mainline vexpress bug, not ours); QEMU's own quit flushes
# the EEPROM files just as well.
# Before that, kmemleak looks for leaks, and the log since the last test's
# check is judged: what a file's last test left behind (a leak, a late
# splat from a work item) fails teardown_file, hence the file.
guest_shutdown() {
	[ -n "${CB_RUN:-}" ] && [ -f "$CB_RUN/qemu.pid" ] || return 0
	local pid i rc=0 scanned=""
	pid=$(cat "$CB_RUN/qemu.pid")
	# What the last test left in the log, before the scan adds its own.
	_guest_judge "after the last test" || rc=1
	if kill -0 "$pid" 2>/dev/null; then
		# (A guest whose agent never answered has no kmemleak to ask:
		# its boot failed already.)
		if [ "${CB_KMEMLEAK:-1}" != 0 ] && [ -f "$CB_RUN/answered" ]; then
			_guest_kmemleak || rc=1
			# Its scans' "N new suspected" lines: _guest_kmemleak
			# judged what stayed suspect.
			scanned='kmemleak: [0-9]+ new suspected'
		fi
		CB_RUN_TIMEOUT=5 CB_DIAGNOSE=0 guest_run sync >/dev/null 2>&1 || true
		guest_qmp quit >/dev/null 2>&1 || true
		for i in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
		kill "$pid" 2>/dev/null || true
	fi
	CB_KERNEL_EXPECTED=${CB_KERNEL_EXPECTED:-}${CB_KERNEL_EXPECTED:+${scanned:+|}}$scanned \
		_guest_judge "at shutdown" || rc=1
	_guest_keep_log
	rm -f "$CB_RUN/qemu.pid" "$CB_RUN/answered"
	return $rc
}

# kmemleak's verdict on this boot.  It ignores objects younger than 5 s
# (its minimum age) and may miss a leak on one scan (a stale pointer on a
# stack): wait past the age, scan twice.  A scan can also suspect an object
# in flight (an mm_struct mid-exec was seen once); the file lists only what
# the last scan still found unreferenced, so a third scan a second later
# confirms.  A suspect fails, and its report (allocation stack) is printed.
_guest_kmemleak() {
	local report
	CB_RUN_TIMEOUT=120 CB_DIAGNOSE=0 guest_run '[ -e /sys/kernel/debug/kmemleak ] || exit 3
		sleep 6; echo scan > /sys/kernel/debug/kmemleak; echo scan > /sys/kernel/debug/kmemleak
		sleep 1; echo scan > /sys/kernel/debug/kmemleak
		cat /sys/kernel/debug/kmemleak'
	if [ "$status" = 3 ]; then
		_cb_die "kmemleak: /sys/kernel/debug/kmemleak is missing (CONFIG_DEBUG_KMEMLEAK, debugfs)"
		return 1
	elif [ "$status" != 0 ]; then
		_cb_die "kmemleak: the scan failed (status $status): $output"
		return 1
	fi
	report=$(cb_kernel_errors <<< "$output")
	if [ -n "$report" ]; then
		printf 'kmemleak found leaks in this boot (console log: %s):\n%s\n' \
			"$CB_CONSOLE_KEEP" "$(head -n 40 <<< "$output")" >&2
		return 1
	fi
}

guest_reboot() {
	local args=()
	guest_shutdown
	mapfile -t args < "$CB_BOOT_ARGS_FILE"
	_guest_start "${args[@]}" --keep
}

guest_settle() {
	guest_ok "cb-settle"
}

# Per-test setup: nothing to do yet (kept so suites read symmetrically).
guest_setup() {
	:
}

# Per-test: fail if the kernel complained since the last check (boot
# messages count against the first test).
guest_teardown() {
	_guest_judge "during this test"
}

# _guest_judge WHEN: fail if the console log since the last check has an
# error line; move the mark past it.
_guest_judge() {
	local new mark size
	[ -f "$CB_RUN/console.log" ] || return 0
	mark=$(cat "$CB_RUN/console.mark" 2>/dev/null || echo 0)
	size=$(stat -c %s "$CB_RUN/console.log")
	echo "$size" > "$CB_RUN/console.mark"
	new=$(tail -c +"$((mark + 1))" "$CB_RUN/console.log" | head -c "$((size - mark))" |
		cb_kernel_errors | head -n 5)
	if [ -n "$new" ]; then
		printf 'the kernel logged errors %s (console log: %s):\n%s\n' \
			"$1" "$CB_CONSOLE_KEEP" "$new" >&2
		return 1
	fi
}
