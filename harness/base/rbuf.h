/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * base/: what every stage of the harness uses (rbuf.h text buffers and
 * escapes, kutil.h files and hashes, proc.h the one runner of external
 * commands); it uses no other folder.
 *
 * rbuf.h: a growable text buffer and the escapes every report format needs.
 * Text that came from a guest is untrusted: it goes through these escapes
 * (and utf8_clean at ingestion) before it reaches any output.
 */
#ifndef TTYPOT_RBUF_H
#define TTYPOT_RBUF_H

#include <stdarg.h>
#include <stddef.h>

struct rbuf {
	char *s;     /* always NUL-terminated once anything was added */
	size_t len;
	size_t cap;
};

void rbuf_add(struct rbuf *b, const char *s);
void rbuf_addn(struct rbuf *b, const char *s, size_t n);
void rbuf_addc(struct rbuf *b, char c);
void rbuf_addf(struct rbuf *b, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void rbuf_free(struct rbuf *b);
const char *rbuf_str(struct rbuf *b); /* "" when empty */

/* Escapes (append s escaped).  s must be valid UTF-8 (see utf8_clean). */
void rbuf_html(struct rbuf *b, const char *s);  /* also fine for XML */
void rbuf_xml(struct rbuf *b, const char *s);   /* drops XML-illegal controls */
void rbuf_csv(struct rbuf *b, const char *s);   /* quoted when needed */
void rbuf_md(struct rbuf *b, const char *s);    /* one table cell, no markup */

/* A malloc'd copy of n bytes with invalid UTF-8 replaced by U+FFFD and NUL
 * bytes by U+FFFD. */
char *utf8_clean(const char *s, size_t n);

/* Helpers shared by the writers. */
char *xstrdup(const char *s);          /* aborts on ENOMEM; NULL -> "" */
void *xrealloc(void *p, size_t n);
int mkdir_p(const char *dir);          /* 0 or -1 (errno) */
/* Write the buffer to dir/name atomically (tmp + rename).  0 or -1 with a
 * message in err. */
int write_file(const char *dir, const char *name, const struct rbuf *b,
	       char *err, size_t errlen);
/* Read a whole file; NULL with a message in err. *len gets its size. */
char *read_file(const char *path, size_t *len, char *err, size_t errlen);
/* A file-name-safe form of a label: [A-Za-z0-9._-], others become '_'. */
void safe_name(const char *label, char *out, size_t outlen);

#endif
