# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# Loaded by the guest suites that declare capes through configfs
# (`load cfs-run`, after ../../qemu/lib): cfs_run runs a guest command with
# fixtures/configfs-lib.sh (put as /host/cfs.sh) sourced, and prints what it
# printed into the test's log.

cfs_run() {
	guest_run ". /host/cfs.sh; $*"
	printf '# guest (status %s):\n%s\n' "$status" "$output"
}
