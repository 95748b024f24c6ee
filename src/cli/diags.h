/*
 * The commands' side of the warnings that loading and the comparison
 * return as data (struct diags, support/diag.h) and of the errors they
 * return (struct diag): each printed to stderr as one line, as
 * cli_warn() prints it.  CLI layer: it prints.
 */
#ifndef CLI_DIAGS_H
#define CLI_DIAGS_H

#include <stddef.h>

#include "support/diag.h"
#include "support/msg.h"

/*
 * Print the messages of ds from the from'th on, "profdiff: " and each
 * one's line, unless quiet (-q).  The reports carry them all the same.
 */
void	cli_diags_print(const struct diags *ds, size_t from, int quiet);
/* Print an error, "profdiff: path: kind: detail"; returns -1. */
int	cli_diag(const struct diag *);
/*
 * Print a message of the table with its arguments, after about (a
 * command's name) if not NULL; returns -1, for an error's caller.
 */
int	cli_msg(enum msg, const char *about, ...);

#endif
