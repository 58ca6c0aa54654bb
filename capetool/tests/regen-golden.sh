#!/bin/sh
# Regenerate the golden images from cape-defs/ (review the diff before
# committing: the host bats suite compares create's output with these).
# Regenerated images are not thereby right: tests/bats/host/reference.bats
# checks every golden .eeprom against tests/reference/cape_eeprom.py, an
# encoder written from the SRM tables, not from capetool.
# usage: tests/regen-golden.sh [CAPETOOL]
set -e
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
ct=${1:-$top/build/capetool/host/capetool}
out=$here/golden
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
rm -f "$out"/*.eeprom "$out"/*.dtbo
for def in "$top"/cape-defs/*.cape; do
	for board in qemu-vexpress beaglebone-black; do
		rm -f "$tmp"/*
		"$ct" create "$def" --board "$board" -o "$tmp" >/dev/null
		for f in "$tmp"/*.dtbo; do
			cp "$f" "$out/$(basename "$f" .dtbo).$board.dtbo"
		done
		cp "$tmp"/*.eeprom "$out/"
	done
done
# real capes for the BeagleBone Black only (cape-defs/bone/)
for def in "$top"/cape-defs/bone/*.cape; do
	rm -f "$tmp"/*
	"$ct" create "$def" --board beaglebone-black -o "$tmp" >/dev/null
	for f in "$tmp"/*.dtbo; do
		cp "$f" "$out/$(basename "$f" .dtbo).beaglebone-black.dtbo"
	done
	cp "$tmp"/*.eeprom "$out/"
done
rm -f "$tmp"/*
"$ct" create "$top/cape-defs/weather.cape" --board qemu-vexpress --embed-overlay -o "$tmp" >/dev/null
cp "$tmp/BB-WTHR-01-00A2.eeprom" "$out/BB-WTHR-01-00A2.embedded.eeprom"
ls "$out"
