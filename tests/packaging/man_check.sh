#!/usr/bin/env bash
# The man pages render without a warning from man, every command of the
# tool has its page, and every option a command's --help names is in it.
# Usage: man_check.sh MAN_DIR PREEMPT_TOOL
set -euo pipefail
dir=$1 tool=$2
fail() { echo "man_check: $*" >&2; exit 1; }
n=0
for page in "$dir"/*.[13]; do
	# An alias (.so another page) is checked through that page.
	read -r first <"$page" && [ "${first#.so }" != "$first" ] && continue
	warnings=$(MANWIDTH=80 man --warnings -l "$page" 2>&1 >/dev/null)
	[ -z "$warnings" ] || fail "$(basename "$page"): $warnings"
	n=$((n + 1))
done
[ "$n" -gt 0 ] || fail "no pages in $dir"
for p in preempt.1 libpreempt.3; do
	[ -f "$dir/$p" ] || fail "no $p"
done
commands=$("$tool" help | awk '/^commands:/ { on = 1; next } on && /^  [a-z]/ { print $1 }')
[ -n "$commands" ] || fail "preempt help lists no commands"
for cmd in $commands; do
	page=$dir/preempt-$cmd.1
	[ -f "$page" ] || fail "no page for 'preempt $cmd'"
	# An alias page sources another: check that one.
	if read -r first <"$page" && [ "${first#.so }" != "$first" ]; then
		page=$dir/$(basename "${first#.so }")
		[ -f "$page" ] || fail "$cmd's page sources a missing $page"
	fi
	text=$(MANWIDTH=200 man -l "$page" 2>/dev/null)
	grep -qw -- "$cmd" <<<"$(MANWIDTH=200 man -l "$dir/preempt.1" |
		sed -n '/^COMMANDS/,/^OPTIONS/p')" ||
		fail "preempt(1) does not list the command $cmd"
	for opt in $("$tool" "$cmd" --help 2>&1 |
		grep -oE -- '(^|[[ ,])--[a-z][a-z0-9-]*' | sed -E 's/^[[ ,]//' |
		sort -u); do
		grep -qF -- "$opt" <<<"$text" ||
			fail "preempt-$cmd(1) does not document $opt"
	done
done
echo "man_check: $n pages, every command and option documented"
