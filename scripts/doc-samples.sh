#!/usr/bin/env bash
# Regenerate, or check, the command samples in docs/*.md.  A sample is
#
#   <!-- sample: preempt ARGS... -->
#   ```
#   ...the command's output...
#   ```
#   <!-- end sample -->
#
# and its body is the output of `preempt ARGS` run from the top of the
# tree (stdout, then "exit status N" when it is not 0), with the build's
# tests/ directory on PATH for the programs `audit --run` samples run.
# Usage: scripts/doc-samples.sh [--check] PREEMPT_BINARY [DOC...]
set -euo pipefail

check=0
if [ "${1:-}" = "--check" ]; then
	check=1
	shift
fi
tool=$(realpath "$1")
shift
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
docs=("$@")
[ ${#docs[@]} -gt 0 ] || docs=(docs/*.md)

status=0
for doc in "${docs[@]}"; do
	new=$(mktemp)
	python3 - "$tool" "$doc" "$new" <<'PY'
import os, re, shlex, subprocess, sys
tool, doc, out = sys.argv[1:4]
text = open(doc).read()
pat = re.compile(r"(<!-- sample: preempt (.*?) -->\n```[a-z]*\n)(.*?)(```\n<!-- end sample -->)", re.S)
# `preempt audit --run PROGRAM` samples find the build's test programs
# (tests/audit_run_prog) by name.
env = dict(os.environ)
env["PATH"] = os.path.join(os.path.dirname(tool), "tests") + os.pathsep + env["PATH"]
def run(m):
    args = shlex.split(m.group(2))
    p = subprocess.run([tool] + args, capture_output=True, text=True, env=env)
    body = p.stdout
    if p.returncode:
        body += "exit status %d\n" % p.returncode
    return m.group(1) + body + m.group(4)
open(out, "w").write(pat.sub(run, text))
PY
	if [ $check -eq 1 ]; then
		if ! diff -u "$doc" "$new" >&2; then
			echo "doc-samples: $doc is stale: run 'make docs'" >&2
			status=1
		fi
		rm -f "$new"
	else
		mv "$new" "$doc"
	fi
done
exit $status
