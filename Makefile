# profdiff: a plain Makefile.  `make`, `make check`, `make install`,
# `make clean`; SANITIZE=1 builds everything with ASan and UBSan into its
# own folder so that the two builds never mix objects, and
# SANITIZE=thread with ThreadSanitizer into build-tsan.  ISA-L is used
# when pkg-config finds libisal (ISAL=auto, the default); ISAL=no builds
# with zlib alone, even where libisal-dev is installed, into a folder of
# its own (build-noisal, or build-san-noisal with SANITIZE=1); ISAL=yes
# fails unless ISA-L is found.  `make check-all` builds and tests all
# three: plain, sanitized, and without ISA-L.

PROG	 = profdiff
PREFIX	?= /usr/local
BINDIR	?= $(PREFIX)/bin
MANDIR	?= $(PREFIX)/share/man

# libcurl fetches profiles from http:// and https:// URLs (fetch.c),
# which loads it on the first URL: its headers are needed to build, and
# it is not linked, so that a run without a URL does not start it.
# json-c reads the traces of profdiff spans (input/trace.c).
PKGS	 = libprotobuf-c zlib libbsd-overlay json-c
PKG_CFLAGS := $(shell pkg-config --cflags $(PKGS) libcurl)
PKG_LIBS   := $(shell pkg-config --libs $(PKGS))
# Symbolization (src/symbol/): elfutils' libdw and libelf read ELF files
# and DWARF (Debian: libdw-dev), and libiberty, a static library with no
# pkg-config file (Debian: libiberty-dev), demangles C++ and Rust names.
PKG_CFLAGS += $(shell pkg-config --cflags libdw)
PKG_LIBS   += $(shell pkg-config --libs libdw) -liberty
# ISA-L (Debian: libisal-dev), when installed, inflates gzip about twice
# as fast as zlib, and as it is read; gunzip.c falls back to zlib on any
# error but output past the limits (refused at once, in zlib's pass's
# words), so every gzip message is the same either way.
ISAL	?= auto
ifneq ($(filter-out auto yes no,$(ISAL)),)
$(error ISAL must be auto, yes or no, not $(ISAL))
endif
ifneq ($(ISAL),no)
ifeq ($(shell pkg-config --exists libisal && echo yes),yes)
USE_ISAL = yes
PKG_CFLAGS += -DHAVE_ISAL $(shell pkg-config --cflags libisal)
PKG_LIBS   += $(shell pkg-config --libs libisal)
else ifeq ($(ISAL),yes)
$(error ISAL=yes, but pkg-config finds no libisal (Debian: libisal-dev))
endif
endif
USE_ISAL ?= no
# A build without ISA-L never shares a folder with one that has it.
ifeq ($(ISAL),no)
NOISAL	 = -noisal
endif

ifeq ($(SANITIZE),1)
BUILD	?= build-san$(NOISAL)
SANFLAGS = -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all
OPT	?= -O1 -g
else ifeq ($(SANITIZE),thread)
BUILD	?= build-tsan$(NOISAL)
SANFLAGS = -fsanitize=thread
OPT	?= -O1 -g
else
BUILD	?= build$(NOISAL)
SANFLAGS =
OPT	?= -O2 -g
endif

WERROR	?=
CFLAGS	?= $(OPT)
CFLAGS	+= -std=c11 -D_POSIX_C_SOURCE=200809L -D_DEFAULT_SOURCE \
	   -Wall -Wextra -Werror=implicit-function-declaration $(WERROR) $(SANFLAGS) \
	   -Iinclude -Isrc -I$(BUILD) $(PKG_CFLAGS)
LDFLAGS	+= $(SANFLAGS)
LDLIBS	+= $(PKG_LIBS) -lm -lpthread

GEN	 = $(BUILD)/profile.pb-c.c $(BUILD)/profile.pb-c.h
# One folder of src/ per room (doc/ARCHITECTURE.md); src/main.c is the
# entry.  Each object goes to the folder of its room under $(BUILD).
LIB_SRC	 = $(wildcard src/*/*.c)
LIB_OBJ	 = $(LIB_SRC:src/%.c=$(BUILD)/%.o) $(BUILD)/profile.pb-c.o
HDRS	 = $(wildcard include/*.h src/*/*.h)
UNIT_SRC = $(wildcard tests/unit/t_*.c)
UNIT_BIN = $(UNIT_SRC:tests/unit/%.c=$(BUILD)/tests/%)
TOOL_SRC = $(wildcard tests/tools/*.c)
TOOL_BIN = $(TOOL_SRC:tests/tools/%.c=$(BUILD)/tests/%)

all: $(BUILD)/$(PROG) $(PROG)

# $(BUILD)/isal says whether this folder's build uses ISA-L ("yes" or
# "no"), for tests/run.sh to check against ldd.  It is rewritten only
# when that changes, and then everything that depends on it is rebuilt.
$(BUILD)/isal: FORCE
	@mkdir -p $(BUILD)
	@echo $(USE_ISAL) | cmp -s - $@ || echo $(USE_ISAL) > $@
FORCE:

$(PROG): $(BUILD)/$(PROG)
	@[ "$(BUILD)" = build ] && ln -sf $(BUILD)/$(PROG) $(PROG) || true

$(BUILD)/$(PROG): $(BUILD)/main.o $(BUILD)/libprofdiff.a $(BUILD)/isal
	$(CC) $(LDFLAGS) -o $@ $(BUILD)/main.o $(BUILD)/libprofdiff.a $(LDLIBS)

$(BUILD)/libprofdiff.a: $(LIB_OBJ)
	rm -f $@
	$(AR) rcs $@ $(LIB_OBJ)

$(GEN): proto/profile.proto
	@mkdir -p $(BUILD)
	protoc-c --c_out=$(BUILD) -Iproto proto/profile.proto

$(BUILD)/profile.pb-c.o: $(BUILD)/profile.pb-c.c $(BUILD)/profile.pb-c.h
	$(CC) $(CFLAGS) -Wno-unused-parameter -c -o $@ $<

$(BUILD)/%.o: src/%.c $(HDRS) $(GEN) $(BUILD)/isal
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -c -o $@ $<

$(BUILD)/tests/%: tests/unit/%.c $(wildcard tests/unit/*.h) $(BUILD)/libprofdiff.a $(BUILD)/isal
	@mkdir -p $(BUILD)/tests
	$(CC) $(CFLAGS) -Itests/unit $(LDFLAGS) -o $@ $< $(BUILD)/libprofdiff.a $(LDLIBS)

$(BUILD)/tests/%: tests/tools/%.c $(BUILD)/libprofdiff.a
	@mkdir -p $(BUILD)/tests
	$(CC) $(CFLAGS) -Itests/unit $(LDFLAGS) -o $@ $< $(BUILD)/libprofdiff.a $(LDLIBS)

FUZZ_TARGETS = pprof options folded twice perfscript legacy series cli trace
tests: $(UNIT_BIN) $(TOOL_BIN) $(FUZZ_TARGETS:%=$(BUILD)/tests/replay_%)

# Each fuzz target's plain-main replayer, run by tests/run.sh on its seeds.
$(BUILD)/tests/replay_%: tests/fuzz/replay.c tests/fuzz/fuzz_%.c tests/fuzz/fuzzfold.h \
	tests/fuzz/fuzzsame.h tests/fuzz/fuzzdecode.h $(BUILD)/libprofdiff.a
	@mkdir -p $(BUILD)/tests
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ tests/fuzz/replay.c tests/fuzz/fuzz_$*.c $(BUILD)/libprofdiff.a $(LDLIBS)

# libFuzzer from Debian's clang; each target runs FUZZ_SECONDS:
# make fuzz FUZZ_SECONDS=1800.  New crashers land in tests/fuzz/crashers/.
FUZZ_SECONDS ?= 60
FUZZ_SRC = $(LIB_SRC) $(BUILD)/profile.pb-c.c
FUZZ_SEEDS_pprof = tests/data/corpus tests/data/good tests/data/bad examples \
	tests/data/pprof-testdata
FUZZ_SEEDS_options = tests/fuzz/seeds-options
FUZZ_SEEDS_folded = tests/fuzz/seeds-folded tests/data/folded
FUZZ_SEEDS_twice = $(FUZZ_SEEDS_pprof)
FUZZ_SEEDS_perfscript = tests/fuzz/seeds-perfscript tests/data/perf/fields \
	tests/data/perf/bad
FUZZ_SEEDS_legacy = tests/fuzz/seeds-legacy tests/data/legacy-bad \
	tests/data/pprof-testdata
FUZZ_SEEDS_series = tests/fuzz/seeds-series
FUZZ_SEEDS_cli = tests/fuzz/seeds-cli
FUZZ_SEEDS_trace = tests/fuzz/seeds-trace tests/data/spans/bad
export FUZZ_SEEDS_pprof FUZZ_SEEDS_options FUZZ_SEEDS_folded FUZZ_SEEDS_twice \
	FUZZ_SEEDS_perfscript FUZZ_SEEDS_legacy FUZZ_SEEDS_series FUZZ_SEEDS_cli \
	FUZZ_SEEDS_trace
# The cli target runs $(BUILD)'s profdiff (fuzz_cli.c).
fuzz: $(GEN) $(BUILD)/$(PROG)
	@mkdir -p build-fuzz tests/fuzz/crashers
	for t in $(FUZZ_TARGETS); do \
	    mkdir -p tests/fuzz/corpus/$$t && \
	    clang -std=c11 -D_POSIX_C_SOURCE=200809L -D_DEFAULT_SOURCE -g -O1 \
	        -fsanitize=fuzzer,address,undefined -Iinclude -Isrc -I$(BUILD) \
	        $(PKG_CFLAGS) -o build-fuzz/fuzz_$$t tests/fuzz/fuzz_$$t.c \
	        $(FUZZ_SRC) $(PKG_LIBS) -lm -lpthread && \
	    PROFDIFF_FUZZ_BIN=$(BUILD)/$(PROG) \
	    build-fuzz/fuzz_$$t -max_total_time=$(FUZZ_SECONDS) \
	        -rss_limit_mb=2048 -close_fd_mask=3 -dict=tests/fuzz/$$t.dict \
	        -artifact_prefix=tests/fuzz/crashers/$$t- \
	        tests/fuzz/corpus/$$t $$(eval echo \$$FUZZ_SEEDS_$$t) || exit 1; \
	done

check: all tests
	BUILD=$(BUILD) sh tests/run.sh

# What CI runs: warnings are errors, and the whole suite runs three
# times, plain, under ASan+UBSan, and built without ISA-L (zlib alone),
# then the CLI cases under valgrind, and the threaded code under
# ThreadSanitizer (tests/run.sh's tsan part), with one summary line at
# the end.
# Each build, and the suite, runs CHECK_JOBS jobs at a time (default:
# the processors online; tests/run.sh's JOBS).
CHECK_JOBS ?= $(shell getconf _NPROCESSORS_ONLN 2>/dev/null || echo 1)
check-all:
	$(MAKE) -j$(CHECK_JOBS) WERROR=-Werror all tests
	$(MAKE) -j$(CHECK_JOBS) WERROR=-Werror SANITIZE=1 all tests
	$(MAKE) -j$(CHECK_JOBS) WERROR=-Werror ISAL=no all tests
	$(MAKE) -j$(CHECK_JOBS) WERROR=-Werror SANITIZE=thread all tests \
	    build-tsan/bench/genprof
	JOBS=$(CHECK_JOBS) VALGRIND_CLI=1 TSAN_BUILD=build-tsan \
	    BUILDS="build build-san build-noisal" sh tests/run.sh

# Every CLI case under valgrind's memcheck: an invalid access or a leak
# changes the exit status (99), and the golden comparison fails.
check-valgrind: all
	ONLY=cli PROFDIFF_WRAP="valgrind -q --error-exitcode=99 \
	    --leak-check=full --errors-for-leak-kinds=definite,indirect \
	    --show-leak-kinds=definite,indirect" \
	    sh tests/run.sh

# Rewrite the generated hostile inputs; review `git diff` afterwards.
bad-data: $(BUILD)/tests/mkbad
	mkdir -p tests/data/bad tests/data/good
	$(BUILD)/tests/mkbad tests/data/bad

# A real browser draws the flame graphs: headless Chromium (Debian package
# chromium) renders examples/pricing-diff.svg and a freshly made diff SVG
# to PNG.  The inline script must run (init() marks the SVG with
# data-frames) with nothing on the console, and each PNG must be
# non-empty.  D-Bus and GPU complaints of a headless machine are not
# errors.  Optional: `make check` does not need Chromium.
CHROMIUM ?= chromium
CHROMIUM_FLAGS = --headless --no-sandbox --disable-gpu --hide-scrollbars \
	--enable-logging=stderr --v=0
check-browser: all
	@command -v $(CHROMIUM) >/dev/null 2>&1 || { echo "check-browser: \
	    $(CHROMIUM) not found; install it with: apt-get install -y \
	    chromium" >&2; exit 1; }
	@mkdir -p $(BUILD)/browser
	$(BUILD)/$(PROG) diff -q -f svg -o $(BUILD)/browser/fresh.svg \
	    examples/good.pb.gz examples/bad.pb.gz
	@rc=0; for s in examples/pricing-diff.svg $(BUILD)/browser/fresh.svg; do \
	    o=$(BUILD)/browser/$$(basename $$s .svg); \
	    u=file://$$(cd $$(dirname $$s) && pwd)/$$(basename $$s); \
	    h=$$(sed -n 's/^<svg [^>]* height="\([0-9]*\)".*/\1/p' $$s); \
	    rm -f $$o.png; \
	    $(CHROMIUM) $(CHROMIUM_FLAGS) --dump-dom $$u >$$o.dom 2>$$o.err; \
	    $(CHROMIUM) $(CHROMIUM_FLAGS) --window-size=1200,$${h:-800} \
	        --screenshot=$$o.png $$u >/dev/null 2>>$$o.err; \
	    if grep -i 'CONSOLE\|Uncaught\|:ERROR:' $$o.err | grep -v 'dbus'; then \
	        echo "check-browser: $$s: errors in the browser" >&2; rc=1; \
	    elif ! grep -q 'data-frames="[1-9]' $$o.dom; then \
	        echo "check-browser: $$s: the script did not run" >&2; rc=1; \
	    elif [ ! -s $$o.png ]; then \
	        echo "check-browser: $$s: no PNG" >&2; rc=1; \
	    else \
	        echo "check-browser: $$s: ok, $$(grep -o 'data-frames="[0-9]*"' \
	            $$o.dom) drawn, $$o.png $$(wc -c <$$o.png) bytes"; \
	    fi; \
	done; exit $$rc

demo: all
	sh examples/demo.sh

# profdiff's judgement on every runtime of tests/data/runtimes (Go, C
# with gperftools, Node.js with @datadog/pprof and Google's pprof), every
# shape of change, one and three profiles a side (issue 29): the whole
# cross-paired evaluation.  `make check` runs its fast subset
# (RUNTIMES_FAST=1).  RUNTIMES_REPORT=FILE writes
# the tables as Markdown too; tests/runtimes.sh lists the other knobs.
eval-runtimes: all
	RUNTIMES_JOBS=2 sh tests/runtimes.sh $(BUILD)

# profdiff on native code through every form of its profiles: the runs
# of examples/native (perf record's perf.data, its perf script text,
# gperftools' raw profile and go tool pprof's symbolization of it), no
# change and three shapes, one profile a side (issue 31, item 5): the
# whole cross-paired evaluation, 31 minutes on two cores at a load of
# 9-12, most of it perf script's (about 1 s a perf.data).  RUNTIMES_SIDE=
# "1 3" adds three a side, at several times the cost.  `make check` runs
# its fast subset (NATIVE_FAST=1); tests/native.sh lists the knobs.
eval-native: all
	RUNTIMES_JOBS=2 RUNTIMES_SIDE="$${RUNTIMES_SIDE:-1}" \
	    sh tests/native.sh $(BUILD)

install: all
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(MANDIR)/man1
	install -m 755 $(BUILD)/$(PROG) $(DESTDIR)$(BINDIR)/$(PROG)
	install -m 644 man/profdiff.1 $(DESTDIR)$(MANDIR)/man1/profdiff.1

clean:
	rm -rf build build-san build-noisal build-san-noisal build-tsan build-fuzz $(PROG)

include bench/bench.mk

.PHONY: FORCE all check check-all check-valgrind check-browser tests bad-data fuzz demo eval-runtimes eval-native install clean
.SUFFIXES:
