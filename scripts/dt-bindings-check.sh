#!/bin/bash
# The series' DT bindings against dt-schema's meta-schema, as TAP.
# `make dt_binding_check` refuses Debian 12's dt-schema (2022.08; 6.12 wants
# 2023.9), so this runs the part of it that tool can do: dt-doc-validate.
set -uo pipefail
src=$1
here=$(cd "$(dirname "$0")" && pwd)
mapfile -t yamls < <("$here/kernel-series.sh" files | grep '^Documentation/devicetree/bindings/.*\.yaml$')
echo "1..${#yamls[@]}"
n=0 fail=0
for y in "${yamls[@]}"; do
	n=$((n + 1))
	if out=$(dt-doc-validate -u "$src/Documentation/devicetree/bindings" "$src/$y" 2>&1); then
		echo "ok $n dt-doc-validate $y"
	else
		echo "not ok $n dt-doc-validate $y"
		printf '%s\n' "$out" | sed 's/^/# /'
		fail=1
	fi
done
exit $fail
