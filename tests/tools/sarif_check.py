#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Structural check of a SARIF 2.1.0 log against the schema's required
properties and value constraints (docs.oasis-open.org/sarif/sarif/v2.1.0,
sarif-schema-2.1.0.json).  There is no network here to fetch the schema,
so by default the subset `preempt audit` emits is checked by hand: every
property the schema requires, every enum it constrains, and the
cross-references (ruleIndex -> rules[]), which the schema cannot express.

With `--schema FILE` the log is validated against the official schema
instead (python3-jsonschema, draft 4 as the schema declares; the file is
fetched by scripts/sarif-schema.sh).  Exit 0 when valid, 1 with the first
error, 77 (a skip) when the schema or jsonschema is missing."""
import json
import sys

LEVELS = {"none", "note", "warning", "error"}


class Invalid(Exception):
    pass


def need(cond, what):
    if not cond:
        raise Invalid(what)


def check_message(m, where):
    need(isinstance(m, dict), where + ": message is not an object")
    need(isinstance(m.get("text"), str) or isinstance(m.get("id"), str),
         where + ": message needs text or id")


def check_region(r, where):
    need(isinstance(r, dict), where + ": region is not an object")
    for k in ("startLine", "startColumn", "endLine", "endColumn"):
        if k in r:
            need(isinstance(r[k], int) and r[k] >= 1,
                 where + ": region.%s must be an integer >= 1" % k)


def check_location(loc, where):
    need(isinstance(loc, dict), where + ": location is not an object")
    pl = loc.get("physicalLocation")
    if pl is None:
        return
    need(isinstance(pl, dict), where + ": physicalLocation not an object")
    al = pl.get("artifactLocation")
    need(isinstance(al, dict) and isinstance(al.get("uri"), str),
         where + ": artifactLocation.uri must be a string")
    if "region" in pl:
        check_region(pl["region"], where)


def check_rule(rule, where):
    need(isinstance(rule, dict), where + ": rule is not an object")
    need(isinstance(rule.get("id"), str), where + ": rule.id required")
    for k in ("shortDescription", "fullDescription", "help"):
        if k in rule:
            need(isinstance(rule[k].get("text"), str),
                 where + ": %s.text required" % k)
    dc = rule.get("defaultConfiguration")
    if dc is not None:
        need(dc.get("level", "warning") in LEVELS,
             where + ": defaultConfiguration.level not in the enum")


def check_run(run, i):
    where = "runs[%d]" % i
    need(isinstance(run, dict), where + " is not an object")
    tool = run.get("tool")
    need(isinstance(tool, dict), where + ": tool required")
    driver = tool.get("driver")
    need(isinstance(driver, dict), where + ": tool.driver required")
    need(isinstance(driver.get("name"), str), where + ": driver.name required")
    rules = driver.get("rules", [])
    need(isinstance(rules, list), where + ": rules must be an array")
    for j, rule in enumerate(rules):
        check_rule(rule, "%s.rules[%d]" % (where, j))
    ids = [r["id"] for r in rules]
    need(len(ids) == len(set(ids)), where + ": rule ids must be unique")
    results = run.get("results", [])
    need(isinstance(results, list), where + ": results must be an array")
    for j, res in enumerate(results):
        w = "%s.results[%d]" % (where, j)
        need(isinstance(res, dict), w + " is not an object")
        check_message(res.get("message"), w)
        if "level" in res:
            need(res["level"] in LEVELS, w + ": level not in the enum")
        if "ruleIndex" in res:
            k = res["ruleIndex"]
            need(isinstance(k, int) and 0 <= k < len(rules),
                 w + ": ruleIndex out of range")
            if "ruleId" in res:
                need(rules[k]["id"] == res["ruleId"],
                     w + ": ruleId does not match rules[ruleIndex].id")
        for n, loc in enumerate(res.get("locations", [])):
            check_location(loc, "%s.locations[%d]" % (w, n))


def check(doc):
    need(isinstance(doc, dict), "the log is not an object")
    need(doc.get("version") == "2.1.0", "version must be \"2.1.0\"")
    if "$schema" in doc:
        need(isinstance(doc["$schema"], str), "$schema must be a string")
    runs = doc.get("runs")
    need(isinstance(runs, list), "runs must be an array")
    for i, run in enumerate(runs):
        check_run(run, i)


SKIP = 77


def check_schema(schema_path, log_path):
    try:
        import jsonschema
        with open(schema_path) as f:
            schema = json.load(f)
    except (ImportError, OSError) as e:
        print("sarif_check: skipped: %s" % e)
        return SKIP
    with open(log_path) as f:
        doc = json.load(f)
    errors = sorted(jsonschema.Draft4Validator(schema).iter_errors(doc),
                    key=lambda e: list(e.absolute_path))
    if errors:
        e = errors[0]
        where = "/".join(str(p) for p in e.absolute_path) or "(root)"
        raise Invalid("schema: %s: %s" % (where, e.message))
    return 0


def main():
    try:
        if sys.argv[1] == "--schema":
            return check_schema(sys.argv[2], sys.argv[3])
        with open(sys.argv[1]) as f:
            check(json.load(f))
    except (Invalid, ValueError, OSError, IndexError) as e:
        print("sarif_check: invalid: %s" % e)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
