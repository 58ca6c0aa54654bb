#!/bin/bash
# Plant known faults, one at a time, in a scratch copy of the tree, and run
# the stages that should catch each: every mutant must turn its stages red.
# Not part of `make check` (the kernel mutants need a kernel build each).
# Each kernel mutant undoes one fix, so running it shows that fix's tests
# failing without it: a mutant with expected failures (expect_failures
# below) counts as caught only if every one of those tests fails.
#
# usage: scripts/mutate.sh [MUTANT...]     (default: all; --list names them)
#
# Capetool mutants run the host stage (make -C capetool check).  Kernel
# mutants build their lane's guest (fast: make guest; distro: make
# guest-distro) in their own cache, $MUTATE_CACHE (default
# ~/.cache/capebus-mutate; ccache from $CCACHE_DIR), then run the KUnit
# and guest suites named for them.  MUTATE_CACHE=~/.cache/capebus reuses
# the main cache's trees, so a mutant costs an incremental build; the next
# `make guest` (or guest-distro) there puts the clean series back.  Never
# run that while a make check uses the same cache.  A summary at the end:
# caught or SURVIVED; logs in build/mutate/.
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
MUTATE_CACHE=${MUTATE_CACHE:-$HOME/.cache/capebus-mutate}
export CCACHE_DIR=${CCACHE_DIR:-${CAPEBUS_CACHE:-$HOME/.cache/capebus}/ccache}
# The 6.12 tree the host suites' base DTBs need.
export KSRC=${KSRC:-${CAPEBUS_CACHE:-$HOME/.cache/capebus}/linux-6.12}
work=${MUTATE_DIR:-$top/build/mutate}

# name | kind | lane (kernel) | description
MUTANTS='
rail-swap|capetool|-|vdd-5v and sys-5v swapped in the writer and the reader, goldens regenerated
skip-free|capetool|-|board_free() forgets the description
ext-bounds|kernel|fast|the EEPROM parser drops the record-length bounds check
scope-rule|kernel|fast|the overlay checker lets a fragment target any node
power-attr|kernel|distro|the cape attribute "currents" is called "power" again, as the PM core'"'"'s power/ directory is
no-reprobe|kernel|distro|a cape driver registered later leaves capes with the generic driver
no-alias|kernel|distro|the weather driver'"'"'s id table gives no module alias (no MODULE_DEVICE_TABLE)
no-bus-notifier|kernel|distro|slots do not follow their EEPROM'"'"'s driver (at24) binding and unbinding
no-unbind-follow|kernel|distro|slots follow their EEPROM'"'"'s driver binding, not its unbinding
no-retry|kernel|fast|a cape whose overlay file was missing is never looked at again
no-lockdown|kernel|fast|under lockdown, configfs and EEPROM overlays are applied anyway
stuck-leak|kernel|fast|stuck capes are not let go when their controller goes
budget-veto|kernel|fast|a cape over the power budget is refused even without strict_budget
mid-probe-loaded|kernel|fast|a cape reads "loaded" as soon as dev.driver is set, before the probe ran
'

# expect_log NAME: an ERE the guest suites' output must hold as well, where
# the failure is a whole suite's (setup_file) and the line says why.
expect_log() {
	case $1 in
	power-attr) echo "sysfs: cannot create duplicate filename '[^']*/capebus0-slot0/power'" ;;
	esac
}

# suites_for NAME: the stages a kernel mutant runs ("kunit" and bats files).
suites_for() {
	case $1 in
	ext-bounds|scope-rule)
		echo kunit tests/bats/guest/capebus-overlays.bats tests/bats/guest/capebus-faults.bats ;;
	power-attr) echo tests/bats/guest/capebus.bats ;;
	no-reprobe|no-alias)
		echo tests/bats/guest/cape-drivers.bats tests/bats/distro/hotplug-modules.bats ;;
	no-bus-notifier|no-unbind-follow) echo tests/bats/distro/hotplug-modules.bats ;;
	no-retry|no-lockdown) echo tests/bats/guest/overlay-sources.bats ;;
	stuck-leak) echo tests/bats/guest/stuck-overlay.bats ;;
	budget-veto) echo tests/bats/guest/capebus-faults.bats ;;
	mid-probe-loaded) echo tests/bats/guest/cape-drivers.bats ;;
	esac
}

# expect_failures NAME: the tests (names, one per line) that the fix this
# mutant undoes brought; each must fail for the mutant to count as caught.
# None listed: any failure catches it.
expect_failures() {
	case $1 in
	power-attr) cat <<-'E'
		setup_file failed
		E
		;;
	no-reprobe) cat <<-'E'
		a driver loaded after its cape appeared takes it over from the generic driver
		mdev loads the weather cape's driver module by its MODALIAS and it binds
		E
		;;
	no-alias) cat <<-'E'
		the weather driver's module alias, from its id table, matches the cape's modalias
		mdev loads the weather cape's driver module by its MODALIAS and it binds
		E
		;;
	no-bus-notifier) cat <<-'E'
		modprobe at24 after capebus-bone: the slots read their EEPROMs and the capes load
		modprobe at24 again: the capes are detected again, the weather driver bound
		E
		;;
	no-unbind-follow) cat <<-'E'
		unbinding one EEPROM empties its slot only
		rmmod at24: the slots are empty, the capes gone, the tree the board's again
		E
		;;
	no-retry) cat <<-'E'
		the file appears: rescan applies it, and the cape loads with it
		enabling a loaded slot whose file was missing looks again
		a declared cape's missing file is looked for again when enable is written
		E
		;;
	no-lockdown) cat <<-'E'
		under lockdown, an EEPROM's overlay is refused with the reason; the tree is unchanged
		under lockdown, overlays from configfs are refused; firmware files still load
		E
		;;
	stuck-leak) cat <<-'E'
		when the controller goes, the stuck cape is reported and let go; kmemleak finds nothing
		E
		;;
	budget-veto) cat <<-'E'
		a cape that takes a rail over its budget loads, and slot, cape, uevent and log say so
		E
		;;
	mid-probe-loaded) cat <<-'E'
		while a driver's probe runs the cape reads detected, and loaded once it returned
		E
		;;
	esac
}

# plant NAME DIR: make the fault in the copy at DIR.
plant() {
	local d=$2
	case $1 in
	rail-swap)
		sed -i 's|put_be16((uint8_t \*)&pw->vdd_5v, def->power\[1\]);|put_be16((uint8_t *)\&pw->sys_5v, def->power[1]);|;
			s|put_be16((uint8_t \*)&pw->sys_5v, def->power\[2\]);|put_be16((uint8_t *)\&pw->vdd_5v, def->power[2]);|;
			s|img->power\[i\] = get_be16(pw + 2 \* i);|img->power[i] = get_be16(pw + 2 * (i == 1 ? 2 : i == 2 ? 1 : i));|' \
			"$d/capetool/eeprom.c"
		grep -q 'i == 1 ? 2' "$d/capetool/eeprom.c" && grep -q 'pw->sys_5v, def->power\[1\]' "$d/capetool/eeprom.c" || return 1
		# As a developer would: the goldens follow the tool.
		make -s -C "$d/capetool" O="$d/build/capetool" host >/dev/null &&
			"$d/capetool/tests/regen-golden.sh" "$d/build/capetool/host/capetool" >/dev/null
		;;
	skip-free)
		sed -i '/^void board_free/,/^}/{/\tfree(b->description);/d}' "$d/capetool/board.c"
		! grep -q 'free(b->description)' "$d/capetool/board.c"
		;;
	ext-bounds)
		sed -i 's|\t\tif (rlen > end - pos) {|\t\tif (0 \&\& rlen > end - pos) {|' \
			"$d/kernel/drivers/capebus/bone/bone-eeprom.c"
		grep -q '0 && rlen > end - pos' "$d/kernel/drivers/capebus/bone/bone-eeprom.c"
		;;
	scope-rule)
		sed -i 's|^\tif (!capebus_node_in(target, ctrl->targets, ctrl->num_targets))$|\tif (0 \&\& !capebus_node_in(target, ctrl->targets, ctrl->num_targets))|' \
			"$d/kernel/drivers/capebus/capebus-overlay.c"
		grep -q '0 && !capebus_node_in(target' "$d/kernel/drivers/capebus/capebus-overlay.c"
		;;
	power-attr)
		sed -i 's|\bcurrents_show\b|power_show|; s|DEVICE_ATTR_RO(currents)|DEVICE_ATTR_RO(power)|;
			s|&dev_attr_currents\.attr|\&dev_attr_power.attr|' \
			"$d/kernel/drivers/capebus/capebus-bus.c"
		grep -q 'DEVICE_ATTR_RO(power)' "$d/kernel/drivers/capebus/capebus-bus.c" &&
			grep -q '&dev_attr_power\.attr' "$d/kernel/drivers/capebus/capebus-bus.c"
		;;
	no-reprobe)
		sed -i 's|^\tbus_for_each_dev(&capebus_bus_type, NULL, drv, capebus_reprobe_generic);$|\tif (0)\n\t\tbus_for_each_dev(\&capebus_bus_type, NULL, drv, capebus_reprobe_generic);|' \
			"$d/kernel/drivers/capebus/capebus-bus.c"
		grep -qP '^\tif \(0\)$' "$d/kernel/drivers/capebus/capebus-bus.c"
		;;
	no-alias)
		sed -i '/^MODULE_DEVICE_TABLE(capebus, weather_ids);$/d' \
			"$d/kernel/drivers/capebus/bone/bone-weather.c"
		! grep -q 'MODULE_DEVICE_TABLE' "$d/kernel/drivers/capebus/bone/bone-weather.c"
		;;
	no-bus-notifier)
		sed -i 's|^\treturn bus_register_notifier(&i2c_bus_type, &bc->i2c_nb);$|\treturn 0;|' \
			"$d/kernel/drivers/capebus/bone/bone-capebus.c"
		! grep -q 'bus_register_notifier(' "$d/kernel/drivers/capebus/bone/bone-capebus.c"
		;;
	no-unbind-follow)
		sed -i '/^static int bone_i2c_notify(/,/^}/{s|^\tif (action != BUS_NOTIFY_BOUND_DRIVER &&$|\tif (action != BUS_NOTIFY_BOUND_DRIVER)\n\t\treturn NOTIFY_DONE;\n&|}' \
			"$d/kernel/drivers/capebus/bone/bone-capebus.c"
		sed -n '/^static int bone_i2c_notify(/,/^}/p' "$d/kernel/drivers/capebus/bone/bone-capebus.c" |
			grep -qP '^\tif \(action != BUS_NOTIFY_BOUND_DRIVER\)$'
		;;
	no-retry)
		sed -i '/^int __capebus_cape_retry_overlay(/,/^}/{s|^\twhy\[0\] = .\\0.;$|&\n\treturn 0;|}' \
			"$d/kernel/drivers/capebus/capebus-controller.c"
		sed -n '/^int __capebus_cape_retry_overlay(/,/^}/p' "$d/kernel/drivers/capebus/capebus-controller.c" |
			grep -qP '^\treturn 0;$'
		;;
	no-lockdown)
		sed -i 's|ret = security_locked_down(LOCKDOWN_DEVICE_TREE);|ret = 0;|' \
			"$d/kernel/drivers/capebus/capebus-controller.c"
		! grep -q 'security_locked_down(' "$d/kernel/drivers/capebus/capebus-controller.c"
		;;
	stuck-leak)
		sed -i '/^void capebus_controller_unregister(/,/^}/{/^\t\t\tput_device(&cape->dev);$/d}' \
			"$d/kernel/drivers/capebus/capebus-controller.c"
		! sed -n '/^void capebus_controller_unregister(/,/^}/p' "$d/kernel/drivers/capebus/capebus-controller.c" |
			grep -q 'put_device(&cape->dev)'
		;;
	budget-veto)
		sed -i 's|ctrl->res->strict_budget = READ_ONCE(capebus_strict_budget);|ctrl->res->strict_budget = true;|' \
			"$d/kernel/drivers/capebus/capebus-controller.c"
		grep -q 'strict_budget = true;' "$d/kernel/drivers/capebus/capebus-controller.c"
		;;
	mid-probe-loaded)
		sed -i 's#READ_ONCE(cape->bound)#READ_ONCE(cape->dev.driver)#' \
			"$d/kernel/drivers/capebus/capebus-internal.h"
		grep -q 'READ_ONCE(cape->dev.driver)' "$d/kernel/drivers/capebus/capebus-internal.h"
		;;
	esac
}

# judge_expected NAME TAP: status 0 if each test expect_failures names
# failed in TAP (and expect_log's line is there); says which did, which
# did not, and what else failed.
judge_expected() {
	local s failed expected why missed=0
	expected=$(expect_failures "$1")
	failed=$(sed -nE 's/^not ok [0-9]+ (.*)$/\1/p' "$2")
	while IFS= read -r s; do
		if grep -qxF -- "$s" <<< "$failed"; then
			echo "  failed, as it must: $s"
		else
			echo "  PASSED, though it must fail: $s"
			missed=1
		fi
	done <<< "$expected"
	while IFS= read -r s; do
		[ -n "$s" ] || continue
		grep -qxF -- "$s" <<< "$expected" || echo "  failed too: $s"
	done <<< "$failed"
	why=$(expect_log "$1")
	if [ -n "$why" ]; then
		if grep -qE -- "$why" "$2"; then
			echo "  and the log says why: $(grep -m1 -oE -- "$why" "$2")"
		else
			echo "  NOT in the log: $why"
			missed=1
		fi
	fi
	[ $missed = 0 ]
}

# run_stages NAME KIND DIR LANE: status 0 if the mutant survived: every
# stage passed, or a test it must fail passed.
run_stages() {
	local d=$3 log=$work/$1.log rc=0
	case $2 in
	capetool)
		make -s -C "$d/capetool" O="$d/build/capetool" check FUZZ_TIME=10 >"$log" 2>&1 || rc=1
		grep -E '^not ok' "$log" | head -n 5
		;;
	kernel)
		local lane=$4 target=guest cache=$MUTATE_CACHE s
		[ "$lane" = fast ] || target=guest-distro
		(cd "$d" && CAPEBUS_CACHE=$cache make -s $target) >"$log" 2>&1 || {
			echo "  the build failed (counts as caught; see $log)"
			return 1
		}
		local env=(CAPEBUS_CACHE="$cache" CB_LANE="$lane"
			CB_KERNEL="$cache/build/kernel/arch/arm/boot/zImage"
			CB_DISTRO_KERNEL="$cache/build/kernel-distro/arch/arm/boot/zImage"
			CB_DTB="$d/build/guest/board.dtb" CB_INITRD="$d/build/guest/initramfs.cpio.gz"
			CB_DISTRO_INITRD="$d/build/guest-distro/initramfs.cpio.gz"
			CB_FIRMWARE="$d/build/firmware" CB_CAPETOOL="$d/build/capetool/host/capetool")
		local suites=()
		for s in $(suites_for "$1"); do
			if [ "$s" = kunit ]; then
				(cd "$d" && env "${env[@]}" scripts/kunit.sh) >"$log.kunit" 2>>"$log" || rc=1
				grep -q '^not ok' "$log.kunit" && rc=1
				grep -E '^not ok' "$log.kunit" | head -n 5
			else
				suites+=("$s")
			fi
		done
		(cd "$d" && env "${env[@]}" bats --tap "${suites[@]}") >"$log.guest" 2>&1 || rc=1
		if [ -n "$(expect_failures "$1")" ]; then
			# Caught only if every test the fix brought failed.
			if judge_expected "$1" "$log.guest"; then rc=1; else rc=0; fi
		else
			grep -E '^not ok' "$log.guest" | head -n 5
		fi
		;;
	esac
	[ $rc = 0 ]
}

if [ "${1:-}" = --list ]; then
	sed '/^$/d' <<< "$MUTANTS"
	exit 0
fi
mkdir -p "$work"
summary=()
while IFS='|' read -r -u 3 name kind lane what; do
	[ -n "$name" ] || continue
	if [ $# -gt 0 ] && ! printf '%s\n' "$@" | grep -qx "$name"; then
		continue
	fi
	label=$kind
	[ "$lane" = - ] || label="$kind, $lane lane"
	echo "== $name ($label): $what"
	d=$work/$name
	rm -rf "$d"
	mkdir -p "$d"
	(cd "$top" && git ls-files -z | tar --null -T - -cf -) | tar -x -C "$d"
	if ! plant "$name" "$d"; then
		echo "  could not plant it (the code moved?)"
		summary+=("$name: NOT PLANTED")
		continue
	fi
	if run_stages "$name" "$kind" "$d" "$lane" </dev/null; then
		summary+=("$name: SURVIVED ($what)")
	else
		summary+=("$name: caught")
	fi
done 3<<< "$MUTANTS"
echo
printf '%s\n' "${summary[@]}"
! printf '%s\n' "${summary[@]}" | grep -q 'SURVIVED\|NOT PLANTED'
