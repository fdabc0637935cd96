#!/usr/bin/env bash
# libpreempt.so exports what the public headers name and nothing else
# (cmake/export_map.cmake writes its version script).  Independently of
# the script: a symbol the shared library exports must be spelled in
# include/preempt/*.h outside comments (the compiler's own comment
# stripping, cc -fpreprocessed), be an interposer of
# src/debug/blocking.h or its __wrap_ form, or be listed in
# cmake/export_extra.txt or, versioned PK_PRIVATE,
# cmake/export_private.txt; and every symbol libpreempt.a defines that
# the headers spell must be exported, versioned LIBPREEMPT_<major>.
# Usage: exports_check.sh SOURCE_DIR LIBPREEMPT_SO LIBPREEMPT_A MAJOR [CC] [NM]
set -euo pipefail
src=$1 so=$2 ar=$3 major=$4 cc=${5:-cc} nm=${6:-nm}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "exports_check: $*" >&2; exit 1; }

names() { grep -v '^#' "$1" | grep . | sort -u; }
# name@@VERSION (or name@VERSION) per exported symbol.
"$nm" -D --defined-only --with-symbol-versions "$so" |
	awk 'NF == 3 { print $3 }' | sed 's/@@*/ /' |
	# The version nodes themselves: absolute symbols named so.
	grep -vE '^(LIBPREEMPT_[0-9]+|PK_PRIVATE)$' | sort -u >"$tmp/exported.ver"
cut -d' ' -f1 "$tmp/exported.ver" | sort -u >"$tmp/exported"
"$nm" -g --defined-only "$ar" | awk 'NF == 3 { print $3 }' |
	sort -u >"$tmp/defined"
for h in "$src"/include/preempt/*.h; do
	"$cc" -fpreprocessed -dD -E -P -x c "$h" 2>/dev/null
done | grep -oE '[A-Za-z_][A-Za-z0-9_]*' | sort -u >"$tmp/spelled"
grep -oE '[XLA]\([a-z_0-9]+\)' "$src/src/debug/blocking.h" |
	sed -E 's/^.\((.*)\)$/\1/' | sort -u >"$tmp/interposed"
{
	cat "$tmp/interposed"
	sed 's/^/__wrap_/' "$tmp/interposed"
	names "$src/cmake/export_extra.txt"
	names "$src/cmake/export_private.txt"
	cat "$tmp/spelled"
} | sort -u >"$tmp/allowed"

leaked=$(comm -23 "$tmp/exported" "$tmp/allowed")
[ -z "$leaked" ] || fail "exported, but no public header names them:" $leaked
missing=$(comm -12 "$tmp/defined" "$tmp/spelled" | comm -23 - "$tmp/exported")
[ -z "$missing" ] || fail "named in include/preempt but not exported:" $missing
# (Those the library defines in this build.)
names "$src/cmake/export_private.txt" | comm -12 - "$tmp/defined" >"$tmp/private"
while read -r s; do
	grep -qx "$s PK_PRIVATE" "$tmp/exported.ver" ||
		fail "$s is not exported as PK_PRIVATE"
done <"$tmp/private"
public=$(grep -vc ' PK_PRIVATE$' "$tmp/exported.ver" || true)
wrong=$(grep -v ' PK_PRIVATE$' "$tmp/exported.ver" |
	grep -vE "^[^ ]+ LIBPREEMPT_$major\$" || true)
[ -z "$wrong" ] || fail "exported outside LIBPREEMPT_$major:" $wrong
hidden=$(comm -23 "$tmp/defined" "$tmp/exported" | wc -l)
[ "$hidden" -gt 0 ] || fail "nothing of libpreempt.a is hidden"
echo "exports_check: $public symbols exported (LIBPREEMPT_$major," \
	"$(wc -l <"$tmp/private") PK_PRIVATE)," \
	"$hidden internal ones local"
