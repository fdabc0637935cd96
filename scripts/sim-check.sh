#!/usr/bin/env bash
# The simulation's catalogue check (docs/sim.md): `preempt sim` must find
# each buggy program's bug within its seed budget and pass every fixed
# program for the fixed budget.  Exit 0 when all hold, 1 otherwise.
#
#   scripts/sim-check.sh [--quick] [--dir BUILD/tests/sim] [--tool PREEMPT]
#
# --quick (make test): the budgets the catalogue is known to need, and 20
# seeds per fixed program.  Without it (make sim-check): 1000 seeds per
# buggy program and 100000 per fixed one.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
dir=$here/build/tests/sim tool=$here/build/preempt quick=0
while [ $# -gt 0 ]; do
	case $1 in
	--quick) quick=1 ;;
	--dir) dir=$2; shift ;;
	--tool) tool=$2; shift ;;
	*) echo "sim-check: unknown option $1" >&2; exit 2 ;;
	esac
	shift
done
if [ $quick = 1 ]; then buggy_seeds=1-20 fixed_seeds=1-20
else buggy_seeds=1-1000 fixed_seeds=1-100000; fi

# run LOG ARGS...: `preempt sim ARGS...` into LOG; sets st (its exit
# status) and line (its verdict line).
run() {
	local log=$1
	shift
	set +e
	"$tool" sim --timeout 60 "$@" >"$log" 2>&1
	st=$?
	set -e
	line=$(grep -E '^sim: seed [0-9]+ fails|seeds passed' "$log" | head -1)
}

# Every buggy program must be found (docs/sim.md: all twelve are, within
# two seeds), every fixed one must pass.
fail=0 nprogs=0
for prog in "$dir"/sim_[0-9][0-9]_*; do
	[ -x "$prog" ] || continue
	name=$(basename "$prog")
	case $name in *_fixed) continue ;; esac
	short=${name#sim_}
	nprogs=$((nprogs + 1))
	run "$dir/$short.sim.log" --seeds "$buggy_seeds" -- "$prog"
	if [ $st = 1 ]; then
		echo "sim-check: $short: found: $line"
	else
		echo "sim-check: $short: NOT found in seeds $buggy_seeds: $line"
		fail=1
	fi
	run "$dir/$short.fixed.sim.log" --seeds "$fixed_seeds" --no-reduce -- \
		"${prog}_fixed"
	if [ $st = 0 ]; then
		echo "sim-check: ${short}_fixed: $line"
	else
		echo "sim-check: ${short}_fixed: FAILED: $line"
		fail=1
	fi
done
if [ $nprogs = 0 ]; then
	echo "sim-check: no catalogue programs in $dir (build sim_catalogue)" >&2
	exit 1
fi
exit $fail
