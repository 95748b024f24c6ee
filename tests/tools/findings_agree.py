#!/usr/bin/env python3
"""findings_agree: every format numbers a diff's findings alike.

    PROFDIFF=... python3 tests/tools/findings_agree.py LABEL ARG ... [:: LABEL ARG ...]

For each pair (LABEL, then profdiff diff's arguments), profdiff diff
writes the report as JSON, CSV, Markdown and text, all rows (-n 0),
and this checks that each row carries the same finding number in all
four, 1 for #1 (JSON null, an empty CSV cell, no #N for none); that the
JSON findings are numbered 1, 2, ... in their order, as the text's #N
lines are, each with "name" (a row's key) equal to "function" (its
older spelling); and that a finding's function's row has its number.
Once JSON rows said 0 for #1 while CSV said 1 (issue 30).

One line per pair, "ok LABEL: ..." or "not ok LABEL: why"; exit 1 if
any pair fails.
"""
import csv
import io
import json
import os
import re
import shlex
import subprocess
import sys

TEXT_ROW = re.compile(r"^(?:.*?\S)  (regressed|improved|crowded out|"
                      r"crowded in|~|too few samples)( flat)?(?: #(\d+))? +"
                      r"(\S.*)$")
TEXT_FINDING = re.compile(r"^#(\d+) (regressed|improved) ")


def run(args, fmt):
    cmd = shlex.split(os.environ["PROFDIFF"]) + ["diff", "-q", "-n", "0",
                                                  "-f", fmt] + args
    out = subprocess.run(cmd, stdout=subprocess.PIPE,
                         stderr=subprocess.DEVNULL, check=False)
    return out.stdout.decode("utf-8", "replace")


def num(v):
    return None if v in (None, "") else int(v)


def from_json(doc):
    rows = {r["name"]: r["finding"] for r in doc["rows"]}
    return rows, doc["findings"]


def from_csv(text):
    return {r["name"]: num(r["finding"])
            for r in csv.DictReader(io.StringIO(text))}


def from_markdown(text):
    rows = {}
    for line in text.splitlines():
        m = re.match(r"^\| .* \| (\*\*)?([^|]*?)(\*\*)? \| `(.*)` \|$", line)
        if m is None:
            continue
        f = re.search(r"#(\d+)", m.group(2))
        rows[m.group(4)] = int(f.group(1)) if f else None
    return rows


def from_text(text):
    rows, findings, table = {}, [], False
    for line in text.splitlines():
        m = TEXT_FINDING.match(line)
        if m and not table:
            findings.append(int(m.group(1)))
        if line.lstrip().startswith("base flat"):
            table = True
            continue
        if not table or re.match(r"^    (path|callers|per \S+):", line):
            continue
        m = TEXT_ROW.match(line)
        if m:
            rows[m.group(4)] = num(m.group(3))
    return rows, findings


def check(args):
    doc = json.loads(run(args, "json"))
    jrows, jfind = from_json(doc)
    crows = from_csv(run(args, "csv"))
    mrows = from_markdown(run(args, "markdown"))
    trows, tfind = from_text(run(args, "text"))
    for name, rows in (("CSV", crows), ("Markdown", mrows), ("text", trows)):
        if rows != jrows:
            diff = sorted(k for k in set(rows) | set(jrows)
                          if rows.get(k, "?") != jrows.get(k, "?"))
            return "JSON and %s disagree on %s" % (name, ", ".join(
                "%s (%s, %s)" % (k, jrows.get(k, "no row"),
                                 rows.get(k, "no row")) for k in diff[:3]))
    for i, f in enumerate(jfind):
        if f.get("finding") != i + 1:
            return "JSON finding %d is numbered %r" % (i + 1,
                                                       f.get("finding"))
        if f.get("name") != f.get("function"):
            return "JSON finding %d: name %r, function %r" % (
                i + 1, f.get("name"), f.get("function"))
        if jrows.get(f["name"], i + 1) != i + 1:
            return "finding %d's row %s says %r" % (i + 1, f["name"],
                                                     jrows[f["name"]])
    if tfind != list(range(1, len(jfind) + 1)):
        return "the text numbers its findings %r, JSON has %d" % (
            tfind, len(jfind))
    if not any(v is not None for v in jrows.values()):
        return "no row belongs to a finding: nothing was compared"
    return None, len(jrows), len(jfind)


def main(argv):
    pairs, cur = [], []
    for a in argv[1:]:
        if a == "::" and cur:
            pairs.append(cur)
            cur = []
        else:
            cur.append(a)
    if cur:
        pairs.append(cur)
    bad = 0
    for p in pairs:
        r = check(p[1:])
        if isinstance(r, str):
            bad += 1
            print("not ok %s: %s" % (p[0], r))
        else:
            print("ok %s: %d rows, %d findings, numbered alike in JSON, "
                  "CSV, Markdown and text" % (p[0], r[1], r[2]))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
