#!/usr/bin/env bash
# Target 8 of issue 19: the machine's wake-up latency under load beside the
# host's own, in one run, under two loads:
#  1. CPU-bound (the target's): rt-tests' cyclictest on the host with
#     BENCH_LAT_LOAD busy host processes, then `preempt latency` (the
#     library's cyclictest) under full and rt with as many CPU-bound tasks
#     (--load N --load-irq 0);
#  2. CPU-bound and interrupts: the host's busy threads signalled in turn,
#     each once per 200 us on average (bench_host_irqload), against
#     --load N, whose interrupt line is raised at the same rate.
# Each run BENCH_LAT_S seconds, one SCHED_FIFO 80 thread, 1000 us.
# Target: average <= 1.5x the host's, maximum <= the host's + 1 ms.
# Usage: bench/latency_run.sh BUILD_DIR   (BUILD_DIR holds preempt)
# Everything printed is also written to BUILD_DIR/bench-latency.txt.
set -euo pipefail

# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "$0")/lib.sh"
build=${1:?usage: $0 BUILD_DIR}
out=$build/bench-latency.txt
secs=${BENCH_LAT_S:-5}
# The part of a run whose host preemptions are counted (1 s after start).
window=$((secs > 3 ? secs - 2 : 1))
load=${BENCH_LAT_LOAD:-$(nproc)}
bench_need "$build/preempt"

# "AVG MAX" (us) of cyclictest's summary line "T: 0 ... Avg: A Max: M".
# Involuntary context switches of process $1's vcpu/N threads, summed.
vcpu_preemptions() {
	local n=0 t v
	for t in /proc/"$1"/task/*; do
		case $(cat "$t/comm" 2>/dev/null) in vcpu/*) ;; *) continue ;; esac
		v=$(sed -n 's/^nonvoluntary_ctxt_switches:[[:space:]]*//p' \
			"$t/status" 2>/dev/null)
		n=$((n + ${v:-0}))
	done
	echo "$n"
}

avg_max() {
	sed -n 's/^T: *0 .*Avg: *\([0-9]*\) *Max: *\([0-9]*\).*/\1 \2/p' |
		tail -n1
}

# host_cyclictest: the host's "AVG MAX" under whatever load runs.
host_cyclictest() {
	cyclictest -q -p 80 -t 1 -i 1000 -D "${secs}s" 2>&1 |
		tee /dev/stderr | avg_max
}

# machine_run MODEL IRQ_US HOST_AVG HOST_MAX WHAT: preempt latency under
# --load $load --load-irq IRQ_US, its line, the host's preemptions of the
# vCPU threads, and the verdict against the host's figures.
machine_run() {
	local m=$1 irq_us=$2 ha=$3 hm=$4 what=$5 tmp pid c0 c1 r

	tmp=$(mktemp)
	"$build/preempt" latency --model "$m" -p 80 -t 1 -i 1000 \
		--load "$load" --load-irq "$irq_us" -D "${secs}s" -q \
		--breakdown >"$tmp" 2>&1 &
	pid=$!
	# How often the host took a CPU from the vCPU threads during the
	# run (their involuntary context switches): the profile behind the
	# maxima.
	sleep 1
	c0=$(vcpu_preemptions "$pid")
	sleep "$window"
	c1=$(vcpu_preemptions "$pid")
	wait "$pid" || true
	r=$(grep -v '^# T: *[0-9]* [0-9]* samples;\|^# load:' "$tmp" |
		tee /dev/stderr | avg_max)
	# shellcheck disable=SC2086 # "AVG MAX": two fields
	printf '%-6s avg %6s us  max %6s us\n' "$m" ${r:-- -}
	# Where the time went: before the timer function (the host's timer
	# and its signal to the vCPU thread) and after it (the library's
	# wake-up, interrupt return and switch).
	sed -n 's/^# T: *0 [0-9]* samples; /       /p' "$tmp"
	rm -f "$tmp"
	echo "       vCPU threads preempted by the host: $((c1 - c0))" \
		"times in $window s (involuntary context switches)"
	# shellcheck disable=SC2086 # "AVG MAX" split on purpose
	set -- ${r:-0 0}
	awk -v m="$m" -v what="$what" -v ha="$ha" -v hm="$hm" -v a="$1" \
		-v x="$2" '
	BEGIN {
		if (ha <= 0 || a <= 0) {
			printf "@verdict target=8; what=%s%s latency;" \
			       " verdict=not measured\n", m, what
			exit
		}
		ok = a <= 1.5 * ha && x <= hm + 1000
		printf "@verdict target=8; what=%s%s: avg <= 1.5x host," \
		       " max <= host + 1 ms; ours=avg %d us, max %d us;" \
		       " anchor=host cyclictest avg %d us, max %d us;" \
		       " ratio=%.2fx avg, max %+d us; verdict=%s\n", m, what,
		       a, x, ha, hm, a / ha, x - hm, ok ? "met" : "missed"
	}'
}

{
	bench_header "latency under load: host cyclictest beside preempt latency (target 8)" \
		"$build" "$(bench_cache "$build" PREEMPT_DEBUG)"
	echo "each: -p 80 -t 1 -i 1000 -D ${secs}s -q, $load CPU-bound" \
		"loads (host: busy processes; machine: --load $load)"
	echo
	if ! command -v cyclictest >/dev/null; then
		echo "cyclictest (rt-tests) not installed: skipped"
		echo "@verdict target=8; what=latency vs host cyclictest;" \
			"verdict=not measured"
		exit 0
	fi
	echo "-- 1. CPU-bound load (the target's): host busy processes," \
		"machine --load $load --load-irq 0 --"
	pids=()
	for _ in $(seq "$load"); do
		sh -c 'while :; do :; done' &
		pids+=($!)
	done
	host=$(host_cyclictest)
	kill "${pids[@]}"
	wait "${pids[@]}" 2>/dev/null || true
	# shellcheck disable=SC2086 # "AVG MAX": two fields
	printf '%-6s avg %6s us  max %6s us\n' host ${host:-- -}
	# shellcheck disable=SC2086 # "AVG MAX": two fields
	for m in full rt; do
		machine_run "$m" 0 ${host:-0 0} ""
	done
	echo
	echo "-- 2. CPU-bound load and interrupts, one per CPU per 200 us" \
		"on average: host bench_host_irqload $load 200, machine" \
		"--load $load --"
	if [ -x "$build/bench/bench_host_irqload" ]; then
		"$build/bench/bench_host_irqload" "$load" 200 "$((secs + 1))" &
		ipid=$!
		host=$(host_cyclictest)
		wait "$ipid" || true
		# shellcheck disable=SC2086 # "AVG MAX": two fields
		printf '%-6s avg %6s us  max %6s us\n' host ${host:-- -}
		# shellcheck disable=SC2086 # "AVG MAX": two fields
		for m in full rt; do
			machine_run "$m" 200 ${host:-0 0} ", interrupt load"
		done
	else
		echo "bench_host_irqload not built: skipped"
	fi
	# The profile behind the maxima: one more full run, not a verdict,
	# with the host's scheduler events recorded system-wide, to see how
	# long the host kept the vCPU threads off their CPUs and what ran.
	echo
	pdata=$(mktemp)
	if ! command -v perf >/dev/null ||
		! perf sched record -a -o "$pdata" -- true >/dev/null 2>&1; then
		echo "host scheduler profile: perf sched record not available: skipped"
	else
		tmp=$(mktemp)
		"$build/preempt" latency --model full -p 80 -t 1 -i 1000 \
			--load "$load" -D "${secs}s" -q >"$tmp" 2>&1 &
		pid=$!
		sleep 1
		perf sched record -a -o "$pdata" -- sleep "$window" \
			>/dev/null 2>&1 || true
		wait "$pid" || true
		r=$(avg_max <"$tmp")
		# shellcheck disable=SC2086 # "AVG MAX": two fields
		printf 'full under perf sched record: avg %s us  max %s us\n' \
			${r:-- -}
		rm -f "$tmp"
		echo "host scheduler profile, $window s of that run:"
		perf sched timehist --state -i "$pdata" 2>/dev/null |
			python3 "$(dirname "$0")/vcpu_waits.py" "$pid" 3
	fi
	rm -f "$pdata"
} 2>&1 | tee "$out"
echo "(written to $out)"
