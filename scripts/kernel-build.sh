#!/bin/bash
# Configure (allnoconfig + kernel/configs/*.config) and build the ARM kernel
# out of tree.  Reconfigures only when a fragment changed; make does the rest.
#
# usage: kernel-build.sh SRCDIR OBJDIR [LANE]
#
# LANE names a directory of fragments applied on top of the fast lane's,
# kernel/configs/LANE/*.config (a value there overrides the fast lane's):
# "distro" is the distribution-like kernel.  Without LANE, the fast lane.
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
src=$1 obj=$2 lane=${3:-}
jobs=${JOBS:-$(nproc)}
export CCACHE_DIR=${CCACHE_DIR:-$(dirname "$obj")/ccache}
export CCACHE_BASEDIR=$src
kmake=(make -s -C "$src" O="$obj" ARCH=arm CROSS_COMPILE=arm-linux-gnueabihf-
       "CC=ccache arm-linux-gnueabihf-gcc" -j"$jobs"
       KBUILD_BUILD_TIMESTAMP="Thu Jan  1 00:00:00 UTC 2026" KBUILD_BUILD_USER=capebus KBUILD_BUILD_HOST=qemu)

mkdir -p "$obj"
frags=("$top"/kernel/configs/*.config)
if [ -n "$lane" ]; then
	[ -d "$top/kernel/configs/$lane" ] || { echo "kernel-build: no lane $lane (kernel/configs/$lane/)" >&2; exit 1; }
	frags+=("$top/kernel/configs/$lane"/*.config)
fi
want=$(cat "${frags[@]}" | sha256sum | cut -d' ' -f1)
if [ ! -f "$obj/.config" ] || [ "$(cat "$obj/.capebus-config" 2>/dev/null)" != "$want" ]; then
	echo "  CONFIG  allnoconfig + ${frags[*]#"$top"/kernel/configs/}"
	(cd "$src" && ARCH=arm CROSS_COMPILE=arm-linux-gnueabihf- \
		scripts/kconfig/merge_config.sh -n -O "$obj" "${frags[@]}" >"$obj/merge_config.log" 2>&1) ||
		{ cat "$obj/merge_config.log" >&2; exit 1; }
	# merge_config only warns when Kconfig drops a value: make it an error.
	# A symbol's last value counts (a lane's fragment overrides).
	missing=0
	declare -A last=()
	while IFS= read -r line; do
		last[${line%%=*}]=$line
	done < <(cat "${frags[@]}" | grep '^CONFIG_')
	for line in "${last[@]}"; do
		case $line in
		CONFIG_*=n) sym=${line%%=*}; grep -q "^$sym=" "$obj/.config" && { echo "config: $sym should be off" >&2; missing=1; } ;;
		CONFIG_*=*) grep -qxF "$line" "$obj/.config" || { echo "config: $line did not stick (dependency missing?)" >&2; missing=1; } ;;
		esac
	done
	[ $missing = 0 ] || exit 1
	echo "$want" > "$obj/.capebus-config"
fi

# The compiler's output goes to a log: mainline's own warnings (a %ld for a
# size_t in kernel/module/signing.c on 32-bit ARM, say) are not ours to
# show a newcomer.  A failed build shows its errors.
log=$obj/build.log
echo "  BUILD   zImage modules ($jobs jobs, ccache in $CCACHE_DIR; log: $log)"
if ! "${kmake[@]}" zImage modules >"$log" 2>&1; then
	grep -E 'error|Error' "$log" | head -n 40 >&2
	echo "kernel-build: the build failed; the whole output is in $log" >&2
	exit 1
fi
rm -rf "$obj/modules-install"
"${kmake[@]}" INSTALL_MOD_PATH="$obj/modules-install" INSTALL_MOD_STRIP=1 modules_install >>"$log" 2>&1 ||
	{ tail -n 20 "$log" >&2; exit 1; }
