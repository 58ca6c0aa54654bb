#!/bin/bash
# What capebus's overlay resolution and verification cost on top of the
# kernel's own overlay apply.  In one boot, the weather cape's overlay is
# applied N times each way:
#   bare:    of_overlay_fdt_apply() of the overlay with its references
#            resolved on the host (fdtput), by a test module
#            (bench/ovbench/capebus-ovbench.ko) -- the kernel's work alone;
#   capebus: the same overlay declared through configfs and enabled: resolved
#            by capebus-fdt.c, applied, verified by the PRE_APPLY notifier;
#            the figures are the kernel's log line for the cape
#            ("resolved in R us, applied in A us, verifying V us of it").
# Prints medians (for the shell figures also the least, and the median of
# the enable-minus-keep difference within each iteration); asserts nothing.
#
# usage: bench/overlay-cost.sh [N]   (needs `make guest`)
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
n=${1:-20}
cache=${CAPEBUS_CACHE:-$HOME/.cache/capebus}
export CB_KERNEL=${CB_KERNEL:-$cache/build/kernel/arch/arm/boot/zImage}
export CB_DTB=${CB_DTB:-$top/build/guest/board.dtb} CB_INITRD=${CB_INITRD:-$top/build/guest/initramfs.cpio.gz}
export CB_LOGDIR=$top/build/test-logs
capetool=${CB_CAPETOOL:-$top/build/capetool/host/capetool}
# shellcheck source=../tests/qemu/lib.bash
. "$top/tests/qemu/lib.bash"

out=$top/build/bench-ovcost
rm -rf "$out"
mkdir -p "$out/mod"
cp "$top/bench/ovbench/capebus-ovbench.c" "$top/bench/ovbench/Kbuild" "$out/mod/"
make -s -C "$cache/linux-6.12" O="$cache/build/kernel" ARCH=arm \
	CROSS_COMPILE=arm-linux-gnueabihf- M="$out/mod" modules >/dev/null

"$capetool" create "$top/cape-defs/weather.cape" --board qemu-vexpress -o "$out" >/dev/null
dtbo=$out/BB-WTHR-01-00A2.dtbo
# The bare blob: every __fixups__ cell patched with the phandle the
# connector exports under that name, __fixups__ removed.
cp "$dtbo" "$out/bare.dtbo"
for label in $(fdtget -p "$dtbo" /__fixups__); do
	ph=$(fdtget -t u "$CB_DTB" /capebus/export-symbols "$label")
	for e in $(fdtget "$dtbo" /__fixups__ "$label"); do
		path=${e%%:*} rest=${e#*:}
		prop=${rest%%:*} off=${rest##*:}
		read -r -a cells <<< "$(fdtget -t u "$out/bare.dtbo" "$path" "$prop")"
		cells[off / 4]=$ph
		fdtput -t u "$out/bare.dtbo" "$path" "$prop" "${cells[@]}"
	done
done
fdtput -r "$out/bare.dtbo" /__fixups__

export CB_RUN=$out/run
guest_boot >/dev/null
trap guest_shutdown EXIT
guest_put "$out/mod/capebus-ovbench.ko"
guest_put "$out/bare.dtbo"
guest_put "$dtbo" cape.dtbo
guest_ok 'insmod /host/capebus-ovbench.ko'
C=/sys/kernel/config/capebus/capebus0/capes
D=/sys/kernel/debug/capebus-ovbench
# The whole enable, timed from the shell: "echo 1 > enable" of a cape
# whose attributes and overlay are already written, against "echo 1 > keep"
# of the bare blob (both a builtin's write; "now" is ktime_get_ns(), read
# with the builtin read: a $(cat now) would put a fork and an exec, some
# 30 ms of QEMU time and most of the noise, between the two stamps); the
# cost of two reads of "now" with nothing between them is the floor both
# carry.
# shellcheck disable=SC2016
guest_ok "cat /host/bare.dtbo > $D/apply
for i in \$(seq $n); do
	cat /host/bare.dtbo > $D/apply; echo bare \$(cat $D/result)
	mkdir $C/w && echo Weather > $C/w/board_name && echo 00A2 > $C/w/version &&
	echo bench > $C/w/manufacturer && echo BENCH-WTHR > $C/w/part_number &&
	echo 0000BENCH001 > $C/w/serial && cat /host/cape.dtbo > $C/w/dtbo &&
	read -r t0 < $D/now && echo 1 > $C/w/enable && read -r t1 < $D/now &&
	echo enable \$((t1 - t0)) && rmdir $C/w
	read -r t0 < $D/now; echo 1 > $D/keep; read -r t1 < $D/now; echo 0 > $D/keep
	echo keep \$((t1 - t0))
	read -r t0 < $D/now; read -r t1 < $D/now; echo floor \$((t1 - t0))
done
dmesg | grep 'BENCH-WTHR .*resolved in' | sed 's/.*resolved in \([0-9]*\) us, applied in \([0-9]*\) us, verifying \([0-9]*\) us.*/capebus \1 \2 \3/'"
printf '%s\n' "$output" > "$out/figures"

awk '
	function median(a, k,   i, j, t) {
		for (i = 1; i <= k; i++) for (j = i + 1; j <= k; j++)
			if (a[j] < a[i]) { t = a[i]; a[i] = a[j]; a[j] = t }
		return k % 2 ? a[(k + 1) / 2] : (a[k / 2] + a[k / 2 + 1]) / 2
	}
	$1 == "bare" && $2 == 0 { b[++nb] = $3 / 1000 }
	$1 == "capebus" { r[++nc] = $2; a[nc] = $3; v[nc] = $4; t[nc] = $2 + $3 }
	$1 == "enable" { e[++ne] = $2 / 1000 }
	$1 == "keep" { k[++nk] = $2 / 1000 }
	$1 == "floor" { f[++nf] = $2 / 1000 }
	END {
		if (!nb || !nc) { print "no figures" > "/dev/stderr"; exit 1 }
		mb = median(b, nb); mr = median(r, nc); ma = median(a, nc)
		mv = median(v, nc); mt = median(t, nc)
		printf "bare of_overlay_fdt_apply():  %8.0f us (median of %d)\n", mb, nb
		printf "capebus resolve:              %8.0f us\n", mr
		printf "capebus apply (with verify):  %8.0f us, of which verifying %.0f us\n", ma, mv
		printf "capebus total:                %8.0f us (median of %d)\n", mt, nc
		printf "resolve + verify: %.0f us = %.1f%% on top of the bare apply\n", mr + mv, 100 * (mr + mv) / mb
		if (!ne || !nk || !nf) { print "no shell figures" > "/dev/stderr"; exit 1 }
		# One iteration enables and keeps a few ms apart: their
		# difference, iteration by iteration, moves less with what else
		# the host runs than either does.
		for (i = 1; i <= ne && i <= nk; i++) d[i] = e[i] - k[i]
		nd = i - 1
		lo_e = e[1]; lo_k = k[1]
		for (i = 2; i <= ne; i++) if (e[i] < lo_e) lo_e = e[i]
		for (i = 2; i <= nk; i++) if (k[i] < lo_k) lo_k = k[i]
		me = median(e, ne); mk = median(k, nk); mf = median(f, nf); md = median(d, nd)
		printf "shell, echo 1 > keep (bare):  %8.0f us (least %.0f)\n", mk, lo_k
		printf "shell, echo 1 > enable:       %8.0f us (least %.0f)\n", me, lo_e
		printf "shell, nothing (the floor):   %8.0f us\n", mf
		printf "whole enable: %.1f%% on top of the bare apply (floor taken off both)\n", 100 * ((me - mf) / (mk - mf) - 1)
		printf "whole enable, paired by iteration: %.0f us = %.1f%% on top of the bare apply\n", md, 100 * md / (mk - mf)
	}' "$out/figures"
