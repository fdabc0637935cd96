#!/usr/bin/env python3
# The file of `preempt latency --model all --json=F -l CYCLES -t THREADS`
# (tests/tools/test_latency.c): rt-tests 2.x's top level, "thread" being
# the last model's, and "models" holding every model, in the order run,
# each thread with CYCLES cycles and its histogram counting them all.
# Usage: latency_json_check.py FILE CYCLES THREADS MODEL...
import json
import sys

path, cycles, threads = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
models = sys.argv[4:]
with open(path) as f:
    doc = json.load(f)


def fail(msg):
    sys.exit(f"latency_json_check: {msg}")


def check_threads(where, obj):
    if sorted(obj) != [str(i) for i in range(threads)]:
        fail(f"{where}: threads {sorted(obj)}")
    for k, t in obj.items():
        if t["cycles"] != cycles:
            fail(f"{where}: thread {k}: {t['cycles']} cycles")
        if not t["min"] <= t["avg"] <= t["max"]:
            fail(f"{where}: thread {k}: min/avg/max out of order")


if doc.get("num_threads") != threads:
    fail("num_threads")
check_threads("thread", doc["thread"])
if list(doc.get("models", {})) != models:
    fail(f"models: {list(doc.get('models', {}))}, not {models}")
for m in models:
    if list(doc["models"][m]) != ["thread"]:
        fail(f"models.{m}: keys {list(doc['models'][m])}")
    check_threads(f"models.{m}.thread", doc["models"][m]["thread"])
# The top-level "thread" is the last model's.
if doc["thread"] != doc["models"][models[-1]]["thread"]:
    fail("thread is not the last model's")
print(f"latency_json_check: {len(models)} models, {threads} threads each")
