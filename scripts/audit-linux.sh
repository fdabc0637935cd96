#!/usr/bin/env bash
# `preempt audit` on Linux drivers/, scored against what upstream fixed
# between Debian's linux-source 5.10 (bullseye) and 6.1 (bookworm); see
# docs/audit.md.  Both trees come from Debian's archive at run time and
# are unpacked under the build directory; nothing is stored in the repo.
# Usage: scripts/audit-linux.sh BUILD_DIR
set -euo pipefail
build=$(realpath "${1:-build}")
top=$(cd "$(dirname "$0")/.." && pwd)
out="$build/audit-linux"
mkdir -p "$out"
sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"

# 6.1: bookworm's linux-source, installed if missing (as kernel-check does).
new_tar=$(ls /usr/src/linux-source-6.*.tar.xz 2>/dev/null | sort -V | tail -n 1 || true)
if [ -z "$new_tar" ]; then
	$sudo apt-get install -y linux-source >/dev/null
	new_tar=$(ls /usr/src/linux-source-6.*.tar.xz | sort -V | tail -n 1)
fi

# 5.10: bullseye's linux-source-5.10, fetched with private apt lists so the
# system's sources stay as they are.
apt_dir="$out/apt"
mkdir -p "$apt_dir/lists/partial" "$apt_dir/archives/partial"
echo "deb http://deb.debian.org/debian bullseye main" > "$apt_dir/sources.list"
apt_opts=(-o Dir::Etc::sourcelist="$apt_dir/sources.list"
	  -o Dir::Etc::sourceparts=/nonexistent
	  -o Dir::State::Lists="$apt_dir/lists"
	  -o Dir::Cache::archives="$apt_dir/archives")
deb=$(ls "$apt_dir"/linux-source-5.10_*.deb 2>/dev/null | tail -n 1 || true)
if [ -z "$deb" ]; then
	apt-get "${apt_opts[@]}" update >/dev/null
	(cd "$apt_dir" && apt-get "${apt_opts[@]}" download linux-source-5.10 >/dev/null 2>&1)
	deb=$(ls "$apt_dir"/linux-source-5.10_*.deb | tail -n 1)
fi

unpack() { # tarball-or-deb dest
	local src=$1 dest=$2
	[ -d "$dest/drivers" ] && return
	mkdir -p "$dest"
	if [[ $src == *.deb ]]; then
		dpkg-deb --fsys-tarfile "$src" |
			tar -xO --wildcards './usr/src/linux-source-*.tar.xz' |
			tar -xJ -C "$dest" --strip-components=1 --wildcards '*/drivers/*'
	else
		tar -xJf "$src" -C "$dest" --strip-components=1 --wildcards '*/drivers/*'
	fi
}
unpack "$deb" "$out/old"
unpack "$new_tar" "$out/new"

"$build/preempt" audit --json "$out/old/drivers" > "$out/old.json" || [ $? -eq 1 ]
"$build/preempt" audit --json "$out/new/drivers" > "$out/new.json" || [ $? -eq 1 ]
echo "old: $(basename "$deb"); new: $(basename "$new_tar")"
python3 "$top/scripts/audit-eval.py" "$out/old/drivers" "$out/old.json" \
	"$out/new/drivers" "$out/new.json"
