#!/usr/bin/env bash
# The port layer's context switch beside swapcontext, Boost.Context and a
# condvar hand-off (bench_switch); the scheduler's real switch, yield()
# between two tasks on one vCPU, beside the bare one (bench_yield, issue 19
# target 1); the host's futex and pthread_mutex (bench_anchors); timed,
# then counted under callgrind, with the verdict of target 1 and, when it
# is missed, the profile of where yield()'s instructions go.
# Usage: bench/switch_run.sh BUILD_DIR   (BUILD_DIR holds bench/bench_switch)
#
# Environment: BENCH_MS (ms per case per round, default 100), BENCH_REPS
# (rounds, default 5), BENCH_CALLGRIND_ITERS (default 20000).
# Everything printed is also written to BUILD_DIR/bench-switch.txt.
set -euo pipefail

# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "$0")/lib.sh"
bench_init bench_switch bench-switch.txt "$@"
yield_bin=$build/bench/bench_yield
anchors_bin=$build/bench/bench_anchors
bench_need "$yield_bin"
bench_need "$anchors_bin"

{
	echo "== libpreempt port layer: bench_switch =="
	bench_machine
	bench_date
	echo
	echo "-- wall clock --"
	"$bin" --ms "$ms" --reps "$reps"
	echo
	echo "-- the real switch: yield() between two tasks (bench_yield) --"
	"$yield_bin" --ms "$ms" --reps "$reps" | tee "$tmp/yield"
	echo
	echo "-- host anchors: futex, pthread_mutex (bench_anchors) --"
	"$anchors_bin" --ms "$ms" --reps "$reps"
	echo
	echo "-- callgrind: instructions per switch --"
	if ! command -v valgrind >/dev/null; then
		echo "valgrind not installed: skipped"
		echo "@verdict target=1; what=yield() round trip vs bare switch;" \
			"ours=$(sed -n 's/^@value yield.ns=//p' "$tmp/yield") ns;" \
			"anchor=$(sed -n 's/^@value yield.bare_ns=//p' \
				"$tmp/yield") ns; ratio=$(sed -n \
				's/^@value yield.ratio=//p' "$tmp/yield")x;" \
			"verdict=not measured"
		exit 0
	fi
	# The task's half of each round trip runs on another stack, which
	# a call graph cannot follow: the whole program is counted at N and
	# at 2N round trips, and the difference is 2N switches' worth.
	total() { # total CASE ROUND_TRIPS [BIN]: BIN --callgrind N [CASE]
		local o=$tmp/$1.$2.out

		# cachegrind, not callgrind: callgrind's call stacks trip an
		# assertion on the tick's signals between task stacks.
		valgrind --tool=cachegrind --cache-sim=no \
			--cachegrind-out-file="$o" \
			"${3:-$bin}" --callgrind "$2" ${1:+"$1"} </dev/null \
			>"$o.log" 2>&1 || {
			cat "$o.log" >&2
			exit 1
		}
		sed -n 's/^summary: *//p' "$o"
	}
	per() { # per CASE BIN PER_ROUND_TRIP: instructions per operation
		local t1 t2

		t1=$(total "$1" "$cg_iters" "$2")
		t2=$(total "$1" $((2 * cg_iters)) "$2")
		awk -v a="$t1" -v b="$t2" -v n="$cg_iters" -v k="$3" \
			'BEGIN { printf "%.2f", (b - a) / (k * n) }'
	}
	echo "user-space instructions (Ir), (run of 2N - run of N) / 2N,"
	echo "N = $cg_iters round trips; syscalls not counted (user space"
	echo "only); yield: N yields by each task, the tick's interrupts in"
	cases="pk schedule ucontext"
	"$bin" --callgrind 1 boost 2>/dev/null && cases="$cases boost"
	for c in $cases; do
		v=$(per "$c" "$bin" 2)
		printf '%-16s %8.2f instr/switch\n' "$c" "$v"
		echo "@value switch.$c.instr=$v"
		[ "$c" != pk ] || pk_instr=$v
	done
	yi=$(per "" "$yield_bin" 2)
	printf '%-16s %8.2f instr/switch\n' "yield()" "$yi"
	echo "@value yield.instr=$yi"
	for c in mutex futex_wake; do
		v=$(per "$c" "$anchors_bin" 1)
		printf '%-16s %8.2f instr/op (%s)\n' "$c" "$v" \
			"user space, anchor"
		echo "@value anchor.$c.instr=$v"
	done
	ns=$(sed -n 's/^@value yield.ns=//p' "$tmp/yield")
	bare=$(sed -n 's/^@value yield.bare_ns=//p' "$tmp/yield")
	ratio=$(sed -n 's/^@value yield.ratio=//p' "$tmp/yield")
	echo
	echo "-- target 1: yield() round trip <= 2x the bare switch," \
		"<= 100 instructions --"
	awk -v ns="$ns" -v bare="$bare" -v r="$ratio" -v yi="$yi" \
		-v pki="${pk_instr:-0}" 'BEGIN {
		v = (r <= 2 && yi <= 100) ? "met" : "missed"
		printf "yield(): %.2f ns, %.2f instr/switch; bare: %.2f ns," \
		       " %.2f instr; %.2fx the time\n", ns, yi, bare, pki, r
		printf "@verdict target=1; what=yield() switch, 2 tasks on" \
		       " 1 vCPU, vs bare pk_context_switch (<= 2x, <= 100" \
		       " instr); ours=%.1f ns, %.0f instr; anchor=%.1f ns," \
		       " %.0f instr; ratio=%.2fx time, %.1fx instr;" \
		       " verdict=%s\n", ns, yi, bare, pki, r,
		       (pki > 0 ? yi / pki : 0), v
		exit v == "met" # status 0: missed
	}' && missed=1 || missed=0
	if [ "$missed" = 1 ] && command -v cg_annotate >/dev/null; then
		echo
		echo "where yield()'s instructions go: cachegrind, exclusive" \
			"Ir per function, (run of 2N - run of N) / 2N switches," \
			"top functions"
		fns() { # fns OUT: "IR<tab>FILE:FUNCTION" a line
			cg_annotate --threshold=0 "$1" 2>/dev/null | awk '
			/^ *[0-9,]+ +\( *[0-9.]+%\) +[^ ]+:[^ ]+/ &&
			!/PROGRAM TOTALS/ {
				ir = $1; gsub(",", "", ir)
				fn = $0; sub(/^[^)]*\) +/, "", fn)
				sub(/^.*\//, "", fn)
				print ir "\t" fn }'
		}
		fns "$tmp/.$cg_iters.out" >"$tmp/f1"
		fns "$tmp/.$((2 * cg_iters)).out" >"$tmp/f2"
		awk -F'\t' -v n="$cg_iters" '
			NR == FNR { a[$2] += $1; next }
			{ b[$2] += $1 }
			END { for (f in b) {
				d = (b[f] - a[f]) / (2 * n)
				if (d >= 0.5)
					printf "%8.2f  %s\n", d, f } }' \
			"$tmp/f1" "$tmp/f2" | sort -rn | head -n 16
	fi
} 2>&1 | tee "$out"
echo "(written to $out)"
