#!/bin/bash
# Time from the bone controller's probe to cape devices bound, for 1 and for
# 4 populated slots, split into EEPROM reads, overlay resolving+applying and
# the rest: the time in which the controller was doing neither (capebus's
# own work: devices, pin muxing, firmware lookup; and waiting).  The slots'
# reads are one after the other (they share the bus) while a cape found
# earlier loads, so reads and applies may overlap: "rest" is the time
# covered by no read and no apply, not a difference of sums.  Figures come
# from the kernel's own log lines (printk timestamps; durations measured
# by the kernel):
#   bone-capebus ...: slot N: PART, B EEPROM bytes read in R us, T us after probe
#   capebus-generic ...: ... (resolved in R us, applied in A us, verifying V us of it)
#   bone-capebus ...: slot N: PART STATE, done T us after probe
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
		# Wait until every populated slot's cape is loaded and logged:
		# the cheap look (a sysfs read) while the capes load, so that
		# the guest's own work is measured, not the bench's; the log
		# once they are.
		for _ in $(seq 100); do
			guest_run 'cat /sys/class/capebus/*/slot*/state'
			[ "$(grep -c loaded <<< "$output")" -ge "$n" ] && break
			sleep 0.2
		done
		for _ in $(seq 50); do
			guest_run 'dmesg | grep -c "bone-capebus.*: slot .* loaded, done" || true'
			[ "$output" -ge "$n" ] 2>/dev/null && break
			sleep 0.2
		done
		guest_shutdown
		python3 - "$n" "$CB_RUN/console.log" <<'PY'
import re, sys
n, log = int(sys.argv[1]), open(sys.argv[2], errors="replace").read()
ts = r"^\[\s*([0-9.]+)\]"
reads = [(float(t), int(r), int(p)) for t, r, p in re.findall(
    ts + r".*EEPROM bytes read in (\d+) us, (\d+) us after probe", log, re.M)]
applies = [(float(t), int(r) + int(a)) for t, r, a in re.findall(
    ts + r".*resolved in (\d+) us, applied in (\d+) us", log, re.M)]
done = [float(t) for t in re.findall(ts + r".*, done \d+ us after probe", log, re.M)]
if len(done) < n or len(reads) < n:
    sys.exit("only %d of %d slots loaded" % (len(done), n))
probe = reads[0][0] - reads[0][2] / 1e6          # printk time of the probe
end = max(done)
iv = sorted([(t - r / 1e6, t) for t, r, _ in reads] + [(t - d / 1e6, t) for t, d in applies])
busy, cur = 0.0, None
for a, b in iv:
    a, b = max(a, probe), min(b, end)
    if b <= a:
        continue
    if cur and a <= cur[1]:
        cur[1] = max(cur[1], b)
    else:
        if cur:
            busy += cur[1] - cur[0]
        cur = [a, b]
if cur:
    busy += cur[1] - cur[0]
total = (end - probe) * 1e6
print("%d %d %d %d" % (total, sum(r for _, r, _ in reads), sum(d for _, d in applies), total - busy * 1e6))
PY
	done
}

report() {	# nslots
	measure "$1" | awk -v n="$1" '
		{ t += $1; r += $2; a += $3; o += $4; k++ }
		END {
			t /= k; r /= k; a /= k; o /= k
			printf "%d slot%s: probe to devices bound %7.1f ms; EEPROM reads %6.1f ms, overlay resolve+apply %6.1f ms, rest (neither) %6.1f ms = %4.1f%% (mean of %d boots)\n",
				n, (n > 1 ? "s" : " "), t / 1000, r / 1000, a / 1000, o / 1000, 100 * o / t, k
		}'
}

report 1
report 4
