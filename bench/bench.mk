# Benchmarks (issue 5).  Included from the Makefile with
#	include bench/bench.mk
# `make bench` builds the tools, generates the profile pairs under
# bench/out/ (once; delete them to regenerate) and runs bench/run.sh,
# which writes bench/RESULTS.md.  BENCH_SIZES=small|medium|large limits
# the pairs; BENCH_RUNS sets the repetitions; BENCH_PPROF_LARGE=1 also
# runs go tool pprof on the large pair.  BENCH_MANY (default 200) is the
# number of small profiles per side merged by top and diff, measured at
# BENCH_MANY_STEPS profiles per side (BENCH_MANY=0 skips it).
# BENCH_BASELINE=path times every profdiff step with that binary too,
# in the same rounds, and puts the two side by side in RESULTS.md:
#	git worktree add /tmp/base main && make -C /tmp/base -s
#	make bench BENCH_BASELINE=/tmp/base/build/profdiff
# `make bench` then runs bench-series (bench/series.sh: series of 100
# and 1,000 profiles) and bench-deep (bench/deep.sh: diff and series on
# one stack up to 65,000 frames deep) and bench-spans (bench/spans.sh:
# spans on 1,000,000 samples and 100,000 spans, against diff) and
# bench-symbolize (bench/symbolize.sh: naming 100,000 addresses).
# `make check` runs bench-smoke: the harness once on the small pair,
# with the binary as its own baseline, into $(BUILD)/bench/, to show
# that it works; it asserts no time.

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

# Many profiles of one program (the small pair's sizes), each a window
# of its own: the same program seed, a sample seed per file.
BENCH_MANY	?= 200
BENCH_MANY_STEPS ?= 25 50 100 200
BENCH_MANY_STAMP = $(BENCH_OUT)/many/stamp-$(BENCH_MANY)
ifeq ($(BENCH_MANY),0)
BENCH_MANY_DEP	 =
else
BENCH_MANY_DEP	 = $(BENCH_MANY_STAMP)
endif

$(BENCH_OUT)/many/stamp-%: bench/genprof.c | $(BUILD)/bench/genprof
	@mkdir -p $(BENCH_OUT)/many
	i=1; while [ $$i -le $* ]; do \
	    n=$$(printf %03d $$i); \
	    $(BUILD)/bench/genprof -s 1 -S $$i $(BENCH_small) \
	        $(BENCH_OUT)/many/good-$$n.pb.gz && \
	    $(BUILD)/bench/genprof -b -s 1 -S $$i $(BENCH_small) \
	        $(BENCH_OUT)/many/bad-$$n.pb.gz || exit 1; \
	    i=$$((i + 1)); \
	done
	touch $@

bench-data: $(BENCH_FILES) $(BENCH_MANY_DEP)

bench: all $(BENCH_TOOLS) $(BENCH_FILES) $(BENCH_MANY_DEP)
	BUILD=$(BUILD) BENCH_SIZES="$(BENCH_SIZES)" BENCH_MANY=$(BENCH_MANY) \
	    BENCH_MANY_STEPS="$(BENCH_MANY_STEPS)" \
	    BENCH_BASELINE="$(BENCH_BASELINE)" sh bench/run.sh
	$(MAKE) bench-series
	$(MAKE) bench-deep BENCH_BASELINE="$(BENCH_BASELINE)"
	$(MAKE) bench-spans
	$(MAKE) bench-symbolize
	$(MAKE) bench-perfscript

# profdiff series on 100 and 1,000 profiles (bench/series.sh), into
# bench/SERIES.md.
bench-series: all $(BUILD)/bench/rusage $(BUILD)/bench/genprof $(BUILD)/tests/simprof
	BUILD=$(BUILD) sh bench/series.sh

# profdiff diff and series on one stack of 2,000 to 32,000 frames
# against one twice as deep (bench/deep.sh, issue 30), into
# bench/DEEP.md; with BENCH_BASELINE, that binary up to 2,000 frames.
bench-deep: all $(BUILD)/bench/rusage
	BUILD=$(BUILD) DEEP_BASELINE="$(BENCH_BASELINE)" sh bench/deep.sh

# profdiff spans on a profile of 1,000,000 samples and a trace of
# 100,000 spans, against diff of the same profile (bench/spans.sh, issue
# 32), into bench/SPANS.md.
bench-spans: all $(BUILD)/bench/rusage $(BUILD)/bench/genprof
	BUILD=$(BUILD) sh bench/spans.sh

# profdiff top on a gperftools profile of 10,000 and 100,000 distinct
# addresses in profdiff's own code, named from its DWARF, against the
# same with no binary to read (bench/symbolize.sh, issue 31), into
# bench/SYMBOLS.md.
bench-symbolize: all $(BUILD)/bench/rusage
	BUILD=$(BUILD) sh bench/symbolize.sh

# profdiff top on about a million samples of perf script text, gzipped,
# against zcat of the same file, in MB/s of the text (bench/perfscript.sh,
# issue 31), into bench/PERFSCRIPT.md.
bench-perfscript: all $(BUILD)/bench/rusage
	BUILD=$(BUILD) sh bench/perfscript.sh

# The smoke test of `make check`: one run on the small pair, no pprof,
# no plot, results under $(BUILD)/bench/ (bench/RESULTS.md is left alone).
bench-smoke: all $(BENCH_TOOLS) $(BENCH_OUT)/small-good.pb.gz $(BENCH_OUT)/small-bad.pb.gz
	BUILD=$(BUILD) BENCH_SIZES=small BENCH_RUNS=1 BENCH_PPROF=0 \
	    BENCH_MANY=0 BENCH_PLOT=0 BENCH_BASELINE=$(BUILD)/$(PROG) \
	    BENCH_RESULTS=$(BUILD)/bench/RESULTS-smoke.md sh bench/run.sh \
	    > /dev/null
	grep -q '^| small | profdiff check-significance | ' \
	    $(BUILD)/bench/RESULTS-smoke.md
	$(BUILD)/bench/stages -r 1 $(BENCH_OUT)/small-bad.pb.gz > /dev/null
	@echo "bench-smoke: ok ($(BUILD)/bench/RESULTS-smoke.md)"

check: bench-smoke

.PHONY: bench bench-data bench-smoke bench-series bench-deep bench-spans \
	bench-symbolize bench-perfscript
.PRECIOUS: $(BENCH_OUT)/%-good.pb.gz $(BENCH_OUT)/%-bad.pb.gz
