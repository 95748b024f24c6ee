/*
 * Report writers: the only code that formats results.  They take plain
 * structs built by the commands (facts, rows of integers and verdicts)
 * and write one format to a FILE.  They know nothing of protobuf, and do
 * no statistics: every number they print was computed before.
 */
#ifndef REPORT_H
#define REPORT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "core/facts.h"
#include "support/diag.h"

struct judge;

struct flame;
struct sym_summary;
struct views;

/*
 * The formats of the reports (-f), which cli.c names, in this order.
 * Which reports write which is their tables' to say (struct
 * report_writer); every report writes text.
 */
enum report_format {
	FMT_TEXT = 0,
	FMT_JSON,
	FMT_CSV,
	FMT_MARKDOWN,
	FMT_FOLDED,
	FMT_SVG,
};

/*
 * One format of a report, and its writer.  Each report has a table of
 * them, ended by a NULL write: report_top_formats[] (report_top.c),
 * report_diff_formats[] (report_diff.c), report_series_formats[]
 * (report_series.c).  A command's entry (cli.h) names its report's
 * table, from which its -f values, their help and the refusal of any
 * other are derived, and its output is written through it
 * (cli_write()).  write takes that report's own struct (struct
 * top_report for top's table, ...) and returns 0, or -1 on a write
 * error.
 */
struct report_writer {
	enum report_format format;
	int		(*write)(FILE *, const void *report);
	int		 tree;		/* a flame graph: it draws the call
					   tree (agg_opts.tree, flame.h) */
	int		 views;		/* it writes --list's and --peek's
					   sections (report_views.c) */
};

struct top_row {
	const char	*name;
	int64_t		 flat;
	int64_t		 cum;
};

struct top_report {
	const struct facts *profiles;	/* one per input file */
	size_t		 nprofiles;
	struct facts	 merged;	/* all inputs together */
	int64_t		 pct_total;	/* sum of |value|: pprof's 100% */
	const char	*granularity;
	int		 sort_cum;
	const struct top_row *rows;	/* sorted; all nodes */
	size_t		 nrows;
	size_t		 nshow;		/* rows to print */
	const char	*filters;	/* "--focus RE" etc., or NULL */
	int		 relative;	/* percentages of the filtered samples */
	double		 kept;		/* share of |value| the filters kept */
	const char	*by_label;	/* rows are this label's values */
	const struct flame *fl;		/* svg and folded: the profile's */
	const char	*out_unit;	/* --unit, or NULL */
	const struct diags *warnings;	/* about the input, or NULL */
	const struct sym_summary *sym;	/* what symbolization did, or NULL */
};

/*
 * top's formats: the table, or the flame graph r->fl (svg, folded), of
 * a struct top_report.
 */
extern const struct report_writer report_top_formats[];
int	report_top_text(FILE *, const struct top_report *);
int	report_top_json(FILE *, const struct top_report *);
int	report_top_csv(FILE *, const struct top_report *);
int	report_top_markdown(FILE *, const struct top_report *);

struct delta;

enum diff_kind {
	DIFF_REPORT = 0,	/* profdiff diff */
	DIFF_CHECK,		/* profdiff check-significance */
};

/*
 * --base-tag or --new-tag: the samples of its profiles that a side is
 * (load/selection.h).
 */
struct report_sel {
	const char	*terms;		/* "--base-tag KEY=VALUE ...", as given */
	int64_t		 samples;	/* the side's, or -1 if unknown */
	int64_t		 of;		/* its profiles' before it, or -1 */
	double		 share;		/* of its profiles' total value */
	size_t		 nprofiles;
};

/*
 * What the header of a two-sided report says, whatever draws it: the
 * diff tables (struct diff_report) and the flame graphs (struct
 * flame_report in report_flame.h) embed the same one.
 */
struct report_head {
	const struct facts *base;	/* merged facts of each side; */
	const struct facts *new;	/*   base is NULL for top */
	size_t		 nbase, nnew;	/* profiles per side */
	const char	*method;	/* how rows were tested, for people */
	double		 alpha;
	double		 min_effect_pp;	/* as judged (delta.min_pp) */
	double		 min_effect_rel;
	double		 min_floor;	/* delta_opts.wait_floor when it set
					   min_effect_pp, else 0 */
	int		 has_counts;
	const char	*filters;	/* "--focus RE" etc., or NULL */
	const char	*quantity;	/* what is compared and why, or NULL */
	const char	*quantity_name;	/* "shares", "rates", ... */
	/*
	 * Each side's selection (base, new), or NULL; with one_profile,
	 * both sides are label groups of one profile, tested as windows
	 * of one process, and neither is its samples on neither side (-1:
	 * not known).
	 */
	const struct report_sel *sel[2];
	int		 one_profile;
	int64_t		 neither;
	int		 same_process;	/* tested so (delta_opts) */
	/*
	 * What loading and the comparison warned of (stderr has them
	 * too, unless -q), for Markdown's and JSON's readers; or NULL.
	 */
	const struct diags *warnings;
	/* What symbolization did on each side (base, new), or NULL. */
	const struct sym_summary *sym[2];
};

/*
 * profdiff spans: the spans of each side (the fast spans are the base,
 * the slow the new), and whether the slow ones computed more or waited.
 */
struct report_spans_side {
	size_t		 n;		/* spans */
	size_t		 with;		/* of them with samples */
	size_t		 parts;		/* replicates they were grouped in */
	int64_t		 p50, p90, p99;	/* duration quantiles, ns */
	double		 mean_ns;	/* mean duration */
	double		 cpu;		/* value per span, in the unit */
	double		 covered;	/* cpu over mean duration (time), or
					   NaN */
};

struct report_spans {
	const char	*trace;		/* the file */
	const char	*format;	/* "OTLP/JSON", "Jaeger JSON" */
	const char	*name;		/* --span-name, or NULL: every name */
	const char	*label;		/* the samples' label key */
	const char	*slow;		/* the split, as said: "p90", "250ms" */
	int64_t		 threshold_ns;	/* slow: at or above */
	struct report_spans_side side[2];	/* fast, slow */
	int64_t		 unlabeled;	/* samples without the label */
	int64_t		 unmatched;	/* with it, of no span taken */
	double		 ratio;		/* slow's cpu per span over fast's */
	double		 p;		/* of the test of cpu per span */
	/* "computing", "mostly waiting", "waiting", or "inconclusive" */
	const char	*verdict;
	const char	*say;		/* the sentence that says it */
	/* Runtime rows that grow with a span's length: names, per span. */
	const char	**length;
	size_t		 nlength;
};

struct diff_report {
	struct report_head h;
	const struct report_spans *spans;	/* spans, else NULL */
	enum diff_kind	 kind;
	const struct delta *d;
	const size_t	*order;		/* the first nshow rows, in order */
	size_t		 nshow;
	int		 norm;		/* enum delta_norm */
	const char	*unit;		/* the sample type's unit */
	const char	*granularity;
	int		 color;		/* ANSI colour in text */
	int		 relative;	/* shares of the filtered samples */
	double		 base_kept;	/* share of |value| the filters kept */
	double		 new_kept;
	const char	*by_label;	/* rows are this label's values */
	/*
	 * The counts are estimates nothing recovered, one profile a side
	 * (delta_opts.approx): the findings are leads.
	 */
	int		 approx;
	/*
	 * ... because a side is a live-heap snapshot whose counts were
	 * recovered but hold garbage not yet collected (V8's): the counts
	 * are the samples taken, and still vary by more between processes.
	 */
	int		 approx_live;
	int		 waits;		/* kind_waits() of the sample type */
	/*
	 * Events summed over windows of unknown length, compared as they
	 * are (delta_opts.untimed): the findings are leads too.
	 */
	int		 untimed;
	/* check-significance only */
	int		 exit_status;
	const char	*conclusion;
	/*
	 * Why its findings made it inconclusive (REPORT_LEAD_APPROX, ...),
	 * or REPORT_LEAD_NONE: the leads' sentence says what they did to
	 * this exit status, as the conclusion does.
	 */
	int		 lead;
	/* svg and folded: the flame graph of the same two sides */
	const struct flame *fl;
	int		 width_base;	/* widths from the base (--flame-width) */
	const char	*out_unit;	/* --unit, or NULL */
	/* --list and --peek (views.h), and where --list finds sources */
	const struct views *views;
	const char	*source_path;	/* DIR[:DIR...], or NULL */
};

/*
 * diff's and check-significance's formats: a table, or the flame graph
 * r->fl (svg, folded) under the same header, of a struct diff_report.
 */
extern const struct report_writer report_diff_formats[];

int	report_diff_text(FILE *, const struct diff_report *);
int	report_diff_markdown(FILE *, const struct diff_report *);
int	report_diff_json(FILE *, const struct diff_report *);
int	report_diff_csv(FILE *, const struct diff_report *);
/* The spans' sections of a diff_report, when it has them. */
void	report_spans_text(FILE *, const struct diff_report *);
void	report_spans_md(FILE *, const struct diff_report *);
void	report_spans_json(FILE *, const struct diff_report *);
/*
 * check-significance's conclusion for its exit status (0, 1 or 3),
 * given whether a row regressed and whether any change fails the check,
 * and why a finding could not fail it (REPORT_LEAD_*).
 */
enum {
	REPORT_LEAD_NONE,
	REPORT_LEAD_APPROX,	/* delta_opts.approx */
	REPORT_LEAD_LIVE,	/* ... on live-heap snapshots (approx_live) */
	REPORT_LEAD_UNTIMED,	/* delta_opts.untimed */
	REPORT_LEAD_NOCOUNTS	/* no finding: !delta_opts.has_counts */
};
const char *report_conclusion(int status, int regressed, int any_change,
		    int lead);

/*
 * The header's sentence on how rows were tested, from the base side's
 * facts (its count type), whether there are counts, and the family's
 * judge (j->replicates and the dispersion its runs showed; NULL for one
 * profile a side); frames for a flame graph's, which test cumulative
 * counts only; weighted when the intervals are of the values (delta.h);
 * runs, what the replicates are ("profiles"; spans: "parts of the
 * sides' spans").  Free it.
 */
char	*report_method(const struct facts *base, int has_counts,
	    const struct judge *, int frames, int weighted, const char *runs);

/*
 * The facts block, as the text and JSON reports print it, the total in
 * unit to (units_label()'s; NULL: as pprof labels one value, and JSON's
 * exact integer).
 */
void	report_facts_text(FILE *, const struct facts *, const char *label,
	    size_t nprofiles, const char *to);
void	report_facts_json(FILE *, const struct facts *, const char *to);
/* The same as a markdown list item, "- **label**: ...". */
void	report_facts_md(FILE *, const char *label, const struct facts *,
	    size_t nprofiles, const char *to);
/*
 * A side's selection (--base-tag, --new-tag), what it kept: "2000 of
 * the profile's 5000 samples", or its share of the total when the
 * samples are not counted.  And with one profile both sides, the
 * sentence that says so and how many of its samples are on neither
 * side, or NULL.  Into buf.
 */
void	report_sel_kept(char *buf, size_t len, const struct report_sel *);
const char *report_sel_sides(char *buf, size_t len,
	    const struct report_head *);
/*
 * What symbolization did (symbol.h): a line of text or a Markdown list
 * item after label, nothing when it had nothing to name; JSON's
 * "symbols" member with its comma, an array, or for two sides an object
 * of two.  report_symbols.c.
 */
void	report_symbols_text(FILE *, const struct sym_summary *,
	    const char *label);
void	report_symbols_md(FILE *, const struct sym_summary *,
	    const char *label);
void	report_symbols_json(FILE *, const struct sym_summary *);
void	report_symbols_json2(FILE *, const struct sym_summary *base,
	    const struct sym_summary *new);
/* Both, as the text's lines and Markdown's list items. */
void	report_sel_text(FILE *, const struct report_head *, int side);
void	report_sel_md(FILE *, const struct report_head *, int side);
/* And JSON's "selection" member (with its comma), if any side has one. */
void	report_sel_json(FILE *, const struct report_head *);
/*
 * A value in unit from as a JSON or CSV number in unit to: the exact
 * integer when to is NULL, else the shortest decimal of the converted
 * value.
 */
void	report_put_value(FILE *, int64_t v, const char *from, const char *to);
/*
 * The unit every value of a JSON or CSV report is in, for --unit to:
 * NULL without one or when the values are in no unit pprof knows
 * (count), else as units_column() (units.h) chooses from minval and
 * total.  *name is the unit's name as printed (the sample
 * unit when values stay plain numbers).
 */
const char *report_value_unit(const char *to, int64_t minval, int64_t total,
	    const char *from, const char **name);

/*
 * Escaping shared by the writers.  Each writes s to fp; JSON, CSV and
 * Markdown write invalid UTF-8 as U+FFFD, as the SVG's writers do.
 */
void	report_put_text(FILE *, const char *s);	/* control bytes as \n, \xNN */
void	report_put_json(FILE *, const char *s);	/* a quoted JSON string */
/*
 * An RFC 4180 field of text (names, units; never a number), with a '
 * before it when it begins with =, +, -, @, a tab or a carriage return,
 * so that a spreadsheet reads no formula.
 */
void	report_put_csv(FILE *, const char *s);
void	report_put_md(FILE *, const char *s);	/* `code`, table-safe */
/* Prose in Markdown: its markup characters escaped. */
void	report_put_md_text(FILE *, const char *s);
/*
 * The warnings about the input (struct diags; NULL: none).  Markdown:
 * a section "Warnings", an item each, the line stderr prints; nothing
 * when there is none.  JSON: ',"warnings":[...]', the leading comma
 * included, an object {"level", "side", "file", "code", "message"}
 * each (side and file null when none, code msg_name(), message the
 * wording alone); spaced, in the series report's style: a space after
 * each colon and comma, and the objects indented.
 */
void	report_warnings_md(FILE *, const struct diags *ds);
void	report_warnings_json(FILE *, const struct diags *ds, int spaced);
/*
 * A number as JSON and CSV print it: an integral value as the whole
 * number it is, any other in the fewest digits (15 to 17) that read back
 * as the same double, so that nothing is lost; the caller handles NaN
 * and infinities.  buf holds REPORT_NUMSZ bytes.
 */
#define REPORT_NUMSZ	32
void	report_fmt_num(char *buf, size_t len, double v);
/* The same into a JSON document, with null for NaN and infinities. */
void	report_put_num(FILE *, double v);
/* A p- or q-value as the tables print it ("3.1e-61", "0.023"; "-" for NaN). */
void	report_put_p(char *buf, size_t len, double p);

/*
 * What the views (report_views.c) share with the diff tables
 * (report_diff.c): a normalized value and a change as the rows print
 * them, a verdict (enum verdict) for scripts and for people, a name in
 * Markdown, a JSON number.
 */
void	report_diff_norm(char *buf, size_t len, double v,
	    const struct diff_report *);
void	report_diff_delta(char *buf, size_t len, double v,
	    const struct diff_report *);
/* An interval "[-1.2, +3.4]" of shares or of the report's unit. */
void	report_diff_interval(char *buf, size_t len, double lo, double hi,
	    const struct diff_report *, int digits);
/* --min-effect's points in the quantity compared ("1pp", "10ms/s ..."). */
void	report_diff_min_effect(char *buf, size_t len,
	    const struct diff_report *);
const char *report_verdict_name(int verdict);
/* exposure: rates or values are compared, and no share is crowded. */
const char *report_verdict_text(int verdict, int exposure);

/*
 * A diff's findings, each a line and what it holds, as the text and
 * Markdown reports lead with them (report_findings.c); nothing without
 * findings.
 */
void	report_findings_text(FILE *, const struct diff_report *);
void	report_findings_md(FILE *, const struct diff_report *);

/* Colours of the text report on a terminal: regressed, improved. */
#define REPORT_RED	"\033[31m"
#define REPORT_GREEN	"\033[32m"
#define REPORT_RESET	"\033[0m"

/*
 * --list's and --peek's sections of a diff report (report_views.c),
 * each after the rows; JSON's are the members "list" and "peek".
 * Nothing is written without r->views.
 */
int	report_views_text(FILE *, const struct diff_report *r);
int	report_views_markdown(FILE *, const struct diff_report *r);
int	report_views_json(FILE *, const struct diff_report *r);
/*
 * The source files of --list's functions that --source-path would lead
 * outside its folders (a "../" in the name, a symbolic link): none is
 * read, and the writers say so; here a warning each (source-outside),
 * once a file, added to ds for the command to print.
 */
void	report_views_refused(const struct views *, const char *source_path,
	    struct diags *ds);

#endif
