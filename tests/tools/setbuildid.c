/*
 * setbuildid: give the mappings of a pprof protobuf whose file name ends
 * in NAME the build id ID, and write the profile back, raw (profdiff
 * reads a protobuf gzipped or not).  gperftools' raw profiles carry no
 * build ids; tests/data/symbol/capture.sh makes one with an id from
 * them (through topprof), for the tests of a binary of another build
 * id, which must be refused.
 *
 * usage: setbuildid IN.pb.gz NAME ID OUT.pb
 */
#include <err.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "profile.pb-c.h"

int
main(int argc, char **argv)
{
	Perftools__Profiles__Profile	*p;
	gzFile				 in;
	FILE				*out;
	uint8_t				*buf = NULL, *ob;
	size_t				 len = 0, cap = 0, n, i, nl;
	int				 r, set = 0;
	ProtobufCBinaryData		*st;

	if (argc != 5)
		errx(2, "usage: setbuildid IN.pb.gz NAME ID OUT.pb");
	if ((in = gzopen(argv[1], "rb")) == NULL)
		err(1, "%s", argv[1]);
	for (;;) {
		if (len == cap && (buf = realloc(buf, cap = cap ? 2 * cap :
		    65536)) == NULL)
			err(1, NULL);
		if ((r = gzread(in, buf + len, cap - len)) < 0)
			errx(1, "%s: cannot inflate", argv[1]);
		if (r == 0)
			break;
		len += r;
	}
	gzclose(in);
	if ((p = perftools__profiles__profile__unpack(NULL, len, buf)) == NULL)
		errx(1, "%s: not a profile", argv[1]);
	if ((st = realloc(p->string_table, (p->n_string_table + 1) *
	    sizeof(*st))) == NULL)
		err(1, NULL);
	p->string_table = st;
	st[p->n_string_table].data = (uint8_t *)argv[3];
	st[p->n_string_table].len = strlen(argv[3]);
	nl = strlen(argv[2]);
	for (i = 0; i < p->n_mapping; i++) {
		const ProtobufCBinaryData *f = &st[p->mapping[i]->filename];

		if (f->len >= nl && memcmp(f->data + f->len - nl, argv[2],
		    nl) == 0) {
			p->mapping[i]->build_id = (int64_t)p->n_string_table;
			set++;
		}
	}
	p->n_string_table++;
	if (set == 0)
		errx(1, "%s: no mapping's file name ends in %s", argv[1],
		    argv[2]);
	n = perftools__profiles__profile__get_packed_size(p);
	if ((ob = malloc(n)) == NULL)
		err(1, NULL);
	perftools__profiles__profile__pack(p, ob);
	if ((out = fopen(argv[4], "wb")) == NULL ||
	    fwrite(ob, 1, n, out) != n || fclose(out) != 0)
		err(1, "%s", argv[4]);
	return 0;
}
