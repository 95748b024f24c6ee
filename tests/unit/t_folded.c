/*
 * Folded-stack decoder tests: text decoded with folded_decode() (and
 * through pprof_decode(), raw and gzipped, to check detection), the
 * model checked field by field, then one broken rule at a time, each of
 * which must be refused with its exact one-line message and line number.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "support/diag.h"
#include "input/folded.h"
#include "profdiff.h"
#include "input/input.h"
#include "model/profile.h"
#include "tap.h"

#define TDECODE		folded_decode
#define TDECODE_PATH	"t.folded"
#include "tdecode.h"

/* The frame names of sample i, leaf first, joined by '|'. */
static const char *
stack(const struct profile *p, size_t i)
{
	static char	 buf[512];
	size_t		 j, off = 0;

	buf[0] = '\0';
	if (i >= p->nsamples)
		return "(no sample)";
	for (j = 0; j < p->samples[i].nlocs && off < sizeof(buf); j++)
		off += (size_t)snprintf(buf + off, sizeof(buf) - off, "%s%s",
		    j ? "|" : "", p->samples[i].locs[j]->lines[0].function->name);
	return buf;
}

static void
test_model(void)
{
	struct profile		*p;
	const struct pf_location *l;
	size_t			 i;

	p = dec("main;work;leaf 5\nmain;work 3\n");
	CHECK(p != NULL);
	if (p == NULL)
		return;
	CHECK_INT(p->format, PF_FOLDED);
	CHECK_STR(p->path, "t.folded");
	CHECK_INT(p->nsample_types, 1);
	CHECK_STR(p->sample_types[0].type, "samples");
	CHECK_STR(p->sample_types[0].unit, "count");
	CHECK_STR(p->period_type.type, "");
	CHECK_INT(p->period, 0);
	CHECK_INT(p->duration_nanos, 0);
	CHECK_INT(p->time_nanos, 0);
	CHECK_STR(p->default_sample_type, "");
	CHECK_INT(p->nmappings, 0);
	CHECK_INT(p->ncomments, 0);
	CHECK_INT(p->nfunctions, 3);
	CHECK_INT(p->nlocations, 3);
	CHECK_INT(p->nsamples, 2);
	/* Ids follow first appearance, root first on the first line. */
	CHECK_STR(p->functions[0].name, "main");
	CHECK_STR(p->functions[1].name, "work");
	CHECK_STR(p->functions[2].name, "leaf");
	for (i = 0; i < p->nfunctions; i++) {
		CHECK_INT(p->functions[i].id, i + 1);
		CHECK_STR(p->functions[i].system_name, p->functions[i].name);
		CHECK_STR(p->functions[i].filename, "");
		CHECK_INT(p->functions[i].start_line, 0);
		l = &p->locations[i];
		CHECK_INT(l->id, i + 1);
		CHECK(l->mapping == NULL);
		CHECK_INT(l->address, 0);
		CHECK_INT(l->nlines, 1);
		CHECK(l->lines[0].function == &p->functions[i]);
		CHECK_INT(l->lines[0].line, 0);
		CHECK_INT(l->is_folded, 0);
	}
	/* Leaf first. */
	CHECK_INT(p->samples[0].nlocs, 3);
	CHECK(p->samples[0].locs[0] == &p->locations[2]);
	CHECK(p->samples[0].locs[2] == &p->locations[0]);
	CHECK_STR(stack(p, 0), "leaf|work|main");
	CHECK_INT(p->samples[0].values[0], 5);
	CHECK_INT(p->samples[0].nlabels, 0);
	CHECK_STR(stack(p, 1), "work|main");
	CHECK_INT(p->samples[1].values[0], 3);
	profile_free(p);
}

static void
test_lines(void)
{
	struct profile *p;

	/* py-spy: spaces inside frame names; split at the last blank run. */
	p = dec("<module> (app.py:58);serve (app.py:40);handle (app.py:42) 7\n");
	CHECK(p != NULL && p->nsamples == 1);
	if (p != NULL) {
		CHECK_STR(stack(p, 0),
		    "handle (app.py:42)|serve (app.py:40)|<module> (app.py:58)");
		CHECK_INT(p->samples[0].values[0], 7);
	}
	profile_free(p);

	/* Tabs, runs of blanks, trailing blanks, no final newline. */
	p = dec("a;b\t4\na;c \t  6 \t\na;b 1");
	CHECK(p != NULL && p->nsamples == 3);
	if (p != NULL) {
		CHECK_STR(stack(p, 0), "b|a");
		CHECK_STR(stack(p, 1), "c|a");
		CHECK_INT(p->samples[1].values[0], 6);
		CHECK_INT(p->samples[2].values[0], 1);
		/* Duplicate stacks stay separate samples; names are shared. */
		CHECK_INT(p->nfunctions, 3);
		CHECK(p->samples[0].locs[0] == p->samples[2].locs[0]);
	}
	profile_free(p);

	/* CRLF, blank lines, a zero count, the largest count, a BOM. */
	p = dec("\xef\xbb\xbf" "a;b 1\r\n\r\n  \n\t\r\nc 0\r\n"
	    "d 9223372036854775807\r\n");
	CHECK(p != NULL && p->nsamples == 3);
	if (p != NULL) {
		CHECK_STR(stack(p, 0), "b|a");
		CHECK_STR(p->functions[0].name, "a");
		CHECK_INT(p->samples[1].values[0], 0);
		CHECK_INT(p->samples[2].values[0], INT64_MAX);
	}
	profile_free(p);

	/* Names verbatim: JIT suffixes, brackets, invalid UTF-8, leading 0s. */
	p = dec("[main tid=42];java/lang/Thread.run_[j];"
	    "Foo.bar_[i] 007\n\xff\xfe;b 2\n");
	CHECK(p != NULL && p->nsamples == 2);
	if (p != NULL) {
		CHECK_STR(stack(p, 0),
		    "Foo.bar_[i]|java/lang/Thread.run_[j]|[main tid=42]");
		CHECK_INT(p->samples[0].values[0], 7);
		CHECK_STR(p->functions[3].name, "\xff\xfe");
	}
	profile_free(p);
}

/* Lines that share a prefix with the line before, whole frames or not. */
static void
test_shared_prefix(void)
{
	struct profile *p;

	p = dec("a;b;c 1\na;b;c 2\na;bc 3\na;b 4\na 5\na;b;c;d 6\n"
	    "a;b;cd;e 7\nab;c 8\nx;b;c 9\n");
	CHECK(p != NULL && p->nsamples == 9);
	if (p != NULL) {
		CHECK_STR(stack(p, 0), "c|b|a");
		CHECK_STR(stack(p, 1), "c|b|a");
		CHECK_STR(stack(p, 2), "bc|a");
		CHECK_STR(stack(p, 3), "b|a");
		CHECK_STR(stack(p, 4), "a");
		CHECK_STR(stack(p, 5), "d|c|b|a");
		CHECK_STR(stack(p, 6), "e|cd|b|a");
		CHECK_STR(stack(p, 7), "c|ab");
		CHECK_STR(stack(p, 8), "c|b|x");
		CHECK_INT(p->nfunctions, 9);
		CHECK_INT(p->samples[5].values[0], 6);
	}
	profile_free(p);
	/* An empty frame right after a shared prefix. */
	CHECK_STR(refuse("a;b;c 1\na;b; 2\n"), "t.folded: bad folded stacks: "
	    "line 2: frame 3 of 'a;b;' has an empty name");
	CHECK_STR(refuse("a;b 1\na;b;;c 2\n"), "t.folded: bad folded stacks: "
	    "line 2: frame 3 of 'a;b;;c' has an empty name");
}

/* Many names: the hash table grows, and every name is found again. */
static void
test_many_names(void)
{
	struct profile	*p;
	char		*text, *w;
	size_t		 i, n = 5000, ok = 1;

	text = malloc(n * 64 + 1);
	w = text;
	for (i = 0; i < n; i++)
		w += sprintf(w, "root;fn_%zu;fn_%zu 1\n", i, (i * 7) % n);
	p = dec(text);
	CHECK(p != NULL);
	if (p != NULL) {
		CHECK_INT(p->nfunctions, n + 1);
		CHECK_INT(p->nsamples, n);
		for (i = 0; i < n; i++) {
			char want[32];

			snprintf(want, sizeof(want), "fn_%zu",
			    (i * 7) % n);
			if (strcmp(p->samples[i].locs[0]->lines[0].function->name,
			    want) != 0 || p->samples[i].locs[2] !=
			    &p->locations[0])
				ok = 0;
		}
		CHECK(ok);
	}
	profile_free(p);
	free(text);
}

static void
test_errors(void)
{
	struct pd_limits lim;

	CHECK_STR(refuse("a;b 1\nnocount\n"), "t.folded: bad folded stacks: "
	    "line 2: no count at the end (the line ends in 'nocount')");
	CHECK_STR(refuse("a 1\nmain (app.py:3);handle (app.py:42)\n"),
	    "t.folded: bad folded stacks: line 2: no count at the end "
	    "(the line ends in '(app.py:42)')");
	CHECK_STR(refuse("a 1\n\n\n\nb;c 3x\n"), "t.folded: bad folded "
	    "stacks: line 5: count '3x' is not a non-negative integer");
	CHECK_STR(refuse("a 1\nb 1.5\n"), "t.folded: bad folded stacks: "
	    "line 2: count '1.5' is not a non-negative integer");
	CHECK_STR(refuse("a 1\nb +3\n"), "t.folded: bad folded stacks: "
	    "line 2: count '+3' is not a non-negative integer");
	CHECK_STR(refuse("a 1\nb -3\n"), "t.folded: bad folded stacks: "
	    "line 2: count '-3' is negative");
	CHECK_STR(refuse("a 1\nb 9223372036854775808\n"), "t.folded: bad "
	    "folded stacks: line 2: count '9223372036854775808' is too large "
	    "(more than 9223372036854775807)");
	CHECK_STR(refuse("a 1\n  12\n"), "t.folded: bad folded stacks: "
	    "line 2: no frames before the count");
	CHECK_STR(refuse("a 1\n12\n"), "t.folded: bad folded stacks: "
	    "line 2: no frames before the count");
	CHECK_STR(refuse("a 1\na;;b 2\n"), "t.folded: bad folded stacks: "
	    "line 2: frame 2 of 'a;;b' has an empty name");
	CHECK_STR(refuse("a 1\n;a 2\n"), "t.folded: bad folded stacks: "
	    "line 2: frame 1 of ';a' has an empty name");
	CHECK_STR(refuse("a 1\na;b; 2\n"), "t.folded: bad folded stacks: "
	    "line 2: frame 3 of 'a;b;' has an empty name");
	CHECK_STR(refuse("a 1\na;b 10 12\n"), "t.folded: bad folded stacks: "
	    "line 2: two counts '10 12': this looks like a two-column "
	    "differential folded file (stack base new); profdiff reads one "
	    "count per line, so give base and new as two files");
	/* Control bytes, with the line and column. */
	CHECK_STR(refuse("a 1\nb\001c 2\n"), "t.folded: bad folded stacks: "
	    "line 2: control byte 0x01 at column 2 (folded stacks are text)");
	CHECK_STR(refuse("a 1\nb\177 2\n"), "t.folded: bad folded stacks: "
	    "line 2: control byte 0x7f at column 2 (folded stacks are text)");
	CHECK_STR(refuse("a 1\nb;c\rd 2\n"), "t.folded: bad folded stacks: "
	    "line 2: carriage return at column 4 does not end the line");
	{
		static const char nul[] = "a 1\n\nabc;d\0 2\n";
		struct diag	 d;
		struct profile	*p;

		diag_init(&d, "t.folded");
		p = folded_decode(nul, sizeof(nul) - 1, "t.folded", NULL, &d);
		CHECK(p == NULL);
		diag_format(&d, msg, sizeof(msg));
		CHECK_STR(msg, "t.folded: bad folded stacks: line 3: NUL byte "
		    "at column 6 (folded stacks are text)");
		CHECK_INT(d.code, DIAG_FOLDED);
		CHECK_INT(d.off, -1);
	}
	/* No stack lines at all. */
	CHECK_STR(refuse(""), "t.folded: bad folded stacks: no stack lines: "
	    "the text is empty");
	CHECK_STR(refuse("\n \r\n\t\n"), "t.folded: bad folded stacks: "
	    "no stack lines: the text is blank");
	/* Text that is not folded at all is no profile, and says so. */
	CHECK_STR(refuse("hello world\n"), "t.folded: not a profile: line 1 "
	    "ends in 'world', not in a count; profdiff reads pprof profiles "
	    "(protobuf, gzipped or not), perf script output and folded "
	    "stacks ('frame;frame;frame COUNT' per line)");
	CHECK_STR(refuse("\n{\"x\": 1.5}\n"), "t.folded: not a profile: "
	    "line 2 ends in '1.5}', not in a count; profdiff reads pprof "
	    "profiles (protobuf, gzipped or not), perf script output and "
	    "folded stacks ('frame;frame;frame COUNT' per line)");
	/* Long quotes are cut, never inside a UTF-8 character. */
	CHECK_STR(refuse("a 1\nb 123456789012345678901234567890123456789é9x\n"),
	    "t.folded: bad folded stacks: line 2: count "
	    "'123456789012345678901234567890123456789...' is not a "
	    "non-negative integer");
	CHECK_STR(refuse("a 1\nb 12345678901234567890123456789012345678é9x\n"),
	    "t.folded: bad folded stacks: line 2: count "
	    "'12345678901234567890123456789012345678é...' is not a "
	    "non-negative integer");

	/* Limits. */
	pd_limits_default(&lim);
	lim.max_depth = 3;
	CHECK_STR(refuse_lim("a;b;c 1\na;b;c;d;e 1\n", &lim), "t.folded: "
	    "limit exceeded: line 2: stack of 5 frames, more than the limit "
	    "of 3 (raise with --max-depth)");
	pd_limits_default(&lim);
	lim.max_functions = 3;
	CHECK_STR(refuse_lim("a;b 1\na;c 1\n\nb;d 1\n", &lim), "t.folded: "
	    "limit exceeded: line 4: more than 3 distinct frame names (raise "
	    "with --max-functions)");
	pd_limits_default(&lim);
	lim.max_locations = 2;
	CHECK_STR(refuse_lim("a;b;c 1\n", &lim), "t.folded: limit exceeded: "
	    "line 1: more than 2 distinct frame names (raise with "
	    "--max-locations)");
	lim.max_locations = 3;
	CHECK_STR(refuse_lim("a;b;c 1\nc;b;a 2\n", &lim), "(accepted)");
}

static void
test_sniff(void)
{
	static const unsigned char pb[] = { 0x0a, 0x04, 0x08, 0x01, 0x10,
	    0x02, 0x32, 0x00, 0x32, 0x03, 'c', 'p', 'u' };
	static const char stray[] = "a;b 1\nc\0 2\n";
	static const char early[] = "a;b\0 1\nc 2\n";
	static const char badfirst[] = "hello\nc\0 2\n";

	CHECK_INT(folded_sniff("", 0), 0);
	CHECK_INT(folded_sniff("a 1", 3), 1);
	CHECK_INT(folded_sniff("\n", 1), 1);
	CHECK_INT(folded_sniff("anything at all\r\n\t", 18), 1);
	CHECK_INT(folded_sniff("\xff\xfe\x80", 3), 1);
	CHECK_INT(folded_sniff(pb, sizeof(pb)), 0);
	/* A stray control byte after a good first stack line. */
	CHECK_INT(folded_sniff(stray, sizeof(stray) - 1), 1);
	CHECK_INT(folded_sniff(early, sizeof(early) - 1), 0);
	CHECK_INT(folded_sniff(badfirst, sizeof(badfirst) - 1), 0);
	CHECK_INT(folded_sniff("\n\na;b 2\n\001", 9), 1);
	CHECK_INT(folded_sniff("a;;b 2\n\001", 8), 0);
	CHECK_INT(folded_sniff(";a 2\n\001", 6), 0);
	CHECK_INT(folded_sniff("a;b 2\001\n", 7), 0);
	/* Long text: the eight-byte scan and its tail. */
	{
		char	 buf[100];
		size_t	 i;
		int	 all = 1;

		memset(buf, 'x', sizeof(buf));
		for (i = 0; i < sizeof(buf); i++) {
			buf[i] = '\033';
			if (folded_sniff(buf, sizeof(buf)) != 0)
				all = 0;
			buf[i] = 'x';
		}
		CHECK(all);
		CHECK_INT(folded_sniff(buf, sizeof(buf)), 1);
	}
}

/* gzip text in memory, as gzip(1) would. */
static unsigned char *
gzip_text(const char *text, size_t *outlen)
{
	z_stream	 zs;
	unsigned char	*out;
	size_t		 cap = strlen(text) + 128;

	out = malloc(cap);
	memset(&zs, 0, sizeof(zs));
	deflateInit2(&zs, 6, Z_DEFLATED, 16 + MAX_WBITS, 8, Z_DEFAULT_STRATEGY);
	zs.next_in = (unsigned char *)(uintptr_t)text;
	zs.avail_in = (uInt)strlen(text);
	zs.next_out = out;
	zs.avail_out = (uInt)cap;
	CHECK_INT(deflate(&zs, Z_FINISH), Z_STREAM_END);
	*outlen = cap - zs.avail_out;
	deflateEnd(&zs);
	return out;
}

/* Detection through the pprof entry point, raw and gzipped. */
static void
test_detection(void)
{
	static const char text[] = "main;work;leaf 5\r\nmain;work 3\r\n";
	static const char stray[] = "a;b 1\nc;d 2\nc\033 2\n";
	struct profile	*p;
	struct diag	 d;
	unsigned char	*gz;
	size_t		 gzlen;

	diag_init(&d, "t.folded");
	p = pprof_decode(text, strlen(text), "t.folded", NULL, &d);
	CHECK(p != NULL && p->format == PF_FOLDED && p->nsamples == 2);
	if (p != NULL)
		CHECK_STR(stack(p, 0), "leaf|work|main");
	profile_free(p);

	gz = gzip_text(text, &gzlen);
	diag_init(&d, "t.folded.gz");
	p = pprof_decode(gz, gzlen, "t.folded.gz", NULL, &d);
	CHECK(p != NULL && p->format == PF_FOLDED && p->nsamples == 2);
	if (p != NULL) {
		CHECK_STR(p->path, "t.folded.gz");
		CHECK_INT(p->samples[1].values[0], 3);
	}
	profile_free(p);
	free(gz);

	gz = gzip_text("a 1\nb 3x\n", &gzlen);
	diag_init(&d, "t.folded.gz");
	p = pprof_decode(gz, gzlen, "t.folded.gz", NULL, &d);
	CHECK(p == NULL);
	diag_format(&d, msg, sizeof(msg));
	CHECK_STR(msg, "t.folded.gz: bad folded stacks: line 2: count '3x' "
	    "is not a non-negative integer");
	free(gz);

	/* A stray control byte deep in a folded file: still folded. */
	diag_init(&d, "t.folded");
	p = pprof_decode(stray, strlen(stray), "t.folded", NULL, &d);
	CHECK(p == NULL);
	diag_format(&d, msg, sizeof(msg));
	CHECK_STR(msg, "t.folded: bad folded stacks: line 3: control byte "
	    "0x1b at column 2 (folded stacks are text)");

	/* Legacy text formats are read as such, not as folded stacks. */
	diag_init(&d, "t.heap");
	p = pprof_decode("heap profile: 1: 2 [3: 4] @ heap/1048576\n", 41,
	    "t.heap", NULL, &d);
	CHECK(p != NULL && p->format == PF_PPROF && p->nsample_types == 4);
	profile_free(p);
	diag_init(&d, "t.txt");
	p = pprof_decode("\n  goroutine profile: total 4\n", 30, "t.txt", NULL,
	    &d);
	CHECK(p == NULL);
	CHECK_INT(d.code, DIAG_LEGACY);

	/* An empty file is still "empty", not folded. */
	diag_init(&d, "t.empty");
	p = pprof_decode("", 0, "t.empty", NULL, &d);
	CHECK(p == NULL);
	CHECK_INT(d.code, DIAG_EMPTY);
}

int
main(void)
{
	test_model();
	test_lines();
	test_shared_prefix();
	test_many_names();
	test_errors();
	test_sniff();
	test_detection();
	return tap_done();
}
