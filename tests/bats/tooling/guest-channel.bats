#!/usr/bin/env bats
# tests/qemu/lib.bash's command channel, against a stand-in agent on the
# FIFOs: what the host makes of replies that arrive late, split or never.

setup() {
	top=$(cd "$BATS_TEST_DIRNAME/../../.." && pwd)
	export CB_RUN=$BATS_TEST_TMPDIR/run
	mkdir -p "$CB_RUN"
	mkfifo "$CB_RUN/agent.in" "$CB_RUN/agent.out"
	# The "QEMU" whose liveness guest_run watches.
	sleep 600 3>&- &
	echo $! > "$CB_RUN/qemu.pid"
	load "$top/tests/qemu/lib"
}

teardown() {
	kill "$(cat "$CB_RUN/qemu.pid")" 2>/dev/null || true
	[ -z "${agent:-}" ] || kill "$agent" 2>/dev/null || true
}

# agent WORDS...: answer one command the way the real agent frames it, but
# write the reply in pieces: a word "pause" sleeps 1.5 s (longer than the
# host's read timeout), any other word is written as is ("\n" for newline).
agent() {
	(
		exec <>"$CB_RUN/agent.in" >>"$CB_RUN/agent.out"
		IFS= read -r hdr
		set -- $hdr
		id=$2
		IFS= read -r _
		for w in "${words[@]}"; do
			case $w in
			pause) sleep 1.5 ;;
			*) printf "${w//@ID/$id}" ;;
			esac
		done
	) 3>&- &
	agent=$!
}

@test "a reply line split across the host's read timeout is put back together" {
	words=('@@CB-OUT @ID\n' 'hel' pause 'lo\n' '@@CB-ERR @ID\n' '@@CB-E' pause 'ND @ID 3\n')
	agent
	CB_RUN_TIMEOUT=10 guest_run "anything"
	[ "$status" = 3 ]
	[ "$output" = hello ]
}

@test "stdout and stderr come back apart and in \$output together" {
	words=('@@CB-OUT @ID\n' 'out 1\nout 2\n' '@@CB-ERR @ID\n' 'err\n' '@@CB-END @ID 0\n')
	agent
	guest_run "anything"
	[ "$status" = 0 ]
	[ "$stdout" = $'out 1\nout 2' ]
	[ "$stderr" = err ]
	[ "${#lines[@]}" = 3 ]
}

@test "replies to other commands are skipped" {
	words=('@@CB-OUT 1.2.3\n' 'stale\n' '@@CB-END 1.2.3 0\n'
	       '@@CB-OUT @ID\n' 'mine\n' '@@CB-ERR @ID\n' '@@CB-END @ID 0\n')
	agent
	guest_run "anything"
	[ "$status" = 0 ]
	[ "$output" = mine ]
}

@test "no reply within CB_RUN_TIMEOUT gives status 124" {
	words=('@@CB-OUT @ID\n' 'started\n')
	agent
	CB_RUN_TIMEOUT=2 guest_run "anything"
	[ "$status" = 124 ]
	[[ $stderr == *"timed out after 2s"* ]]
}

@test "a guest that dies gives status 255" {
	words=()
	agent
	kill "$(cat "$CB_RUN/qemu.pid")"
	guest_run "anything"
	[ "$status" = 255 ]
	[[ $stderr == *"guest died"* ]]
}
