/*
 * The feed of one side's profiles (feed.h).  Threaded, a producer thread
 * opens each profile in turn and reads its samples in batches, copied
 * out of the reader's buffers, into a short queue; the caller takes
 * them in order.  The producer touches a reader's header only through
 * pprof_next(), which reads none of it, so the caller may use (and a
 * filter rewrite) the header while the producer reads on.  A reader
 * passes to the caller with its header and is closed by the caller once
 * its last batch has been read.
 */
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "support/diag.h"
#include "load/feed.h"
#include "profdiff.h"
#include "input/input.h"
#include "model/profile.h"
#include "support/xmalloc.h"

#define BATCH_SAMPLES	2048	/* samples in a batch */
#define QUEUE_MAX	4	/* batches decoded ahead of the caller */

struct batch {
	struct batch	*next;
	int		 open;		/* a header, not samples */
	struct pf_reader *r;		/* open: the reader, NULL if it failed */
	int		 rc;		/* samples: 1 more follow, 0 the end,
					   -1 an error */
	struct diag	 d;		/* a failed open, or rc -1 */
	struct pf_sample *s;
	size_t		 ns, scap, at;
	const struct pf_location **locs;
	size_t		 nlocs, loccap;
	int64_t		*vals;
	size_t		 nvals, valcap;
	struct pf_label	*labs;
	size_t		 nlabs, labcap;
};

struct feed {
	char *const	*paths;
	size_t		 n;
	struct pd_limits lim;
	int		 threaded;
	size_t		 opened;	/* unthreaded: profiles opened */
	struct pf_reader *r;		/* the profile the caller reads */
	struct batch	*cur;		/* threaded: the batch it reads */

	pthread_t	 t;
	pthread_mutex_t	 mu;
	pthread_cond_t	 cv;
	struct batch	*head, *tail;	/* decoded, not yet taken */
	size_t		 queued;
	struct batch	*spare;		/* taken and read, for reuse */
	int		 stop;		/* the caller is done */
	int		 done;		/* the producer is */
};

static void
batch_free(struct batch *b)
{
	if (b == NULL)
		return;
	if (b->open)
		pprof_close(b->r);
	free(b->s);
	free(b->locs);
	free(b->vals);
	free(b->labs);
	free(b);
}

static struct batch *
batch_get(struct feed *f)
{
	struct batch *b;

	pthread_mutex_lock(&f->mu);
	if ((b = f->spare) != NULL)
		f->spare = b->next;
	pthread_mutex_unlock(&f->mu);
	if (b == NULL)
		b = xcalloc(1, sizeof(*b));
	b->next = NULL;
	b->open = 0;
	b->r = NULL;
	b->rc = 1;
	b->ns = b->nlocs = b->nvals = b->nlabs = b->at = 0;
	return b;
}

/* Give a read batch back for reuse (its reader, if any, is taken). */
static void
batch_put_spare(struct feed *f, struct batch *b)
{
	b->open = 0;
	b->r = NULL;
	pthread_mutex_lock(&f->mu);
	b->next = f->spare;
	f->spare = b;
	pthread_mutex_unlock(&f->mu);
}

/* Queue b for the caller; -1 (b freed) if the caller has stopped. */
static int
batch_send(struct feed *f, struct batch *b)
{
	pthread_mutex_lock(&f->mu);
	while (f->queued >= QUEUE_MAX && !f->stop)
		pthread_cond_wait(&f->cv, &f->mu);
	if (f->stop) {
		pthread_mutex_unlock(&f->mu);
		batch_free(b);
		return -1;
	}
	if (f->tail != NULL)
		f->tail->next = b;
	else
		f->head = b;
	f->tail = b;
	f->queued++;
	pthread_cond_broadcast(&f->cv);
	pthread_mutex_unlock(&f->mu);
	return 0;
}

/* The next batch, or NULL if the producer has ended without one. */
static struct batch *
batch_take(struct feed *f)
{
	struct batch *b;

	pthread_mutex_lock(&f->mu);
	while (f->head == NULL && !f->done)
		pthread_cond_wait(&f->cv, &f->mu);
	if ((b = f->head) != NULL) {
		if ((f->head = b->next) == NULL)
			f->tail = NULL;
		f->queued--;
		pthread_cond_broadcast(&f->cv);
	}
	pthread_mutex_unlock(&f->mu);
	return b;
}

#define GROW(arr, n, cap, more) do {					\
	if ((n) + (more) > (cap)) {					\
		(cap) = (cap) ? 2 * (cap) : 256;			\
		if ((cap) < (n) + (more))				\
			(cap) = (n) + (more);				\
		(arr) = xreallocarray((arr), (cap), sizeof(*(arr)));	\
	}								\
} while (0)

/* Copy a sample into the batch; its pointers are set by batch_seal(). */
static void
batch_add(struct batch *b, const struct pf_sample *s, size_t ntypes)
{
	struct pf_sample *d;

	GROW(b->s, b->ns, b->scap, 1);
	GROW(b->locs, b->nlocs, b->loccap, s->nlocs);
	GROW(b->vals, b->nvals, b->valcap, ntypes);
	GROW(b->labs, b->nlabs, b->labcap, s->nlabels);
	d = &b->s[b->ns++];
	d->nlocs = s->nlocs;
	d->nlabels = s->nlabels;
	if (s->nlocs > 0)
		memcpy(b->locs + b->nlocs, s->locs, s->nlocs * sizeof(*s->locs));
	if (ntypes > 0)
		memcpy(b->vals + b->nvals, s->values, ntypes * sizeof(*s->values));
	if (s->nlabels > 0)
		memcpy(b->labs + b->nlabs, s->labels,
		    s->nlabels * sizeof(*s->labels));
	b->nlocs += s->nlocs;
	b->nvals += ntypes;
	b->nlabs += s->nlabels;
}

/* Point the batch's samples into its arrays, which no longer move. */
static void
batch_seal(struct batch *b, size_t ntypes)
{
	size_t	 i, l = 0, v = 0, lb = 0;

	for (i = 0; i < b->ns; i++) {
		b->s[i].locs = b->locs + l;
		b->s[i].values = b->vals + v;
		b->s[i].labels = b->labs + lb;
		l += b->s[i].nlocs;
		v += ntypes;
		lb += b->s[i].nlabels;
	}
}

static void *
produce(void *arg)
{
	struct feed		*f = arg;
	struct pf_reader	*r;
	const struct pf_sample	*s;
	struct batch		*b;
	size_t			 i, ntypes;
	int			 rc = 1;

	for (i = 0; i < f->n && rc != -1; i++) {
		b = batch_get(f);
		b->open = 1;
		diag_init(&b->d, f->paths[i]);
		r = b->r = pprof_open(f->paths[i], &f->lim, &b->d);
		if (batch_send(f, b) == -1 || r == NULL)
			break;
		/* The reader is the caller's now, but only we read on. */
		ntypes = pprof_header(r)->nsample_types;
		do {
			b = batch_get(f);
			diag_init(&b->d, f->paths[i]);
			while (b->ns < BATCH_SAMPLES &&
			    (rc = pprof_next(r, &s, &b->d)) == 1)
				batch_add(b, s, ntypes);
			b->rc = rc;
			batch_seal(b, ntypes);
			if (batch_send(f, b) == -1)
				goto out;
		} while (rc == 1);
	}
out:
	pthread_mutex_lock(&f->mu);
	f->done = 1;
	pthread_cond_broadcast(&f->cv);
	pthread_mutex_unlock(&f->mu);
	return NULL;
}

struct feed *
feed_new(char *const *paths, size_t n, const struct pd_limits *lim,
    int threaded)
{
	struct feed *f;

	f = xcalloc(1, sizeof(*f));
	f->paths = paths;
	f->n = n;
	if (lim != NULL)
		f->lim = *lim;
	else
		pd_limits_default(&f->lim);
	if (!threaded || n == 0)
		return f;
	if (pthread_mutex_init(&f->mu, NULL) != 0)
		return f;
	if (pthread_cond_init(&f->cv, NULL) != 0) {
		pthread_mutex_destroy(&f->mu);
		return f;
	}
	if (pthread_create(&f->t, NULL, produce, f) != 0) {
		pthread_cond_destroy(&f->cv);
		pthread_mutex_destroy(&f->mu);
		return f;
	}
	f->threaded = 1;
	return f;
}

struct profile *
feed_open(struct feed *f, struct diag *d)
{
	struct batch *b;

	if (!f->threaded) {
		if (f->opened == f->n)
			return NULL;
		f->r = pprof_open(f->paths[f->opened++], &f->lim, d);
		return f->r != NULL ? pprof_header(f->r) : NULL;
	}
	if ((b = batch_take(f)) == NULL || !b->open) {
		/* Not when the caller opens and closes in turn. */
		diag_set(d, DIAG_IO, -1, "no profile to read");
		if (b != NULL)
			batch_put_spare(f, b);
		return NULL;
	}
	if ((f->r = b->r) == NULL)
		*d = b->d;
	batch_put_spare(f, b);
	return f->r != NULL ? pprof_header(f->r) : NULL;
}

int
feed_next(struct feed *f, const struct pf_sample **s, struct diag *d)
{
	struct batch *b;

	if (!f->threaded)
		return pprof_next(f->r, s, d);
	for (;;) {
		if ((b = f->cur) != NULL) {
			if (b->at < b->ns) {
				*s = &b->s[b->at++];
				return 1;
			}
			if (b->rc != 1) {
				if (b->rc == -1)
					*d = b->d;
				return b->rc;
			}
			batch_put_spare(f, b);
			f->cur = NULL;
		}
		if ((b = batch_take(f)) == NULL || b->open) {
			diag_set(d, DIAG_IO, -1, "samples missing");
			if (b != NULL)
				batch_free(b);
			return -1;
		}
		f->cur = b;
	}
}

void
feed_close(struct feed *f)
{
	const struct pf_sample	*s;
	struct diag		 d;

	if (f->r == NULL)
		return;
	if (f->threaded) {
		/* The producer is done with the reader after its last batch. */
		diag_init(&d, NULL);
		while (feed_next(f, &s, &d) == 1)
			;
		if (f->cur != NULL)
			batch_put_spare(f, f->cur);
		f->cur = NULL;
	}
	pprof_close(f->r);
	f->r = NULL;
}

void
feed_free(struct feed *f)
{
	struct batch *b;

	if (f == NULL)
		return;
	if (f->threaded) {
		pthread_mutex_lock(&f->mu);
		f->stop = 1;
		pthread_cond_broadcast(&f->cv);
		pthread_mutex_unlock(&f->mu);
		pthread_join(f->t, NULL);
		while ((b = f->head) != NULL) {
			f->head = b->next;
			batch_free(b);
		}
		while ((b = f->spare) != NULL) {
			f->spare = b->next;
			batch_free(b);
		}
		batch_free(f->cur);
		pthread_cond_destroy(&f->cv);
		pthread_mutex_destroy(&f->mu);
	}
	pprof_close(f->r);
	free(f);
}
