/*
 * Reading a large gzipped file twice (input.c read_twice()): the header
 * from a first inflate, the samples from a second one as pprof_next()
 * reads them.  Every file here is read both ways, with the threshold
 * lowered to nothing and raised out of reach, and the two readers must
 * agree on everything: whether the file opens, and the message if not;
 * the header; every sample; and every error of pprof_next(), message
 * included.  The files are the test data, the examples, the shared
 * corpus when it is there, and variants of an example made to walk the
 * paths a Go profile does not: gzip members that end inside a sample,
 * the header first, fields between the samples, samples longer than
 * one step of the second inflate, and bad samples late in the file.
 * Last, a file rewritten between the two inflates must be refused.
 */
#include <dirent.h>
#include <fcntl.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include "support/diag.h"
#include "input/gunzip.h"
#include "profdiff.h"
#include "input/input.h"
#include "model/profile.h"
#include "input/wire.h"
#include "tap.h"

#define BASE	"examples/good.pb.gz"

struct buf {
	unsigned char	*p;
	size_t		 n, cap;
};

static void
put(struct buf *b, const void *p, size_t n)
{
	if (b->n + n > b->cap) {
		b->cap = (b->n + n) * 2;
		if ((b->p = realloc(b->p, b->cap)) == NULL)
			abort();
	}
	memcpy(b->p + b->n, p, n);
	b->n += n;
}

static void
put_varint(struct buf *b, uint64_t v)
{
	unsigned char c;

	do {
		c = (v & 0x7f) | (v > 0x7f ? 0x80 : 0);
		put(b, &c, 1);
		v >>= 7;
	} while (v != 0);
}

static uint64_t
get_varint(const unsigned char **pp)
{
	uint64_t	v = 0;
	int		s = 0;

	do
		v |= (uint64_t)(**pp & 0x7f) << s, s += 7;
	while (*(*pp)++ & 0x80);
	return v;
}

/* A length-delimited field of the top level: its number and its bytes. */
struct field {
	unsigned		 num;
	const unsigned char	*all, *data;	/* the whole field, its payload */
	size_t			 nall, ndata;
};

/* The top level of a profile that has only varint and length fields. */
static size_t
split(const struct buf *raw, struct field *f, size_t max)
{
	const unsigned char	*p = raw->p, *end = raw->p + raw->n;
	size_t			 n = 0;
	uint64_t		 key;

	while (p < end && n < max) {
		f[n].all = p;
		key = get_varint(&p);
		f[n].num = (unsigned)(key >> 3);
		f[n].ndata = (key & 7) == 2 ? get_varint(&p) : 0;
		if ((key & 7) == 0)
			(void)get_varint(&p);
		f[n].data = p;
		p += f[n].ndata;
		f[n].nall = (size_t)(p - f[n].all);
		n++;
	}
	return n;
}

/* A sample field of the given payload. */
static void
put_sample(struct buf *b, const struct buf *payload)
{
	put_varint(b, 2 << 3 | 2);
	put_varint(b, payload->n);
	put(b, payload->p, payload->n);
}

static int
slurp(const char *path, struct buf *b)
{
	unsigned char	 chunk[65536];
	ssize_t		 n;
	int		 fd;

	memset(b, 0, sizeof(*b));
	if ((fd = open(path, O_RDONLY)) == -1)
		return -1;
	while ((n = read(fd, chunk, sizeof(chunk))) > 0)
		put(b, chunk, (size_t)n);
	close(fd);
	return n == 0 ? 0 : -1;
}

/*
 * raw gzipped in the given number of members, split evenly; at level 0
 * (stored), the size depends on the size of raw alone.
 */
static void
gzip_members(struct buf *out, const struct buf *raw, size_t members,
    int level)
{
	z_stream	 z;
	size_t		 i, lo, hi;
	unsigned char	*o;
	uLong		 cap;

	memset(out, 0, sizeof(*out));
	for (i = 0; i < members; i++) {
		lo = raw->n * i / members;
		hi = raw->n * (i + 1) / members;
		memset(&z, 0, sizeof(z));
		if (deflateInit2(&z, level, Z_DEFLATED, 31, 8,
		    Z_DEFAULT_STRATEGY) != Z_OK)
			abort();
		cap = deflateBound(&z, hi - lo) + 32;
		if ((o = malloc(cap)) == NULL)
			abort();
		z.next_in = raw->p + lo;
		z.avail_in = (uInt)(hi - lo);
		z.next_out = o;
		z.avail_out = (uInt)cap;
		if (deflate(&z, Z_FINISH) != Z_STREAM_END)
			abort();
		put(out, o, z.total_out);
		deflateEnd(&z);
		free(o);
	}
}

static char	 tmpdir[] = "/tmp/t_twice.XXXXXX";
static int	 nspilled;

/* Write b to a new file; the path is static until the next call. */
static const char *
spill(const struct buf *b, const char *name)
{
	static char	 path[256];
	int		 fd;

	snprintf(path, sizeof(path), "%s/%02d-%s.pb.gz", tmpdir, nspilled++,
	    name);
	if ((fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600)) == -1 ||
	    write(fd, b->p, b->n) != (ssize_t)b->n || close(fd) == -1)
		abort();
	return path;
}

/* Write b over the file at path, in place: the same inode. */
static void
overwrite(const char *path, const struct buf *b)
{
	int fd;

	if ((fd = open(path, O_WRONLY | O_TRUNC)) == -1 ||
	    write(fd, b->p, b->n) != (ssize_t)b->n || close(fd) == -1)
		abort();
}

static int
same_str(const char *a, const char *b)
{
	return (a == NULL) == (b == NULL) && (a == NULL || strcmp(a, b) == 0);
}

static int
same_header(const struct profile *a, const struct profile *b)
{
	size_t i, j;

	if (a->nsamples != b->nsamples ||
	    a->nsample_types != b->nsample_types ||
	    a->nlocations != b->nlocations ||
	    a->nfunctions != b->nfunctions || a->nmappings != b->nmappings ||
	    a->ncomments != b->ncomments || a->period != b->period ||
	    a->duration_nanos != b->duration_nanos ||
	    a->time_nanos != b->time_nanos ||
	    !same_str(a->default_sample_type, b->default_sample_type))
		return 0;
	for (i = 0; i < a->nsample_types; i++)
		if (!same_str(a->sample_types[i].type, b->sample_types[i].type) ||
		    !same_str(a->sample_types[i].unit, b->sample_types[i].unit))
			return 0;
	for (i = 0; i < a->nfunctions; i++)
		if (a->functions[i].id != b->functions[i].id ||
		    !same_str(a->functions[i].name, b->functions[i].name))
			return 0;
	for (i = 0; i < a->nlocations; i++) {
		const struct pf_location *x = &a->locations[i];
		const struct pf_location *y = &b->locations[i];

		if (x->id != y->id || x->address != y->address ||
		    x->nlines != y->nlines)
			return 0;
		for (j = 0; j < x->nlines; j++)
			if (x->lines[j].line != y->lines[j].line ||
			    (x->lines[j].function == NULL ?
			    y->lines[j].function != NULL :
			    y->lines[j].function == NULL ||
			    x->lines[j].function - a->functions !=
			    y->lines[j].function - b->functions))
				return 0;
	}
	return 1;
}

static int
same_sample(const struct profile *ha, const struct pf_sample *a,
    const struct profile *hb, const struct pf_sample *b)
{
	size_t i;

	if (a->nlocs != b->nlocs || a->nlabels != b->nlabels)
		return 0;
	for (i = 0; i < a->nlocs; i++)
		if (a->locs[i] - ha->locations != b->locs[i] - hb->locations)
			return 0;
	for (i = 0; i < ha->nsample_types; i++)
		if (a->values[i] != b->values[i])
			return 0;
	for (i = 0; i < a->nlabels; i++)
		if (!same_str(a->labels[i].key, b->labels[i].key) ||
		    !same_str(a->labels[i].str, b->labels[i].str) ||
		    a->labels[i].num != b->labels[i].num)
			return 0;
	return 1;
}

static int
same_diag(const struct diag *a, const struct diag *b)
{
	return a->code == b->code && a->off == b->off &&
	    strcmp(a->msg, b->msg) == 0;
}

/*
 * Read path once and twice, and say where they first differ (NULL if
 * nowhere).  *twice says the second reader did read it twice.
 */
static const char *
compare(const char *path, const struct pd_limits *base, int *twice)
{
	struct pd_limits	 once = *base, two = *base;
	struct pf_reader	*r1, *r2;
	const struct pf_sample	*s1, *s2;
	struct diag		 d1, d2;
	const char		*why = NULL;
	size_t			 n = 0;
	int			 rc1, rc2;

	once.read_twice = UINT64_MAX;
	two.read_twice = 0;
	diag_init(&d1, path);
	diag_init(&d2, path);
	r1 = pprof_open(path, &once, &d1);
	r2 = pprof_open(path, &two, &d2);
	*twice = r2 != NULL && pprof_reads_twice(r2);
	if ((r1 == NULL) != (r2 == NULL))
		why = "one opens, the other does not";
	else if (r1 == NULL)
		why = same_diag(&d1, &d2) ? NULL : "refused in other words";
	else if (pprof_reads_twice(r1))
		why = "read twice under the threshold";
	else if (!same_header(pprof_header(r1), pprof_header(r2)))
		why = "headers differ";
	else
		for (;; n++) {
			rc1 = pprof_next(r1, &s1, &d1);
			rc2 = pprof_next(r2, &s2, &d2);
			if (rc1 != rc2) {
				why = "pprof_next() returns differ";
				break;
			}
			if (rc1 == -1 && !same_diag(&d1, &d2))
				why = "samples refused in other words";
			if (rc1 != 1)
				break;
			if (!same_sample(pprof_header(r1), s1,
			    pprof_header(r2), s2)) {
				why = "samples differ";
				break;
			}
		}
	if (why != NULL)
		printf("# %s: %s (sample %zu): \"%s\" / \"%s\"\n", path, why, n,
		    d1.msg, d2.msg);
	pprof_close(r1);
	pprof_close(r2);
	return why;
}

/* Every profile in dir, compared; how many were read twice. */
static int
compare_dir(const char *dir)
{
	struct pd_limits lim;
	struct dirent	*e;
	DIR		*d;
	char		 path[1024];
	int		 twice, n = 0;

	if ((d = opendir(dir)) == NULL)
		return 0;
	pd_limits_default(&lim);
	while ((e = readdir(d)) != NULL) {
		if (e->d_name[0] == '.' || strstr(e->d_name, ".tsv") != NULL ||
		    strstr(e->d_name, ".md") != NULL ||
		    strstr(e->d_name, ".sh") != NULL)
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		CHECK(compare(path, &lim, &twice) == NULL);
		n += twice;
	}
	closedir(d);
	return n;
}

/* The fields of the base example, inflated. */
static struct buf	 raw;
static struct field	 fld[1 << 16];
static size_t		 nfld;

/* n KB of an unknown field, which sends a sample to protobuf-c. */
static void
add_unknown(struct buf *pay, size_t n)
{
	static unsigned char zeros[1000];
	size_t i;

	put_varint(pay, 9 << 3 | 2);
	put_varint(pay, n * sizeof(zeros));
	for (i = 0; i < n; i++)
		put(pay, zeros, sizeof(zeros));
}

/* 150,000 more frames of the location whose payload is loc. */
static void
add_frames(struct buf *pay, const unsigned char *loc, struct pd_limits *lim)
{
	uint64_t	id;
	size_t		j;

	CHECK(get_varint(&loc) == (1 << 3));
	id = get_varint(&loc);
	lim->max_depth = 200000;
	for (j = 0; j < 150000; j++) {
		put_varint(pay, 1 << 3);
		put_varint(pay, id);
	}
}

/* A sample whose location id no location has. */
static void
add_bad(struct buf *out)
{
	struct buf pay;

	memset(&pay, 0, sizeof(pay));
	put_varint(&pay, 1 << 3);
	put_varint(&pay, 999999999);
	put_sample(out, &pay);
	free(pay.p);
}

/*
 * Variants of the base example, each of which must be read twice and
 * read the same.
 */
static void
test_variants(void)
{
	struct pd_limits lim;
	struct buf	 gz, out, pay;
	size_t		 i, j, first = 0, last = 0, mid, loc = 0;
	int		 twice, v;

	for (i = 0; i < nfld; i++)
		if (fld[i].num == 2) {
			if (first == 0)
				first = i;
			last = i;
		} else if (fld[i].num == 4 && loc == 0)
			loc = i;
	mid = (first + last) / 2;
	CHECK(first > 0 && last > first + 4 && loc > 0 && loc != mid);

	for (v = 0; v < 9; v++) {
		pd_limits_default(&lim);
		memset(&out, 0, sizeof(out));
		memset(&pay, 0, sizeof(pay));
		switch (v) {
		case 0:	/* as written, three members that end in samples */
		case 1:	/* the header first, then the samples */
			for (i = 0; i < nfld; i++)
				if (v == 0 || fld[i].num != 2)
					put(&out, fld[i].all, fld[i].nall);
			for (i = 0; v == 1 && i < nfld; i++)
				if (fld[i].num == 2)
					put(&out, fld[i].all, fld[i].nall);
			break;
		case 2:	/* a location and the period among the samples */
			for (i = 0; i < nfld; i++) {
				if (i == mid)
					for (j = 0; j < nfld; j++)
						if (j == loc || fld[j].num == 12)
							put(&out, fld[j].all,
							    fld[j].nall);
				if (i != loc && fld[i].num != 12)
					put(&out, fld[i].all, fld[i].nall);
			}
			break;
		case 3:	/* a sample with 1.5 MB of an unknown field */
		case 4:	/* a sample of 150,000 frames, over 256 KB */
		case 5:	/* 1.5 MB in the first sample, a bad sample last */
		case 6:	/* a bad sample, 600 KB, one protobuf-c cannot unpack */
			for (i = 0; i < nfld; i++) {
				if (i == mid && (v == 3 || v == 4)) {
					put(&pay, fld[i].data, fld[i].ndata);
					if (v == 3)
						add_unknown(&pay, 1500);
					else
						add_frames(&pay, fld[loc].data,
						    &lim);
					put_sample(&out, &pay);
					continue;
				}
				if (i == first && v == 5) {
					/* The window moves, and grows. */
					put(&pay, fld[i].data, fld[i].ndata);
					add_unknown(&pay, 1500);
					put_sample(&out, &pay);
					continue;
				}
				if (i == first && v == 6) {
					/* Past what the reader has inflated. */
					add_bad(&out);
					put(&pay, fld[i].data, fld[i].ndata);
					add_unknown(&pay, 600);
					put_sample(&out, &pay);
				}
				if (i == last && v == 5)
					add_bad(&out);
				if (i == last && v == 6)
					put(&out, "\x12\x01\x08", 3);
				put(&out, fld[i].all, fld[i].nall);
			}
			break;
		case 7:	/* truncated inside a sample */
			put(&out, raw.p, (size_t)(fld[mid].data - raw.p) + 1);
			break;
		case 8:	/* no samples at all: read once */
			for (i = 0; i < nfld; i++)
				if (fld[i].num != 2)
					put(&out, fld[i].all, fld[i].nall);
			break;
		}
		gzip_members(&gz, &out, v == 0 ? 3 : 1, 6);
		CHECK(compare(spill(&gz, "variant"), &lim, &twice) == NULL);
		CHECK_INT(twice, v < 7);
		free(gz.p);
		free(out.p);
		free(pay.p);
	}
}

/*
 * A file rewritten in place between the two inflates: a value changed
 * (the same bytes but one, so every sample still reads), or the file
 * cut short.  Either way the reader must stop with an error rather
 * than finish with samples of two different files.
 */
static void
test_changed(void)
{
	struct pf_reader	*r;
	const struct pf_sample	*s;
	struct pd_limits	 lim;
	struct buf		 gz, edited, cut;
	struct diag		 d;
	const char		*path;
	size_t			 i, k;
	int			 rc, how;

	gzip_members(&gz, &raw, 1, 0);
	for (how = 0; how < 2; how++) {
		path = spill(&gz, "changed");
		memset(&edited, 0, sizeof(edited));
		put(&edited, raw.p, raw.n);
		/* The last byte of the middle sample: a value or a label. */
		for (i = 0, k = 0; i < nfld; i++)
			if (fld[i].num == 2 && k++ == 100)
				break;
		CHECK(i < nfld);
		if (i < nfld)
			edited.p[fld[i].data + fld[i].ndata - 1 - raw.p] ^= 1;
		gzip_members(&cut, &edited, 1, 0);
		CHECK_INT(cut.n, gz.n);
		if (how == 1)
			cut.n /= 2;
		pd_limits_default(&lim);
		lim.read_twice = 0;
		diag_init(&d, path);
		CHECK((r = pprof_open(path, &lim, &d)) != NULL);
		CHECK(r != NULL && pprof_reads_twice(r));
		overwrite(path, &cut);
		while (r != NULL && (rc = pprof_next(r, &s, &d)) == 1)
			continue;
		CHECK_INT(r != NULL ? rc : 0, -1);
		CHECK_INT(d.code, DIAG_IO);
		CHECK_STR(d.msg, "the file changed while it was being read");
		pprof_close(r);
		free(edited.p);
		free(cut.p);
	}
	free(gz.p);
}

/*
 * Issue 30: pass 0 took zeros (a gzip bomb's) for fields 0 and kept
 * them as the header, two bytes at a time, up to the inflate limit,
 * before the file was refused.  Field 0 is no field: the skim declines
 * at once, and the file is read whole, which refuses it.
 */
static void
test_field_zero(void)
{
	static const unsigned char zeros[64];
	struct wire_skim t;

	memset(&t, 0, sizeof(t));
	CHECK(wire_skim(&t, zeros, sizeof(zeros), 1) == -1);
	CHECK(t.hblen == 0);
	free(t.hb);
}

int
main(void)
{
	struct gunzip_pull *g;
	struct buf	 gz;
	struct diag	 d;
	char		 cmd[64];
	int		 n;

#ifdef __GLIBC__
	/*
	 * As profdiff's main() sets it; here it also makes a large buffer
	 * new pages, so that bytes a reader has not inflated yet read as
	 * zeros, not as what an earlier reader left in the heap.
	 */
	mallopt(M_MMAP_THRESHOLD, 128 * 1024);
#endif
	if (mkdtemp(tmpdir) == NULL)
		abort();
	diag_init(&d, BASE);
	CHECK(slurp(BASE, &gz) == 0);
	CHECK(gunzip(gz.p, gz.n, &raw.p, &raw.n, PD_MAX_INFLATED,
	    PD_MAX_RATIO, &d) == 0);
	free(gz.p);
	nfld = split(&raw, fld, sizeof(fld) / sizeof(fld[0]));

	if ((g = gunzip_pull_open(NULL, NULL, 0, 0, 0)) == NULL) {
		/* zlib alone: files are only ever read once. */
		printf("# skip: a build without ISA-L reads files once\n");
		return tap_done();
	}
	gunzip_pull_close(g);
	n = compare_dir("tests/data/good") + compare_dir("tests/data/bad") +
	    compare_dir("tests/data/corpus") + compare_dir("examples");
	/* Every gzipped profile with samples among these. */
	CHECK(n >= 20);
	printf("# %d files read twice\n", n);
	n = compare_dir("../shared/corpus");
	printf("# %d files of ../shared/corpus read twice\n", n);
	test_variants();
	test_changed();
	test_field_zero();
	free(raw.p);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", tmpdir);
	return system(cmd) == 0 ? tap_done() : 1;
}
