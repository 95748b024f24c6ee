/*
 * simprof: write a simulated CPU profile whose answer is known, for the
 * statistical tests of tests/sim.sh.  The profile is a multinomial draw of
 * N samples over the leaf stacks of a fixed call tree (a small web
 * service, below), so every function's true share is known exactly and a
 * test's verdicts can be scored against it.
 *
 *	-n samples	samples per run (default 2000)
 *	-s seed		seed of the generator (default 1)
 *	-e func=factor	multiply the weight of every leaf stack through func
 *			by factor: an injected effect (repeatable)
 *	-f func=factor	multiply the weight of the leaf stacks that end at
 *			func by factor: more of its own time, its flat share
 *			(repeatable, and counted with -e)
 *	-d sigma	between-run overdispersion: before sampling, multiply
 *			each leaf weight by exp(N(0, sigma^2)), drawn from the
 *			seed, so that runs vary more than binomial sampling
 *	-r runs		merge this many independent runs (each with its own
 *			overdispersion and its own n samples) into one profile,
 *			as merging replicate profiles would
 *	-T nanos	the profile's time_nanos (default 2026-11-29 00:00
 *			UTC), for a series ordered by time
 *	-u util		the process's CPU utilization, in cores (default 1):
 *			the duration is the samples' time over it, so that a
 *			pair can be a process kept busy and one that waits
 *	-L key=value[,key=value...]
 *			a group of samples carrying these string labels, as
 *			a profiler labels the samples of an endpoint or of a
 *			span: given several times, the profile holds one
 *			group each, each its own draw of n samples (times
 *			-r) over the tree; an -e or -f given after an -L
 *			changes that group only, one given before the first
 *			-L every group (not with -t or -l)
 *	-t		print each function's true cumulative and flat share
 *			instead of writing a profile: "name<TAB>cum<TAB>flat"
 *	-l		print the leaf stacks and their weights instead, in
 *			folded form ("root;...;leaf weight"), for a test to
 *			build its own model of the tree
 *
 * The profile has sample types samples/count and cpu/nanoseconds, a 10ms
 * period and a duration of samples x 10ms (100% of one core; -u), and one
 * Sample per distinct stack.  The generator is xoshiro256** seeded by
 * splitmix64 and the gzip header carries no name and no time, so the
 * profile depends only on the options (its gzip bytes also on zlib's
 * version).  With -d, the weights go through
 * libm's exp, log and cos, which are the only operations that are not
 * exactly rounded by IEEE 754; without -d the draw uses only exact
 * arithmetic.  With -t or -l and -d, the shares and weights are those of
 * the first run's dispersed weights.
 *
 * usage: simprof [-lt] [-d sigma] [-e func=factor] [-f func=factor]
 *	      [-L labels] [-n samples] [-r runs] [-s seed] [-T nanos]
 *	      [-u util] [out.pb.gz]
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

#define SIM_PERIOD	10000000	/* 10ms in nanoseconds: 100 Hz */
#define SIM_TIME	1795910400000000000LL	/* 2026-11-29 00:00 UTC */
static long long sim_time = SIM_TIME;
static double sim_util = 1;	/* -u */

#define SIM_MAX_SAMPLES	100000000LL
#define SIM_MAX_RUNS	1000
#define SIM_MAX_FUNCS	128
#define SIM_MAX_DEPTH	16
#define SIM_MAX_EFFECTS	16
#define SIM_MAX_GROUPS	16	/* -L */
#define SIM_MAX_LABELS	4	/* key=value pairs of one -L */

/*
 * The call tree, one leaf stack per line in folded form (root first),
 * with its weight in parts of 819.  main.sortByRelevance
 * holds about 10% of the time under main.calculateScore (32%), and
 * runtime.mallocgc is reached from five callers.
 */
static const struct leafdef {
	const char	*stack;
	double		 weight;
} tree[] = {
#define SBR "main.main;main.serve;main.handler;main.calculateScore;" \
	    "main.normalizeWeights;main.sortByRelevance"
	{ SBR ";sort.Sort;sort.pdqsort;sort.insertionSort", 30 },
	{ SBR ";sort.Sort;sort.pdqsort;main.byRelevance.Less", 22 },
	{ SBR ";sort.Sort;sort.pdqsort;main.byRelevance.Swap", 10 },
	{ SBR ";runtime.mallocgc;runtime.memclrNoHeapPointers", 8 },
	{ SBR, 10 },
#undef SBR
#define CS "main.main;main.serve;main.handler;main.calculateScore"
	{ CS ";main.normalizeWeights;math.Sqrt", 25 },
	{ CS ";main.normalizeWeights", 15 },
	{ CS ";main.dotProduct", 70 },
	{ CS ";main.lookupWeight;runtime.mapaccess2_faststr;"
	    "runtime.aeshashbody", 30 },
	{ CS ";main.lookupWeight;runtime.mapaccess2_faststr", 20 },
	{ CS ";runtime.mallocgc;runtime.nextFreeFast", 10 },
	{ CS, 12 },
#undef CS
#define H "main.main;main.serve;main.handler"
	{ H ";main.parseRequest;encoding/json.Unmarshal;"
	    "encoding/json.(*decodeState).object;"
	    "encoding/json.(*decodeState).literalStore;strconv.ParseFloat", 35 },
	{ H ";main.parseRequest;encoding/json.Unmarshal;"
	    "encoding/json.(*decodeState).object;runtime.mallocgc;"
	    "runtime.memclrNoHeapPointers", 12 },
	{ H ";main.parseRequest;encoding/json.Unmarshal;"
	    "encoding/json.checkValid;encoding/json.stateInString", 40 },
	{ H ";main.parseRequest;encoding/json.Unmarshal;"
	    "encoding/json.checkValid", 15 },
	{ H ";main.formatResponse;encoding/json.Marshal;"
	    "encoding/json.structEncoder.encode;"
	    "encoding/json.floatEncoder.encode;strconv.AppendFloat", 55 },
	{ H ";main.formatResponse;encoding/json.Marshal;"
	    "encoding/json.structEncoder.encode;encoding/json.appendString",
	    30 },
	{ H ";main.formatResponse;encoding/json.Marshal;runtime.mallocgc;"
	    "runtime.nextFreeFast", 15 },
	{ H ";main.formatResponse;bytes.(*Buffer).Write;runtime.memmove", 20 },
	{ H ";main.writeResponse;net.(*conn).Write;internal/poll.(*FD).Write;"
	    "syscall.Write;syscall.Syscall", 60 },
	{ H ";main.logRequest;log.(*Logger).Output;fmt.Sprintf;"
	    "fmt.(*pp).doPrintf", 25 },
	{ H ";main.logRequest;log.(*Logger).Output;os.(*File).Write;"
	    "syscall.Write;syscall.Syscall", 20 },
	{ H, 8 },
#undef H
	{ "main.main;main.serve;main.readRequest;bufio.(*Reader).ReadSlice;"
	    "net.(*conn).Read;internal/poll.(*FD).Read;syscall.Read;"
	    "syscall.Syscall", 50 },
	{ "main.main;main.serve;main.readRequest;"
	    "net/textproto.(*Reader).ReadMIMEHeader;runtime.mallocgc;"
	    "runtime.memclrNoHeapPointers", 15 },
	{ "runtime.gcBgMarkWorker;runtime.gcDrain;runtime.scanobject;"
	    "runtime.findObject", 45 },
	{ "runtime.gcBgMarkWorker;runtime.gcDrain;runtime.scanobject", 60 },
	{ "runtime.gcBgMarkWorker;runtime.gcDrain;runtime.markroot;"
	    "runtime.scanstack", 15 },
	{ "runtime.mcall;runtime.park_m;runtime.schedule;"
	    "runtime.findRunnable;runtime.netpoll;runtime.epollwait", 25 },
	{ "runtime.bgsweep;runtime.sweepone;runtime.(*sweepLocked).sweep", 12 },
};
#define NLEAF	(sizeof(tree) / sizeof(tree[0]))

struct leaf {
	size_t		 fn[SIM_MAX_DEPTH];	/* root first */
	size_t		 depth;
	double		 weight;		/* after -e */
};

struct sim {
	char		*fname[SIM_MAX_FUNCS];
	size_t		 nfunc;
	struct leaf	 leaf[NLEAF];
	uint64_t	 rng[4];
};

/* -L: a group of samples, its labels, and where its -e and -f begin. */
struct group {
	char		*key[SIM_MAX_LABELS];
	char		*val[SIM_MAX_LABELS];
	size_t		 nlabels;
	size_t		 effect;	/* its first in the list of -e, -f */
	long long	 count[NLEAF];	/* its draw */
};

static void
usage(void)
{
	fprintf(stderr, "usage: simprof [-lt] [-d sigma] [-e func=factor] "
	    "[-f func=factor]\n"
	    "               [-L labels] [-n samples] [-r runs] [-s seed] "
	    "[-T nanos]\n"
	    "               [-u util] [out.pb.gz]\n");
	exit(2);
}

/* splitmix64, to expand the seed into xoshiro's state. */
static uint64_t
splitmix(uint64_t *x)
{
	uint64_t z = (*x += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static uint64_t
rotl(uint64_t x, int k)
{
	return (x << k) | (x >> (64 - k));
}

/* xoshiro256** (Blackman and Vigna 2018). */
static uint64_t
next64(struct sim *s)
{
	uint64_t *r = s->rng, res = rotl(r[1] * 5, 7) * 9, t = r[1] << 17;

	r[2] ^= r[0];
	r[3] ^= r[1];
	r[1] ^= r[2];
	r[0] ^= r[3];
	r[2] ^= t;
	r[3] = rotl(r[3], 45);
	return res;
}

/* Uniform on [0, 1), 53 bits. */
static double
uniform(struct sim *s)
{
	return (double)(next64(s) >> 11) * 0x1p-53;
}

/* Standard normal by Box-Muller, one value per pair of uniforms. */
static double
gauss(struct sim *s)
{
	double u1 = 1 - uniform(s), u2 = uniform(s);

	return sqrt(-2 * log(u1)) * cos(2 * M_PI * u2);
}

static size_t
func_id(struct sim *s, const char *name, size_t len)
{
	size_t i;

	for (i = 0; i < s->nfunc; i++)
		if (strlen(s->fname[i]) == len &&
		    memcmp(s->fname[i], name, len) == 0)
			return i;
	if (s->nfunc == SIM_MAX_FUNCS)
		errx(2, "too many functions in the tree");
	if ((s->fname[s->nfunc] = strndup(name, len)) == NULL)
		err(2, NULL);
	return s->nfunc++;
}

static void
sim_init(struct sim *s, uint64_t seed)
{
	const char	*p, *q;
	size_t		 i;

	memset(s, 0, sizeof(*s));
	for (i = 0; i < NLEAF; i++) {
		struct leaf *l = &s->leaf[i];

		for (p = tree[i].stack; ; p = q + 1) {
			if ((q = strchr(p, ';')) == NULL)
				q = p + strlen(p);
			if (l->depth == SIM_MAX_DEPTH)
				errx(2, "stack too deep in the tree");
			l->fn[l->depth++] = func_id(s, p, (size_t)(q - p));
			if (*q == '\0')
				break;
		}
		l->weight = tree[i].weight;
	}
	for (i = 0; i < 4; i++)
		s->rng[i] = splitmix(&seed);
}

static int
leaf_has(const struct leaf *l, size_t f)
{
	size_t i;

	for (i = 0; i < l->depth; i++)
		if (l->fn[i] == f)
			return 1;
	return 0;
}

/*
 * -e func=factor, or with flat set -f func=factor: the stacks through
 * func, or only those that end at it.
 */
static void
apply_effect(struct sim *s, const char *arg, int flat)
{
	const char	*eq;
	char		*end;
	double		 factor;
	size_t		 f, i;
	int		 opt = flat ? 'f' : 'e';

	if ((eq = strrchr(arg, '=')) == NULL || eq == arg)
		errx(2, "-%c %s: want func=factor", opt, arg);
	factor = strtod(eq + 1, &end);
	if (end == eq + 1 || *end != '\0' || !isfinite(factor) ||
	    !(factor > 0))
		errx(2, "-%c %s: factor must be a positive number", opt,
		    arg);
	for (f = 0; f < s->nfunc; f++)
		if (strlen(s->fname[f]) == (size_t)(eq - arg) &&
		    memcmp(s->fname[f], arg, (size_t)(eq - arg)) == 0)
			break;
	if (f == s->nfunc)
		errx(2, "-%c %s: no function %.*s in the tree", opt, arg,
		    (int)(eq - arg), arg);
	for (i = 0; i < NLEAF; i++)
		if (flat ? s->leaf[i].fn[s->leaf[i].depth - 1] == f :
		    leaf_has(&s->leaf[i], f))
			s->leaf[i].weight *= factor;
}

/* One run's weights: the tree's, dispersed by exp(N(0, sigma^2)). */
static void
run_weights(struct sim *s, double sigma, double *w)
{
	size_t i;

	for (i = 0; i < NLEAF; i++)
		w[i] = s->leaf[i].weight;
	if (sigma > 0)
		for (i = 0; i < NLEAF; i++)
			w[i] *= exp(sigma * gauss(s));
}

/* Add a multinomial draw of n samples over weights w to count. */
static void
draw(struct sim *s, const double *w, long long n, long long *count)
{
	double		 cum[NLEAF], u;
	size_t		 i, lo, hi, mid;
	long long	 k;

	for (i = 0; i < NLEAF; i++)
		cum[i] = (i ? cum[i - 1] : 0) + w[i];
	for (k = 0; k < n; k++) {
		u = uniform(s) * cum[NLEAF - 1];
		for (lo = 0, hi = NLEAF - 1; lo < hi; ) {
			mid = lo + (hi - lo) / 2;
			if (u < cum[mid])
				hi = mid;
			else
				lo = mid + 1;
		}
		count[lo]++;
	}
}

static void
print_leaves(const struct sim *s, const double *w)
{
	size_t	 i, j;

	for (i = 0; i < NLEAF; i++) {
		const struct leaf *l = &s->leaf[i];

		for (j = 0; j < l->depth; j++)
			printf("%s%s", j ? ";" : "", s->fname[l->fn[j]]);
		printf(" %.17g\n", w[i]);
	}
	if (fflush(stdout) != 0 || ferror(stdout))
		err(2, "stdout");
}

static void
print_shares(const struct sim *s, const double *w)
{
	double	 cum[SIM_MAX_FUNCS], flat[SIM_MAX_FUNCS], total = 0;
	size_t	 i, j, k;

	memset(cum, 0, sizeof(cum));
	memset(flat, 0, sizeof(flat));
	for (i = 0; i < NLEAF; i++) {
		const struct leaf *l = &s->leaf[i];

		total += w[i];
		flat[l->fn[l->depth - 1]] += w[i];
		for (j = 0; j < l->depth; j++) {
			for (k = 0; k < j; k++)	/* once per stack */
				if (l->fn[k] == l->fn[j])
					break;
			if (k == j)
				cum[l->fn[j]] += w[i];
		}
	}
	for (i = 0; i < s->nfunc; i++)
		printf("%s\t%.12f\t%.12f\n", s->fname[i], cum[i] / total,
		    flat[i] / total);
	if (fflush(stdout) != 0 || ferror(stdout))
		err(2, "stdout");
}

/* The package of a Go symbol: up to the first dot after the last slash. */
static char *
file_of(const char *fn)
{
	const char	*slash = strrchr(fn, '/'), *dot;
	const char	*base = slash ? slash + 1 : fn;
	char		*path;
	size_t		 cap = strlen(fn) * 2 + 32;
	int		 plen, blen;

	dot = strchr(base, '.');
	plen = dot ? (int)(dot - fn) : (int)strlen(fn);
	blen = dot ? (int)(dot - base) : (int)strlen(base);
	if ((path = malloc(cap)) == NULL)
		err(2, NULL);
	if (plen == 4 && strncmp(fn, "main", 4) == 0)
		snprintf(path, cap, "/src/simsvc/main.go");
	else
		snprintf(path, cap, "/usr/local/go/src/%.*s/%.*s.go", plen, fn,
		    blen, base);
	return path;
}

/* gzip with a fixed header (no name, no time), as mkbad does. */
static uint8_t *
gz(const uint8_t *in, size_t inlen, size_t *outlen)
{
	z_stream	 z;
	uint8_t		*out;
	size_t		 cap = inlen + inlen / 100 + 64;

	memset(&z, 0, sizeof(z));
	if (deflateInit2(&z, 6, Z_DEFLATED, 16 + MAX_WBITS, 8,
	    Z_DEFAULT_STRATEGY) != Z_OK)
		errx(2, "deflateInit2 failed");
	if ((out = malloc(cap)) == NULL)
		err(2, NULL);
	z.next_in = (uint8_t *)(uintptr_t)in;
	z.avail_in = (uInt)inlen;
	z.next_out = out;
	z.avail_out = (uInt)cap;
	if (deflate(&z, Z_FINISH) != Z_STREAM_END)
		errx(2, "deflate failed");
	*outlen = z.total_out;
	deflateEnd(&z);
	return out;
}

/* -L key=value[,key=value...]: the labels of a group. */
static void
parse_labels(struct group *g, const char *arg)
{
	const char	*p = arg, *eq, *end;

	for (;;) {
		end = strchr(p, ',');
		if (end == NULL)
			end = p + strlen(p);
		eq = memchr(p, '=', (size_t)(end - p));
		if (eq == NULL || eq == p || eq + 1 == end)
			errx(2, "-L %s: want key=value[,key=value...]", arg);
		if (g->nlabels == SIM_MAX_LABELS)
			errx(2, "-L %s: more than %d labels", arg,
			    SIM_MAX_LABELS);
		if ((g->key[g->nlabels] = strndup(p, (size_t)(eq - p))) ==
		    NULL || (g->val[g->nlabels] = strndup(eq + 1,
		    (size_t)(end - eq - 1))) == NULL)
			err(2, NULL);
		g->nlabels++;
		if (*end == '\0')
			break;
		p = end + 1;
	}
}

/*
 * The string table: "", the four sample-type strings, then each
 * function's name and file, then the binary, then each group's label
 * keys and values.
 */
enum { STR_SAMPLES = 1, STR_COUNT, STR_CPU, STR_NS, STR_FUNCS };

#define NSTR	(STR_FUNCS + 2 * SIM_MAX_FUNCS + 1 + \
		    2 * SIM_MAX_GROUPS * SIM_MAX_LABELS)

static void
add_str(ProtobufCBinaryData *str, size_t *nstr, const char *s)
{
	str[*nstr].data = (uint8_t *)(uintptr_t)s;
	str[(*nstr)++].len = strlen(s);
}

/* The samples of group g, a Sample for each leaf stack drawn. */
static void
add_samples(const struct sim *s, const struct group *g, size_t strat,
    Perftools__Profiles__Sample **smpp, size_t *nsmp, long long *total)
{
	Perftools__Profiles__Sample	*smp;
	Perftools__Profiles__Label	*lab;
	uint64_t			*locid;
	int64_t				*val;
	size_t				 i, j;

	for (i = 0; i < NLEAF; i++) {
		const struct leaf *l = &s->leaf[i];

		if (g->count[i] == 0)
			continue;
		if ((smp = calloc(1, sizeof(*smp))) == NULL ||
		    (locid = calloc(l->depth, sizeof(*locid))) == NULL ||
		    (val = calloc(2, sizeof(*val))) == NULL)
			err(2, NULL);
		perftools__profiles__sample__init(smp);
		for (j = 0; j < l->depth; j++)		/* leaf first */
			locid[j] = l->fn[l->depth - 1 - j] + 1;
		val[0] = g->count[i];
		val[1] = g->count[i] * SIM_PERIOD;
		smp->location_id = locid;
		smp->n_location_id = l->depth;
		smp->value = val;
		smp->n_value = 2;
		if (g->nlabels > 0) {
			if ((smp->label = calloc(g->nlabels,
			    sizeof(*smp->label))) == NULL ||
			    (lab = calloc(g->nlabels, sizeof(*lab))) == NULL)
				err(2, NULL);
			for (j = 0; j < g->nlabels; j++) {
				perftools__profiles__label__init(&lab[j]);
				lab[j].key = (int64_t)(strat + 2 * j);
				lab[j].str = (int64_t)(strat + 2 * j + 1);
				smp->label[j] = &lab[j];
			}
			smp->n_label = g->nlabels;
		}
		smpp[(*nsmp)++] = smp;
		*total += g->count[i];
	}
}

static void
free_samples(Perftools__Profiles__Sample **smpp, size_t nsmp)
{
	size_t i;

	for (i = 0; i < nsmp; i++) {
		free(smpp[i]->location_id);
		free(smpp[i]->value);
		if (smpp[i]->n_label > 0)
			free(smpp[i]->label[0]);
		free(smpp[i]->label);
		free(smpp[i]);
	}
}

static void
write_profile(const struct sim *s, const struct group *grp, size_t ngrp,
    const char *out)
{
	Perftools__Profiles__Profile	 p;
	Perftools__Profiles__ValueType	 st[2], *stp[2], pt;
	Perftools__Profiles__Mapping	 map, *mapp = &map;
	Perftools__Profiles__Function	 fn[SIM_MAX_FUNCS], *fnp[SIM_MAX_FUNCS];
	Perftools__Profiles__Location	 loc[SIM_MAX_FUNCS], *locp[SIM_MAX_FUNCS];
	Perftools__Profiles__Line	 line[SIM_MAX_FUNCS], *linep[SIM_MAX_FUNCS];
	Perftools__Profiles__Sample	*smpp[NLEAF * SIM_MAX_GROUPS];
	ProtobufCBinaryData		 str[NSTR];
	const char			*fixed[STR_FUNCS] = { "", "samples",
					    "count", "cpu", "nanoseconds" };
	char				*file[SIM_MAX_FUNCS];
	long long			 total = 0;
	uint8_t				*raw, *z;
	size_t				 i, j, nstr, nsmp = 0, rawlen, zlen;
	size_t				 strat[SIM_MAX_GROUPS];
	FILE				*fp;

	perftools__profiles__profile__init(&p);
	for (i = 0; i < STR_FUNCS; i++) {
		str[i].data = (uint8_t *)(uintptr_t)fixed[i];
		str[i].len = strlen(fixed[i]);
	}
	nstr = STR_FUNCS;
	for (i = 0; i < s->nfunc; i++) {
		file[i] = file_of(s->fname[i]);
		add_str(str, &nstr, s->fname[i]);
		add_str(str, &nstr, file[i]);
	}
	add_str(str, &nstr, "/usr/local/bin/simsvc");
	for (i = 0; i < ngrp; i++) {
		strat[i] = nstr;
		for (j = 0; j < grp[i].nlabels; j++) {
			add_str(str, &nstr, grp[i].key[j]);
			add_str(str, &nstr, grp[i].val[j]);
		}
	}
	p.string_table = str;
	p.n_string_table = nstr;

	for (i = 0; i < 2; i++) {
		perftools__profiles__value_type__init(&st[i]);
		st[i].type = i == 0 ? STR_SAMPLES : STR_CPU;
		st[i].unit = i == 0 ? STR_COUNT : STR_NS;
		stp[i] = &st[i];
	}
	p.sample_type = stp;
	p.n_sample_type = 2;
	perftools__profiles__value_type__init(&pt);
	pt.type = STR_CPU;
	pt.unit = STR_NS;
	p.period_type = &pt;
	p.period = SIM_PERIOD;

	perftools__profiles__mapping__init(&map);
	map.id = 1;
	map.memory_start = 0x400000;
	map.memory_limit = 0x800000;
	map.filename = (int64_t)(STR_FUNCS + 2 * s->nfunc);
	map.has_functions = 1;
	map.has_filenames = 1;
	map.has_line_numbers = 1;
	p.mapping = &mapp;
	p.n_mapping = 1;

	/* One function and one location per name. */
	for (i = 0; i < s->nfunc; i++) {
		perftools__profiles__function__init(&fn[i]);
		fn[i].id = i + 1;
		fn[i].name = fn[i].system_name = (int64_t)(STR_FUNCS + 2 * i);
		fn[i].filename = (int64_t)(STR_FUNCS + 2 * i + 1);
		fn[i].start_line = 10 + 20 * (int64_t)i;
		fnp[i] = &fn[i];
		perftools__profiles__line__init(&line[i]);
		line[i].function_id = i + 1;
		line[i].line = fn[i].start_line + 3;
		linep[i] = &line[i];
		perftools__profiles__location__init(&loc[i]);
		loc[i].id = i + 1;
		loc[i].mapping_id = 1;
		loc[i].address = 0x401000 + 0x40 * i;
		loc[i].line = &linep[i];
		loc[i].n_line = 1;
		locp[i] = &loc[i];
	}
	p.function = fnp;
	p.n_function = s->nfunc;
	p.location = locp;
	p.n_location = s->nfunc;

	for (i = 0; i < ngrp; i++)
		add_samples(s, &grp[i], strat[i], smpp, &nsmp, &total);
	p.sample = smpp;
	p.n_sample = nsmp;
	p.time_nanos = sim_time;
	p.duration_nanos = llround((double)(total * SIM_PERIOD) / sim_util);

	rawlen = perftools__profiles__profile__get_packed_size(&p);
	if ((raw = malloc(rawlen + 1)) == NULL)
		err(2, NULL);
	perftools__profiles__profile__pack(&p, raw);
	z = gz(raw, rawlen, &zlen);
	if ((fp = fopen(out, "wb")) == NULL)
		err(2, "%s", out);
	if (fwrite(z, 1, zlen, fp) != zlen || fclose(fp) != 0)
		err(2, "%s", out);
	free(z);
	free(raw);
	free_samples(smpp, nsmp);
	for (i = 0; i < s->nfunc; i++)
		free(file[i]);
}

int
main(int argc, char *argv[])
{
	struct sim	 s;
	static struct group grp[SIM_MAX_GROUPS];
	const char	*effect[SIM_MAX_EFFECTS], *errstr;
	int		 eflat[SIM_MAX_EFFECTS];
	long long	 n = 2000, runs = 1, r;
	uint64_t	 seed = 1;
	double		 sigma = 0, w[NLEAF], base[NLEAF];
	char		*end;
	size_t		 neffect = 0, ngrp = 0, i, g, last;
	int		 ch, lflag = 0, tflag = 0;

	while ((ch = getopt(argc, argv, "d:e:f:lL:n:r:s:tT:u:")) != -1) {
		switch (ch) {
		case 'd':
			sigma = strtod(optarg, &end);
			if (end == optarg || *end != '\0' ||
			    !(sigma >= 0 && sigma <= 10))
				errx(2, "-d %s: want a sigma from 0 to 10",
				    optarg);
			break;
		case 'e':
		case 'f':
			if (neffect == SIM_MAX_EFFECTS)
				errx(2, "more than %d -e and -f options",
				    SIM_MAX_EFFECTS);
			eflat[neffect] = ch == 'f';
			effect[neffect++] = optarg;
			break;
		case 'l':
			lflag = 1;
			break;
		case 'L':
			if (ngrp == SIM_MAX_GROUPS)
				errx(2, "more than %d -L options",
				    SIM_MAX_GROUPS);
			parse_labels(&grp[ngrp], optarg);
			grp[ngrp++].effect = neffect;
			break;
		case 'n':
			n = strtonum(optarg, 1, SIM_MAX_SAMPLES, &errstr);
			if (errstr != NULL)
				errx(2, "-n %s: %s", optarg, errstr);
			break;
		case 'u':
			sim_util = strtod(optarg, &end);
			if (end == optarg || *end != '\0' ||
			    !(sim_util >= 0.001 && sim_util <= 1024))
				errx(2, "-u %s: want a utilization from 0.001 "
				    "to 1024 cores", optarg);
			break;
		case 'r':
			runs = strtonum(optarg, 1, SIM_MAX_RUNS, &errstr);
			if (errstr != NULL)
				errx(2, "-r %s: %s", optarg, errstr);
			break;
		case 's':
			seed = (uint64_t)strtonum(optarg, 0, LLONG_MAX,
			    &errstr);
			if (errstr != NULL)
				errx(2, "-s %s: %s", optarg, errstr);
			break;
		case 'T':
			sim_time = strtonum(optarg, 1, LLONG_MAX, &errstr);
			if (errstr != NULL)
				errx(2, "-T %s: %s", optarg, errstr);
			break;
		case 't':
			tflag = 1;
			break;
		default:
			usage();
		}
	}
	argc -= optind;
	argv += optind;
	if (argc != (tflag || lflag ? 0 : 1) || (tflag && lflag))
		usage();
	if ((tflag || lflag) && ngrp > 0)
		errx(2, "-t and -l describe the tree, not the groups of -L");
	/* Without -L, one group of no labels, which every -e and -f change. */
	if (ngrp == 0)
		grp[ngrp++].effect = neffect;
	if (n * runs > SIM_MAX_SAMPLES / (long long)ngrp)
		errx(2, "-n %lld -r %lld: more than %lld samples", n, runs,
		    SIM_MAX_SAMPLES);

	sim_init(&s, seed);
	for (i = 0; i < grp[0].effect; i++)
		apply_effect(&s, effect[i], eflat[i]);
	if (tflag || lflag) {
		run_weights(&s, sigma, w);
		if (tflag)
			print_shares(&s, w);
		else
			print_leaves(&s, w);
	} else {
		for (i = 0; i < NLEAF; i++)
			base[i] = s.leaf[i].weight;
		for (g = 0; g < ngrp; g++) {
			/* Each group's own effects, on the tree's weights. */
			for (i = 0; i < NLEAF; i++)
				s.leaf[i].weight = base[i];
			last = g + 1 < ngrp ? grp[g + 1].effect : neffect;
			for (i = grp[g].effect; i < last; i++)
				apply_effect(&s, effect[i], eflat[i]);
			for (r = 0; r < runs; r++) {
				run_weights(&s, sigma, w);
				draw(&s, w, n, grp[g].count);
			}
		}
		write_profile(&s, grp, ngrp, argv[0]);
	}
	for (g = 0; g < ngrp; g++)
		for (i = 0; i < grp[g].nlabels; i++) {
			free(grp[g].key[i]);
			free(grp[g].val[i]);
		}
	for (i = 0; i < s.nfunc; i++)
		free(s.fname[i]);
	return 0;
}
