#!/bin/bash
# The series' DT bindings against dt-schema's meta-schema, and the real
# boards' trees the series patches against the bindings, as TAP.
#
#   dt-bindings-check.sh SRC [KOBJ]
#
# `make dt_binding_check` refuses Debian 12's dt-schema (2022.08; 6.12 wants
# 2023.9), so this runs the part of it that tool can do: dt-doc-validate.
# With KOBJ (a configured ARM build directory of SRC, the series applied),
# the BeagleBone Black's (and its HDMI-off variant's) and Green's DTBs, and
# the Raspberry Pi 4 B's, are built there (`make ti/omap/am335x-boneblack.dtb`)
# and their capebus connector is checked with dt-validate against the
# series' binding; so is the connector of the project's Raspberry Pi 2 B
# (tests/qemu/capebus-raspi2b.dts, which has no slots), compiled as
# scripts/mk-dtb.sh compiles it.  dt-validate reads the
# tree as YAML from dtc (2022.08 guesses the type of a property in a DTB
# it has no schema type for, such as target-pins' strings), and exits 0
# whatever it finds: any line it prints fails the test.
set -uo pipefail
src=$1 kobj=${2:-}
here=$(cd "$(dirname "$0")" && pwd)
mapfile -t yamls < <("$here/kernel-series.sh" files | grep '^Documentation/devicetree/bindings/.*\.yaml$')
boards=()
[ -n "$kobj" ] && boards=(ti/omap/am335x-boneblack ti/omap/am335x-boneblack-nohdmi
			  ti/omap/am335x-bonegreen broadcom/bcm2711-rpi-4-b)
# connector BOARD: the compatible of the capebus connector BOARD must have.
connector() {
	case $1 in
	ti/*) echo beagle,bone-capebus ;;
	broadcom/*) echo raspberrypi,hat-capebus ;;
	esac
}
# The project's own boards on the series' dtsi files (no kernel build needed).
qboards=()
[ -n "$kobj" ] && qboards=(tests/qemu/capebus-raspi2b.dts)
echo "1..$((${#yamls[@]} + 2 * ${#boards[@]} + ${#qboards[@]}))"
n=0 fail=0
for y in "${yamls[@]}"; do
	n=$((n + 1))
	if out=$(dt-doc-validate -u "$src/Documentation/devicetree/bindings" "$src/$y" 2>&1); then
		echo "ok $n dt-doc-validate $y"
	else
		echo "not ok $n dt-doc-validate $y"
		printf '%s\n' "$out" | sed 's/^/# /'
		fail=1
	fi
done
[ ${#boards[@]} -gt 0 ] || exit $fail

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/schemas"
for y in "${yamls[@]}"; do cp "$src/$y" "$tmp/schemas/"; done
schema_err=
dt-mk-schema -j -o "$tmp/processed.json" "$tmp/schemas" >"$tmp/mk.log" 2>&1 ||
	schema_err=$(cat "$tmp/mk.log")
dts=$src/arch/arm/boot/dts
# validate YAML COMPAT: dt-validate's complaints about the COMPAT node of
# the tree in YAML, or that it has none.
validate() {
	local out=$schema_err
	if [ -z "$out" ]; then
		out=$(dt-validate -s "$tmp/processed.json" -l "$2" "$1" 2>&1)
		grep -q "$2" "$1" 2>/dev/null || out="${out:+$out
}no $2 node"
	fi
	printf '%s' "$out"
}
for b in "${boards[@]}"; do
	n=$((n + 1))
	compat=$(connector "$b")
	if out=$(make -s -C "$kobj" ARCH=arm "$b.dtb" 2>&1) &&
	   [ -f "$kobj/arch/arm/boot/dts/$b.dtb" ]; then
		echo "ok $n $b.dtb builds from the series"
	else
		echo "not ok $n $b.dtb builds from the series"
		printf '%s\n' "$out" | sed 's/^/# /'
		fail=1
		n=$((n + 1))
		echo "not ok $n dt-validate $b.dtb: capebus connector # no DTB"
		continue
	fi
	n=$((n + 1))
	pre=$kobj/arch/arm/boot/dts/$(dirname "$b")/.$(basename "$b").dtb.dts.tmp
	out=$schema_err
	if [ -z "$out" ]; then
		y=$tmp/$(basename "$b").dt.yaml
		out=$(dtc -q -I dts -O yaml -i "$dts/$(dirname "$b")" -i "$dts" -i "$src/include" \
			-o "$y" "$pre" 2>&1 &&
		      dt-validate -s "$tmp/processed.json" -l "$compat" "$y" 2>&1)
		# The connector must be there to be checked at all.
		grep -q "$compat" "$y" 2>/dev/null ||
			out="${out:+$out
}no $compat node in $b"
	fi
	if [ -z "$out" ]; then
		echo "ok $n dt-validate $b.dtb: capebus connector"
	else
		echo "not ok $n dt-validate $b.dtb: capebus connector"
		printf '%s\n' "$out" | sed 's/^/# /'
		fail=1
	fi
done
for q in "${qboards[@]}"; do
	n=$((n + 1))
	y=$tmp/$(basename "$q" .dts).dt.yaml
	out=$(cpp -nostdinc -undef -D__DTS__ -x assembler-with-cpp -I "$dts" -I "$src/include" \
		-I "$src/scripts/dtc/include-prefixes" "$here/../$q" -o "$y.pp" 2>&1 &&
	      dtc -q -I dts -O yaml -o "$y" "$y.pp" 2>&1) && out=$(validate "$y" raspberrypi,hat-capebus)
	if [ -z "$out" ]; then
		echo "ok $n dt-validate $q: capebus connector"
	else
		echo "not ok $n dt-validate $q: capebus connector"
		printf '%s\n' "$out" | sed 's/^/# /'
		fail=1
	fi
done
exit $fail
