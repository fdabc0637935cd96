#!/usr/bin/env bash
# Mutation testing: does the test suite fail when the code is wrong?
#
# Applies each deliberate breakage of tests/mutants/mutants.txt, one at a
# time, to a scratch copy of the tree (never the working tree), rebuilds
# that copy incrementally and runs the mutant's tests.  A failing or hung
# test run catches the mutant; a passing one lets it survive.
#
# Usage: scripts/mutants.sh [-s TAG] [-t SECONDS] [-l] [NAME...]
#   -s TAG      only the mutants tagged TAG (e.g. ci); also $MUTANTS_SUBSET
#   -t SECONDS  default time limit (40) of one mutant's test run (hang = caught)
#   -l          list the mutants and check they apply, build nothing
#   NAME...     only these mutants
# Environment: MUTANTS_DIR (scratch, default build-mutants), MUTANTS_JOBS.
# Exit: 0 all caught; 1 a mutant survived, did not apply or did not build;
#       2 usage error or the unmutated tree fails its own tests.
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
LIST=$ROOT/tests/mutants/mutants.txt
WORK=${MUTANTS_DIR:-$ROOT/build-mutants}
SRC=$WORK/src
BUILD=$WORK/build
LOGS=$WORK/logs
JOBS=${MUTANTS_JOBS:-2}
SUBSET=${MUTANTS_SUBSET:-}
DEFAULT_TIMEOUT=40
LIST_ONLY=0

usage() {
	sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//' >&2
	exit 2
}

while getopts "s:t:lh" opt; do
	case $opt in
	s) SUBSET=$OPTARG ;;
	t) DEFAULT_TIMEOUT=$OPTARG ;;
	l) LIST_ONLY=1 ;;
	*) usage ;;
	esac
done
shift $((OPTIND - 1))
ONLY=("$@")

# ---- the list: records of "key value" lines, "-old" and "+new" lines ----
names=() whys=() tags=() files=() tests=() timeouts=() olds=() news=()

add_record() {
	[ -n "$r_name" ] || return 0
	local missing=""
	[ -n "$r_why" ] || missing+=" why"
	[ -n "$r_file" ] || missing+=" file"
	[ -n "$r_tests" ] || missing+=" tests"
	[ "$r_has_old" = 1 ] || missing+=" -lines"
	if [ -n "$missing" ]; then
		echo "mutants: $r_name: missing$missing" >&2
		exit 2
	fi
	for n in "${names[@]}"; do
		if [ "$n" = "$r_name" ]; then
			echo "mutants: $r_name: defined twice" >&2
			exit 2
		fi
	done
	names+=("$r_name") whys+=("$r_why") tags+=("$r_tags")
	files+=("$r_file") tests+=("$r_tests")
	timeouts+=("${r_timeout:-$DEFAULT_TIMEOUT}")
	olds+=("$r_old") news+=("$r_new")
	r_name=""
}

r_name=""
lineno=0
while IFS= read -r line || [ -n "$line" ]; do
	lineno=$((lineno + 1))
	case $line in
	'#'* | '') continue ;;
	-*)
		if [ "$r_has_old" = 1 ]; then r_old+=$'\n'; fi
		r_old+=${line:1} r_has_old=1
		;;
	+*)
		if [ "$r_has_new" = 1 ]; then r_new+=$'\n'; fi
		r_new+=${line:1} r_has_new=1
		;;
	*)
		key=${line%%[[:space:]]*}
		val=${line#"$key"}
		val=${val#"${val%%[![:space:]]*}"}
		case $key in
		mutant)
			add_record
			r_name=$val r_why="" r_tags="" r_file="" r_tests=""
			r_timeout="" r_old="" r_new="" r_has_old=0 r_has_new=0
			;;
		why) r_why=$val ;;
		tags) r_tags=$val ;;
		file) r_file=$val ;;
		tests) r_tests=$val ;;
		timeout) r_timeout=$val ;;
		*)
			echo "mutants: $LIST:$lineno: unknown key '$key'" >&2
			exit 2
			;;
		esac
		[ -n "$r_name" ] || {
			echo "mutants: $LIST:$lineno: '$key' before 'mutant'" >&2
			exit 2
		}
		;;
	esac
done <"$LIST"
add_record

has_tag() { [[ " $1 " == *" $2 "* ]]; }

selected=()
for i in "${!names[@]}"; do
	if [ -n "$SUBSET" ] && ! has_tag "${tags[$i]}" "$SUBSET"; then
		continue
	fi
	if [ ${#ONLY[@]} -gt 0 ]; then
		keep=0
		for n in "${ONLY[@]}"; do [ "$n" = "${names[$i]}" ] && keep=1; done
		[ $keep = 1 ] || continue
	fi
	selected+=("$i")
done
if [ ${#selected[@]} -eq 0 ]; then
	echo "mutants: no mutant selected" >&2
	exit 2
fi

# ---- the scratch copy: the working tree's files, unchanged ones untouched
# so the persistent build dir recompiles only what differs ----
sync_copy() {
	mkdir -p "$SRC" "$LOGS"
	local f keep=$WORK/files
	(cd "$ROOT" && git ls-files -co --exclude-standard -z |
		xargs -0 -r -I{} sh -c 'test -f "$1" && printf "%s\n" "$1"' _ {}) \
		>"$keep"
	while IFS= read -r f; do
		if ! cmp -s "$ROOT/$f" "$SRC/$f"; then
			mkdir -p "$(dirname "$SRC/$f")"
			cp "$ROOT/$f" "$SRC/$f"
		fi
	done <"$keep"
	# Files gone from the working tree go from the copy too.
	(cd "$SRC" && find . -type f | sed 's|^\./||') | sort >"$WORK/have"
	sort "$keep" | comm -23 "$WORK/have" - | while IFS= read -r f; do
		rm -f "$SRC/$f"
	done
}

# Occurrences of $2 in the file $1 (literal text, may span lines).
count_in() {
	local content rest
	IFS= read -r -d '' content <"$1" || true
	rest=${content//"$2"/}
	echo $(((${#content} - ${#rest}) / ${#2}))
}

applied_file="" applied_backup=""
restore() {
	if [ -n "$applied_file" ]; then
		cp "$applied_backup" "$applied_file"
		applied_file=""
	fi
}
child=""
interrupted() {
	# timeout passes the signal on to the tests it runs.
	if [ -n "$child" ]; then kill -TERM "$child" 2>/dev/null || true; fi
	restore
	echo "mutants: interrupted" >&2
	exit 130
}
trap restore EXIT
trap interrupted INT TERM

apply_mutant() {
	local i=$1 path=$SRC/${files[$1]} content
	applied_backup=$WORK/backup
	cp "$path" "$applied_backup"
	applied_file=$path
	IFS= read -r -d '' content <"$path" || true
	printf '%s' "${content/"${olds[$i]}"/"${news[$i]}"}" >"$path"
}

sync_copy

# ---- every selected mutant must match exactly one place ----
errors=0
declare -A status
for i in "${selected[@]}"; do
	path=$SRC/${files[$i]}
	if [ ! -f "$path" ]; then
		status[$i]="did not apply: no file ${files[$i]}"
	else
		n=$(count_in "$path" "${olds[$i]}")
		if [ "$n" != 1 ]; then
			status[$i]="did not apply: matches $n places in ${files[$i]}"
		fi
	fi
	if [ -n "${status[$i]:-}" ]; then
		errors=$((errors + 1))
		printf 'ERROR     %-30s %s\n' "${names[$i]}" "${status[$i]}"
	fi
done

if [ $LIST_ONLY = 1 ]; then
	for i in "${selected[@]}"; do
		printf '%-30s %-16s %s\n' "${names[$i]}" "[${tags[$i]}]" "${whys[$i]}"
	done
	echo "${#selected[@]} mutants, $errors do not apply"
	[ $errors = 0 ]
	exit
fi

# ---- the build of the copy, persistent, incremental ----
generator=()
if [ ! -f "$BUILD/CMakeCache.txt" ] && command -v ninja >/dev/null; then
	generator=(-G Ninja)
fi
# Executables do not relink when only libpreempt.so changed.
cmake -S "$SRC" -B "$BUILD" "${generator[@]}" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
	-DCMAKE_LINK_DEPENDS_NO_SHARED=ON >"$LOGS/configure.log" 2>&1 || {
	cat "$LOGS/configure.log" >&2
	exit 2
}

# The tests a regex selects, one name a line.
tests_of() {
	(cd "$BUILD" && ctest -N -R "$1") |
		sed -n 's/^ *Test *#[0-9]*: \(.*\)$/\1/p'
}

# The build targets behind the tests a regex selects: the test commands'
# file names once built; before that the CMake convention of tests/
# (test NAME is target NAME, examples/X is example_X), else "all".
targets_for() {
	local cmds name
	cmds=$( (cd "$BUILD" && ctest -N -V -R "$1") |
		sed -n 's/^[0-9]*: Test command: *//p')
	if ! grep -qx '' <<<"$cmds"; then
		while read -r cmd _; do
			case $cmd in "$BUILD"/*) basename "$cmd" ;; esac
		done <<<"$cmds" | sort -u
		return
	fi
	tests_of "$1" | while IFS= read -r name; do
		case $name in
		*/test_*) echo "${name##*/}" ;;
		examples/*) n=${name#examples/} && echo "example_${n%%-*}" ;;
		*) echo all ;;
		esac
	done | sort -u
}

build_for() { # regex logfile
	local t
	mapfile -t t < <(targets_for "$1")
	# Under Ninja "preempt" names the tool's file (build/preempt), not the
	# library's target: name libpreempt.so's file as well.
	if [ -f "$BUILD/build.ninja" ]; then
		t+=(libpreempt.so)
	fi
	cmake --build "$BUILD" -j "$JOBS" --target preempt "${t[@]}" >"$2" 2>&1
}

# 0: passed, 1: failed, 124/137: timed out; 3: a test did not run at all
# (not built, no test matched), which must never count as a catch.
run_tests() { # regex seconds logfile
	local rc=0
	# In the background: a signal's trap runs at once, not after the run.
	(cd "$BUILD" && exec timeout -k 5 "$2" ctest -j "$JOBS" \
		--output-on-failure -R "$1") >"$3" 2>&1 &
	child=$!
	wait $child || rc=$?
	child=""
	if [ $rc != 124 ] && [ $rc != 137 ] &&
		grep -qE 'Not Run|No tests were found|Could not find executable' "$3"; then
		return 3
	fi
	return $rc
}

# ---- baseline: the unmutated copy passes every test the mutants use ----
all_tests=()
for i in "${selected[@]}"; do
	[ -z "${status[$i]:-}" ] || continue
	mapfile -t matched < <(tests_of "${tests[$i]}")
	if [ ${#matched[@]} = 0 ]; then
		status[$i]="did not apply: tests '${tests[$i]}' match no test"
		errors=$((errors + 1))
		printf 'ERROR     %-30s %s\n' "${names[$i]}" "${status[$i]}"
		continue
	fi
	all_tests+=("${matched[@]}")
done
start=$SECONDS
if [ ${#all_tests[@]} -gt 0 ]; then
	union="^($(printf '%s\n' "${all_tests[@]}" | sort -u | paste -sd '|'))\$"
	echo "mutants: building and testing the unmutated copy in $WORK"
	if ! build_for "$union" "$LOGS/baseline-build.log"; then
		tail -30 "$LOGS/baseline-build.log" >&2
		echo "mutants: the unmutated copy does not build" >&2
		exit 2
	fi
	if ! run_tests "$union" 300 "$LOGS/baseline.log"; then
		tail -30 "$LOGS/baseline.log" >&2
		echo "mutants: the unmutated copy fails its tests; nothing to measure" >&2
		exit 2
	fi
fi

# ---- one mutant at a time ----
caught=0 survived=0 survivors=()
for i in "${selected[@]}"; do
	[ -z "${status[$i]:-}" ] || continue
	name=${names[$i]} log=$LOGS/${names[$i]}.log t0=$SECONDS
	apply_mutant "$i"
	if ! build_for "${tests[$i]}" "$log"; then
		result="ERROR" note="did not build (see $log)"
		errors=$((errors + 1))
	else
		rc=0
		run_tests "${tests[$i]}" "${timeouts[$i]}" "$log.test" || rc=$?
		cat "$log.test" >>"$log" && rm -f "$log.test"
		if [ $rc = 3 ]; then
			result="ERROR" note="a test did not run (see $log) "
			errors=$((errors + 1))
		elif [ $rc = 0 ]; then
			result="SURVIVED" note=""
			has_tag "${tags[$i]}" known-open && note="(known open) "
			survived=$((survived + 1))
			survivors+=("$name")
		elif [ $rc = 124 ] || [ $rc = 137 ]; then
			result="CAUGHT" note="(hang, ${timeouts[$i]}s limit) "
			caught=$((caught + 1))
		else
			result="CAUGHT" note=""
			caught=$((caught + 1))
		fi
		note+="${whys[$i]}"
	fi
	restore
	printf '%-9s %-30s %4ss  %s\n' "$result" "$name" $((SECONDS - t0)) "$note"
done

total=$((caught + survived))
echo "----"
if [ $total -gt 0 ]; then
	echo "mutants: $caught of $total caught, kill rate $((100 * caught / total))%" \
		"($errors errors, ${#selected[@]} selected${SUBSET:+, subset $SUBSET}," \
		"$((SECONDS - start))s)"
else
	echo "mutants: none ran ($errors errors)"
fi
if [ $survived -gt 0 ]; then
	echo "mutants: survived: ${survivors[*]}"
fi
[ $survived = 0 ] && [ $errors = 0 ]
