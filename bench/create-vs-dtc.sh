#!/bin/bash
# Compare `capetool create` (definition -> EEPROM image + overlay) with
# `dtc -@` compiling the equivalent overlay source, in one run, and print
# the ratio.  No assertions.
#   usage: bench/create-vs-dtc.sh [CAPETOOL] [ITERATIONS]
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
ct=${1:-$top/build/capetool/host/capetool}
n=${2:-300}
def=$top/cape-defs/weather.cape
src=$top/bench/create-vs-dtc.dtso
# outputs go to tmpfs when there is one: both tools then pay for computing,
# not for the disk (O_TRUNC on ext4 costs milliseconds here)
if [ -z "${TMPDIR:-}" ] && [ -d /dev/shm ] && [ -w /dev/shm ]; then export TMPDIR=/dev/shm; fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

[ -x "$ct" ] || { echo "no capetool at $ct (make -C capetool)" >&2; exit 1; }

# warm the page cache and check both work
"$ct" create "$def" --board qemu-vexpress -o "$tmp" >/dev/null
dtc -q -@ -I dts -O dtb -o "$tmp/ref.dtbo" "$src"

now() { date +%s%N; }

t0=$(now)
for ((i = 0; i < n; i++)); do
	"$ct" create "$def" --board qemu-vexpress -o "$tmp" >/dev/null
done
t1=$(now)
for ((i = 0; i < n; i++)); do
	dtc -q -@ -I dts -O dtb -o "$tmp/ref.dtbo" "$src"
done
t2=$(now)

create_us=$(( (t1 - t0) / n / 1000 ))
dtc_us=$(( (t2 - t1) / n / 1000 ))
echo "iterations:          $n (outputs in $tmp)"
echo "capetool create:     ${create_us} us per run (image + overlay, schema validation)"
echo "dtc -@ (overlay):    ${dtc_us} us per run"
awk -v a="$((t1 - t0))" -v b="$((t2 - t1))" 'BEGIN { printf "ratio create/dtc:    %.2f\n", a / b }'
