/*
 * genprof: write a synthetic but realistic pprof CPU profile for the
 * benchmarks.  From a seed it builds a program (functions, locations
 * with inlined frames, several mappings, a call graph with recursion)
 * and then streams samples, each one a walk down that call graph (each
 * location a call site of its function, calling one other function),
 * packed
 * one at a time with protobuf-c and gzipped as they go, so that memory
 * holds the program and never the samples.  The same seed gives the same
 * bytes.  With -b, the "bad" variant shifts weight onto a few named
 * functions, as a regression would.  -S gives the samples a seed of
 * their own (by default the program's): profiles of the same program
 * taken at different times, as when many are merged.
 *
 * usage: genprof [-b] [-s seed] [-S sample_seed] [-n samples]
 *            [-f functions] [-l locations] [-d mean_depth] [-D max_depth]
 *            [-z level] [-P spans [-T trace]] out
 *
 * With -P, every sample carries the label span_id of one of that many
 * spans (16 hex digits), drawn from a stream of its own, so that the
 * profile is otherwise the same; -T writes those spans as OTLP/JSON,
 * gzipped, each a duration of 1 ms plus an exponential draw of mean
 * 10 ms, for profdiff spans (bench/spans.sh).
 *
 * out "-" is standard output.  Stack depths are 4 plus an exponential
 * draw (mean_depth in all), capped at max_depth; about one frame in 25
 * starts a run of direct recursion.
 */
#include <err.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include "profile.pb-c.h"

typedef Perftools__Profiles__Sample	Sample;
typedef Perftools__Profiles__Label	Label;
typedef Perftools__Profiles__Location	Location;
typedef Perftools__Profiles__Line	Line;
typedef Perftools__Profiles__Function	Function;
typedef Perftools__Profiles__Mapping	Mapping;
typedef Perftools__Profiles__ValueType	ValueType;

#define NMAPPINGS	4
#define NROOTS		4
#define PERIOD		10000000	/* 10 ms, as Go's 100 Hz */

/* The functions the bad variant makes hot; they exist in both. */
static const char *const bad_names[] = {
	"main.sortByRelevance",
	"encoding/json.(*decodeState).object",
	"runtime.mallocgc",
};
#define NBAD	(sizeof(bad_names) / sizeof(bad_names[0]))

struct rng {
	uint64_t	 s;
};

static uint64_t
rnd(struct rng *r)
{
	uint64_t z = (r->s += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* Uniform in [0, n). */
static uint64_t
rndn(struct rng *r, uint64_t n)
{
	return rnd(r) % n;
}

static double
rndu(struct rng *r)
{
	return (double)(rnd(r) >> 11) / 9007199254740992.0;
}

/* Skewed toward 0: a few hot entries, a long tail (roughly Zipf). */
static uint64_t
rndskew(struct rng *r, uint64_t n)
{
	double u = rndu(r);

	return (uint64_t)((double)n * u * u * u) % n;
}

struct strtab {
	ProtobufCBinaryData *s;
	size_t		 n, cap;
};

static int64_t
str_add(struct strtab *t, const char *s)
{
	if (t->n == t->cap) {
		t->cap = t->cap ? 2 * t->cap : 1024;
		if ((t->s = reallocarray(t->s, t->cap, sizeof(*t->s))) == NULL)
			err(1, NULL);
	}
	if ((t->s[t->n].data = (uint8_t *)strdup(s)) == NULL)
		err(1, NULL);
	t->s[t->n].len = strlen(s);
	return (int64_t)t->n++;
}

struct prog {
	struct strtab	 st;
	Function	*fn;
	size_t		 nfn;
	Location	*loc;
	Line		*lines;		/* every location's lines */
	Line		**linep;
	size_t		 nloc;
	uint32_t	*owner;		/* function of each location */
	uint32_t	*callee;	/* function each location calls */
	uint32_t	*floff;		/* locations of function f: */
	uint32_t	*floc;		/* floc[floff[f] .. floff[f + 1]) */
	uint32_t	 badloc[NBAD];	/* one location per bad function */
	Mapping		 map[NMAPPINGS];
};

static void *
xcalloc(size_t n, size_t sz)
{
	void *p;

	if ((p = calloc(n, sz)) == NULL)
		err(1, NULL);
	return p;
}

static void
prog_build(struct prog *pg, uint64_t seed, size_t nfn, size_t nloc)
{
	static const char *const pkgs[] = {
		"main", "runtime", "net/http", "encoding/json", "sort",
		"github.com/acme/pricing/score", "github.com/acme/pricing/db",
		"google.golang.org/grpc", "bufio", "strconv", "sync",
		"github.com/acme/pricing/cache", "compress/flate", "io",
	};
	static const char *const files[NMAPPINGS] = {
		"/usr/local/bin/pricing", "/lib/x86_64-linux-gnu/libc.so.6",
		"/lib/x86_64-linux-gnu/libpthread.so.0", "[vdso]",
	};
	const size_t	 npkgs = sizeof(pkgs) / sizeof(pkgs[0]);
	struct rng	 r = { seed * 0x2545f4914f6cdd1dULL + 1 };
	char		 name[256], file[256];
	size_t		 i, j, k, nlines = 0;
	uint32_t	*nl;

	str_add(&pg->st, "");
	pg->nfn = nfn;
	pg->fn = xcalloc(nfn, sizeof(*pg->fn));
	for (i = 0; i < nfn; i++) {
		const char *pkg = pkgs[rndskew(&r, npkgs)];

		perftools__profiles__function__init(&pg->fn[i]);
		pg->fn[i].id = i + 1;
		if (i < NBAD)
			snprintf(name, sizeof(name), "%s", bad_names[i]);
		else if (rndn(&r, 3) == 0)
			snprintf(name, sizeof(name), "%s.(*T%zu).Method%zu",
			    pkg, i % 97, i);
		else
			snprintf(name, sizeof(name), "%s.func%zu", pkg, i);
		snprintf(file, sizeof(file), "/src/%s/file%zu.go", pkg,
		    i % 61);
		pg->fn[i].name = str_add(&pg->st, name);
		pg->fn[i].system_name = pg->fn[i].name;
		pg->fn[i].filename = str_add(&pg->st, file);
		pg->fn[i].start_line = (int64_t)(10 + rndn(&r, 2000));
	}

	for (i = 0; i < NMAPPINGS; i++) {
		perftools__profiles__mapping__init(&pg->map[i]);
		pg->map[i].id = i + 1;
		pg->map[i].memory_start = 0x400000 + (uint64_t)i * 0x10000000;
		pg->map[i].memory_limit = pg->map[i].memory_start + 0x8000000;
		pg->map[i].filename = str_add(&pg->st, files[i]);
		snprintf(name, sizeof(name), "%016llx%016llx",
		    (unsigned long long)rnd(&r), (unsigned long long)rnd(&r));
		pg->map[i].build_id = str_add(&pg->st, name);
		pg->map[i].has_functions = 1;
		pg->map[i].has_filenames = 1;
		pg->map[i].has_line_numbers = 1;
		pg->map[i].has_inline_frames = 1;
	}

	/* One line, or with 1 in 5 one to three inlined frames as well. */
	pg->nloc = nloc;
	pg->loc = xcalloc(nloc, sizeof(*pg->loc));
	nl = xcalloc(nloc, sizeof(*nl));
	for (i = 0; i < nloc; i++) {
		nl[i] = rndn(&r, 5) == 0 ? 2 + (uint32_t)rndn(&r, 3) : 1;
		nlines += nl[i];
	}
	pg->lines = xcalloc(nlines, sizeof(*pg->lines));
	pg->linep = xcalloc(nlines, sizeof(*pg->linep));
	pg->owner = xcalloc(nloc, sizeof(*pg->owner));
	for (i = 0; i < nloc; i++)
		pg->owner[i] = i < NBAD ? (uint32_t)i : i < nfn ? (uint32_t)i :
		    (uint32_t)(NBAD + rndskew(&r, nfn - NBAD));
	for (i = 0, k = 0; i < nloc; i++) {
		Location	*l = &pg->loc[i];
		uint64_t	 m = rndn(&r, 10) < 7 ? 0 : 1 + rndn(&r, 3);

		perftools__profiles__location__init(l);
		l->id = i + 1;
		l->mapping_id = m + 1;
		l->address = pg->map[m].memory_start + 0x1000 + i * 16 +
		    rndn(&r, 16);
		l->n_line = nl[i];
		l->line = &pg->linep[k];
		for (j = 0; j < nl[i]; j++, k++) {
			Line *ln = &pg->lines[k];

			perftools__profiles__line__init(ln);
			/* The outermost line is the location's function. */
			if (j == nl[i] - 1)
				ln->function_id = pg->owner[i] + 1;
			else
				ln->function_id = NBAD + 1 +
				    rndskew(&r, nfn - NBAD);
			ln->line = (int64_t)(1 + rndn(&r, 3000));
			pg->linep[k] = ln;
		}
	}
	for (i = 0; i < NBAD; i++)
		pg->badloc[i] = (uint32_t)i;
	free(nl);

	/*
	 * The call graph: each location is a call site, which calls one
	 * function (itself, 1 time in 25), whose call sites come next.
	 */
	pg->callee = xcalloc(nloc, sizeof(*pg->callee));
	for (i = 0; i < nloc; i++)
		pg->callee[i] = rndn(&r, 25) == 0 ? pg->owner[i] :
		    (uint32_t)(NBAD + rndskew(&r, nfn - NBAD));
	pg->floff = xcalloc(nfn + 1, sizeof(*pg->floff));
	pg->floc = xcalloc(nloc, sizeof(*pg->floc));
	for (i = 0; i < nloc; i++)
		pg->floff[pg->owner[i] + 1]++;
	for (i = 0; i < nfn; i++)
		pg->floff[i + 1] += pg->floff[i];
	nl = xcalloc(nfn, sizeof(*nl));
	for (i = 0; i < nloc; i++)
		pg->floc[pg->floff[pg->owner[i]] + nl[pg->owner[i]]++] =
		    (uint32_t)i;
	free(nl);
}

/* Streamed output: a gzip stream with a fixed header. */
struct out {
	gzFile		 gz;
	uint8_t		*buf;
	size_t		 cap;
};

static void
out_bytes(struct out *o, const void *p, size_t n)
{
	if (n > 0 && gzwrite(o->gz, p, (unsigned)n) != (int)n)
		errx(1, "gzwrite failed");
}

static void
out_varint(struct out *o, uint64_t v)
{
	uint8_t	 b[10];
	size_t	 n = 0;

	while (v >= 0x80) {
		b[n++] = (uint8_t)(v | 0x80);
		v >>= 7;
	}
	b[n++] = (uint8_t)v;
	out_bytes(o, b, n);
}

/* One length-delimited top-level field holding a packed sub-message. */
static void
out_msg(struct out *o, unsigned field, const ProtobufCMessage *m)
{
	size_t n = protobuf_c_message_get_packed_size(m);

	if (n > o->cap) {
		o->cap = n * 2;
		if ((o->buf = realloc(o->buf, o->cap)) == NULL)
			err(1, NULL);
	}
	protobuf_c_message_pack(m, o->buf);
	out_varint(o, (uint64_t)field << 3 | 2);
	out_varint(o, n);
	out_bytes(o, o->buf, n);
}

static void
out_int(struct out *o, unsigned field, int64_t v)
{
	out_varint(o, (uint64_t)field << 3);
	out_varint(o, (uint64_t)v);
}

static void
usage(void)
{
	fprintf(stderr, "usage: genprof [-b] [-s seed] [-S sample_seed] "
	    "[-n samples] [-f functions] [-l locations] [-d mean_depth] "
	    "[-D max_depth] [-z level] [-P spans [-T trace]] out\n");
	exit(2);
}

/* Span k's id: 16 hex digits of a mix of k (rnd()'s first of seed k). */
static void
span_hex(char *buf, size_t len, uint64_t k)
{
	struct rng h = { k };

	snprintf(buf, len, "%016llx", (unsigned long long)rnd(&h));
}

/* The spans as one OTLP/JSON ExportTraceServiceRequest, gzipped. */
static void
write_trace(const char *path, size_t nspans, uint64_t seed)
{
	struct rng	 r = { seed * 0x2545f4914f6cdd1dULL + 17 };
	gzFile		 gz;
	char		 id[32];
	int64_t		 t = 1700000000000000000LL, dur;
	size_t		 k;

	if ((gz = gzopen(path, "wb6")) == NULL)
		err(1, "%s", path);
	gzputs(gz, "{\"resourceSpans\":[{\"scopeSpans\":[{\"spans\":[");
	for (k = 0; k < nspans; k++) {
		span_hex(id, sizeof(id), k);
		dur = 1000000 + (int64_t)(-log(1 - rndu(&r)) * 1e7);
		gzprintf(gz, "%s{\"traceId\":\"%s%s\",\"spanId\":\"%s\","
		    "\"name\":\"GET /price\",\"startTimeUnixNano\":\"%lld\","
		    "\"endTimeUnixNano\":\"%lld\"}\n", k ? "," : "", id, id, id,
		    (long long)t, (long long)(t + dur));
		t += 100000;
	}
	gzputs(gz, "]}]}]}\n");
	if (gzclose(gz) != Z_OK)
		errx(1, "%s: write failed", path);
}

static unsigned long long
num(const char *s, unsigned long long lo, unsigned long long hi)
{
	const char	*errstr;
	long long	 v;

	v = strtonum(s, (long long)lo, (long long)hi, &errstr);
	if (errstr != NULL)
		errx(2, "%s: %s", s, errstr);
	return (unsigned long long)v;
}

int
main(int argc, char **argv)
{
	struct prog	 pg;
	struct out	 o;
	struct rng	 r;
	ValueType	 st[2], pt;
	Sample		 s;
	Label		 lab, *labp = &lab;
	uint64_t	 seed = 1, sseed = 0, *stack, *ids;
	int64_t		 vals[2], handler[8], k_handler, k_bytes, u_bytes;
	int64_t		*span_str = NULL, k_span = 0;
	size_t		 nspans = 0;
	const char	*trace = NULL;
	struct rng	 rs = { 0 };
	size_t		 nsamples = 1000, nfn = 2000, nloc = 10000;
	size_t		 maxdepth = 200, i, j, d, n;
	double		 meandepth = 30, pbad;
	int		 bad = 0, level = 6, ch, have_sseed = 0;
	char		 mode[8], hname[32];

	while ((ch = getopt(argc, argv, "bs:S:n:f:l:d:D:z:P:T:")) != -1) {
		switch (ch) {
		case 'b': bad = 1; break;
		case 's': seed = num(optarg, 0, INT64_MAX); break;
		case 'S':
			sseed = num(optarg, 0, INT64_MAX);
			have_sseed = 1;
			break;
		case 'n': nsamples = num(optarg, 1, 1ULL << 32); break;
		case 'f': nfn = num(optarg, NBAD + 1, 1ULL << 24); break;
		case 'l': nloc = num(optarg, NBAD + 1, 1ULL << 24); break;
		case 'd': meandepth = (double)num(optarg, 5, 10000); break;
		case 'D': maxdepth = num(optarg, 5, 60000); break;
		case 'z': level = (int)num(optarg, 0, 9); break;
		case 'P': nspans = num(optarg, 1, 1ULL << 24); break;
		case 'T': trace = optarg; break;
		default: usage();
		}
	}
	argc -= optind;
	argv += optind;
	if (argc != 1)
		usage();
	if (!have_sseed)
		sseed = seed;

	memset(&pg, 0, sizeof(pg));
	prog_build(&pg, seed, nfn, nloc);
	k_handler = str_add(&pg.st, "handler");
	for (i = 0; i < 8; i++) {
		snprintf(hname, sizeof(hname), "/api/v1/endpoint%zu", i);
		handler[i] = str_add(&pg.st, hname);
	}
	k_bytes = str_add(&pg.st, "bytes");
	u_bytes = str_add(&pg.st, "bytes");
	if (trace != NULL && nspans == 0)
		usage();
	if (nspans > 0) {
		k_span = str_add(&pg.st, "span_id");
		span_str = xcalloc(nspans, sizeof(*span_str));
		for (i = 0; i < nspans; i++) {
			span_hex(hname, sizeof(hname), i);
			span_str[i] = str_add(&pg.st, hname);
		}
		rs.s = sseed * 0xd1342543de82ef95ULL + 1;
		if (trace != NULL)
			write_trace(trace, nspans, seed);
	}

	memset(&o, 0, sizeof(o));
	snprintf(mode, sizeof(mode), "wb%d", level);
	o.gz = strcmp(argv[0], "-") == 0 ? gzdopen(STDOUT_FILENO, mode) :
	    gzopen(argv[0], mode);
	if (o.gz == NULL)
		err(1, "%s", argv[0]);
	gzbuffer(o.gz, 1 << 20);

	/* samples/count and cpu/nanoseconds, as Go writes them. */
	for (i = 0; i < 2; i++)
		perftools__profiles__value_type__init(&st[i]);
	st[0].type = str_add(&pg.st, "samples");
	st[0].unit = str_add(&pg.st, "count");
	st[1].type = str_add(&pg.st, "cpu");
	st[1].unit = str_add(&pg.st, "nanoseconds");
	for (i = 0; i < 2; i++)
		out_msg(&o, 1, &st[i].base);

	/* The samples, with their own stream of random numbers. */
	r.s = sseed * 0x9e3779b97f4a7c15ULL + (bad ? 0x5bd1e995 : 0x27d4eb2f);
	pbad = bad ? 0.30 : 0.02;
	stack = xcalloc(maxdepth, sizeof(*stack));
	ids = xcalloc(maxdepth, sizeof(*ids));
	perftools__profiles__label__init(&lab);
	for (n = 0; n < nsamples; n++) {
		uint32_t cur, f, nsites;

		d = 4 + (size_t)(-(meandepth - 4) * log(1 - rndu(&r)));
		if (d > maxdepth)
			d = maxdepth;
		/* Root first: a root, then calls down the graph. */
		cur = pg.floc[pg.floff[NBAD + rndn(&r, NROOTS)]];
		for (i = 0; i < d; ) {
			stack[i++] = cur;
			if (i == d)
				break;
			if (rndn(&r, 25) == 0) {
				size_t rep = 1 + rndn(&r, 4);

				for (j = 0; j < rep && i < d; j++)
					stack[i++] = cur;
			}
			f = pg.callee[cur];
			nsites = pg.floff[f + 1] - pg.floff[f];
			if (nsites == 0)
				break;		/* calls nothing we sample */
			cur = pg.floc[pg.floff[f] + rndskew(&r, nsites)];
		}
		d = i;
		/* A regression: a bad function called near the leaf. */
		if (rndu(&r) < pbad) {
			uint32_t b = pg.badloc[rndskew(&r, NBAD)];

			if (d < maxdepth)
				stack[d++] = b;
			else
				stack[d - 1] = b;
		}
		for (i = 0; i < d; i++)		/* leaf first */
			ids[i] = (uint64_t)stack[d - 1 - i] + 1;

		perftools__profiles__sample__init(&s);
		s.location_id = ids;
		s.n_location_id = d;
		vals[0] = 1 + (int64_t)(-log(1 - rndu(&r)) * 2);
		vals[1] = vals[0] * PERIOD;
		s.value = vals;
		s.n_value = 2;
		switch (rndn(&r, 20)) {
		case 0:
		case 1:
			lab.key = k_handler;
			lab.str = handler[rndskew(&r, 8)];
			lab.num = lab.num_unit = 0;
			s.label = &labp;
			s.n_label = 1;
			break;
		case 2:
			lab.key = k_bytes;
			lab.str = 0;
			lab.num = (int64_t)(64 << rndn(&r, 12));
			lab.num_unit = u_bytes;
			s.label = &labp;
			s.n_label = 1;
			break;
		default:
			break;
		}
		if (nspans > 0) {
			lab.key = k_span;
			lab.str = span_str[rndn(&rs, nspans)];
			lab.num = lab.num_unit = 0;
			s.label = &labp;
			s.n_label = 1;
		}
		out_msg(&o, 2, &s.base);
	}

	for (i = 0; i < NMAPPINGS; i++)
		out_msg(&o, 3, &pg.map[i].base);
	for (i = 0; i < pg.nloc; i++)
		out_msg(&o, 4, &pg.loc[i].base);
	for (i = 0; i < pg.nfn; i++)
		out_msg(&o, 5, &pg.fn[i].base);
	for (i = 0; i < pg.st.n; i++) {
		out_varint(&o, 6 << 3 | 2);
		out_varint(&o, pg.st.s[i].len);
		out_bytes(&o, pg.st.s[i].data, pg.st.s[i].len);
	}
	out_int(&o, 9, 1764370000000000000LL + (int64_t)(bad ? 60e9 : 0));
	out_int(&o, 10, 60000000000LL);
	perftools__profiles__value_type__init(&pt);
	pt.type = st[1].type;
	pt.unit = st[1].unit;
	out_msg(&o, 11, &pt.base);
	out_int(&o, 12, PERIOD);
	if (gzclose(o.gz) != Z_OK)
		errx(1, "%s: write failed", argv[0]);
	return 0;
}
