#!/usr/bin/env bash
# `make bench`: the count layer's hot paths, timed and counted in one run.
# Usage: bench/run.sh BUILD_DIR   (BUILD_DIR holds bench/bench_count)
#
# Environment: BENCH_MS (ms per case per round, default 100), BENCH_REPS
# (rounds, default 5), BENCH_CALLGRIND_ITERS (default 20000).
# Everything printed is also written to BUILD_DIR/bench-count.txt.
set -euo pipefail

if [ $# -ne 1 ]; then
	echo "usage: $0 BUILD_DIR" >&2
	exit 2
fi
build=$1
bin=$build/bench/bench_count
out=$build/bench-count.txt
ms=${BENCH_MS:-100}
reps=${BENCH_REPS:-5}
cg_iters=${BENCH_CALLGRIND_ITERS:-20000}

if [ ! -x "$bin" ]; then
	echo "$0: $bin not built" >&2
	exit 1
fi

cpu=$(grep -m1 '^model name' /proc/cpuinfo | sed 's/^[^:]*: *//' || true)
cc=$(sed -n 's/^CMAKE_C_COMPILER:[A-Z]*=//p' "$build/CMakeCache.txt")
type=$(sed -n 's/^CMAKE_BUILD_TYPE:[A-Z]*=//p' "$build/CMakeCache.txt")

{
	echo "== libpreempt count layer: bench_count =="
	echo "machine:  $(nproc) CPUs, ${cpu:-unknown CPU}"
	echo "kernel:   $(uname -sr)"
	echo "compiler: $("${cc:-cc}" --version | head -n1), $type build"
	echo "date:     $(date -u '+%Y-%m-%d %H:%M UTC')"
	# The two builds of count_cases.c must be what their names say.
	if command -v objdump >/dev/null; then
		objdump -d --no-show-raw-insn "$bin" >"$build/bench_count.dis"
		body() {
			awk -v f="<$1>:" '$2 == f { on = 1; next }
				on && /^$/ { exit } on' "$build/bench_count.dis"
		}
		off=$(body bench_preempt_pair_nodebug)
		on=$(body bench_preempt_pair_debug)
		if grep -q 'incl *%fs:' <<<"$off" &&
			grep -q 'decl *%fs:' <<<"$off" &&
			! grep -q 'call.*preempt_count_' <<<"$off" &&
			grep -q 'call.*<preempt_count_add>' <<<"$on" &&
			grep -q 'call.*<preempt_count_sub>' <<<"$on"; then
			echo "codegen:  checks off = incl/decl %fs inline," \
				"checks on = calls preempt_count_add/sub (objdump)"
		else
			echo "codegen:  UNEXPECTED, see $build/bench_count.dis"
			exit 1
		fi
	fi
	echo
	echo "-- wall clock --"
	"$bin" --ms "$ms" --reps "$reps"
	echo
	echo "-- callgrind: instructions per iteration --"
	if ! command -v valgrind >/dev/null ||
		! command -v callgrind_annotate >/dev/null; then
		echo "valgrind/callgrind_annotate not installed: skipped"
		exit 0
	fi
	tmp=$(mktemp -d)
	trap 'rm -rf "$tmp"' EXIT
	valgrind --tool=callgrind --callgrind-out-file="$tmp/callgrind.out" \
		"$bin" --callgrind "$cg_iters" >/dev/null 2>"$tmp/valgrind.log" || {
		cat "$tmp/valgrind.log" >&2
		exit 1
	}
	callgrind_annotate --inclusive=yes --threshold=100 --auto=no \
		"$tmp/callgrind.out" >"$tmp/annotate.txt"
	echo "inclusive instructions (Ir) of each bench_* loop function over"
	echo "$cg_iters iterations, per iteration; 'over loop' subtracts the"
	echo "empty loop's counter, compare and branch"
	echo
	# The loop's inclusive cost is its largest file:function entry; the
	# others are the parts inlined from headers, already counted in it.
	"$bin" --list | awk -F'\t' -v n="$cg_iters" -v ann="$tmp/annotate.txt" '
	BEGIN {
		while ((getline line < ann) > 0) {
			if (line !~ /^ *[0-9,]+ \(/)
				continue
			# "1,234 ( 5.6%)  file:function [object]"
			ir = line
			sub(/^ */, "", ir)
			sub(/ .*$/, "", ir)
			gsub(",", "", ir)
			fn = line
			sub(/^[^)]*\) +/, "", fn)
			sub(/ \[.*$/, "", fn)
			sub(/^.*:/, "", fn)
			if (!(fn in cost) || ir + 0 > cost[fn])
				cost[fn] = ir + 0
		}
	}
	{ sym[NR] = $1; dbg[NR] = $2; name[NR] = $3 }
	END {
		base = cost["bench_tls_baseline_nodebug"] / n
		loop = cost["bench_empty_nodebug"] / n
		printf "%-28s %-6s %11s %10s %9s\n", "case", "checks",
		       "instr/iter", "over loop", "vs base"
		for (i = 1; i <= NR; i++) {
			if (!(sym[i] in cost)) {
				printf "%-28s %-6s %11s\n", name[i], dbg[i],
				       "missing"
				bad = 1
				continue
			}
			v = cost[sym[i]] / n
			r = base > 0 ? v / base : 0
			printf "%-28s %-6s %11.2f %10.2f %8.2fx\n", name[i],
			       dbg[i], v, v - loop, r
		}
		exit bad
	}'
} 2>&1 | tee "$out"
echo "(written to $out)"
