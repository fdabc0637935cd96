#!/usr/bin/env bash
# The bug catalogue (tests/sim/catalogue/, docs/sim.md) in the normal,
# real-thread mode: run each program again and again for a wall-time
# budget (or a number of runs) and count the runs that find the bug.
#
# Usage: scripts/sim-normal-mode.sh [--seconds S] [--runs N] [--timeout T]
#            [--fixed-only | --buggy-only] [--dir DIR] [--logs DIR]
#            [--emulator CMD] [--markdown] [NAME...]
#   --seconds S  wall time per program (default 10); runs stop at the
#                first run that ends after S seconds
#   --runs N     exactly N runs per program instead (the smoke test)
#   --timeout T  a run longer than T seconds is a hang (default 2; a
#                passing run takes about 10-20 ms)
#   --dir DIR    where the sim_* programs are (default build/tests/sim)
#   --logs DIR   keep the stderr of each program's first failing run
#   --emulator CMD  run the programs through CMD (a cross build's
#                qemu-aarch64)
#   --markdown   print the table as Markdown (docs/sim.md)
#   NAME         only programs whose name contains NAME (e.g. 05_abba)
#
# A run's outcome, from the contract in tests/sim/catalogue/catalogue.h:
# exit 0 pass; 1 the program's own check; SIGABRT (134) a kernel-style
# report (BUG, WARN, lockdep; panic_on_warn is on); timeout a hang; 2 a
# setup failure (no verdict, but counted); anything else a crash.
# Every one but a pass is a failure.
# Exit status: 0 when no fixed program failed, 1 otherwise, 2 on bad
# arguments.
set -uo pipefail

seconds=10
runs=0
timeout_s=2
which=both
dir=build/tests/sim
logs=
emulator=
markdown=0
filters=()

die() {
	echo "sim-normal-mode: $*" >&2
	exit 2
}

while [ $# -gt 0 ]; do
	case "$1" in
	--seconds) seconds=${2:-}; shift 2 ;;
	--runs) runs=${2:-}; shift 2 ;;
	--timeout) timeout_s=${2:-}; shift 2 ;;
	--fixed-only) which=fixed; shift ;;
	--buggy-only) which=buggy; shift ;;
	--dir) dir=${2:-}; shift 2 ;;
	--logs) logs=${2:-}; shift 2 ;;
	--emulator) emulator=${2:-}; shift 2 ;;
	--markdown) markdown=1; shift ;;
	-h | --help) sed -n '2,26p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
	-*) die "unknown option '$1'" ;;
	*) filters+=("$1"); shift ;;
	esac
done
[[ "$seconds" =~ ^[0-9]+$ ]] || die "--seconds wants a number, not '$seconds'"
[[ "$runs" =~ ^[0-9]+$ ]] || die "--runs wants a number, not '$runs'"
[[ "$timeout_s" =~ ^[0-9]+([.][0-9]+)?$ ]] ||
	die "--timeout wants seconds, not '$timeout_s'"
[ -d "$dir" ] || die "no directory '$dir' (build the sim_catalogue target)"
[ -z "$logs" ] || mkdir -p "$logs" || die "cannot make '$logs'"

# The catalogue's names, NN_name, from the buggy programs present.
names=()
for f in "$dir"/sim_[0-9][0-9]_*; do
	[ -x "$f" ] || continue
	n=${f##*/sim_}
	case "$n" in *_fixed) continue ;; esac
	if [ ${#filters[@]} -gt 0 ]; then
		keep=0
		for w in "${filters[@]}"; do
			case "$n" in *"$w"*) keep=1 ;; esac
		done
		[ $keep = 1 ] || continue
	fi
	names+=("$n")
done
[ ${#names[@]} -gt 0 ] || die "no sim_NN_* programs in '$dir'"

now_ms() {
	local t=${EPOCHREALTIME/./}
	echo $((t / 1000))
}

# run_one PROG: one run; prints its outcome (pass, check, report, hang,
# crash:STATUS); its stderr in $tmp_err.
tmp_err=$(mktemp)
trap 'rm -f "$tmp_err"' EXIT
run_one() {
	local st
	# shellcheck disable=SC2086 # the emulator may carry its arguments
	timeout -k 1 "$timeout_s" $emulator "$1" >/dev/null 2>"$tmp_err"
	st=$?
	case $st in
	0) echo pass ;;
	1) echo check ;;
	2) echo setup ;;
	134) echo report ;;
	124 | 137) echo hang ;;
	*) echo "crash:$st" ;;
	esac
}

# measure NAME BUILD: runs until the budget; prints one result line
# "name build runs failures first kinds pass_ms" (pass_ms: the mean wall
# time of a passing run, - if none passed).
measure() {
	local name=$1 build=$2 prog start n=0 fails=0 first=- out t0
	local pass_ms=0
	local -A kinds=()
	prog="$dir/sim_$name"
	[ "$build" = fixed ] && prog="$dir/sim_${name}_fixed"
	[ -x "$prog" ] || { echo "$name $build 0 0 - missing -"; return; }
	start=$(now_ms)
	while :; do
		t0=$(now_ms)
		out=$(run_one "$prog")
		n=$((n + 1))
		if [ "$out" = pass ]; then
			pass_ms=$((pass_ms + $(now_ms) - t0))
		else
			fails=$((fails + 1))
			kinds[$out]=$((${kinds[$out]:-0} + 1))
			if [ "$first" = - ]; then
				first=$n
				[ -z "$logs" ] || cp "$tmp_err" "$logs/$name.$build.stderr"
			fi
		fi
		if [ "$runs" -gt 0 ]; then
			[ $n -ge "$runs" ] && break
		elif [ $(($(now_ms) - start)) -ge $((seconds * 1000)) ]; then
			break
		fi
	done
	local k list=
	for k in "${!kinds[@]}"; do
		list+="${list:+,}$k:${kinds[$k]}"
	done
	[ $fails -lt $n ] && pass_ms=$((pass_ms / (n - fails))) || pass_ms=-
	echo "$name $build $n $fails $first ${list:--} $pass_ms"
}

# pct RUNS FAILURES: the failures' share of the runs, in percent.
pct() {
	[ "$1" -gt 0 ] || { echo -; return; }
	local t=$((1000 * $2 / $1))
	echo "$((t / 10)).$((t % 10))%"
}

# Markdown: one row a program, its buggy build's columns then the fixed
# build's runs and failures (docs/sim.md).
if [ $markdown = 1 ]; then
	echo "| program | runs | found | share | first found (run) | outcomes | ms a passing run | fixed: runs | fixed: failures |"
	echo "|---|---:|---:|---:|---:|---|---:|---:|---:|"
else
	printf '%-24s %-6s %7s %9s %7s %6s  %s\n' program build runs failures \
		share first outcomes
fi
fixed_failed=0
for name in "${names[@]}"; do
	row="| $name |"
	for build in buggy fixed; do
		if [ "$which" != both ] && [ "$which" != "$build" ]; then
			[ "$build" = buggy ] && row+=" | | | | | |"
			[ "$build" = fixed ] && row+=" | |"
			continue
		fi
		read -r n b r f first kinds ms <<<"$(measure "$name" "$build")"
		[ "$b" = fixed ] && [ "$f" != 0 ] && fixed_failed=1
		[ "$kinds" = missing ] && [ "$b" = fixed ] && fixed_failed=1
		if [ "$b" = buggy ]; then
			row+=" $r | $f | $(pct "$r" "$f") | $first | $kinds | $ms |"
		else
			row+=" $r | $f |"
		fi
		[ $markdown = 1 ] ||
			printf '%-24s %-6s %7s %9s %7s %6s  %s\n' "$n" "$b" "$r" \
				"$f" "$(pct "$r" "$f")" "$first" "$kinds"
	done
	[ $markdown = 0 ] || echo "$row"
done
exit $fixed_failed
