/*
 * The program whose gperftools profiles the symbolization tests read
 * (capture.sh): two functions that do the work, one of them through a
 * static function the compiler inlines into it, so that DWARF has an
 * inlined frame to name.  "prog ROUNDS SUMS" runs ROUNDS rounds, each
 * one hash_all() and SUMS sum_all()s: the changed profile is the same
 * program with more sum_all() work.  Each round also calls a C++
 * method (cxx.cpp), whose name is demangled.
 */
#include <stdio.h>
#include <stdlib.h>

#ifdef OTHER_BUILD
const char other_build[] = "another build of the same source";
#endif

static inline unsigned
mix(unsigned x)
{
	x ^= x >> 13;
	x *= 0x5bd1e995u;
	return x ^ (x >> 15);
}

__attribute__((noinline)) unsigned
hash_all(unsigned n)
{
	unsigned h = 0, i;

	for (i = 0; i < n; i++)
		h += mix(i + h);
	return h;
}

unsigned cxx_work(unsigned);

__attribute__((noinline)) unsigned
sum_all(unsigned n)
{
	unsigned s = 0, i;

	for (i = 0; i < n; i++)
		s += i * i % 7;
	return s;
}

int
main(int argc, char **argv)
{
	unsigned rounds = argc > 1 ? (unsigned)atoi(argv[1]) : 200;
	unsigned sums = argc > 2 ? (unsigned)atoi(argv[2]) : 1;
	unsigned r, k, t = 0;

	for (r = 0; r < rounds; r++) {
		t += hash_all(1000000 + r);
		t += cxx_work(300000 + r);
		for (k = 0; k < sums; k++)
			t += sum_all(1000000 + t % 3);
	}
	printf("%u\n", t);
	return 0;
}
