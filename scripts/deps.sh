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
	man-db		# man -l: the host suite renders the installed capetool(1)
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
# apt retries a failed download itself; a mirror caught mid-sync can still
# leave one index inconsistent ("File has unexpected size ... Mirror sync in
# progress?"), and apt-get update then exits 100 although every package we
# need may be installable from the other indexes.  So an update that fails
# is reported (which index) and we go on; apt-get install decides, and only
# a package that truly cannot be had stops us, by name.
apt_opts=(-o Acquire::Retries=3)
apt_updated=0
apt_update() {
	[ $apt_updated = 0 ] || return 0
	apt_updated=1
	local log
	log=$(mktemp)
	if ! $sudo apt-get "${apt_opts[@]}" update -qq >"$log" 2>&1; then
		echo "  DEPS    apt-get update reported failed indexes; going on with the others:"
		grep -E '^(E|W): Failed to fetch' "$log" | sed -E 's/^(E|W): Failed to fetch ([^ ]+).*/            \2/' | sort -u
	fi
	rm -f "$log"
}
apt_install() {
	[ $# -gt 0 ] || return 0
	echo "  DEPS    apt-get install $*"
	apt_update
	local p bad=()
	for p in "$@"; do
		apt-get "${apt_opts[@]}" install -s -qq --no-install-recommends "$p" >/dev/null 2>&1 ||
			bad+=("$p")
	done
	if [ ${#bad[@]} -gt 0 ]; then
		echo "deps: cannot be installed from the reachable package indexes: ${bad[*]}" >&2
		exit 1
	fi
	DEBIAN_FRONTEND=noninteractive $sudo apt-get "${apt_opts[@]}" install -y -qq \
		--no-install-recommends "$@" >/dev/null
}

if ! dpkg --print-foreign-architectures | grep -qx armhf; then
	echo "  DEPS    dpkg --add-architecture armhf"
	$sudo dpkg --add-architecture armhf
fi
mapfile -t need < <(missing "${host_pkgs[@]}" "${armhf_pkgs[@]}")
apt_install "${need[@]}"

if [ ! -f "$sysroot/.done" ]; then
	echo "  DEPS    armhf sysroot (${sysroot_pkgs[*]}) -> $sysroot"
	apt_update
	tmp=$(mktemp -d)
	(cd "$tmp" && chmod 777 . && apt-get "${apt_opts[@]}" download -qq "${sysroot_pkgs[@]}" 2>/dev/null) ||
		{ echo "deps: cannot download ${sysroot_pkgs[*]} from the reachable package indexes" >&2; exit 1; }
	rm -rf "$sysroot"
	mkdir -p "$sysroot"
	for deb in "$tmp"/*.deb; do dpkg-deb -x "$deb" "$sysroot"; done
	rm -rf "$tmp"
	[ -x "$sysroot/bin/busybox" ] && [ -f "$sysroot/usr/lib/arm-linux-gnueabihf/libfdt.a" ] ||
		{ echo "deps: the armhf sysroot is incomplete" >&2; exit 1; }
	touch "$sysroot/.done"
fi
