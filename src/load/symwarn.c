/*
 * The warnings of a side about symbolization (symbol.h): a mapping
 * whose addresses were left without names for want of its binary, none
 * found or only files of another build id.  A mapping that has no file
 * in principle ([vdso]) or no load address is the header's to show
 * (report_symbols.c), not a warning.  Data only: the commands print.
 */
#include <stddef.h>

#include "load/load.h"
#include "support/diag.h"
#include "support/msg.h"
#include "symbol/symbol.h"

void
side_warn_symbols(const struct sym_summary *sum, const char *side,
    const char *file, const char *about, struct diags *ds)
{
	const struct sym_map	*e;
	unsigned long long	 left;
	size_t			 i;

	for (i = 0; i < sum->n; i++) {
		e = &sum->v[i];
		left = e->naddrs - e->nnamed;
		if (e->state == SYM_MISSING)
			diags_add(ds, MSG_SYM_MISSING, side, file, about, left,
			    left == 1 ? "" : "es", e->mapping);
		else if (e->state == SYM_MISMATCH)
			diags_add(ds, MSG_SYM_MISMATCH, side, file, about,
			    e->file, e->mapping, e->file_id[0] != '\0' ?
			    e->file_id : "(none)", e->build_id, left,
			    left == 1 ? "" : "es");
	}
}
