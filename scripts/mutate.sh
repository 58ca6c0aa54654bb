#!/bin/bash
# Plant known faults, one at a time, in a scratch copy of the tree, and run
# the stages that should catch each: every mutant must turn its stages red.
# Not part of `make check` (the kernel mutants need a kernel build each).
#
# usage: scripts/mutate.sh [MUTANT...]     (default: all; --list names them)
#
# Capetool mutants run the host stage (make -C capetool check).  Kernel
# mutants build the guest in their own cache, $MUTATE_CACHE (default
# ~/.cache/capebus-mutate; ccache from $CCACHE_DIR), then run KUnit and the
# guest suites named for them.  A summary at the end: caught or SURVIVED.
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
MUTATE_CACHE=${MUTATE_CACHE:-$HOME/.cache/capebus-mutate}
export CCACHE_DIR=${CCACHE_DIR:-${CAPEBUS_CACHE:-$HOME/.cache/capebus}/ccache}
# The 6.12 tree the host suites' base DTBs need.
export KSRC=${KSRC:-${CAPEBUS_CACHE:-$HOME/.cache/capebus}/linux-6.12}
work=${MUTATE_DIR:-$top/build/mutate}

# name | kind | description
MUTANTS='
rail-swap|capetool|vdd-5v and sys-5v swapped in the writer and the reader, goldens regenerated
skip-free|capetool|board_free() forgets the description
ext-bounds|kernel|the EEPROM parser drops the record-length bounds check
scope-rule|kernel|the overlay checker lets a fragment target any node
'

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
	esac
}

# run_stages NAME KIND DIR: status 0 if every stage passed (the mutant survived).
run_stages() {
	local d=$3 log=$work/$1.log rc=0
	case $2 in
	capetool)
		make -s -C "$d/capetool" O="$d/build/capetool" check FUZZ_TIME=10 >"$log" 2>&1 || rc=1
		grep -E '^not ok' "$log" | head -n 5
		;;
	kernel)
		(cd "$d" && CAPEBUS_CACHE=$MUTATE_CACHE make -s guest) >"$log" 2>&1 || {
			echo "  the build failed (counts as caught; see $log)"
			return 1
		}
		local env=(CAPEBUS_CACHE="$MUTATE_CACHE"
			CB_KERNEL="$MUTATE_CACHE/build/kernel/arch/arm/boot/zImage"
			CB_DTB="$d/build/guest/board.dtb" CB_INITRD="$d/build/guest/initramfs.cpio.gz"
			CB_FIRMWARE="$d/build/firmware" CB_CAPETOOL="$d/build/capetool/host/capetool")
		(cd "$d" && env "${env[@]}" scripts/kunit.sh) >"$log.kunit" 2>>"$log" || rc=1
		grep -q '^not ok' "$log.kunit" && rc=1
		grep -E '^not ok' "$log.kunit" | head -n 5
		local suites=(tests/bats/guest/capebus-overlays.bats tests/bats/guest/capebus-faults.bats)
		(cd "$d" && env "${env[@]}" bats --tap "${suites[@]}") >"$log.guest" 2>&1 || rc=1
		grep -E '^not ok' "$log.guest" | head -n 5
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
while IFS='|' read -r -u 3 name kind what; do
	[ -n "$name" ] || continue
	if [ $# -gt 0 ] && ! printf '%s\n' "$@" | grep -qx "$name"; then
		continue
	fi
	echo "== $name ($kind): $what"
	d=$work/$name
	rm -rf "$d"
	mkdir -p "$d"
	(cd "$top" && git ls-files -z | tar --null -T - -cf -) | tar -x -C "$d"
	if ! plant "$name" "$d"; then
		echo "  could not plant it (the code moved?)"
		summary+=("$name: NOT PLANTED")
		continue
	fi
	if run_stages "$name" "$kind" "$d" </dev/null; then
		summary+=("$name: SURVIVED ($what)")
	else
		summary+=("$name: caught")
	fi
done 3<<< "$MUTANTS"
echo
printf '%s\n' "${summary[@]}"
! printf '%s\n' "${summary[@]}" | grep -q 'SURVIVED\|NOT PLANTED'
