/*
 * Fuzz target: bytes -> folded_decode() -> facts and aggregation at
 * every granularity, as fuzz_pprof.c does for protobuf input.  Whatever
 * the text, the decoder must either refuse it with a one-line diagnostic
 * that names a line, or give a model that the core can fold without
 * crashing, overflowing or leaking.  folded_sniff() runs on every input
 * too, and on text it accepts pprof_decode() must take the folded path
 * and agree with folded_decode().  Built with libFuzzer by `make fuzz`;
 * tests/fuzz/replay.c runs it on the seeds in `make check`.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/agg.h"
#include "support/diag.h"
#include "core/facts.h"
#include "input/folded.h"
#include "input/gunzip.h"
#include "input/input.h"
#include "profdiff.h"
#include "model/profile.h"
#include "fuzzdecode.h"

int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);

/*
 * A refusal is one line that names a line, a limit or blank text; text
 * whose first line has no count is not a profile at all.
 */
static void
check_refusal(const struct diag *d)
{
	if (d->code != DIAG_FOLDED && d->code != DIAG_LIMIT &&
	    d->code != DIAG_NOTPROFILE)
		abort();
	fuzz_one_line(d, "no stack lines");
}

/*
 * An accepted input's samples, names joined root first with ';', must
 * spell its stack lines again: an oracle for the decoder's line
 * splitting, interning and reuse of the previous line's frames, written
 * here the plain way.
 */
static void
check_stacks(const struct profile *p, const uint8_t *data, size_t len)
{
	const uint8_t	*s = data, *end = data + len, *e, *nl, *c;
	const char	*name;
	size_t		 i = 0, j, n, off;

	if (len >= 3 && memcmp(data, "\xef\xbb\xbf", 3) == 0)
		s += 3;
	for (; s < end; s = nl != NULL ? nl + 1 : end) {
		nl = memchr(s, '\n', (size_t)(end - s));
		e = nl != NULL ? nl : end;
		while (e > s && (e[-1] == '\r' || e[-1] == ' ' || e[-1] == '\t'))
			e--;
		if (e == s)
			continue;
		for (c = e; c[-1] != ' ' && c[-1] != '\t'; c--)
			continue;
		while (c[-1] == ' ' || c[-1] == '\t')
			c--;
		if (i >= p->nsamples)
			abort();
		off = 0;
		for (j = p->samples[i].nlocs; j-- > 0; ) {
			name = p->samples[i].locs[j]->lines[0].function->name;
			n = strlen(name);
			if (off + n > (size_t)(c - s) ||
			    memcmp(s + off, name, n) != 0)
				abort();
			off += n;
			if (j > 0 && s[off++] != ';')
				abort();
		}
		if (off != (size_t)(c - s))
			abort();
		i++;
	}
	SAME(i, p->nsamples);
}

/* The model's invariants, which agg relies on. */
static void
check_model(const struct profile *p)
{
	size_t i, j;

	SAME(p->format, PF_FOLDED);
	SAME(p->nsample_types, 1);
	SAME(p->nlocations, p->nfunctions);
	if (p->nsamples == 0)
		abort();
	for (i = 0; i < p->nsamples; i++) {
		if (p->samples[i].nlocs == 0 || p->samples[i].values[0] < 0)
			abort();
		for (j = 0; j < p->samples[i].nlocs; j++)
			if (p->samples[i].locs[j] < p->locations ||
			    p->samples[i].locs[j] >=
			    p->locations + p->nlocations ||
			    p->samples[i].locs[j]->lines[0].function->name[0] ==
			    '\0')
				abort();
	}
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t len)
{
	struct pd_limits	 lim;
	struct diag		 d;
	struct profile		*p;

	fuzz_limits(&lim);
	diag_init(&d, "fuzz");
	p = folded_decode(data, len, "fuzz", &lim, &d);
	if (p == NULL)
		check_refusal(&d);
	else {
		check_model(p);
		check_stacks(p, data, len);
	}

	/*
	 * Through the pprof entry point, sniffed text takes the same path,
	 * unless it is a legacy text profile, which legacy.c reads.
	 */
	if (!gunzip_is_gzip(data, len) && folded_sniff(data, len) &&
	    input_sniff(data, len) == INPUT_FOLDED)
		fuzz_same_as_pprof(data, len, &lim, p, &d, 0);
	fuzz_fold_free(p);
	return 0;
}
