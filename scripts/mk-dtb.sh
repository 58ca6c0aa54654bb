#!/bin/bash
# Compile a board DTS against the kernel tree's includes, WITHOUT symbols:
# cape overlays resolve through the names the connector exports, not labels.
#
# usage: mk-dtb.sh SRCDIR IN.dts OUT.dtb
set -euo pipefail
src=$1 in=$2 out=$3
cpp -nostdinc -undef -D__DTS__ -x assembler-with-cpp \
	-I "$src/arch/arm/boot/dts" -I "$src/include" -I "$src/scripts/dtc/include-prefixes" \
	-MD -MF "$out.d" -MT "$out" "$in" -o "$out.pp"
# The vexpress base trips dtc's simple-bus checks; they are not ours.
dtc -q -I dts -O dtb -W no-simple_bus_reg -W no-unique_unit_address -o "$out" "$out.pp"
rm -f "$out.pp"
