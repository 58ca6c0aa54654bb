#!/bin/bash
# How capebus's resolve and verify grow with the overlay, next to the
# kernel's own apply of the same blob.  In one boot, for overlays of 10,
# 100, 1000 and 10000 nodes (each a device at its own bus address with a
# GPIO reference through an export: every rule has work to do), the bench
# module (bench/ovbench) resolves the overlay with capebus_fdt_resolve(),
# applies that very blob with a bare of_overlay_fdt_apply() and removes it,
# then adds the overlay as a cape of a bench controller (resolve, claim,
# apply with the PRE_APPLY verifier) and removes it.  Prints medians of R
# rounds and the cost per node; asserts nothing.
#
# usage: bench/overlay-scale.sh [ROUNDS]   (needs `make guest`)
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
rounds=${1:-3}
cache=${CAPEBUS_CACHE:-$HOME/.cache/capebus}
export CB_KERNEL=${CB_KERNEL:-$cache/build/kernel/arch/arm/boot/zImage}
export CB_DTB=${CB_DTB:-$top/build/guest/board.dtb} CB_INITRD=${CB_INITRD:-$top/build/guest/initramfs.cpio.gz}
export CB_LOGDIR=$top/build/test-logs
# shellcheck source=../tests/qemu/lib.bash
. "$top/tests/qemu/lib.bash"

out=$top/build/bench-ovscale
rm -rf "$out"
mkdir -p "$out/mod"
cp "$top/bench/ovbench/capebus-ovbench.c" "$top/bench/ovbench/Kbuild" "$out/mod/"
kobj=$(cd "$(dirname "$CB_KERNEL")/../../.." && pwd)
make -s -C "$kobj" ARCH=arm CROSS_COMPILE=arm-linux-gnueabihf- M="$out/mod" modules >/dev/null

# The overlays, token by token (dtc's parser runs out of stack first).
python3 - "$out" <<'EOF'
import struct, sys

class Fdt:
    def __init__(self):
        self.s, self.strings = b"", b""
    def begin(self, name):
        raw = name.encode() + b"\0"
        self.s += struct.pack(">I", 1) + raw + b"\0" * (-len(raw) % 4)
    def end(self):
        self.s += struct.pack(">I", 2)
    def prop(self, name, value):
        raw = name.encode() + b"\0"
        off = self.strings.find(raw)
        if off < 0:
            off = len(self.strings)
            self.strings += raw
        self.s += struct.pack(">III", 3, len(value), off) + value + b"\0" * (-len(value) % 4)
    def write(self, path):
        st = self.s + struct.pack(">I", 9)
        off_struct = 56
        off_strings = off_struct + len(st)
        total = off_strings + len(self.strings)
        hdr = struct.pack(">10I", 0xd00dfeed, total, off_struct, off_strings, 40, 17, 16, 0,
                          len(self.strings), len(st))
        open(path, "wb").write(hdr + b"\0" * 16 + st + self.strings)

for n in (10, 100, 1000, 10000):
    t = Fdt()
    t.begin("")
    t.begin("fragment@0")
    t.prop("target", struct.pack(">I", 0xffffffff))
    t.begin("__overlay__")
    t.prop("#address-cells", struct.pack(">I", 1))
    t.prop("#size-cells", struct.pack(">I", 0))
    refs = []
    for i in range(n):
        name = f"dev@{i + 1:x}"
        t.begin(name)
        t.prop("compatible", b"capebus-bench,none\0")
        t.prop("reg", struct.pack(">I", i + 1))
        t.prop("gpios", struct.pack(">III", 0xffffffff, i, 0))
        t.end()
        refs.append(f"/fragment@0/__overlay__/{name}:gpios:0")
    t.end()
    t.end()
    t.begin("__fixups__")
    t.prop("bench_bus", b"/fragment@0:target:0\0")
    t.prop("bench_gpio", "\0".join(refs).encode() + b"\0")
    t.end()
    t.end()
    t.write(f"{sys.argv[1]}/scale-{n}.dtbo")
EOF

export CB_RUN=$out/run
guest_boot >/dev/null
trap guest_shutdown EXIT
guest_put "$out/mod/capebus-ovbench.ko"
for n in 10 100 1000 10000; do
	guest_put "$out/scale-$n.dtbo"
done
guest_ok 'insmod /host/capebus-ovbench.ko'
D=/sys/kernel/debug/capebus-ovbench
CB_RUN_TIMEOUT=1800 guest_ok "for r in \$(seq $rounds); do for n in 10 100 1000 10000; do
	cat /host/scale-\$n.dtbo > $D/scale; echo \$n \$(cat $D/scale_result)
done; done"
printf '%s\n' "$output" > "$out/figures"
guest_ok 'rmmod capebus-ovbench'

awk '
	function median(list,   a, k, i, j, t) {
		k = split(list, a, " ")
		for (i = 1; i <= k; i++) for (j = i + 1; j <= k; j++)
			if (a[j] + 0 < a[i] + 0) { t = a[i]; a[i] = a[j]; a[j] = t }
		return k % 2 ? a[(k + 1) / 2] : (a[k / 2] + a[k / 2 + 1]) / 2
	}
	$2 != 0 { print "overlay of " $1 " nodes failed: " $2 > "/dev/stderr"; bad = 1; next }
	{ res[$1] = res[$1] " " $3 / 1000; bare[$1] = bare[$1] " " $4 / 1000
	  cres[$1] = cres[$1] " " $5 / 1000; capp[$1] = capp[$1] " " $6 / 1000
	  ver[$1] = ver[$1] " " $7 / 1000 }
	END {
		if (bad) exit 1
		printf "%7s %12s %12s %12s %12s %14s %14s\n", "nodes", "bare apply", "resolve", "verify",
			"cape apply", "res+ver/node", "bare/node"
		for (n = 10; n <= 10000; n *= 10) {
			r = median(cres[n]); v = median(ver[n]); b = median(bare[n]); a = median(capp[n])
			printf "%7d %10.0f us %10.0f us %10.0f us %10.0f us %11.2f us %11.2f us\n",
				n, b, r, v, a, (r + v) / n, b / n
		}
		print "(medians; cape apply includes verify; resolve + verify per node stays flat if linear)"
	}' "$out/figures"
