# shellcheck shell=bash
# What bench/run.sh, bench/legacy_run.sh and bench/switch_run.sh share;
# sourced by each.

# bench_init BIN_NAME OUT_NAME "$@": checks the script's one argument,
# BUILD_DIR, and sets build, bin (BUILD_DIR/bench/BIN_NAME, which must be
# built), out (BUILD_DIR/OUT_NAME), ms, reps and cg_iters (from the
# environment: BENCH_MS, BENCH_REPS, BENCH_CALLGRIND_ITERS) and tmp, a
# directory removed on exit.
# shellcheck disable=SC2034 # the variables are the sourcing script's
bench_init() {
	local bin_name=$1 out_name=$2

	shift 2
	if [ $# -ne 1 ]; then
		echo "usage: $0 BUILD_DIR" >&2
		exit 2
	fi
	build=$1
	bin=$build/bench/$bin_name
	out=$build/$out_name
	ms=${BENCH_MS:-100}
	reps=${BENCH_REPS:-5}
	cg_iters=${BENCH_CALLGRIND_ITERS:-20000}

	bench_need "$bin"

	tmp=$(mktemp -d)
	trap 'rm -rf "$tmp"' EXIT
}

# bench_need BIN: exit 1 unless BIN is built.
bench_need() {
	if [ ! -x "$1" ]; then
		echo "$0: $1 not built" >&2
		exit 1
	fi
}

# bench_cache BUILD_DIR VAR: VAR's value in BUILD_DIR/CMakeCache.txt.
bench_cache() {
	sed -n "s/^$2:[A-Z]*=//p" "$1/CMakeCache.txt"
}

# bench_machine: the "machine:" and "kernel:" lines of a report's header.
bench_machine() {
	local cpu

	cpu=$(grep -m1 '^model name' /proc/cpuinfo | sed 's/^[^:]*: *//' ||
		true)
	echo "machine:  $(nproc) CPUs, ${cpu:-unknown CPU}"
	echo "kernel:   $(uname -sr)"
}

# bench_compiler BUILD_DIR: the "compiler:" line.
bench_compiler() {
	local cc type

	cc=$(bench_cache "$1" CMAKE_C_COMPILER)
	type=$(bench_cache "$1" CMAKE_BUILD_TYPE)
	echo "compiler: $("${cc:-cc}" --version | head -n1), $type build"
}

# bench_date: the "date:" line.
bench_date() {
	echo "date:     $(date -u '+%Y-%m-%d %H:%M UTC')"
}

# bench_header TITLE BUILD_DIR LIBDEBUG: a table's header, as every part
# of run.sh starts: the title, machine, kernel, compiler, library, date.
bench_header() {
	echo
	echo "== $1 =="
	bench_machine
	bench_compiler "$2"
	echo "library:  PREEMPT_DEBUG=${3:-?}"
	bench_date
}

# bench_need_callgrind: true if valgrind and callgrind_annotate are
# installed; otherwise says the callgrind part is skipped and fails.
bench_need_callgrind() {
	if ! command -v valgrind >/dev/null ||
		! command -v callgrind_annotate >/dev/null; then
		echo "valgrind/callgrind_annotate not installed: skipped"
		return 1
	fi
}

# bench_callgrind OUT ARGS...: "$bin --callgrind ARGS..." under callgrind,
# the profile in OUT, the program's stdout in OUT.stdout and stderr in
# OUT.log; on failure prints both and exits 1.
bench_callgrind() {
	local o=$1

	shift
	# shellcheck disable=SC2086 # BENCH_CG_ARGS: extra options, split
	valgrind --tool=callgrind ${BENCH_CG_ARGS:-} \
		--callgrind-out-file="$o" "$bin" --callgrind "$@" </dev/null >"$o.stdout" 2>"$o.log" || {
		cat "$o.stdout" "$o.log" >&2
		exit 1
	}
}

# bench_cg_costs OUT [EVENT]: the inclusive instructions (Ir, or EVENT,
# e.g. Bc: conditional branches) of each function in the callgrind
# profile OUT, "FUNCTION<tab>IR" a line.  A loop's inclusive
# cost is its largest file:function entry; the others are the parts
# inlined from headers, already counted in it.
bench_cg_costs() {
	callgrind_annotate --inclusive=yes --threshold=100 --auto=no \
		${2:+--show="$2"} "$1" |
		awk '
	/^ *[0-9,]+ \(/ {
		# "1,234 ( 5.6%)  file:function [object]"
		ir = $0
		sub(/^ */, "", ir)
		sub(/ .*$/, "", ir)
		gsub(",", "", ir)
		fn = $0
		sub(/^[^)]*\) +/, "", fn)
		sub(/ \[.*$/, "", fn)
		sub(/^.*:/, "", fn)
		if (!(fn in cost) || ir + 0 > cost[fn])
			cost[fn] = ir + 0
	}
	END {
		for (fn in cost)
			print fn "\t" cost[fn]
	}'
}

# bench_fn_body DIS SYMBOL: SYMBOL's instructions in DIS, the output of
# `objdump -d --no-show-raw-insn` (address and instruction lines only).
bench_fn_body() {
	awk -v f="<$2>:" '$2 == f { on = 1; next }
		on && /^$/ { exit } on && NF >= 2' "$1"
}
