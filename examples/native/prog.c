/*
 * A small native "service" for profdiff's perf and gperftools examples
 * (issue 31, item 5): it answers a fixed number of requests, each a
 * batch of records parsed from text, hashed, sorted and rendered, and
 * one change of known shape can be injected by the first argument:
 *
 *	prog none SEED      the base
 *	prog new SEED       log_audit() is new: about 15% more work
 *	prog leaf25 SEED    mix_hash(), a leaf, does 25% more rounds
 *	prog libc SEED      sort_records() sorts twice the records, in
 *	                    libc's qsort() and memcpy(): the change spreads
 *	                    into a library built without frame pointers
 *
 * SEED picks the records, so that each run is a process of its own with
 * its own data.  REQUESTS (optional third argument) scales the run.
 * Built by build.sh with -O2 -g -fno-omit-frame-pointer; noinline keeps
 * each function a frame of its own, as in a larger program, and the
 * functions are extern so that GCC makes no .constprop clones of them,
 * whose names go tool pprof (Go 1.19) leaves out.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define BATCH		512
#define LINE		64

struct record {
	uint64_t	 key;
	uint32_t	 qty;
	char		 name[24];
};

enum shape { NONE, NEW, LEAF25, LIBC };

static uint64_t rng;

static uint64_t
next_rand(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

/* One request's input: BATCH lines of "key,qty,name". */
__attribute__((noinline)) void
make_input(char (*lines)[LINE])
{
	int i, j;

	for (i = 0; i < BATCH; i++) {
		char name[12];

		for (j = 0; j < 11; j++)
			name[j] = 'a' + (char)(next_rand() % 26);
		name[11] = '\0';
		snprintf(lines[i], LINE, "%llu,%u,%s",
		    (unsigned long long)(next_rand() % 1000000007ULL),
		    (unsigned)(next_rand() % 1000), name);
	}
}

__attribute__((noinline)) void
parse_records(char (*lines)[LINE], struct record *r)
{
	int i;

	for (i = 0; i < BATCH; i++) {
		char *p = lines[i], *end;

		r[i].key = strtoull(p, &end, 10);
		r[i].qty = (uint32_t)strtoul(end + 1, &end, 10);
		strncpy(r[i].name, end + 1, sizeof(r[i].name) - 1);
		r[i].name[sizeof(r[i].name) - 1] = '\0';
	}
}

/* The leaf: a hash of each record's name, rounds times over. */
__attribute__((noinline)) uint64_t
mix_hash(const struct record *r, int rounds)
{
	uint64_t h = 1469598103934665603ULL;
	int i, k;
	const char *c;

	for (k = 0; k < rounds; k++)
		for (i = 0; i < BATCH; i++) {
			for (c = r[i].name; *c != '\0'; c++)
				h = (h ^ (unsigned char)*c) * 1099511628211ULL;
			h ^= r[i].key + (uint64_t)k;
		}
	return h;
}

int
cmp_records(const void *a, const void *b)
{
	const struct record *x = a, *y = b;

	if (x->key != y->key)
		return x->key < y->key ? -1 : 1;
	return strcmp(x->name, y->name);
}

__attribute__((noinline)) void
sort_records(struct record *r, struct record *scratch, int twice)
{
	qsort(r, BATCH, sizeof(*r), cmp_records);
	if (twice) {
		/* The change: a second copy, sorted by its names. */
		memcpy(scratch, r, BATCH * sizeof(*r));
		memcpy(scratch + BATCH, r, BATCH * sizeof(*r));
		qsort(scratch, 2 * BATCH, sizeof(*r), cmp_records);
	}
}

__attribute__((noinline)) size_t
render(const struct record *r, char *out, size_t cap)
{
	size_t n = 0;
	int i, w;

	for (i = 0; i < BATCH; i++) {
		w = snprintf(out + n, cap - n, "%s %u %llx\n", r[i].name,
		    r[i].qty, (unsigned long long)r[i].key);
		if (w < 0 || (size_t)w >= cap - n)
			break;
		n += (size_t)w;
	}
	return n;
}

/* The new function of shape "new": a checksum over the rendered text. */
__attribute__((noinline)) uint64_t
log_audit(const char *out, size_t n)
{
	uint64_t h = 0;
	size_t i;
	int k;

	for (k = 0; k < 6; k++)
		for (i = 0; i < n; i++)
			h = h * 31 + (unsigned char)out[i] + (uint64_t)k;
	return h;
}

__attribute__((noinline)) uint64_t
handle_request(enum shape s, char (*lines)[LINE], struct record *r,
    struct record *scratch, char *out, size_t cap)
{
	uint64_t h;
	size_t n;

	make_input(lines);
	parse_records(lines, r);
	h = mix_hash(r, s == LEAF25 ? 10 : 8);
	sort_records(r, scratch, s == LIBC);
	n = render(r, out, cap);
	if (s == NEW)
		h ^= log_audit(out, n);
	return h ^ n;
}

int
main(int argc, char **argv)
{
	static char lines[BATCH][LINE];
	static struct record r[BATCH], scratch[2 * BATCH];
	static char out[BATCH * LINE];
	enum shape s;
	uint64_t h = 0;
	long i, requests = 4000;

	if (argc < 3 || argc > 4) {
		fprintf(stderr, "usage: prog none|new|leaf25|libc seed "
		    "[requests]\n");
		return 2;
	}
	if (strcmp(argv[1], "none") == 0)
		s = NONE;
	else if (strcmp(argv[1], "new") == 0)
		s = NEW;
	else if (strcmp(argv[1], "leaf25") == 0)
		s = LEAF25;
	else if (strcmp(argv[1], "libc") == 0)
		s = LIBC;
	else {
		fprintf(stderr, "prog: %s: not a shape\n", argv[1]);
		return 2;
	}
	rng = strtoull(argv[2], NULL, 10) * 2654435761ULL + 88172645463325252ULL;
	if (argc == 4)
		requests = strtol(argv[3], NULL, 10);
	for (i = 0; i < requests; i++)
		h ^= handle_request(s, lines, r, scratch, out, sizeof(out));
	printf("%016llx\n", (unsigned long long)h);
	return 0;
}
