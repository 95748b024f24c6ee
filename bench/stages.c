/*
 * stages: time each stage of loading one profile on its own, to see
 * where profdiff spends its time: reading the file, inflating it
 * (gunzip), both at once as profdiff does for a file (gunzip_stream,
 * timed apart as "streamed"), decoding and validating everything but the samples
 * (pprof_open_mem on the inflated bytes), reading the samples off the
 * wire (pprof_next), and folding them as they are read (agg_sample),
 * with edges as diff folds them and without as top does.  The folding
 * times are of reading and folding, less the reading alone.  Last, the
 * file read twice, as profdiff reads a large gzipped one: the open
 * (inflating for everything but the samples, and decoding the header),
 * then the samples, inflated again as they are read.  Each stage
 * runs -r times and the fastest run is printed (CPU time, so that other
 * load on the machine disturbs it less), with the arena size of the
 * decoded header.
 *
 * usage: stages [-r runs] profile.pb.gz
 */
#include <err.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "core/agg.h"
#include "support/arena.h"
#include "support/diag.h"
#include "core/facts.h"
#include "input/gunzip.h"
#include "input/input.h"
#include "profdiff.h"
#include "model/profile.h"

static double
now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static unsigned char *
slurp(const char *path, size_t *len)
{
	FILE		*f;
	unsigned char	*buf = NULL;
	size_t		 cap = 0, n;

	if ((f = fopen(path, "rb")) == NULL)
		err(1, "%s", path);
	*len = 0;
	for (;;) {
		if (*len == cap) {
			cap = cap ? cap * 2 : 1 << 20;
			if ((buf = realloc(buf, cap)) == NULL)
				err(1, NULL);
		}
		if ((n = fread(buf + *len, 1, cap - *len, f)) == 0)
			break;
		*len += n;
	}
	fclose(f);
	return buf;
}

static ssize_t
fd_read(void *ctx, void *buf, size_t n)
{
	return read(*(int *)ctx, buf, n);
}

/* Read and inflate path as it is read; the CPU time, or -1 if refused. */
static double
streamed(const char *path, size_t gzlen, const unsigned char *gz,
    const struct pd_limits *lim)
{
	unsigned char	*out = NULL;
	size_t		 outlen;
	double		 t;
	int		 fd;

	if (gz == NULL || gzlen < 4 || !gunzip_is_gzip(gz, gzlen))
		return -1;
	if ((fd = open(path, O_RDONLY)) == -1)
		err(1, "%s", path);
	t = now();
	if (gunzip_stream(fd_read, &fd, gzlen, gunzip_size_hint(gz + gzlen -
	    4), &out, &outlen, lim->max_inflated, lim->max_ratio) == -1)
		t = -1;
	else
		t = now() - t;
	close(fd);
	free(out);
	return t;
}

static void
die(const struct diag *d)
{
	char buf[512];

	diag_format(d, buf, sizeof(buf));
	errx(2, "%s", buf);
}

/*
 * path opened to be read twice, and its samples read: the CPU time of
 * each in t[0] and t[1], or -1 if it is not read twice.
 */
static void
twice(const char *path, const struct pd_limits *lim, double t[2])
{
	struct pd_limits	 l = *lim;
	struct pf_reader	*rd;
	const struct pf_sample	*s;
	struct diag		 d;
	int			 rc;

	l.read_twice = 0;
	diag_init(&d, path);
	t[0] = now();
	if ((rd = pprof_open(path, &l, &d)) == NULL)
		die(&d);
	t[0] = now() - t[0];
	if (!pprof_reads_twice(rd)) {
		t[0] = t[1] = -1;
		pprof_close(rd);
		return;
	}
	t[1] = now();
	while ((rc = pprof_next(rd, &s, &d)) == 1)
		continue;
	if (rc == -1)
		die(&d);
	t[1] = now() - t[1];
	pprof_close(rd);
}

/* Read (and with a, fold) every sample of raw; returns the CPU time. */
static double
pass(const unsigned char *raw, size_t rawlen, const char *path,
    const struct pd_limits *lim, struct agg *a, size_t *nsamples)
{
	struct pf_reader	*rd;
	struct agg_run		*run = NULL;
	const struct pf_sample	*s;
	struct agg_src		 src;
	struct diag		 d;
	const char		*why;
	double			 t;
	int			 rc, vi;

	diag_init(&d, path);
	if ((rd = pprof_open_mem(raw, rawlen, path, lim, &d)) == NULL)
		die(&d);
	if (a != NULL) {
		if ((vi = profile_sample_index(pprof_header(rd), NULL,
		    &d)) < 0)
			die(&d);
		facts_count_source(pprof_header(rd), vi, &src, &why);
		src.keep = NULL;
		if ((run = agg_begin(a, pprof_header(rd), &src, &d)) == NULL)
			die(&d);
	}
	*nsamples = 0;
	t = now();
	while ((rc = pprof_next(rd, &s, &d)) == 1) {
		(*nsamples)++;
		if (run != NULL && agg_sample(run, s, 1, &d) == -1)
			die(&d);
	}
	if (rc == -1)
		die(&d);
	agg_end(run);
	t = now() - t;
	pprof_close(rd);
	return t;
}

int
main(int argc, char **argv)
{
	struct pd_limits lim;
	struct agg_opts	 ao;
	struct diag	 d;
	struct pf_reader *rd = NULL;
	const struct profile *p;
	struct agg	*a;
	struct rusage	 ru;
	unsigned char	*gz, *raw = NULL;
	size_t		 gzlen, rawlen = 0, ns = 0, nloc = 0, nfn = 0, used = 0;
	double		 t, tw[2], best[9] = { 1e9, 1e9, 1e9, 1e9, 1e9, 1e9,
			    1e9, 1e9, 1e9 };
	int		 runs = 3, r, ch, e;

	while ((ch = getopt(argc, argv, "r:")) != -1) {
		switch (ch) {
		case 'r':
			runs = atoi(optarg);
			break;
		default:
			fprintf(stderr, "usage: stages [-r runs] profile\n");
			return 2;
		}
	}
	if (optind + 1 != argc || runs < 1) {
		fprintf(stderr, "usage: stages [-r runs] profile\n");
		return 2;
	}
	pd_limits_default(&lim);
	memset(&ao, 0, sizeof(ao));
	for (r = 0; r < runs; r++) {
		t = now();
		gz = slurp(argv[optind], &gzlen);
		if ((t = now() - t) < best[0])
			best[0] = t;

		free(raw);
		diag_init(&d, argv[optind]);
		t = now();
		if (!gunzip_is_gzip(gz, gzlen)) {
			raw = gz;
			rawlen = gzlen;
			gz = NULL;
		} else if (gunzip(gz, gzlen, &raw, &rawlen, lim.max_inflated,
		    lim.max_ratio, &d) == -1)
			die(&d);
		if ((t = now() - t) < best[1])
			best[1] = t;
		if ((t = streamed(argv[optind], gzlen, gz, &lim)) >= 0 &&
		    t < best[6])
			best[6] = t;
		free(gz);

		t = now();
		if ((rd = pprof_open_mem(raw, rawlen, argv[optind], &lim,
		    &d)) == NULL)
			die(&d);
		if ((t = now() - t) < best[2])
			best[2] = t;
		p = pprof_header(rd);
		nloc = p->nlocations;
		nfn = p->nfunctions;
		used = arena_used(p->arena);
		pprof_close(rd);

		if ((t = pass(raw, rawlen, argv[optind], &lim, NULL,
		    &ns)) < best[3])
			best[3] = t;
		for (e = 0; e < 2; e++) {
			ao.noedges = e;
			a = agg_new(&ao);
			if ((t = pass(raw, rawlen, argv[optind], &lim, a,
			    &ns)) < best[4 + e])
				best[4 + e] = t;
			if (r == runs - 1)
				printf("%s: nodes %zu, edges %zu, samples %zu\n",
				    e ? "without edges" : "with edges",
				    agg_nnodes(a), agg_nedges(a),
				    agg_nsamples(a));
			agg_free(a);
		}
		twice(argv[optind], &lim, tw);
		for (e = 0; e < 2; e++)
			if (tw[e] >= 0 && tw[e] < best[7 + e])
				best[7 + e] = tw[e];
	}
	getrusage(RUSAGE_SELF, &ru);
	printf("file %s: %zu bytes gzipped, %zu inflated, %zu samples, "
	    "%zu locations, %zu functions\n", argv[optind], gzlen, rawlen,
	    ns, nloc, nfn);
	printf("header arena %zu bytes (%.2fx the inflated size)\n", used,
	    (double)used / (double)rawlen);
	printf("%-14s %8.3f s\n", "read", best[0]);
	printf("%-14s %8.3f s  %7.1f MB/s of output\n", "inflate", best[1],
	    (double)rawlen / best[1] / 1e6);
	if (best[6] < 1e9)
		printf("%-14s %8.3f s  %7.1f MB/s of output\n", "streamed",
		    best[6], (double)rawlen / best[6] / 1e6);
	else
		printf("%-14s %8s    (not built in, or not gzip)\n",
		    "streamed", "-");
	printf("%-14s %8.3f s\n", "header", best[2]);
	printf("%-14s %8.3f s  %7.1f MB/s of input\n", "samples", best[3],
	    (double)rawlen / best[3] / 1e6);
	printf("%-14s %8.3f s\n", "fold (edges)", best[4] - best[3]);
	printf("%-14s %8.3f s\n", "fold (no edges)", best[5] - best[3]);
	if (best[7] < 1e9) {
		printf("%-14s %8.3f s\n", "twice: open", best[7]);
		printf("%-14s %8.3f s\n", "twice: samples", best[8]);
	} else
		printf("%-14s %8s    (not built in, or not gzip)\n",
		    "twice", "-");
	printf("peak RSS %ld KB\n", ru.ru_maxrss);
	free(raw);
	return 0;
}
