/*
 * A 64-bit hash of bytes, eight at a time, for the decoders' tables of
 * names (folded.c, perfscript.c).  Its value never reaches the model or
 * the output.
 */
#ifndef HASH_H
#define HASH_H

#include <stddef.h>
#include <stdint.h>

uint64_t	hash_bytes(const unsigned char *s, size_t n);

#endif
