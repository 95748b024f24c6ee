#!/bin/sh
# Capture the spans evidence: run prog/ (Go, standard library only) in
# each mode, each writing a CPU profile with span_id labels and the same
# window's spans as OTLP/JSON and Jaeger JSON.  Needs Go; the tests only
# read what it wrote.  Run from this folder: sh capture.sh
set -eu
cd "$(dirname "$0")"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
(cd prog && GOPROXY=off GOFLAGS=-mod=mod go build -o "$tmp/prog" .)
for mode in ${MODES:-code wait uniform null outlier}; do
	"$tmp/prog" -mode "$mode" -n 1500 -seed 7 -o "$mode" 2>/dev/null
	gzip -9nf "$mode.otlp.json"
done
# Jaeger JSON of one mode; the others' are the same spans.
if [ -f code.jaeger.json ]; then gzip -9nf code.jaeger.json; fi
rm -f wait.jaeger.json uniform.jaeger.json null.jaeger.json outlier.jaeger.json
