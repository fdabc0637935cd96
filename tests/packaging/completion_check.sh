#!/usr/bin/env bash
# The bash completion offers the tool's commands and a command's options.
# Usage: completion_check.sh COMPLETION_FILE PREEMPT_TOOL
set -euo pipefail
file=$1 tool=$2
fail() { echo "completion_check: $*" >&2; exit 1; }
# shellcheck disable=SC1090
source "$file"
complete_line() { # WORD... : COMPREPLY for the last word
	COMP_WORDS=("$tool" "$@")
	COMP_CWORD=$#
	COMPREPLY=()
	_preempt
	printf '%s\n' "${COMPREPLY[@]}"
}
got=$(complete_line de)
grep -qx decode <<<"$got" || fail "'preempt de<TAB>' does not offer decode: $got"
grep -qx demo <<<"$got" || fail "'preempt de<TAB>' does not offer demo: $got"
grep -qx latency <<<"$(complete_line "")" || fail "no latency among the commands"
got=$(complete_line decode --la)
[ "$got" = "--layout" ] || fail "'preempt decode --la<TAB>' gave '$got'"
got=$(complete_line demo --)
grep -qx -- --seconds <<<"$got" || fail "demo's options miss --seconds: $got"
echo "completion_check: commands and options complete"
