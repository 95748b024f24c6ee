// A small pricing service whose requests are spans, for profdiff spans.
// Each request runs under runtime/pprof labels span_id (16 hex digits,
// as OpenTelemetry's profiling integrations put it) and span_name, while
// a CPU profile is taken; the same window's spans are written as
// OTLP/JSON (one ExportTraceServiceRequest a line, as the collector's
// file exporter writes them) and as Jaeger JSON.  Standard library only.
//
// -mode says which requests are slow, and why:
//
//	code     10% of requests rank their results (rankByRelevance): code
//	wait     10% wait 100ms for a downstream call (a timer channel)
//	uniform  10% price a larger basket: more of the same work
//	null     every request the same work, with a random wait: which are
//	         slow says nothing of their code
//	outlier  one request, in the middle, ranks its offers 40 times: one
//	         pathological span among requests that are all the same
package main

import (
	"context"
	"crypto/sha256"
	"encoding/json"
	"flag"
	"fmt"
	"log"
	"math/rand"
	"os"
	"runtime"
	"runtime/pprof"
	"sort"
	"strconv"
	"sync"
	"time"
)

type span struct {
	TraceID string
	SpanID  string
	Name    string
	Start   time.Time
	End     time.Time
}

var sink uint64

// parseBasket hashes the request's payload: the work every request does.
func parseBasket(n int) {
	buf := make([]byte, 256)
	for i := 0; i < n; i++ {
		buf[0] = byte(i)
		h := sha256.Sum256(buf)
		sink += uint64(h[0])
	}
}

// priceItems is arithmetic over the basket's items.
func priceItems(n int) {
	x := uint64(1)
	for i := 0; i < n*2000; i++ {
		x = x*6364136223846793005 + 1442695040888963407
	}
	sink += x
}

// rankByRelevance sorts candidate offers, the code reason for slowness.
func rankByRelevance(n int, rng *rand.Rand) {
	v := make([]float64, n)
	for i := range v {
		v[i] = rng.Float64()
	}
	sort.Float64s(v)
	sink += uint64(v[0] * 100)
}

func handle(kind string, rng *rand.Rand, units int) {
	parseBasket(1500 * units)
	priceItems(400 * units)
	switch kind {
	case "code":
		rankByRelevance(60000, rng)
	case "wait":
		<-time.After(100 * time.Millisecond)
	case "outlier":
		for k := 0; k < 40; k++ {
			rankByRelevance(60000, rng)
		}
	}
}

func hexID(rng *rand.Rand, n int) string {
	b := make([]byte, n)
	for i := range b {
		b[i] = "0123456789abcdef"[rng.Intn(16)]
	}
	return string(b)
}

func main() {
	mode := flag.String("mode", "code", "code, wait, uniform, null or outlier")
	n := flag.Int("n", 1500, "requests")
	seed := flag.Int64("seed", 1, "random seed")
	out := flag.String("o", "capture", "output prefix")
	hz := flag.Int("hz", 500, "CPU profile rate")
	flag.Parse()

	rng := rand.New(rand.NewSource(*seed))
	type req struct {
		kind    string
		units   int
		waitMs  int
		id, tid string
	}
	reqs := make([]req, *n)
	for i := range reqs {
		r := req{kind: "plain", units: 1, id: hexID(rng, 16), tid: hexID(rng, 32)}
		odd := rng.Intn(10) == 0
		switch {
		case *mode == "outlier":
			if i == *n/2 {
				r.kind = "outlier"
			}
		case *mode == "null":
			r.waitMs = rng.Intn(20)
		case odd && *mode == "uniform":
			r.units = 4
		case odd:
			r.kind = *mode
		}
		reqs[i] = r
	}

	f, err := os.Create(*out + ".pb.gz")
	if err != nil {
		log.Fatal(err)
	}
	runtime.SetCPUProfileRate(*hz)
	if err := pprof.StartCPUProfile(f); err != nil {
		log.Fatal(err)
	}
	spans := make([]span, len(reqs))
	var wg sync.WaitGroup
	next := make(chan int)
	for w := 0; w < 2; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			wr := rand.New(rand.NewSource(*seed*100 + int64(w)))
			for i := range next {
				r := reqs[i]
				lab := pprof.Labels("span_id", r.id, "span_name", "GET /price")
				start := time.Now()
				pprof.Do(context.Background(), lab, func(context.Context) {
					handle(r.kind, wr, r.units)
					if r.waitMs > 0 {
						<-time.After(time.Duration(r.waitMs) * time.Millisecond)
					}
				})
				spans[i] = span{r.tid, r.id, "GET /price", start, time.Now()}
			}
		}(w)
	}
	for i := range reqs {
		next <- i
	}
	close(next)
	wg.Wait()
	pprof.StopCPUProfile()
	f.Close()
	writeOTLP(*out+".otlp.json", spans)
	writeJaeger(*out+".jaeger.json", spans)
}

// OTLP/JSON: ids in hex, times as strings of nanoseconds since the epoch.
func writeOTLP(path string, spans []span) {
	f, err := os.Create(path)
	if err != nil {
		log.Fatal(err)
	}
	defer f.Close()
	enc := json.NewEncoder(f)
	for lo := 0; lo < len(spans); lo += 500 {
		hi := lo + 500
		if hi > len(spans) {
			hi = len(spans)
		}
		var out []map[string]any
		for _, s := range spans[lo:hi] {
			out = append(out, map[string]any{
				"traceId":           s.TraceID,
				"spanId":            s.SpanID,
				"name":              s.Name,
				"kind":              2,
				"startTimeUnixNano": strconv.FormatInt(s.Start.UnixNano(), 10),
				"endTimeUnixNano":   strconv.FormatInt(s.End.UnixNano(), 10),
			})
		}
		req := map[string]any{"resourceSpans": []any{map[string]any{
			"resource": map[string]any{"attributes": []any{map[string]any{
				"key": "service.name", "value": map[string]any{"stringValue": "pricing"}}}},
			"scopeSpans": []any{map[string]any{
				"scope": map[string]any{"name": "pricing"},
				"spans": out,
			}},
		}}}
		if err := enc.Encode(req); err != nil {
			log.Fatal(err)
		}
	}
}

// Jaeger's API answer: spanID in hex, startTime and duration in µs.
func writeJaeger(path string, spans []span) {
	type jspan struct {
		TraceID       string `json:"traceID"`
		SpanID        string `json:"spanID"`
		OperationName string `json:"operationName"`
		References    []any  `json:"references"`
		StartTime     int64  `json:"startTime"`
		Duration      int64  `json:"duration"`
		ProcessID     string `json:"processID"`
	}
	type jtrace struct {
		TraceID   string         `json:"traceID"`
		Spans     []jspan        `json:"spans"`
		Processes map[string]any `json:"processes"`
	}
	var data []jtrace
	for _, s := range spans {
		data = append(data, jtrace{s.TraceID, []jspan{{s.TraceID, s.SpanID,
			s.Name, []any{}, s.Start.UnixMicro(), s.End.Sub(s.Start).Microseconds(), "p1"}},
			map[string]any{"p1": map[string]any{"serviceName": "pricing"}}})
	}
	f, err := os.Create(path)
	if err != nil {
		log.Fatal(err)
	}
	defer f.Close()
	if err := json.NewEncoder(f).Encode(map[string]any{"data": data, "total": 0,
		"limit": 0, "offset": 0, "errors": nil}); err != nil {
		log.Fatal(err)
	}
	fmt.Fprintf(os.Stderr, "%s: %d spans\n", path, len(spans))
}
