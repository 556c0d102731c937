// SPDX-License-Identifier: GPL-2.0-only
/* tp_text.c: bytes rendered as text for failure messages. */
#include <stdio.h>

#include "ttypot.h"

const char *
tp_esc(const void *buf, size_t len)
{
	/* Four rotating buffers: one message may render several byte runs. */
	static char out[4][512];
	static int slot;
	char *o = out[slot++ % 4];
	const unsigned char *p = buf;
	size_t j = 0;

	for (size_t i = 0; i < len && j < sizeof(out[0]) - 8; i++) {
		if (p[i] >= 0x20 && p[i] < 0x7f && p[i] != '\\')
			o[j++] = (char)p[i];
		else
			j += (size_t)snprintf(o + j, 8, "\\x%02x", p[i]);
	}
	o[j] = '\0';
	return o;
}
