#!/bin/bash
# Build the guest's initramfs: static armhf busybox, /init, the command
# agent, capetool (if built), cape overlays for /lib/firmware and the kernel
# modules.
#
# usage: mk-initramfs.sh OUT.cpio.gz BUSYBOX MODULES_DIR FIRMWARE_DIR [CAPETOOL]
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
out=$1 busybox=$2 modules=$3 firmware=$4 capetool=${5:-}

stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
mkdir -p "$stage"/{bin,sbin,usr/bin,usr/sbin,dev,proc,sys,tmp,run,host,etc,root,lib/firmware}
install -m755 "$busybox" "$stage/bin/busybox"
install -m755 "$top/tests/qemu/rootfs/init" "$stage/init"
install -m755 "$top/tests/qemu/rootfs/capebus-agent" "$stage/sbin/capebus-agent"
# The hotplug helper's rules and settle (used where the kernel has a uevent
# helper: the distribution lane).
install -m644 "$top/tests/qemu/rootfs/mdev.conf" "$stage/etc/mdev.conf"
install -m755 "$top/tests/qemu/rootfs/cb-settle" "$stage/sbin/cb-settle"
[ -n "$capetool" ] && [ -f "$capetool" ] && install -m755 "$capetool" "$stage/usr/bin/capetool"
[ -d "$modules/lib/modules" ] && cp -a "$modules/lib/modules" "$stage/lib/"
if [ -d "$firmware" ]; then
	find "$firmware" -maxdepth 1 -name '*.dtbo' -exec cp {} "$stage/lib/firmware/" \;
fi
echo 'root:x:0:0:root:/root:/bin/sh' > "$stage/etc/passwd"
echo 'PS1="capebus# "' > "$stage/etc/profile"

# The kernel opens /dev/console before /init mounts devtmpfs.
mknod -m 600 "$stage/dev/console" c 5 1
(cd "$stage" && find . -mindepth 1 | LC_ALL=C sort | cpio --quiet -o -H newc -R 0:0) > "$out.cpio"
gzip -n -1 -c "$out.cpio" > "$out.tmp" && rm -f "$out.cpio" && mv "$out.tmp" "$out"
