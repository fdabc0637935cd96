#!/usr/bin/env bash
# The unconditional count against the legacy PREEMPT_COUNT=n build
# (bench_legacy, issue 5): the builds checked in the disassembly, the fast
# paths' instructions counted from objdump, the workloads timed, then
# counted under callgrind; then the count built CONFIG_PREEMPTION=0
# (bench_legacy_nopreempt: preempt_enable() a bare decrement) counted the
# same way against the legacy copy.
# Usage: bench/legacy_run.sh BUILD_DIR   (BUILD_DIR holds bench/bench_legacy)
#
# Environment: BENCH_MS (ms per case per round, default 100), BENCH_REPS
# (rounds, default 5), BENCH_CALLGRIND_ITERS (default 20000).
# Everything printed is also written to BUILD_DIR/bench-legacy.txt.
set -euo pipefail

# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "$0")/lib.sh"
bench_init bench_legacy bench-legacy.txt "$@"

{
	echo
	echo "== libpreempt locking: unconditional count vs legacy" \
		"PREEMPT_COUNT=n: bench_legacy =="
	bench_machine
	bench_compiler "$build"
	echo "cases:    CONFIG_PREEMPT_COUNT=1 (count) and =0 (legacy), both" \
		"with DEBUG_PREEMPT, DEBUG_ATOMIC_SLEEP, DEBUG_SPINLOCK = 0"
	bench_date
	if command -v objdump >/dev/null; then
		dis=$build/bench_legacy.dis
		objdump -d --no-show-raw-insn "$bin" >"$dis"
		body() { bench_fn_body "$dis" "$1"; }
		# Entry to the first ret: the uncontended path of a probe.
		fast() {
			body "$1" | awk '{ print } $2 ~ /^ret/ { exit }'
		}
		# The word's operations: inc/dec/add/sub on a %fs operand.
		rmw='(inc|dec|add|sub)l? +[^ ]*%fs:'
		bad=
		for f in hash hash2_worker percpu bare_lock bare_preempt; do
			c=$(body "bench_${f}_count")
			l=$(body "bench_${f}_legacy")
			grep -Eq "incl +%fs:" <<<"$c" &&
				grep -Eq "decl +%fs:" <<<"$c" &&
				grep -q 'preempt_schedule' <<<"$c" || bad="$bad $f"
			if grep -Eq "$rmw" <<<"$l" ||
				grep -q 'preempt_schedule' <<<"$l"; then
				bad="$bad ${f}_legacy"
			fi
		done
		for f in lock unlock; do
			grep -Eq "$rmw" <<<"$(body "probe_${f}_legacy")" &&
				bad="$bad probe_${f}_legacy"
		done
		grep -Eq 'incl +%fs:' <<<"$(fast probe_lock_count)" ||
			bad="$bad probe_lock_count"
		grep -Eq 'decl +%fs:' <<<"$(fast probe_unlock_count)" ||
			bad="$bad probe_unlock_count"
		if [ -n "$bad" ]; then
			echo "codegen:  UNEXPECTED ($bad), see $dis"
			exit 1
		fi
		echo "codegen:  count = incl/decl %fs inline around every lock" \
			"and preempt section; legacy = no inc/dec/add/sub on" \
			"%fs, no preempt_schedule (objdump)"
		echo
		echo "-- fast path: raw_spin_lock()/raw_spin_unlock() as" \
			"noinline functions (objdump) --"
		echo "static instructions from the entry to the first ret (the" \
			"uncontended path, ret included)"
		printf '%-18s %7s %7s %7s\n' "" count legacy added
		for f in lock unlock; do
			c=$(fast "probe_${f}_count" | wc -l)
			l=$(fast "probe_${f}_legacy" | wc -l)
			printf '%-18s %7d %7d %+7d\n' "raw_spin_$f" "$c" "$l" \
				$((c - l))
		done
		for f in lock_count lock_legacy unlock_count unlock_legacy; do
			echo "probe_$f:"
			fast "probe_$f" | sed -e 's/^ *[0-9a-f]*:[[:space:]]*/    /' \
				-e 's/ *#.*$//' -e 's/[[:space:]]\{2,\}/ /g'
		done
	fi
	# The model is chosen at run time: the same code runs under each,
	# timed under voluntary (none's fast paths are the same) and full.
	# BENCH_LEGACY_REPS rounds (default 10): enough for a 95% CI.
	for model in voluntary full; do
		echo
		echo "-- wall clock, PREEMPT_MODEL=$model --"
		PREEMPT_MODEL=$model "$bin" --ms "$ms" \
			--reps "${BENCH_LEGACY_REPS:-10}"
	done
	echo
	echo "-- callgrind: instructions and conditional branches per" \
		"iteration --"
	bench_need_callgrind || exit 0
	BENCH_CG_ARGS=--branch-sim=yes bench_callgrind "$tmp/cg.out" \
		"$cg_iters"
	bench_cg_costs "$tmp/cg.out" >"$tmp/costs"
	bench_cg_costs "$tmp/cg.out" Bc >"$tmp/branches"
	"$bin" --list >"$tmp/list"
	echo "inclusive instructions (Ir) of each loop function over" \
		"$cg_iters iterations,"
	echo "per iteration, the loop's counter, compare and branch included" \
		"(the empty loop);"
	echo "the contended case is not run (its count depends on the" \
		"spinning)"
	awk -F'\t' -v n="$cg_iters" -v costs="$tmp/branches" '
	BEGIN {
		while ((getline line < costs) > 0) {
			split(line, f, "\t")
			cost[f[1]] = f[2] + 0
		}
		printf "conditional branches (callgrind --branch-sim=yes, Bc)\n"
		printf "%-42s %9s %9s %7s %9s\n", "workload", "count",
		       "legacy", "added", "overhead"
	}
	$3 == "count" { sym[$2] = $1; name[$2] = $5; ids[++nid] = $2;
			threads[$2] = $4 }
	$3 == "legacy" { lsym[$2] = $1 }
	END {
		for (i = 1; i <= nid; i++) {
			id = ids[i]
			if (threads[id] != 1)
				continue
			c = cost[sym[id]] / n
			l = cost[lsym[id]] / n
			printf "%-42s %9.2f %9.2f %+7.2f %+8.1f%%\n", name[id],
			       c, l, c - l, (l > 0 ? (c / l - 1) * 100 : 0)
			printf "@value legacy.branches.%s=%.2f %.2f\n", id, c, l
		}
		printf "\n"
	}' "$tmp/list" >"$tmp/btable"
	awk -F'\t' -v n="$cg_iters" -v costs="$tmp/costs" \
		-v branches="$tmp/branches" '
	BEGIN {
		while ((getline line < costs) > 0) {
			split(line, f, "\t")
			cost[f[1]] = f[2] + 0
		}
		while ((getline line < branches) > 0) {
			split(line, f, "\t")
			bc[f[1]] = f[2] + 0
		}
		printf "%-42s %9s %9s %7s %9s\n", "workload", "count",
		       "legacy", "added", "overhead"
	}
	$3 == "count" { sym[$2] = $1; name[$2] = $5; ids[++nid] = $2;
			threads[$2] = $4 }
	$3 == "legacy" { lsym[$2] = $1 }
	END {
		for (i = 1; i <= nid; i++) {
			id = ids[i]
			if (threads[id] != 1) {
				printf "%-42s %9s %9s\n", name[id], "-", "-"
				continue
			}
			if (!(sym[id] in cost) || !(lsym[id] in cost)) {
				printf "%-42s missing\n", name[id]
				bad = 1
				continue
			}
			c = cost[sym[id]] / n
			l = cost[lsym[id]] / n
			printf "%-42s %9.2f %9.2f %+7.2f %+8.1f%%\n", name[id],
			       c, l, c - l, (c / l - 1) * 100
			bcr = 0
			if (bc[lsym[id]] > 0)
				bcr = (bc[sym[id]] / bc[lsym[id]] - 1) * 100
			if (id != "empty")
				v[++nv] = sprintf("what=none/voluntary, %s;" \
					" ours=%.2f instr, %.2f branches;" \
					" anchor=%.2f instr, %.2f branches" \
					" (PREEMPT_COUNT=n); ratio=%+.1f%%" \
					" instr, %+.1f%% branches", name[id],
					c, bc[sym[id]] / n, l, bc[lsym[id]] / n,
					(c / l - 1) * 100, bcr) \
					SUBSEP ((c / l - 1) * 100 <= 1)
			if (id == "empty")
				loop = l
			if (id == "bare_lock") {
				pc = c
				pl = l
			}
		}
		printf "\nfast path from callgrind: raw_spin_lock+unlock in a" \
		       " loop, less the empty loop:\n%.2f instructions with" \
		       " the count, %.2f legacy (%+.2f; the TLS offset load" \
		       " is hoisted out of the loop)\n", pc - loop, pl - loop,
		       pc - pl
		# The library compiles one preempt_enable() for every model
		# (the model is chosen at run time): under none/voluntary
		# the enable still tests, and each model runs the same code.
		printf "\nper model: the same instructions under none," \
		       " voluntary and full (one build, the model chosen at" \
		       " run time; preempt_enable() tests in every model)\n"
		for (i = 1; i <= nv; i++) {
			split(v[i], p, SUBSEP)
			printf "@verdict target=3; %s; verdict=%s\n", p[1],
			       p[2] ? "met" : "missed"
		}
		exit bad
	}' "$tmp/list"
	echo
	cat "$tmp/btable"
	# CONFIG_PREEMPTION=0: the count kept, preempt_enable() a bare
	# decrement (the kernel's PREEMPTION=n), the model fixed at compile
	# time to none or voluntary: the same workloads, the same legacy copy.
	np=$build/bench/bench_legacy_nopreempt
	[ -x "$np" ] || exit 0
	echo
	echo "-- callgrind: CONFIG_PREEMPTION=0 (none/voluntary built in)" \
		"against PREEMPT_COUNT=n --"
	bin=$np BENCH_CG_ARGS= bench_callgrind "$tmp/np.out" "$cg_iters"
	bench_cg_costs "$tmp/np.out" >"$tmp/npcosts"
	"$np" --list >"$tmp/nplist"
	awk -F'\t' -v n="$cg_iters" -v costs="$tmp/npcosts" '
	BEGIN {
		while ((getline line < costs) > 0) {
			split(line, f, "\t")
			cost[f[1]] = f[2] + 0
		}
		printf "%-42s %9s %9s %7s %9s\n", "workload",
		       "PREEMPTION=0", "legacy", "added", "overhead"
	}
	$3 == "count" { sym[$2] = $1; name[$2] = $5; ids[++nid] = $2;
			threads[$2] = $4 }
	$3 == "legacy" { lsym[$2] = $1 }
	END {
		for (i = 1; i <= nid; i++) {
			id = ids[i]
			if (threads[id] != 1 || id == "empty")
				continue
			if (!(sym[id] in cost) || !(lsym[id] in cost)) {
				printf "%-42s missing\n", name[id]
				bad = 1
				continue
			}
			c = cost[sym[id]] / n
			l = cost[lsym[id]] / n
			r = (c / l - 1) * 100
			printf "%-42s %9.2f %9.2f %+7.2f %+8.1f%%\n", name[id],
			       c, l, c - l, r
			v[++nv] = sprintf("what=CONFIG_PREEMPTION=0 build," \
				" %s; ours=%.2f instr; anchor=%.2f instr" \
				" (PREEMPT_COUNT=n); ratio=%+.1f%% instr", \
				name[id], c, l, r) SUBSEP (r <= 1)
		}
		for (i = 1; i <= nv; i++) {
			split(v[i], p, SUBSEP)
			printf "@verdict target=3; %s; verdict=%s\n", p[1],
			       p[2] ? "met" : "missed"
		}
		exit bad
	}' "$tmp/nplist"
} 2>&1 | tee "$out"
echo "(written to $out)"
