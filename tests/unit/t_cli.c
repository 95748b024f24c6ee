/*
 * Tests for cli.c's parser and cli_pprof.c's table: every spelling of
 * pprof's that the issue names has an entry for each subcommand, each
 * entry that stands for an option of profdiff's names a real one, and
 * parses in one process leave nothing behind for the next (getopt's
 * state is reset before a first word of pprof's is taken by hand).
 */
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "tap.h"

static const char *const names[] = {
	"nodecount", "sample_index", "focus", "ignore", "hide", "show",
	"tagfocus", "tagignore", "diff_base", "base", "unit", "cum",
	"normalize", "lines", "functions", "files", "addresses", "noinlines",
	"filefunctions", "flat", "inuse_space", "alloc_space", "output",
	"relative_percentages", "web", "http", "png", "top",
};

static void
test_table(void)
{
	static const int masks[] = { OPT_TOP, OPT_DIFF, OPT_DIFF | OPT_CHECK };
	const struct cli_pprof *p;
	size_t i, j;
	int ok;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		ok = 1;
		for (j = 0; j < sizeof(masks) / sizeof(masks[0]); j++) {
			p = cli_pprof_find(names[i], strlen(names[i]), masks[j]);
			if (p == NULL) {
				ok = 0;
				continue;
			}
			if ((p->how == PP_OPT || p->how == PP_TAG) &&
			    (p->opt == NULL || (cli_opt_arg(p->opt) == NULL &&
			    p->val == NULL)))
				ok = 0;
			if (p->how == PP_NO && p->note == NULL)
				ok = 0;
		}
		printf("# %s\n", names[i]);
		CHECK(ok);
	}
	CHECK(cli_pprof_find("nodecounts", 10, OPT_TOP) == NULL);
	CHECK(cli_pprof_find("nodecount=5", 9, OPT_TOP) != NULL);
	CHECK_INT(cli_go_bool("True"), 1);
	CHECK_INT(cli_go_bool("0"), 0);
	CHECK_INT(cli_go_bool("yes"), -1);
}

static int
parse(int mask, char **argv, struct opts *o)
{
	int argc = 0;

	while (argv[argc] != NULL)
		argc++;
	return cli_parse(cli_cmd_find(mask == OPT_TOP ? "top" : "diff"), argc,
	    argv, o);
}

static void
test_parse(void)
{
	char *a1[] = { "top", "-qn", "7", "-cum", "x.pb", NULL };
	char *a2[] = { "top", "-nodecount=3", "-unit", "ms", "y.pb", NULL };
	char *a3[] = { "diff", "new1.pb", "-diff_base", "old.pb", "new2.pb",
	    "-tagfocus=k=a", "-tagfocus", "k=b", "-flat", NULL };
	char *a4[] = { "top", "--nodecount", "4", "z.pb", NULL };
	struct opts o;

	CHECK_INT(parse(OPT_TOP, a1, &o), 0);
	CHECK_INT(o.nrows, 7);
	CHECK_INT(o.quiet, 1);
	CHECK_INT(o.cum, 1);
	CHECK_INT(o.noperands, 1);
	cli_release(&o);

	/* A first word of pprof's right after another parse. */
	CHECK_INT(parse(OPT_TOP, a2, &o), 0);
	CHECK_INT(o.nrows, 3);
	CHECK_STR(o.unit, "ms");
	CHECK_INT(o.noperands, 1);
	CHECK_STR(o.operands[0], "y.pb");
	cli_release(&o);

	CHECK_INT(parse(OPT_DIFF, a3, &o), 0);
	CHECK_INT(o.noperands, 3);
	CHECK_INT(o.sep, 1);
	CHECK_STR(o.operands[0], "old.pb");
	CHECK_STR(o.operands[1], "new1.pb");
	CHECK_STR(o.operands[2], "new2.pb");
	CHECK_INT(o.tags.n, 1);
	CHECK_STR(o.tags.v[0], "k=b");
	CHECK_INT(o.sort, DELTA_SORT_FLAT);
	cli_release(&o);

	CHECK_INT(parse(OPT_TOP, a4, &o), 0);
	CHECK_INT(o.nrows, 4);
	CHECK_STR(o.operands[0], "z.pb");
	cli_release(&o);
}

/*
 * A mistyped command is answered with the commands it may have meant
 * (issue 30): within two edits, a swap counting one, or those it
 * begins; never a match (cli_cmd_find() takes exact names only).
 */
static void
test_suggest(void)
{
	char		 buf[128];
	const char	*s;

	CHECK_STR(cli_cmd_suggest(buf, sizeof(buf), "dif"), "'diff'");
	CHECK_STR(cli_cmd_suggest(buf, sizeof(buf), "tpo"), "'top'");
	CHECK_STR(cli_cmd_suggest(buf, sizeof(buf), "sereis"), "'series'");
	CHECK_STR(cli_cmd_suggest(buf, sizeof(buf), "check-significant"),
	    "'check-significance'");
	CHECK_STR(cli_cmd_suggest(buf, sizeof(buf), "check"),
	    "'check-significance' or 'check-series'");
	CHECK(cli_cmd_suggest(buf, sizeof(buf), "x") == NULL);
	CHECK(cli_cmd_suggest(buf, sizeof(buf), "xyz") == NULL);
	CHECK(cli_cmd_suggest(buf, sizeof(buf), "") == NULL);
	s = cli_cmd_suggest(buf, sizeof(buf), "ch");
	CHECK(s == NULL);
	CHECK(cli_cmd_find("dif") == NULL);
	CHECK(cli_cmd_find("check") == NULL);
	/* A word longer than any command's typo is none. */
	memset(buf, 'd', 100);
	buf[100] = '\0';
	CHECK(cli_cmd_suggest(buf + 101, sizeof(buf) - 101, buf) == NULL);
}

int
main(void)
{
	test_table();
	test_parse();
	test_suggest();
	return tap_done();
}
