// Command types runs a small service workload that leaves a mark in every
// kind of profile Go writes besides CPU, for profdiff's tests of those
// types (tests/data/types): allocations, heap in use, mutex contention,
// blocking and goroutines. It has no dependencies outside the standard
// library.
//
// Workers serve generated requests (nextRequest) through handleQuote,
// which builds a small index (buildIndex: many small objects), updates a
// shared table under a lock (quoteMu, held in handleQuote) and renders a
// page (renderPage: a kilobyte or two, or a large object every sixteenth
// request). The worker then caches some pages (cacheResult: memory that
// stays), counts the request under another lock (recordStats) and hands
// an event to a slow consumer through a small channel (sendEvent, which
// blocks when it is full). These are siblings, not callees, of
// handleQuote, so that its lock is all it has in a mutex profile. A
// pool of goroutines waits for occasional jobs (waitForWork), and a
// fixed number of idle connections wait for timers (serveConn). At
// start it loads a catalog that stays (loadCatalog) and opens sessions
// that expire while it runs (openSessions, expireSessions), so that a
// delta heap profile has sites whose memory in use falls.
//
// -inject names one known change, made in one named function:
//
//	allocs-more    main.buildIndex allocates twice the objects, same size
//	allocs-bigger  main.buildIndex allocates the same objects, twice the size
//	heap-leak      main.cacheResult keeps three times as many entries
//	mutex          main.handleQuote holds quoteMu five times as long
//	block          main.sendEvent's consumer drains four times as slowly
//	goroutines     four times as many goroutines park in main.waitForWork
//
// At the end of -duration it writes the profiles named by -profiles into
// -dir as TYPE-NAME.pb.gz (gzipped pprof, as runtime/pprof writes them):
// the goroutine profile while the workload still runs, then, with the
// workload stopped and after a garbage collection (so that heap in use is
// up to date), the others. -base T also writes TYPE-NAME.base.pb.gz for
// allocs, mutex and block at T after start: an earlier cumulative
// snapshot of the same process. -every D writes such snapshots every D
// after start, as TYPE-NAME.tNN.pb.gz, and -inject-at T makes the
// -inject change (allocs-more, allocs-bigger or mutex) at T while the
// workload runs instead of before it starts: a series of cumulative
// snapshots of one process whose change is known, and when. -delta N fetches
// /debug/pprof/heap?seconds=N from a net/http/pprof server of its own on
// 127.0.0.1, from -delta-at after start, with Go's HTTP client, and
// saves the bytes as heap-NAME.delta.pb.gz. -stats FILE appends one line
// per profile written with what the file cannot say: the seconds of
// profiling it covers and the samples Go actually took, before
// runtime/pprof scaled them up, in all and in the samples of the function
// whose change is injected for that type.
package main

import (
	"flag"
	"fmt"
	"io"
	"log"
	"math/rand"
	"net"
	"net/http"
	_ "net/http/pprof"
	"os"
	"path/filepath"
	"runtime"
	"runtime/pprof"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// The sampling settings of the profiles: Go's default heap sampling (one
// sample per 512 KiB allocated on average), one mutex contention event in
// mutexFraction recorded (runtime/pprof scales the counts back up by
// it), and blocking events of blockRate nanoseconds or more always
// recorded, shorter ones with probability duration / blockRate (not
// scaled back up by Go 1.19).
const (
	mutexFraction = 5
	blockRate     = 10000
)

// The workload's sizes.
const (
	workers      = 8
	indexSize    = 64       // bytes per buildIndex object
	pageSmall    = 1 << 10  // renderPage's small pages, up to twice that
	pageLarge    = 40 << 10 // every sixteenth page, up to 32 KiB more
	cacheEntry   = 4 << 10  // bytes per cached result
	cacheLimit   = 3000     // entries the cache keeps
	catalogBytes = 12 << 20 // retained for the whole run, in 64 KiB chunks
	sessionBytes = 6 << 20  // opened at start, expire while it runs
	sessionSize  = 2 << 10
	poolSize     = 16                     // goroutines in waitForWork
	holdTurns    = 1500                   // under quoteMu, per request
	statsTurns   = 300                    // under statsMu
	drainPause   = 200 * time.Microsecond // every 32 events
)

type request struct {
	id    int
	user  string
	items []string
}

type service struct {
	// Set by -inject before the workload starts, or while it runs
	// (-inject-at): these three are read atomically.
	indexCopies atomic.Int64 // objects per item in buildIndex
	indexBytes  atomic.Int64 // size of each
	holdTurns   atomic.Int64 // spin turns under quoteMu
	keep        int          // cache entries kept
	pause       time.Duration
	pool        int

	quoteMu sync.Mutex
	quotes  [4096]float64

	statsMu sync.Mutex
	stats   map[string]int

	cacheMu sync.Mutex
	cache   map[int][]byte
	ring    []int
	next    int

	sessMu   sync.Mutex
	sessions [][]byte
	catalog  [][]byte

	events chan int
	jobs   chan int
	stop   chan struct{}
	sink   float64
}

// stats is one line of -stats.
type stats struct {
	file   string
	kind   string // end, base or delta
	secs   float64
	nanos  int64
	raw    []int64 // the samples Go took, per sample type group
	target []int64 // the same, in samples with typeTarget on the stack
}

var (
	// The function each type's change is made in: -stats counts its
	// samples in every run, with the change or without.
	typeTarget = map[string]string{
		"allocs":    "main.buildIndex",
		"heap":      "main.cacheResult",
		"mutex":     "main.handleQuote",
		"block":     "main.sendEvent",
		"goroutine": "main.waitForWork",
	}
	start time.Time
)

func main() {
	duration := flag.Duration("duration", 4*time.Second, "how long to run the workload")
	seed := flag.Int64("seed", 1, "random seed of the requests and of the idle connections")
	inject := flag.String("inject", "", "a known change: allocs-more, allocs-bigger, heap-leak, mutex, block or goroutines")
	dir := flag.String("dir", ".", "the `directory` to write the profiles in")
	name := flag.String("name", "run", "the run's `name`: files are TYPE-NAME.pb.gz")
	profiles := flag.String("profiles", "allocs,heap,mutex,block,goroutine", "the profiles to write, comma-separated")
	base := flag.Duration("base", 0, "also write allocs, mutex and block snapshots this long after start (0: none)")
	every := flag.Duration("every", 0, "also write allocs, mutex and block snapshots every `D` after start, as TYPE-NAME.tNN.pb.gz (0: none)")
	injectAt := flag.Duration("inject-at", 0, "make the -inject change this long after start, while the workload runs (allocs-more, allocs-bigger or mutex; 0: before it starts)")
	delta := flag.Int("delta", 0, "also save /debug/pprof/heap?seconds=`N` (0: none)")
	deltaAt := flag.Duration("delta-at", time.Second, "when to start the delta heap profile")
	statsFile := flag.String("stats", "", "append a line per profile written to `file`")
	flag.Parse()

	s := newService(*seed)
	if *injectAt > 0 {
		switch *inject {
		case "allocs-more", "allocs-bigger", "mutex":
		default:
			log.Fatalf("-inject-at: -inject %q cannot be made while the workload runs", *inject)
		}
		if *injectAt >= *duration {
			log.Fatalf("-inject-at must be before -duration")
		}
	} else if *inject != "" {
		if err := s.setInject(*inject); err != nil {
			log.Fatalf("-inject: %v", err)
		}
	}
	want := map[string]bool{}
	for _, p := range strings.Split(*profiles, ",") {
		switch p {
		case "allocs", "heap", "mutex", "block", "goroutine":
			want[p] = true
		default:
			log.Fatalf("-profiles: %q is not allocs, heap, mutex, block or goroutine", p)
		}
	}
	if *base >= *duration || *deltaAt+time.Duration(*delta)*time.Second >= *duration {
		log.Fatalf("-base and -delta must end before -duration")
	}
	var st []stats

	runtime.SetMutexProfileFraction(mutexFraction)
	runtime.SetBlockProfileRate(blockRate)
	start = time.Now()

	var deltaDone chan error
	if *delta > 0 {
		url := serveProfiles()
		deltaDone = make(chan error, 1)
		path := filepath.Join(*dir, "heap-"+*name+".delta.pb.gz")
		go func() {
			time.Sleep(time.Until(start.Add(*deltaAt)))
			deltaDone <- fetch(url+"/debug/pprof/heap?seconds="+strconv.Itoa(*delta), path)
		}()
		st = append(st, stats{file: filepath.Base(path), kind: "delta",
			secs: float64(*delta)})
	}

	s.loadCatalog()
	s.openSessions()
	var wg sync.WaitGroup
	s.startWorkload(&wg, *seed)

	// What happens while the workload runs, in time order: the -base
	// snapshots, the -every ones, and the -inject-at change (after a
	// snapshot of the same time).
	type event struct {
		at time.Duration
		do func()
	}
	var evs []event
	snapshot := func(name, kind string) func() {
		return func() {
			for _, p := range []string{"allocs", "mutex", "block"} {
				if want[p] {
					st = append(st, writeProfile(*dir, p, name, kind))
				}
			}
		}
	}
	if *base > 0 {
		evs = append(evs, event{*base, snapshot(*name+".base", "base")})
	}
	for k := 1; *every > 0 && time.Duration(k)**every < *duration; k++ {
		evs = append(evs, event{time.Duration(k) * *every,
			snapshot(fmt.Sprintf("%s.t%02d", *name, k), "snapshot")})
	}
	if *injectAt > 0 {
		evs = append(evs, event{*injectAt, func() { _ = s.setInject(*inject) }})
	}
	sort.SliceStable(evs, func(i, j int) bool { return evs[i].at < evs[j].at })
	for _, e := range evs {
		time.Sleep(time.Until(start.Add(e.at)))
		e.do()
	}
	time.Sleep(time.Until(start.Add(*duration)))
	if want["goroutine"] {
		st = append(st, writeProfile(*dir, "goroutine", *name, "end"))
	}
	if deltaDone != nil {
		if err := <-deltaDone; err != nil {
			log.Fatalf("delta heap profile: %v", err)
		}
	}
	close(s.stop)
	wg.Wait()
	runtime.GC()
	for _, p := range []string{"allocs", "heap", "mutex", "block"} {
		if want[p] {
			st = append(st, writeProfile(*dir, p, *name, "end"))
		}
	}
	runtime.KeepAlive(s)

	if *statsFile != "" {
		if err := writeStats(*statsFile, st); err != nil {
			log.Fatal(err)
		}
	}
	fmt.Fprintf(os.Stderr, "types: %s seed=%d inject=%q: %d requests in %v\n",
		*name, *seed, *inject, s.stats["requests"], *duration)
}

func newService(seed int64) *service {
	s := &service{
		keep:   cacheLimit,
		pause:  drainPause,
		pool:   poolSize,
		stats:  map[string]int{},
		cache:  map[int][]byte{},
		events: make(chan int, 8),
		jobs:   make(chan int),
		stop:   make(chan struct{}),
	}
	s.indexCopies.Store(1)
	s.indexBytes.Store(indexSize)
	s.holdTurns.Store(holdTurns)
	return s
}

func (s *service) setInject(what string) error {
	switch what {
	case "allocs-more":
		s.indexCopies.Store(2)
	case "allocs-bigger":
		s.indexBytes.Store(2 * indexSize)
	case "heap-leak":
		s.keep = 3 * cacheLimit
	case "mutex":
		s.holdTurns.Store(5 * holdTurns)
	case "block":
		s.pause = 4 * drainPause
	case "goroutines":
		s.pool = 4 * poolSize
	default:
		return fmt.Errorf("%q is not allocs-more, allocs-bigger, heap-leak, mutex, block or goroutines", what)
	}
	return nil
}

// startWorkload starts every goroutine of the workload; they return when
// s.stop is closed.
func (s *service) startWorkload(wg *sync.WaitGroup, seed int64) {
	rng := rand.New(rand.NewSource(seed))
	run := func(f func()) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			f()
		}()
	}
	for i := 0; i < workers; i++ {
		r := rand.New(rand.NewSource(rng.Int63()))
		run(func() { worker(s, r) })
	}
	run(func() { drainEvents(s) })
	run(func() { dispatchJobs(s) })
	run(func() { expireSessions(s) })
	for i := 0; i < s.pool; i++ {
		run(func() { waitForWork(s) })
	}
	// Idle connections: as many in every run, so that runs with no
	// change injected have the same work to block on (when their
	// number depended on the seed, their waits differed from run to run
	// for real, and a no-change pair was not one).
	conns := 24
	for i := 0; i < conns; i++ {
		r := rand.New(rand.NewSource(rng.Int63()))
		run(func() { serveConn(s, r) })
	}
}

//go:noinline
func worker(s *service, rng *rand.Rand) {
	for n := 0; ; n++ {
		select {
		case <-s.stop:
			return
		default:
		}
		req := nextRequest(rng, n)
		page := handleQuote(s, rng, req)
		if req.id%8 == 0 {
			cacheResult(s, req.id, page)
		}
		recordStats(s, req)
		sendEvent(s, req.id)
		if n%4 == 3 {
			// Waiting on a backend: keeps the service off a
			// core of its own.
			time.Sleep(300 * time.Microsecond)
		}
	}
}

//go:noinline
func nextRequest(rng *rand.Rand, n int) *request {
	req := &request{id: rng.Int(), user: "user-" + strconv.Itoa(rng.Intn(100000))}
	req.items = make([]string, 8+rng.Intn(17))
	for i := range req.items {
		req.items[i] = "sku-" + strconv.Itoa(rng.Intn(1000000))
	}
	return req
}

//go:noinline
func handleQuote(s *service, rng *rand.Rand, req *request) []byte {
	idx := buildIndex(s, req)
	s.quoteMu.Lock()
	for _, b := range idx {
		s.quotes[int(b[0])<<4|int(b[len(b)-1])&15] += float64(len(b))
	}
	s.sink += spin(int(s.holdTurns.Load()))
	s.quoteMu.Unlock()
	return renderPage(rng, req)
}

// buildIndex makes indexCopies objects of indexBytes per item.
//
//go:noinline
func buildIndex(s *service, req *request) [][]byte {
	copies, size := int(s.indexCopies.Load()), int(s.indexBytes.Load())
	idx := make([][]byte, 0, len(req.items)*copies)
	for _, it := range req.items {
		for c := 0; c < copies; c++ {
			b := make([]byte, size)
			copy(b, it)
			b[len(b)-1] = byte(c)
			idx = append(idx, b)
		}
	}
	return idx
}

// spin is work done under a lock: turns of a dependent multiply-add.
//
//go:noinline
func spin(turns int) float64 {
	x := 1.0
	for i := 0; i < turns; i++ {
		x = x*1.0000001 + 1e-9
	}
	return x
}

//go:noinline
func renderPage(rng *rand.Rand, req *request) []byte {
	n := pageSmall + rng.Intn(pageSmall)
	if req.id%16 == 0 {
		n = pageLarge + rng.Intn(32<<10)
	}
	page := make([]byte, 0, n)
	page = append(page, req.user...)
	for _, it := range req.items {
		page = append(page, ' ')
		page = append(page, it...)
	}
	return page[:n]
}

// cacheResult keeps a copy of the page's head; the oldest entry goes
// when the cache holds s.keep.
//
//go:noinline
func cacheResult(s *service, key int, page []byte) {
	e := make([]byte, cacheEntry)
	copy(e, page)
	s.cacheMu.Lock()
	if len(s.ring) < s.keep {
		s.ring = append(s.ring, key)
	} else {
		delete(s.cache, s.ring[s.next])
		s.ring[s.next] = key
		s.next = (s.next + 1) % s.keep
	}
	s.cache[key] = e
	s.cacheMu.Unlock()
}

//go:noinline
func recordStats(s *service, req *request) {
	s.statsMu.Lock()
	s.stats["requests"]++
	s.stats["items"] += len(req.items)
	s.sink += spin(statsTurns)
	s.statsMu.Unlock()
}

// sendEvent hands an event to drainEvents; it blocks while the channel
// is full.
//
//go:noinline
func sendEvent(s *service, id int) {
	select {
	case s.events <- id:
	case <-s.stop:
	}
}

//go:noinline
func drainEvents(s *service) {
	for n := 1; ; n++ {
		select {
		case <-s.stop:
			return
		case <-s.events:
		}
		if n%32 == 0 {
			time.Sleep(s.pause)
		}
	}
}

// dispatchJobs wakes one goroutine of the pool every 2 ms.
//
//go:noinline
func dispatchJobs(s *service) {
	t := time.NewTicker(2 * time.Millisecond)
	defer t.Stop()
	for n := 0; ; n++ {
		select {
		case <-s.stop:
			return
		case <-t.C:
		}
		select {
		case s.jobs <- n:
		case <-s.stop:
			return
		}
	}
}

//go:noinline
func waitForWork(s *service) {
	for {
		select {
		case <-s.stop:
			return
		case j := <-s.jobs:
			s.statsMu.Lock()
			s.stats["jobs"] += j & 1
			s.statsMu.Unlock()
		}
	}
}

// serveConn is an idle keep-alive connection: it wakes now and then.
//
//go:noinline
func serveConn(s *service, rng *rand.Rand) {
	for {
		t := time.NewTimer(time.Duration(20+rng.Intn(80)) * time.Millisecond)
		select {
		case <-s.stop:
			t.Stop()
			return
		case <-t.C:
		}
	}
}

//go:noinline
func (s *service) loadCatalog() {
	for n := 0; n < catalogBytes; n += 64 << 10 {
		s.catalog = append(s.catalog, make([]byte, 64<<10))
	}
}

//go:noinline
func (s *service) openSessions() {
	for n := 0; n < sessionBytes; n += sessionSize {
		s.sessions = append(s.sessions, make([]byte, sessionSize))
	}
}

// expireSessions drops one session in fifty every 50 ms, oldest first:
// about a third of them in a four-second run.
//
//go:noinline
func expireSessions(s *service) {
	t := time.NewTicker(50 * time.Millisecond)
	defer t.Stop()
	next := 0
	for {
		select {
		case <-s.stop:
			return
		case <-t.C:
		}
		s.sessMu.Lock()
		for i := 0; i < len(s.sessions)/400 && next < len(s.sessions); i++ {
			s.sessions[next] = nil
			next++
		}
		s.sessMu.Unlock()
	}
}

// serveProfiles starts net/http/pprof on a free port of 127.0.0.1 and
// returns its base URL.
func serveProfiles() string {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		log.Fatal(err)
	}
	go func() { log.Fatal(http.Serve(l, nil)) }()
	return "http://" + l.Addr().String()
}

// fetch saves the body of url to path.
func fetch(url, path string) error {
	resp, err := http.Get(url)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		b, _ := io.ReadAll(resp.Body)
		return fmt.Errorf("%s: %s: %s", url, resp.Status, b)
	}
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if _, err := io.Copy(f, resp.Body); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// writeProfile writes profile typ of runtime/pprof to dir/typ-name.pb.gz
// and returns its stats line. The samples Go took are read from the
// runtime right after, which is exact for the end profiles (the workload
// has stopped, so no garbage collection publishes new heap samples in
// between) and left out for the snapshots taken while it runs.
func writeProfile(dir, typ, name, kind string) stats {
	path := filepath.Join(dir, typ+"-"+name+".pb.gz")
	f, err := os.Create(path)
	if err != nil {
		log.Fatal(err)
	}
	st := stats{file: filepath.Base(path), kind: kind,
		secs: time.Since(start).Seconds(), nanos: time.Now().UnixNano()}
	if err := pprof.Lookup(typ).WriteTo(f, 0); err != nil {
		log.Fatal(err)
	}
	if err := f.Close(); err != nil {
		log.Fatal(err)
	}
	if kind == "end" {
		st.raw, st.target = rawSamples(typ, typeTarget[typ])
	}
	return st
}

// rawSamples: for allocs and heap, the heap samples taken (objects
// sampled, each one a sample) and those still in use; for mutex and
// block, the events recorded; for goroutine, the goroutines. The second
// slice counts only samples whose stack has function target.
func rawSamples(typ, target string) (all, hit []int64) {
	onStack := func(stk []uintptr) bool {
		if target == "" {
			return false
		}
		fr := runtime.CallersFrames(stk)
		for {
			f, more := fr.Next()
			if f.Function == target {
				return true
			}
			if !more {
				return false
			}
		}
	}
	switch typ {
	case "allocs", "heap":
		n, _ := runtime.MemProfile(nil, true)
		recs := make([]runtime.MemProfileRecord, n+50)
		n, _ = runtime.MemProfile(recs, true)
		all, hit = make([]int64, 2), make([]int64, 2)
		for _, r := range recs[:n] {
			all[0] += r.AllocObjects
			all[1] += r.InUseObjects()
			if onStack(r.Stack()) {
				hit[0] += r.AllocObjects
				hit[1] += r.InUseObjects()
			}
		}
	case "mutex", "block":
		get := runtime.BlockProfile
		if typ == "mutex" {
			get = runtime.MutexProfile
		}
		n, _ := get(nil)
		recs := make([]runtime.BlockProfileRecord, n+50)
		n, _ = get(recs)
		all, hit = make([]int64, 1), make([]int64, 1)
		for _, r := range recs[:n] {
			all[0] += r.Count
			if onStack(r.Stack()) {
				hit[0] += r.Count
			}
		}
	case "goroutine":
		// The goroutine profile is not sampled: capture.sh counts
		// it from the file.
	}
	return all, hit
}

func writeStats(path string, st []stats) error {
	f, err := os.OpenFile(path, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		return err
	}
	join := func(v []int64) string {
		if v == nil {
			return "-"
		}
		s := make([]string, len(v))
		for i, x := range v {
			s[i] = strconv.FormatInt(x, 10)
		}
		return strings.Join(s, ",")
	}
	for _, x := range st {
		nanos := "-"
		if x.nanos != 0 {
			nanos = strconv.FormatInt(x.nanos, 10)
		}
		tgt := join(x.target)
		fmt.Fprintf(f, "%s\t%s\t%.3f\t%s\t%s\t%s\n", x.file, x.kind,
			x.secs, nanos, join(x.raw), tgt)
	}
	return f.Close()
}
