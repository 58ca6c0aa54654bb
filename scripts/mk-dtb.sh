#!/bin/bash
# Compile a board DTS against the kernel tree's includes, WITHOUT symbols:
# cape overlays resolve through the names the connector exports, not labels.
#
# usage: mk-dtb.sh SRCDIR IN.dts OUT.dtb
#
# OUT is replaced only if it changes, and then at once (rename): guests may
# be booting from it while another build runs (make check builds the
# distribution lane beside the fast lane's suites).
set -euo pipefail
src=$1 in=$2 out=$3
tmp=$out.tmp.$$
cpp -nostdinc -undef -D__DTS__ -x assembler-with-cpp \
	-I "$src/arch/arm/boot/dts" -I "$src/include" -I "$src/scripts/dtc/include-prefixes" \
	-MD -MF "$tmp.d" -MT "$out" "$in" -o "$tmp.pp"
# The vexpress base trips dtc's simple-bus checks; they are not ours.
dtc -q -I dts -O dtb -W no-simple_bus_reg -W no-unique_unit_address -o "$tmp" "$tmp.pp"
rm -f "$tmp.pp"
mv "$tmp.d" "$out.d"
if cmp -s "$tmp" "$out"; then
	rm -f "$tmp"
else
	mv "$tmp" "$out"
fi
