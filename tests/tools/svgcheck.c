/*
 * svgcheck: the geometry of profdiff's flame graph SVGs.  For every
 * frame (a <g class="f ..."> whose first <rect> is the frame), in the
 * preorder the writer emits them: every frame is at least the minimum
 * drawn width; a child sits one row above its parent and inside its
 * x-range; siblings do not overlap; the children's widths, the parent's
 * own width (data-s) and the width of its omitted children (data-o) add
 * up to at most the parent's width, and exactly (within the rounding of
 * two decimals) where nothing was omitted.
 *
 * The charts of profdiff series (a <g class="chart VERDICT"> each,
 * stacked in equal bands) are checked instead when there are no frames:
 * every point (<circle>) lies inside its chart's band and the width,
 * every interval (<line class="ci">) is vertical with its low end below
 * its high end, and each chart marks one change (<line class="cp">), or
 * two for a transient.
 *
 *	svgcheck [-m min_px] file.svg ...
 *
 * Exit 0 if every file passes, 1 with one line per problem otherwise.
 */
#include <err.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define ROW_H	16

struct frame {
	double	 x, y, w, self, omit;
	double	 kids;		/* sum of the children's widths */
	double	 end;		/* right edge of the last child */
	size_t	 nkids;
	size_t	 parent;
};

static double
attr(const char *from, const char *limit, const char *name, int *ok)
{
	char		 key[32];
	const char	*p;

	snprintf(key, sizeof(key), " %s=\"", name);
	p = strstr(from, key);
	if (p == NULL || (limit != NULL && p > limit)) {
		*ok = 0;
		return 0;
	}
	return strtod(p + strlen(key), NULL);
}

static char *
slurp(const char *path)
{
	FILE	*fp = fopen(path, "rb");
	char	*buf = NULL;
	size_t	 len = 0, cap = 0, n;

	if (fp == NULL)
		err(2, "%s", path);
	for (;;) {
		if (cap - len < 65536) {
			cap = cap ? 2 * cap : 1 << 20;
			if ((buf = realloc(buf, cap + 1)) == NULL)
				err(2, NULL);
		}
		if ((n = fread(buf + len, 1, cap - len, fp)) == 0)
			break;
		len += n;
	}
	if (ferror(fp))
		err(2, "%s", path);
	fclose(fp);
	buf[len] = '\0';
	return buf;
}

/* The charts of a series SVG; 0 if sound, 1 after a line a problem. */
static int
check_charts(const char *path, const char *buf)
{
	const char	*p, *g, *end;
	double		 W, H, band, lo, hi, v;
	size_t		 n = 0, k, cps;
	int		 ok = 1, bad = 0, transient;

	W = attr(buf, NULL, "width", &ok);
	H = attr(buf, NULL, "height", &ok);
	for (p = buf; (p = strstr(p, "<g class=\"chart ")) != NULL; p++)
		n++;
	if (!ok || n == 0) {
		printf("svgcheck: %s: no frames and no charts\n", path);
		return 1;
	}
	band = H / (double)n;
	for (g = buf, k = 0; (g = strstr(g, "<g class=\"chart ")) != NULL;
	    g++, k++) {
		end = strstr(g, "</g>");
		transient = strncmp(g + 16, "transient", 9) == 0;
		lo = band * (double)k;
		hi = lo + band;
		for (p = g; (p = strstr(p, "<circle ")) != NULL && p < end;
		    p++) {
			v = attr(p, end, "cy", &ok);
			if (!ok || v < lo || v > hi || attr(p, end, "cx",
			    &ok) < 0 || attr(p, end, "cx", &ok) > W) {
				printf("svgcheck: %s: chart %zu: a point "
				    "outside its band\n", path, k);
				bad = 1;
			}
		}
		for (p = g; (p = strstr(p, "<line class=\"ci\"")) != NULL &&
		    p < end; p++)
			if (attr(p, end, "x1", &ok) != attr(p, end, "x2", &ok) ||
			    attr(p, end, "y1", &ok) < attr(p, end, "y2", &ok)) {
				printf("svgcheck: %s: chart %zu: an interval "
				    "that is not upright\n", path, k);
				bad = 1;
			}
		for (p = g, cps = 0; (p = strstr(p, "<line class=\"cp\"")) !=
		    NULL && p < end; p++)
			cps++;
		if (cps != (transient ? 2u : 1u)) {
			printf("svgcheck: %s: chart %zu: %zu changes marked\n",
			    path, k, cps);
			bad = 1;
		}
	}
	if (!bad)
		printf("svgcheck: %s: %zu charts ok\n", path, n);
	return bad;
}

static int
check(const char *path, double minpx)
{
	char		*buf = slurp(path), *p, *gend;
	struct frame	*f = NULL;
	size_t		 n = 0, cap = 0, *stack = NULL, sp = 0, i;
	int		 bad = 0, ok;
	double		 tol;

	for (p = buf; (p = strstr(p, "<g class=\"f")) != NULL; p++) {
		char *r;

		if (n == cap) {
			cap = cap ? 2 * cap : 1024;
			f = reallocarray(f, cap, sizeof(*f));
			stack = reallocarray(stack, cap, sizeof(*stack));
			if (f == NULL || stack == NULL)
				err(2, NULL);
		}
		memset(&f[n], 0, sizeof(f[n]));
		gend = strchr(p, '>');
		ok = 1;
		f[n].self = attr(p, gend, "data-s", &ok);
		f[n].omit = attr(p, gend, "data-o", &ok);
		r = strstr(p, "<rect");
		if (r == NULL) {
			ok = 0;
			r = p;
		}
		f[n].x = attr(r, NULL, "x", &ok);
		f[n].y = attr(r, NULL, "y", &ok);
		f[n].w = attr(r, NULL, "width", &ok);
		if (!ok) {
			printf("svgcheck: %s: frame %zu: attributes missing\n",
			    path, n);
			bad = 1;
			break;
		}
		while (sp > 0 && f[stack[sp - 1]].y <= f[n].y)
			sp--;
		f[n].parent = sp > 0 ? stack[sp - 1] : SIZE_MAX;
		if (n > 0 && sp == 0) {
			printf("svgcheck: %s: frame %zu: a second root\n", path,
			    n);
			bad = 1;
		}
		if (f[n].w < minpx - 0.005) {
			printf("svgcheck: %s: frame %zu: %.2f px wide, under "
			    "the minimum %.2f\n", path, n, f[n].w, minpx);
			bad = 1;
		}
		if (f[n].parent != SIZE_MAX) {
			struct frame *pa = &f[f[n].parent];

			if (fabs(pa->y - ROW_H - f[n].y) > 1e-9) {
				printf("svgcheck: %s: frame %zu: not one row "
				    "above its parent\n", path, n);
				bad = 1;
			}
			if (f[n].x < pa->x - 0.02 ||
			    f[n].x + f[n].w > pa->x + pa->w + 0.02) {
				printf("svgcheck: %s: frame %zu: [%.2f, %.2f] "
				    "outside its parent [%.2f, %.2f]\n", path,
				    n, f[n].x, f[n].x + f[n].w, pa->x,
				    pa->x + pa->w);
				bad = 1;
			}
			if (pa->nkids > 0 && f[n].x < pa->end - 0.02) {
				printf("svgcheck: %s: frame %zu: overlaps its "
				    "left sibling\n", path, n);
				bad = 1;
			}
			pa->kids += f[n].w;
			pa->end = f[n].x + f[n].w;
			pa->nkids++;
		}
		stack[sp++] = n++;
	}
	if (n == 0 && strstr(buf, "<g class=\"chart ") != NULL) {
		bad = check_charts(path, buf);
		free(f);
		free(stack);
		free(buf);
		return bad;
	}
	if (n == 0) {
		printf("svgcheck: %s: no frames\n", path);
		bad = 1;
	}
	for (i = 0; i < n; i++) {
		tol = 0.01 * (double)(f[i].nkids + 2);
		if (f[i].nkids == 0 && f[i].self == 0 && f[i].omit == 0)
			continue;	/* a strip, or a leaf with no value */
		if (f[i].kids + f[i].self + f[i].omit > f[i].w + tol) {
			printf("svgcheck: %s: frame %zu: children %.2f + self "
			    "%.2f + omitted %.2f exceed its width %.2f\n", path,
			    i, f[i].kids, f[i].self, f[i].omit, f[i].w);
			bad = 1;
		}
		if (f[i].omit == 0 && fabs(f[i].kids + f[i].self - f[i].w) >
		    tol) {
			printf("svgcheck: %s: frame %zu: children %.2f + self "
			    "%.2f differ from its width %.2f\n", path, i,
			    f[i].kids, f[i].self, f[i].w);
			bad = 1;
		}
	}
	if (!bad)
		printf("svgcheck: %s: %zu frames ok\n", path, n);
	free(f);
	free(stack);
	free(buf);
	return bad;
}

int
main(int argc, char **argv)
{
	double	 minpx = 1;
	int	 c, bad = 0;

	while ((c = getopt(argc, argv, "m:")) != -1) {
		switch (c) {
		case 'm':
			minpx = strtod(optarg, NULL);
			break;
		default:
			fprintf(stderr, "usage: svgcheck [-m min_px] "
			    "file.svg ...\n");
			return 2;
		}
	}
	if (optind == argc) {
		fprintf(stderr, "usage: svgcheck [-m min_px] file.svg ...\n");
		return 2;
	}
	for (; optind < argc; optind++)
		bad |= check(argv[optind], minpx);
	return bad;
}
