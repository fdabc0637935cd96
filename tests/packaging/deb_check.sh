#!/usr/bin/env bash
# Build the Debian packages from the committed tree (dpkg-buildpackage -us
# -uc -b), check them with lintian (no errors), install them with dpkg -i,
# build and run a consumer through pkg-config and through CMake against
# /usr, and purge the packages again.  Needs root (dpkg -i); otherwise a
# skip (exit 77).  Usage: deb_check.sh SOURCE_DIR VERSION
set -euo pipefail
src=$1 version=$2
fail() { echo "deb_check: $*" >&2; exit 1; }
if [ "$(id -u)" -ne 0 ]; then
	echo "deb_check: skipped: dpkg -i needs root"
	exit 77
fi
[ "$(dpkg-parsechangelog -l "$src/debian/changelog" -S Version)" = "$version" ] ||
	fail "debian/changelog's version is not VERSION's ($version)"
tmp=$(mktemp -d)
pkgs="libpreempt0 libpreempt-dev preempt-tools"
cleanup() {
	dpkg --purge $pkgs >/dev/null 2>&1 || true
	rm -rf "$tmp"
}
trap cleanup EXIT

mkdir "$tmp/src"
# What is committed, as a source package is made from it.
git -C "$src" archive HEAD | tar -x -C "$tmp/src"
(cd "$tmp/src" && DEB_BUILD_OPTIONS="parallel=2 nocheck" \
	dpkg-buildpackage -us -uc -b >"$tmp/build.log" 2>&1) ||
	{ tail -30 "$tmp/build.log" >&2; fail "dpkg-buildpackage failed"; }
arch=$(dpkg --print-architecture)
changes=$tmp/libpreempt_${version}_$arch.changes
lintian --fail-on error "$changes" >"$tmp/lintian.log" 2>&1 ||
	{ cat "$tmp/lintian.log" >&2; fail "lintian reports errors"; }
dpkg -i "$tmp/libpreempt0_${version}_$arch.deb" \
	"$tmp/libpreempt-dev_${version}_$arch.deb" \
	"$tmp/preempt-tools_${version}_$arch.deb" >"$tmp/dpkg.log" 2>&1 ||
	{ cat "$tmp/dpkg.log" >&2; fail "dpkg -i failed"; }

[ "$(preempt --version)" = "preempt $version" ] || fail "installed preempt --version"
man -w preempt >/dev/null 2>&1 || fail "man preempt finds no page"
man -w libpreempt >/dev/null 2>&1 || fail "man 3 libpreempt finds no page"
# shellcheck disable=SC2046
cc -o "$tmp/pc" "$src/tests/packaging/consumer.c" $(pkg-config --cflags --libs libpreempt)
"$tmp/pc" "$version" blocking || fail "the pkg-config consumer failed"
cmake -S "$src/tests/packaging" -B "$tmp/cmake" >"$tmp/cmake.log" 2>&1 &&
	cmake --build "$tmp/cmake" >>"$tmp/cmake.log" 2>&1 ||
	{ cat "$tmp/cmake.log" >&2; fail "the CMake consumer did not build"; }
"$tmp/cmake/consumer_shared" "$version" blocking || fail "the CMake shared consumer failed"
"$tmp/cmake/consumer_static" "$version" blocking || fail "the CMake static consumer failed"
warnings=$(grep -c '^W:' "$tmp/lintian.log" || true)
echo "deb_check: 3 packages built, lintian clean of errors ($warnings warnings), installed, consumers ran, purged"
