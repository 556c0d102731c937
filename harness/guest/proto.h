/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * proto.h: the results-channel line format (harness/PROTOCOL.md):
 * "@TTYPOT1 <kind> <fields...> *<crc32 of everything before ' *'>".
 */
#ifndef TTYPOT_PROTO_H
#define TTYPOT_PROTO_H

#include <stddef.h>
#include <stdint.h>

#define PROTO_MAGIC "@TTYPOT1 "

/* The CRC is zlib's crc32 (ku_crc32() in kutil.h). */

/* Check one line (no newline).  Returns the length of the payload (the part
 * before " *crc", starting with the magic) or -1 when the CRC suffix is
 * absent or wrong. */
long proto_check(const char *line, size_t n);

/* Percent-decode n bytes of s into a malloc'd string (bytes kept raw; "%zz"
 * stays literal); *outlen (may be NULL) gets its length.  Never fails. */
char *proto_pct_decode(const char *s, size_t n, size_t *outlen);

/* Append one framed line: "@TTYPOT1 " fields " *" crc "\n" (fields already
 * percent-encoded where needed).  For writers and tests. */
struct rbuf;
void proto_line(struct rbuf *b, const char *fields);

#endif
