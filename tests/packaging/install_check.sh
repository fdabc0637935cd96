#!/usr/bin/env bash
# Install the build tree into a scratch prefix as `make install` does, then
# build a consumer from there through pkg-config (shared, static and fully
# static) and through CMake (shared and static), run each (each must see
# its own usleep() under a spinlock reported: the blocking-call detector
# reaches it through the interposer or the --wrap recipe), check the
# installed files (soname links, no RPATH, --version), and uninstall with
# scripts/uninstall.sh, which must leave nothing behind.
# Usage: install_check.sh SOURCE_DIR BUILD_DIR VERSION
set -euo pipefail
src=$1 build=$2 version=$3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "install_check: $*" >&2; exit 1; }

prefix=$tmp/prefix
cmake --install "$build" --prefix "$prefix" >"$tmp/install.log"
libdir=$(dirname "$(find "$prefix" -name libpreempt.pc)")
libdir=${libdir%/pkgconfig}
[ -x "$prefix/bin/preempt" ] || fail "no preempt tool"
[ -f "$prefix/include/preempt/preempt.h" ] || fail "no headers"
[ -f "$libdir/libpreempt.a" ] || fail "no libpreempt.a"
[ "$(readlink "$libdir/libpreempt.so")" = libpreempt.so.0 ] ||
	fail "libpreempt.so does not link to the soname"
[ "$(readlink "$libdir/libpreempt.so.0")" = "libpreempt.so.$version" ] ||
	fail "libpreempt.so.0 does not link to libpreempt.so.$version"
readelf -d "$libdir/libpreempt.so.$version" | grep -q 'SONAME.*\[libpreempt.so.0\]' ||
	fail "wrong soname"
if readelf -d "$libdir/libpreempt.so.$version" "$prefix/bin/preempt" |
	grep -qE 'RPATH|RUNPATH'; then
	fail "an RPATH was installed"
fi
for f in share/man/man1/preempt.1 share/man/man3/libpreempt.3 \
	share/bash-completion/completions/preempt; do
	[ -f "$prefix/$f" ] || fail "$f was not installed"
done
MANPATH=$prefix/share/man man -w preempt >/dev/null 2>&1 ||
	fail "man does not find preempt(1) in the prefix"
[ "$("$prefix/bin/preempt" --version)" = "preempt $version" ] ||
	fail "preempt --version: $("$prefix/bin/preempt" --version)"

export PKG_CONFIG_PATH=$libdir/pkgconfig
[ "$(pkg-config --modversion libpreempt)" = "$version" ] || fail "pkg-config version"
cc=${CC:-cc}
# shellcheck disable=SC2046
$cc -o "$tmp/pc_shared" "$src/tests/packaging/consumer.c" \
	$(pkg-config --cflags --libs libpreempt)
# No RPATH installed: the loader is told where, as for any prefix.
LD_LIBRARY_PATH=$libdir "$tmp/pc_shared" "$version" blocking ||
	fail "the pkg-config shared consumer failed"
ldd_out=$(LD_LIBRARY_PATH=$libdir ldd "$tmp/pc_shared")
grep -q "libpreempt.so.0 => $libdir" <<<"$ldd_out" ||
	fail "the shared consumer does not load the installed library"
# shellcheck disable=SC2046
$cc -static -o "$tmp/pc_static" "$src/tests/packaging/consumer.c" \
	$(pkg-config --static --cflags --libs libpreempt) 2>"$tmp/static.log" ||
	{ cat "$tmp/static.log" >&2; fail "cc -static with pkg-config --static failed"; }
"$tmp/pc_static" "$version" blocking || fail "the fully static consumer failed"

cmake -S "$src/tests/packaging" -B "$tmp/cmake" \
	-DCMAKE_PREFIX_PATH="$prefix" >"$tmp/cmake.log" ||
	{ cat "$tmp/cmake.log" >&2; fail "find_package(libpreempt) failed"; }
cmake --build "$tmp/cmake" >>"$tmp/cmake.log" 2>&1 ||
	{ cat "$tmp/cmake.log" >&2; fail "the CMake consumer did not build"; }
LD_LIBRARY_PATH=$libdir "$tmp/cmake/consumer_shared" "$version" blocking ||
	fail "the CMake shared consumer failed"
"$tmp/cmake/consumer_static" "$version" blocking || fail "the CMake static consumer failed"
if ldd "$tmp/cmake/consumer_static" | grep -q libpreempt; then
	fail "libpreempt::preempt_static linked the shared library"
fi

"$src/scripts/uninstall.sh" "$build/install_manifest.txt" "" "$prefix" >/dev/null
left=$(find "$prefix" -mindepth 1 | head -5)
[ -z "$left" ] || fail "uninstall left: $left"
echo "install_check: installed, 4 consumers built and ran, uninstalled clean"
