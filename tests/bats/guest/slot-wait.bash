# SPDX-License-Identifier: GPL-2.0
# wait_state SLOT STATE: slot SLOT of the controller at $CTRL (default
# capebus0) reads STATE within 60 s; if not, the test fails showing the
# slot's state and reason.  Slots change state from the controller's work
# items, after the command that caused it has returned.
wait_state() {
	local ctrl=${CTRL:-/sys/class/capebus/capebus0}
	guest_run "for i in \$(seq 300); do [ \"\$(cat $ctrl/slot$1/state 2>/dev/null)\" = $2 ] && exit 0; sleep 0.2; done
		cat $ctrl/slot$1/state $ctrl/slot$1/reason; exit 1"
	[ "$status" -eq 0 ] || { echo "slot $1: '$output', expected $2" >&2; return 1; }
}
