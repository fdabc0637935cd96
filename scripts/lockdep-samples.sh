#!/usr/bin/env bash
# The report samples of docs/lockdep.md, produced by `preempt lockdep
# --scenario NAME` and normalized: addresses, PIDs, code offsets, taint
# and the frames of stack traces (which depend on the build) replaced.
#
# Usage: scripts/lockdep-samples.sh [--check|--update] PREEMPT_TOOL
#   --check   exit 1 unless every sample in docs/lockdep.md is what the
#             tool prints now (the test tools/lockdep-doc-samples)
#   --update  rewrite the samples in docs/lockdep.md
# Each sample sits between "<!-- sample: NAME -->" and "<!-- end -->".
set -euo pipefail

mode=$1
tool=$2
ROOT=$(cd "$(dirname "$0")/.." && pwd)
DOC=$ROOT/docs/lockdep.md

normalize() {
	sed -E \
		-e 's/[0-9a-f]{16} \(/0000000000000000 (/g' \
		-e 's/\+0x[0-9a-f]+\/0x[0-9a-f]+/+0x..\/0x../g' \
		-e 's#([A-Za-z_-]+)/[0-9]+([ :.]|$)#\1/NNNN\2#g' \
		-e 's/(Not tainted|Tainted: .*)$/Not tainted/' \
		-e 's/^CPU: [0-9]+ PID: NNNN Comm: ([^ ]+) .*/CPU: N PID: NNNN Comm: \1/' \
		-e 's/^CPU: [0-9]+ PID: [0-9]+ Comm: ([^ ]+) .*/CPU: N PID: NNNN Comm: \1/' |
		awk '
		function bar(c, n,  s) { s = ""; while (n-- > 0) s = s c; return s }
		/^       [A-Za-z_.][^ ]*\+0x/ || /^ +\?\?/ || /^ +\[</ {
			if (!skipping) print "       ..."; skipping = 1; next }
		{ skipping = 0 }
		/^=+$/ { pending = 1; next }
		pending { print bar("=", length($0)); title = $0; pending = 0 }
		/^-+$/ && title != "" { print bar("-", length(title)); title = ""; next }
		{ print }'
}

sample() {
	"$tool" lockdep --scenario "$1" 2>&1 >/dev/null | normalize
}

names=$(sed -n 's/^<!-- sample: \([a-z-]*\) -->$/\1/p' "$DOC")
tmp=$(mktemp)
trap 'rm -f "$tmp" "$tmp".*' EXIT
cp "$DOC" "$tmp"
for n in $names; do
	sample "$n" >"$tmp.$n"
	[ -s "$tmp.$n" ] || { echo "lockdep-samples: $n printed nothing" >&2; exit 1; }
	awk -v name="$n" -v file="$tmp.$n" '
		$0 == "<!-- sample: " name " -->" {
			print; print "```"; while ((getline l < file) > 0) print l
			print "```"; skip = 1; next }
		skip && $0 == "<!-- end -->" { skip = 0 }
		!skip { print }' "$tmp" >"$tmp.new"
	mv "$tmp.new" "$tmp"
done
case $mode in
--update) cp "$tmp" "$DOC" ;;
--check)
	if ! diff -u "$DOC" "$tmp"; then
		echo "lockdep-samples: docs/lockdep.md is stale:" \
			"scripts/lockdep-samples.sh --update build/preempt" >&2
		exit 1
	fi ;;
*) echo "usage: $0 --check|--update PREEMPT_TOOL" >&2; exit 2 ;;
esac
