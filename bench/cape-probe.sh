#!/bin/bash
# Time from the bone controller's probe to cape devices bound, for 1 and for
# 4 populated slots, split into EEPROM reads, overlay applies and the rest
# (capebus's own work plus waiting on the I2C bus).  Figures come from the
# kernel's own log lines:
#   bone-capebus ...: slot N: PART loaded, B EEPROM bytes read in R us, done T us after probe
#   capebus-generic ...: ... (resolved in R us, applied in A us, verifying V us of it)
# Prints figures only; asserts nothing.
#
# usage: bench/cape-probe.sh [RUNS]   (needs `make guest`)
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
runs=${1:-3}
export CB_KERNEL=${CB_KERNEL:-$HOME/.cache/capebus/build/kernel/arch/arm/boot/zImage}
export CB_DTB=${CB_DTB:-$top/build/guest/board.dtb} CB_INITRD=${CB_INITRD:-$top/build/guest/initramfs.cpio.gz}
export CB_LOGDIR=$top/build/test-logs
capetool=${CB_CAPETOOL:-$top/build/capetool/host/capetool}
# shellcheck source=../tests/qemu/lib.bash
. "$top/tests/qemu/lib.bash"

img=$top/build/bench-probe/images
rm -rf "$top/build/bench-probe"
mkdir -p "$img"
for def in "$top"/cape-defs/weather.cape "$top"/cape-defs/rtc.cape "$top"/bench/capes/*.cape; do
	"$capetool" create "$def" --board qemu-vexpress -o "$img" >/dev/null
done
slots=(--slot 0="$img/BB-WTHR-01-00A2.eeprom" --slot 1="$img/EXL-RTC-01-00A0.eeprom"
       --slot 2="$img/BENCH-LED-a-00A0.eeprom" --slot 3="$img/BENCH-LED-b-00A0.eeprom")

measure() {	# nslots
	local n=$1 r log
	for r in $(seq "$runs"); do
		export CB_RUN=$top/build/bench-probe/run-$n-$r
		mkdir -p "$CB_RUN/share"
		cp "$img"/BENCH-*.dtbo "$CB_RUN/share/"
		guest_boot "${slots[@]:0:$((2 * n))}" --append firmware_class.path=/host >/dev/null
		# Wait until every populated slot has settled.
		for _ in $(seq 100); do
			guest_run 'cat /sys/class/capebus/*/slot*/state'
			[ "$(grep -c loaded <<< "$output")" -ge "$n" ] && break
			sleep 0.2
		done
		guest_shutdown
		log=$CB_RUN/console.log
		awk -v n="$n" '
			/EEPROM bytes read in/ {
				for (i = 1; i <= NF; i++) {
					if ($i == "in" && $(i + 2) == "us,") rd += $(i + 1)
					if ($i == "done" && ($(i + 1) + 0) > tdone) tdone = $(i + 1) + 0
				}
				slots++
			}
			/, applied in [0-9]+ us/ {
				match($0, /resolved in [0-9]+ us/); s = substr($0, RSTART + 12)
				ap += s + 0
				match($0, /applied in [0-9]+ us/); s = substr($0, RSTART + 11)
				ap += s + 0
			}
			END {
				if (slots < n) { printf "only %d of %d slots loaded\n", slots, n > "/dev/stderr"; exit 1 }
				printf "%d %d %d\n", tdone, rd, ap
			}' "$log"
	done
}

report() {	# nslots
	measure "$1" | awk -v n="$1" '
		{ t += $1; r += $2; a += $3; k++ }
		END {
			t /= k; r /= k; a /= k
			printf "%d slot%s: probe to devices bound %7.1f ms = EEPROM read %6.1f ms + overlay resolve+apply %6.1f ms + rest %6.1f ms (mean of %d boots)\n",
				n, (n > 1 ? "s" : " "), t / 1000, r / 1000, a / 1000, (t - r - a) / 1000, k
		}'
}

report 1
report 4
