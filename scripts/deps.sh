#!/bin/bash
# Install what capebus needs from Debian's archive, and only what is missing.
# Quiet and quick when everything is there.  Needs root (apt-get).
#
# usage: deps.sh CACHEDIR
set -euo pipefail

cache=$1
sysroot=$cache/sysroot-armhf

host_pkgs=(
	linux-source-6.12 qemu-system-arm gcc-arm-linux-gnueabihf libc6-dev-armhf-cross
	device-tree-compiler libconfig-dev libfdt-dev bats python3 python3-yaml
	bc bison flex libssl-dev libelf-dev cpio ccache make gcc perl rsync kmod xz-utils
	clang libclang-rt-14-dev dt-schema
	librsvg2-bin	# rsvg-convert: the pinout suite renders its SVGs to PNG
	openssl		# module signing keys: the lockdown LSM (both lanes) selects MODULE_SIG
)
armhf_pkgs=(libconfig-dev:armhf)
# Not Multi-Arch: same (libfdt-dev) or clobbering a host binary
# (busybox-static): unpacked into a private sysroot instead of installed.
sysroot_pkgs=(busybox-static:armhf libfdt-dev:armhf libfdt1:armhf)

missing() {
	local p
	for p in "$@"; do
		dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null | grep -q '^install ok installed$' || echo "$p"
	done
}

sudo=
[ "$(id -u)" = 0 ] || sudo=sudo
apt_updated=0
apt_install() {
	[ $# -gt 0 ] || return 0
	echo "  DEPS    apt-get install $*"
	if [ $apt_updated = 0 ]; then
		$sudo apt-get update -qq
		apt_updated=1
	fi
	DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "$@" >/dev/null
}

if ! dpkg --print-foreign-architectures | grep -qx armhf; then
	echo "  DEPS    dpkg --add-architecture armhf"
	$sudo dpkg --add-architecture armhf
fi
mapfile -t need < <(missing "${host_pkgs[@]}" "${armhf_pkgs[@]}")
apt_install "${need[@]}"

if [ ! -f "$sysroot/.done" ]; then
	echo "  DEPS    armhf sysroot (${sysroot_pkgs[*]}) -> $sysroot"
	[ $apt_updated = 1 ] || { $sudo apt-get update -qq; apt_updated=1; }
	tmp=$(mktemp -d)
	(cd "$tmp" && chmod 777 . && apt-get download -qq "${sysroot_pkgs[@]}" 2>/dev/null)
	rm -rf "$sysroot"
	mkdir -p "$sysroot"
	for deb in "$tmp"/*.deb; do dpkg-deb -x "$deb" "$sysroot"; done
	rm -rf "$tmp"
	[ -x "$sysroot/bin/busybox" ] && [ -f "$sysroot/usr/lib/arm-linux-gnueabihf/libfdt.a" ] ||
		{ echo "deps: the armhf sysroot is incomplete" >&2; exit 1; }
	touch "$sysroot/.done"
fi
