#!/bin/bash
# `make demo`: compile two sample capes into EEPROM images, boot the test
# board with them in slots 0 and 1 of its BeagleBone header and two sample
# HAT+s stacked on its Raspberry Pi header, and show, in plain words, what
# the kernel made of them.  On a terminal, then leave the user at the
# guest's shell.
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
run=$top/build/demo
rm -rf "$run"
mkdir -p "$run/images"
# shellcheck source=../tests/qemu/lib.bash
. "$top/tests/qemu/lib.bash"

say() { printf '%s\n' "$*"; }

for def in weather rtc; do
	"$CB_CAPETOOL" create "$top/cape-defs/$def.cape" --board qemu-vexpress -o "$run/images" >/dev/null
done
for hat in sensor-hat led-hat; do
	"$CB_CAPETOOL" create "$top/cape-defs/hats/$hat.txt" -o "$run/images" >/dev/null
done
weather=$(ls "$run"/images/BB-WTHR-*.eeprom | head -n1)
rtc=$(ls "$run"/images/*RTC*.eeprom | head -n1)
hats=(--hat 0="$run/images/sensor-hat.eep" --hat 1="$run/images/led-hat.eep")

interactive=0
[ -t 0 ] && [ -t 1 ] && interactive=1

say "capebus demo: the QEMU vexpress-a9 test board, a BeagleBone header and a Raspberry Pi header."
say "  BeagleBone header: slot 0: $(basename "$weather")   slot 1: $(basename "$rtc")   slots 2, 3: nothing plugged"
say "  Raspberry Pi header: 0x50: sensor-hat.eep (a HAT+)   0x51: led-hat.eep (a stackable HAT+)"
say "  (images compiled just now by 'capetool create' from cape-defs/weather.cape, rtc.cape"
say "   and the eepmake settings cape-defs/hats/sensor-hat.txt, led-hat.txt)"
say ""

export CB_RUN=$run/guest CB_LOGDIR=$run
if [ $interactive = 1 ]; then
	mkdir -p "$CB_RUN"
	# QEMU owns the terminal; the show talks to the guest's agent meanwhile.
	(
		"$top/scripts/demo-show.sh" "$CB_RUN" || true
		CB_RUN_TIMEOUT=5 CB_DIAGNOSE=0 guest_run ': > /tmp/shell-now' >/dev/null
	) &
	"$top/tests/qemu/boot.sh" "$CB_RUN" --interactive --append quiet \
		--slot 0="$weather" --slot 1="$rtc" "${hats[@]}"
	wait
else
	guest_boot --slot 0="$weather" --slot 1="$rtc" "${hats[@]}"
	rc=0
	"$top/scripts/demo-show.sh" "$CB_RUN" || rc=$?
	guest_shutdown
	say ""
	say "(not on a terminal: the guest was powered off; run 'make demo' in a terminal for its shell)"
	exit $rc
fi
