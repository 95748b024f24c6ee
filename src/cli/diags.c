/*
 * Printing what the rooms below return as data: loading's errors
 * (struct diag) and the warnings of the message table (struct diags),
 * each one line on stderr through cli_warn(), which escapes the control
 * bytes a file name or a function name may hold.  CLI layer.
 */
#include <stdarg.h>
#include <stddef.h>

#include "cli/cli.h"
#include "cli/diags.h"
#include "support/diag.h"
#include "support/msg.h"

void
cli_diags_print(const struct diags *ds, size_t from, int quiet)
{
	size_t i;

	for (i = from; !quiet && i < ds->n; i++)
		cli_warn("%s", ds->v[i].line);
}

int
cli_diag(const struct diag *d)
{
	char buf[512];

	diag_format(d, buf, sizeof(buf));
	cli_warn("%s", buf);
	return -1;
}

int
cli_msg(enum msg code, const char *about, ...)
{
	struct diags	 ds;
	va_list		 ap;

	diags_init(&ds);
	va_start(ap, about);
	diags_vadd(&ds, code, NULL, NULL, about, ap);
	va_end(ap);
	cli_diags_print(&ds, 0, 0);
	diags_release(&ds);
	return -1;
}
