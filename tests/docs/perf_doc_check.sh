#!/usr/bin/env bash
# The docs/PERFORMANCE.md generator (scripts/gen-performance.py), on a
# made-up run: the doc it writes passes --check, a hand edit or a template
# line missing from it fails --check, the verdict table takes a target's
# row from any bench-*.txt and says "not measured" for the others, and the
# facts and "@" lines are where they belong.  Cheap: no bench runs.
# Usage: perf_doc_check.sh SOURCE_DIR
set -euo pipefail

src=$1
gen=$src/scripts/gen-performance.py
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() {
	echo "FAIL: $*" >&2
	exit 1
}

mkdir "$tmp/run"
cat >"$tmp/run/bench-facts.txt" <<'F'
@fact cpu=Test CPU 9000
@fact cores=2
@fact loadavg=3.50 2.00 1.00 (1, 5, 15 min)
F
cat >"$tmp/run/bench-zz.txt" <<'F'
a table line 12.5
@verdict target=6; what=locks; ours=10 ns; anchor=20 ns; ratio=0.50x; verdict=met
@value hidden.key=1
F
cat >"$tmp/t.md.in" <<'F'
# Title

Some prose.

{{facts}}

## Verdicts

{{verdicts}}

## A section

{{file bench-zz.txt}}
F
python3 "$gen" "$tmp/run" "$tmp/t.md.in" "$tmp/doc.md" >/dev/null
python3 "$gen" --check "$tmp/doc.md" "$tmp/t.md.in" ||
	fail "a generated doc does not pass --check"
grep -q '^| 6 | locks | 10 ns | 20 ns | 0.50x | met | bench-zz.txt |$' \
	"$tmp/doc.md" || fail "target 6's row not in the verdict table"
for t in 1 2 3 4 5 7 8; do
	grep -q "^| $t | .* | not measured | - |\$" "$tmp/doc.md" ||
		fail "target $t not reported as not measured"
done
grep -q '^| CPU | Test CPU 9000 |$' "$tmp/doc.md" || fail "CPU fact missing"
grep -q '^| load average at start | 3.50 2.00 1.00' "$tmp/doc.md" ||
	fail "load average missing"
grep -q '^a table line 12.5$' "$tmp/doc.md" || fail "file block missing"
grep -q '^@' "$tmp/doc.md" && fail "an @ line leaked into the doc"

# A hand edit of a number: caught.
sed 's/12.5/11.5/' "$tmp/doc.md" >"$tmp/edited.md"
python3 "$gen" --check "$tmp/edited.md" "$tmp/t.md.in" >/dev/null &&
	fail "--check passes a hand-edited doc"
# A section the template has and the doc lacks: caught.
printf '\n## New section\n' >>"$tmp/t.md.in"
python3 "$gen" --check "$tmp/doc.md" "$tmp/t.md.in" >/dev/null &&
	fail "--check passes a doc missing a template section"
# No marker: caught.
tail -n +2 "$tmp/doc.md" >"$tmp/nomark.md"
python3 "$gen" --check "$tmp/nomark.md" "$tmp/t.md.in" >/dev/null &&
	fail "--check passes a doc without the generator's marker"
echo "ok"
