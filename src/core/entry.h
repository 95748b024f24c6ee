/* entry.h: findings that entered through one caller's calls, joined. */
#ifndef ENTRY_H
#define ENTRY_H

struct delta;

/*
 * Set each finding's entry, and join into one the findings that
 * entered through the same caller's calls (entry.c says when), the
 * larger keeping its place, test and path; the rows' findings are
 * renumbered.  d's findings are built (findings.c), largest first.
 */
void	delta_join_findings(struct delta *);

#endif
