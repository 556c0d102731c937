// SPDX-License-Identifier: GPL-2.0-only
/* rbuf.c: growable text buffer, escapes, small file helpers. */
#include "rbuf.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

void *xrealloc(void *p, size_t n)
{
	void *q = realloc(p, n ? n : 1);
	if (!q) {
		fprintf(stderr, "ttypot: out of memory\n");
		abort();
	}
	return q;
}

char *xstrdup(const char *s)
{
	size_t n = s ? strlen(s) : 0;
	char *d = xrealloc(NULL, n + 1);
	if (n)
		memcpy(d, s, n);
	d[n] = '\0';
	return d;
}

static void grow(struct rbuf *b, size_t extra)
{
	if (b->len + extra + 1 <= b->cap)
		return;
	size_t cap = b->cap ? b->cap : 256;
	while (cap < b->len + extra + 1)
		cap *= 2;
	b->s = xrealloc(b->s, cap);
	b->cap = cap;
}

void rbuf_addn(struct rbuf *b, const char *s, size_t n)
{
	grow(b, n);
	memcpy(b->s + b->len, s, n);
	b->len += n;
	b->s[b->len] = '\0';
}

void rbuf_add(struct rbuf *b, const char *s)
{
	rbuf_addn(b, s ? s : "", s ? strlen(s) : 0);
}

void rbuf_addc(struct rbuf *b, char c)
{
	rbuf_addn(b, &c, 1);
}

void rbuf_addf(struct rbuf *b, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	grow(b, (size_t)n);
	va_start(ap, fmt);
	vsnprintf(b->s + b->len, (size_t)n + 1, fmt, ap);
	va_end(ap);
	b->len += (size_t)n;
}

void rbuf_free(struct rbuf *b)
{
	free(b->s);
	b->s = NULL;
	b->len = b->cap = 0;
}

const char *rbuf_str(struct rbuf *b)
{
	return b->s ? b->s : "";
}

void rbuf_html(struct rbuf *b, const char *s)
{
	for (const unsigned char *p = (const unsigned char *)(s ? s : ""); *p; p++) {
		switch (*p) {
		case '<': rbuf_add(b, "&lt;"); break;
		case '>': rbuf_add(b, "&gt;"); break;
		case '&': rbuf_add(b, "&amp;"); break;
		case '"': rbuf_add(b, "&quot;"); break;
		case '\'': rbuf_add(b, "&#39;"); break;
		default:
			if ((*p < 0x20 && *p != '\n' && *p != '\t' && *p != '\r') || *p == 0x7f)
				rbuf_addf(b, "\\x%02x", *p);
			else
				rbuf_addc(b, (char)*p);
		}
	}
}

void rbuf_xml(struct rbuf *b, const char *s)
{
	rbuf_html(b, s); /* controls are already rewritten as \xNN */
}

void rbuf_csv(struct rbuf *b, const char *s)
{
	s = s ? s : "";
	if (!strpbrk(s, ",\"\r\n") && s[0] != ' ') {
		rbuf_add(b, s);
		return;
	}
	rbuf_addc(b, '"');
	for (const char *p = s; *p; p++) {
		if (*p == '"')
			rbuf_addc(b, '"');
		rbuf_addc(b, *p);
	}
	rbuf_addc(b, '"');
}

void rbuf_md(struct rbuf *b, const char *s)
{
	for (const unsigned char *p = (const unsigned char *)(s ? s : ""); *p; p++) {
		switch (*p) {
		case '|': rbuf_add(b, "\\|"); break;
		case '<': rbuf_add(b, "&lt;"); break;
		case '>': rbuf_add(b, "&gt;"); break;
		case '&': rbuf_add(b, "&amp;"); break;
		case '`': case '*': case '_': case '[': case ']': case '\\':
			rbuf_addc(b, '\\');
			rbuf_addc(b, (char)*p);
			break;
		default:
			rbuf_addc(b, *p < 0x20 || *p == 0x7f ? ' ' : (char)*p);
		}
	}
}

/* Length of the valid UTF-8 sequence at p (n bytes left), or 0. */
static size_t utf8_seq(const unsigned char *p, size_t n)
{
	size_t len;
	unsigned cp;
	if (p[0] < 0x80)
		return p[0] ? 1 : 0;
	if ((p[0] & 0xe0) == 0xc0) { len = 2; cp = p[0] & 0x1f; }
	else if ((p[0] & 0xf0) == 0xe0) { len = 3; cp = p[0] & 0x0f; }
	else if ((p[0] & 0xf8) == 0xf0) { len = 4; cp = p[0] & 0x07; }
	else return 0;
	if (n < len)
		return 0;
	for (size_t i = 1; i < len; i++) {
		if ((p[i] & 0xc0) != 0x80)
			return 0;
		cp = (cp << 6) | (p[i] & 0x3f);
	}
	if ((len == 2 && cp < 0x80) || (len == 3 && cp < 0x800) ||
	    (len == 4 && (cp < 0x10000 || cp > 0x10ffff)) ||
	    (cp >= 0xd800 && cp <= 0xdfff))
		return 0;
	return len;
}

char *utf8_clean(const char *s, size_t n)
{
	struct rbuf b = {0};
	const unsigned char *p = (const unsigned char *)s;
	size_t i = 0;
	rbuf_add(&b, "");
	while (i < n) {
		size_t l = utf8_seq(p + i, n - i);
		if (l) {
			rbuf_addn(&b, s + i, l);
			i += l;
		} else {
			rbuf_add(&b, "\xef\xbf\xbd");
			i++;
		}
	}
	return b.s;
}

int mkdir_p(const char *dir)
{
	char tmp[4096];
	if (snprintf(tmp, sizeof tmp, "%s", dir) >= (int)sizeof tmp) {
		errno = ENAMETOOLONG;
		return -1;
	}
	for (char *p = tmp + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(tmp, 0755) < 0 && errno != EEXIST)
			return -1;
		*p = '/';
	}
	if (mkdir(tmp, 0755) < 0 && errno != EEXIST)
		return -1;
	return 0;
}

int write_file(const char *dir, const char *name, const struct rbuf *b,
	       char *err, size_t errlen)
{
	char path[4096], tmp[4200];
	snprintf(path, sizeof path, "%s/%s", dir, name);
	snprintf(tmp, sizeof tmp, "%s.tmp%ld", path, (long)getpid());
	int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0) {
		snprintf(err, errlen, "%s: %s", tmp, strerror(errno));
		return -1;
	}
	size_t off = 0;
	while (off < b->len) {
		ssize_t w = write(fd, b->s + off, b->len - off);
		if (w < 0) {
			if (errno == EINTR)
				continue;
			snprintf(err, errlen, "%s: %s", tmp, strerror(errno));
			close(fd);
			unlink(tmp);
			return -1;
		}
		off += (size_t)w;
	}
	if (close(fd) < 0 || rename(tmp, path) < 0) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		unlink(tmp);
		return -1;
	}
	return 0;
}

char *read_file(const char *path, size_t *len, char *err, size_t errlen)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return NULL;
	}
	struct rbuf b = {0};
	char chunk[65536];
	for (;;) {
		ssize_t r = read(fd, chunk, sizeof chunk);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			snprintf(err, errlen, "%s: %s", path, strerror(errno));
			close(fd);
			rbuf_free(&b);
			return NULL;
		}
		if (r == 0)
			break;
		rbuf_addn(&b, chunk, (size_t)r);
	}
	close(fd);
	rbuf_add(&b, "");
	if (len)
		*len = b.len;
	return b.s;
}

void safe_name(const char *label, char *out, size_t outlen)
{
	size_t i = 0;
	for (const char *p = label; *p && i + 1 < outlen; p++) {
		char c = *p;
		int ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
			 (c >= '0' && c <= '9') || c == '.' || c == '_' || c == '-';
		out[i++] = ok ? c : '_';
	}
	if (i == 0 || out[0] == '.')
		out[i ? 0 : i++] = '_';
	out[i] = '\0';
}
