#!/bin/sh
# make kernel-check: real, unmodified files of the Linux kernel, taken at
# run time from Debian's linux-source package (installed if missing;
# nothing of the kernel is stored in this repository), compiled with the
# flags `pkg-config --cflags libpreempt-kernel` documents, linked with
# behaviour tests (tests/kernel-check/) and run in all five models: the
# four PREEMPT_DYNAMIC ones with libpreempt-kernel, rt with
# libpreempt-kernel-rt (CONFIG_PREEMPT_RT).
#
# usage: [KERNEL_VERSION=6.1] scripts/kernel-check.sh BUILD_DIR
set -eu
build=$(cd "${1:-build}" && pwd)
top=$(cd "$(dirname "$0")/.." && pwd)
out=$top/build-kernel-check
files="lib/llist.c lib/kfifo.c kernel/locking/semaphore.c mm/mempool.c drivers/misc/dummy-irq.c
lib/sort.c lib/list_sort.c lib/bsearch.c lib/glob.c lib/ratelimit.c lib/bcd.c lib/memweight.c
lib/rbtree.c lib/plist.c lib/timerqueue.c lib/math/gcd.c lib/math/lcm.c lib/kstrtox.c lib/cmdline.c
lib/hexdump.c lib/uuid.c lib/refcount.c lib/dec_and_lock.c lib/math/int_sqrt.c lib/math/int_pow.c
lib/argv_split.c lib/klist.c lib/errseq.c lib/crc16.c lib/crc-ccitt.c lib/crc-itu-t.c lib/crc7.c lib/crc8.c
lib/hweight.c lib/find_bit.c lib/lockref.c kernel/notifier.c kernel/range.c mm/page_counter.c kernel/rcu/sync.c kernel/irq_work.c kernel/async.c"
# Private headers those files include from their own directory.
headers="lib/kstrtox.h kernel/workqueue_internal.h"
# check:objects pairs: tests/kernel-check/check_<check>.c links <object>.o
# (several joined by +).
pairs="llist:llist kfifo:kfifo semaphore:semaphore mempool:mempool dummy_irq:dummy-irq
sort:sort list_sort:list_sort bsearch:bsearch glob:glob ratelimit:ratelimit bcd:bcd memweight:memweight
rbtree:rbtree plist:plist timerqueue:timerqueue+rbtree gcd_lcm:gcd+lcm kstrtox:kstrtox cmdline:cmdline
hexdump:hexdump uuid:uuid refcount:refcount+dec_and_lock
int_math:int_sqrt+int_pow argv_split:argv_split klist:klist errseq:errseq crc:crc16+crc-ccitt+crc-itu-t+crc7+crc8
notifier:notifier range:range+sort page_counter:page_counter+cmdline
rcu_sync:sync irq_work:irq_work async:async hweight:hweight find_bit:find_bit lockref:lockref"

# The kernel version: $KERNEL_VERSION, by default 6.12 (the one issue 15
# names; Debian bookworm has it as linux-source-6.12, and 6.1 as
# linux-source-6.1).
version=${KERNEL_VERSION:-6.12}
# lib/bitmap.c and lib/bitmap-str.c from 6.12 only: 6.1's bitmap.c still
# holds the string parsers (from user memory too) that 6.4 moved to
# lib/bitmap-str.c, whose number parsing is lib/kstrtox.c's.
# kernel/workqueue.c from 6.12 only: linux/workqueue.h is 6.12's form
# (WQ_BH, the disable count in the data word, enable_work()), which 6.1's
# file predates.
# lib/list_debug.c from 6.12 only: 6.1's checks are __list_add_valid()
# and __list_del_entry_valid() themselves; 6.6 renamed the out-of-line
# halves to ..._or_report(), the form linux/list.h calls.
if [ "$version" != 6.1 ]; then
	files="$files lib/bitmap.c lib/bitmap-str.c kernel/workqueue.c lib/list_debug.c"
	pairs="$pairs bitmap:bitmap bitmap_str:bitmap-str+kstrtox workqueue:workqueue list_debug:list_debug"
fi
tarball=/usr/src/linux-source-$version.tar.xz
if [ ! -f "$tarball" ]; then
	echo "kernel-check: installing Debian's linux-source-$version"
	if [ "$(id -u)" -eq 0 ]; then
		apt-get install -y "linux-source-$version" >/dev/null
	else
		sudo apt-get install -y "linux-source-$version" >/dev/null
	fi
fi
top_dir=$(basename "$tarball" .tar.xz)
rm -rf "$out"
mkdir -p "$out/src"
members=""
for f in $files $headers; do members="$members $top_dir/$f"; done
# shellcheck disable=SC2086
tar -xJf "$tarball" -C "$out/src" --strip-components=1 $members
package=$(dpkg-query -W -f '${Version}' "linux-source-$version" 2>/dev/null || true)
echo "kernel-check: $top_dir (package $package) from $tarball"
# mm/mempool.c includes its directory's private "slab.h": a stand-in of ours.
cp "$top/tests/kernel-check/mm/slab.h" "$out/src/mm/slab.h"

export PKG_CONFIG_PATH="$build${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}"
cc=${CC:-cc}
fail=0
for flavour in "" "-rt"; do
	cflags=$(pkg-config --cflags "libpreempt-kernel$flavour")
	libs=$(pkg-config --libs "libpreempt-kernel$flavour")
	obj="$out/obj$flavour"
	mkdir -p "$obj"
	for f in $files; do
		name=$(basename "$f" .c)
		modname=$(echo "$name" | tr - _)
		# shellcheck disable=SC2086
		$cc -c -O2 -g -Wall -Werror=implicit-function-declaration -Werror=implicit-int -Werror=return-type \
			$cflags -DKBUILD_MODNAME="\"$modname\"" \
			"$out/src/$f" -o "$obj/$name.o"
	done
	for t in $pairs; do
		check=${t%%:*}
		kobjs=""
		for o in $(echo "${t#*:}" | tr + ' '); do kobjs="$kobjs $obj/$o.o"; done
		# shellcheck disable=SC2086
		$cc -O2 -g -Wall -Werror=implicit-function-declaration $cflags -I"$top/tests/kernel-check" -I"$out/src/kernel" \
			"$top/tests/kernel-check/check_$check.c" $kobjs \
			-o "$obj/check_$check" $libs $(pkg-config --libs cmocka) \
			-Wl,-rpath,"$build"
	done
	if [ -z "$flavour" ]; then
		models="none voluntary full lazy"
	else
		models="rt"
	fi
	for m in $models; do
		for t in $pairs; do
			check=${t%%:*}
			if PREEMPT_MODEL=$m "$obj/check_$check" >"$obj/check_$check.$m.log" 2>&1; then
				echo "  ok    $check ($m)"
			else
				echo "  FAIL  $check ($m): $obj/check_$check.$m.log"
				fail=1
			fi
		done
	done
done
[ $fail -eq 0 ] && echo "kernel-check: all passed"
exit $fail
