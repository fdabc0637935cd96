#!/usr/bin/env bash
# Lock round trips (bench_locks, issues 5 and 19): our locks beside
# glibc's on a plain thread, then the same locks in a task under full and
# under rt; with the library's debug checks compiled out (as a production
# build, `make release`) and as configured (the default build keeps them
# on), each with its verdicts and the contended table; the irqsave fast
# path's code; the two builds side by side, from the same two runs; then
# instructions per round trip from callgrind, checks out.
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

# bench_side_by_side OFF ON: part 1's medians of both runs, one row per
# case: checks off ("release", make release), checks as configured
# ("default", PREEMPT_DEBUG=ON unless the build says otherwise), and
# their ratio; "@value locks.debug_cost.CASE=RATIO" lines for scripts.
bench_side_by_side() {
	awk '
	function row(line,   n, f, name, i) {
		n = split(line, f, " ")
		name = f[1]
		for (i = 2; i <= n - 5; i++)
			name = name " " f[i]
		key = name
		gsub(/[^A-Za-z0-9]+/, "_", key)
		gsub(/^_|_$/, "", key)
		return name "\t" key "\t" f[n - 4]
	}
	FNR == 1 { part1 = 0; file++ }
	/^-- 1\./ { part1 = 1; next }
	/^--/ || /^$/ { part1 = 0 }
	part1 && $1 != "case" {
		split(row($0), r, "\t")
		if (file == 1) {
			order[++n] = r[1]; keyof[r[1]] = r[2]; off[r[1]] = r[3]
		} else {
			on[r[1]] = r[3]
		}
	}
	END {
		printf "%-32s %9s %9s %16s\n", "case", "release", "default",
		       "default/release"
		for (i = 1; i <= n; i++) {
			c = order[i]
			if (!(c in on) || off[c] <= 0)
				continue
			printf "%-32s %9.2f %9.2f %15.2fx\n", c, off[c], on[c],
			       on[c] / off[c]
			vals = vals sprintf("@value locks.debug_cost.%s=%.2f\n",
					    keyof[c], on[c] / off[c])
		}
		printf "%s", vals
	}' "$1" "$2"
}

{
	echo
	echo "== libpreempt locking: uncontended round trips: bench_locks =="
	bench_machine
	bench_compiler "$build"
	bench_date
	echo
	echo "--- library debug checks compiled out (bench_locks_nodebug) ---"
	"$bin" --ms "$ms" --reps "$reps" | tee "$tmp/off"
	echo
	echo "-- codegen: spin_lock_irqsave+irqrestore, checks out (objdump) --"
	if [ "$(uname -m)" != x86_64 ] || ! command -v objdump >/dev/null; then
		echo "codegen:  skipped (x86-64 with objdump only)"
	else
		objdump -d --no-show-raw-insn "$bin" >"$tmp/locks.dis"
		irqsave=$(awk '$2 == "<bench_lk_spin_irqsave>:" { on = 1; next }
			on && /^$/ { exit } on' "$tmp/locks.dis")
		# Interrupts and preemption: one add on the lock, one sub on
		# the unlock; no separate decl (preempt_enable) or andl
		# (local_irq_enable) on the word.
		if grep -q 'addl *.0x1000001,%fs:' <<<"$irqsave" &&
			[ "$(grep -c 'sub *%e[a-z]*,%fs:' <<<"$irqsave")" = 1 ] &&
			! grep -Eq '(decl|andl) .*%fs:' <<<"$irqsave"; then
			echo "codegen:  spin_lock_irqsave = one addl \$0x1000001" \
				"to the %fs word, the unlock one subl: MET"
		else
			echo "codegen:  UNEXPECTED irqsave fast path (MISSED):"
			grep '%fs:' <<<"$irqsave"
			exit 1
		fi
	fi
	echo
	echo "--- library as configured, PREEMPT_DEBUG=$(bench_cache "$build" \
		PREEMPT_DEBUG) (bench_locks) ---"
	"$debug_bin" --ms "$ms" --reps "$reps" | tee "$tmp/on"
	echo
	echo "-- 3. the default build beside release: plain thread, median ns" \
		"per lock+unlock (the two runs above) --"
	bench_side_by_side "$tmp/off" "$tmp/on"
	echo
	echo "-- callgrind: instructions per lock+unlock, checks out --"
	bench_need_callgrind || exit 0
	bench_callgrind "$tmp/locks.out" "$cg_iters"
	bench_cg_costs "$tmp/locks.out" | awk -F'\t' -v n="$cg_iters" '
		$1 ~ /^bench_lk_/ { ir[substr($1, 10)] = $2 / n }
		END {
			split("empty tls_pair irq_pair pthread_spin " \
			      "pthread_mutex raw_spin spin spin_irqsave " \
			      "spin_bh local_bh read_lock mutex",
			      order, " ")
			for (i = 1; i in order; i++) {
				c = order[i]
				printf "%-16s %8.2f %10.2f\n", c, ir[c],
					ir[c] - ir["empty"]
			}
		}' | { printf "%-16s %8s %10s\n" case "Ir" "over loop"; cat; }
} 2>&1 | tee "$out"
echo "(written to $out)"
