/*
 * Fuzz target: the input written to a file, gzipped unless it is
 * already, and loaded from there read once and read twice (input.c
 * read_twice(), which a gzipped file of limits.read_twice bytes or more
 * takes): the two must agree exactly, the same refusal or the same
 * profile.  Apart from fuzz_pprof.c because the files make it slow.
 * Built with libFuzzer by `make fuzz`; tests/fuzz/replay.c runs it on a
 * corpus in `make check`.
 */
#include <fcntl.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include "support/diag.h"
#include "input/gunzip.h"
#include "profdiff.h"
#include "input/input.h"
#include "model/profile.h"
#include "fuzzsame.h"

int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);

/* The input as a gzipped file, whose path is static; NULL if it fails. */
static const char *
as_file(const uint8_t *data, size_t len)
{
	static char	 path[64];
	uint8_t		*gz = NULL;
	const uint8_t	*out = data;
	z_stream	 z;
	size_t		 n = len;
	int		 fd, ok;

	if (path[0] == '\0')
		snprintf(path, sizeof(path), "/tmp/fuzz-twice.%ld.pb.gz",
		    (long)getpid());
	if (!gunzip_is_gzip(data, len)) {
		memset(&z, 0, sizeof(z));
		if (deflateInit2(&z, 1, Z_DEFLATED, 31, 8,
		    Z_DEFAULT_STRATEGY) != Z_OK)
			return NULL;
		n = deflateBound(&z, len) + 32;
		if ((gz = malloc(n)) == NULL)
			abort();
		z.next_in = (uint8_t *)(uintptr_t)data;
		z.avail_in = (uInt)len;
		z.next_out = gz;
		z.avail_out = (uInt)n;
		ok = deflate(&z, Z_FINISH) == Z_STREAM_END;
		n = z.total_out;
		deflateEnd(&z);
		if (!ok)
			abort();
		out = gz;
	}
	if ((fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600)) == -1)
		ok = 0;
	else {
		ok = write(fd, out, n) == (ssize_t)n;
		ok = close(fd) == 0 && ok;
	}
	free(gz);
	return ok ? path : NULL;
}

/* Loaded from a file, read once and read twice: the same. */
static void
twice(const uint8_t *data, size_t len, const struct pd_limits *lim)
{
	struct pd_limits once = *lim, two = *lim;
	struct profile	*a, *b;
	struct diag	 da, db;
	const char	*path;

	if ((path = as_file(data, len)) == NULL)
		return;
	once.read_twice = UINT64_MAX;
	two.read_twice = 0;
	diag_init(&da, path);
	diag_init(&db, path);
	a = pprof_load(path, &once, &da);
	b = pprof_load(path, &two, &db);
	SAME(a == NULL, b == NULL);
	if (a == NULL) {
		SAME(da.code, db.code);
		SAME(strcmp(da.msg, db.msg) == 0, 1);
	} else
		same_profile(a, b);
	profile_free(a);
	profile_free(b);
	unlink(path);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t len)
{
	struct pd_limits lim;

	pd_limits_default(&lim);
	/*
	 * Small: what is tested is the walk of the fields, and a gzip bomb
	 * of 60 MB, inflated by both readers, took the target to 16 runs a
	 * second.
	 */
	lim.max_inflated = 4u << 20;
	twice(data, len, &lim);
	return 0;
}
