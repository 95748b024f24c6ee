/*
 * A text decoder's tests (t_folded.c, t_perfscript.c): decode a string,
 * keeping a refusal's one-line message in msg, or ask for the message
 * of text that must be refused.  The includer names its decoder and the
 * path its messages begin with:
 *
 *	#define TDECODE		folded_decode
 *	#define TDECODE_PATH	"t.folded"
 *	#include "tdecode.h"
 *
 * Include after diag.h, profdiff.h and profile.h.
 */
#ifndef TDECODE_H
#define TDECODE_H

#include <string.h>

static char	 msg[512];

/* Decode text (strlen) with the given limits, or the defaults (NULL). */
static inline struct profile *
dec_lim(const char *text, const struct pd_limits *lim)
{
	struct profile	*p;
	struct diag	 d;

	diag_init(&d, TDECODE_PATH);
	msg[0] = '\0';
	if ((p = TDECODE(text, strlen(text), TDECODE_PATH, lim, &d)) ==
	    NULL)
		diag_format(&d, msg, sizeof(msg));
	return p;
}

static inline struct profile *
dec(const char *text)
{
	return dec_lim(text, NULL);
}

/* The message for text that must be refused, or "(accepted)". */
static inline const char *
refuse_lim(const char *text, const struct pd_limits *lim)
{
	struct profile *p;

	if ((p = dec_lim(text, lim)) != NULL) {
		profile_free(p);
		return "(accepted)";
	}
	return msg;
}

static inline const char *
refuse(const char *text)
{
	return refuse_lim(text, NULL);
}

#endif
