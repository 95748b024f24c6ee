// Command quotesvc is a small search-and-pricing service loop whose CPU
// profiles, with and without a known change, make the corpus of
// tests/data/runtimes/go (its README.md says what is in it and how it was
// made).
//
// Each request is a text query: parseQuery splits and hashes its terms,
// searchCatalog finds and scores the products that match (matchTerms,
// scoreFeatures), rankResults sorts them with sort.Slice and a comparator,
// groupFacets groups them by category and walks the category tree
// (walkCategory, recursive), priceQuote prices each line (priceItem and
// priceBundle, both through lookupPrice, and applyDiscounts, a leaf) and
// renderResponse writes the answer with a strings.Builder (writeLine,
// buildSnippet, formatPrice, escapeText).  hashKey is a helper that
// parseQuery, lookupPrice and writeLine all call.  Requests, candidates
// and responses are allocated afresh, so the garbage collector runs.
//
// By default -workers goroutines each serve -rate requests a second for
// -duration, sleeping when they are ahead, so the service has headroom
// and a change adds CPU time without displacing other work.  With -rate 0
// they serve requests as fast as they can.  The catalog is always the
// same; -seed chooses the requests.  -inject SHAPE makes one known change
// (see the knobs below); -cpuprofile writes a CPU profile of the whole
// serving window with runtime/pprof, at -hz samples a second of CPU (250
// by default; runtime/pprof's own rate is 100).  -calibrate serves,
// unprofiled and unchanged, with one unpaced worker and prints the
// requests per second.
package main

import (
	"flag"
	"fmt"
	"log"
	"math"
	"math/rand"
	"os"
	"runtime"
	"runtime/pprof"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"
)

const (
	nProducts   = 4000
	nVocab      = 500
	nFeatures   = 16
	termsPerDoc = 6
	treeFanout  = 3
	treeDepth   = 6 // levels below the root
	facetLevels = 1 // facets are the subtrees this many levels down
	descLen     = 600
	historyLen  = 12
	snippetMax  = 48 // bytes of snippet shown
	catalogSeed = 77 // the catalog is the same in every run
)

var regions = []string{"eu-west", "eu-north", "us-east", "ap-south"}
var currencies = []string{"EUR", "SEK", "USD", "INR", "GBP"}
var fxRates = []float64{1, 11.4, 1.08, 90.2, 0.86}

// knobs are the amounts of work the functions do.  -inject changes one
// or two of them; the comments say which shape changes what.
type knobs struct {
	auditRounds   int  // new: auditTrail's passes over the response; 0: it is not called
	discountTurns int  // leaf25, leaf10, two: applyDiscounts' turns per line
	facetSort     bool // spread: groupFacets ranks every facet group with rankResults
	hashRounds    int  // helper: hashKey's mixing rounds per byte
	bundleQuotes  int  // caller: lookups priceBundle makes per component
	walkDepth     int  // recursion: how deep walkCategory recurses
	fuzzyMatch    bool // two: matchTerms also compares every pair of terms by prefix and suffix
	entityMap     bool // two: escapeText looks every byte up in a map of entities
	crossPairs    int  // mixed: feature pairs scoreFeatures crosses
	priceCurs     int  // mixed (improvement): formattings formatPrice makes
	snippetLen    int  // saturated: bytes of description buildSnippet folds
	scratch       int  // alloc: scratch buffers searchCatalog allocates per candidate
}

var k = knobs{
	discountTurns: 600,
	hashRounds:    1,
	bundleQuotes:  1,
	walkDepth:     4,
	crossPairs:    40,
	priceCurs:     10,
	snippetLen:    48,
}

// shapes maps each -inject name to its change.
var shapes = map[string]func(){
	"none":      func() {},
	"new":       func() { k.auditRounds = 6 },
	"leaf25":    func() { k.discountTurns = 750 },
	"leaf10":    func() { k.discountTurns = 660 },
	"spread":    func() { k.facetSort = true },
	"helper":    func() { k.hashRounds = 4 },
	"caller":    func() { k.bundleQuotes = 9 },
	"recursion": func() { k.walkDepth = 5 },
	"two":       func() { k.fuzzyMatch = true; k.entityMap = true },
	"mixed":     func() { k.crossPairs = 120; k.priceCurs = 6 },
	"saturated": func() { k.snippetLen = 600 },
	"alloc":     func() { k.scratch = 3 },
}

type product struct {
	id       int
	sku      string
	name     string
	desc     string
	category int
	price    float64
	terms    []string
	features [nFeatures]float64
	bundle   []int
	history  []*pricePoint // the product's past prices, newest first
}

// pricePoint is one past price of a product; the catalog keeps
// historyLen of them per product, so the heap the garbage collector
// marks in every cycle is tens of thousands of small objects.
type pricePoint struct {
	day   int
	price float64
	prev  *pricePoint
}

type catNode struct {
	id       int
	children []*catNode
	products []int
}

type priceEntry struct {
	key   string
	hash  uint64
	price float64
}

type catalog struct {
	products []product
	byTerm   map[string][]int
	priceTab []priceEntry // open addressing, keyed by hashKey(sku/region)
	root     *catNode
	nodes    int
	vocab    []string
	weights  [nFeatures]float64
}

type request struct {
	raw    string
	tier   int
	region int
	cur    int
	limit  int
}

type candidate struct {
	id    int
	score float64
	price float64
	cat   int
}

type line struct {
	cand     candidate
	unit     float64
	qty      int
	discount float64
	total    float64
}

type response struct {
	req    *request
	lines  []line
	facets map[int]int
	total  float64
	body   string
	etag   uint64
}

type worker struct {
	rng   *rand.Rand
	cache map[uint64]uint64
	audit []uint32
	sink  float64
	n     int
}

func main() {
	seed := flag.Int64("seed", 1, "random seed for the requests")
	inject := flag.String("inject", "none", "the change to make: `SHAPE`, one of "+shapeNames())
	duration := flag.Duration("duration", 6*time.Second, "how long to serve")
	workers := flag.Int("workers", 2, "goroutines serving requests")
	rate := flag.Float64("rate", 0, "requests a second per worker; 0 serves as fast as possible")
	cpuprofile := flag.String("cpuprofile", "", "write a CPU profile of the serving window to `file`")
	// A CPU-time timer fires at most once per kernel tick, so a rate
	// above the kernel's HZ (250 on Debian's and Firecracker's kernels)
	// gives no more samples, only a period that undercounts their time.
	hz := flag.Int("hz", 250, "the CPU profile's sampling rate, `samples` a second of CPU")
	calibrate := flag.Bool("calibrate", false, "serve unprofiled with one unpaced worker and print requests per second")
	flag.Parse()

	change, ok := shapes[*inject]
	if !ok {
		log.Fatalf("-inject: unknown shape %q (one of %s)", *inject, shapeNames())
	}
	if *workers < 1 || *rate < 0 {
		log.Fatal("-workers must be at least 1 and -rate at least 0")
	}
	// The change comes first: hashKey's table is built with the
	// hashKey of the run.
	if !*calibrate {
		change()
	}
	c := newCatalog()
	if *calibrate {
		w := newWorker(*seed)
		start := time.Now()
		serve(c, w, start.Add(*duration), 0)
		fmt.Printf("%.0f\n", float64(w.n)/time.Since(start).Seconds())
		return
	}

	// The window runs from before StartCPUProfile to after
	// StopCPUProfile, as the profile's duration does.
	start := time.Now()
	var f *os.File
	if *cpuprofile != "" {
		var err error
		if f, err = os.Create(*cpuprofile); err != nil {
			log.Fatal(err)
		}
		// StartCPUProfile asks for 100 Hz, which the runtime refuses
		// once a rate is set (it prints "runtime: cannot set cpu
		// profile rate until previous profile has finished" and goes
		// on), so the profile is taken, and its period written, at -hz.
		if *hz != 100 {
			runtime.SetCPUProfileRate(*hz)
		}
		if err := pprof.StartCPUProfile(f); err != nil {
			log.Fatal(err)
		}
	}
	deadline := time.Now().Add(*duration)
	ws := make([]*worker, *workers)
	var wg sync.WaitGroup
	for i := range ws {
		ws[i] = newWorker(*seed*1000 + int64(i))
		wg.Add(1)
		go func(w *worker) {
			defer wg.Done()
			serve(c, w, deadline, *rate)
		}(ws[i])
	}
	wg.Wait()
	if f != nil {
		pprof.StopCPUProfile()
	}
	window := time.Since(start)
	if f != nil {
		if err := f.Close(); err != nil {
			log.Fatal(err)
		}
	}
	n := 0
	for _, w := range ws {
		n += w.n
	}
	fmt.Fprintf(os.Stderr, "quotesvc: inject=%s seed=%d workers=%d rate=%g: %d requests in %.3fs\n",
		*inject, *seed, *workers, *rate, n, window.Seconds())
}

func shapeNames() string {
	names := make([]string, 0, len(shapes))
	for n := range shapes {
		names = append(names, n)
	}
	sort.Strings(names)
	return strings.Join(names, ", ")
}

func newWorker(seed int64) *worker {
	return &worker{rng: rand.New(rand.NewSource(seed)), cache: make(map[uint64]uint64)}
}

// newCatalog builds the products, the term index, the price table and
// the category tree, all from catalogSeed.
func newCatalog() *catalog {
	rng := rand.New(rand.NewSource(catalogSeed))
	c := &catalog{byTerm: make(map[string][]int)}
	syll := []string{"ka", "lo", "mi", "ne", "ru", "sa", "to", "vi", "zen", "dor", "pel", "qua"}
	for i := 0; i < nVocab; i++ {
		var b strings.Builder
		for j := 0; j < 2+rng.Intn(3); j++ {
			b.WriteString(syll[rng.Intn(len(syll))])
		}
		b.WriteString(strconv.Itoa(i % 10))
		c.vocab = append(c.vocab, b.String())
	}
	for j := range c.weights {
		c.weights[j] = rng.Float64()*2 - 1
	}
	c.root = buildTree(rng, 0, &c.nodes)
	leaves := collectNodes(c.root, nil)
	c.products = make([]product, nProducts)
	for i := range c.products {
		p := &c.products[i]
		p.id = i
		p.sku = fmt.Sprintf("SKU-%06d", 100000+i*7)
		p.price = 2 + 400*rng.Float64()*rng.Float64()
		for j := 0; j < termsPerDoc; j++ {
			p.terms = append(p.terms, c.vocab[rng.Intn(nVocab)])
		}
		p.name = strings.Join(p.terms[:3], " ") + " & " + p.terms[3] + " <" + p.sku + ">"
		var d strings.Builder
		for d.Len() < descLen {
			d.WriteString(strings.ToUpper(c.vocab[rng.Intn(nVocab)][:1]))
			d.WriteString(c.vocab[rng.Intn(nVocab)])
			d.WriteString(" \"quality\" & value, ")
		}
		p.desc = d.String()[:descLen]
		for j := range p.features {
			p.features[j] = rng.Float64()
		}
		node := leaves[rng.Intn(len(leaves))]
		node.products = append(node.products, i)
		p.category = node.id
		if rng.Intn(4) == 0 {
			for j := 0; j < 2+rng.Intn(3); j++ {
				p.bundle = append(p.bundle, rng.Intn(nProducts))
			}
		}
		for _, t := range p.terms {
			c.byTerm[t] = append(c.byTerm[t], i)
		}
		var prev *pricePoint
		for d := historyLen; d > 0; d-- {
			pp := &pricePoint{day: -d, price: p.price * (0.9 + 0.2*rng.Float64()), prev: prev}
			p.history = append([]*pricePoint{pp}, p.history...)
			prev = pp
		}
	}
	c.priceTab = make([]priceEntry, 1<<16)
	for i := range c.products {
		p := &c.products[i]
		for r, reg := range regions {
			key := p.sku + "/" + reg
			h := hashKey(key)
			slot := h & uint64(len(c.priceTab)-1)
			for c.priceTab[slot].key != "" {
				slot = (slot + 1) & uint64(len(c.priceTab)-1)
			}
			c.priceTab[slot] = priceEntry{key: key, hash: h, price: p.price * (1 + 0.05*float64(r))}
		}
	}
	return c
}

func buildTree(rng *rand.Rand, depth int, n *int) *catNode {
	node := &catNode{id: *n}
	*n++
	if depth < treeDepth {
		for i := 0; i < treeFanout; i++ {
			node.children = append(node.children, buildTree(rng, depth+1, n))
		}
	}
	return node
}

func collectNodes(n *catNode, acc []*catNode) []*catNode {
	acc = append(acc, n)
	for _, ch := range n.children {
		acc = collectNodes(ch, acc)
	}
	return acc
}

// serve handles requests until the deadline.  With a rate it keeps to a
// schedule of rate requests a second, sleeping when it is 2 ms or more
// ahead of it and catching up when it is behind.
//
//go:noinline
func serve(c *catalog, w *worker, deadline time.Time, rate float64) {
	start := time.Now()
	var interval time.Duration
	if rate > 0 {
		interval = time.Duration(float64(time.Second) / rate)
	}
	for time.Now().Before(deadline) {
		req := nextRequest(c, w)
		handleRequest(c, w, req)
		w.n++
		if interval > 0 {
			due := start.Add(time.Duration(w.n) * interval)
			if d := time.Until(due); d >= 2*time.Millisecond {
				time.Sleep(d)
			}
		}
	}
}

//go:noinline
func nextRequest(c *catalog, w *worker) *request {
	rng := w.rng
	var b strings.Builder
	n := 2 + rng.Intn(3)
	for i := 0; i < n; i++ {
		t := c.vocab[rng.Intn(nVocab)]
		if rng.Intn(3) == 0 {
			t = strings.ToUpper(t[:1]) + t[1:]
		}
		b.WriteString(t)
		b.WriteString("  "[:1+rng.Intn(2)])
	}
	return &request{
		raw:    b.String(),
		tier:   rng.Intn(4),
		region: rng.Intn(len(regions)),
		cur:    rng.Intn(len(currencies)),
		limit:  20 + rng.Intn(21),
	}
}

//go:noinline
func handleRequest(c *catalog, w *worker, req *request) {
	terms, qkey := parseQuery(req)
	cands := searchCatalog(c, terms)
	rankResults(cands)
	resp := &response{req: req}
	resp.facets = groupFacets(c, cands) // over all the results
	if len(cands) > req.limit {
		cands = cands[:req.limit]
	}
	priceQuote(c, req, resp, cands)
	renderResponse(c, resp)
	if k.auditRounds > 0 {
		w.audit = append(w.audit[:0], auditTrail(resp))
	}
	w.cache[qkey&4095] = resp.etag
	w.sink += resp.total
}

// hashKey is the shared helper: FNV-1a with an extra mixing step per byte
// (hashRounds of them), as a table keyed by strings might use.
//
//go:noinline
func hashKey(s string) uint64 {
	h := uint64(14695981039346656037)
	for i := 0; i < len(s); i++ {
		h ^= uint64(s[i])
		h *= 1099511628211
		for r := 0; r < k.hashRounds; r++ {
			h ^= h >> 29
			h *= 0xbf58476d1ce4e5b9
		}
	}
	return h
}

// parseQuery lowers and splits the query, drops repeated terms and hashes
// each term into the query's cache key.
//
//go:noinline
func parseQuery(req *request) ([]string, uint64) {
	fields := strings.Fields(strings.ToLower(req.raw))
	seen := make(map[string]bool, len(fields))
	terms := fields[:0]
	var qkey uint64
	for _, f := range fields {
		if seen[f] {
			continue
		}
		seen[f] = true
		terms = append(terms, f)
		qkey = qkey*31 + hashKey(f)
	}
	qkey ^= uint64(req.region)<<56 | uint64(req.cur)<<48
	return terms, qkey
}

// searchCatalog collects every product that has a query term, scores it
// and keeps those the model scores at 0.5 or more.
//
//go:noinline
func searchCatalog(c *catalog, terms []string) []candidate {
	seen := make(map[int]bool, 256)
	var cands []candidate
	var scratch [][]byte
	for _, t := range terms {
		for _, id := range c.byTerm[t] {
			if seen[id] {
				continue
			}
			seen[id] = true
			p := &c.products[id]
			m := matchTerms(p, terms)
			if m == 0 {
				continue
			}
			s := scoreFeatures(c, p)
			if s < 0.5 {
				continue
			}
			s += float64(m)
			for i := 0; i < k.scratch; i++ {
				// The alloc change: a scratch copy of the
				// product's description per candidate.
				buf := make([]byte, 0, 256+64*i)
				buf = append(buf, p.desc[:64]...)
				scratch = append(scratch, buf)
			}
			cands = append(cands, candidate{id: id, score: s, price: p.price, cat: p.category})
		}
	}
	if len(scratch) > 0 && scratch[0][0] == 0 {
		cands = cands[:0]
	}
	return cands
}

// matchTerms counts the query terms the product has; with fuzzyMatch it
// also scores every pair of terms by their common prefix and suffix, as a
// fuzzier matcher would.
//
//go:noinline
func matchTerms(p *product, terms []string) int {
	m := 0
	for _, q := range terms {
		for _, t := range p.terms {
			if t == q {
				m += 2
			}
		}
	}
	if k.fuzzyMatch {
		for _, q := range terms {
			for _, t := range p.terms {
				n := len(q)
				if len(t) < n {
					n = len(t)
				}
				pre, suf := 0, 0
				for pre < n && q[pre] == t[pre] {
					pre++
				}
				for suf < n && q[len(q)-1-suf] == t[len(t)-1-suf] {
					suf++
				}
				if pre >= 4 && suf >= 2 {
					m++
				}
			}
		}
	}
	return m
}

// scoreFeatures is a small linear model over the product's features and
// crossPairs products of pairs of them.
//
//go:noinline
func scoreFeatures(c *catalog, p *product) float64 {
	var s float64
	for j := 0; j < nFeatures; j++ {
		s += c.weights[j] * p.features[j]
	}
	for n := 0; n < k.crossPairs; n++ {
		a, b := n%nFeatures, (n*7+3)%nFeatures
		s += 0.01 * p.features[a] * p.features[b] * c.weights[(a+b)%nFeatures]
	}
	return 1 / (1 + math.Exp(-s))
}

// lessByScore is the comparator: by score, descending, then by price.
//
//go:noinline
func lessByScore(a, b *candidate) bool {
	if a.score != b.score {
		return a.score > b.score
	}
	return a.price < b.price
}

//go:noinline
func rankResults(cands []candidate) {
	sort.Slice(cands, func(i, j int) bool { return lessByScore(&cands[i], &cands[j]) })
}

// groupFacets counts the results by facet (a subtree of the category
// tree) and walks the tree to count how many results fall under
// its nodes.  With facetSort it also ranks, for each facet in its loop
// over them, the results as they would be with that facet boosted: a new
// call of rankResults, which handleRequest calls too.
//
//go:noinline
func groupFacets(c *catalog, cands []candidate) map[int]int {
	groups := make(map[int][]candidate)
	for _, cd := range cands {
		f := facetOf(c, cd.cat)
		groups[f] = append(groups[f], cd)
	}
	facets := make(map[int]int, len(groups))
	for f, g := range groups {
		facets[f] = len(g)
		if k.facetSort {
			boosted := append([]candidate(nil), cands...)
			for i := range boosted {
				if facetOf(c, boosted[i].cat) == f {
					boosted[i].score += 0.25
				}
			}
			rankResults(boosted)
			facets[f] += boosted[0].id & 1
		}
	}
	var mark [2048]bool
	for _, cd := range cands {
		mark[cd.cat&2047] = true
	}
	facets[-1] = walkCategory(c.root, 0, &mark)
	return facets
}

// facetOf is the facet of a category node: the subtree, facetLevels
// levels below the root, that it is in (or the node itself, when it is
// higher up).  The nodes are numbered depth first, so the subtree follows
// from the id: descending from the root, each level takes the child whose
// range the id falls in.  The facet is the path, a digit per level.
func facetOf(c *catalog, id int) int {
	f, size := 0, c.nodes
	for level := 0; id != 0 && level < facetLevels; level++ {
		size = (size - 1) / treeFanout // nodes under each child, itself included
		id--
		f = f*(treeFanout+1) + 1 + id/size
		id %= size
	}
	return f
}

// walkCategory counts the products of the marked nodes under a node, down to
// walkDepth levels, by recursion over its children.
//
//go:noinline
func walkCategory(n *catNode, depth int, mark *[2048]bool) int {
	count := 0
	if mark[n.id&2047] {
		for _, id := range n.products {
			count += 1 + id&1
		}
	}
	// A little bookkeeping per node, as a facet counter keeps.
	h := uint32(n.id)
	for i := 0; i < 160; i++ {
		h = h*2654435761 + uint32(i)
	}
	count += int(h >> 31)
	if depth < k.walkDepth {
		for _, ch := range n.children {
			count += walkCategory(ch, depth+1, mark)
		}
	}
	return count
}

// priceQuote prices each result line, bundles through priceBundle, then
// applies the customer's discounts.
//
//go:noinline
func priceQuote(c *catalog, req *request, resp *response, cands []candidate) {
	resp.lines = make([]line, 0, len(cands))
	for i, cd := range cands {
		p := &c.products[cd.id]
		var unit float64
		if p.bundle != nil {
			unit = priceBundle(c, p, req.region)
		} else {
			unit = priceItem(c, p, req.region)
		}
		resp.lines = append(resp.lines, line{cand: cd, unit: unit, qty: 1 + i%3})
	}
	resp.total = applyDiscounts(resp.lines, req.tier)
}

//go:noinline
func priceItem(c *catalog, p *product, region int) float64 {
	return lookupPrice(c, p.sku, region) * (1 + 0.01*float64(region))
}

// priceBundle prices a bundle as the sum of its components, less 5%.  With
// bundleQuotes above 1 it prices each component that many times, in its
// region and in the others in turn, and takes the cheapest.
//
//go:noinline
func priceBundle(c *catalog, p *product, region int) float64 {
	var sum float64
	for _, id := range p.bundle {
		comp := &c.products[id]
		best := math.Inf(1)
		for r := 0; r < k.bundleQuotes; r++ {
			v := lookupPrice(c, comp.sku, (region+r)%len(regions))
			if v < best {
				best = v
			}
		}
		sum += best
	}
	return sum * 0.95
}

// lookupPrice finds a SKU's price in a region in the open-addressing
// price table.
//
//go:noinline
func lookupPrice(c *catalog, sku string, region int) float64 {
	key := sku + "/" + regions[region]
	h := hashKey(key)
	mask := uint64(len(c.priceTab) - 1)
	for slot := h & mask; ; slot = (slot + 1) & mask {
		e := &c.priceTab[slot]
		if e.key == "" {
			return 0
		}
		if e.hash == h && e.key == key {
			return e.price
		}
	}
}

// applyDiscounts is the leaf: the tier's rate, a quantity step and a
// loyalty discount compounded over discountTurns periods, per line.
//
//go:noinline
func applyDiscounts(lines []line, tier int) float64 {
	rate := []float64{0, 0.02, 0.05, 0.08}[tier]
	var total float64
	for i := range lines {
		l := &lines[i]
		d := rate
		if l.qty >= 3 {
			d += 0.03
		}
		loyal := 1.0
		for t := 0; t < k.discountTurns; t++ {
			loyal = loyal*0.9995 + 0.0004*float64(t&1)
		}
		d += 0.01 * (1 - loyal)
		amount := l.unit * float64(l.qty)
		l.discount = math.Round(amount*d*100) / 100
		l.total = math.Round((amount-l.discount)*100) / 100
		total += l.total
	}
	return math.Round(total*100) / 100
}

// renderResponse writes the response as text lines and keeps its etag.
//
//go:noinline
func renderResponse(c *catalog, resp *response) {
	var b strings.Builder
	b.Grow(64 * len(resp.lines))
	b.WriteString("quote region=")
	b.WriteString(regions[resp.req.region])
	b.WriteString(" currency=")
	b.WriteString(currencies[resp.req.cur])
	b.WriteByte('\n')
	var etag uint64
	for i := range resp.lines {
		etag ^= writeLine(&b, c, resp, &resp.lines[i])
	}
	for top, n := range resp.facets {
		b.WriteString("facet ")
		b.WriteString(strconv.Itoa(top))
		b.WriteByte('=')
		b.WriteString(strconv.Itoa(n))
		b.WriteByte('\n')
	}
	resp.body = b.String()
	resp.etag = etag
}

// writeLine writes one result line and returns its hash.
//
//go:noinline
func writeLine(b *strings.Builder, c *catalog, resp *response, l *line) uint64 {
	p := &c.products[l.cand.id]
	start := b.Len()
	b.WriteString(p.sku)
	b.WriteByte('\t')
	escapeText(b, p.name)
	b.WriteByte('\t')
	b.WriteString(buildSnippet(p.desc))
	b.WriteByte('\t')
	b.WriteString(formatPrice(l.total, resp.req.cur))
	b.WriteByte('\n')
	return hashKey(b.String()[start:])
}

// entities are the escapes of escapeText's map lookup (entityMap).
var entities = map[string]string{"<": "&lt;", ">": "&gt;", "&": "&amp;", "\"": "&quot;"}

// escapeText writes s with HTML's special characters escaped, through a
// switch or, with entityMap, a lookup of every byte in the map entities:
// the same output, at the cost of a map access per byte.
//
//go:noinline
func escapeText(b *strings.Builder, s string) {
	var buf [256]byte
	out := buf[:0]
	if k.entityMap {
		for i := 0; i < len(s); i++ {
			if e, ok := entities[s[i:i+1]]; ok {
				out = append(out, e...)
			} else {
				out = append(out, s[i])
			}
		}
		b.Write(out)
		return
	}
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '<':
			out = append(out, "&lt;"...)
		case '>':
			out = append(out, "&gt;"...)
		case '&':
			out = append(out, "&amp;"...)
		case '"':
			out = append(out, "&quot;"...)
		default:
			out = append(out, s[i])
		}
	}
	b.Write(out)
}

// buildSnippet folds the first snippetLen bytes of a description to
// lower case, words capitalized, spaces collapsed, and returns the first
// snippetMax bytes of the result (all of it as the program stands), so
// that a longer fold changes no other function's work.
//
//go:noinline
func buildSnippet(desc string) string {
	n := k.snippetLen
	if n > len(desc) {
		n = len(desc)
	}
	out := make([]byte, 0, n)
	space := true
	for i := 0; i < n; i++ {
		ch := desc[i]
		switch {
		case ch == ' ':
			if !space {
				out = append(out, ' ')
			}
			space = true
			continue
		case ch >= 'A' && ch <= 'Z':
			ch += 'a' - 'A'
		}
		if space && ch >= 'a' && ch <= 'z' {
			ch -= 'a' - 'A'
		}
		out = append(out, ch)
		space = false
	}
	if len(out) > snippetMax {
		out = out[:snippetMax]
	}
	return string(out)
}

// formatPrice formats the amount in the request's currency and, for the
// alternatives shown next to it, in the others and again rounded for
// display: priceCurs formattings in all, the currencies in turn.  Only
// the first is returned; the others go to the display cache.
//
//go:noinline
func formatPrice(amount float64, cur int) string {
	var first string
	var buf [32]byte
	for i := 0; i < k.priceCurs; i++ {
		cc := (cur + i) % len(currencies)
		v := amount * fxRates[cc]
		out := strconv.AppendFloat(buf[:0], v, 'f', 2, 64)
		out = append(out, ' ')
		out = append(out, currencies[cc]...)
		if i == 0 {
			first = string(out)
		}
	}
	return first
}

// auditTrail is the new function: a checksum of the rendered response,
// auditRounds passes of it, as an audit log might keep.
//
//go:noinline
func auditTrail(resp *response) uint32 {
	var sum uint32 = 0xffffffff
	for r := 0; r < k.auditRounds; r++ {
		for i := 0; i < len(resp.body); i++ {
			sum ^= uint32(resp.body[i])
			for j := 0; j < 4; j++ {
				sum = sum>>1 ^ (0xedb88320 & -(sum & 1))
			}
		}
	}
	return ^sum
}
