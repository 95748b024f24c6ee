/*
 * stages: time each stage of loading one profile on its own, to see
 * where profdiff spends its time: reading the file, inflating it
 * (gunzip), decoding and validating the protobuf (pprof_decode on the
 * inflated bytes) and folding the samples (agg_add).  Each stage runs
 * -r times and the fastest run is printed (CPU time, so that other load
 * on the machine disturbs it less), with the arena size of the
 * decoded profile.
 *
 * usage: stages [-r runs] profile.pb.gz
 */
#include <err.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "agg.h"
#include "arena.h"
#include "diag.h"
#include "facts.h"
#include "gunzip.h"
#include "profdiff.h"
#include "profile.h"

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

static void
die(const struct diag *d)
{
	char buf[512];

	diag_format(d, buf, sizeof(buf));
	errx(2, "%s", buf);
}

int
main(int argc, char **argv)
{
	struct pd_limits lim;
	struct agg_opts	 ao;
	struct agg_src	 src;
	struct diag	 d;
	struct profile	*p = NULL;
	struct agg	*a;
	struct rusage	 ru;
	unsigned char	*gz, *raw = NULL;
	const char	*why;
	size_t		 gzlen, rawlen = 0;
	double		 t, best[4] = { 1e9, 1e9, 1e9, 1e9 };
	int		 runs = 3, r, ch, vi;

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
		free(gz);

		profile_free(p);
		t = now();
		if ((p = pprof_decode(raw, rawlen, argv[optind], &lim,
		    &d)) == NULL)
			die(&d);
		if ((t = now() - t) < best[2])
			best[2] = t;

		if ((vi = profile_sample_index(p, NULL, &d)) < 0)
			die(&d);
		facts_count_source(p, vi, &src, &why);
		a = agg_new(&ao);
		t = now();
		if (agg_add(a, p, &src, &d) == -1)
			die(&d);
		if ((t = now() - t) < best[3])
			best[3] = t;
		if (r == runs - 1)
			printf("nodes %zu, edges %zu, samples %zu\n",
			    agg_nnodes(a), agg_nedges(a), agg_nsamples(a));
		agg_free(a);
	}
	getrusage(RUSAGE_SELF, &ru);
	printf("file %s: %zu bytes gzipped, %zu inflated, %zu samples, "
	    "%zu locations, %zu functions\n", argv[optind], gzlen, rawlen,
	    p->nsamples, p->nlocations, p->nfunctions);
	printf("profile arena %zu bytes (%.2fx the inflated size)\n",
	    arena_used(p->arena), (double)arena_used(p->arena) /
	    (double)rawlen);
	printf("%-10s %8.3f s\n", "read", best[0]);
	printf("%-10s %8.3f s  %7.1f MB/s of output\n", "inflate", best[1],
	    (double)rawlen / best[1] / 1e6);
	printf("%-10s %8.3f s  %7.1f MB/s of input\n", "decode", best[2],
	    (double)rawlen / best[2] / 1e6);
	printf("%-10s %8.3f s\n", "agg_add", best[3]);
	printf("peak RSS %ld KB\n", ru.ru_maxrss);
	profile_free(p);
	free(raw);
	return 0;
}
