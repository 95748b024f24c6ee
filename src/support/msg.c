/*
 * The message table: each code's name, level and wording (msg.h).  A
 * wording is the message alone; what it is about (the side, the file,
 * the command) is put before it by whoever adds it to a list (diag.c),
 * as "base: new.pb.gz: " or "diff: ".  No I/O here.
 */
#include <stdarg.h>
#include <stdio.h>

#include "support/msg.h"

static const struct msg_def {
	const char	*name;
	enum msg_level	 level;
	const char	*fmt;
} msgs[MSG_COUNT] = {
	[MSG_NO_MATCH] = { "filter-matched-nothing", MSG_WARNING,
	    "%s matched nothing%s" },
	[MSG_NO_LABEL] = { "label-not-found", MSG_WARNING,
	    "no sample carries label %s (--by-label)" },
	[MSG_FILTERED_ALL] = { "filters-keep-nothing", MSG_WARNING,
	    "the filters keep no sample%s" },
	[MSG_OTHER_DEFAULT] = { "other-default-type", MSG_NOTE,
	    "its own default sample type is %s, but %s is read, as in %s "
	    "(choose one with -sample_index)" },
	[MSG_SUBPERIOD] = { "values-under-period", MSG_WARNING,
	    "%lld of %zu samples hold less %s than the sampling period, %s, "
	    "so the values are no counts of periods: sample count unknown" },
	[MSG_TYPE_ZERO] = { "sample-type-all-zero", MSG_WARNING,
	    "every %s value is 0, and %s %s values: choose one with "
	    "-sample_index" },
	[MSG_NO_SAMPLES] = { "no-samples", MSG_WARNING,
	    "no samples: nothing to compare; collect a longer profile" },
	[MSG_NO_SAMPLES_SNAPSHOT] = { "no-samples-snapshot", MSG_WARNING,
	    "no samples in this snapshot" },
	[MSG_FEW_SAMPLES] = { "few-samples", MSG_WARNING,
	    "only %lld sample%s: shares are uncertain by up to ±%.1f points "
	    "(95%%); collect a longer profile" },
	[MSG_FEW_SAMPLES_VALUES] = { "few-samples-values", MSG_WARNING,
	    "only %lld sample%s: %s are uncertain, the whole profile's by "
	    "±%.0f%% (95%%) and a function's by more, ±2/sqrt of its "
	    "samples; collect a longer profile" },
	[MSG_FEW_SAMPLES_SNAPSHOT] = { "few-samples-snapshot", MSG_WARNING,
	    "only %lld sample%s in this snapshot: a function's value is "
	    "uncertain by about ±1/sqrt of its samples" },
	[MSG_BAD_DURATION] = { "duration-implausible", MSG_WARNING,
	    "duration_nanos is implausible (over a week); the duration is "
	    "ignored" },
	/*
	 * The utilization's clause is utilization_say()'s (load.c): "was
	 * 4.6% of one core over 10.06s", or between two CPU profiles "fell
	 * from 58.5% of one core (base, 10.00s) to 4.6% (new, 10.06s)";
	 * then who: "the process", or "the new window".
	 */
	[MSG_MOSTLY_WAITING] = { "mostly-waiting", MSG_WARNING,
	    "CPU utilization %s: %s was mostly waiting, and a CPU profile "
	    "cannot explain time spent waiting; take a wall-clock or off-CPU "
	    "profile" },
	[MSG_LOW_UTIL] = { "low-utilization", MSG_NOTE,
	    "CPU utilization %s: %s was off CPU part of the time, waiting "
	    "for work or kept from running (a loaded machine, a CPU quota), "
	    "and a CPU profile cannot tell which; its shares still compare, "
	    "and where the time off CPU matters, a wall-clock profile shows "
	    "it" },
	[MSG_MOSTLY_WAITING_WALL] = { "mostly-waiting-wall-read", MSG_WARNING,
	    "CPU utilization %s: %s was mostly waiting, and CPU time cannot "
	    "explain time spent waiting; read the profile's wall-clock time "
	    "(-sample_index=%s)" },
	[MSG_STARVED] = { "starved", MSG_WARNING,
	    "CPU utilization %s, yet only %.1f%% of its wall-clock samples "
	    "were idle: the thread was not waiting for work but kept from "
	    "running (a loaded machine or a CPU quota) or blocked in "
	    "synchronous calls; its shares still compare, but not its "
	    "speed" },
	[MSG_COUNTS_RECOVERED] = { "counts-recovered", MSG_NOTE,
	    "%s" },			/* facts.h's count_note */
	[MSG_COUNTS_ESTIMATED] = { "counts-estimated", MSG_WARNING,
	    "%s; verdicts may be over-confident: compare several profiles "
	    "per side" },
	[MSG_COUNTS_ESTIMATED_RUNS] = { "counts-estimated-runs", MSG_WARNING,
	    "%s" },			/* the spread of the runs shows it */
	[MSG_NO_DURATION] = { "no-duration", MSG_WARNING,
	    "no duration: the sum of %s over a window of unknown length is "
	    "compared as it is, though a longer window holds more; a "
	    "cumulative profile (Go's allocs, mutex, block) counts from the "
	    "start of its process: give each profile an earlier snapshot of "
	    "it (--base) to compare windows" },
	[MSG_WINDOWS_SUMS] = { "window-lengths-differ", MSG_WARNING,
	    "the windows differ in length: base %.2fs, new %.2fs; their sums "
	    "are not comparable: compare rates (--normalize duration) or "
	    "shares" },
	[MSG_WINDOWS_SHARES] = { "window-lengths-differ-shares", MSG_NOTE,
	    "the windows differ in length: base %.2fs, new %.2fs; shares "
	    "allow for it, but a window may have caught different work" },
	[MSG_PERIODS] = { "periods-differ", MSG_WARNING,
	    "the sampling periods differ: base %lld, new %lld %s" },
	[MSG_NO_COUNTS] = { "no-counts", MSG_WARNING,
	    "no sample counts for %s (no count sample type and no usable "
	    "period): significance cannot be tested" },
	[MSG_FEW_RUNS] = { "few-runs", MSG_WARNING,
	    "with %zu and %zu profiles a side, how much runs vary is poorly "
	    "known: verdicts may be over-confident; give 3 or more a side" },
	[MSG_RUNS_VARY] = { "runs-vary", MSG_WARNING,
	    "the runs vary %.1f times as much as sampling alone makes them: "
	    "intervals are %.1f times as wide as pooling would make them, and "
	    "small changes cannot be seen; look for what differs between "
	    "runs (load, input, version)" },
	[MSG_PROCESSES_DIFFER] = { "processes-differ", MSG_WARNING,
	    "the two processes differ by about %.0f%% of a function's share "
	    "beyond sampling (the spread of %zu functions that did not "
	    "change): a smaller change of a large function cannot be told "
	    "from it; give 3 profiles or more a side" },
	[MSG_IDLE] = { "idle-apart", MSG_NOTE,
	    "%lld of %lld samples (%.1f%%) were idle, a thread with nothing "
	    "to run: no work, so they are left out of the shares" },
	[MSG_SATURATED] = { "saturated", MSG_WARNING,
	    "the thread had time to spare in the %s window (%.1f%% of its "
	    "samples idle) and next to none in the %s window (%.1f%%): "
	    "there it was saturated, and did its other work at another pace "
	    "and mix (fewer requests, more of them a turn), so that work's "
	    "%s is told as crowded %s by the %s, not as %s of its own" },
	[MSG_CUT_STACKS] = { "stacks-cut-short", MSG_WARNING,
	    "%.0f%% of its samples (%lld of %lld) have stacks that stop "
	    "short of the program's entry (main, _start, a thread's start): "
	    "the unwinder lost their callers, as walking frame pointers does "
	    "in code built without them (often a library), and findings in "
	    "those stacks show no callers; record with perf record "
	    "--call-graph dwarf, or build with -fno-omit-frame-pointer" },
	[MSG_PREEMPTED] = { "preemption-changed", MSG_WARNING,
	    "%s went from %.1f%% to %.1f%%: the process was preempted %s "
	    "often in the new window, as on a busier machine, and the shares "
	    "of the code it interrupts move with it; compare windows taken "
	    "under the same load" },
	[MSG_LIST_NONE] = { "list-matched-nothing", MSG_WARNING,
	    "--list '%s' matches no function with samples in either "
	    "profile" },
	[MSG_PEEK_NONE] = { "peek-matched-nothing", MSG_WARNING,
	    "--peek '%s' matches no row with samples in either profile "
	    "(granularity %s)" },
	[MSG_SOURCE_OUTSIDE] = { "source-outside", MSG_WARNING,
	    "resolves to %s, outside --source-path: not read" },
	[MSG_SERIES_ESTIMATES] = { "series-counts-estimated", MSG_WARNING,
	    "the %s counts of these profiles are estimates scaled up by "
	    "their sampling rate, not observed samples: verdicts are "
	    "over-confident; use several profiles a point" },
	[MSG_OUT_OF_RANGE] = { "counts-out-of-range", MSG_ERROR,
	    "sample counts are out of range for the statistics (negative, or "
	    "above 2^52)" },
	[MSG_UNITS_DIFFER] = { "units-differ", MSG_ERROR,
	    "sample type %s is in %s, but in %s in %s: the profiles cannot "
	    "be compared" },
	[MSG_WAITS_DIFFER] = { "mutex-against-block", MSG_ERROR,
	    "looks like %s (%.0f%% of contentions in %s), %s like %s "
	    "(%.0f%% in %s): compare mutex with mutex, block with block" },
	[MSG_WAITS_UNSURE] = { "mutex-against-block-unsure", MSG_WARNING,
	    "looks like %s (%.0f%% of contentions in %s), %s like %s "
	    "(%.0f%% in %s): Go writes one header on both; check that they "
	    "are of one kind" },
	[MSG_SYM_MISSING] = { "binary-not-found", MSG_WARNING,
	    "%llu address%s of %s left without function names: no binary "
	    "found (name its folder with --binary-path or PPROF_BINARY_PATH)" },
	[MSG_SYM_MISMATCH] = { "binary-build-id-mismatch", MSG_WARNING,
	    "%s not read for %s: its build id %s is not the mapping's %s "
	    "(%llu address%s left without function names)" },
};

const char *
msg_name(enum msg m)
{
	return (unsigned)m < MSG_COUNT ? msgs[m].name : "";
}

enum msg_level
msg_level(enum msg m)
{
	return (unsigned)m < MSG_COUNT ? msgs[m].level : MSG_ERROR;
}

const char *
msg_level_name(enum msg_level l)
{
	return l == MSG_ERROR ? "error" : l == MSG_WARNING ? "warning" :
	    "note";
}

int
msg_vformat(char *buf, size_t len, enum msg m, va_list ap)
{
	if ((unsigned)m >= MSG_COUNT) {
		buf[0] = '\0';
		return 0;
	}
	return vsnprintf(buf, len, msgs[m].fmt, ap);
}

int
msg_format(char *buf, size_t len, enum msg m, ...)
{
	va_list	 ap;
	int	 n;

	va_start(ap, m);
	n = msg_vformat(buf, len, m, ap);
	va_end(ap);
	return n;
}
