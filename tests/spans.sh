#!/bin/sh
# profdiff spans on the captures of tests/data/spans, whose answers are
# known (prog/main.go, capture.sh): a Go service whose slow requests are
# slow for a reason in code (code), by waiting (wait), or by more of the
# same work (uniform); and one whose requests all do the same work
# (null), its spans' durations shuffled here among them, so that which
# are slow is chance; and one whose one request is pathological
# (outlier).  Checked: the code reason is found and named; waiting is
# said, with no finding; uniform slowness makes no finding in shares;
# the random splits make a finding in at most 5% of the runs; the
# pathological span's function is no finding; OTLP/JSON and Jaeger JSON
# of the same spans give the same report.
# Usage: sh tests/spans.sh BUILD_DIR (absolute), from the repository
# root.  Prints "ok ..." and "not ok ..." lines, then "spans: N passed,
# N failed"; needs jq and python3.
set -u
b=$1
P=$b/profdiff
d=tests/data/spans
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0
fail=0
ok() { echo "ok $*"; pass=$((pass + 1)); }
not_ok() { echo "not ok $*"; fail=$((fail + 1)); }
for t in jq python3; do
	if ! command -v $t >/dev/null 2>&1; then
		echo "# skip: no $t"
		echo "spans: 0 passed, 0 failed"
		exit 0
	fi
done

spans() {	# mode, extra options...: JSON report in $tmp/$1.json
	m=$1
	shift
	"$P" spans -q -f json "$@" --trace "$d/$m.otlp.json.gz" "$d/$m.pb.gz" \
	    >"$tmp/$m.json"
}

# The code reason: a finding whose function, or whose walk, names it.
spans code
if jq -e '.spans.verdict == "computing" and ([.findings[] |
    select(.verdict == "regressed") | .path[]?, .name] |
    any(. == "main.rankByRelevance"))' "$tmp/code.json" >/dev/null; then
	ok "code: computing, and a finding names main.rankByRelevance"
else
	not_ok "code: main.rankByRelevance not found: $(jq -c \
	    '[.spans.verdict, [.findings[] | .name]]' "$tmp/code.json")"
fi
spans code --normalize total
if jq -e '[.findings[] | select(.verdict == "regressed") | .path[]?,
    .name] | any(. == "main.rankByRelevance")' "$tmp/code.json" >/dev/null
then
	ok "code, shares: a finding names main.rankByRelevance"
else
	not_ok "code, shares: main.rankByRelevance not found"
fi

# Waiting: said, with no finding.
spans wait
if jq -e '(.spans.verdict | test("waiting")) and (.findings | length) == 0' \
    "$tmp/wait.json" >/dev/null; then
	ok "wait: $(jq -r .spans.verdict "$tmp/wait.json"), no finding"
else
	not_ok "wait: $(jq -c '[.spans.verdict, [.findings[] | .name]]' \
	    "$tmp/wait.json")"
fi

# More of the same work: no finding in shares.
spans uniform --normalize total
if jq -e '(.findings | length) == 0' "$tmp/uniform.json" >/dev/null; then
	ok "uniform, shares: no finding"
else
	not_ok "uniform, shares: findings $(jq -c '[.findings[] | .name]' \
	    "$tmp/uniform.json")"
fi

# One trace, two formats: the same report, but for the durations, which
# Jaeger's are in microseconds.
same='del(.spans.trace, .spans.format, .spans.threshold_ns, .spans.says) |
    .spans.fast |= del(.duration_ns, .duration_covered) |
    .spans.slow |= del(.duration_ns, .duration_covered)'
"$P" spans -q -f json --trace "$d/code.jaeger.json.gz" "$d/code.pb.gz" |
    jq -S "$same" >"$tmp/j"
spans code
jq -S "$same" "$tmp/code.json" >"$tmp/o"
if [ -s "$tmp/o" ] && cmp -s "$tmp/j" "$tmp/o"; then
	ok "code: Jaeger JSON and OTLP/JSON give the same report"
else
	not_ok "code: Jaeger JSON and OTLP/JSON differ"
fi

# One pathological span: a request that ranks its offers 40 times among
# requests that are all the same.  Its function is no finding of spans,
# whose replicates are the spans; it is the finding of diff on the same
# two groups of samples, one a side, where sampling is all the noise.
python3 - "$d/outlier.otlp.json.gz" "$tmp" <<'PY'
import gzip, json, math, sys
objs = [json.loads(l) for l in gzip.open(sys.argv[1], "rt") if l.strip()]
sp = [s for o in objs for r in o["resourceSpans"] for ss in r["scopeSpans"]
      for s in ss["spans"]]
dur = lambda s: int(s["endTimeUnixNano"]) - int(s["startTimeUnixNano"])
d = sorted(dur(s) for s in sp)
thr = d[max(0, math.ceil(0.9 * len(d)) - 1)]
with open(sys.argv[2] + "/slow.txt", "w") as f, \
    open(sys.argv[2] + "/fast.txt", "w") as g:
    for s in sp:
        (f if dur(s) >= thr else g).write(s["spanId"] + "\n")
PY
sorts='[.findings[] | .name, .path[-1]] |
    any(. == "main.rankByRelevance" or startswith("sort."))'
spans outlier
"$P" diff -q -f json --base-tag "span_id=@$tmp/fast.txt" \
    --new-tag "span_id=@$tmp/slow.txt" "$d/outlier.pb.gz" >"$tmp/pooled.json"
if jq -e "$sorts | not" "$tmp/outlier.json" >/dev/null &&
    jq -e "$sorts" "$tmp/pooled.json" >/dev/null; then
	ok "outlier: one span's main.rankByRelevance no finding" \
	    "(one a side: $(jq -r '.findings[0].name' "$tmp/pooled.json"))"
else
	not_ok "outlier: spans $(jq -c '[.findings[] | .name]' \
	    "$tmp/outlier.json"), one a side $(jq -c '[.findings[] | .name]' \
	    "$tmp/pooled.json")"
fi

# A trace of two names, one of them on no sample (a child span that
# waited on a database): by default its spans are left out, and asked
# for by name, they match no sample (exit 2).
python3 - "$d/code.otlp.json.gz" "$tmp/two.json" <<'PY'
import gzip, json, sys
objs = [json.loads(l) for l in gzip.open(sys.argv[1], "rt") if l.strip()]
spans = [s for o in objs for r in o["resourceSpans"] for ss in r["scopeSpans"]
         for s in ss["spans"]]
extra = [{"spanId": "%016x" % (0xdb00000000000000 + k), "name": "db.query",
          "startTimeUnixNano": s["startTimeUnixNano"],
          "endTimeUnixNano": str(int(s["startTimeUnixNano"]) + 200000000 + k)}
         for k, s in enumerate(spans[:300])]
objs.append({"resourceSpans": [{"scopeSpans": [{"spans": extra}]}]})
with open(sys.argv[2], "w") as f:
    for o in objs:
        f.write(json.dumps(o) + "\n")
PY
"$P" spans -q -f json --trace "$tmp/two.json" "$d/code.pb.gz" >"$tmp/two.out"
st=0
"$P" spans -q --span-name db.query --trace "$tmp/two.json" "$d/code.pb.gz" \
    >/dev/null 2>&1 || st=$?
if [ "$(jq '.spans.fast.spans + .spans.slow.spans' "$tmp/two.out")" \
    = 1500 ] && [ "$st" = 2 ]; then
	ok "two names: the one without samples left out, and refused by name"
else
	not_ok "two names: $(jq -c '[.spans.fast.spans,
	    .spans.slow.spans]' "$tmp/two.out"), --span-name exit $st"
fi

# Slow at random: the durations shuffled among the spans, N times.
n=${SPANS_NULL_RUNS:-20}
python3 - "$d/null.otlp.json.gz" "$tmp" "$n" <<'PY'
import gzip, json, random, sys
src, out, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
objs = [json.loads(l) for l in gzip.open(src, "rt") if l.strip()]
spans = [s for o in objs for r in o["resourceSpans"] for ss in r["scopeSpans"]
         for s in ss["spans"]]
durs = [int(s["endTimeUnixNano"]) - int(s["startTimeUnixNano"]) for s in spans]
for k in range(n):
    random.Random(k + 1).shuffle(durs)
    for s, dur in zip(spans, durs):
        s["endTimeUnixNano"] = str(int(s["startTimeUnixNano"]) + dur)
    with open(f"{out}/null{k}.json", "w") as f:
        for o in objs:
            f.write(json.dumps(o) + "\n")
PY
found=0
k=0
while [ "$k" -lt "$n" ]; do
	"$P" spans -q -f json --trace "$tmp/null$k.json" "$d/null.pb.gz" \
	    >"$tmp/n.json"
	[ "$(jq '.findings | length' "$tmp/n.json")" -gt 0 ] &&
	    found=$((found + 1))
	k=$((k + 1))
done
if [ $((found * 100)) -le $((n * 5)) ]; then
	ok "null: $found of $n random splits make a finding (at most 5%)"
else
	not_ok "null: $found of $n random splits make a finding (over 5%)"
fi
echo "spans: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
