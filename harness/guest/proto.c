// SPDX-License-Identifier: GPL-2.0-only
/* proto.c: framing (CRC-32 from kutil) and field decoding for the results channel. */
#include "proto.h"
#include "kutil.h"
#include "rbuf.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

long proto_check(const char *line, size_t n)
{
	/* " *" + 8 hex digits at the very end */
	if (n < 10 + strlen(PROTO_MAGIC))
		return -1;
	const char *suf = line + n - 10;
	if (suf[0] != ' ' || suf[1] != '*')
		return -1;
	uint32_t want = 0;
	for (int i = 2; i < 10; i++) {
		char c = suf[i];
		unsigned v;
		if (c >= '0' && c <= '9')
			v = (unsigned)(c - '0');
		else if (c >= 'a' && c <= 'f')
			v = (unsigned)(c - 'a' + 10);
		else
			return -1; /* lowercase only, as the protocol says */
		want = (want << 4) | v;
	}
	size_t plen = n - 10;
	if (ku_crc32(line, plen) != want)
		return -1;
	return (long)plen;
}

static int hexval(char c)
{
	if (c >= '0' && c <= '9') return c - '0';
	if (c >= 'a' && c <= 'f') return c - 'a' + 10;
	if (c >= 'A' && c <= 'F') return c - 'A' + 10;
	return -1;
}

char *proto_pct_decode(const char *s, size_t n, size_t *outlen)
{
	char *out = malloc(n + 1);
	size_t o = 0;
	if (!out)
		abort();
	for (size_t i = 0; i < n; i++) {
		int h, l;
		if (s[i] == '%' && i + 2 < n &&
		    (h = hexval(s[i + 1])) >= 0 && (l = hexval(s[i + 2])) >= 0) {
			out[o++] = (char)(h * 16 + l);
			i += 2;
		} else {
			out[o++] = s[i];
		}
	}
	out[o] = '\0';
	if (outlen)
		*outlen = o;
	return out;
}

void proto_line(struct rbuf *b, const char *fields)
{
	struct rbuf t = {0};
	rbuf_add(&t, PROTO_MAGIC);
	rbuf_add(&t, fields);
	rbuf_addf(b, "%s *%08x\n", t.s, ku_crc32(t.s, t.len));
	rbuf_free(&t);
}
