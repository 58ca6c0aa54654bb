#!/bin/bash
# How long the test guest takes to boot to its agent, and one guest_run
# round trip (a no-op command), averaged over N calls.  Prints figures only.
#
# usage: bench/guest-roundtrip.sh [N]   (needs `make guest`)
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
n=${1:-200}
export CB_KERNEL=${CB_KERNEL:-$HOME/.cache/capebus/build/kernel/arch/arm/boot/zImage}
export CB_DTB=${CB_DTB:-$top/build/guest/board.dtb} CB_INITRD=${CB_INITRD:-$top/build/guest/initramfs.cpio.gz}
export CB_RUN=$top/build/bench-roundtrip CB_LOGDIR=$top/build/test-logs
rm -rf "$CB_RUN"
# shellcheck source=../tests/qemu/lib.bash
. "$top/tests/qemu/lib.bash"

t0=$(date +%s%N)
guest_boot
t1=$(date +%s%N)
for _ in $(seq "$n"); do guest_run true; done
t2=$(date +%s%N)
guest_run 'head -c 32768 /dev/zero | base64 | head -c 16384'
t3=$(date +%s%N)
guest_shutdown
printf 'boot to agent:            %6.0f ms\n' "$(echo "($t1 - $t0) / 1000000" | bc -l)"
printf 'guest_run round trip:     %6.1f ms (mean of %d)\n' "$(echo "($t2 - $t1) / 1000000 / $n" | bc -l)" "$n"
printf 'guest_run, 16 KiB output: %6.0f ms\n' "$(echo "($t3 - $t2) / 1000000" | bc -l)"
