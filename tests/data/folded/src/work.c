/*
 * A small CPU-bound program for the perf-based folded-stack fixtures:
 * price a basket of items, as examples/ does in Go.  With "bad" as its
 * argument, score() re-sorts its weights for every item (the
 * regression); otherwise it sorts them once.  See make.sh.
 */
#include <stdlib.h>
#include <string.h>

#define NW	64
#define NITEMS	2000

static double weights[NW];
static volatile double sink;

static int __attribute__((noinline))
cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static void __attribute__((noinline))
sort_weights(double *w)
{
	qsort(w, NW, sizeof(*w), cmp_double);
}

static double __attribute__((noinline))
parse_item(int i)
{
	double v = 0;
	int k;

	for (k = 0; k < 400; k++)
		v += (double)((i * 31 + k) % 97) / 97.0;
	return v;
}

static double __attribute__((noinline))
score(double v, int bad)
{
	double w[NW], s = 0;
	int k;

	memcpy(w, weights, sizeof(w));
	if (bad)
		sort_weights(w);
	for (k = 0; k < NW; k++)
		s += w[k] * v;
	return s;
}

static double __attribute__((noinline))
price_basket(int bad)
{
	double total = 0;
	int i;

	for (i = 0; i < NITEMS; i++)
		total += score(parse_item(i), bad);
	return total;
}

static void __attribute__((noinline))
handle_quote(int bad)
{
	sink = price_basket(bad);
}

int
main(int argc, char *argv[])
{
	int bad = argc > 1 && strcmp(argv[1], "bad") == 0;
	int k, round;

	for (k = 0; k < NW; k++)
		weights[k] = (double)((k * 7919) % 101);
	sort_weights(weights);
	for (round = 0; round < 300; round++)
		handle_quote(bad);
	return 0;
}
