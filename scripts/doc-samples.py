#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Sample outputs in README.md and docs/*.md, produced by real runs.

A sample is a fenced block right after a marker line naming its command:

    <!-- sample: preempt latency -q -l 100 -t 2 -->
    ```
    ...output...
    ```

The command runs under bash in the build directory, with that directory
first in PATH (so `preempt` is the built tool), stderr joined to stdout.

  doc-samples.py BUILD [PATH..] rewrite the samples (of PATHs, default all)
                                from a fresh run
  doc-samples.py --check BUILD  exit 1 when a sample's structure no longer
                                matches its command's output: numbers
                                (decimal, hex, with the padding before
                                them) are masked, everything else compared
                                line by line.  A run that differs is tried
                                again (twice): some outputs depend on
                                scheduling, the structure of most does not.
"""
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# decode.md and audit.md have scripts/doc-samples.sh, lockdep.md has
# scripts/lockdep-samples.sh: each sample is checked by one script.
OWNED_ELSEWHERE = {"decode.md", "audit.md", "lockdep.md"}
FILES = ["README.md"] + sorted(
    os.path.join("docs", f)
    for f in os.listdir(os.path.join(ROOT, "docs"))
    if f.endswith(".md") and f not in OWNED_ELSEWHERE)
MARKER = re.compile(r"^<!-- sample: (.*) -->$")
TRIES = 3


def run(build, cmd):
    env = dict(os.environ, PATH=build + os.pathsep + os.environ["PATH"])
    p = subprocess.run(["bash", "-c", cmd], cwd=build, env=env,
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                       timeout=300)
    return p.stdout.decode(errors="replace").rstrip("\n").split("\n")


def mask(lines):
    out = []
    for line in lines:
        line = re.sub(r"\b0x[0-9a-fA-F]+\b|\b[0-9a-f]{8,16}\b", "H", line)
        line = re.sub(r" *-?\d+(\.\d+)?", "N", line)
        out.append(line.rstrip())
    return out


def samples(path):
    """(marker line index, command, first and past-last line of output)."""
    lines = open(os.path.join(ROOT, path)).read().split("\n")
    found = []
    for i, line in enumerate(lines):
        m = MARKER.match(line)
        if not m:
            continue
        if i + 1 >= len(lines) or not lines[i + 1].startswith("```"):
            sys.exit(f"{path}:{i + 1}: a sample marker needs a ``` block")
        end = i + 2
        while end < len(lines) and lines[end] != "```":
            end += 1
        found.append((i, m.group(1), i + 2, end))
    return lines, found


def main():
    args = sys.argv[1:]
    check = bool(args) and args[0] == "--check"
    if check:
        args = args[1:]
    if not args or (check and len(args) != 1):
        sys.exit(__doc__)
    build = os.path.abspath(args[0])
    bad = total = 0
    for path in args[1:] or FILES:
        lines, found = samples(path)
        for i, cmd, first, end in reversed(found):
            total += 1
            shown = lines[first:end]
            for attempt in range(TRIES):
                got = run(build, cmd)
                if not check or mask(got) == mask(shown):
                    break
            if check and mask(got) != mask(shown):
                bad += 1
                want, have = mask(shown), mask(got)
                n = next((k for k in range(max(len(want), len(have)))
                          if k >= len(want) or k >= len(have)
                          or want[k] != have[k]), 0)
                print(f"{path}:{first + 1 + n}: sample of `{cmd}` "
                      f"drifted:\n  doc: {shown[n] if n < len(shown) else '<end>'}"
                      f"\n  run: {got[n] if n < len(got) else '<end>'}")
            elif not check:
                lines[first:end] = got
        if not check:
            open(os.path.join(ROOT, path), "w").write("\n".join(lines))
    print(f"doc-samples: {total} samples, {bad} drifted")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
