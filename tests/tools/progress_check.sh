#!/usr/bin/env bash
# Long runs show a one-line status on a terminal and nothing when their
# output is not one: scripts/progress.py (make bench, make torture),
# `preempt torture` and `preempt latency -q -D`.  The terminal is a pty
# made by script(1) (util-linux, in Debian's essential bsdutils).  Each
# status is drawn once before the first wait, so no check hangs on timing.
# Usage: progress_check.sh SOURCE_DIR PREEMPT_TOOL
set -euo pipefail
src=$1 tool=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "progress_check: $*" >&2; exit 1; }
esc=$'\033'
cr=$'\r'
command -v script >/dev/null || { echo "progress_check: skipped: no script(1)"; exit 77; }
# COMMAND under a pty: all it wrote to the terminal in $tmp/tty, its
# status in $tmp/tty.rc.
on_tty() {
	local rc=0
	script -qec "$1" /dev/null >"$tmp/tty" </dev/null || rc=$?
	echo "$rc" >"$tmp/tty.rc"
}

p="$src/scripts/progress.py --label demo --part '^== (.*) ==\$' --count '^ok' --total 2"
job="sh -c 'echo \"== one ==\"; echo ok; echo \"== two ==\"; exit 3'"

# Not a terminal: the command's own output, byte for byte, its status.
rc=0
eval "$p -- $job" >"$tmp/plain" 2>&1 || rc=$?
[ "$rc" = 3 ] || fail "progress.py exit $rc, not the command's 3"
printf '== one ==\nok\n== two ==\n' | cmp -s - "$tmp/plain" ||
	fail "progress.py changed output that is not a terminal: $(od -c "$tmp/plain")"

# A terminal: the status line, the parts and counts seen, erased last.
on_tty "$p -- $job"
[ "$(cat "$tmp/tty.rc")" = 3 ] || fail "progress.py on a tty: exit $(cat "$tmp/tty.rc")"
grep -aq "demo, part 2 (two), 1/2 done, 0:0[0-9] elapsed$esc\[K" "$tmp/tty" ||
	fail "no status line on a tty: $(od -c "$tmp/tty" | head -20)"
[ "$(tail -c 4 "$tmp/tty" | od -An -c | tr -d ' ')" = '\r033[K' ] ||
	fail "the status line is not erased at the end"
grep -aq "$esc\[K$cr$esc\[K== one ==" "$tmp/tty" || fail "output lines not drawn over the status"

# preempt torture: no status into a log; one on a terminal.
"$tool" torture --seconds 1 --seed 1 >"$tmp/out" 2>"$tmp/err" ||
	fail "preempt torture --seconds 1 failed: $(cat "$tmp/out" "$tmp/err")"
[ ! -s "$tmp/err" ] || fail "preempt torture wrote to a stderr that is no tty: $(cat "$tmp/err")"
if grep -q "$cr" "$tmp/out"; then fail "preempt torture drew a status into a file"; fi
on_tty "$tool torture --seconds 1 --seed 1"
[ "$(cat "$tmp/tty.rc")" = 0 ] || fail "preempt torture on a tty: exit $(cat "$tmp/tty.rc")"
grep -aq "${cr}torture: 0/1 s, round 1, [0-9]* irqs, 0 reports$esc\[K" "$tmp/tty" ||
	fail "preempt torture drew no status on a tty: $(od -c "$tmp/tty" | head -20)"
grep -aq "reports$esc\[K$cr$esc\[K" "$tmp/tty" ||
	fail "preempt torture did not erase its status line: $(od -c "$tmp/tty" | head -30)"

# preempt latency -q -D: the same.
"$tool" latency -q -D 1 >"$tmp/out" 2>"$tmp/err" || fail "preempt latency -q -D 1 failed"
[ ! -s "$tmp/err" ] || fail "preempt latency wrote to a stderr that is no tty: $(cat "$tmp/err")"
on_tty "$tool latency -q -D 1"
grep -aq "${cr}[0-1]/1 s, [0-9]* cycles$esc\[K" "$tmp/tty" ||
	fail "preempt latency -q -D drew no status on a tty: $(od -c "$tmp/tty" | head -20)"
echo "progress_check: silent without a terminal, a status line on one (progress.py, torture, latency)"
