#!/usr/bin/env bash
# `make bench`: the count layer's and the irq layer's hot paths, timed and
# counted in one run; then the unconditional count against the legacy
# PREEMPT_COUNT=n build (legacy_run.sh), the context switch (switch_run.sh)
# and the scheduler's latencies per preemption model (bench_sched).
# Usage: bench/run.sh BUILD_DIR   (BUILD_DIR holds bench/bench_count)
#
# Environment: BENCH_MS (ms per case per round, default 100), BENCH_REPS
# (rounds, default 5), BENCH_CALLGRIND_ITERS (default 20000),
# BENCH_SCHED_MS (bench_sched: ms per model per part, default 1500).
# Everything printed is also written to BUILD_DIR/bench-count.txt,
# BUILD_DIR/bench-legacy.txt, BUILD_DIR/bench-switch.txt and
# BUILD_DIR/bench-sched.txt.
#
# Issue 19: bench-switch.txt also holds the real switch (yield()), Boost.Context
# and the host anchors (futex, pthread_mutex); bench-facts.txt the machine's
# facts, read before anything runs; and at the end
# scripts/gen-performance.py writes docs/PERFORMANCE.md from
# docs/PERFORMANCE.md.in and every BUILD_DIR/bench-*.txt.
#
# Machine-read lines in any BUILD_DIR/bench-*.txt (a bench adds a row to
# docs/PERFORMANCE.md's verdict table by printing one; "@" lines are left
# out of the doc's copies of the files):
#   @verdict target=N; what=TEXT; ours=TEXT; anchor=TEXT; ratio=TEXT;
#            verdict=met|missed|not measured
#            (one line; N is the target's number in issue 19; several
#            rows per target allowed; a value must not contain "; ")
#   @value KEY=VALUE   a number for other scripts (not in the table)
#   @fact KEY=VALUE    bench-facts.txt only: cpu, cores, kernel, compiler,
#                      build, date, loadavg, tree
# BENCH_NO_DOC=1: leave docs/PERFORMANCE.md alone.
set -euo pipefail

# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "$0")/lib.sh"
bench_init bench_count bench-count.txt "$@"
libdebug=$(bench_cache "$build" PREEMPT_DEBUG)

# The machine as the run starts: the other tables are read against it.
{
	echo "@fact cpu=$(grep -m1 '^model name' /proc/cpuinfo |
		sed 's/^[^:]*: *//' || echo unknown)"
	echo "@fact cores=$(nproc)"
	echo "@fact kernel=$(uname -sr)"
	echo "@fact compiler=$("$(bench_cache "$build" CMAKE_C_COMPILER)" \
		--version | head -n1)"
	echo "@fact build=$(bench_cache "$build" CMAKE_BUILD_TYPE)," \
		"PREEMPT_DEBUG=${libdebug:-?}"
	echo "@fact date=$(date -u '+%Y-%m-%d %H:%M UTC')"
	echo "@fact loadavg=$(cut -d' ' -f1-3 /proc/loadavg) (1, 5, 15 min)"
	src=$(dirname "$0")/..
	rev=$(git -C "$src" rev-parse --short HEAD 2>/dev/null || echo unknown)
	git -C "$src" diff --quiet HEAD 2>/dev/null ||
		rev="$rev + uncommitted changes"
	echo "@fact tree=$rev"
} >"$build/bench-facts.txt"

{
	echo "== libpreempt count and irq layers: bench_count =="
	bench_machine
	bench_compiler "$build"
	echo "library:  PREEMPT_DEBUG=${libdebug:-?} (its own debug checks;" \
		"the cases set theirs per case)"
	bench_date
	# The builds of the cases must be what their names say.
	if command -v objdump >/dev/null; then
		objdump -d --no-show-raw-insn "$bin" >"$build/bench_count.dis"
		body() {
			awk -v f="<$1>:" '$2 == f { on = 1; next }
				on && /^$/ { exit } on' "$build/bench_count.dis"
		}
		off=$(body bench_preempt_pair_nodebug)
		on=$(body bench_preempt_pair_debug)
		lazy=$(body bench_irq_lazy_pair)
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
		# The lazy pair: add/sub on the word inline, no syscall, and
		# no call but the cold replay.
		if grep -q 'addl* *.0x1000000,%fs:' <<<"$lazy" &&
			! grep -q 'syscall' <<<"$lazy" &&
			! grep 'call' <<<"$lazy" | grep -vq '<pk_irq_replay>'; then
			echo "codegen:  local_irq_save+restore = add on the" \
				"%fs word inline, only call: pk_irq_replay (cold)"
		else
			echo "codegen:  UNEXPECTED lazy pair, see" \
				"$build/bench_count.dis"
			exit 1
		fi
	fi
	echo
	echo "-- wall clock --"
	"$bin" --ms "$ms" --reps "$reps"
	echo
	echo "-- callgrind: instructions per iteration --"
	bench_need_callgrind || exit 0
	"$bin" --list >"$tmp/list"
	bench_callgrind "$tmp/all.out" "$cg_iters"
	bench_cg_costs "$tmp/all.out" >"$tmp/costs"
	# Callgrind charges a signal handler to no caller (and its summary
	# line leaves the handlers out): a case that signals itself is run
	# alone at N and 2N iterations, and the difference of the two runs'
	# totals, over N, is everything one iteration costs.
	: >"$tmp/signals"
	while IFS=$'\t' read -r sym _ _ _ _ sig; do
		[ "$sig" = 1 ] || continue
		bench_callgrind "$tmp/$sym.1.out" "$cg_iters" "$sym"
		bench_callgrind "$tmp/$sym.2.out" $((2 * cg_iters)) "$sym"
		t1=$(sed -n 's/^totals: *//p' "$tmp/$sym.1.out")
		t2=$(sed -n 's/^totals: *//p' "$tmp/$sym.2.out")
		echo "$sym $(((t2 - t1) * 100 / cg_iters))" >>"$tmp/signals"
	done <"$tmp/list"
	echo "inclusive instructions (Ir) of each bench_* loop function over"
	echo "$cg_iters iterations, per iteration; 'over loop' subtracts the"
	echo "empty loop's counter, compare and branch. User space only: the"
	echo "syscalls and the kernel's signal delivery are not counted."
	echo "Cases marked * signal themselves: whole-process difference"
	echo "between $cg_iters and $((2 * cg_iters)) iterations, handler"
	echo "included; 'sender' is the loop function's own inclusive"
	echo "count, without the handler (callgrind charges that to no"
	echo "caller)"
	awk -F'\t' -v n="$cg_iters" -v costs="$tmp/costs" \
		-v sigs="$tmp/signals" '
	BEGIN {
		while ((getline line < costs) > 0) {
			split(line, f, "\t")
			cost[f[1]] = f[2] + 0
		}
		while ((getline line < sigs) > 0) {
			split(line, f, " ")
			whole[f[1]] = f[2] / 100
		}
	}
	{
		sym[NR] = $1; dbg[NR] = $2; name[NR] = $3; sect[NR] = $4
		ref[NR] = $5; sig[NR] = $6; row[$1] = NR
	}
	function per_iter(i) {
		if (sig[i])
			return sym[i] in whole ? whole[sym[i]] : -1
		return sym[i] in cost ? cost[sym[i]] / n : -1
	}
	function head(s) {
		if (s == "count")
			printf "%-35s %-6s %11s %10s %9s\n", "count layer",
			       "checks", "instr/iter", "over loop", "vs base"
		else
			printf "\n%-35s %-6s %11s %10s %9s %8s  %s\n",
			       "irq layer", "checks", "instr/iter",
			       "over loop", "vs", "sender", "reference"
	}
	END {
		loop = cost["bench_empty_nodebug"] / n
		for (i = 1; i <= NR; i++) {
			if (sect[i] != last)
				head(sect[i])
			last = sect[i]
			label = name[i] (sig[i] ? " *" : "")
			v = per_iter(i)
			if (v < 0) {
				printf "%-35s %-6s %11s\n", label, dbg[i],
				       "missing"
				bad = 1
				continue
			}
			r = ref[i] in row ? per_iter(row[ref[i]]) : 0
			printf "%-35s %-6s %11.2f %10.2f %8.2fx", label,
			       dbg[i], v, v - loop, (r > 0 ? v / r : 0)
			if (sect[i] == "count") {
				printf "\n"
				continue
			}
			if (sig[i])
				printf " %8.2f", cost[sym[i]] / n
			else
				printf " %8s", ""
			j = row[ref[i]]
			tag = sect[j] == "count" ? ", checks " dbg[j] : ""
			printf "  %s%s\n", j == i ? "(reference)" : name[j], tag
		}
		exit bad
	}' "$tmp/list"
	echo
	sed 's/^/callgrind /' "$tmp/all.out.stdout"
} 2>&1 | tee "$out"
echo "(written to $out)"

# Locking: the same workloads with the count and with the legacy
# PREEMPT_COUNT=n build, in bench-legacy.txt.
"$(dirname "$0")/legacy_run.sh" "$build"

# Uncontended lock round trips beside glibc's, and in tasks under full and
# rt, in bench-locks.txt.
"$(dirname "$0")/locks_run.sh" "$build"

# The port layer's context switch: its own table, in bench-switch.txt.
"$(dirname "$0")/switch_run.sh" "$build"

# The scheduler: preemption and wake-up latency of a SCHED_FIFO task under
# each preemption model, in bench-sched.txt.
sched_bin=$build/bench/bench_sched
sched_out=$build/bench-sched.txt
bench_need "$sched_bin"
{
	echo
	echo "== libpreempt scheduler: bench_sched =="
	bench_machine
	bench_compiler "$build"
	echo "library:  PREEMPT_DEBUG=${libdebug:-?}"
	src=$(dirname "$0")/..
	if rev=$(git -C "$src" rev-parse --short HEAD 2>/dev/null); then
		git -C "$src" diff --quiet HEAD -- src include 2>/dev/null ||
			rev="$rev + uncommitted changes in src/ include/"
		echo "tree:     $rev"
	fi
	bench_date
	echo
	"$sched_bin" --ms "${BENCH_SCHED_MS:-1500}"
} 2>&1 | tee "$sched_out"
echo "(written to $sched_out)"

# The memory layer: kmalloc/kfree against glibc, and the kmap variants'
# map+unmap cost, in bench-mm.txt.
mm_bin=$build/bench/bench_mm
mm_out=$build/bench-mm.txt
bench_need "$mm_bin"
{
	bench_header "libpreempt memory layer: bench_mm" "$build" "$libdebug"
	echo
	"$mm_bin" --reps "$reps"
} 2>&1 | tee "$mm_out"
echo "(written to $mm_out)"

# The blocking-call detector: wrapped host calls beside direct ones, in
# bench-blocking.txt.
blocking_bin=$build/bench/bench_blocking
blocking_out=$build/bench-blocking.txt
bench_need "$blocking_bin"
{
	bench_header "libpreempt blocking-call detector: bench_blocking" \
		"$build" "$libdebug"
	echo
	"$blocking_bin" --ms "$ms" --reps "$reps"
} 2>&1 | tee "$blocking_out"
echo "(written to $blocking_out)"

# The trace layer: its hooks with tracing off and on (bench_trace), and the
# wall time of one `preempt demo` model run per model, in bench-trace.txt.
# BENCH_DEMO_S: seconds per model run (default 2).
trace_bin=$build/bench/bench_trace
trace_out=$build/bench-trace.txt
bench_need "$trace_bin"
{
	bench_header "libpreempt trace layer: bench_trace" "$build" "$libdebug"
	echo
	"$trace_bin" --ms "$ms" --reps "$reps"
	echo
	demo_s=${BENCH_DEMO_S:-2}
	echo "-- preempt demo --models M --seconds $demo_s: wall time per run --"
	for m in none voluntary full lazy rt; do
		t0=$(date +%s%N)
		status=ok
		"$build/preempt" demo --models "$m" --seconds "$demo_s" \
			>/dev/null 2>&1 || status="exit $?"
		t1=$(date +%s%N)
		awk -v m="$m" -v a="$t0" -v b="$t1" -v s="$status" \
			'BEGIN { printf "%-10s %7.2f s  (%s)\n", m, (b - a) / 1e9, s }'
	done
} 2>&1 | tee "$trace_out"
echo "(written to $trace_out)"

# RCU beside liburcu (bench/rcu_run.sh), in bench-rcu.txt, when liburcu
# was found.
if [ -x "$build/bench/bench_rcu" ]; then
	"$(dirname "$0")/rcu_run.sh" "$build"
fi

# Idle vCPUs (NO_HZ_IDLE) and cross-vCPU wake-ups (bench/idle_bench.c), in
# bench-idle.txt.  BENCH_IDLE_MS: ms per idle-cost and ping-pong case.
idle_bin=$build/bench/bench_idle
idle_out=$build/bench-idle.txt
bench_need "$idle_bin"
{
	bench_header "libpreempt idle and wake-ups: bench_idle" "$build" \
		"$libdebug"
	echo
	"$idle_bin" "${BENCH_IDLE_MS:-3000}"
} 2>&1 | tee "$idle_out"
echo "(written to $idle_out)"

# Issue 20: the simulation's decisions per host second beside the same
# workload on real threads (bench/sim_bench.c), in bench-sim.txt.
# BENCH_SIM_ROUNDS: rounds per task (default 20000).
sim_bin=$build/bench/bench_sim
sim_out=$build/bench-sim.txt
bench_need "$sim_bin"
{
	bench_header "libpreempt deterministic simulation: bench_sim" "$build" \
		"$libdebug"
	echo
	"$sim_bin" "${BENCH_SIM_ROUNDS:-20000}" 2>/dev/null
} 2>&1 | tee "$sim_out"
echo "(written to $sim_out)"

# Issue 19's scaling tables (bench/scale_bench.c), in bench-scale.txt.
# BENCH_SCALE_MS: ms per row of its vCPU and lock tables (default 500).
scale_bin=$build/bench/bench_scale
scale_out=$build/bench-scale.txt
bench_need "$scale_bin"
{
	bench_header "libpreempt scaling: bench_scale" "$build" OFF
	echo
	"$scale_bin" "${BENCH_SCALE_MS:-500}"
} 2>&1 | tee "$scale_out"
echo "(written to $scale_out)"

# Target 8: latency under load beside the host's cyclictest, in
# bench-latency.txt (BENCH_LAT_S seconds per run, default 5).
"$(dirname "$0")/latency_run.sh" "$build"

# docs/PERFORMANCE.md from this run's files (scripts/gen-performance.py).
if [ -z "${BENCH_NO_DOC:-}" ]; then
	python3 "$(dirname "$0")/../scripts/gen-performance.py" "$build"
fi

