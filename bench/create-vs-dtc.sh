#!/bin/bash
# Compare `capetool create` (definition -> EEPROM image + overlay) with
# `dtc -@` compiling the equivalent overlay source, and print the figures:
# wall-clock and CPU (user + system) time per run and their ratios, with the
# outputs on tmpfs (both tools pay for computing only) and in a directory on
# the disk of the working tree (as a user runs them: what a sync would cost
# shows there).  No assertions.  On a loaded machine the wall-clock ratio
# moves with the load; the CPU ratio much less.
#   usage: bench/create-vs-dtc.sh [CAPETOOL] [ITERATIONS]
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
ct=${1:-$top/build/capetool/host/capetool}
n=${2:-300}
def=$top/cape-defs/weather.cape
src=$top/bench/create-vs-dtc.dtso

[ -x "$ct" ] || { echo "no capetool at $ct (make -C capetool)" >&2; exit 1; }

dirs=()
if [ -d /dev/shm ] && [ -w /dev/shm ]; then dirs+=("$(mktemp -d -p /dev/shm)"); fi
mkdir -p "$top/build"
dirs+=("$(mktemp -d -p "$top/build" bench.XXXXXX)")
trap 'rm -rf "${dirs[@]}"' EXIT

# "REAL USER SYS" in seconds for running "$@" $n times, its output dropped
timed() {
	local TIMEFORMAT='%R %U %S'

	{ time (for ((i = 0; i < n; i++)); do "$@"; done >/dev/null 2>&1); } 2>&1
}

echo "iterations:          $n"
for d in "${dirs[@]}"; do
	fs=$(stat -f -c %T "$d")
	# warm the page cache and check both work
	"$ct" create "$def" --board qemu-vexpress -o "$d" >/dev/null
	dtc -q -@ -I dts -O dtb -o "$d/ref.dtbo" "$src"
	read -r cr cu cs < <(timed "$ct" create "$def" --board qemu-vexpress -o "$d")
	read -r dr du ds < <(timed dtc -q -@ -I dts -O dtb -o "$d/ref.dtbo" "$src")
	awk -v n="$n" -v d="$d ($fs)" -v cr="$cr" -v cc="$(echo "$cu $cs" | awk '{ print $1 + $2 }')" \
		-v dr="$dr" -v dc="$(echo "$du $ds" | awk '{ print $1 + $2 }')" 'BEGIN {
		printf "outputs in %s\n", d
		printf "  capetool create:   %6d us per run, %6d us CPU (image + overlay, schema validation)\n", cr / n * 1e6, cc / n * 1e6
		printf "  dtc -@ (overlay):  %6d us per run, %6d us CPU\n", dr / n * 1e6, dc / n * 1e6
		printf "  ratio create/dtc:  %.2f wall-clock, %.2f CPU\n", cr / dr, (dc > 0 ? cc / dc : 0)
	}'
done
