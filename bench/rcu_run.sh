#!/usr/bin/env bash
# RCU beside liburcu (bench_rcu, issue 14): the read-side loops' builds
# checked in the disassembly (bench/rcu_cases.c, checks off and on), then
# bench_rcu's run (the read-side pairs, synchronize_rcu() latency,
# call_rcu() throughput, the verdicts), then the read-side pairs counted
# under cachegrind, liburcu's beside ours.
# Usage: bench/rcu_run.sh BUILD_DIR   (BUILD_DIR holds bench/bench_rcu)
#
# Environment: BENCH_RCU_ITERS (read-side pairs per case, default 50M),
# BENCH_RCU_CG_PAIRS (pairs per loop under cachegrind, default 10^6).
# Everything printed is also written to BUILD_DIR/bench-rcu.txt.
set -euo pipefail

# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "$0")/lib.sh"
bench_init bench_rcu bench-rcu.txt "$@"
cg_pairs=${BENCH_RCU_CG_PAIRS:-1000000}

{
	echo
	bench_machine
	bench_compiler "$build"
	"$bin" --list >"$tmp/list"
	on="and on (= 1)"
	grep -q '^rcu_bench_rcu_sched_on' "$tmp/list" ||
		on="only (the library is built PREEMPT_DEBUG=OFF)"
	echo "cases:    bench/rcu_cases.c checks off (CONFIG_DEBUG_PREEMPT," \
		"DEBUG_ATOMIC_SLEEP, LOCKDEP = 0) $on"
	bench_date
	if command -v objdump >/dev/null; then
		dis=$build/bench_rcu.dis
		objdump -d --no-show-raw-insn "$bin" >"$dis"
		body() { bench_fn_body "$dis" "$1"; }
		# Checks off: the word and the nesting counted inline; the only
		# calls are the cold ones (a vCPU's first reader, a reschedule
		# owed, a preempted reader's report).
		cold='<(preempt_schedule|__pk_rcu_read_(lock|unlock)_slow|__pk_rcu_read_unlock_special)>'
		bad=
		for f in rcu_sched rcu_preempt preempt; do
			b=$(body "rcu_bench_${f}_off")
			grep -Eq 'incl +%fs:' <<<"$b" &&
				grep -Eq 'decl +%fs:' <<<"$b" &&
				! grep 'call' <<<"$b" | grep -Evq "$cold" ||
				bad="$bad ${f}_off"
		done
		# Checks on (when built): the validator's record out of line.
		if grep -q '^rcu_bench_rcu_sched_on' "$tmp/list"; then
			for f in rcu_sched rcu_preempt; do
				b=$(body "rcu_bench_${f}_on")
				grep -q 'call.*<lock_acquire>' <<<"$b" &&
					grep -q 'call.*<lock_release>' <<<"$b" ||
					bad="$bad ${f}_on"
			done
		fi
		if [ -n "$bad" ]; then
			echo "codegen:  UNEXPECTED ($bad), see $dis"
			exit 1
		fi
		echo "codegen:  checks off = incl/decl %fs inline, no call but" \
			"the cold paths; checks on = lock_acquire()/lock_release()" \
			"calls (objdump)"
	fi
	"$bin" "${BENCH_RCU_ITERS:-50000000}"
	echo
	echo "-- cachegrind: instructions per read-side pair --"
	if ! command -v valgrind >/dev/null; then
		echo "valgrind not installed: skipped"
		exit 0
	fi
	# callgrind's call stacks trip an assertion on the machine's
	# signals between task stacks (as in switch_run.sh): each loop is
	# run alone under cachegrind at N and 2N pairs, and the difference
	# of the whole program's totals, over N, is one pair with its loop.
	total() { # total SYMBOL PAIRS: the program's user-space Ir
		local o=$tmp/$1.$2.out

		valgrind --tool=cachegrind --cache-sim=no \
			--cachegrind-out-file="$o" "$bin" --callgrind "$2" "$1" \
			</dev/null >"$o.log" 2>&1 || {
			cat "$o.log" >&2
			exit 1
		}
		sed -n 's/^summary: *//p' "$o"
	}
	n=$cg_pairs
	echo "user-space instructions (Ir) of the whole program, (run of 2N -" \
		"run of N) / N,"
	echo "N = $n pairs, the loop alone (machine at HZ=100 for the tasks);" \
		"'over loop': less"
	echo "the empty loop's counter, compare and branch"
	printf '  %-50s %-6s %10s %10s\n' "" checks instr/pair "over loop"
	loop=0 # the empty loop is listed first
	while IFS=$'\t' read -r sym checks name where; do
		t1=$(total "$sym" "$n")
		t2=$(total "$sym" $((2 * n)))
		v=$(awk -v a="$t1" -v b="$t2" -v n="$n" \
			'BEGIN { printf "%.2f", (b - a) / n }')
		[ "$sym" != rcu_bench_empty_off ] || loop=$v
		awk -v v="$v" -v l="$loop" -v c="$checks" \
			-v name="$name ($where)" 'BEGIN {
			printf "  %-50s %-6s %10.2f %10.2f\n", name, c, v, v - l
		}'
		echo "@value rcu.instr.$sym=$v" >>"$tmp/values"
	done <"$tmp/list"
	cat "$tmp/values"
} 2>&1 | tee "$out"
echo "(written to $out)"
