#!/usr/bin/env bash
# Uncontended lock round trips (bench_locks, issue 5): our locks beside
# glibc's on a plain thread, then the same locks in a task under full and
# under rt; with the library's debug checks compiled out (as a production
# build) and as configured; then instructions per round trip from
# callgrind, checks out.
# Usage: bench/locks_run.sh BUILD_DIR   (BUILD_DIR holds bench/bench_locks)
#
# Environment: BENCH_MS, BENCH_REPS, BENCH_CALLGRIND_ITERS as for run.sh.
# Everything printed is also written to BUILD_DIR/bench-locks.txt.
set -euo pipefail

# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "$0")/lib.sh"
bench_init bench_locks_nodebug bench-locks.txt "$@"
debug_bin=$build/bench/bench_locks
bench_need "$debug_bin"

{
	echo
	echo "== libpreempt locking: uncontended round trips: bench_locks =="
	bench_machine
	bench_compiler "$build"
	bench_date
	echo
	echo "--- library debug checks compiled out (bench_locks_nodebug) ---"
	"$bin" --ms "$ms" --reps "$reps"
	echo
	echo "--- library as configured, PREEMPT_DEBUG=$(bench_cache "$build" \
		PREEMPT_DEBUG) (bench_locks) ---"
	"$debug_bin" --ms "$ms" --reps "$reps"
	echo
	echo "-- callgrind: instructions per lock+unlock, checks out --"
	bench_need_callgrind || exit 0
	bench_callgrind "$tmp/locks.out" "$cg_iters"
	bench_cg_costs "$tmp/locks.out" | awk -F'\t' -v n="$cg_iters" '
		$1 ~ /^bench_lk_/ { ir[substr($1, 10)] = $2 / n }
		END {
			split("empty pthread_spin pthread_mutex raw_spin spin " \
			      "spin_irqsave spin_bh local_bh read_lock mutex",
			      order, " ")
			for (i = 1; i in order; i++) {
				c = order[i]
				printf "%-16s %8.2f %10.2f\n", c, ir[c],
					ir[c] - ir["empty"]
			}
		}' | { printf "%-16s %8s %10s\n" case "Ir" "over loop"; cat; }
} 2>&1 | tee "$out"
echo "(written to $out)"
