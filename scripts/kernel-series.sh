#!/bin/bash
# The capebus kernel series lives in kernel/ as a tree of the files it adds
# (kernel/drivers/..., kernel/include/..., kernel/Documentation/...), small
# diffs for the few existing files it touches (kernel/edits/*.diff), and
# kernel/series/*.txt, one per patch, in order: the commit message, a line
# "---", then the paths (relative to kernel/) that patch adds or applies.
#
# The tree holds each file's final version.  A patch that must add an
# earlier version, so that every patch builds on its own (a Kconfig or
# Makefile that grows with the series), names it PATH@NNNN: the content of
# kernel/series/stages/NNNN/PATH.  A later patch names PATH itself.
#
#   kernel-series.sh apply  SRCDIR   bring SRCDIR to pristine + series
#   kernel-series.sh export SRCDIR OUTDIR
#                                    emit the series as git format-patch files
#   kernel-series.sh files           list every path the series names
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
kdir=$top/kernel

series_entries() {
	local f
	for f in "$kdir"/series/*.txt; do
		[ -e "$f" ] || continue
		echo "$f"
	done
}

# Paths of one series entry (after the "---" line), one per line.
entry_paths() {
	sed -n '/^---$/,$p' "$1" | sed '1d' | sed -e 's/#.*//' -e 's/[[:space:]]*$//' | sed '/^$/d'
}

# Commit message of one series entry (before the "---" line).
entry_message() {
	sed '/^---$/,$d' "$1"
}

# Every path the series names, final versions only (PATH@NNNN -> PATH), once.
all_paths() {
	local e
	for e in $(series_entries); do entry_paths "$e"; done | sed 's/@[0-9]*$//' | awk '!seen[$0]++'
}

# kernel/-relative file holding the content a series line stands for.
path_source() {
	case $1 in
	*@*) echo "series/stages/${1##*@}/${1%@*}" ;;
	*) echo "$1" ;;
	esac
}

# Target file of an edit diff: the path after "+++ b/".
diff_target() {
	sed -n 's|^+++ b/\([^[:space:]]*\).*|\1|p' "$1" | head -n1
}

install_if_changed() {	# from to
	if ! cmp -s "$1" "$2"; then
		mkdir -p "$(dirname "$2")"
		cp "$1" "$2"
		echo "  SERIES  ${2#"$src"/}"
	fi
}

cmd_apply() {
	src=$1
	local state=$src/.capebus
	mkdir -p "$state/pristine"
	local p new_files=() edits=()
	while read -r p; do
		[ -e "$kdir/$p" ] || { echo "kernel-series: $p (named in kernel/series) does not exist" >&2; exit 1; }
		case $p in
		edits/*.diff) edits+=("$p") ;;
		*) new_files+=("$p") ;;
		esac
	done < <(all_paths)

	# Added files: install what changed, remove what the series dropped.
	# (Membership by associative array: `printf | grep -q` under pipefail
	# fails when grep stops reading early.)
	local -A in_series=()
	for p in "${new_files[@]}"; do
		install_if_changed "$kdir/$p" "$src/$p"
		in_series[$p]=1
	done
	if [ -f "$state/files" ]; then
		while read -r p; do
			[ -n "$p" ] || continue
			[ -n "${in_series[$p]:-}" ] && continue
			rm -f "$src/$p" && echo "  SERIES  removed $p"
		done < "$state/files"
	fi
	printf '%s\n' "${new_files[@]}" | sed '/^$/d' > "$state/files"

	# Edited files: pristine copy + every edit, in series order.
	local tmp targets=() t
	tmp=$(mktemp -d)
	trap 'rm -rf "$tmp"' RETURN
	for p in "${edits[@]}"; do
		t=$(diff_target "$kdir/$p")
		[ -n "$t" ] || { echo "kernel-series: $p names no target file" >&2; exit 1; }
		if [ ! -f "$state/pristine/$t" ]; then
			mkdir -p "$(dirname "$state/pristine/$t")"
			cp "$src/$t" "$state/pristine/$t"
		fi
		if [ ! -f "$tmp/$t" ]; then
			mkdir -p "$(dirname "$tmp/$t")"
			cp "$state/pristine/$t" "$tmp/$t"
			targets+=("$t")
		fi
		patch -s -p1 -d "$tmp" --no-backup-if-mismatch -r - < "$kdir/$p" ||
			{ echo "kernel-series: $p does not apply to $t" >&2; exit 1; }
	done
	local -A edited=()
	for t in "${targets[@]}"; do
		install_if_changed "$tmp/$t" "$src/$t"
		edited[$t]=1
	done
	# Files an earlier series edited and this one does not: back to pristine.
	if [ -f "$state/edited" ]; then
		while read -r t; do
			[ -n "$t" ] || continue
			[ -n "${edited[$t]:-}" ] && continue
			install_if_changed "$state/pristine/$t" "$src/$t"
		done < "$state/edited"
	fi
	printf '%s\n' "${targets[@]}" | sed '/^$/d' > "$state/edited"
}

cmd_export() {
	src=$1
	mkdir -p "$2"
	out=$(cd "$2" && pwd)
	local git tmp p t e n=0
	tmp=$(mktemp -d)
	trap 'rm -rf "$tmp"' RETURN
	git=(git -C "$tmp" -c user.name="capebus developers" -c user.email="capebus@lists.example.org" -c commit.gpgsign=false)
	# Fixed dates: the same series always exports to the same bytes.
	export GIT_AUTHOR_DATE="2026-01-01 00:00:00 +0000" GIT_COMMITTER_DATE="2026-01-01 00:00:00 +0000"
	git -C "$tmp" init -q
	# The base: pristine copies of every file the series edits.
	for p in $(all_paths); do
		case $p in edits/*.diff) ;; *) continue ;; esac
		t=$(diff_target "$kdir/$p")
		[ -f "$tmp/$t" ] && continue
		mkdir -p "$(dirname "$tmp/$t")"
		if [ -f "$src/.capebus/pristine/$t" ]; then cp "$src/.capebus/pristine/$t" "$tmp/$t"; else cp "$src/$t" "$tmp/$t"; fi
	done
	"${git[@]}" add -A
	"${git[@]}" commit -q --allow-empty -m "base: Linux $(make -s -C "$src" kernelversion 2>/dev/null || echo 6.12)"
	"${git[@]}" tag base
	for e in $(series_entries); do
		for p in $(entry_paths "$e"); do
			case $p in
			edits/*.diff) patch -s -p1 -d "$tmp" --no-backup-if-mismatch -r - < "$kdir/$p" ;;
			*)
				[ -f "$kdir/$(path_source "$p")" ] ||
					{ echo "kernel-series: $(basename "$e"): no kernel/$(path_source "$p")" >&2; exit 1; }
				mkdir -p "$(dirname "$tmp/${p%@*}")"
				cp "$kdir/$(path_source "$p")" "$tmp/${p%@*}" ;;
			esac
		done
		"${git[@]}" add -A
		entry_message "$e" | "${git[@]}" commit -q -F -
		n=$((n + 1))
	done
	rm -rf "$out"
	mkdir -p "$out"
	"${git[@]}" format-patch -q --cover-letter -o "$out" base >/dev/null
	[ -f "$kdir/series/cover-letter.txt" ] && python3 - "$out"/0000-cover-letter.patch "$kdir/series/cover-letter.txt" <<'PY' || true
import sys
path, cover = sys.argv[1], open(sys.argv[2]).read()
subject, _, body = cover.partition("\n")
text = open(path).read()
text = text.replace("*** SUBJECT HERE ***", subject.strip()).replace("*** BLURB HERE ***", body.strip())
open(path, "w").write(text)
PY
	echo "$n patches in $out"
}

case ${1:-} in
apply) cmd_apply "$2" ;;
export) cmd_export "$2" "$3" ;;
files) all_paths ;;
*) echo "usage: $0 apply SRCDIR | export SRCDIR OUTDIR | files" >&2; exit 2 ;;
esac
