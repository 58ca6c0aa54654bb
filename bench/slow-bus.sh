#!/bin/bash
# What one slow header bus costs the other connector: a bone cape enables
# the test board's I2C1 (i2c-gpio on simulated lines, whose probe spends
# seconds in the I2C core's hwmon address detection), and once that probe
# is under way (the adapter exists) a serial HAT+ enables its UART on the
# Pi header.  Prints the time each enable took (and the HAT's alone, for
# reference), median of N runs.  Prints figures only; asserts nothing.
#
# usage: bench/slow-bus.sh [N]   (needs `make guest`)
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
n=${1:-3}
export CB_KERNEL=${CB_KERNEL:-$HOME/.cache/capebus/build/kernel/arch/arm/boot/zImage}
export CB_DTB=${CB_DTB:-$top/build/guest/board.dtb} CB_INITRD=${CB_INITRD:-$top/build/guest/initramfs.cpio.gz}
export CB_RUN=$top/build/bench-slow-bus CB_LOGDIR=$top/build/test-logs
rm -rf "$CB_RUN"
mkdir -p "$CB_RUN"
fix=$top/tests/bats/guest/fixtures
dtc -q -@ -I dts -O dtb -o "$CB_RUN/i2c1.dtbo" "$fix/enable-i2c1-a.dtso"
dtc -q -@ -I dts -O dtb -o "$CB_RUN/uart.dtbo" "$fix/hat/hat-serial.dtso"
# shellcheck source=../tests/qemu/lib.bash
. "$top/tests/qemu/lib.bash"

guest_boot
guest_put "$CB_RUN/i2c1.dtbo"
guest_put "$CB_RUN/uart.dtbo"
guest_put "$fix/configfs-lib.sh" cfs.sh
# One run: "<bone cape's enable> <HAT's enable during it> <HAT's alone>", in s.
# shellcheck disable=SC2016 # expanded in the guest
run='. /host/cfs.sh; up() { cut -d" " -f1 /proc/uptime; }
	H=/sys/kernel/config/capebus/$(for c in /sys/class/capebus/*; do [ "$(cat $c/family)" = rpi ] && basename $c; done)/capes
	declare_cape i2c CB-BENCH-I2C1 && cat /host/i2c1.dtbo > $CAPES/i2c/dtbo &&
	(CAPES=$H; declare_cape gps CB-BENCH-GPS) && cat /host/uart.dtbo > $H/gps/dtbo || exit 1
	rm -f /tmp/i2c.end; t0=$(up)
	{ echo 1 > $CAPES/i2c/enable; up > /tmp/i2c.end; } &
	for i in $(seq 600); do
		for d in /sys/bus/i2c/devices/i2c-*; do readlink -f $d/of_node; done | grep -q /i2c-header1$ && break
		sleep 0.05
	done
	h0=$(up); echo 1 > $H/gps/enable; h1=$(up); wait
	rmdir $H/gps; (CAPES=$H; declare_cape gps CB-BENCH-GPS) && cat /host/uart.dtbo > $H/gps/dtbo &&
	a0=$(up); echo 1 > $H/gps/enable; a1=$(up)
	rmdir $H/gps $CAPES/i2c
	echo "$(cat /tmp/i2c.end) $t0 $h0 $h1 $a0 $a1" | awk "{ print \$1 - \$2, \$4 - \$3, \$6 - \$5 }"'
for _ in $(seq "$n"); do
	guest_run "$run"
	# shellcheck disable=SC2154 # set by guest_run
	echo "$output"
done > "$CB_RUN/runs"
guest_shutdown
median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
printf 'bone cape enabling I2C1 (its probe):      %6.2f s\n' "$(cut -d' ' -f1 "$CB_RUN/runs" | median)"
printf 'serial HAT+ enabling its UART meanwhile:  %6.2f s\n' "$(cut -d' ' -f2 "$CB_RUN/runs" | median)"
printf 'serial HAT+ enabling its UART alone:      %6.2f s\n' "$(cut -d' ' -f3 "$CB_RUN/runs" | median)"
