# Benchmarks (issue 5).  Included from the Makefile with
#	include bench/bench.mk
# `make bench` builds the tools, generates the profile pairs under
# bench/out/ (once; delete them to regenerate) and runs bench/run.sh,
# which writes bench/RESULTS.md.  BENCH_SIZES=small|medium|large limits
# the pairs; BENCH_RUNS sets the repetitions; BENCH_PPROF_LARGE=1 also
# runs go tool pprof on the large pair.

BENCH_OUT	 = bench/out
BENCH_TOOLS	 = $(BUILD)/bench/genprof $(BUILD)/bench/rusage $(BUILD)/bench/stages

# name: samples functions locations
BENCH_small	 = -n 18000 -f 3000 -l 15000
BENCH_medium	 = -n 300000 -f 20000 -l 120000
BENCH_large	 = -n 1600000 -f 40000 -l 300000

$(BUILD)/bench/genprof: bench/genprof.c $(BUILD)/profile.pb-c.o
	@mkdir -p $(BUILD)/bench
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ bench/genprof.c $(BUILD)/profile.pb-c.o $(LDLIBS)

$(BUILD)/bench/rusage: bench/rusage.c
	@mkdir -p $(BUILD)/bench
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ bench/rusage.c $(LDLIBS)

$(BUILD)/bench/stages: bench/stages.c $(BUILD)/libprofdiff.a
	@mkdir -p $(BUILD)/bench
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ bench/stages.c $(BUILD)/libprofdiff.a $(LDLIBS)

# Regenerated when the generator's source changes, not on every relink.
$(BENCH_OUT)/%-good.pb.gz: bench/genprof.c | $(BUILD)/bench/genprof
	@mkdir -p $(BENCH_OUT)
	$(BUILD)/bench/genprof -s 1 $(BENCH_$*) $@

$(BENCH_OUT)/%-bad.pb.gz: bench/genprof.c | $(BUILD)/bench/genprof
	@mkdir -p $(BENCH_OUT)
	$(BUILD)/bench/genprof -b -s 1 $(BENCH_$*) $@

BENCH_SIZES	?= small medium large
BENCH_FILES	 = $(foreach s,$(BENCH_SIZES),$(BENCH_OUT)/$(s)-good.pb.gz $(BENCH_OUT)/$(s)-bad.pb.gz)

bench-data: $(BENCH_FILES)

bench: all $(BENCH_TOOLS) $(BENCH_FILES)
	BUILD=$(BUILD) BENCH_SIZES="$(BENCH_SIZES)" sh bench/run.sh

.PHONY: bench bench-data
.PRECIOUS: $(BENCH_OUT)/%-good.pb.gz $(BENCH_OUT)/%-bad.pb.gz
