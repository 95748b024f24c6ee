// Command pricing recreates a small pricing-service incident for profdiff's
// examples. A request loop calls handleQuote, which prices every basket item
// through calculateScore -> normalizeWeights. In "bad" mode normalizeWeights
// also sorts the weights (sortByRelevance), so a sort runs for every item of
// every basket; in "good" mode it does not sort at all.
//
// It runs the loop for -duration and writes a CPU profile with runtime/pprof
// (gzipped pprof, as Go writes it). The generated requests come from -seed,
// so a run is repeatable up to scheduling and sampling noise.
package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"log"
	"math"
	"math/rand"
	"os"
	"runtime/pprof"
	"sort"
	"strings"
	"time"
)

const (
	nWeights = 24 // features scored per item
	maxItems = 24 // items per basket
)

type item struct {
	SKU      string
	Price    float64
	Qty      int
	Features [nWeights]float64
}

type quoteRequest struct {
	Customer string
	Tier     int
	Items    []item
}

type lineQuote struct {
	SKU      string  `json:"sku"`
	Qty      int     `json:"qty"`
	Unit     float64 `json:"unit"`
	Score    float64 `json:"score"`
	Discount float64 `json:"discount"`
	Total    float64 `json:"total"`
}

type quoteResponse struct {
	Customer string      `json:"customer"`
	Lines    []lineQuote `json:"lines"`
	Subtotal float64     `json:"subtotal"`
	Total    float64     `json:"total"`
	Currency string      `json:"currency"`
}

type service struct {
	bad     bool
	weights []float64 // model weights, shared by all requests
	rng     *rand.Rand
	out     bytes.Buffer
	sink    float64
}

func main() {
	mode := flag.String("mode", "good", "good or bad")
	duration := flag.Duration("duration", 10*time.Second, "how long to serve requests")
	cpuprofile := flag.String("cpuprofile", "", "write a CPU profile to `file`")
	seed := flag.Int64("seed", 1, "random seed for the generated requests")
	idle := flag.Float64("idle", 0, "fraction of wall time to spend sleeping between requests (0 to 0.99)")
	flag.Parse()

	if *mode != "good" && *mode != "bad" {
		log.Fatalf("-mode must be good or bad, not %q", *mode)
	}
	if *idle < 0 || *idle > 0.99 {
		log.Fatalf("-idle must be within [0, 0.99]")
	}
	s := newService(*mode == "bad", *seed)

	if *cpuprofile != "" {
		f, err := os.Create(*cpuprofile)
		if err != nil {
			log.Fatal(err)
		}
		if err := pprof.StartCPUProfile(f); err != nil {
			log.Fatal(err)
		}
		defer func() {
			pprof.StopCPUProfile()
			if err := f.Close(); err != nil {
				log.Fatal(err)
			}
		}()
	}

	n := serve(s, *duration, *idle)
	fmt.Fprintf(os.Stderr, "pricing: mode=%s seed=%d idle=%.2f: %d requests in %v\n",
		*mode, *seed, *idle, n, *duration)
}

func newService(bad bool, seed int64) *service {
	s := &service{bad: bad, rng: rand.New(rand.NewSource(seed))}
	s.weights = make([]float64, nWeights)
	for i := range s.weights {
		s.weights[i] = s.rng.Float64()
	}
	return s
}

// serve is the request loop. With idle > 0 it sleeps after each batch of
// requests for long enough that the busy share of wall time is 1 - idle.
//
//go:noinline
func serve(s *service, d time.Duration, idle float64) int {
	deadline := time.Now().Add(d)
	n := 0
	for time.Now().Before(deadline) {
		start := time.Now()
		for i := 0; i < 8; i++ {
			req := nextRequest(s)
			handleQuote(s, req)
			n++
		}
		if idle > 0 {
			busy := time.Since(start)
			time.Sleep(time.Duration(float64(busy) * idle / (1 - idle)))
		}
	}
	return n
}

// nextRequest builds a fresh request; its allocations are part of the
// steady-state cost of the service.
//
//go:noinline
func nextRequest(s *service) *quoteRequest {
	req := &quoteRequest{
		Customer: fmt.Sprintf("cust-%06d", s.rng.Intn(1000000)),
		Tier:     s.rng.Intn(4),
	}
	n := maxItems/2 + s.rng.Intn(maxItems/2+1)
	req.Items = make([]item, n)
	for i := range req.Items {
		it := &req.Items[i]
		it.SKU = fmt.Sprintf("SKU-%05d", s.rng.Intn(100000))
		it.Price = 1 + 99*s.rng.Float64()
		it.Qty = 1 + s.rng.Intn(5)
		for j := range it.Features {
			it.Features[j] = s.rng.Float64()
		}
	}
	return req
}

//go:noinline
func handleQuote(s *service, req *quoteRequest) {
	resp := priceBasket(s, req)
	applyDiscounts(resp, req.Tier)
	formatResponse(s, resp)
}

//go:noinline
func priceBasket(s *service, req *quoteRequest) *quoteResponse {
	resp := &quoteResponse{Customer: req.Customer, Currency: "EUR"}
	resp.Lines = make([]lineQuote, 0, len(req.Items))
	for i := range req.Items {
		it := &req.Items[i]
		score := calculateScore(s, it)
		unit := it.Price * (0.9 + 0.2*score)
		resp.Lines = append(resp.Lines, lineQuote{
			SKU:   it.SKU,
			Qty:   it.Qty,
			Unit:  unit,
			Score: score,
			Total: unit * float64(it.Qty),
		})
		resp.Subtotal += unit * float64(it.Qty)
	}
	return resp
}

// calculateScore scores one item against the model weights.
//
//go:noinline
func calculateScore(s *service, it *item) float64 {
	w := normalizeWeights(s)
	var dot float64
	for j := range w {
		dot += w[j] * it.Features[j]
	}
	return 1 / (1 + math.Exp(-dot))
}

// normalizeWeights returns a copy of the model weights scaled to unit sum.
// The incident: a change made it also rank the weights, and since it runs
// once per item the sort runs once per item, too.
//
//go:noinline
func normalizeWeights(s *service) []float64 {
	w := make([]float64, len(s.weights))
	var sum float64
	for j, v := range s.weights {
		w[j] = v
		sum += v
	}
	for j := range w {
		w[j] /= sum
	}
	if s.bad {
		sortByRelevance(w)
	}
	return w
}

// sortByRelevance orders weights from most to least relevant. It is the
// regression: a full sort.Sort through the interface on every item of every
// basket, although the weights do not change between items.
//
//go:noinline
func sortByRelevance(w []float64) {
	sort.Sort(sort.Reverse(sort.Float64Slice(w)))
}

//go:noinline
func applyDiscounts(resp *quoteResponse, tier int) {
	rate := []float64{0, 0.02, 0.05, 0.08}[tier]
	resp.Total = 0
	for i := range resp.Lines {
		l := &resp.Lines[i]
		d := rate
		if l.Qty >= 3 {
			d += 0.03
		}
		if l.Score > 0.6 {
			d += 0.01
		}
		l.Discount = math.Round(l.Total*d*100) / 100
		l.Total = math.Round((l.Total-l.Discount)*100) / 100
		resp.Total += l.Total
	}
	resp.Total = math.Round(resp.Total*100) / 100
}

//go:noinline
func formatResponse(s *service, resp *quoteResponse) {
	s.out.Reset()
	enc := json.NewEncoder(&s.out)
	if err := enc.Encode(resp); err != nil {
		log.Fatal(err)
	}
	s.sink += float64(strings.Count(s.out.String(), "sku"))
}
