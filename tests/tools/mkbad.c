/*
 * mkbad: write the hostile and malformed inputs of tests/data/bad/, each
 * one violating exactly one rule, from a small valid profile encoded with
 * protobuf-c.  The output is deterministic; `make bad-data` rewrites the
 * committed files and git shows any difference.
 *
 * usage: mkbad DIR
 */
#include <err.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "profile.pb-c.h"

typedef Perftools__Profiles__Profile	Profile;
typedef Perftools__Profiles__Sample	Sample;
typedef Perftools__Profiles__Location	Location;
typedef Perftools__Profiles__Line	Line;
typedef Perftools__Profiles__Function	Function;
typedef Perftools__Profiles__Mapping	Mapping;
typedef Perftools__Profiles__ValueType	ValueType;

static const char *dir;

/* A valid two-function CPU profile; each case breaks one thing in it. */
struct base {
	Profile		 p;
	ValueType	 st[2], *stp[2], pt;
	Sample		 s[3], *sp[3];
	uint64_t	 locids[3][2];
	int64_t		 vals[3][2];
	Location	 loc[2], *locp[2];
	Line		 line[2], *linep[2];
	Function	 fn[2], *fnp[2];
	Mapping		 map, *mapp;
	ProtobufCBinaryData strs[9];
};

static const char *const strtab[] = { "", "samples", "count", "cpu",
    "nanoseconds", "main.main", "main.work", "main.go", "/bin/app" };

static void
base_init(struct base *b)
{
	size_t i;

	memset(b, 0, sizeof(*b));
	perftools__profiles__profile__init(&b->p);
	for (i = 0; i < 9; i++) {
		b->strs[i].data = (uint8_t *)(uintptr_t)strtab[i];
		b->strs[i].len = strlen(strtab[i]);
	}
	b->p.string_table = b->strs;
	b->p.n_string_table = 9;
	for (i = 0; i < 2; i++) {
		perftools__profiles__value_type__init(&b->st[i]);
		b->st[i].type = i == 0 ? 1 : 3;
		b->st[i].unit = i == 0 ? 2 : 4;
		b->stp[i] = &b->st[i];
	}
	b->p.sample_type = b->stp;
	b->p.n_sample_type = 2;
	perftools__profiles__value_type__init(&b->pt);
	b->pt.type = 3;
	b->pt.unit = 4;
	b->p.period_type = &b->pt;
	b->p.period = 10000000;
	b->p.duration_nanos = 1000000000;
	perftools__profiles__mapping__init(&b->map);
	b->map.id = 1;
	b->map.filename = 8;
	b->mapp = &b->map;
	b->p.mapping = &b->mapp;
	b->p.n_mapping = 1;
	for (i = 0; i < 2; i++) {
		perftools__profiles__function__init(&b->fn[i]);
		b->fn[i].id = i + 1;
		b->fn[i].name = 5 + i;
		b->fn[i].system_name = 5 + i;
		b->fn[i].filename = 7;
		b->fnp[i] = &b->fn[i];
		perftools__profiles__line__init(&b->line[i]);
		b->line[i].function_id = i + 1;
		b->line[i].line = 10 + i;
		b->linep[i] = &b->line[i];
		perftools__profiles__location__init(&b->loc[i]);
		b->loc[i].id = i + 1;
		b->loc[i].mapping_id = 1;
		b->loc[i].address = 0x1000 + 16 * i;
		b->loc[i].line = &b->linep[i];
		b->loc[i].n_line = 1;
		b->locp[i] = &b->loc[i];
	}
	b->p.function = b->fnp;
	b->p.n_function = 2;
	b->p.location = b->locp;
	b->p.n_location = 2;
	for (i = 0; i < 3; i++) {
		perftools__profiles__sample__init(&b->s[i]);
		b->locids[i][0] = i == 2 ? 1 : 2;	/* leaf first */
		b->locids[i][1] = 1;
		b->s[i].location_id = b->locids[i];
		b->s[i].n_location_id = i == 2 ? 1 : 2;
		b->vals[i][0] = 1 + (int64_t)i;
		b->vals[i][1] = 10000000 * (1 + (int64_t)i);
		b->s[i].value = b->vals[i];
		b->s[i].n_value = 2;
		b->sp[i] = &b->s[i];
	}
	b->p.sample = b->sp;
	b->p.n_sample = 3;
}

static void
put(const char *name, const void *buf, size_t len)
{
	char	 path[512];
	FILE	*fp;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	if ((fp = fopen(path, "wb")) == NULL)
		err(1, "%s", path);
	if (len > 0 && fwrite(buf, 1, len, fp) != len)
		err(1, "%s", path);
	if (fclose(fp) != 0)
		err(1, "%s", path);
}

static uint8_t *
pack(const Profile *p, size_t *len)
{
	uint8_t *buf;

	*len = perftools__profiles__profile__get_packed_size(p);
	if ((buf = malloc(*len + 1)) == NULL)
		err(1, NULL);
	perftools__profiles__profile__pack(p, buf);
	return buf;
}

/* gzip with a fixed header (no name, no time) so output is stable. */
static uint8_t *
gz(const void *in, size_t inlen, size_t *outlen)
{
	z_stream	 z;
	uint8_t		*out;
	size_t		 cap = inlen + inlen / 100 + 64;

	memset(&z, 0, sizeof(z));
	if (deflateInit2(&z, 9, Z_DEFLATED, 16 + MAX_WBITS, 9,
	    Z_DEFAULT_STRATEGY) != Z_OK)
		errx(1, "deflateInit2");
	if ((out = malloc(cap)) == NULL)
		err(1, NULL);
	z.next_in = (uint8_t *)(uintptr_t)in;
	z.avail_in = (uInt)inlen;
	z.next_out = out;
	z.avail_out = (uInt)cap;
	if (deflate(&z, Z_FINISH) != Z_STREAM_END)
		errx(1, "deflate");
	*outlen = z.total_out;
	deflateEnd(&z);
	return out;
}

static void
put_profile(const char *name, const Profile *p)
{
	uint8_t	*buf;
	size_t	 len;

	buf = pack(p, &len);
	put(name, buf, len);
	free(buf);
}

int
main(int argc, char *argv[])
{
	struct base	 b;
	uint8_t		*raw, *z, *big, *cat;
	size_t		 rawlen, zlen, i, n;
	ProtobufCBinaryData s0;

	if (argc != 2) {
		fprintf(stderr, "usage: mkbad DIR\n");
		return 2;
	}
	dir = argv[1];

	/* The valid one, raw and gzipped: the others must fail, not this. */
	base_init(&b);
	put_profile("../good/valid.pb", &b.p);
	raw = pack(&b.p, &rawlen);
	z = gz(raw, rawlen, &zlen);
	put("../good/valid.pb.gz", z, zlen);

	/*
	 * Two gzip members in one file are one stream, as gzip(1) reads
	 * them: here the profile's bytes are split between two members.
	 */
	{
		uint8_t	*z1, *z2;
		size_t	 l1, l2;

		z1 = gz(raw, rawlen / 2, &l1);
		z2 = gz(raw + rawlen / 2, rawlen - rawlen / 2, &l2);
		cat = malloc(l1 + l2);
		memcpy(cat, z1, l1);
		memcpy(cat + l1, z2, l2);
		put("../good/concatenated-members.pb.gz", cat, l1 + l2);
		free(cat);
		free(z1);
		free(z2);
	}

	/* gzip layer */
	put("truncated.pb.gz", z, zlen / 2);
	put("truncated-trailer.pb.gz", z, zlen - 3);
	memcpy(big = malloc(zlen + 5), z, zlen);
	memcpy(big + zlen, "junk!", 5);
	put("trailing-garbage.pb.gz", big, zlen + 5);
	free(big);
	memcpy(big = malloc(zlen), z, zlen);
	big[zlen - 8] ^= 0xff;		/* the CRC-32 */
	put("bad-crc.pb.gz", big, zlen);
	free(big);
	free(z);

	/* A gzip bomb: 64 MiB of zeros in about 64 KiB. */
	n = 64u << 20;
	big = calloc(1, n);
	z = gz(big, n, &zlen);
	put("gzip-bomb.pb.gz", z, zlen);
	free(big);
	free(z);

	/* protobuf wire layer */
	put("truncated.pb", raw, rawlen / 2);
	big = malloc(rawlen + 13);
	memcpy(big, raw, rawlen);
	/* field 12 (period), a varint of 12 bytes */
	memcpy(big + rawlen, "\x60\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff"
	    "\xff\x01", 13);
	put("varint-too-long.pb", big, rawlen + 13);
	memcpy(big, "\x12\x7f", 2);	/* field 2 claims 127 bytes */
	put("length-past-end.pb", big, 2);
	memcpy(big, "\x38\x01\x3a\x01\x00", 5);	/* field 7 as bytes */
	put("wrong-wire-type.pb", big + 2, 3);
	free(big);
	free(raw);

	/* profile.proto rules, one at a time */
	base_init(&b);
	s0.data = (uint8_t *)"x";
	s0.len = 1;
	b.strs[0] = s0;
	put_profile("string0-not-empty.pb", &b.p);

	base_init(&b);
	b.p.n_string_table = 0;
	put_profile("no-string-table.pb", &b.p);

	base_init(&b);
	b.fn[1].name = 99;
	put_profile("string-index-out-of-range.pb", &b.p);

	base_init(&b);
	b.locids[1][0] = 7;
	put_profile("dangling-location.pb", &b.p);

	base_init(&b);
	b.line[1].function_id = 9;
	put_profile("dangling-function.pb", &b.p);

	base_init(&b);
	b.loc[0].mapping_id = 4;
	put_profile("dangling-mapping.pb", &b.p);

	base_init(&b);
	b.fn[0].id = 0;
	b.line[0].function_id = 0;
	put_profile("function-id-zero.pb", &b.p);

	base_init(&b);
	b.loc[1].id = 1;
	put_profile("duplicate-location-id.pb", &b.p);

	base_init(&b);
	b.s[1].n_value = 1;
	put_profile("wrong-value-count.pb", &b.p);

	base_init(&b);
	b.p.n_sample = 0;
	put_profile("no-samples.pb", &b.p);

	base_init(&b);
	b.vals[0][1] = INT64_MAX;
	b.vals[1][1] = INT64_MAX;
	put_profile("value-overflow.pb", &b.p);

	/* Labels whose values hold quotes, markup and a newline. */
	base_init(&b);
	{
		static const char *const extra[] = { "span_id",
		    "a\"b<c>&d\ne'f" };
		ProtobufCBinaryData	 strs[11];
		Perftools__Profiles__Label lab[2], *labp[2];

		memcpy(strs, b.strs, sizeof(b.strs));
		for (i = 0; i < 2; i++) {
			strs[9 + i].data = (uint8_t *)(uintptr_t)extra[i];
			strs[9 + i].len = strlen(extra[i]);
			perftools__profiles__label__init(&lab[i]);
			labp[i] = &lab[i];
		}
		lab[0].key = 9;
		lab[0].str = 10;
		lab[1].key = 10;	/* a key that is itself awkward */
		lab[1].num = -7;
		lab[1].num_unit = 2;
		b.p.string_table = strs;
		b.p.n_string_table = 11;
		b.s[0].label = labp;
		b.s[0].n_label = 2;
		put_profile("../good/label-values.pb", &b.p);
	}

	/*
	 * Valid, but its file names lead out of a --source-path folder:
	 * main.main's through a symbolic link the test makes (link.go),
	 * main.work's through "../" (tests/cli/view-list-source-outside).
	 */
	base_init(&b);
	{
		static const char *const extra[] = { "link.go",
		    "../secret/work.go" };
		ProtobufCBinaryData	 strs[11];

		memcpy(strs, b.strs, sizeof(b.strs));
		for (i = 0; i < 2; i++) {
			strs[9 + i].data = (uint8_t *)(uintptr_t)extra[i];
			strs[9 + i].len = strlen(extra[i]);
			b.fn[i].filename = 9 + i;
		}
		b.p.string_table = strs;
		b.p.n_string_table = 11;
		put_profile("../good/source-outside.pb", &b.p);
	}

	/* Valid but awkward: every value zero, and negative values. */
	base_init(&b);
	for (i = 0; i < 3; i++)
		b.vals[i][0] = b.vals[i][1] = 0;
	put_profile("../good/zero-values.pb", &b.p);
	base_init(&b);
	b.vals[1][0] = -2;
	b.vals[1][1] = -20000000;
	put_profile("../good/negative-values.pb", &b.p);

	/*
	 * Valid, but the default type (the last) is all zero while the
	 * other has values, as in .NET's cpu/alloc/lock profiles.
	 */
	base_init(&b);
	for (i = 0; i < 3; i++)
		b.vals[i][1] = 0;
	put_profile("../good/empty-default-type.pb", &b.p);

	/*
	 * Valid, but cpu/nanoseconds alone at a period of 1s with values of
	 * 10 to 30ms, as a JFR conversion writes: value / period is no
	 * count of samples.
	 */
	base_init(&b);
	b.p.n_sample_type = 1;
	b.p.sample_type = &b.stp[1];
	b.p.period = 1000000000;
	for (i = 0; i < 3; i++) {
		b.vals[i][0] = b.vals[i][1];
		b.s[i].n_value = 1;
	}
	put_profile("../good/subperiod-values.pb", &b.p);

	/*
	 * Valid: the sampling period as @datadog/pprof writes it, the mean
	 * interval it measured (10ms and a little), which is jitter beside
	 * valid.pb's 10ms; and 1ms, a period set otherwise.
	 */
	base_init(&b);
	b.p.period = 10012345;
	put_profile("../good/period-jitter.pb", &b.p);
	base_init(&b);
	b.p.period = 1000000;
	put_profile("../good/period-1ms.pb", &b.p);

	/*
	 * Valid: a wall-clock profile as @datadog/pprof writes one with CPU
	 * time, sample/count, wall/nanoseconds and cpu/nanoseconds under
	 * the period type wall, of a process that spent 3ms of CPU in its
	 * second: mostly waiting, which its wall time shows.
	 */
	base_init(&b);
	{
		static const char *const extra[] = { "sample", "wall" };
		ProtobufCBinaryData	 strs[11];
		ValueType		 st[3], *stp[3];
		int64_t			 wv[3][3];
		static const uint64_t	 ty[3][2] = { { 9, 2 }, { 10, 4 },
					    { 3, 4 } };

		memcpy(strs, b.strs, sizeof(b.strs));
		for (i = 0; i < 2; i++) {
			strs[9 + i].data = (uint8_t *)(uintptr_t)extra[i];
			strs[9 + i].len = strlen(extra[i]);
		}
		b.p.string_table = strs;
		b.p.n_string_table = 11;
		for (i = 0; i < 3; i++) {
			perftools__profiles__value_type__init(&st[i]);
			st[i].type = ty[i][0];
			st[i].unit = ty[i][1];
			stp[i] = &st[i];
			wv[i][0] = 1 + (int64_t)i;
			wv[i][1] = 10000000 * (1 + (int64_t)i);
			wv[i][2] = 1000000;
			b.s[i].value = wv[i];
			b.s[i].n_value = 3;
		}
		b.p.sample_type = stp;
		b.p.n_sample_type = 3;
		b.pt.type = 10;
		put_profile("../good/wall-idle.pb", &b.p);
	}

	/*
	 * Ten million one-frame samples.  They compress so well that the
	 * default --max-inflate-ratio refuses them before anything is
	 * allocated for them.
	 */
	base_init(&b);
	{
		size_t	 nsamp = 10000000;
		Sample	*many = calloc(nsamp, sizeof(*many));
		Sample	**manyp = calloc(nsamp, sizeof(*manyp));

		for (i = 0; i < nsamp; i++) {
			perftools__profiles__sample__init(&many[i]);
			many[i].location_id = b.locids[2];
			many[i].n_location_id = 1;
			many[i].value = b.vals[0];
			many[i].n_value = 2;
			manyp[i] = &many[i];
		}
		b.p.sample = manyp;
		b.p.n_sample = nsamp;
		raw = pack(&b.p, &rawlen);
		z = gz(raw, rawlen, &zlen);
		put("ten-million-samples.pb.gz", z, zlen);
		free(z);
		free(raw);
		free(many);
		free(manyp);
	}

	/* A stack of 100,000 frames: over the default --max-depth. */
	base_init(&b);
	{
		uint64_t *deep = malloc(100000 * sizeof(*deep));

		for (i = 0; i < 100000; i++)
			deep[i] = 1 + (i & 1);
		b.s[0].location_id = deep;
		b.s[0].n_location_id = 100000;
		raw = pack(&b.p, &rawlen);
		z = gz(raw, rawlen, &zlen);
		put("deep-stack.pb.gz", z, zlen);
		free(z);
		free(raw);
		free(deep);
	}
	return 0;
}
