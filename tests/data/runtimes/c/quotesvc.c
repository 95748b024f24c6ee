/*
 * quotesvc: a small search-and-pricing service loop in C whose CPU
 * profiles (gperftools), with and without a known change, make the corpus
 * of tests/data/runtimes/c (its README.md says what is in it and how it was
 * made).  It is the C twin of tests/data/runtimes/go/main.go.
 *
 * Each request is a text query: parse_query lowers, splits and hashes its
 * terms, search_catalog finds the products that have them and scores them
 * (match_terms, score_features), rank_results sorts them with qsort and a
 * comparator (cmp_by_score), group_facets groups them by category and
 * walks the category tree (walk_category, recursive), price_quote prices
 * each line (price_item and price_bundle, both through lookup_price, and
 * apply_discounts, a leaf) and render_response writes the answer into a
 * growing buffer (write_line, build_snippet, format_price, escape_text).
 * hash_key is a helper that parse_query, lookup_price and write_line all
 * call.  Requests, candidates and responses are malloc'd and freed.
 *
 * By default it serves -rate requests a second for -duration seconds,
 * sleeping when it is ahead, so the process has headroom and a change adds
 * CPU time without displacing other work; with -rate 0 it serves as fast
 * as it can.  The catalog is always the same; -seed chooses the requests.
 * -inject SHAPE makes one known change (see the knobs below).  With
 * -cpuprofile FILE it profiles the serving window with gperftools'
 * ProfilerStart and ProfilerStop (CPUPROFILE_FREQUENCY sets the rate).
 * -calibrate serves, unprofiled and unchanged, as fast as it can and
 * prints the requests per second.
 *
 *	cc -O2 -g -o quotesvc quotesvc.c -lprofiler -lm
 */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <gperftools/profiler.h>

#define NOINLINE __attribute__((noinline, noclone))

enum {
	N_PRODUCTS = 4000,
	N_VOCAB = 500,
	N_FEATURES = 16,
	TERMS_PER_DOC = 6,
	FANOUT = 3,
	TREE_DEPTH = 6,		/* levels below the root */
	FACET_LEVELS = 3,	/* facets are the subtrees this many levels down */
	N_FACETS = 64,		/* facet_of's values are below (FANOUT + 1) ^ FACET_LEVELS */
	DESC_LEN = 600,
	SNIPPET_MAX = 48,	/* bytes of snippet shown */
	MAX_TERMS = 8,
	N_REGIONS = 4,
	N_CURRENCIES = 5,
	PRICE_SLOTS = 1 << 16,
	VOCAB_SLOTS = 1 << 11,
	CATALOG_SEED = 77,	/* the catalog is the same in every run */
};

static const char *regions[N_REGIONS] = { "eu-west", "eu-north", "us-east", "ap-south" };
static const char *currencies[N_CURRENCIES] = { "EUR", "SEK", "USD", "INR", "GBP" };
static const double fx_rates[N_CURRENCIES] = { 1, 11.4, 1.08, 90.2, 0.86 };

/* The amounts of work the functions do.  -inject changes one or two of
 * them; the comments say which shape changes what. */
static struct knobs {
	int audit_rounds;	/* new: audit_trail's passes over the response; 0: not called */
	int discount_turns;	/* leaf25, leaf10: apply_discounts' turns per line */
	int facet_sort;		/* spread: group_facets ranks the results once per facet */
	int hash_rounds;	/* helper: hash_key's mixing rounds per byte */
	int bundle_quotes;	/* caller: lookups price_bundle makes per component */
	int walk_depth;		/* recursion: how deep walk_category recurses */
	int fuzzy_match;	/* two: match_terms also compares every pair of terms by prefix and suffix */
	int entity_cmp;		/* two: escape_text compares every byte with every entity by strncmp */
	int cross_pairs;	/* mixed: feature pairs score_features crosses */
	int price_curs;		/* mixed (improvement): formattings format_price makes */
	int snippet_len;	/* saturated: bytes of description build_snippet folds */
	int scratch;		/* alloc: scratch buffers search_catalog allocates per candidate */
} k = {
	.discount_turns = 600,
	.hash_rounds = 1,
	.bundle_quotes = 1,
	.walk_depth = 4,
	.cross_pairs = 40,
	.price_curs = 10,
	.snippet_len = 48,
};

struct product {
	int id;
	char sku[16];
	char name[128];
	char desc[DESC_LEN + 1];
	int category;
	double price;
	const char *terms[TERMS_PER_DOC];
	double features[N_FEATURES];
	int nbundle;
	int bundle[4];
};

struct cat_node {
	int id;
	int nchildren;
	struct cat_node *children[FANOUT];
	int nproducts, cap;
	int *products;
};

struct price_entry {
	char key[32];
	uint64_t hash;
	double price;
};

struct posting {
	int n, cap;
	int *ids;
};

struct candidate {
	int id;
	int cat;
	double score;
	double price;
};

struct line {
	struct candidate cand;
	double unit;
	int qty;
	double discount;
	double total;
};

struct request {
	char raw[128];
	int tier, region, cur, limit;
};

struct buf {
	char *p;
	size_t len, cap;
};

struct response {
	const struct request *req;
	struct line *lines;
	int nlines;
	int facets[N_FACETS];
	int walked;
	double total;
	struct buf body;
	uint64_t etag;
};

static struct product products[N_PRODUCTS];
static char vocab[N_VOCAB][16];
static int vocab_slot[VOCAB_SLOTS];	/* term index + 1, by hash_key */
static struct posting by_term[N_VOCAB];
static struct price_entry price_tab[PRICE_SLOTS];
static struct cat_node *root;
static struct cat_node **nodes;
static int nnodes;
static double weights[N_FEATURES];

/* The requests' random numbers: splitmix64, seeded by -seed. */
static uint64_t rng_state;

static uint64_t rnd(void)
{
	uint64_t z = (rng_state += 0x9e3779b97f4a7c15ULL);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static int rndn(int n) { return (int)(rnd() % (uint64_t)n); }
static double rndf(void) { return (double)(rnd() >> 11) / 9007199254740992.0; }

static void *xmalloc(size_t n)
{
	void *p = malloc(n);
	if (p == NULL) {
		perror("quotesvc");
		exit(1);
	}
	return p;
}

static void buf_grow(struct buf *b, size_t n)
{
	if (b->len + n + 1 > b->cap) {
		size_t cap = b->cap ? b->cap : 256;
		while (b->len + n + 1 > cap)
			cap *= 2;
		b->p = realloc(b->p, cap);
		if (b->p == NULL) {
			perror("quotesvc");
			exit(1);
		}
		b->cap = cap;
	}
}

static void buf_put(struct buf *b, const char *s, size_t n)
{
	buf_grow(b, n);
	memcpy(b->p + b->len, s, n);
	b->len += n;
	b->p[b->len] = 0;
}

static void buf_puts(struct buf *b, const char *s) { buf_put(b, s, strlen(s)); }

static void buf_putc(struct buf *b, char c) { buf_put(b, &c, 1); }

/* hash_key is the shared helper: FNV-1a with an extra mixing step per byte
 * (hash_rounds of them), as a table keyed by strings might use. */
NOINLINE uint64_t hash_key(const char *s, size_t n)
{
	uint64_t h = 14695981039346656037ULL;
	for (size_t i = 0; i < n; i++) {
		h ^= (unsigned char)s[i];
		h *= 1099511628211ULL;
		for (int r = 0; r < k.hash_rounds; r++) {
			h ^= h >> 29;
			h *= 0xbf58476d1ce4e5b9ULL;
		}
	}
	return h;
}

/* ---- The catalog, built once from CATALOG_SEED ---- */

static struct cat_node *build_tree(int depth)
{
	struct cat_node *n = calloc(1, sizeof *n);
	n->id = nnodes++;
	if (depth < TREE_DEPTH) {
		n->nchildren = FANOUT;
		for (int i = 0; i < FANOUT; i++)
			n->children[i] = build_tree(depth + 1);
	}
	return n;
}

static void collect_nodes(struct cat_node *n)
{
	nodes[n->id] = n;
	for (int i = 0; i < n->nchildren; i++)
		collect_nodes(n->children[i]);
}

static int find_term(const char *t, size_t n, uint64_t h)
{
	for (uint64_t s = h & (VOCAB_SLOTS - 1);; s = (s + 1) & (VOCAB_SLOTS - 1)) {
		int v = vocab_slot[s] - 1;
		if (v < 0)
			return -1;
		if (strlen(vocab[v]) == n && memcmp(vocab[v], t, n) == 0)
			return v;
	}
}

static void build_catalog(void)
{
	static const char *syll[] = { "ka", "lo", "mi", "ne", "ru", "sa", "to", "vi", "zen", "dor", "pel", "qua" };
	rng_state = CATALOG_SEED;
	for (int i = 0; i < N_VOCAB; i++) {
		char *v = vocab[i];
		int m = 2 + rndn(3);
		v[0] = 0;
		for (int j = 0; j < m; j++)
			strcat(v, syll[rndn(12)]);
		sprintf(v + strlen(v), "%d", i % 10);
		uint64_t h = hash_key(v, strlen(v));
		uint64_t s = h & (VOCAB_SLOTS - 1);
		while (vocab_slot[s] != 0)
			s = (s + 1) & (VOCAB_SLOTS - 1);
		if (find_term(v, strlen(v), h) < 0)
			vocab_slot[s] = i + 1;
	}
	for (int j = 0; j < N_FEATURES; j++)
		weights[j] = rndf() * 2 - 1;
	root = build_tree(0);
	nodes = xmalloc(nnodes * sizeof *nodes);
	collect_nodes(root);
	for (int i = 0; i < N_PRODUCTS; i++) {
		struct product *p = &products[i];
		p->id = i;
		snprintf(p->sku, sizeof p->sku, "SKU-%06d", 100000 + i * 7);
		p->price = 2 + 400 * rndf() * rndf();
		for (int j = 0; j < TERMS_PER_DOC; j++)
			p->terms[j] = vocab[rndn(N_VOCAB)];
		snprintf(p->name, sizeof p->name, "%s %s %s & %s <%s>", p->terms[0],
		    p->terms[1], p->terms[2], p->terms[3], p->sku);
		size_t len = 0;
		while (len < DESC_LEN) {
			char w[96];
			const char *a = vocab[rndn(N_VOCAB)], *b = vocab[rndn(N_VOCAB)];
			int n = snprintf(w, sizeof w, "%c%s \"quality\" & value, ", a[0] - 'a' + 'A', b);
			for (int c = 0; c < n && len < DESC_LEN; c++)
				p->desc[len++] = w[c];
		}
		p->desc[DESC_LEN] = 0;
		for (int j = 0; j < N_FEATURES; j++)
			p->features[j] = rndf();
		struct cat_node *node = nodes[rndn(nnodes)];
		if (node->nproducts == node->cap) {
			node->cap = node->cap ? 2 * node->cap : 4;
			node->products = realloc(node->products, node->cap * sizeof(int));
		}
		node->products[node->nproducts++] = i;
		p->category = node->id;
		if (rndn(4) == 0) {
			p->nbundle = 2 + rndn(3);
			for (int j = 0; j < p->nbundle; j++)
				p->bundle[j] = rndn(N_PRODUCTS);
		}
		for (int j = 0; j < TERMS_PER_DOC; j++) {
			const char *term = p->terms[j];
			int t = find_term(term, strlen(term), hash_key(term, strlen(term)));
			struct posting *ps = &by_term[t];
			if (ps->n > 0 && ps->ids[ps->n - 1] == i)
				continue;
			if (ps->n == ps->cap) {
				ps->cap = ps->cap ? 2 * ps->cap : 16;
				ps->ids = realloc(ps->ids, ps->cap * sizeof(int));
			}
			ps->ids[ps->n++] = i;
		}
	}
	for (int i = 0; i < N_PRODUCTS; i++) {
		for (int r = 0; r < N_REGIONS; r++) {
			char key[32];
			int n = snprintf(key, sizeof key, "%s/%s", products[i].sku, regions[r]);
			uint64_t h = hash_key(key, n);
			uint64_t s = h & (PRICE_SLOTS - 1);
			while (price_tab[s].key[0] != 0)
				s = (s + 1) & (PRICE_SLOTS - 1);
			memcpy(price_tab[s].key, key, n + 1);
			price_tab[s].hash = h;
			price_tab[s].price = products[i].price * (1 + 0.05 * r);
		}
	}
}

/* ---- A request ---- */

NOINLINE void next_request(struct request *req)
{
	int n = 2 + rndn(3);
	size_t len = 0;
	for (int i = 0; i < n; i++) {
		const char *t = vocab[rndn(N_VOCAB)];
		size_t tl = strlen(t);
		memcpy(req->raw + len, t, tl);
		if (rndn(3) == 0)
			req->raw[len] -= 'a' - 'A';
		len += tl;
		req->raw[len++] = ' ';
		if (rndn(2) == 0)
			req->raw[len++] = ' ';
	}
	req->raw[len] = 0;
	req->tier = rndn(4);
	req->region = rndn(N_REGIONS);
	req->cur = rndn(N_CURRENCIES);
	req->limit = 20 + rndn(21);
}

/* parse_query lowers and splits the query, drops repeated terms, hashes
 * each term into the query's cache key and finds its index. */
NOINLINE int parse_query(const struct request *req, int *terms, uint64_t *qkey)
{
	char low[128];
	size_t n = strlen(req->raw);
	for (size_t i = 0; i <= n; i++) {
		char c = req->raw[i];
		low[i] = c >= 'A' && c <= 'Z' ? c + 'a' - 'A' : c;
	}
	int nt = 0;
	uint64_t key = 0;
	for (size_t i = 0; i < n && nt < MAX_TERMS;) {
		while (i < n && low[i] == ' ')
			i++;
		size_t start = i;
		while (i < n && low[i] != ' ')
			i++;
		if (i == start)
			break;
		uint64_t h = hash_key(low + start, i - start);
		int t = find_term(low + start, i - start, h);
		int dup = t < 0;
		for (int j = 0; j < nt && !dup; j++)
			dup = terms[j] == t;
		if (dup)
			continue;
		terms[nt++] = t;
		key = key * 31 + h;
	}
	*qkey = key ^ ((uint64_t)req->region << 56 | (uint64_t)req->cur << 48);
	return nt;
}

/* match_terms counts the query terms the product has; with fuzzy_match it
 * also scores every pair of terms by their common prefix and suffix, as a
 * fuzzier matcher would. */
NOINLINE int match_terms(const struct product *p, const int *terms, int nt)
{
	int m = 0;
	for (int i = 0; i < nt; i++) {
		const char *q = vocab[terms[i]];
		for (int j = 0; j < TERMS_PER_DOC; j++)
			if (strcmp(p->terms[j], q) == 0)
				m += 2;
	}
	if (k.fuzzy_match) {
		for (int i = 0; i < nt; i++) {
			const char *q = vocab[terms[i]];
			size_t ql = strlen(q);
			for (int j = 0; j < TERMS_PER_DOC; j++) {
				const char *t = p->terms[j];
				size_t tl = strlen(t), n = ql < tl ? ql : tl, pre = 0, suf = 0;
				while (pre < n && q[pre] == t[pre])
					pre++;
				while (suf < n && q[ql - 1 - suf] == t[tl - 1 - suf])
					suf++;
				if (pre >= 4 && suf >= 2)
					m++;
			}
		}
	}
	return m;
}

/* score_features is a small linear model over the product's features and
 * cross_pairs products of pairs of them. */
NOINLINE double score_features(const struct product *p)
{
	double s = 0;
	for (int j = 0; j < N_FEATURES; j++)
		s += weights[j] * p->features[j];
	for (int n = 0; n < k.cross_pairs; n++) {
		int a = n % N_FEATURES, b = (n * 7 + 3) % N_FEATURES;
		s += 0.01 * p->features[a] * p->features[b] * weights[(a + b) % N_FEATURES];
	}
	return 1 / (1 + exp(-s));
}

/* search_catalog collects every product that has a query term, scores it
 * and keeps those the model scores at 0.5 or more. */
NOINLINE struct candidate *search_catalog(const int *terms, int nt, int *ncands)
{
	unsigned char *seen = calloc(N_PRODUCTS, 1);
	int n = 0, cap = 64;
	struct candidate *cands = xmalloc(cap * sizeof *cands);
	char **scratch = NULL;
	int nscratch = 0, scap = 0;
	for (int i = 0; i < nt; i++) {
		const struct posting *ps = &by_term[terms[i]];
		for (int j = 0; j < ps->n; j++) {
			int id = ps->ids[j];
			if (seen[id])
				continue;
			seen[id] = 1;
			const struct product *p = &products[id];
			int m = match_terms(p, terms, nt);
			if (m == 0)
				continue;
			double s = score_features(p);
			if (s < 0.5)
				continue;
			for (int x = 0; x < k.scratch; x++) {
				/* The alloc change: scratch copies of the
				 * product's description per candidate, kept
				 * until the search ends. */
				if (nscratch == scap) {
					scap = scap ? 2 * scap : 64;
					scratch = realloc(scratch, scap * sizeof *scratch);
				}
				char *b = xmalloc(256 + 64 * x);
				memcpy(b, p->desc, 64);
				scratch[nscratch++] = b;
			}
			if (n == cap) {
				cap *= 2;
				cands = realloc(cands, cap * sizeof *cands);
			}
			cands[n++] = (struct candidate){ .id = id, .cat = p->category,
			    .score = s + m, .price = p->price };
		}
	}
	for (int x = 0; x < nscratch; x++) {
		if (scratch[x][0] == 0)
			n = 0;
		free(scratch[x]);
	}
	free(scratch);
	free(seen);
	*ncands = n;
	return cands;
}

/* cmp_by_score is the comparator: by score, descending, then by price. */
NOINLINE int cmp_by_score(const void *x, const void *y)
{
	const struct candidate *a = x, *b = y;
	if (a->score != b->score)
		return a->score > b->score ? -1 : 1;
	return (a->price > b->price) - (a->price < b->price);
}

/* rank_results sorts the candidates and returns the best one's id (-1 if
 * there is none), so that qsort is not its tail call. */
NOINLINE int rank_results(struct candidate *cands, int n)
{
	qsort(cands, n, sizeof *cands, cmp_by_score);
	return n > 0 ? cands[0].id : -1;
}

/* facet_of is the facet of a category node: the subtree, FACET_LEVELS
 * levels below the root, that it is in (or the node itself, when it is
 * higher up).  The nodes are numbered depth first, so the subtree follows
 * from the id: descending from the root, each level takes the child whose
 * range the id falls in.  The facet is the path, a digit per level. */
static int facet_of(int id)
{
	int f = 0, size = nnodes;
	for (int level = 0; id != 0 && level < FACET_LEVELS; level++) {
		size = (size - 1) / FANOUT;	/* nodes under each child, itself included */
		id -= 1;
		f = f * (FANOUT + 1) + 1 + id / size;
		id %= size;
	}
	return f;
}

/* walk_category counts the products of the marked nodes under a node,
 * down to walk_depth levels, by recursion over its children. */
NOINLINE int walk_category(const struct cat_node *n, int depth, const unsigned char *mark)
{
	int count = 0;
	if (mark[n->id & 2047])
		for (int i = 0; i < n->nproducts; i++)
			count += 1 + (n->products[i] & 1);
	/* A little bookkeeping per node, as a facet counter keeps. */
	uint32_t h = n->id;
	for (uint32_t i = 0; i < 160; i++)
		h = h * 2654435761u + i;
	count += h >> 31;
	if (depth < k.walk_depth)
		for (int i = 0; i < n->nchildren; i++)
			count += walk_category(n->children[i], depth + 1, mark);
	return count;
}

/* group_facets counts the results by facet and walks the category tree to
 * count how many results fall under its nodes.  With facet_sort it also
 * ranks, for each facet in its loop over them, the results as they would
 * be with that facet boosted: a new call of rank_results, which
 * handle_request calls too. */
NOINLINE void group_facets(struct response *resp, const struct candidate *cands, int n)
{
	memset(resp->facets, 0, sizeof resp->facets);
	for (int i = 0; i < n; i++)
		resp->facets[facet_of(cands[i].cat)]++;
	for (int f = 0; f < N_FACETS; f++) {
		if (resp->facets[f] == 0 || !k.facet_sort)
			continue;
		struct candidate *boosted = xmalloc(n * sizeof *boosted);
		memcpy(boosted, cands, n * sizeof *boosted);
		for (int i = 0; i < n; i++)
			if (facet_of(boosted[i].cat) == f)
				boosted[i].score += 0.25;
		resp->facets[f] += rank_results(boosted, n) & 1;
		free(boosted);
	}
	unsigned char mark[2048] = { 0 };
	for (int i = 0; i < n; i++)
		mark[cands[i].cat & 2047] = 1;
	resp->walked = walk_category(root, 0, mark);
}

/* lookup_price finds a SKU's price in a region in the open-addressing
 * price table. */
NOINLINE double lookup_price(const char *sku, int region)
{
	char key[32];
	size_t sl = strlen(sku), rl = strlen(regions[region]);
	memcpy(key, sku, sl);
	key[sl] = '/';
	memcpy(key + sl + 1, regions[region], rl + 1);
	size_t n = sl + 1 + rl;
	uint64_t h = hash_key(key, n);
	for (uint64_t s = h & (PRICE_SLOTS - 1);; s = (s + 1) & (PRICE_SLOTS - 1)) {
		const struct price_entry *e = &price_tab[s];
		if (e->key[0] == 0)
			return 0;
		if (e->hash == h && strcmp(e->key, key) == 0)
			return e->price;
	}
}

NOINLINE double price_item(const struct product *p, int region)
{
	double v = lookup_price(p->sku, region);
	return v * (1 + 0.01 * region);
}

/* price_bundle prices a bundle as the sum of its components, less 5%.
 * With bundle_quotes above 1 it prices each component that many times, in
 * its region and in the others in turn, and takes the cheapest. */
NOINLINE double price_bundle(const struct product *p, int region)
{
	double sum = 0;
	for (int i = 0; i < p->nbundle; i++) {
		const struct product *comp = &products[p->bundle[i]];
		double best = INFINITY;
		for (int r = 0; r < k.bundle_quotes; r++) {
			double v = lookup_price(comp->sku, (region + r) % N_REGIONS);
			if (v < best)
				best = v;
		}
		sum += best;
	}
	return sum * 0.95;
}

/* apply_discounts is the leaf: the tier's rate, a quantity step and a
 * loyalty discount compounded over discount_turns periods, per line. */
NOINLINE double apply_discounts(struct line *lines, int n, int tier)
{
	static const double rates[4] = { 0, 0.02, 0.05, 0.08 };
	double total = 0;
	for (int i = 0; i < n; i++) {
		struct line *l = &lines[i];
		double d = rates[tier];
		if (l->qty >= 3)
			d += 0.03;
		double loyal = 1.0;
		for (int t = 0; t < k.discount_turns; t++)
			loyal = loyal * 0.9995 + 0.0004 * (t & 1);
		d += 0.01 * (1 - loyal);
		double amount = l->unit * l->qty;
		l->discount = round(amount * d * 100) / 100;
		l->total = round((amount - l->discount) * 100) / 100;
		total += l->total;
	}
	return round(total * 100) / 100;
}

/* price_quote prices each result line, bundles through price_bundle,
 * then applies the customer's discounts. */
NOINLINE void price_quote(const struct request *req, struct response *resp,
    const struct candidate *cands, int n)
{
	resp->lines = xmalloc((n ? n : 1) * sizeof *resp->lines);
	for (int i = 0; i < n; i++) {
		const struct product *p = &products[cands[i].id];
		double unit;
		if (p->nbundle > 0)
			unit = price_bundle(p, req->region);
		else
			unit = price_item(p, req->region);
		resp->lines[i] = (struct line){ .cand = cands[i], .unit = unit, .qty = 1 + i % 3 };
	}
	resp->nlines = n;
	resp->total = apply_discounts(resp->lines, n, req->tier);
}

/* The escapes of escape_text's table lookup (entity_cmp); not const, so
 * that the compiler cannot fold the strncmp calls away. */
struct entity {
	const char *ch, *rep;
} entities[] = { { "<", "&lt;" }, { ">", "&gt;" }, { "&", "&amp;" }, { "\"", "&quot;" } };

/* escape_text writes s with HTML's special characters escaped, through a
 * switch or, with entity_cmp, by comparing the text at every byte with
 * every entity of a table with strlen and strncmp: the same output, at the
 * cost of four calls of each per byte. */
NOINLINE void escape_text(struct buf *b, const char *s)
{
	char out[640];
	size_t o = 0;
	for (size_t i = 0; s[i] != 0; i++) {
		const char *rep = NULL;
		if (k.entity_cmp) {
			for (size_t e = 0; e < sizeof entities / sizeof entities[0]; e++)
				if (strncmp(s + i, entities[e].ch, strlen(entities[e].ch)) == 0)
					rep = entities[e].rep;
		} else {
			switch (s[i]) {
			case '<': rep = "&lt;"; break;
			case '>': rep = "&gt;"; break;
			case '&': rep = "&amp;"; break;
			case '"': rep = "&quot;"; break;
			}
		}
		if (rep != NULL) {
			size_t rl = strlen(rep);
			memcpy(out + o, rep, rl);
			o += rl;
		} else {
			out[o++] = s[i];
		}
	}
	buf_put(b, out, o);
}

/* build_snippet folds the first snippet_len bytes of a description to
 * lower case, words capitalized, spaces collapsed, into a new string of
 * at most SNIPPET_MAX bytes (all of it as the program stands), so that a
 * longer fold changes no other function's work. */
NOINLINE char *build_snippet(const char *desc)
{
	size_t n = k.snippet_len, dl = strlen(desc);
	if (n > dl)
		n = dl;
	char *out = xmalloc(n + 1);
	size_t o = 0;
	int space = 1;
	for (size_t i = 0; i < n; i++) {
		char ch = desc[i];
		if (ch == ' ') {
			if (!space)
				out[o++] = ' ';
			space = 1;
			continue;
		}
		if (ch >= 'A' && ch <= 'Z')
			ch += 'a' - 'A';
		if (space && ch >= 'a' && ch <= 'z')
			ch -= 'a' - 'A';
		out[o++] = ch;
		space = 0;
	}
	if (o > SNIPPET_MAX)
		o = SNIPPET_MAX;
	out[o] = 0;
	return out;
}

/* format_price formats the amount in the request's currency and, for the
 * alternatives shown next to it, in the others and again rounded for
 * display: price_curs formattings in all, the currencies in turn.  Only
 * the first is returned; the others go to the display cache. */
NOINLINE void format_price(char *dst, size_t size, double amount, int cur)
{
	char tmp[48];
	for (int i = 0; i < k.price_curs; i++) {
		int cc = (cur + i) % N_CURRENCIES;
		snprintf(i == 0 ? dst : tmp, i == 0 ? size : sizeof tmp, "%.2f %s",
		    amount * fx_rates[cc], currencies[cc]);
	}
}

/* write_line writes one result line and returns its hash. */
NOINLINE uint64_t write_line(struct buf *b, const struct response *resp, const struct line *l)
{
	const struct product *p = &products[l->cand.id];
	size_t start = b->len;
	char price[48];
	buf_puts(b, p->sku);
	buf_putc(b, '\t');
	escape_text(b, p->name);
	buf_putc(b, '\t');
	char *snip = build_snippet(p->desc);
	buf_puts(b, snip);
	free(snip);
	buf_putc(b, '\t');
	format_price(price, sizeof price, l->total, resp->req->cur);
	buf_puts(b, price);
	buf_putc(b, '\n');
	uint64_t h = hash_key(b->p + start, b->len - start);
	return h ^ (b->len - start);
}

/* render_response writes the response as text lines and keeps its etag. */
NOINLINE void render_response(struct response *resp)
{
	struct buf *b = &resp->body;
	char num[32];
	buf_puts(b, "quote region=");
	buf_puts(b, regions[resp->req->region]);
	buf_puts(b, " currency=");
	buf_puts(b, currencies[resp->req->cur]);
	buf_putc(b, '\n');
	uint64_t etag = 0;
	for (int i = 0; i < resp->nlines; i++)
		etag ^= write_line(b, resp, &resp->lines[i]);
	for (int f = 0; f < N_FACETS; f++) {
		if (resp->facets[f] == 0)
			continue;
		snprintf(num, sizeof num, "facet %d=%d\n", f, resp->facets[f]);
		buf_puts(b, num);
	}
	resp->etag = etag;
}

/* audit_trail is the new function: a checksum of the rendered response,
 * audit_rounds passes of it, as an audit log might keep. */
NOINLINE uint32_t audit_trail(const struct response *resp)
{
	uint32_t sum = 0xffffffffu;
	for (int r = 0; r < k.audit_rounds; r++) {
		for (size_t i = 0; i < resp->body.len; i++) {
			sum ^= (unsigned char)resp->body.p[i];
			for (int j = 0; j < 4; j++)
				sum = sum >> 1 ^ (0xedb88320u & -(sum & 1));
		}
	}
	return ~sum;
}

static uint64_t cache[4096];
static volatile double sink;
static volatile uint32_t audit_sink;

NOINLINE void handle_request(const struct request *req)
{
	int terms[MAX_TERMS], ncands;
	uint64_t qkey;
	int nt = parse_query(req, terms, &qkey);
	struct candidate *cands = search_catalog(terms, nt, &ncands);
	int best = rank_results(cands, ncands);
	struct response *resp = calloc(1, sizeof *resp);
	resp->req = req;
	group_facets(resp, cands, ncands);	/* over all the results */
	if (ncands > req->limit)
		ncands = req->limit;
	price_quote(req, resp, cands, ncands);
	render_response(resp);
	if (k.audit_rounds > 0)
		audit_sink = audit_trail(resp);
	cache[qkey & 4095] = resp->etag;
	sink += resp->total + resp->walked + (best & 1);
	free(resp->body.p);
	free(resp->lines);
	free(resp);
	free(cands);
}

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* serve handles requests until the deadline.  With a rate it keeps to a
 * schedule of rate requests a second, sleeping when it is 2 ms or more
 * ahead of it and catching up when it is behind.  It returns the number
 * of requests served. */
NOINLINE long serve(double deadline, double rate)
{
	double start = now();
	long n = 0;
	struct request req;
	while (now() < deadline) {
		next_request(&req);
		handle_request(&req);
		n++;
		if (rate > 0) {
			double ahead = start + n / rate - now();
			if (ahead >= 0.002) {
				struct timespec ts = { (time_t)ahead, (long)((ahead - (time_t)ahead) * 1e9) };
				while (nanosleep(&ts, &ts) != 0 && errno == EINTR)
					;
			}
		}
	}
	return n;
}

struct shape {
	const char *name;
	void (*change)(void);
};

static void s_none(void) {}
static void s_new(void) { k.audit_rounds = 5; }
static void s_leaf25(void) { k.discount_turns = 750; }
static void s_leaf10(void) { k.discount_turns = 660; }
static void s_spread(void) { k.facet_sort = 1; }
static void s_helper(void) { k.hash_rounds = 4; }
static void s_caller(void) { k.bundle_quotes = 9; }
static void s_recursion(void) { k.walk_depth = 5; }
static void s_two(void) { k.fuzzy_match = 1; k.entity_cmp = 1; }
static void s_mixed(void) { k.cross_pairs = 120; k.price_curs = 6; }
static void s_saturated(void) { k.snippet_len = 600; }
static void s_alloc(void) { k.scratch = 8; }

static const struct shape shapes[] = {
	{ "none", s_none }, { "new", s_new }, { "leaf25", s_leaf25 },
	{ "leaf10", s_leaf10 }, { "spread", s_spread }, { "helper", s_helper },
	{ "caller", s_caller }, { "recursion", s_recursion }, { "two", s_two },
	{ "mixed", s_mixed }, { "saturated", s_saturated }, { "alloc", s_alloc },
};

static void usage(void)
{
	fprintf(stderr, "usage: quotesvc [-seed N] [-inject SHAPE] [-duration SECONDS] "
	    "[-rate N] [-cpuprofile FILE] [-calibrate]\n  SHAPE:");
	for (size_t i = 0; i < sizeof shapes / sizeof shapes[0]; i++)
		fprintf(stderr, " %s", shapes[i].name);
	fprintf(stderr, "\n");
	exit(2);
}

int main(int argc, char **argv)
{
	long seed = 1;
	const char *inject = "none", *profile = NULL;
	double duration = 6, rate = 0;
	int calibrate = 0;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (strcmp(a, "-calibrate") == 0) {
			calibrate = 1;
			continue;
		}
		if (i + 1 >= argc)
			usage();
		const char *v = argv[++i];
		if (strcmp(a, "-seed") == 0)
			seed = atol(v);
		else if (strcmp(a, "-inject") == 0)
			inject = v;
		else if (strcmp(a, "-duration") == 0)
			duration = atof(v);
		else if (strcmp(a, "-rate") == 0)
			rate = atof(v);
		else if (strcmp(a, "-cpuprofile") == 0)
			profile = v;
		else
			usage();
	}
	const struct shape *sh = NULL;
	for (size_t i = 0; i < sizeof shapes / sizeof shapes[0]; i++)
		if (strcmp(shapes[i].name, inject) == 0)
			sh = &shapes[i];
	if (sh == NULL || duration <= 0 || rate < 0)
		usage();

	/* The change comes first: hash_key's tables are built with the
	 * hash_key of the run. */
	if (!calibrate)
		sh->change();
	build_catalog();
	rng_state = (uint64_t)seed * 0x2545f4914f6cdd1dULL;
	if (calibrate) {
		double start = now();
		long n = serve(start + duration, 0);
		printf("%.0f\n", n / (now() - start));
		return 0;
	}
	/* The window runs from before ProfilerStart to after ProfilerStop. */
	double start = now();
	if (profile != NULL && !ProfilerStart(profile)) {
		fprintf(stderr, "quotesvc: cannot start the profiler on %s\n", profile);
		return 1;
	}
	long n = serve(now() + duration, rate);
	if (profile != NULL)
		ProfilerStop();
	double elapsed = now() - start;
	fprintf(stderr, "quotesvc: inject=%s seed=%ld rate=%g: %ld requests in %.3fs\n",
	    inject, seed, rate, n, elapsed);
	return 0;
}
