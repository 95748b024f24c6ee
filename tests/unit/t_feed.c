/*
 * Tests of feed.c: a threaded feed must give the same headers, samples
 * and messages, in the same order, as the reader alone; and it must stop
 * cleanly wherever its caller stops (ASan and valgrind see leaks and
 * hangs).  The profiles are encoded here with protobuf-c and written to
 * a temporary directory.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "support/diag.h"
#include "load/feed.h"
#include "profdiff.h"
#include "model/profile.h"
#include "profile.pb-c.h"
#include "tap.h"

static char	 dir[] = "/tmp/t_feed.XXXXXX";
static size_t	 wrong;		/* samples whose value was not its index + 1 */

/*
 * n samples of one location (two with bad_at: sample bad_at names an
 * undefined location); sample i has value i + 1, and every third one a
 * label.  Written to dir/name; returns the path (static storage).
 */
static const char *
write_profile(const char *name, size_t n, long bad_at)
{
	static char	 paths[8][64];
	static int	 np;
	static const char *strs[] = { "", "samples", "count", "main", "m.go",
	    "k", "v" };
	Perftools__Profiles__Profile	 p = PERFTOOLS__PROFILES__PROFILE__INIT;
	Perftools__Profiles__ValueType	 vt = PERFTOOLS__PROFILES__VALUE_TYPE__INIT,
					*vtp = &vt;
	Perftools__Profiles__Function	 fn = PERFTOOLS__PROFILES__FUNCTION__INIT,
					*fnp = &fn;
	Perftools__Profiles__Line	 ln = PERFTOOLS__PROFILES__LINE__INIT,
					*lnp = &ln;
	Perftools__Profiles__Location	 loc = PERFTOOLS__PROFILES__LOCATION__INIT,
					*locp = &loc;
	Perftools__Profiles__Label	 lab = PERFTOOLS__PROFILES__LABEL__INIT,
					*labp = &lab;
	Perftools__Profiles__Sample	*s, **sp;
	ProtobufCBinaryData		 st[7];
	uint64_t			 good = 1, bad = 99;
	int64_t				*vals;
	uint8_t				*buf;
	size_t				 i, len;
	FILE				*f;
	char				*path = paths[np++ % 8];

	for (i = 0; i < 7; i++) {
		st[i].data = (uint8_t *)(uintptr_t)strs[i];
		st[i].len = strlen(strs[i]);
	}
	p.string_table = st;
	p.n_string_table = 7;
	vt.type = 1;
	vt.unit = 2;
	p.sample_type = &vtp;
	p.n_sample_type = 1;
	fn.id = 1;
	fn.name = 3;
	fn.filename = 4;
	p.function = &fnp;
	p.n_function = 1;
	ln.function_id = 1;
	ln.line = 7;
	loc.id = 1;
	loc.line = &lnp;
	loc.n_line = 1;
	p.location = &locp;
	p.n_location = 1;
	lab.key = 5;
	lab.str = 6;
	s = calloc(n, sizeof(*s));
	sp = calloc(n, sizeof(*sp));
	vals = calloc(n, sizeof(*vals));
	for (i = 0; i < n; i++) {
		perftools__profiles__sample__init(&s[i]);
		s[i].location_id = (long)i == bad_at ? &bad : &good;
		s[i].n_location_id = 1;
		vals[i] = (int64_t)i + 1;
		s[i].value = &vals[i];
		s[i].n_value = 1;
		if (i % 3 == 0) {
			s[i].label = &labp;
			s[i].n_label = 1;
		}
		sp[i] = &s[i];
	}
	p.sample = sp;
	p.n_sample = n;
	len = perftools__profiles__profile__get_packed_size(&p);
	buf = malloc(len);
	perftools__profiles__profile__pack(&p, buf);
	snprintf(path, 64, "%s/%s", dir, name);
	if ((f = fopen(path, "wb")) == NULL || fwrite(buf, 1, len, f) != len ||
	    fclose(f) != 0)
		abort();
	free(buf);
	free(vals);
	free(sp);
	free(s);
	return path;
}

/*
 * Read every profile of the feed into a digest: per profile its sample
 * count and a checksum of what the samples hold, then the outcome.
 * Returns the number of samples read; *msg gets the last diag.
 */
static size_t
read_all(char *const *paths, size_t n, int threaded, uint64_t *sum,
    struct diag *last)
{
	struct feed		*f;
	struct profile		*p;
	const struct pf_sample	*s;
	size_t			 i, got = 0, first;

	int			 rc = 0;

	*sum = 0;
	f = feed_new(paths, n, NULL, threaded);
	for (i = 0; i < n && rc != -1; i++) {
		diag_init(last, paths[i]);
		if ((p = feed_open(f, last)) == NULL) {
			*sum = *sum * 31 + 7;
			break;
		}
		first = got;
		while ((rc = feed_next(f, &s, last)) == 1) {
			/* Every profile here has value j + 1 in sample j. */
			if (s->values[0] != (int64_t)(got - first) + 1)
				wrong++;
			got++;
			*sum = *sum * 1000003 + (uint64_t)s->values[0] +
			    (uint64_t)(s->locs[0] - p->locations) * 17 +
			    s->nlabels * 5 + s->nlocs;
			if (s->nlabels == 1 && strcmp(s->labels[0].str, "v"))
				*sum += 1;
		}
		*sum = *sum * 31 + (uint64_t)(rc + 2);
		feed_close(f);
	}
	feed_free(f);
	return got;
}

/*
 * Read the paths unthreaded and threaded: the same samples, digest and
 * outcome from both, want samples in all; *d gets the threaded diag.
 */
static void
both_ways(char *const *paths, size_t n, size_t want, struct diag *d)
{
	struct diag	 d1;
	uint64_t	 s1, s2;

	wrong = 0;
	CHECK_INT(read_all(paths, n, 0, &s1, &d1), want);
	CHECK_INT(read_all(paths, n, 1, &s2, d), want);
	CHECK_INT(wrong, 0);
	CHECK(s1 == s2);
	CHECK_INT(d->code, d1.code);
	CHECK_STR(d->msg, d1.msg);
}

static void
test_same(void)
{
	char		*paths[4];
	struct diag	 d;

	/* About 2 MB: the reader gives bytes read back as it goes. */
	paths[0] = (char *)write_profile("big.pb", 200000, -1);
	paths[1] = (char *)write_profile("small.pb", 5, -1);
	paths[2] = paths[0];
	both_ways(paths, 3, 400005, &d);
	CHECK_INT(d.code, DIAG_OK);

	/* A missing file among them: the same refusal, at the same place. */
	paths[1] = "/nonexistent/t_feed.pb";
	both_ways(paths, 3, 200000, &d);
	CHECK_INT(d.code, DIAG_IO);

	/* A sample that names no location, far into the file. */
	paths[1] = (char *)write_profile("bad.pb", 120000, 90000);
	both_ways(paths, 3, 290000, &d);
	CHECK_INT(d.code, DIAG_CORRUPT);
	CHECK_STR(d.msg, "sample 90000: location_id 99 not defined");
}

/* Stopping early: closing unread profiles, freeing a busy feed. */
static void
test_stop(void)
{
	char			*paths[3];
	struct feed		*f;
	struct profile		*p;
	const struct pf_sample	*s;
	struct diag		 d;
	int			 threaded, i;

	paths[0] = (char *)write_profile("big2.pb", 30000, -1);
	paths[1] = (char *)write_profile("small2.pb", 5, -1);
	paths[2] = paths[0];
	for (threaded = 0; threaded < 2; threaded++) {
		diag_init(&d, "t");
		f = feed_new(paths, 3, NULL, threaded);
		CHECK((p = feed_open(f, &d)) != NULL);
		feed_close(f);		/* 30,000 samples unread */
		CHECK((p = feed_open(f, &d)) != NULL);
		CHECK(p != NULL && p->nsamples == 5);
		for (i = 0; i < 5; i++)
			CHECK_INT(feed_next(f, &s, &d), 1);
		CHECK_INT(feed_next(f, &s, &d), 0);
		CHECK_INT(feed_next(f, &s, &d), 0);
		feed_close(f);
		CHECK((p = feed_open(f, &d)) != NULL);
		CHECK_INT(feed_next(f, &s, &d), 1);
		feed_free(f);		/* the producer is blocked ahead */
	}
}

int
main(void)
{
	char cmd[64];

	if (mkdtemp(dir) == NULL)
		return 1;
	test_same();
	test_stop();
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	if (system(cmd) != 0)
		CHECK(0);
	return tap_done();
}
