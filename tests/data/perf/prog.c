/*
 * A small C service for the perf script fixtures of tests/data/perf.
 * The main thread ("prog") serves requests: it parses a header, prices
 * the items, and encodes a reply with libc's qsort and memcpy.  A
 * second thread, named "filler", fills buffers from /dev/zero, so that
 * the kernel's frames (clearing user memory) are in its stacks and the
 * comm label has two values.  "prog changed" injects a regression: price_items() also
 * calls apply_discount() for every item, a function the base run does
 * not have.  capture.sh records runs with perf record -g and keeps what
 * perf script prints.
 */
#define _GNU_SOURCE	/* pthread_setname_np() */
#include <fcntl.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define NITEMS		256
#define REQUESTS	12000
#define FILLS		150000

static volatile double sink;

static unsigned __attribute__((noinline))
hash_key(unsigned k)
{
	int i;

	for (i = 0; i < 24; i++)
		k = k * 2654435761u ^ (k >> 13);
	return k;
}

static double __attribute__((noinline))
parse_header(int req)
{
	double v = 0;
	int k;

	for (k = 0; k < 6000; k++)
		v += (double)((req * 31 + k) % 97) / 97.0;
	return v;
}

static double __attribute__((noinline))
apply_discount(double price, unsigned h)
{
	int k;

	for (k = 0; k < 12; k++)
		price = price * 0.999 + (double)(h >> (k % 16) & 7) * 1e-3;
	return price;
}

static double __attribute__((noinline))
price_items(int req, int changed)
{
	double total = 0, p;
	unsigned h;
	int i;

	for (i = 0; i < NITEMS; i++) {
		h = hash_key((unsigned)(req * NITEMS + i));
		p = (double)(h % 1000) / 10.0;
		if (changed)
			p = apply_discount(p, h);
		total += p;
	}
	return total;
}

static int
cmp_int(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;

	return (x > y) - (x < y);
}

static void __attribute__((noinline))
encode_reply(int req, double total, char *out, size_t outlen)
{
	int keys[512];
	size_t i;

	for (i = 0; i < 512; i++)
		keys[i] = (int)hash_key((unsigned)(req + (int)i)) & 0xffff;
	qsort(keys, 512, sizeof(keys[0]), cmp_int);
	for (i = 0; i + sizeof(keys) <= outlen; i += sizeof(keys))
		memcpy(out + i, keys, sizeof(keys));
	out[0] = (char)total;
}

static void __attribute__((noinline))
serve(int req, int changed, char *buf, size_t buflen)
{
	double total;

	total = parse_header(req) + price_items(req, changed);
	encode_reply(req, total, buf, buflen);
	sink += total;
}

static void __attribute__((noinline))
fill_buffer(int fd, char *buf, size_t len)
{
	if (read(fd, buf, len) != (ssize_t)len)
		abort();
}

static void *
filler(void *arg)
{
	static char buf[64 << 10];
	int fd, i;

	(void)arg;
	if ((fd = open("/dev/zero", O_RDONLY)) == -1)
		abort();
	for (i = 0; i < FILLS; i++)
		fill_buffer(fd, buf, sizeof(buf));
	close(fd);
	return NULL;
}

int
main(int argc, char *argv[])
{
	static char buf[16 << 10];
	pthread_t t;
	int changed, req;

	changed = argc > 1 && strcmp(argv[1], "changed") == 0;
	if (pthread_create(&t, NULL, filler, NULL) != 0)
		return 2;
	pthread_setname_np(t, "filler");
	for (req = 0; req < REQUESTS; req++)
		serve(req, changed, buf, sizeof(buf));
	pthread_join(t, NULL);
	return 0;
}
