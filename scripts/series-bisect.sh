#!/bin/bash
# Build drivers/capebus at every patch of the series, so that the series
# bisects: each patch must compile on its own (CAPEBUS=y and =m).  Prints
# TAP.  (Compiles the directory.  modpost needs the whole kernel, so of what
# it checks only what a lone patch can break is checked here: every module
# has a MODULE_LICENSE, and every symbol a module needs is defined by one
# of the series' modules or exported by the rest of the kernel, as the full
# build's Module.symvers lists it.)
#
# usage: series-bisect.sh SRCDIR OBJDIR PATCHDIR
#   SRCDIR: the unpacked tree with the series applied (make kernel)
#   OBJDIR: its configured build (for .config); a scratch tree is made
#           next to it with hard links, so SRCDIR is not touched
set -euo pipefail
src=$1 obj=$2 patches=$3
scratch=$(dirname "$obj")/bisect
# The same series and config bisected before: its result stands.
key=$(cat "$patches"/0*.patch "$obj/.config" | sha256sum | cut -d' ' -f1)
cache=$(dirname "$obj")/bisect-$key.tap
if [ -f "$cache" ]; then
	echo "# this series and config bisected cleanly before ($cache)"
	cat "$cache"
	exit 0
fi
if [ -z "${BISECT_INNER:-}" ]; then
	out=$(mktemp)
	BISECT_INNER=1 "$0" "$@" | tee "$out"
	rc=${PIPESTATUS[0]}
	if [ "$rc" = 0 ]; then mv "$out" "$cache"; else rm -f "$out"; fi
	exit "$rc"
fi
rm -rf "$scratch"
mkdir -p "$scratch"
echo "# hard-linking $src into a scratch tree"
cp -al "$src" "$scratch/src"
kmake=(make -s -C "$scratch/src" ARCH=arm CROSS_COMPILE=arm-linux-gnueabihf-
       "CC=ccache arm-linux-gnueabihf-gcc" -j"${JOBS:-$(nproc)}")
# Back to pristine: drop the series' files, restore the files it edits.
while read -r f; do
	[ -n "$f" ] && rm -f "$scratch/src/$f"
done < "$src/.capebus/files"
(cd "$src/.capebus/pristine" && find . -type f) | while read -r f; do
	rm -f "$scratch/src/$f" && cp "$src/.capebus/pristine/$f" "$scratch/src/$f"
done
# modules_licensed DIR: each module kbuild made in DIR (a NAME.mod lists
# its objects) carries a license in .modinfo, as modpost demands.
modules_licensed() {
	local mod ok=0
	for mod in "$1"/*.mod; do
		[ -e "$mod" ] || continue
		if ! arm-linux-gnueabihf-objcopy -O binary --only-section=.modinfo \
			"${mod%.mod}.o" /dev/stdout | tr '\0' '\n' | grep -q '^license='; then
			echo "modpost would say: missing MODULE_LICENSE() in ${mod%.mod}.o"
			ok=1
		fi
	done
	return $ok
}

# modules_resolved OBJTREE: every undefined symbol of the modules kbuild
# made under drivers/capebus is defined by one of them, by what
# drivers/capebus builds in (CAPEBUS=y), or exported by the kernel outside
# drivers/capebus (modpost's "undefined!" error, which a Makefile that
# forgets an object brings).
modules_resolved() {
	local mods need have missing
	mods=$(cd "$1" && find drivers/capebus -name '*.mod' | sed 's/\.mod$/.o/')
	[ -n "$mods" ] || return 0
	# shellcheck disable=SC2086
	need=$(cd "$1" && arm-linux-gnueabihf-nm -u $mods | awk 'NF == 2 { print $2 }' | sort -u)
	# shellcheck disable=SC2086
	have=$({ cd "$1" && arm-linux-gnueabihf-nm --defined-only -g $mods \
			$(find drivers/capebus -name built-in.a) | awk 'NF == 3 { print $3 }'
		 awk '$3 !~ /drivers\/capebus/ { print $2 }' "$obj/Module.symvers"
		 echo __this_module; } | sort -u)
	missing=$(comm -23 <(echo "$need") <(echo "$have"))
	[ -z "$missing" ] && return 0
	echo "modpost would say: undefined symbols:" $missing
	return 1
}

# builtin_resolved OBJTREE: what drivers/capebus builds in (CAPEBUS=y) needs
# only itself and the kernel (the full build's System.map, where capebus is
# a module): vmlinux's link.
builtin_resolved() {
	local ars need have missing
	ars=$(cd "$1" && find drivers/capebus -name built-in.a)
	[ -n "$ars" ] || return 0
	# shellcheck disable=SC2086
	need=$(cd "$1" && arm-linux-gnueabihf-nm -u $ars | awk 'NF == 2 { print $2 }' | sort -u)
	# shellcheck disable=SC2086
	have=$({ cd "$1" && arm-linux-gnueabihf-nm --defined-only -g $ars | awk 'NF == 3 { print $3 }'
		 awk '{ print $3 }' "$obj/System.map"; } | sort -u)
	missing=$(comm -23 <(echo "$need") <(echo "$have"))
	[ -z "$missing" ] && return 0
	echo "vmlinux would not link: undefined symbols:" $missing
	return 1
}

fail=0 n=0
for p in "$patches"/0*.patch; do
	case $p in *0000-cover-letter.patch) continue ;; esac
	# patch(1) writes new files: hard links to SRCDIR are never written through.
	patch -s -p1 -d "$scratch/src" --no-backup-if-mismatch < "$p"
	if [ ! -f "$scratch/src/drivers/capebus/Makefile" ]; then
		echo "# $(basename "$p"): nothing to build yet"
		continue
	fi
	for m in y m; do
		b=$scratch/obj-$m
		if [ ! -f "$b/.config" ]; then
			mkdir -p "$b"
			cp "$obj/.config" "$b/.config"
		fi
		sed -i "s/^CONFIG_CAPEBUS=.*/CONFIG_CAPEBUS=$m/" "$b/.config"
		"${kmake[@]}" O="$b" olddefconfig >/dev/null
		rm -rf "$b/drivers/capebus"
		n=$((n + 1))
		if "${kmake[@]}" O="$b" drivers/capebus/ >"$b/log" 2>&1 &&
		   modules_licensed "$b/drivers/capebus" >>"$b/log" 2>&1 &&
		   modules_resolved "$b" >>"$b/log" 2>&1 &&
		   builtin_resolved "$b" >>"$b/log" 2>&1; then
			echo "ok $n bisect $(basename "$p") builds with CAPEBUS=$m"
			echo "# $(cd "$b/drivers/capebus" && ls *.o | tr '\n' ' ')"
		else
			echo "not ok $n bisect $(basename "$p") builds with CAPEBUS=$m"
			tail -n 15 "$b/log" | sed 's/^/# /'
			fail=1
		fi
	done
done
rm -rf "$scratch"
echo "1..$n"
exit $fail
