#!/usr/bin/env python3
"""invariants: what every diff report must say of itself, in every format.

    python3 tests/tools/invariants.py PROFDIFF [NAME-REGEX]

Run by tests/invariants.sh (make check, through tests/run.sh), from the
repository root.  The cases are every invocation of profdiff diff or
check-significance on profiles that a CLI case (tests/cli/*.cmd) runs,
but those whose arguments are shell variables ($t, $URL: made at run
time or served), and every pair of tests/expected/diff/ (the
conformance pairs).  Each is
run again with -q -n 0 (all rows) in each format: text, markdown, json,
csv and svg.  The options that only shape the output (-f, -n, -o, -q,
--sort, --color, --list, --peek, --source-path, --save) are dropped, the
rest kept, and invocations that differ in nothing else are run once.  A
case that profdiff refuses (exit 2 on the text) is an error case, not a
report: it is skipped and counted.

The checks, each passed or failed once per case:

interval  Every row's interval holds its own delta (ci_low <= delta <=
          ci_high): the delta of the hypothesis the interval is of (the
          row's `hypothesis`: the flat share's change, new flat - base
          flat, for "flat"; else the delta column), in the units shown
          (points, or a rate or value with --normalize): on JSON's exact
          numbers, which the json check ties to the text's as printed,
          and on the points of JSON and CSV.  The same for every
          finding.
sign      A verdict's sign is its delta's: regressed and crowded in
          above zero, improved and crowded out below (README, "Verdict"
          and "crowded out"), of the hypothesis's delta as above; and no
          interval lies wholly on the other side of zero from its
          verdict.  The same for findings.
finding   A finding's numbers are its row's: the delta, interval and q
          of its function's row (of the same hypothesis, as the row reads
          them), whose verdict and finding number are the finding's.
agree     Text, Markdown, JSON and CSV give the same rows in the same
          order, each with the same verdict (and "flat") and finding
          number; the same findings (number, verdict, function, and the
          text's numbers in Markdown); the same exit status.  The SVG's
          frames are call paths, not functions, and are tested as a
          family of their own (of the quantity the table compares,
          against its denominators), so a frame and a row may differ in
          significance; what must agree: each frame's title gives the
          verdict of its own change's sign (grew above 0, shrank below:
          the change of the table's quantity, "B -> N: +D" in its unit
          when that is not shares, else the "+D pp" of its shares) and
          its colour is its verdict's (red grew, blue shrank, grey
          otherwise); and where the frames of a row's function that no
          frame of it is above (one, but for a function called from
          several paths or recursion: a frame's parent is the frame below
          it that spans its x) hold all of its samples (their titles'
          "samples: base A, new B" add up to the row's), they are the
          row's cum counts: their changes add up to the row's delta (to
          the titles' 0.01 pp with shares, else to their printed
          precision), and the SVG does not go the
          other way from a row's verdict of its cum (not "flat"): their
          change together is not of the other sign with one of them drawn
          significant that way (grew against improved or crowded out,
          shrank against regressed or crowded in).  A frame significant
          where its row is not, or the reverse, is no contradiction: the
          families differ.
svg       The SVG parses as XML (xml.etree).
json      The JSON parses, and its numbers are the text's, to the text's
          printed precision: each side's samples, the family, the
          hypotheses tested, the intervals' level, the threshold (and with
          shares the noise and the detectable change) of the header;
          flat and cum (the flat normalized as its cum is), delta, rel,
          interval, p and q of every row; the findings' delta, interval
          and q; and its points are its units' (delta_pp over ci_low_pp
          is delta over ci_low).
csv       The CSV has one column count on every line (csv module), and
          its rows are JSON's: names, values, verdicts, findings.

Prints "ok CASE: CHECK" lines only with VERBOSE set, every "FAIL CASE:
CHECK: ..." line with up to 5 indented lines of what failed, then
"invariants: N passed, N failed, N skipped".  Exit 1 if any failed.
INVARIANTS_JOBS (default 2) runs that many profdiff at a time;
INVARIANTS_ONLY, a regular expression, keeps the cases it matches
(and runs no mutants).  The mutants (MUTANTS, at the end) write the
contradictions issue 30 found into real reports, and each must be caught
by the check that is there for it: a parser that went blind fails them.
"""
import concurrent.futures
import csv
import glob
import io
import json
import os
import re
import shlex
import subprocess
import sys
import xml.etree.ElementTree as ET

FORMATS = ("text", "markdown", "json", "csv", "svg")
CHECKS = ("interval", "sign", "finding", "agree", "svg", "json", "csv")
# Options that only shape the output, with the value they take (1) or not.
DROP = {"-f": 1, "--format": 1, "-n": 1, "--rows": 1, "-nodecount": 1,
        "--nodecount": 1, "-o": 1, "--output": 1, "-output": 1,
        "--sort": 1, "--color": 1, "--list": 1, "-list": 1, "--peek": 1,
        "-peek": 1, "--source-path": 1, "-source_path": 1, "--save": 1,
        "-q": 0, "--quiet": 0, "-top": 0, "-text": 0, "-flat": 0,
        "-cum": 0}
OTHER_COMMANDS = {"top", "series", "check-series", "help", "version"}
PUNCT = set(";&|<>()")
SHELL_VAR = re.compile(r"\$[A-Za-z_{(?0-9@*#!]")
# Where find_profile() of tests/conformance.sh looks, in its order.
PROFILE_DIRS = ("tests/data/corpus", "tests/data/pprof-testdata", "examples",
                "../shared/corpus", "tests/data/types")

# The text's and Markdown's verdict cells, and JSON's and CSV's names.
# Against an exposure (rates, values) a crowded row "fell with" or
# "rose with" its finding; the share words last, for the reverse map.
VERDICTS = {"~": "unchanged", "too few samples": "insufficient",
            "fell with": "crowded_out", "rose with": "crowded_in",
            "crowded out": "crowded_out", "crowded in": "crowded_in",
            "regressed": "regressed", "improved": "improved"}
UP = {"regressed": 1, "crowded_in": 1, "improved": -1, "crowded_out": -1}
# A row set aside alone as the runtime's load is "~ scheduler" or "~
# other threads" or "~ profiler" (findings.c): unchanged, with what it is;
# one whose change only moved between its frame and a caller's, "~ moved".
LOAD = r"(?: (?:scheduler|other threads|profiler|moved))"
VERDICT_CELL = re.compile(r"^(~|too few samples|crowded out|crowded in|"
                          r"fell with|rose with|"
                          r"regressed|improved)( flat)?(?: #(\d+)|" + LOAD +
                          r")?$")
TEXT_ROW = re.compile(r"^ *(\S+) +(\S+) +(\S+) +(\S+) +(\S+) +(\S+) +"
                      r"(-|\[\S+, \S+\]) +(\S+) +(\S+)  (~|too few samples|"
                      r"crowded out|crowded in|fell with|rose with|"
                      r"regressed|improved)"
                      r"( flat)?(?: #(\d+)|" + LOAD + r")? +(.*)$")
TEXT_FINDING = re.compile(r"^#(\d+) (regressed|improved) (\S+)( flat)? "
                          r"\[(\S+), (\S+)\] q (\S+)  (.*)$")
MD_FINDING = re.compile(r"^(\d+)\. \*\*(.*?)\*\*: ")

# Units as the text prints them (support/units.c), to one base unit of
# their family: nanoseconds, bytes.
SUFFIX = {"ns": ("time", 1), "us": ("time", 1e3), "\u03bcs": ("time", 1e3),
          "ms": ("time", 1e6), "s": ("time", 1e9), "hrs": ("time", 3.6e12),
          "B": ("bytes", 1), "kB": ("bytes", 1024.0),
          "MB": ("bytes", 1048576.0), "GB": ("bytes", 1073741824.0),
          "TB": ("bytes", 1099511627776.0),
          "PB": ("bytes", 1125899906842624.0)}
VALUE = re.compile(r"^([+-]?)(\d+(?:\.(\d+))?)([A-Za-z\u03bc]*)(/s|/req)?$")


def unitinfo(name):
    """A profile's unit to (family, factor), as pprof looks it up."""
    if name is None:
        return (None, 1)
    u = name.lower()
    if len(u) > 2 and u.endswith("s"):
        u = u[:-1]
    table = {"b": "B", "byte": "B", "kb": "kB", "kbyte": "kB",
             "kilobyte": "kB", "mb": "MB", "mbyte": "MB", "megabyte": "MB",
             "gb": "GB", "gbyte": "GB", "gigabyte": "GB", "tb": "TB",
             "tbyte": "TB", "terabyte": "TB", "pb": "PB", "pbyte": "PB",
             "petabyte": "PB", "n": "ns", "ns": "ns", "nanosecond": "ns",
             "u": "us", "us": "us", "\u03bcs": "us", "microsecond": "us",
             "m": "ms", "ms": "ms", "millisecond": "ms", "s": "s",
             "sec": "s", "second": "s", "hr": "hrs", "hour": "hrs"}
    if name in SUFFIX:
        return SUFFIX[name]
    if u in table:
        return SUFFIX[table[u]]
    return (None, 1)


class Num:
    """A printed number: its value in base units, and how far off it
    may be from what was printed (half its last digit, and half a base
    unit, which the text rounds values to before printing them)."""

    def __init__(self, value, tol):
        self.v = value
        self.tol = tol

    def __repr__(self):
        return "%g" % self.v


def parse_value(s, pct, zero=1.0):
    """A cell of the text's table: pct for shares and points (percent),
    else a value in its unit, optionally per second or request.  A value
    printed as 0 has no unit: zero is the factor of the unit it was
    rounded in (--unit's), 1 for each value in its own."""
    if pct:
        m = re.match(r"^([+-]?\d+(?:\.(\d+))?)(%|pp)?$", s)
        if not m:
            return None
        d = len(m.group(2) or "")
        return Num(float(m.group(1)), 0.5 * 10 ** -d + 1e-9)
    m = VALUE.match(s)
    if not m:
        return None
    sign, num, dec, unit = m.group(1), m.group(2), m.group(3), m.group(4)
    fam, factor = SUFFIX.get(unit, (None, 1)) if unit else (None, 1)
    if unit and fam is None:
        return None
    v = float(num) * factor * (-1 if sign == "-" else 1)
    # "%.2f" with ".00" dropped: two decimals either way.
    d = len(dec) if dec else 2
    if v == 0 and not unit:
        factor = zero
    return Num(v, 0.5 * 10 ** -d * factor + 0.5 + 1e-9 * abs(v))


def parse_p(s):
    """report_put_p(): "-", "<1e-300", "%.1e" under 0.001, else "%.3f"."""
    if s == "-":
        return None
    if s == "<1e-300":
        return Num(0.0, 1e-300)
    if "e" in s:
        mant, exp = s.split("e")
        return Num(float(s), 0.05 * 10 ** int(exp) + 1e-300)
    return Num(float(s), 0.0005 + 1e-12)


def close(a, b, tol):
    return abs(a - b) <= tol


def fmt(v):
    if v is None:
        return "null"
    if isinstance(v, float):
        return "%.6g" % v
    return str(v)


class Case:
    def __init__(self, label, args):
        self.label = label
        self.args = args        # [command, options and operands...]
        self.out = {}
        self.rc = {}
        self.err = {}
        self.fails = {}         # check -> [lines]
        self.zero = 1.0         # what a 0 printed was rounded in

    def fail(self, check, line):
        self.fails.setdefault(check, []).append(line)


# ---------------------------------------------------------------- cases

def invocations(text):
    """The argument lists of every $PROFDIFF command in a shell line."""
    lex = shlex.shlex(text, posix=True, punctuation_chars=";&|<>()")
    lex.whitespace_split = True
    try:
        toks = list(lex)
    except ValueError:
        return []
    out = []
    for i, t in enumerate(toks):
        if t != "$PROFDIFF":
            continue
        args = []
        for u in toks[i + 1:]:
            if u and all(c in PUNCT for c in u):
                # A descriptor before a redirection is not an operand.
                if args and args[-1].isdigit() and u[0] in "<>":
                    args.pop()
                break
            args.append(u)
        if any(SHELL_VAR.search(a) for a in args):
            continue
        out.append(args)
    return out


def normalize(args):
    """[command, kept args...], or None if not a diff or check."""
    if not args:
        return None
    if args[0] in ("diff", "check-significance"):
        cmd, rest = args[0], args[1:]
    elif args[0] in OTHER_COMMANDS or args[0] in ("-h", "--help",
                                                   "--version"):
        return None
    else:
        cmd, rest = "diff", args
    kept, i = [], 0
    while i < len(rest):
        a = rest[i]
        if a == "--":
            kept.extend(rest[i:])
            break
        name = a.split("=", 1)[0]
        if name in DROP:
            i += 1 + (DROP[name] if "=" not in a else 0)
            continue
        # Short options run together: -n3, -qn3, -fcsv (not -files).
        if re.match(r"^-(q?n\d+|q|f(text|markdown|json|csv|svg|folded))$",
                    a):
            i += 1
            continue
        kept.append(a)
        i += 1
    return [cmd] + kept


def find_profile(name):
    for d in PROFILE_DIRS:
        p = os.path.join(d, name)
        if os.path.isfile(p):
            return p
    return None


def cases():
    seen, out, skipped = set(), [], []
    for c in sorted(glob.glob("tests/cli/*.cmd")):
        name = os.path.basename(c)[:-4]
        with open(c, encoding="utf-8", errors="replace") as f:
            text = f.read()
        if "../shared/corpus/" in text and not os.path.isdir(
                "../shared/corpus"):
            continue
        for k, args in enumerate(invocations(text)):
            n = normalize(args)
            if n is None or tuple(n) in seen:
                continue
            seen.add(tuple(n))
            label = "cli/%s%s" % (name, "" if k == 0 else "#%d" % (k + 1))
            out.append(Case(label, n))
    for g in sorted(glob.glob("tests/expected/diff/*.txt")):
        b = os.path.basename(g)[:-4]
        index = b.rsplit(".", 1)[1]
        pair = b.rsplit(".", 1)[0]
        base, new = pair.split("--", 1)
        bp, np_ = find_profile(base), find_profile(new)
        if bp is None or np_ is None:
            skipped.append("conformance/" + b)
            continue
        n = ["diff", "-i", index, bp, np_]
        if tuple(n) in seen:
            continue
        seen.add(tuple(n))
        out.append(Case("conformance/" + b, n))
    return out, skipped


def run(profdiff, case, fmt_):
    argv = profdiff + [case.args[0], "-q", "-n", "0", "-f", fmt_] + \
        case.args[1:]
    p = subprocess.run(argv, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, check=False)
    # Invalid UTF-8 kept byte for byte (lone surrogates), as written.
    case.out[fmt_] = p.stdout.decode("utf-8", "surrogateescape")
    case.rc[fmt_] = p.returncode
    case.err[fmt_] = p.stderr.decode("utf-8", "replace")


# -------------------------------------------------------------- parsers

def parse_text(text, pct):
    """(findings, rows) of the text report; each a dict of its cells."""
    findings, rows, table = [], [], False
    lines = text.split("\n")
    for line in lines:
        if not table:
            m = TEXT_FINDING.match(line)
            if m:
                findings.append({
                    "n": int(m.group(1)), "verdict": m.group(2),
                    "delta_s": m.group(3), "flat": bool(m.group(4)),
                    "lo_s": m.group(5), "hi_s": m.group(6),
                    "q_s": m.group(7), "rest": m.group(8),
                    "line": line})
            if line.lstrip().startswith("base flat ") and \
                    "verdict" in line:
                table = True
            continue
        if line == "" or line.startswith("Result:"):
            break
        if line.startswith(" " * 11) or re.match(
                r"^    (path|callers|per \S+):", line):
            continue
        m = TEXT_ROW.match(line)
        if not m:
            rows.append({"bad": line})
            continue
        g = m.groups()
        rows.append({"cells": list(g[:9]), "verdict": VERDICTS[g[9]],
                     "flat": bool(g[10]),
                     "finding": int(g[11]) if g[11] else None,
                     "name": g[12], "line": line})
    return findings, rows


def parse_md(text):
    findings, rows, table = [], [], 0
    for line in text.split("\n"):
        m = MD_FINDING.match(line)
        if m and not table:
            findings.append((int(m.group(1)), m.group(2)))
            continue
        if line.startswith("| base flat |"):
            table = 1
            continue
        if table == 1:
            table = 2
            continue
        if table == 2:
            if not line.startswith("| "):
                break
            body = line[2:-2] if line.endswith(" |") else line[2:]
            cells = body.split(" | ", 10)
            if len(cells) != 11:
                rows.append({"bad": line})
                continue
            v = cells[9]
            if v.startswith("**") and v.endswith("**"):
                v = v[2:-2]
            m = VERDICT_CELL.match(v)
            if not m:
                rows.append({"bad": line})
                continue
            rows.append({"cells": cells[:9], "verdict": VERDICTS[m.group(1)],
                         "flat": bool(m.group(2)),
                         "finding": int(m.group(3)) if m.group(3) else None,
                         "name": cells[10], "line": line})
    return findings, rows


def md_name(name):
    return "`" + "".join("\\|" if c == "|" else "'" if c == "`" else
                         " " if ord(c) < 0x20 else c for c in name) + "`"


def fffd(s):
    """A name as printed, each byte of invalid UTF-8 as U+FFFD, as
    JSON writes it (the text passes such bytes through)."""
    return re.sub("[\udc80-\udcff]", "\ufffd", s)


def csv_name(name):
    """A name as CSV may neutralize it for spreadsheets: a ' before a
    cell that would begin a formula."""
    return "'" + name if name[:1] in ("=", "+", "-", "@", "\t", "\r") \
        else name


def text_name(name):
    out = []
    for c in name:
        if c == "\n":
            out.append("\\n")
        elif c == "\t":
            out.append("\\t")
        elif ord(c) < 0x20 or ord(c) == 0x7f:
            out.append("\\x%02x" % ord(c))
        else:
            out.append(c)
    return "".join(out)


# ---------------------------------------------------------------- checks

def json_scale(doc):
    """What turns JSON's normalized values into the text's numbers:
    100 for shares (fractions to percent), else the unit's factor to
    base units (a --unit value_unit, or the profile's unit)."""
    if doc.get("normalize") == "total":
        return 100.0, True
    unit = doc.get("value_unit") or doc["base"].get("unit")
    return unitinfo(unit)[1], False


def hyp_delta(r, scale):
    """A JSON row's delta of the hypothesis its interval is of, in the
    text's numbers: the flat share's change for "flat", else delta."""
    if r.get("hypothesis") == "flat":
        fb = fn = None
        if r["base_cum"]:
            fb = r["base_cum_norm"] / r["base_cum"]
        if r["new_cum"]:
            fn = r["new_cum_norm"] / r["new_cum"]
        b = r["base_flat"] * fb if fb is not None else 0.0
        n = r["new_flat"] * fn if fn is not None else 0.0
        return (n - b) * scale, "flat"
    return r["delta"] * scale, "delta"


def check_interval_sign(case, doc, trows, scale):
    rows = doc["rows"]
    for i, r in enumerate(rows):
        name = r["name"]
        d, which = hyp_delta(r, scale)
        lo, hi = r.get("ci_low"), r.get("ci_high")
        shown = trows[i]["line"].strip() if i < len(trows) and \
            "line" in trows[i] else name
        if lo is not None and hi is not None:
            lo, hi = lo * scale, hi * scale
            eps = 1e-9 * max(1.0, abs(d), abs(lo), abs(hi))
            if not (lo - eps <= d <= hi + eps):
                case.fail("interval", "row %s: %s %s outside its interval "
                          "[%s, %s]: %s" % (name, which, fmt(d), fmt(lo),
                                            fmt(hi), shown))
            lp, hp, dp = r.get("ci_low_pp"), r.get("ci_high_pp"), \
                r.get("delta_pp")
            if which == "delta" and None not in (lp, hp, dp) and \
                    not (lp - 1e-9 <= dp <= hp + 1e-9):
                case.fail("interval", "row %s: delta_pp %s outside "
                          "[ci_low_pp %s, ci_high_pp %s] (JSON, CSV)" %
                          (name, fmt(dp), fmt(lp), fmt(hp)))
        v = r["verdict"]
        if v in UP:
            if not (d * UP[v] > 0):
                case.fail("sign", "row %s: %s with %s %s: %s" %
                          (name, v, which, fmt(d), shown))
            if lo is not None and hi is not None and \
                    ((UP[v] > 0 and hi < 0) or (UP[v] < 0 and lo > 0)):
                case.fail("sign", "row %s: %s with its interval "
                          "[%s, %s] on the other side of zero: %s" %
                          (name, v, fmt(lo), fmt(hi), shown))
    byname = {r["name"]: r for r in rows}
    for f in doc.get("findings", []):
        n, v = f["finding"], f["verdict"]
        d, lo, hi = f["delta"] * scale, f["ci_low"] * scale, \
            f["ci_high"] * scale
        eps = 1e-9 * max(1.0, abs(d), abs(lo), abs(hi))
        if not (lo - eps <= d <= hi + eps):
            case.fail("interval", "finding #%d %s: delta %s outside its "
                      "interval [%s, %s]" % (n, f["name"], fmt(d), fmt(lo),
                                             fmt(hi)))
        if not (d * UP.get(v, 0) > 0):
            case.fail("sign", "finding #%d %s: %s with delta %s" %
                      (n, f["name"], v, fmt(d)))
        r = byname.get(f["name"])
        if r is None:
            case.fail("finding", "finding #%d: no row %s" % (n, f["name"]))
            continue
        rd, which = hyp_delta(r, scale)
        tol = 1e-6 * max(abs(d), abs(rd), 1e-12) + 1e-9
        for what, a, b in (("delta", d, rd),
                           ("ci_low", lo, (r["ci_low"] or 0) * scale),
                           ("ci_high", hi, (r["ci_high"] or 0) * scale),
                           ("q", f["q_value"], r["q_value"])):
            if a is None or b is None or not close(a, b, max(tol, 1e-6 *
                                                            abs(b))):
                case.fail("finding", "finding #%d %s: %s %s, its row's "
                          "%s %s" % (n, f["name"], what, fmt(a),
                                     which if what == "delta" else what,
                                     fmt(b)))
                break
        if r["verdict"] != v or r["finding"] != n:
            case.fail("finding", "finding #%d %s %s: its row says %s #%s" %
                      (n, v, f["name"], r["verdict"], r["finding"]))


def cmp_num(case, what, row, s, jv, scale, pct):
    """A text cell s against JSON's value jv (normalized), or a miss."""
    t = parse_value(s, pct, case.zero)
    if t is None:
        case.fail("json", "row %s: %s %r does not parse" % (row, what, s))
        return
    if jv is None:
        case.fail("json", "row %s: %s %s in the text, null in JSON" %
                  (row, what, s))
        return
    v = jv * scale
    if not close(t.v, v, t.tol + 1e-9 * abs(v)):
        case.fail("json", "row %s: %s %s in the text, %s in JSON" %
                  (row, what, s, fmt(v)))


def dec_tol(s):
    """Half the last printed digit of a number like 0.015 or 4.1e-04."""
    m = re.match(r"^[+-]?\d+(?:\.(\d+))?(?:e([+-]?\d+))?$", s)
    if not m:
        return None
    return 0.5 * 10 ** (-len(m.group(1) or "") + int(m.group(2) or 0))


def check_header(case, doc, text):
    """The facts and the test line: samples, the family, the level."""
    head = text.split("\n\n", 1)[0]
    side = None
    want = []
    for line in head.split("\n"):
        if line.startswith("Base: "):
            side = "base"
        elif line.startswith("New: "):
            side = "new"
        m = re.match(r"^Type: .*, (\d+) samples$", line)
        if m and side is not None and side in doc:
            want.append(("%s samples" % side, m.group(1),
                         doc[side].get("samples"), 0))
            side = None
    m = re.search(r"over the (\d+) of (\d+) hypotheses", head)
    if m:
        want.append(("family", m.group(1), doc.get("family"), 0))
        # "of N hypotheses" counts those tested (JSON "tested", which is
        # "hypotheses" but where nothing could be tested).
        want.append(("tested", m.group(2), doc.get("tested"), 0))
    m = re.search(r"; (\d+(?:\.\d+)?)% intervals", head)
    if m and doc.get("ci_level") is not None:
        want.append(("ci_level", m.group(1), 100 * doc["ci_level"],
                     dec_tol(m.group(1))))
    m = re.search(r"and p <= (\S+?),", head)
    if m and dec_tol(m.group(1)) is not None:
        want.append(("threshold", m.group(1), doc.get("threshold"),
                     dec_tol(m.group(1))))
    if doc.get("normalize") == "total":
        m = re.search(r"changes under \u00b1(\S+) points.* \u00b1(\S+) "
                      r"points are found", head)
        if m:
            want.append(("noise_pp", m.group(1), doc.get("noise_pp"),
                         dec_tol(m.group(1))))
            want.append(("min_detectable_effect_pp", m.group(2),
                         doc.get("min_detectable_effect_pp"),
                         dec_tol(m.group(2))))
    for what, s, jv, tol in want:
        if jv is None or not close(float(s), jv, tol + 1e-9 * abs(jv)):
            case.fail("json", "%s %s in the text, %s in JSON" %
                      (what, s, fmt(jv)))


def check_json_text(case, doc, tfind, trows, scale, pct):
    check_header(case, doc, case.out["text"])
    rows = doc["rows"]
    if len(rows) != len(trows):
        case.fail("agree", "%d rows in the text, %d in JSON" %
                  (len(trows), len(rows)))
    for i, (r, t) in enumerate(zip(rows, trows)):
        name = r["name"]
        if "bad" in t:
            case.fail("json", "text row does not parse: %s" % t["bad"])
            continue
        if fffd(t["name"]) != text_name(name):
            case.fail("agree", "row %d: %s in the text, %s in JSON" %
                      (i + 1, t["name"], name))
            continue
        if t["verdict"] != r["verdict"] or t["finding"] != r["finding"] \
                or t["flat"] != (r["hypothesis"] == "flat" and
                                 r["verdict"] in ("regressed", "improved")):
            case.fail("agree", "row %s: %s%s #%s in the text, %s %s #%s "
                      "in JSON" % (name, t["verdict"],
                                   " flat" if t["flat"] else "",
                                   t["finding"], r["verdict"],
                                   r["hypothesis"], r["finding"]))
        bf, nf, bc, nc, dl, rel, ci, p, q = t["cells"]
        fb = r["base_cum_norm"] / r["base_cum"] if r["base_cum"] else None
        fn = r["new_cum_norm"] / r["new_cum"] if r["new_cum"] else None
        cmp_num(case, "base cum", name, bc, r["base_cum_norm"], scale, pct)
        cmp_num(case, "new cum", name, nc, r["new_cum_norm"], scale, pct)
        if fb is not None:
            cmp_num(case, "base flat", name, bf, r["base_flat"] * fb, scale,
                    pct)
        if fn is not None:
            cmp_num(case, "new flat", name, nf, r["new_flat"] * fn, scale,
                    pct)
        cmp_num(case, "delta", name, dl, r["delta"], scale, pct)
        if rel in ("new", "gone"):
            if rel != r["status"] and r["rel"] is not None:
                case.fail("json", "row %s: rel %s in the text, %s (%s) in "
                          "JSON" % (name, rel, fmt(r["rel"]), r["status"]))
        else:
            tr = parse_value(rel, True)
            if tr is None or r["rel"] is None or \
                    not close(tr.v, 100 * r["rel"], 0.5 + 1e-9):
                case.fail("json", "row %s: rel %s in the text, %s in JSON" %
                          (name, rel, fmt(r["rel"])))
        if ci == "-":
            if r["ci_low"] is not None:
                case.fail("json", "row %s: no interval in the text, "
                          "[%s, %s] in JSON" % (name, fmt(r["ci_low"]),
                                                fmt(r["ci_high"])))
        else:
            lo_s, hi_s = ci[1:-1].split(", ")
            cmp_num(case, "ci_low", name, lo_s, r["ci_low"], scale, pct)
            cmp_num(case, "ci_high", name, hi_s, r["ci_high"], scale, pct)
        for what, s, jv in (("p", p, r["p_value"]), ("q", q, r["q_value"])):
            tp = parse_p(s)
            if (tp is None) != (jv is None) or (
                    tp is not None and not close(tp.v, jv, tp.tol)):
                case.fail("json", "row %s: %s %s in the text, %s in JSON" %
                          (name, what, s, fmt(jv)))
    jf = doc.get("findings", [])
    if [f["n"] for f in tfind] != [f["finding"] for f in jf]:
        case.fail("agree", "findings %s in the text, %s in JSON" %
                  ([f["n"] for f in tfind], [f["finding"] for f in jf]))
        return
    for t, f in zip(tfind, jf):
        n = f["finding"]
        if t["verdict"] != f["verdict"] or t["flat"] != (
                f["hypothesis"] == "flat"):
            case.fail("agree", "finding #%d: %s in the text, %s %s in JSON" %
                      (n, t["verdict"], f["verdict"], f["hypothesis"]))
        rest = t["rest"]
        for tail in (" (new)", " (gone)"):
            if rest.endswith(tail):
                rest = rest[:-len(tail)]
        if fffd(rest.split(" -> ")[-1]) != text_name(f["name"]):
            case.fail("agree", "finding #%d: %s in the text, %s in JSON" %
                      (n, rest.split(" -> ")[-1], f["name"]))
        # The findings print points to one decimal, rates as the rows.
        fpct = pct
        for what, s, jv in (("delta", t["delta_s"], f["delta"]),
                            ("ci_low", t["lo_s"], f["ci_low"]),
                            ("ci_high", t["hi_s"], f["ci_high"])):
            cmp_num(case, "finding #%d %s" % (n, what), f["name"], s, jv,
                    scale, fpct)
        tq = parse_p(t["q_s"])
        if tq is None or f["q_value"] is None or \
                not close(tq.v, f["q_value"], tq.tol):
            case.fail("json", "finding #%d: q %s in the text, %s in JSON" %
                      (n, t["q_s"], fmt(f["q_value"])))
    # Points and units are the same quantity: one level turns the one
    # into the other, for the deltas as for the intervals.
    for r in doc["rows"]:
        if r["hypothesis"] == "flat" or None in (
                r.get("ci_low"), r.get("ci_low_pp"), r.get("delta_pp")):
            continue
        a, b = r["delta"] * 100, r["delta_pp"]
        c, d = r["ci_low"] * 100, r["ci_low_pp"]
        if pct:
            if not close(a, b, 1e-6 * max(1, abs(a))) or \
                    not close(c, d, 1e-6 * max(1, abs(c))):
                case.fail("json", "row %s: delta %s and ci_low %s are not "
                          "delta_pp %s and ci_low_pp %s" %
                          (r["name"], fmt(r["delta"]), fmt(r["ci_low"]),
                           fmt(b), fmt(d)))
        elif b != 0 and d != 0 and not close(a / b, c / d, 1e-6 *
                                             abs(a / b)):
            case.fail("json", "row %s: delta %s is %s points, ci_low %s is "
                      "%s: two levels" % (r["name"], fmt(r["delta"]),
                                          fmt(b), fmt(r["ci_low"]), fmt(d)))


def check_md(case, tfind, trows, mfind, mrows, doc):
    if doc is not None:
        for m, r in zip(mrows, doc["rows"]):
            if "name" in m and fffd(m["name"]) != md_name(r["name"]):
                case.fail("agree", "row %s in Markdown where JSON has %s" %
                          (m["name"], r["name"]))
    if len(mrows) != len(trows):
        case.fail("agree", "%d rows in the text, %d in Markdown" %
                  (len(trows), len(mrows)))
    for t, m in zip(trows, mrows):
        if "bad" in m:
            case.fail("agree", "Markdown row does not parse: %s" % m["bad"])
            continue
        if "bad" in t:
            continue
        if (t["verdict"], t["flat"], t["finding"]) != \
                (m["verdict"], m["flat"], m["finding"]) or \
                t["cells"] != m["cells"]:
            case.fail("agree", "row %s: text %s, Markdown %s" %
                      (t["name"], t["line"].strip(), m["line"]))
    if [n for n, _ in mfind] != [f["n"] for f in tfind]:
        case.fail("agree", "findings %s in the text, %s in Markdown" %
                  ([f["n"] for f in tfind], [n for n, _ in mfind]))
        return
    for t, (n, s) in zip(tfind, mfind):
        want = "%s %s%s [%s, %s] q %s" % (t["verdict"], t["delta_s"],
                                          " flat" if t["flat"] else "",
                                          t["lo_s"], t["hi_s"], t["q_s"])
        if s != want:
            case.fail("agree", "finding #%d: %s in the text, %s in Markdown"
                      % (n, want, s))


def check_csv(case, text, doc):
    recs = list(csv.reader(io.StringIO(text)))
    if not recs:
        case.fail("csv", "empty")
        return
    head = recs[0]
    widths = sorted({len(r) for r in recs})
    if len(widths) != 1:
        bad = [i + 1 for i, r in enumerate(recs) if len(r) != len(head)]
        case.fail("csv", "column counts %s, the header's %d; lines %s" %
                  (widths, len(head), bad[:5]))
        return
    rows = [dict(zip(head, r)) for r in recs[1:]]
    if doc is None:
        return
    if len(rows) != len(doc["rows"]):
        case.fail("agree", "%d rows in CSV, %d in JSON" %
                  (len(rows), len(doc["rows"])))
    for c, j in zip(rows, doc["rows"]):
        name = j["name"]
        if fffd(c["name"]) not in (name, csv_name(name)):
            case.fail("agree", "CSV row %s where JSON has %s" %
                      (c["name"], name))
            continue
        if c["verdict"] != j["verdict"] or \
                (c["finding"] or None) != (str(j["finding"])
                                           if j["finding"] is not None
                                           else None) or \
                (c["hypothesis"] or None) != j["hypothesis"]:
            case.fail("agree", "row %s: CSV %s %s #%s, JSON %s %s #%s" %
                      (name, c["verdict"], c["hypothesis"], c["finding"],
                       j["verdict"], j["hypothesis"], j["finding"]))
        for k in ("base_flat", "new_flat", "base_cum", "new_cum",
                  "base_samples", "new_samples", "delta_pp", "rel",
                  "ci_low_pp", "ci_high_pp", "p_value", "q_value"):
            a = c.get(k, "")
            b = j.get(k)
            av = float(a) if a != "" else None
            if (av is None) != (b is None) or (
                    av is not None and not close(av, b, 1e-12 *
                                                 max(1, abs(b)))):
                case.fail("csv", "row %s: %s %s in CSV, %s in JSON" %
                          (name, k, a, fmt(b)))
        lp, hp, dp = c["ci_low_pp"], c["ci_high_pp"], c["delta_pp"]
        if lp and hp and dp and j["hypothesis"] != "flat" and \
                not (float(lp) <= float(dp) <= float(hp)):
            case.fail("interval", "row %s: CSV delta_pp %s outside "
                      "[%s, %s]" % (name, dp, lp, hp))


SVG_NS = "{http://www.w3.org/2000/svg}"
TITLE_DIFF = re.compile(r"^new (\S+)%, base (\S+)%: ([+-]?\d+\.\d+) pp")
# When the table compares rates or values: the frame's, in its units.
TITLE_RATE = re.compile(r"^(\S+) -> (\S+): ([+-]?\S+?)( \(only in \w+\))?$")
TITLE_SAMPLES = re.compile(r"^samples: base (\d+), new (\d+)$")
TITLE_TEST = re.compile(r"^p (\S+), q (\S+): (.*)$")
SVG_VERDICT = {"grew (significant)": 1, "shrank (significant)": -1,
               "not significant": 0, "too few samples": 0}


def svg_frames(root, zero=1.0):
    """The frames drawn, each with its title's numbers, its place, and
    its parent (the frame a row below whose width holds its x).  "chg"
    is the change the verdict is of: the table's quantity's (a Num in
    base units) when the title gives it, else its shares' points."""
    frames = []
    for g in root.iter(SVG_NS + "g"):
        cls = g.get("class", "")
        if cls.split()[:1] != ["f"]:
            continue
        t = g.find(SVG_NS + "title")
        rect = g.find(SVG_NS + "rect")
        if t is None or t.text is None or rect is None:
            continue
        lines = t.text.split("\n")
        fr = {"name": lines[0], "fill": rect.get("fill"),
              "x": float(rect.get("x")), "y": float(rect.get("y")),
              "w": float(rect.get("width")), "parent": None,
              "title": t.text.replace("\n", " | ")}
        for ln in lines[1:]:
            m = TITLE_DIFF.match(ln)
            if m:
                fr["pp"] = float(m.group(3))
                fr.setdefault("chg", Num(fr["pp"], 0.005 + 1e-9))
            m = TITLE_RATE.match(ln)
            if m:
                fr["chg"] = parse_value(m.group(3), False, zero)
                fr["rate"] = True
            m = TITLE_SAMPLES.match(ln)
            if m:
                fr["base_n"], fr["new_n"] = int(m.group(1)), int(m.group(2))
            m = TITLE_TEST.match(ln)
            if m:
                fr["verdict"] = m.group(3)
        frames.append(fr)
    rows = {}
    for fr in frames:
        rows.setdefault(fr["y"], []).append(fr)
    ys = sorted(rows)
    for fr in frames:
        # The row below: the next larger y (the root is at the bottom).
        k = ys.index(fr["y"])
        if k + 1 >= len(ys):
            continue
        for p in rows[ys[k + 1]]:
            if p["x"] - 0.015 <= fr["x"] <= p["x"] + p["w"] + 0.015:
                fr["parent"] = p
                break
    return frames


def top_frames(frames, name):
    """The frames of name that no frame of name is above: together, all
    of its samples that the graph draws."""
    out = []
    for fr in frames:
        if fr["name"] != name:
            continue
        p = fr["parent"]
        while p is not None and p["name"] != name:
            p = p["parent"]
        if p is None:
            out.append(fr)
    return out


def check_svg(case, text, doc):
    try:
        root = ET.fromstring(text.encode("utf-8", "surrogateescape"))
    except ET.ParseError as e:
        case.fail("svg", "not XML: %s" % e)
        return
    frames = svg_frames(root, case.zero)
    for fr in frames:
        v = fr.get("verdict", "too few samples")    # untested: grey
        if v not in SVG_VERDICT:
            case.fail("agree", "frame %s: verdict %r" % (fr["name"], v))
            continue
        s = SVG_VERDICT[v]
        if s != 0 and fr.get("chg") is not None and \
                not (fr["chg"].v * s >= 0):
            case.fail("agree", "frame %s: %s with %s" %
                      (fr["name"], v, fr["title"]))
        fill = fr["fill"] or ""
        red = re.match(r"^rgb\(255,(\d+),\1\)$", fill) is not None
        blue = re.match(r"^rgb\((\d+),\1,255\)$", fill) is not None
        if (s > 0) != red or (s < 0) != blue:
            case.fail("agree", "frame %s: %s drawn %s" % (fr["name"], v,
                                                          fill))
    if doc is None:
        return
    names = {fr["name"] for fr in frames}
    scale, shares = json_scale(doc)
    for r in doc["rows"]:
        name = text_name(r["name"])
        if name not in names:
            continue
        fs = top_frames(frames, name)
        # All of its samples (none when the profile has no counts).
        if sum(f.get("base_n", -1) for f in fs) != r["base_samples"] or \
                sum(f.get("new_n", -1) for f in fs) != r["new_samples"] \
                or r["base_samples"] + r["new_samples"] == 0 or \
                any(f.get("chg") is None for f in fs):
            continue
        net = sum(f["chg"].v for f in fs)
        tol = sum(f["chg"].tol for f in fs) + 1e-9
        sig = [f for f in fs if SVG_VERDICT.get(f.get("verdict"), 0)]
        where = "row %s %s%s #%s, %s" % (
            r["name"], r["verdict"],
            " flat" if r["hypothesis"] == "flat" else "", r["finding"],
            "its one frame %r" % fs[0]["title"] if len(fs) == 1 else
            "its %d frames %+g (%s)" % (
                len(fs), net, "; ".join(repr(f["title"]) for f in
                                        (sig or fs)[:3])))
        if shares and r.get("delta_pp") is not None and \
                not close(net, r["delta_pp"], tol):
            case.fail("agree", "%s: %+.2f pp, the row's delta_pp %s" %
                      (where, net, fmt(r["delta_pp"])))
        elif not shares and all(f.get("rate") for f in fs) and \
                r.get("delta") is not None and \
                not close(net, r["delta"] * scale, tol):
            case.fail("agree", "%s: %+g, the row's delta %s" %
                      (where, net, fmt(r["delta"] * scale)))
        v = r["verdict"]
        if v in UP and r["hypothesis"] != "flat" and net * UP[v] < -tol \
                and any(SVG_VERDICT[f["verdict"]] != UP[v] for f in sig):
            case.fail("agree", "%s: the SVG and the table go opposite ways"
                      % where)


def check_case(case):
    text = case.out["text"]
    try:
        doc = json.loads(case.out["json"])
    except ValueError as e:
        doc = None
        case.fail("json", "does not parse: %s" % e)
    rcs = {f: case.rc[f] for f in FORMATS}
    by_label = any(a.startswith("--by-label") for a in case.args)
    if by_label and rcs["svg"] == 2:
        del rcs["svg"]          # --by-label draws no flame graph
    if len(set(rcs.values())) != 1:
        case.fail("agree", "exit status by format: %s" % rcs)
    pct = doc is not None and doc.get("normalize") == "total"
    tfind, trows = parse_text(text, pct)
    mfind, mrows = parse_md(case.out["markdown"])
    check_md(case, tfind, trows, mfind, mrows, doc)
    if doc is not None:
        scale, pct = json_scale(doc)
        if doc.get("value_unit"):
            case.zero = unitinfo(doc["value_unit"])[1]
        check_interval_sign(case, doc, trows, scale)
        check_json_text(case, doc, tfind, trows, scale, pct)
    check_csv(case, case.out["csv"], doc)
    if "svg" in rcs:
        check_svg(case, case.out["svg"], doc)


# -------------------------------------------------------------- mutants
#
# Each mutant writes into real reports one of the contradictions issue 30
# found, as consistently across the formats as profdiff would have
# printed it, and must be caught by the check named.  They run on the
# outputs of one case (MUTANT_ARGS), so that a check that went blind
# (a parser that matches nothing) fails here.

MUTANT_ARGS = ["diff", "--ignore", "^sort\\.", "examples/good.pb.gz",
               "examples/bad.pb.gz"]
# The same pair per request, for the frames of a table of rates.
MUTANT_RATE_ARGS = ["diff", "--requests", "1000,2000", "examples/good.pb.gz",
                    "examples/bad.pb.gz"]


def _json_rows(out):
    doc = json.loads(out["json"])
    return doc, doc["rows"]


def _csv_set(out, i, values):
    recs = list(csv.reader(io.StringIO(out["csv"])))
    head = recs[0]
    for k, v in values.items():
        recs[i + 1][head.index(k)] = v
    buf = io.StringIO()
    csv.writer(buf, lineterminator="\n").writerows(recs)
    out["csv"] = buf.getvalue()


def _neg(s):
    return ("-" + s[1:]) if s.startswith("+") else ("+" + s[1:]) \
        if s.startswith("-") else s


def _first(rows, ok):
    for i, r in enumerate(rows):
        if ok(r):
            return i
    raise LookupError("no row for the mutant")


def _set_row(out, i, ci=None, verdict=None):
    """Row i's interval (lo, hi as fractions of JSON's) and verdict, in
    every table format."""
    doc, rows = _json_rows(out)
    r = rows[i]
    pct = doc.get("normalize") == "total"
    trow = parse_text(out["text"], pct)[1][i]
    mrow = parse_md(out["markdown"])[1][i]
    tline, mline = trow["line"], mrow["line"]
    csvset = {}
    if ci is not None:
        old = trow["cells"][6]
        lo_s, hi_s = old[1:-1].split(", ")
        new = "[%s, %s]" % (_neg(hi_s), _neg(lo_s))
        tline = tline.replace(old, new, 1)
        mline = mline.replace("| %s |" % old, "| %s |" % new, 1)
        for a, b in (("ci_low", "ci_high"), ("ci_low_pp", "ci_high_pp")):
            r[a], r[b] = -r[b], -r[a]
        csvset = {"ci_low_pp": repr(r["ci_low_pp"]),
                  "ci_high_pp": repr(r["ci_high_pp"])}
    if verdict is not None:
        words = {"improved": "improved", "crowded_out": "crowded out",
                 "regressed": "regressed", "crowded_in": "crowded in"}
        old_v = {v: k for k, v in VERDICTS.items()}[r["verdict"]]
        tline = tline.replace("  " + old_v + " ", "  " + words[verdict] +
                              " " * max(1, len(old_v) - len(words[verdict])
                                        + 1), 1)
        mv = mrow["line"].split(" | ")[9]
        nv = mv.replace("**", "").replace(old_v, words[verdict])
        mline = mline.replace(" | %s | " % mv, " | %s | " % nv, 1)
        r["verdict"] = verdict
        csvset["verdict"] = verdict
    out["text"] = out["text"].replace(trow["line"], tline, 1)
    out["markdown"] = out["markdown"].replace(mrow["line"], mline, 1)
    out["json"] = json.dumps(doc)
    _csv_set(out, i, csvset)


def m_interval(out):
    """Item 1: "+1.86s/s +35072% [-1.49s/s, -1.42s/s] ... improved #2",
    an interval on the other side of its estimate, the verdict its."""
    _, rows = _json_rows(out)
    i = _first(rows, lambda r: r["verdict"] == "regressed" and
               r["hypothesis"] != "flat" and r["ci_low"] is not None)
    _set_row(out, i, ci=True, verdict="improved")


def m_sign(out):
    """A verdict against its delta: a growth crowded out."""
    _, rows = _json_rows(out)
    i = _first(rows, lambda r: r["verdict"] == "regressed" and
               r["hypothesis"] != "flat")
    _set_row(out, i, verdict="crowded_out")


def m_svg_opposite(out):
    """Item 3: a frame drawn "grew (significant)" that the text calls
    improved."""
    doc, rows = _json_rows(out)
    frames = svg_frames(ET.fromstring(out["svg"].encode(
        "utf-8", "surrogateescape")))
    byname = {}
    for fr in frames:
        byname.setdefault(fr["name"], []).append(fr)
    best = None
    for r in rows:
        fs = byname.get(text_name(r["name"]), [])
        if r["verdict"] not in UP or r["hypothesis"] == "flat" or \
                len(fs) != 1 or fs[0].get("base_n") != r["base_samples"] \
                or fs[0].get("new_n") != r["new_samples"] or \
                SVG_VERDICT.get(fs[0].get("verdict"), 0) == 0:
            continue
        if best is None or r["verdict"] == "improved":
            best = r
        if r["verdict"] == "improved":
            break
    if best is None:
        raise LookupError("no frame for the mutant")
    name = best["name"].replace("&", "&amp;").replace("<", "&lt;") \
        .replace(">", "&gt;")
    svg = out["svg"]
    at = svg.index("<title>" + name + "\n")
    end = svg.index("</g>", at)
    seg = svg[at:end]
    if "grew (significant)" in seg:
        seg = seg.replace("grew (significant)", "shrank (significant)")
        seg = re.sub(r"rgb\(255,(\d+),\1\)", r"rgb(\1,\1,255)", seg)
    else:
        seg = seg.replace("shrank (significant)", "grew (significant)")
        seg = re.sub(r"rgb\((\d+),\1,255\)", r"rgb(255,\1,\1)", seg)
    seg = re.sub(r": ([+-])(\d+\.\d+) pp",
                 lambda m: ": %s%s pp" % ("-" if m.group(1) == "+" else "+",
                                          m.group(2)), seg)
    out["svg"] = svg[:at] + seg + svg[end:]


def m_svg_rate(out):
    """Item 3 with rates: the table says main.handleQuote improved per
    request, its one frame that its share grew, as flame.c had it when
    it judged the frames by their shares whatever the table compared."""
    svg = out["svg"]
    at = svg.index("<title>main.handleQuote\n")
    end = svg.index("</g>", at)
    seg = svg[at:end]
    if "shrank (significant)" not in seg:
        raise LookupError("main.handleQuote is not drawn improved")
    seg = seg.replace("shrank (significant)", "grew (significant)")
    seg = re.sub(r"rgb\((\d+),\1,255\)", r"rgb(255,\1,\1)", seg)
    seg = re.sub(r": -(\S+/req)\n", r": +\1\n", seg)
    out["svg"] = svg[:at] + seg + svg[end:]


def m_svg_xml(out):
    """Item 2: "p <1e-300" unescaped in a <title>."""
    out["svg"] = out["svg"].replace("</title>", "\np <1e-300</title>", 1)


def m_json_number(out):
    """A JSON number that is not the text's."""
    doc, rows = _json_rows(out)
    i = _first(rows, lambda r: r["new_cum_norm"])
    rows[i]["new_cum_norm"] *= 1.05
    out["json"] = json.dumps(doc)


def m_csv_columns(out):
    """A name with a comma, unquoted."""
    lines = out["csv"].split("\n")
    lines[1] = "a,b" + lines[1][lines[1].index(","):]
    out["csv"] = "\n".join(lines)


def m_finding_zero(out):
    """Item 7: JSON rows said "finding": 0 for #1."""
    doc, rows = _json_rows(out)
    for r in rows:
        if r["finding"] is not None:
            r["finding"] -= 1
    out["json"] = json.dumps(doc)


def m_finding_numbers(out):
    """Item 1: "a mutex finding +24.99ms/s whose row reads +18.70ms/s":
    the finding's delta and its interval 4/3 of its row's, in every
    format."""
    doc, _ = _json_rows(out)
    f = doc["findings"][0]
    for k in ("delta", "ci_low", "ci_high", "delta_pp", "ci_low_pp",
              "ci_high_pp"):
        f[k] *= 4 / 3
    out["json"] = json.dumps(doc)
    tf = parse_text(out["text"], doc.get("normalize") == "total")[0][0]

    def scale(s):
        m = re.match(r"^([+-]?)(\d+)(?:\.(\d+))?(.*)$", s)
        d = len(m.group(3) or "")
        v = float(m.group(2) + ("." + m.group(3) if m.group(3) else ""))
        return "%s%.*f%s" % (m.group(1), d, v * 4 / 3, m.group(4))

    old = "%s %s%s [%s, %s]" % (tf["verdict"], tf["delta_s"],
                                " flat" if tf["flat"] else "", tf["lo_s"],
                                tf["hi_s"])
    new = "%s %s%s [%s, %s]" % (tf["verdict"], scale(tf["delta_s"]),
                                " flat" if tf["flat"] else "",
                                scale(tf["lo_s"]), scale(tf["hi_s"]))
    out["text"] = out["text"].replace(old, new, 1)
    out["markdown"] = out["markdown"].replace(old, new, 1)


MUTANTS = (("interval", m_interval, ("interval", "sign")),
           ("sign", m_sign, ("sign",)),
           ("svg-opposite", m_svg_opposite, ("agree",)),
           ("svg-rate", m_svg_rate, ("agree",), MUTANT_RATE_ARGS),
           ("svg-xml", m_svg_xml, ("svg",)),
           ("json-number", m_json_number, ("json",)),
           ("csv-columns", m_csv_columns, ("csv",)),
           ("finding-zero", m_finding_zero, ("agree", "finding")),
           ("finding-numbers", m_finding_numbers, ("finding",)))


def mutants(profdiff):
    """(passed, failed): each mutant caught by the checks it names, on
    the outputs of its case (MUTANT_ARGS unless it names another)."""
    bases = {}
    npass = nfail = 0
    for m in MUTANTS:
        args = m[3] if len(m) > 3 else MUTANT_ARGS
        if tuple(args) in bases:
            continue
        base = bases[tuple(args)] = Case("mutants", args)
        for f in FORMATS:
            run(profdiff, base, f)
        check_case(base)
        if base.fails:
            nfail += 1
            print("FAIL mutants: the unmutated case %s fails: %s" %
                  (" ".join(args), sorted(base.fails)))
    for m in MUTANTS:
        name, fn, want = m[:3]
        args = m[3] if len(m) > 3 else MUTANT_ARGS
        base = bases[tuple(args)]
        c = Case("mutant " + name, args)
        c.out, c.rc, c.err = dict(base.out), dict(base.rc), dict(base.err)
        try:
            fn(c.out)
            check_case(c)
        except Exception as e:
            c.fail("mutant", "could not be made: %r" % e)
        missed = [k for k in want if k not in c.fails]
        if missed or "mutant" in c.fails:
            nfail += 1
            print("FAIL mutant %s: not caught by %s (caught by %s)" %
                  (name, ", ".join(missed) or "-",
                   ", ".join(sorted(c.fails)) or "nothing"))
            for ln in c.fails.get("mutant", []):
                print("    " + ln)
        else:
            npass += 1
            if os.environ.get("VERBOSE"):
                print("ok mutant %s: caught by %s" %
                      (name, ", ".join(sorted(c.fails))))
    return npass, nfail


def main():
    if len(sys.argv) < 2:
        print("usage: invariants.py PROFDIFF [NAME-REGEX]", file=sys.stderr)
        return 2
    profdiff = shlex.split(sys.argv[1])
    only = os.environ.get("INVARIANTS_ONLY") or (
        sys.argv[2] if len(sys.argv) > 2 else None)
    jobs = int(os.environ.get("INVARIANTS_JOBS", "2"))
    verbose = bool(os.environ.get("VERBOSE"))
    all_cases, skipped = cases()
    if only:
        all_cases = [c for c in all_cases if re.search(only, c.label)]
    with concurrent.futures.ThreadPoolExecutor(jobs) as ex:
        list(ex.map(lambda c: run(profdiff, c, "text"), all_cases))
        live = []
        for c in all_cases:
            if c.rc["text"] == 2:
                err = c.err["text"].strip().split("\n")[0]
                skipped.append("%s (refused: %s)" % (c.label, err))
            else:
                live.append(c)
        list(ex.map(lambda a: run(profdiff, a[0], a[1]),
                    [(c, f) for c in live for f in FORMATS if f != "text"]))
    npass, nfail = mutants(profdiff) if not only else (0, 0)
    checks = CHECKS
    for c in live:
        try:
            check_case(c)
        except Exception as e:         # a parser's bug is a failure too
            c.fail("agree", "the check failed: %r" % e)
        for k in checks:
            if k in c.fails:
                nfail += 1
                lines = c.fails[k]
                print("FAIL %s: %s: %d problem%s: %s" %
                      (c.label, k, len(lines), "" if len(lines) == 1
                       else "s", lines[0]))
                for ln in lines[1:5]:
                    print("    " + ln)
                if len(lines) > 5:
                    print("    and %d more" % (len(lines) - 5))
            else:
                npass += 1
                if verbose:
                    print("ok %s: %s" % (c.label, k))
    if verbose:
        for s in skipped:
            print("# skip %s" % s)
    print("invariants: %d passed, %d failed, %d skipped (%d cases, "
          "%d formats each)" % (npass, nfail, len(skipped), len(live),
                                len(FORMATS)))
    return 1 if nfail else 0


if __name__ == "__main__":
    sys.exit(main())
