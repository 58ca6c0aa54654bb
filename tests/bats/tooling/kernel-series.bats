#!/usr/bin/env bats
# scripts/kernel-series.sh: the series kept in kernel/ reaches a kernel tree
# without needless rebuilds, and comes out as git format-patch files.

setup() {
	top=$(cd "$BATS_TEST_DIRNAME/../../.." && pwd)
	series=$top/scripts/kernel-series.sh
	src=$BATS_TEST_TMPDIR/linux
	mkdir -p "$src/drivers"
	# A pristine stand-in for the files the series edits.
	for p in $("$series" files | grep '^edits/'); do
		t=$(sed -n 's|^+++ b/\([^[:space:]]*\).*|\1|p' "$top/kernel/$p" | head -n1)
		[ -f "$src/$t" ] && continue
		mkdir -p "$(dirname "$src/$t")"
		# Rebuild the pristine file from the diff's context and removed lines.
		sed -n '/^@@/,$p' "$top/kernel/$p" | grep -E '^[ -]' | cut -c2- > "$src/$t"
	done
}

@test "the series names only files that exist" {
	run "$series" files
	[ "$status" -eq 0 ]
	for p in $output; do
		[ -e "$top/kernel/$p" ] || { echo "missing: kernel/$p"; false; }
	done
}

@test "apply installs every added file" {
	run "$series" apply "$src"
	[ "$status" -eq 0 ]
	for p in $("$series" files | grep -v '^edits/'); do
		cmp "$top/kernel/$p" "$src/$p"
	done
}

@test "a second apply rewrites nothing" {
	"$series" apply "$src"
	find "$src" -type f -newer "$src/.capebus/files" -printf '%P\n' > "$BATS_TEST_TMPDIR/before"
	touch -d '2 minutes ago' $(find "$src" -type f)
	run "$series" apply "$src"
	[ "$status" -eq 0 ]
	[ -z "$(echo "$output" | grep SERIES)" ]
	[ -z "$(find "$src" -type f -newermt '1 minute ago' ! -path '*/.capebus/*')" ]
}

@test "a file changed by hand in the tree is put back" {
	"$series" apply "$src"
	p=$("$series" files | grep -v '^edits/' | head -n1)
	[ -n "$p" ] || skip "the series adds no files yet"
	echo garbage >> "$src/$p"
	run "$series" apply "$src"
	[ "$status" -eq 0 ]
	cmp "$top/kernel/$p" "$src/$p"
}

@test "export emits one format-patch file per series entry" {
	n=$(ls "$top"/kernel/series/*.txt 2>/dev/null | wc -l)
	[ "$n" -gt 0 ] || skip "the series is empty"
	"$series" apply "$src"
	run "$series" export "$src" "$BATS_TEST_TMPDIR/out"
	[ "$status" -eq 0 ]
	[ "$(ls "$BATS_TEST_TMPDIR"/out/0*.patch | grep -vc cover-letter)" -eq "$n" ]
	grep -q '^Subject: \[PATCH' "$BATS_TEST_TMPDIR"/out/0001-*.patch
}

@test "applying twice keeps every file of the series" {
	"$series" apply "$src"
	run "$series" apply "$src"
	[ "$status" -eq 0 ]
	[[ "$output" != *removed* ]]
	for p in $("$series" files | grep -v '^edits/'); do
		[ -f "$src/$p" ] || { echo "lost: $p"; false; }
	done
}

@test "a file the series no longer names is removed from the tree" {
	"$series" apply "$src"
	echo drivers/capebus/dropped.c >> "$src/.capebus/files"
	touch "$src/drivers/capebus/dropped.c"
	run "$series" apply "$src"
	[ "$status" -eq 0 ]
	[ ! -e "$src/drivers/capebus/dropped.c" ]
	[ "$(echo "$output" | grep -c removed)" -eq 1 ]
}
