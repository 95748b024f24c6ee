/*
 * Flame graph writers.  The SVG is one self-contained file: no fonts,
 * styles or scripts from outside, a small inline script for hover
 * details, zoom and search, and the header (inputs, test, filters,
 * legend) inside the image.  Folded stacks are written for the tools
 * that already read them (flamegraph.pl, difffolded.pl).
 *
 * Geometry, and nothing else, is decided here.  The root (all samples)
 * is at the bottom, as in the classic flame graph, and children sit on
 * their parent left to right in byte order of their names; what is
 * left at the right of a parent is its own (flat) time.  A frame's
 * width is its cumulative value on the width side (new, or base with
 * --flame-width base).  Frames flame.c did not mark visible (under
 * FLAME_MIN_SHARE of both sides) are not drawn: their width stays in
 * the parent as empty space, and the header says how many there are.
 * A visible frame that is (nearly) absent from the width side is drawn
 * as a hatched strip STRIP_PX wide, without its children, if its
 * change is significant or it held STRIP_SHARE of the other side (not
 * for every sample that happened to land elsewhere); the room for
 * the strips is taken from every other frame alike (all widths are
 * scaled by the same factor, which the header prints), so that a child
 * never leaves its parent.  At most MAX_STRIPS strips are drawn, those
 * with the largest share of the other side.
 *
 * Widths are shares of each side, whatever the table compares; colours
 * and verdicts are of the quantity it compares (flame.norm: shares,
 * rates, values per request), which a frame's title gives as the
 * table's rows do, and the header says which is which.
 */
#include <inttypes.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/delta.h"
#include "core/facts.h"
#include "core/flame.h"
#include "report/report.h"
#include "report/report_flame.h"
#include "support/units.h"
#include "support/xmalloc.h"

#define IMG_W		1200.0		/* the image */
#define PAD		10.0		/* left and right margins */
#define GRAPH_W		(IMG_W - 2 * PAD)
#define ROW_H		16		/* one frame row */
#define FRAME_H		15
#define HEAD_PAD	24		/* below the legend and buttons */
#define HEAD_PAD1	16		/* the same for one profile */
#define LINE_H		16		/* one line of the header */
#define FOOT_H		32		/* details of the frame under the mouse */
#define CHAR_W		6.6		/* 11px monospace, roughly */
#define TITLE_W		9.0		/* 15px bold monospace, the title */
#define LINE_C		((size_t)(GRAPH_W / CHAR_W))	/* a header line */
#define TITLE_C		((size_t)(GRAPH_W / TITLE_W))	/* the title */
#define MIN_PX		1.0		/* no narrower frame is drawn */
#define STRIP_PX	2.0		/* frames of the other side only */
#define MAX_STRIPS	((size_t)(GRAPH_W / 4 / STRIP_PX))
#define STRIP_SHARE	0.005		/* or significant, to be a strip */

enum fstate {
	F_OMIT = 0,
	F_REAL,
	F_STRIP,
};

/* The layout of one frame. */
struct fl_lay {
	double		 lay;	/* positive flat values of the subtree */
	double		 resid;	/* of frames flame.c did not make */
	double		 x, w;	/* pixels from the graph's left edge */
	size_t		 nstrip;	/* strips drawn in the subtree */
	enum fstate	 state;
};

struct layout {
	struct fl_lay	*l;
	double		 u;		/* pixels per unit of value */
	double		 scale;		/* u against a layout with no strips */
	size_t		 maxdepth;
	size_t		 ndrawn, nstrips, nomitted_strips, nnarrow;
	double		 omitted;	/* layout value not drawn */
	double		 head;		/* the header's height (put_header()) */
	double		 dmax;		/* largest |delta_n| of a change */
};

static int64_t
wcum(const struct flame_report *r, const struct flame_frame *f)
{
	return r->width_base ? f->base_cum : f->new_cum;
}

static int64_t
wflat(const struct flame_report *r, const struct flame_frame *f)
{
	return r->width_base ? f->base_flat : f->new_flat;
}

static double
wshare(const struct flame_report *r, const struct flame_frame *f)
{
	return r->width_base ? f->base_share : f->new_share;
}

static double
pos(int64_t v)
{
	return v > 0 ? (double)v : 0;
}

static int
cmp_strip(const void *a, const void *b)
{
	const double *x = a, *y = b;	/* {other share, index} */

	if (x[0] != y[0])
		return x[0] > y[0] ? -1 : 1;
	return x[1] < y[1] ? -1 : x[1] > y[1];
}

/* Strips per subtree, and u for them. */
static void
count_strips(const struct flame *fl, struct layout *ly)
{
	size_t i;

	for (i = 0; i < fl->nframes; i++)
		ly->l[i].nstrip = ly->l[i].state == F_STRIP;
	for (i = fl->nframes; i-- > 1;)
		ly->l[fl->frames[i].parent].nstrip += ly->l[i].nstrip;
	ly->nstrips = ly->l[0].nstrip;
	ly->u = ly->l[0].lay > 0 ? (GRAPH_W - STRIP_PX *
	    (double)ly->nstrips) / ly->l[0].lay : 0;
	ly->scale = ly->l[0].lay > 0 ? ly->u * ly->l[0].lay / GRAPH_W : 1;
}

static void
layout(const struct flame_report *r, struct layout *ly)
{
	const struct flame	*fl = r->fl;
	struct fl_lay		*l;
	double			*strips;
	size_t			 i, k, n, ns = 0;
	double			 x;

	memset(ly, 0, sizeof(*ly));
	l = ly->l = xcalloc(fl->nframes, sizeof(*l));
	/*
	 * Children have higher indices than their parents.  What frames
	 * flame.c did not make held is the residue of a frame's cum.
	 */
	for (i = fl->nframes; i-- > 0;) {
		const struct flame_frame *f = &fl->frames[i];
		int64_t kids = 0;

		l[i].lay = pos(wflat(r, f));
		for (k = 0; k < f->nkids; k++) {
			n = fl->kids[f->kid0 + k];
			kids += wcum(r, &fl->frames[n]);
			l[i].lay += l[n].lay;
		}
		l[i].resid = i == 0 ? 0 : pos(wcum(r, f) - wflat(r, f) - kids);
		l[i].lay += l[i].resid;
	}
	/* What is drawn, at the nominal scale. */
	l[0].state = F_REAL;
	/* Nothing to draw from an empty width side, not even strips. */
	for (i = 1; i < fl->nframes && l[0].lay > 0; i++) {
		const struct flame_frame *f = &fl->frames[i];

		if (l[f->parent].state != F_REAL || !f->visible)
			continue;
		if (l[i].lay * GRAPH_W / l[0].lay >= MIN_PX)
			l[i].state = F_REAL;
		else if (!fl->single && (f->verdict == VERDICT_REGRESSED ||
		    f->verdict == VERDICT_IMPROVED || fabs(r->width_base ?
		    f->new_share : f->base_share) >= STRIP_SHARE)) {
			l[i].state = F_STRIP;
			ns++;
		}
	}
	if (ns > MAX_STRIPS) {
		strips = xreallocarray(NULL, ns, 2 * sizeof(*strips));
		for (i = 1, k = 0; i < fl->nframes; i++)
			if (l[i].state == F_STRIP) {
				const struct flame_frame *f = &fl->frames[i];

				strips[2 * k] = fabs(r->width_base ?
				    f->new_share : f->base_share);
				strips[2 * k++ + 1] = (double)i;
			}
		qsort(strips, ns, 2 * sizeof(*strips), cmp_strip);
		for (k = MAX_STRIPS; k < ns; k++)
			l[(size_t)strips[2 * k + 1]].state = F_OMIT;
		ly->nomitted_strips = ns - MAX_STRIPS;
		free(strips);
	}
	count_strips(fl, ly);
	/*
	 * Frames the strips made narrower than MIN_PX go, with all above
	 * them; that only widens the rest.
	 */
	for (i = 1; i < fl->nframes; i++) {
		const struct flame_frame *f = &fl->frames[i];

		if (l[i].state == F_OMIT)
			continue;
		if (l[f->parent].state != F_REAL) {
			l[i].state = F_OMIT;
			continue;
		}
		if (l[i].state == F_REAL && ly->u * l[i].lay +
		    STRIP_PX * (double)l[i].nstrip < MIN_PX) {
			l[i].state = F_OMIT;
			ly->nnarrow++;
		}
	}
	count_strips(fl, ly);

	/* Positions, parents first. */
	l[0].x = 0;
	l[0].w = GRAPH_W;
	for (i = 0; i < fl->nframes; i++) {
		const struct flame_frame *f = &fl->frames[i];

		if (l[i].state == F_REAL || l[i].state == F_STRIP) {
			ly->ndrawn++;
			if (f->depth > ly->maxdepth)
				ly->maxdepth = f->depth;
			if (!fl->single && (f->verdict == VERDICT_REGRESSED ||
			    f->verdict == VERDICT_IMPROVED) &&
			    fabs(f->delta_n) > ly->dmax)
				ly->dmax = fabs(f->delta_n);
		}
		if (l[i].state != F_REAL)
			continue;
		ly->omitted += l[i].resid;
		x = l[i].x;
		for (k = 0; k < f->nkids; k++) {
			n = fl->kids[f->kid0 + k];
			l[n].x = x;
			switch (l[n].state) {
			case F_REAL:
				l[n].w = ly->u * l[n].lay +
				    STRIP_PX * (double)l[n].nstrip;
				break;
			case F_STRIP:
				l[n].w = STRIP_PX + ly->u * l[n].lay;
				break;
			default:
				l[n].w = ly->u * l[n].lay;
				ly->omitted += l[n].lay;
				break;
			}
			x += l[n].w;
		}
	}
}

/* The name, cut with ".." to fit w pixels; nothing under 3 characters. */
static void
put_label(FILE *fp, const char *name, double w)
{
	double	 c = floor((w - 6) / CHAR_W);
	size_t	 n;

	if (c < 3)
		return;
	n = (size_t)c;
	if (report_nchars(name) <= n)
		report_put_xml(fp, name, SIZE_MAX);
	else {
		report_put_xml(fp, name, report_prefix_bytes(name, n - 2));
		fputs("..", fp);
	}
}

static const char *
verdict_name(enum verdict v)
{
	switch (v) {
	case VERDICT_REGRESSED:
		return "grew (significant)";
	case VERDICT_IMPROVED:
		return "shrank (significant)";
	case VERDICT_UNCHANGED:
		return "not significant";
	default:
		return "too few samples";
	}
}

/* Are the frames judged in another quantity than their shares? */
static int
other_quantity(const struct flame_report *r)
{
	return !r->fl->single && r->fl->norm != DELTA_NORM_TOTAL &&
	    r->diff != NULL;
}

/*
 * The frame's value in the table's quantity and its change, as its rows
 * print them ("6.93ms/req -> 3.97ms/req: -2.96ms/req"), then its shares,
 * which its width is of.
 */
static void
put_quantity(FILE *fp, const struct flame_report *r,
    const struct flame_frame *f, const char *status)
{
	char	 b[UNITS_BUFSZ + 8], n[UNITS_BUFSZ + 8], d[UNITS_BUFSZ + 8];

	report_diff_norm(b, sizeof(b), f->base_cum_n, r->diff);
	report_diff_norm(n, sizeof(n), f->new_cum_n, r->diff);
	report_diff_delta(d, sizeof(d), f->delta_n, r->diff);
	report_put_xmlf(fp, "\n%s -> %s: %s%s", b, n, d, status);
	units_signed(d, sizeof(d), 100 * f->delta, 2);
	report_put_xmlf(fp, "\nwidth, share: new %.2f%%, base %.2f%%, "
	    "%s pp", 100 * f->new_share, 100 * f->base_share, d);
}

static void
put_title(FILE *fp, const struct flame_report *r, const struct flame_frame *f)
{
	const struct flame	*fl = r->fl;
	char			 v[UNITS_BUFSZ], p[16], q[16];
	const char		*status;

	/* The name's first line is the script's (tl()); the numbers follow. */
	fputs("<title>", fp);
	report_put_xml(fp, f->name, SIZE_MAX);
	if (fl->single) {
		units_label(v, sizeof(v), f->new_cum, r->h.new->unit,
		    r->out_unit ? r->out_unit : "auto");
		report_put_xmlf(fp, "\n%.2f%% (%s), self %.2f%%",
		    100 * f->new_share, v, fl->new_total != 0 ? 100 *
		    (double)f->new_flat / (double)fl->new_total : 0.0);
		fputs("</title>", fp);
		return;
	}
	status = f->status == STATUS_NEW ? " (only in new)" :
	    f->status == STATUS_GONE ? " (only in base)" : "";
	if (other_quantity(r))
		put_quantity(fp, r, f, status);
	else {
		units_signed(v, sizeof(v), 100 * f->delta, 2);
		report_put_xmlf(fp, "\nnew %.2f%%, base %.2f%%: %s pp%s",
		    100 * f->new_share, 100 * f->base_share, v, status);
	}
	report_put_xmlf(fp, "\nsamples: base %" PRId64 ", new %" PRId64,
	    f->base_count, f->new_count);
	if (f->parent == FLAME_NONE)
		report_put_xmlf(fp, "\nthe whole profile: not tested");
	else if (!r->h.has_counts)
		report_put_xmlf(fp, "\nnot tested: no sample counts");
	else if (!f->tested)
		report_put_xmlf(fp, "\nnot tested: too few samples");
	else {
		/* "<1e-300" is one of them. */
		report_put_p(p, sizeof(p), f->st.p);
		report_put_p(q, sizeof(q), f->q);
		report_put_xmlf(fp, "\np %s, q %s: %s", p, q,
		    verdict_name(f->verdict));
	}
	fputs("</title>", fp);
}

/* A warm colour from the name, as flamegraph.pl's "hot": no meaning. */
static void
hot_colour(char *buf, size_t len, const char *name)
{
	uint32_t h = 2166136261u;

	for (; *name != '\0'; name++)
		h = (h ^ (unsigned char)*name) * 16777619u;
	snprintf(buf, len, "rgb(%u,%u,%u)", 205 + h % 50, (h >> 8) % 230,
	    (h >> 16) % 55);
}

#define GREY_UNCHANGED	"rgb(208,208,208)"
#define GREY_FEW	"rgb(236,236,236)"

/* Red for growth, blue for shrinkage, deeper as the change is larger. */
static void
diff_colour(char *buf, size_t len, const struct flame_frame *f, double dmax)
{
	double	 t;
	int	 c;

	if (f->parent == FLAME_NONE || f->verdict == VERDICT_INSUFFICIENT) {
		snprintf(buf, len, GREY_FEW);
		return;
	}
	if (f->verdict == VERDICT_UNCHANGED) {
		snprintf(buf, len, GREY_UNCHANGED);
		return;
	}
	t = dmax > 0 ? fabs(f->delta_n) / dmax : 1;
	t = 0.25 + 0.75 * (t > 1 ? 1 : t);
	c = (int)lround(235 * (1 - t));
	if (f->verdict == VERDICT_REGRESSED)
		snprintf(buf, len, "rgb(255,%d,%d)", c, c);
	else
		snprintf(buf, len, "rgb(%d,%d,255)", c, c);
}

static void
put_frame(FILE *fp, const struct flame_report *r, const struct layout *ly,
    size_t i)
{
	const struct flame	*fl = r->fl;
	const struct flame_frame *f = &fl->frames[i];
	const struct fl_lay	*l = &ly->l[i];
	char			 col[40];
	double			 self = 0, omit = 0, y;
	size_t			 k, n;

	if (l->state == F_REAL) {
		self = ly->u * pos(wflat(r, f));
		omit = ly->u * l->resid;
		for (k = 0; k < f->nkids; k++) {
			n = fl->kids[f->kid0 + k];
			if (ly->l[n].state == F_OMIT)
				omit += ly->l[n].w;
		}
	}
	y = ly->head + (double)(ly->maxdepth - f->depth) * ROW_H;
	if (fl->single)
		hot_colour(col, sizeof(col), f->name);
	else
		diff_colour(col, sizeof(col), f, ly->dmax);
	fprintf(fp, "<g class=\"f%s\" data-s=\"%.2f\" data-o=\"%.2f\" "
	    "data-p=\"%.6f\">", l->state == F_STRIP ? " s" : "", self, omit,
	    wshare(r, f));
	put_title(fp, r, f);
	fprintf(fp, "<rect x=\"%.2f\" y=\"%.0f\" width=\"%.2f\" "
	    "height=\"%d\" fill=\"%s\"/>", PAD + l->x, y, l->w, FRAME_H, col);
	if (l->state == F_STRIP)
		fprintf(fp, "<rect x=\"%.2f\" y=\"%.0f\" width=\"%.2f\" "
		    "height=\"%d\" fill=\"url(#hatch)\"/>", PAD + l->x, y, l->w,
		    FRAME_H);
	fprintf(fp, "<text x=\"%.2f\" y=\"%.0f\">", PAD + l->x + 3, y + 11);
	put_label(fp, f->name, l->w);
	fputs("</text></g>\n", fp);
}

/*
 * The script: hover shows a frame's title in the line at the bottom;
 * a click zooms into the frame (its ancestors span the width, frames
 * outside it hide); the root or "Reset zoom" undoes it; "Search" marks
 * the frames whose name matches a regular expression and sums their
 * share of the width side, counting nested matches once.
 */
static const char script[] =
"var F=[],GW=1180,X0=10,CW=6.6,det,mat;\n"
"function tl(g){return g.getElementsByTagName('title')[0].textContent;}\n"
"function fit(n,w){var c=Math.floor((w-6)/CW);if(c<3)return '';"
"return n.length<=c?n:n.substr(0,c-2)+'..';}\n"
"function init(){det=document.getElementById('det');"
"mat=document.getElementById('mat');\n"
" var gs=document.getElementsByClassName('f');\n"
" for(var i=0;i<gs.length;i++){var g=gs[i],rs=g.getElementsByTagName('rect'),"
"e={g:g,rs:rs,t:g.getElementsByTagName('text')[0],"
"x:+rs[0].getAttribute('x')-X0,w:+rs[0].getAttribute('width'),"
"y:+rs[0].getAttribute('y'),n:tl(g).split('\\n')[0],"
"p:+g.getAttribute('data-p')};F.push(e);\n"
"  g.onclick=(function(e){return function(){zoom(e);};})(e);\n"
"  g.onmouseover=(function(e){return function(){"
"det.textContent=tl(e.g).replace(/\\n/g,'   ');};})(e);\n"
"  g.onmouseout=function(){det.textContent=' ';};}\n"
" document.documentElement.setAttribute('data-frames',F.length);}\n"
"function place(e,x,w){for(var k=0;k<e.rs.length;k++){"
"e.rs[k].setAttribute('x',(X0+x).toFixed(2));"
"e.rs[k].setAttribute('width',w.toFixed(2));}"
"e.t.setAttribute('x',(X0+x+3).toFixed(2));e.t.textContent=fit(e.n,w);"
"e.g.style.display='';}\n"
"function zoom(z){var s=GW/z.w;for(var i=0;i<F.length;i++){var e=F[i];\n"
" if(e.y>z.y){if(e.x<=z.x+.02&&e.x+e.w>=z.x+z.w-.02)place(e,0,GW);"
"else e.g.style.display='none';}\n"
" else if(e.x>=z.x-.02&&e.x+e.w<=z.x+z.w+.02)place(e,(e.x-z.x)*s,e.w*s);\n"
" else e.g.style.display='none';}}\n"
"function reset(){zoom(F[0]);}\n"
"function search(){var t=prompt('Frames whose name matches "
"(a regular expression):','');if(t)mark(t);}\n"
"function mark(t){var re,end=-1,sum=0;try{re=new RegExp(t);}"
"catch(x){mat.textContent='not a regular expression';return;}\n"
" for(var i=0;i<F.length;i++){var e=F[i],m=re.test(e.n);\n"
"  if(m){e.rs[0].setAttribute('stroke','#c0c');"
"e.rs[0].setAttribute('stroke-width','2');}"
"else e.rs[0].removeAttribute('stroke');\n"
"  if(m&&e.x>=end-.02){sum+=e.p;end=e.x+e.w;}}\n"
" mat.textContent='Matched: '+(100*sum).toFixed(2)+'% of '+SIDE;}\n"
"function clr(){for(var i=0;i<F.length;i++)"
"F[i].rs[0].removeAttribute('stroke');mat.textContent=' ';}\n";

static void
put_text(FILE *fp, double x, double y, const char *attrs, const char *s)
{
	fprintf(fp, "<text x=\"%.0f\" y=\"%.0f\"%s>", x, y, attrs);
	report_put_xml(fp, s, SIZE_MAX);
	fputs("</text>\n", fp);
}

/*
 * Text of the header at x, in lines of at most max characters, broken
 * at spaces (a word longer than a line is cut), each a <text> LINE_H
 * below the one before and, but for the first, indent characters in;
 * tip, unless NULL, is the whole text as the first line's tooltip.  *y
 * is the first line's baseline, and is left at the last one's.  So that
 * no file name, filter or sentence is cut off at the image's edge.
 */
static void
put_lines(FILE *fp, double x, double *y, const char *attrs, const char *s,
    size_t max, size_t indent, const char *tip)
{
	const char	*p = s;
	size_t		 b, k, room = max;

	for (;;) {
		b = strlen(p);
		if (report_nchars(p) > room) {
			b = report_prefix_bytes(p, room);
			for (k = b; k > 0 && p[k] != ' '; k--)
				;
			if (k > 0)
				b = k;
		}
		fprintf(fp, "<text x=\"%.0f\" y=\"%.0f\"%s>", x, *y, attrs);
		if (tip != NULL) {
			fputs("<title>", fp);
			report_put_xml(fp, tip, SIZE_MAX);
			fputs("</title>", fp);
			tip = NULL;
		}
		report_put_xml(fp, p, b);
		fputs("</text>\n", fp);
		for (p += b; *p == ' '; p++)
			;
		if (*p == '\0')
			break;
		if (room == max) {
			x += (double)indent * CHAR_W;
			room = max > 2 * indent ? max - indent : max;
		}
		*y += LINE_H;
	}
}

/*
 * What a side's facts are of: the profile's path, or "N profiles merged"
 * (merged facts keep no path).  buf holds len bytes.
 */
static const char *
side_name(char *buf, size_t len, const struct facts *f, size_t nprofiles)
{
	if (f->path != NULL)
		return f->path;
	snprintf(buf, len, "%zu profiles merged", nprofiles);
	return buf;
}

/*
 * A side's line, "Base: path: N samples, cpu 9.96s" or "Base: 3
 * profiles merged: ...", in a line of the header: the path elided to
 * fit, the whole line its tooltip then.
 */
static void
put_side(FILE *fp, double *y, const char *label, const struct facts *f,
    size_t nprofiles, const char *to)
{
	char	 tot[UNITS_BUFSZ], more[48] = "", smp[48], nm[48];
	char	*rest, *path, *whole;
	const char *name = side_name(nm, sizeof(nm), f, nprofiles);
	size_t	 used;

	units_label(tot, sizeof(tot), f->total, f->unit, to ? to : "auto");
	if (nprofiles > 1 && f->path != NULL)
		snprintf(more, sizeof(more), " and %zu more", nprofiles - 1);
	if (f->samples >= 0)
		snprintf(smp, sizeof(smp), "%" PRId64 " samples", f->samples);
	else
		snprintf(smp, sizeof(smp), "no sample counts");
	xasprintf(&rest, "%s: %s, %s %s", more, smp, f->sample_type, tot);
	used = report_nchars(label) + 1 + report_nchars(rest);
	path = report_elide(name, used < LINE_C ? LINE_C - used : 0);
	xasprintf(&whole, "%s %s%s", label, name, rest);
	free(rest);
	xasprintf(&rest, "%s %s%s: %s, %s %s", label, path, more, smp,
	    f->sample_type, tot);
	put_lines(fp, PAD, y, "", rest, LINE_C, 2, strcmp(path, name) != 0 ?
	    whole : NULL);
	free(path);
	free(whole);
	free(rest);
}

/*
 * The title, "Flame graph: path" or "Differential flame graph: base ->
 * new", the paths elided to fit the width, the whole title its tooltip
 * then.
 */
static void
put_title_line(FILE *fp, double *y, const struct flame_report *r)
{
	const char	*pre = r->fl->single ? "Flame graph: " :
			    "Differential flame graph: ";
	char		 an[48], bn[48];
	const char	*a = r->fl->single ? NULL : side_name(an, sizeof(an),
			    r->h.base, r->h.nbase);
	const char	*b = side_name(bn, sizeof(bn), r->h.new, r->h.nnew);
	size_t		 room, na, nb, half;
	char		*ea, *eb, *line, *whole;

	room = TITLE_C - report_nchars(pre) - (a != NULL ? 4 : 0);
	na = a != NULL ? report_nchars(a) : 0;
	nb = report_nchars(b);
	half = a != NULL ? room / 2 : room;
	/* What one path leaves of its half, the other may take. */
	ea = a != NULL ? report_elide(a, na < half ? na : nb < half ?
	    room - nb : half) : NULL;
	eb = report_elide(b, a == NULL ? room : nb < half ? nb : na < half ?
	    room - na : half);
	if (a != NULL) {
		xasprintf(&line, "%s%s -> %s", pre, ea, eb);
		xasprintf(&whole, "%s%s -> %s", pre, a, b);
	} else {
		xasprintf(&line, "%s%s", pre, eb);
		xasprintf(&whole, "%s%s", pre, b);
	}
	put_lines(fp, IMG_W / 2, y, " class=\"h\"", line, TITLE_C, 0,
	    strcmp(line, whole) != 0 ? whole : NULL);
	free(ea);
	free(eb);
	free(line);
	free(whole);
}

static void
swatch(FILE *fp, double x, double y, const char *fill, const char *label)
{
	fprintf(fp, "<rect x=\"%.0f\" y=\"%.0f\" width=\"14\" height=\"12\" "
	    "fill=\"%s\" stroke=\"#888\" stroke-width=\".5\"/>", x, y - 10,
	    fill);
	put_text(fp, x + 18, y, "", label);
}

/*
 * A line of the header, LINE_H below the last (gap more), wrapped to
 * the width.
 */
static void
put_hline(FILE *fp, double *y, double gap, const char *s)
{
	*y += LINE_H + gap;
	put_lines(fp, PAD, y, "", s, LINE_C, 2, NULL);
}

/*
 * The test line: the table's method, over the frames; --min-effect's
 * points as the table prints them (two digits when a wait's floor set
 * them, and the floor).
 */
static void
put_test(FILE *fp, double *y, const struct flame_report *r)
{
	const struct flame	*fl = r->fl;
	char			 u[UNITS_BUFSZ], floor[UNITS_BUFSZ + 96] = "";
	char			 pp[32], *s;

	snprintf(pp, sizeof(pp), r->h.min_floor > 0 ? "%.2g" : "%g",
	    r->h.min_effect_pp);
	if (r->diff != NULL && r->diff->d->exposure) {
		/* The frames are judged in the table's quantity. */
		report_diff_min_effect(floor, sizeof(floor), r->diff);
		pp[0] = '\0';
	} else if (r->h.min_floor > 0 && r->diff != NULL) {
		units_label(u, sizeof(u), llround(r->h.min_floor),
		    r->diff->unit, r->out_unit ? r->out_unit : "auto");
		snprintf(floor, sizeof(floor), ", %s/s (1%% of one thread's "
		    "time; 1pp of this level is more)", u);
	}
	xasprintf(&s, "Test: %s; Benjamini-Hochberg at %g over the %zu of %zu "
	    "frames drawn that can reach it (Tarone); minimum effect %s%s%s "
	    "and %g%%.", r->h.method, r->h.alpha, fl->judge.fdr.kept,
	    fl->ntested, pp, pp[0] != '\0' ? "pp" : "", floor,
	    r->h.min_effect_rel);
	put_hline(fp, y, 0, s);
	free(s);
}

/* What the table's quantity is a value of: per second, per request. */
static const char *
quantity_of(enum delta_norm norm)
{
	switch (norm) {
	case DELTA_NORM_DURATION:
		return "value per second of window";
	case DELTA_NORM_REQUESTS:
		return "value per request";
	default:
		return "value (a side's mean)";
	}
}

/*
 * What the widths and the colours are: shares of each side, or, when
 * the table compares another quantity, shares for the widths and that
 * quantity for the colours, the tests and the verdicts, as the table's.
 */
static void
put_legend(FILE *fp, double *y, const struct flame_report *r,
    const struct layout *ly)
{
	const struct flame	*fl = r->fl;
	const char		*side = r->width_base ? "base" : "new";
	char			 buf[1024], dm[UNITS_BUFSZ + 8];

	if (!other_quantity(r)) {
		snprintf(buf, sizeof(buf), "Width: a frame's cumulative share "
		    "of the %s profile. Colour: the change of that share, new "
		    "- base, where it is significant; deeper is larger "
		    "(deepest: %.2f pp).", side, 100 * ly->dmax);
		put_hline(fp, y, 0, buf);
		return;
	}
	report_diff_norm(dm, sizeof(dm), ly->dmax, r->diff);
	if (fl->exposure)
		snprintf(buf, sizeof(buf), "Width: a frame's cumulative share "
		    "of the %s profile. Colour and test: the change of its %s, "
		    "new - base, tested as the table's rows are (not the "
		    "change of its share), where it is significant; deeper is "
		    "larger (deepest: %s).", side, quantity_of(fl->norm), dm);
	else
		snprintf(buf, sizeof(buf), "Width: a frame's cumulative share "
		    "of the %s profile. Colour: the change of its %s, new - "
		    "base, where the test of its share of each side's samples "
		    "(the table's rows' test too) is significant and goes the "
		    "same way; deeper is larger (deepest: %s).", side,
		    quantity_of(fl->norm), dm);
	put_hline(fp, y, 0, buf);
}

/*
 * --base-tag, --new-tag: the samples each side is, and one profile as
 * both sides, in a line of the header.
 */
static void
put_sel(FILE *fp, double *y, const struct report_head *h)
{
	char	 kept[256], one[256], *s = NULL, *t;
	int	 i;

	for (i = 0; i < 2; i++) {
		if (h->sel[i] == NULL)
			continue;
		report_sel_kept(kept, sizeof(kept), h->sel[i]);
		xasprintf(&t, "%s%s%s, %s", s != NULL ? s : "Selected: ",
		    s != NULL ? "; " : "", h->sel[i]->terms, kept);
		free(s);
		s = t;
	}
	if (s == NULL)
		return;
	if (report_sel_sides(one, sizeof(one), h) != NULL) {
		xasprintf(&t, "%s; %s", s, one);
		free(s);
		s = t;
	}
	put_hline(fp, y, 0, s);
	free(s);
}

/*
 * The header: title, inputs, test, legend and buttons.  Returns the
 * height it takes, which depends on how many lines its text needed.
 */
static double
put_header(FILE *fp, const struct flame_report *r, const struct layout *ly)
{
	const struct flame	*fl = r->fl;
	char			 buf[1024], *s;
	double			 y = 22;

	put_title_line(fp, &y, r);
	y += LINE_H + 4;
	if (fl->single) {
		put_side(fp, &y, "Profile:", r->h.new, r->h.nnew, r->out_unit);
		put_hline(fp, &y, 0, "Width: a frame's cumulative "
		    "share of the profile's total. Colour: a warm hue from "
		    "the name, with no meaning.");
	} else {
		put_side(fp, &y, "Base:", r->h.base, r->h.nbase, r->out_unit);
		y += LINE_H;
		put_side(fp, &y, "New: ", r->h.new, r->h.nnew, r->out_unit);
		put_test(fp, &y, r);
		put_legend(fp, &y, r, ly);
	}
	xasprintf(&s, "Filters: %s", r->h.filters != NULL ? r->h.filters :
	    "none");
	put_hline(fp, &y, 0, s);
	free(s);
	put_sel(fp, &y, &r->h);
	snprintf(buf, sizeof(buf), "Not drawn: frames under %g%% of %s "
	    "profile%s", 100 * fl->min_share, fl->single ? "the" : "both",
	    fl->single ? "" : "s");
	if (ly->nnarrow > 0 || ly->nomitted_strips > 0)
		snprintf(buf + strlen(buf), sizeof(buf) - strlen(buf),
		    ", and %zu narrower than %g px", ly->nnarrow +
		    ly->nomitted_strips, MIN_PX);
	snprintf(buf + strlen(buf), sizeof(buf) - strlen(buf), ": %.2f%% "
	    "of the %s, left as empty space.", ly->l[0].lay > 0 ?
	    100 * ly->omitted / ly->l[0].lay : 0.0, fl->single ?
	    "profile" : r->width_base ? "base profile" : "new profile");
	put_hline(fp, &y, 0, buf);
	if (!fl->single) {
		snprintf(buf, sizeof(buf), "Hatched: %zu frames (nearly) "
		    "absent from the %s profile, drawn %g px wide if they held "
		    "%g%% of the %s or changed significantly; all widths are "
		    "scaled by %.2f%% to make room.", ly->nstrips,
		    r->width_base ? "base" : "new", STRIP_PX, 100 * STRIP_SHARE,
		    r->width_base ? "new" : "base", 100 * ly->scale);
		put_hline(fp, &y, 0, buf);
	}

	y += 22;
	if (!fl->single) {
		swatch(fp, PAD, y, "rgb(255,59,59)", "grew");
		swatch(fp, PAD + 80, y, "rgb(59,59,255)", "shrank");
		swatch(fp, PAD + 170, y, GREY_UNCHANGED, "not significant");
		swatch(fp, PAD + 320, y, GREY_FEW, "too few samples");
		fprintf(fp, "<rect x=\"%.0f\" y=\"%.0f\" width=\"14\" "
		    "height=\"12\" fill=\"url(#hatch)\" stroke=\"#888\" "
		    "stroke-width=\".5\"/>", PAD + 470, y - 10);
		snprintf(buf, sizeof(buf), "only or mostly in the %s profile",
		    r->width_base ? "new" : "base");
		put_text(fp, PAD + 488, y, "", buf);
	}
	fprintf(fp, "<text x=\"%.0f\" y=\"%.0f\" class=\"b\" "
	    "onclick=\"reset()\">[Reset zoom]</text>\n", IMG_W - 290, y);
	fprintf(fp, "<text x=\"%.0f\" y=\"%.0f\" class=\"b\" "
	    "onclick=\"search()\">[Search]</text>\n", IMG_W - 180, y);
	fprintf(fp, "<text x=\"%.0f\" y=\"%.0f\" class=\"b\" "
	    "onclick=\"clr()\">[Clear]</text>\n", IMG_W - 100, y);
	return y + (fl->single ? HEAD_PAD1 : HEAD_PAD);
}

int
report_flame_svg(FILE *fp, const struct flame_report *r)
{
	const struct flame	*fl = r->fl;
	struct layout		 ly;
	size_t			*stack, sp = 0, i, k, hlen = 0;
	double			 h;
	char			*head = NULL;
	FILE			*hfp;

	layout(r, &ly);
	/* The header first: its lines decide where the frames begin. */
	if ((hfp = open_memstream(&head, &hlen)) == NULL) {
		free(ly.l);
		return -1;
	}
	ly.head = put_header(hfp, r, &ly);
	if (fclose(hfp) != 0) {
		free(head);
		free(ly.l);
		return -1;
	}
	h = ly.head + (double)(ly.maxdepth + 1) * ROW_H + FOOT_H;
	fputs("<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"no\"?>\n",
	    fp);
	fprintf(fp, "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" "
	    "width=\"%.0f\" height=\"%.0f\" viewBox=\"0 0 %.0f %.0f\" "
	    "onload=\"init()\">\n", IMG_W, h, IMG_W, h);
	fprintf(fp, "<!-- profdiff %s flame graph.  Frames under %g%% of %s "
	    "and frames narrower than %g px are not drawn (see the header), "
	    "so that the file stays small; each frame's <title> has its "
	    "exact numbers. -->\n", fl->single ? "" : "differential",
	    100 * fl->min_share, fl->single ? "the profile" :
	    "both profiles", MIN_PX);
	fputs("<defs><pattern id=\"hatch\" width=\"4\" height=\"4\" "
	    "patternUnits=\"userSpaceOnUse\" patternTransform=\"rotate(45)\">"
	    "<rect width=\"2\" height=\"4\" fill=\"#000\" fill-opacity=\".5\"/>"
	    "</pattern></defs>\n", fp);
	fputs("<style>text{font-family:monospace;font-size:11px;fill:#000}"
	    "text.h{font-size:15px;font-weight:bold;text-anchor:middle}"
	    "text.b{cursor:pointer;fill:#00c}"
	    "g.f text{pointer-events:none}g.f:hover rect{stroke:#000;"
	    "stroke-width:.5}</style>\n", fp);
	fprintf(fp, "<script type=\"text/ecmascript\"><![CDATA[\n"
	    "var SIDE='%s';\n%s]]></script>\n", fl->single ? "the profile" :
	    r->width_base ? "base" : "new", script);
	fprintf(fp, "<rect width=\"%.0f\" height=\"%.0f\" fill=\"#fff\"/>\n",
	    IMG_W, h);
	fwrite(head, 1, hlen, fp);
	free(head);

	/* Frames in preorder, so that a parent comes before its children. */
	stack = xreallocarray(NULL, fl->nframes + 1, sizeof(*stack));
	stack[sp++] = 0;
	while (sp > 0) {
		const struct flame_frame *f;

		i = stack[--sp];
		f = &fl->frames[i];
		put_frame(fp, r, &ly, i);
		if (ly.l[i].state != F_REAL)
			continue;
		for (k = f->nkids; k-- > 0;)
			if (ly.l[fl->kids[f->kid0 + k]].state != F_OMIT)
				stack[sp++] = fl->kids[f->kid0 + k];
	}
	free(stack);

	fprintf(fp, "<text id=\"det\" x=\"%.0f\" y=\"%.0f\"> </text>\n", PAD,
	    h - 12);
	fprintf(fp, "<text id=\"mat\" x=\"%.0f\" y=\"%.0f\" "
	    "style=\"text-anchor:end\"> </text>\n", IMG_W - PAD, h - 12);
	fputs("</svg>\n", fp);
	free(ly.l);
	return ferror(fp) ? -1 : 0;
}

/*
 * One line per frame with its own (flat) value on either side: the
 * names from the root, ';'-separated, then the base and new values
 * (only the value for one profile).  Lines come in depth-first order
 * with children by name, which is the order of the stacks compared
 * frame by frame.
 */
int
report_flame_folded(FILE *fp, const struct flame_report *r)
{
	const struct flame	*fl = r->fl;
	size_t			*stack, *path, sp = 0, i, k, d;

	stack = xreallocarray(NULL, fl->nframes + 1, sizeof(*stack));
	path = xreallocarray(NULL, fl->nframes + 1, sizeof(*path));
	for (k = fl->frames[0].nkids; k-- > 0;)
		stack[sp++] = fl->kids[fl->frames[0].kid0 + k];
	while (sp > 0) {
		const struct flame_frame *f;

		i = stack[--sp];
		f = &fl->frames[i];
		path[f->depth - 1] = i;
		if (f->new_flat != 0 || (!fl->single && f->base_flat != 0)) {
			for (d = 0; d < f->depth; d++) {
				if (d > 0)
					fputc(';', fp);
				report_put_folded(fp, fl->frames[path[d]].name);
			}
			if (fl->single)
				fprintf(fp, " %" PRId64 "\n", f->new_flat);
			else
				fprintf(fp, " %" PRId64 " %" PRId64 "\n",
				    f->base_flat, f->new_flat);
		}
		for (k = f->nkids; k-- > 0;)
			stack[sp++] = fl->kids[f->kid0 + k];
	}
	free(stack);
	free(path);
	return ferror(fp) ? -1 : 0;
}
