#!/usr/bin/env bash
# The port layer's context switch beside swapcontext and a condvar
# hand-off (bench_switch), timed, then counted under callgrind.
# Usage: bench/switch_run.sh BUILD_DIR   (BUILD_DIR holds bench/bench_switch)
#
# Environment: BENCH_MS (ms per case per round, default 100), BENCH_REPS
# (rounds, default 5), BENCH_CALLGRIND_ITERS (default 20000).
# Everything printed is also written to BUILD_DIR/bench-switch.txt.
set -euo pipefail

# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "$0")/lib.sh"
bench_init bench_switch bench-switch.txt "$@"

{
	echo "== libpreempt port layer: bench_switch =="
	bench_machine
	bench_date
	echo
	echo "-- wall clock --"
	"$bin" --ms "$ms" --reps "$reps"
	echo
	echo "-- callgrind: instructions per switch --"
	if ! command -v valgrind >/dev/null; then
		echo "valgrind not installed: skipped"
		exit 0
	fi
	# The task's half of each round trip runs on another stack, which
	# a call graph cannot follow: the whole program is counted at N and
	# at 2N round trips, and the difference is 2N switches' worth.
	total() { # total CASE ROUND_TRIPS
		local o=$tmp/$1.$2.out

		valgrind --tool=callgrind --callgrind-out-file="$o" \
			"$bin" --callgrind "$2" "$1" </dev/null \
			>"$o.log" 2>&1 || {
			cat "$o.log" >&2
			exit 1
		}
		sed -n 's/^totals: *//p' "$o"
	}
	echo "user-space instructions (Ir), (run of 2N - run of N) / 2N,"
	echo "N = $cg_iters round trips; swapcontext's syscall not counted"
	for c in pk schedule ucontext; do
		t1=$(total "$c" "$cg_iters")
		t2=$(total "$c" $((2 * cg_iters)))
		awk -v c="$c" -v a="$t1" -v b="$t2" -v n="$cg_iters" \
			'BEGIN { printf "%-12s %8.2f instr/switch\n", c,
			 (b - a) / (2 * n) }'
	done
} 2>&1 | tee "$out"
echo "(written to $out)"
