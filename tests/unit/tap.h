/*
 * A tiny test harness for the unit tests.  Each CHECK prints one line,
 * "ok" or "not ok" with the file and line, so that tests/run.sh can count
 * them; tap_done() returns the exit status (1 if anything failed).
 */
#ifndef TAP_H
#define TAP_H

#include <math.h>
#include <stdio.h>
#include <string.h>

static int tap_n, tap_failed;

static void
tap_result(int ok, const char *file, int line, const char *what)
{
	tap_n++;
	if (!ok)
		tap_failed++;
	printf("%s %d - %s:%d: %s\n", ok ? "ok" : "not ok", tap_n, file, line,
	    what);
}

#define CHECK(cond)	tap_result(!!(cond), __FILE__, __LINE__, #cond)
#define CHECK_INT(a, b)	do {						\
	long long a_ = (long long)(a), b_ = (long long)(b);		\
	tap_result(a_ == b_, __FILE__, __LINE__, #a " == " #b);		\
	if (a_ != b_)							\
		printf("#   got %lld, want %lld\n", a_, b_);		\
} while (0)
#define CHECK_STR(a, b)	do {						\
	const char *a_ = (a), *b_ = (b);				\
	int ok_ = a_ != NULL && b_ != NULL && strcmp(a_, b_) == 0;	\
	tap_result(ok_, __FILE__, __LINE__, #a " == " #b);		\
	if (!ok_)							\
		printf("#   got \"%s\", want \"%s\"\n",			\
		    a_ ? a_ : "(null)", b_ ? b_ : "(null)");		\
} while (0)
/* |a - b| <= tol */
#define CHECK_NEAR(a, b, tol)	do {					\
	double a_ = (a), b_ = (b);					\
	int ok_ = fabs(a_ - b_) <= (tol);				\
	tap_result(ok_, __FILE__, __LINE__, #a " ~= " #b);		\
	if (!ok_)							\
		printf("#   got %.12g, want %.12g\n", a_, b_);		\
} while (0)

static int
tap_done(void)
{
	printf("# %d checks, %d failed\n", tap_n, tap_failed);
	return tap_failed != 0;
}

#endif
