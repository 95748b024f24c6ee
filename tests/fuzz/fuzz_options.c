/*
 * Fuzz target: the option parser shared by every subcommand.  The input
 * is split at NUL bytes into argument words after the subcommand name;
 * whatever they say, cli_parse() must return 0, 1 (help) or -1 (usage
 * error), and cli_load_opts() compile the filter options or refuse
 * them, without crashing, leaking or reading past argv.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"

#define MAXARGS	32

int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t len)
{
	static const char *const cmds[] = { "top", "diff",
	    "check-significance" };
	const struct cli_cmd *c;
	char		*argv[MAXARGS + 2], *buf;
	struct opts	 o;
	size_t		 i, start;
	int		 argc = 1, which;

	if (len == 0)
		return 0;
	which = data[0] % 3;
	if ((buf = malloc(len)) == NULL)
		return 0;
	memcpy(buf, data + 1, len - 1);
	buf[len - 1] = '\0';
	argv[0] = (char *)(uintptr_t)cmds[which];
	for (i = 0, start = 0; i < len && argc <= MAXARGS; i++)
		if (buf[i] == '\0') {
			argv[argc++] = buf + start;
			start = i + 1;
		}
	argv[argc] = NULL;
	/* Then compile the filters: regexes, KEY=VALUE, numeric ranges. */
	c = cli_cmd_find(cmds[which]);
	if (cli_parse(c, argc, argv, &o) == 0) {
		(void)cli_load_opts(&o);
		cli_release(&o);
	}
	free(buf);
	return 0;
}
