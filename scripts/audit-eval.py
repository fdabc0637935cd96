#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Score `preempt audit` on Linux drivers/ against what upstream fixed.

Usage: audit-eval.py OLD_TREE OLD_JSON NEW_TREE NEW_JSON

OLD is Debian's linux-source 5.10 (stable 5.10 did not take the 2020-21
in_interrupt() cleanup's later waves), NEW is 6.1.  A site is a (file,
function, predicate) triple.  A site of OLD is "fixed upstream" when the
file and the function still exist in NEW but the function no longer uses
that predicate; "kept" when NEW still has it; "gone" when the file or the
function went away (left out of the scores).  Sites come from two
sources: the audit's findings, and an independent token scan of OLD that
counts predicate calls per file (the front end's coverage)."""
import collections
import json
import os
import re
import sys

PREDS = ["in_interrupt", "in_atomic", "in_softirq", "in_irq", "in_hardirq",
         "in_serving_softirq", "preemptible", "irqs_disabled", "in_task"]
CALL = re.compile(r"(?<![A-Za-z0-9_])(%s)\s*\(" % "|".join(PREDS))
BUG = {"gfp-choice", "sleep-choice", "decision", "passed-on"}
# Comments and string literals, which name predicates without calling them
# (kernel-doc's "Context: !in_interrupt()").
NOISE = re.compile(r'/\*.*?\*/|//[^\n]*|"(?:\\.|[^"\\\n])*"', re.S)


def load(path, tree):
    out = []
    for line in open(path):
        f = json.loads(line)
        f["rel"] = os.path.relpath(f["file"], tree)
        out.append(f)
    return out


def has_function(tree, rel, func):
    try:
        text = open(os.path.join(tree, rel), errors="replace").read()
    except OSError:
        return False
    return re.search(r"(?<![A-Za-z0-9_])%s\s*\(" % re.escape(func), text) is not None


def token_sites(tree):
    n = 0
    for root, _, files in os.walk(tree):
        for name in files:
            if name.endswith((".c", ".h")):
                text = open(os.path.join(root, name), errors="replace").read()
                n += len(CALL.findall(NOISE.sub(" ", text)))
    return n


def main():
    old_tree, old_json, new_tree, new_json = sys.argv[1:5]
    old = load(old_json, old_tree)
    new = load(new_json, new_tree)
    new_keys = {(f["rel"], f["function"], f["predicate"]) for f in new}
    fate = {}
    for f in old:
        key = (f["rel"], f["function"], f["predicate"])
        if key in new_keys:
            fate[key] = "kept"
        elif has_function(new_tree, f["rel"], f["function"]):
            fate[key] = "fixed"
        else:
            fate[key] = "gone"
    by_rule = collections.defaultdict(collections.Counter)
    for f in old:
        key = (f["rel"], f["function"], f["predicate"])
        by_rule[f["rule"]][fate[key]] += 1
    fixed_keys = {k for k, v in fate.items() if v == "fixed"}
    bug_keys = {(f["rel"], f["function"], f["predicate"]) for f in old
                if f["rule"] in BUG}
    tp = len(fixed_keys & bug_keys)
    flagged = {k for k in bug_keys if fate[k] != "gone"}
    precision = tp / len(flagged) if flagged else 0.0
    recall = tp / len(fixed_keys) if fixed_keys else 0.0
    print("old findings %d, new findings %d" % (len(old), len(new)))
    print("call sites outside comments and strings in old drivers/ by a "
          "token scan: %d (audit findings: %d)"
          % (token_sites(old_tree), len(old)))
    print("%-14s %6s %6s %6s" % ("rule", "fixed", "kept", "gone"))
    for rule in ["gfp-choice", "sleep-choice", "decision", "passed-on",
                 "assertion"]:
        c = by_rule[rule]
        print("%-14s %6d %6d %6d" % (rule, c["fixed"], c["kept"], c["gone"]))
    print("sites fixed upstream: %d; flagged as a bug pattern: %d of them"
          % (len(fixed_keys), tp))
    print("precision %.2f (%d of %d bug-pattern sites that survive were "
          "fixed)" % (precision, tp, len(flagged)))
    print("recall %.2f (%d of %d fixed sites were flagged as a bug "
          "pattern)" % (recall, tp, len(fixed_keys)))


if __name__ == "__main__":
    main()
