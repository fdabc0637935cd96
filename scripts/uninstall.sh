#!/usr/bin/env bash
# Remove what `make install` wrote, then the directories it made that are
# left empty.  Usage: scripts/uninstall.sh MANIFEST DESTDIR PREFIX
# (cmake's install_manifest.txt lists the files without DESTDIR.)
set -euo pipefail
[ $# -eq 3 ] || { echo "usage: scripts/uninstall.sh MANIFEST DESTDIR PREFIX" >&2; exit 2; }
manifest=$1 destdir=$2 prefix=$3
root="$destdir$prefix"
[ -d "$root" ] || { echo "uninstall: $root does not exist" >&2; exit 2; }
physical_root=$(cd -P "$root" && pwd)

# Where a path's directory really is: a manifest entry reached through a
# symlinked directory (the kernel view links the host's include dirs)
# must never delete the host's file it points at.
inside_root() {
	local dir
	dir=$(cd -P "$(dirname "$1")" 2>/dev/null && pwd) || return 1
	case "$dir/" in
	"$physical_root"/*) return 0 ;;
	*) return 1 ;;
	esac
}

n=0 refused=0
while IFS= read -r path || [ -n "$path" ]; do
	case "$path" in
	"$prefix"/*) ;;
	*) echo "uninstall: $path is not under $prefix: installed with another PREFIX?" >&2
	   exit 2 ;;
	esac
	f="$destdir$path"
	if { [ -e "$f" ] || [ -L "$f" ]; } && ! inside_root "$f"; then
		refused=$((refused + 1))
		continue
	fi
	if [ -e "$f" ] || [ -L "$f" ]; then
		rm -rf "$f" # a directory: the kernel view's own asm/
		n=$((n + 1))
	fi
	# Prune the directories this file's removal emptied, up to the prefix.
	d=$(dirname "$f")
	while [ "$d" != "$root" ] && [ "${d#"$root"/}" != "$d" ] &&
		rmdir "$d" 2>/dev/null; do
		d=$(dirname "$d")
	done
done < "$manifest"
echo "uninstall: removed $n files from $root"
if [ "$refused" -gt 0 ]; then
	echo "uninstall: left $refused entries that lie outside $root through a symlink" >&2
fi
