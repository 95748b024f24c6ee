/*
 * The message table, as mandoc keeps one: every warning about the input
 * (and the few errors the commands word themselves) has a code, a level
 * and one wording, a printf format, in msg.c.  The code's name is what
 * the JSON reports carry ("few-samples"); the wording is what stderr,
 * Markdown and JSON say.  No I/O here.
 */
#ifndef MSG_H
#define MSG_H

#include <stdarg.h>
#include <stddef.h>

enum msg_level {
	MSG_ERROR = 0,		/* the command stops */
	MSG_WARNING,		/* the result is weaker than it looks */
	MSG_NOTE,		/* how the result was reached */
};

/* In the order of the table; man/profdiff.1 lists them by name. */
enum msg {
	MSG_NO_MATCH = 0,	/* a filter option matched nothing */
	MSG_NO_LABEL,		/* no sample carries the --by-label key */
	MSG_FILTERED_ALL,	/* the filters keep no sample */
	MSG_OTHER_DEFAULT,	/* a profile's own default type is not read */
	MSG_SUBPERIOD,		/* values under one period: no counts */
	MSG_TYPE_ZERO,		/* the type read is all zero, others not */
	MSG_NO_SAMPLES,		/* a window with no samples */
	MSG_NO_SAMPLES_SNAPSHOT, /* a snapshot with no samples */
	MSG_FEW_SAMPLES,	/* under PD_FEW_SAMPLES samples */
	MSG_FEW_SAMPLES_VALUES,	/* the same, rates or values compared */
	MSG_FEW_SAMPLES_SNAPSHOT, /* the same, of a snapshot */
	MSG_BAD_DURATION,	/* duration_nanos over a week */
	MSG_MOSTLY_WAITING,	/* CPU utilization under PD_WAITING_UTIL */
	MSG_LOW_UTIL,		/* under PD_LOW_UTIL, not that low */
	MSG_MOSTLY_WAITING_WALL, /* the same, and the file has wall time */
	MSG_STARVED,		/* little CPU, yet its wall time not idle */
	MSG_COUNTS_RECOVERED,	/* counts undone from scaled estimates */
	MSG_COUNTS_ESTIMATED,	/* estimates, one profile a side */
	MSG_COUNTS_ESTIMATED_RUNS, /* estimates, replicates on each side */
	MSG_NO_DURATION,	/* events over windows of unknown length */
	MSG_WINDOWS_SUMS,	/* windows of different lengths, sums */
	MSG_WINDOWS_SHARES,	/* windows of different lengths, shares */
	MSG_PERIODS,		/* sampling periods more than 10% apart */
	MSG_NO_COUNTS,		/* nothing can be tested */
	MSG_FEW_RUNS,		/* replicates, fewer than 3 a side */
	MSG_RUNS_VARY,		/* runs vary much more than sampling */
	MSG_PROCESSES_DIFFER,	/* one a side: shares differ beyond sampling */
	MSG_PREEMPTED,		/* runtime.asyncPreempt changed */
	MSG_IDLE,		/* idle samples kept out of the shares */
	MSG_SATURATED,		/* the thread's idle time went (or came) */
	MSG_CUT_STACKS,		/* many stacks stop short of the entry */
	MSG_LIST_NONE,		/* --list matched no function */
	MSG_PEEK_NONE,		/* --peek matched no row */
	MSG_SOURCE_OUTSIDE,	/* --list's source outside --source-path */
	MSG_SERIES_ESTIMATES,	/* a series of scaled estimates */
	MSG_OUT_OF_RANGE,	/* counts the statistics cannot take */
	MSG_UNITS_DIFFER,	/* one type, two units: no comparison */
	MSG_WAITS_DIFFER,	/* a mutex profile against a block profile */
	MSG_WAITS_UNSURE,	/* the same, by leaves that do not settle it */
	MSG_SYM_MISSING,	/* no binary found for a mapping's addresses */
	MSG_SYM_MISMATCH,	/* a binary refused: another build id */
	MSG_COUNT		/* the number of messages */
};

/* The code's name, "few-samples"; "" for a code out of range. */
const char	*msg_name(enum msg);
enum msg_level	 msg_level(enum msg);
/* "error", "warning" or "note". */
const char	*msg_level_name(enum msg_level);
/*
 * The message's wording with its arguments, as vsnprintf() writes it
 * into buf (len > 0), and its return value.  The arguments must be
 * those the table's format asks for (msg.c).
 */
int		 msg_vformat(char *buf, size_t len, enum msg, va_list);
int		 msg_format(char *buf, size_t len, enum msg, ...);

#endif
