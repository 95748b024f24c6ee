/*
 * What the targets of one decoder share (fuzz_folded.c,
 * fuzz_perfscript.c, fuzz_legacy.c): the limits they decode under, the
 * one line of a refusal, the check that pprof_decode() answers as the
 * decoder did on the bytes its sniffer sends there, and the folding of
 * what was accepted.
 */
#ifndef FUZZDECODE_H
#define FUZZDECODE_H

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "support/diag.h"
#include "input/input.h"
#include "profdiff.h"
#include "model/profile.h"
#include "fuzzfold.h"
#include "fuzzsame.h"

/* The defaults, with less room, to keep the fuzzer's memory small. */
static void
fuzz_limits(struct pd_limits *lim)
{
	pd_limits_default(lim);
	lim->max_inflated = 64u << 20;
	lim->max_depth = 4096;
	lim->max_functions = 1u << 16;
}

/*
 * Abort unless a refusal's message is one line; with other not NULL,
 * one that names a line ("line N: ...") or starts with other.
 */
static void
fuzz_one_line(const struct diag *d, const char *other)
{
	if (d->msg[0] == '\0' || strchr(d->msg, '\n') != NULL)
		abort();
	if (other != NULL && strncmp(d->msg, "line ", 5) != 0 &&
	    strncmp(d->msg, other, strlen(other)) != 0)
		abort();
}

/*
 * pprof_decode() on bytes its sniffer gives to the decoder that made p
 * of them (NULL: that decoder refused them with d) must refuse them
 * with the same message or give as many samples; with whole, the same
 * code too, and the same model field by field.
 */
static void
fuzz_same_as_pprof(const uint8_t *data, size_t len,
    const struct pd_limits *lim, const struct profile *p,
    const struct diag *d, int whole)
{
	struct diag	 pd;
	struct profile	*pp;

	diag_init(&pd, "fuzz");
	pp = pprof_decode(data, len, "fuzz", lim, &pd);
	SAME(pp == NULL, p == NULL);
	if (pp == NULL) {
		if (whole)
			SAME(pd.code, d->code);
		if (strcmp(pd.msg, d->msg) != 0)
			abort();
	} else if (whole)
		same_profile(p, pp);
	else
		SAME(pp->nsamples, p->nsamples);
	profile_free(pp);
}

/*
 * Fold every sample type of p (NULL: none) at every granularity, then
 * free p.
 */
static void
fuzz_fold_free(struct profile *p)
{
	size_t	 vi;

	if (p == NULL)
		return;
	for (vi = 0; vi < p->nsample_types; vi++)
		fold_every_granularity(p, (int)vi);
	profile_free(p);
}

#endif
