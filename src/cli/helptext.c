/*
 * The notes at the end of profdiff --help and of each command's help:
 * which profiles profdiff reads, and what is no change of the code.
 * Their own file, so that cli.c holds the option table and its parsing.
 */
#include "cli/cli.h"

/* Which profiles, and where binaries are looked for (issue 31). */
const char cli_help_inputs[] =
    "\n  Profiles, by their content: pprof protobuf (gzipped or "
    "not), pprof's legacy\n"
    "  text and the gperftools CPU profile, perf.data (read by "
    "running perf script:\n"
    "  Debian's linux-perf), perf script output, folded stacks; "
    "from a file, -\n"
    "  or a URL. Addresses without names are named from binaries "
    "(DWARF, else\n"
    "  symbols), looked for in --binary-path, PPROF_BINARY_PATH, at "
    "the mapping's\n"
    "  path, then by build id under /usr/lib/debug/.build-id.\n";

/* What every runtime's profiles hold that is no change of the code. */
const char cli_help_no_change[] =
    "\n  What is no change of the code, in every runtime's "
    "profiles:\n"
    "    idle samples (V8's (idle), the kernel's idle loop) are left "
    "out of the shares;\n"
    "    a callee a JIT inlined in one process only (or in part, "
    "or into a caller\n"
    "    that is the change) is \"~ moved\", not new, gone or "
    "improved;\n"
    "    the collector's background work (Go's, V8's, HotSpot's "
    "GC threads) joins\n"
    "    the regression that allocated it, with the assists it "
    "moved\n"
    "    (runtime.mallocgc's), and Go's scheduler"
    "\n"
    "    (runtime.mcall, runtime.mstart) the finding that moved it;\n"
    "    a thread saturated in one window only (idle 25% and 15% "
    "or less: saturated\n"
    "    warns) does its other work at another pace: its falls are "
    "crowded out;\n"
    "    the scheduler alone (runtime.asyncPreempt) and a VM's "
    "other threads alone\n"
    "    (Non JS threads activity) are the load, no finding, and so "
    "is the profiler's\n"
    "    own work (runtime/pprof's, @datadog/pprof's and pprof-format's "
    "encoders);\n"
    "    and the C library's waits alone (nanosleep, poll) a "
    "finding that fails no gate;\n"
    "    a call new from a function is one change of it, with "
    "all it spreads into,\n"
    "    and findings that entered through one function's calls of "
    "shared functions\n"
    "    (malloc and free) are one, told where they entered;\n"
    "    one profile a side, how much two processes differ is "
    "read from the functions,\n"
    "    outside the changes that spread or stand far apart, and "
    "allowed for\n"
    "    (processes-differ warns from 10%);\n"
    "    beside a finding, what else rose or fell is crowded unless "
    "its share of the\n"
    "    rest, outside the findings, moved at alpha over the family "
    "(the header says\n"
    "    what that can see; JSON rest_delta_pp, "
    "rest_min_detectable_pp).\n";
