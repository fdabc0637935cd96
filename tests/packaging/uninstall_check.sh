#!/usr/bin/env bash
# scripts/uninstall.sh removes what a manifest lists under the prefix, and
# never a file that an entry reaches through a symlinked directory (an
# earlier version deleted host headers through the kernel view's links).
# Usage: uninstall_check.sh SOURCE_DIR
set -euo pipefail
src=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "uninstall_check: $*" >&2; exit 1; }

mkdir -p "$tmp/host/include" "$tmp/stage/usr/lib/view" "$tmp/stage/usr/bin"
echo keep >"$tmp/host/include/host.h"
echo ours >"$tmp/stage/usr/bin/tool"
ln -s "$tmp/host/include" "$tmp/stage/usr/lib/view/inc"
printf '%s\n' /usr/bin/tool /usr/lib/view/inc/host.h /usr/lib/view/inc \
	>"$tmp/manifest"
"$src/scripts/uninstall.sh" "$tmp/manifest" "$tmp/stage" /usr >"$tmp/out" 2>&1 ||
	{ cat "$tmp/out" >&2; fail "uninstall failed"; }
[ -f "$tmp/host/include/host.h" ] || fail "deleted a file through a symlinked directory"
[ ! -e "$tmp/stage/usr/bin/tool" ] || fail "left a listed file"
[ ! -L "$tmp/stage/usr/lib/view/inc" ] || fail "left a listed symlink"
[ ! -d "$tmp/stage/usr/lib/view" ] || fail "left an emptied directory"
grep -q "outside" "$tmp/out" || fail "did not say what it left"
echo "uninstall_check: listed files removed, nothing through a symlink"
