/* scc.h: Tarjan's components, with an explicit stack of calls. */
#include <stddef.h>
#include <stdlib.h>

#include "core/scc.h"
#include "support/xmalloc.h"

#define NONE	((size_t)-1)

size_t
scc_tarjan(size_t n, const size_t *off, const size_t *succ, size_t *comp,
    size_t *pop)
{
	size_t	*idx, *low, *st, *cs, *it, sp = 0, csp = 0, npop = 0;
	size_t	 cnt = 0, ncomp = 0, s0, v, w, u;
	unsigned char *on;

	idx = xreallocarray(NULL, n + 1, sizeof(*idx));
	low = xreallocarray(NULL, n + 1, sizeof(*low));
	st = xreallocarray(NULL, n + 1, sizeof(*st));
	cs = xreallocarray(NULL, n + 1, sizeof(*cs));
	it = xreallocarray(NULL, n + 1, sizeof(*it));
	on = xcalloc(n + 1, 1);
	for (v = 0; v < n; v++)
		idx[v] = NONE;
	for (s0 = 0; s0 < n; s0++) {
		if (idx[s0] != NONE)
			continue;
		idx[s0] = low[s0] = cnt++;
		st[sp++] = s0;
		on[s0] = 1;
		it[s0] = off[s0];
		cs[csp++] = s0;
		while (csp > 0) {
			v = cs[csp - 1];
			if (it[v] < off[v + 1]) {
				w = succ[it[v]++];
				if (idx[w] == NONE) {
					idx[w] = low[w] = cnt++;
					st[sp++] = w;
					on[w] = 1;
					it[w] = off[w];
					cs[csp++] = w;
				} else if (on[w] && idx[w] < low[v])
					low[v] = idx[w];
				continue;
			}
			if (--csp > 0 && low[v] < low[u = cs[csp - 1]])
				low[u] = low[v];
			if (low[v] != idx[v])
				continue;
			do {
				w = st[--sp];
				on[w] = 0;
				comp[w] = ncomp;
				if (pop != NULL)
					pop[npop++] = w;
			} while (w != v);
			ncomp++;
		}
	}
	free(idx);
	free(low);
	free(st);
	free(cs);
	free(it);
	free(on);
	return ncomp;
}
