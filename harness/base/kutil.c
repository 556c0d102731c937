// SPDX-License-Identifier: GPL-2.0-only
/* kutil.c: helpers for the kernel/QEMU side (hashes, files, progress). */
#include "kutil.h"

#include <zlib.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

void
ku_progress(const char *fmt, ...)
{
	/* One write per line: the resolver child and the parent share stderr. */
	char line[2048];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(line, sizeof line, fmt, ap);
	va_end(ap);
	fprintf(stderr, "ttypot: %s\n", line);
}

int
ku_fmt(char *out, size_t outlen, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(out, outlen, fmt, ap);
	va_end(ap);
	return (n < 0 || (size_t)n >= outlen) ? -1 : n;
}

/* ------------------------------------------------------------ SHA-256 */

struct sha256 {
	uint32_t h[8];
	uint64_t len;
	unsigned char buf[64];
	size_t n;
};

static const uint32_t K[64] = {
	0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1,
	0x923f82a4, 0xab1c5ed5, 0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3,
	0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786,
	0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
	0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147,
	0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13,
	0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b,
	0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
	0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a,
	0x5b9cca4f, 0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208,
	0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2};

#define ROR(x, n) (((x) >> (n)) | ((x) << (32 - (n))))

static void
sha_block(struct sha256 *s, const unsigned char *p)
{
	uint32_t w[64], a, b, c, d, e, f, g, h;
	for (int i = 0; i < 16; i++)
		w[i] = (uint32_t)p[4 * i] << 24 | (uint32_t)p[4 * i + 1] << 16 |
		       (uint32_t)p[4 * i + 2] << 8 | p[4 * i + 3];
	for (int i = 16; i < 64; i++) {
		uint32_t s0 = ROR(w[i - 15], 7) ^ ROR(w[i - 15], 18) ^
			      (w[i - 15] >> 3);
		uint32_t s1 = ROR(w[i - 2], 17) ^ ROR(w[i - 2], 19) ^
			      (w[i - 2] >> 10);
		w[i] = w[i - 16] + s0 + w[i - 7] + s1;
	}
	a = s->h[0], b = s->h[1], c = s->h[2], d = s->h[3];
	e = s->h[4], f = s->h[5], g = s->h[6], h = s->h[7];
	for (int i = 0; i < 64; i++) {
		uint32_t t1 = h + (ROR(e, 6) ^ ROR(e, 11) ^ ROR(e, 25)) +
			      ((e & f) ^ (~e & g)) + K[i] + w[i];
		uint32_t t2 = (ROR(a, 2) ^ ROR(a, 13) ^ ROR(a, 22)) +
			      ((a & b) ^ (a & c) ^ (b & c));
		h = g, g = f, f = e, e = d + t1;
		d = c, c = b, b = a, a = t1 + t2;
	}
	s->h[0] += a, s->h[1] += b, s->h[2] += c, s->h[3] += d;
	s->h[4] += e, s->h[5] += f, s->h[6] += g, s->h[7] += h;
}

static void
sha_init(struct sha256 *s)
{
	static const uint32_t iv[8] = {0x6a09e667, 0xbb67ae85, 0x3c6ef372,
				       0xa54ff53a, 0x510e527f, 0x9b05688c,
				       0x1f83d9ab, 0x5be0cd19};
	memcpy(s->h, iv, sizeof iv);
	s->len = 0;
	s->n = 0;
}

static void
sha_update(struct sha256 *s, const void *data, size_t len)
{
	const unsigned char *p = data;
	s->len += len;
	while (len > 0) {
		size_t c = 64 - s->n < len ? 64 - s->n : len;
		memcpy(s->buf + s->n, p, c);
		s->n += c, p += c, len -= c;
		if (s->n == 64) {
			sha_block(s, s->buf);
			s->n = 0;
		}
	}
}

static void
sha_final_hex(struct sha256 *s, char out[65])
{
	uint64_t bits = s->len * 8;
	unsigned char pad = 0x80, zero = 0, lenb[8];
	sha_update(s, &pad, 1);
	while (s->n != 56)
		sha_update(s, &zero, 1);
	for (int i = 0; i < 8; i++)
		lenb[i] = (unsigned char)(bits >> (56 - 8 * i));
	sha_update(s, lenb, 8);
	for (int i = 0; i < 8; i++)
		snprintf(out + 8 * i, 9, "%08x", s->h[i]);
}

void
ku_sha256_hex(const void *buf, size_t len, char out[65])
{
	struct sha256 s;
	sha_init(&s);
	sha_update(&s, buf, len);
	sha_final_hex(&s, out);
}

int
ku_sha256_file(const char *path, char out[65])
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	struct sha256 s;
	sha_init(&s);
	char buf[65536];
	ssize_t n;
	while ((n = read(fd, buf, sizeof buf)) > 0)
		sha_update(&s, buf, (size_t)n);
	close(fd);
	if (n < 0)
		return -1;
	sha_final_hex(&s, out);
	return 0;
}

uint32_t
ku_crc32(const void *buf, size_t len)
{
	return (uint32_t)crc32_z(0L, buf, len);
}

/* ------------------------------------------------------------ files */

int
ku_mkdir_p(const char *path, int mode)
{
	char tmp[4096];
	if (ku_fmt(tmp, sizeof tmp, "%s", path) < 0) {
		errno = ENAMETOOLONG;
		return -1;
	}
	for (char *p = tmp + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(tmp, (mode_t)mode) < 0 && errno != EEXIST)
			return -1;
		*p = '/';
	}
	if (mkdir(tmp, (mode_t)mode) < 0 && errno != EEXIST)
		return -1;
	return ku_is_dir(tmp) ? 0 : -1;
}

int
ku_rm_rf(const char *path)
{
	struct stat st;
	if (lstat(path, &st) < 0)
		return errno == ENOENT ? 0 : -1;
	if (!S_ISDIR(st.st_mode))
		return unlink(path);
	DIR *d = opendir(path);
	if (!d)
		return -1;
	struct dirent *e;
	int rc = 0;
	while ((e = readdir(d))) {
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		char sub[4096];
		if (ku_fmt(sub, sizeof sub, "%s/%s", path, e->d_name) < 0 ||
		    ku_rm_rf(sub) < 0)
			rc = -1;
	}
	closedir(d);
	if (rmdir(path) < 0)
		rc = -1;
	return rc;
}

bool
ku_is_file(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

bool
ku_is_dir(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

char *
ku_read_file(const char *path, size_t *len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return NULL;
	size_t cap = 4096, n = 0;
	char *buf = malloc(cap);
	for (;;) {
		if (!buf)
			break;
		if (n + 1 >= cap) {
			char *nb = realloc(buf, cap * 2);
			if (!nb) {
				free(buf);
				buf = NULL;
				break;
			}
			buf = nb, cap *= 2;
		}
		ssize_t k = read(fd, buf + n, cap - 1 - n);
		if (k < 0) {
			free(buf);
			buf = NULL;
			break;
		}
		if (k == 0)
			break;
		n += (size_t)k;
	}
	close(fd);
	if (buf) {
		buf[n] = '\0';
		if (len)
			*len = n;
	}
	return buf;
}

int
ku_write_file(const char *path, const char *data, size_t len)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0)
		return -1;
	while (len > 0) {
		ssize_t k = write(fd, data, len);
		if (k < 0) {
			if (errno == EINTR)
				continue;
			close(fd);
			return -1;
		}
		data += k, len -= (size_t)k;
	}
	return close(fd);
}

int
ku_copy_file(const char *from, const char *to)
{
	struct stat st;
	int in = open(from, O_RDONLY | O_CLOEXEC);
	if (in < 0 || fstat(in, &st) < 0) {
		if (in >= 0)
			close(in);
		return -1;
	}
	int out = open(to, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC,
		       st.st_mode & 07777);
	if (out < 0) {
		close(in);
		return -1;
	}
	char buf[65536];
	ssize_t n;
	int rc = 0;
	while ((n = read(in, buf, sizeof buf)) > 0) {
		char *p = buf;
		while (n > 0) {
			ssize_t k = write(out, p, (size_t)n);
			if (k < 0) {
				rc = -1;
				n = 0;
				break;
			}
			p += k, n -= k;
		}
	}
	if (n < 0)
		rc = -1;
	fchmod(out, st.st_mode & 07777);
	close(in);
	if (close(out) < 0)
		rc = -1;
	return rc;
}

void
ku_default_cache(char *out, size_t outlen)
{
	const char *c = getenv("TTYPOT_CACHE");
	if (c && *c) {
		snprintf(out, outlen, "%s", c);
		return;
	}
	const char *h = getenv("HOME");
	snprintf(out, outlen, "%s/.cache/ttypot", h && *h ? h : "/root");
}

int ku_common_dir(const char *a, const char *b, char *out, size_t outlen)
{
	char ra[PATH_MAX], rb[PATH_MAX];
	if (!realpath(a, ra) || !realpath(b, rb))
		return -1;
	size_t n = 0, slash = 0;
	while (ra[n] && ra[n] == rb[n]) {
		if (ra[n] == '/')
			slash = n;
		n++;
	}
	if ((!ra[n] || ra[n] == '/') && (!rb[n] || rb[n] == '/'))
		slash = n;
	if (slash <= 1)
		return -1;
	ra[slash] = '\0';
	return ku_fmt(out, outlen, "%s", ra) > 0 ? 0 : -1;
}

int ku_lock(const char *path, int wait_s, const char *what)
{
	int fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
	if (fd < 0)
		return -1;
	for (int waited = 0;; waited++) {
		if (flock(fd, LOCK_EX | LOCK_NB) == 0)
			return fd;
		if (errno != EWOULDBLOCK && errno != EINTR)
			break;
		if (waited >= wait_s) {
			errno = ETIMEDOUT;
			break;
		}
		if (waited % 60 == 0)
			ku_progress("%s: waiting for another ttypot doing the same "
				    "(lock %s, %d s so far)", what, path, waited);
		struct timespec ts = { 1, 0 };
		nanosleep(&ts, NULL);
	}
	int e = errno;
	close(fd);
	errno = e;
	return -1;
}

void ku_unlock(int fd)
{
	if (fd >= 0)
		close(fd); /* closing drops the flock */
}

int ku_tmpdir_beside(const char *final, char *out, size_t outlen)
{
	char parent[PATH_MAX];
	if (ku_fmt(parent, sizeof parent, "%s", final) < 0) {
		errno = ENAMETOOLONG;
		return -1;
	}
	char *slash = strrchr(parent, '/');
	const char *name = slash ? slash + 1 : parent;
	if (slash)
		*slash = '\0';
	if (ku_fmt(out, outlen, "%s/.%s.tmp.XXXXXX", slash ? parent : ".",
		   name) < 0) {
		errno = ENAMETOOLONG;
		return -1;
	}
	if (slash && ku_mkdir_p(parent, 0755) < 0)
		return -1;
	/* mkdtemp's 0700 would follow the entry into place */
	return mkdtemp(out) && chmod(out, 0755) == 0 ? 0 : -1;
}

int ku_once(const char *final, bool is_file, const char *what, int wait_s,
	    ku_fill_fn fill, void *arg, char *err, size_t errlen)
{
	if (is_file ? ku_is_file(final) : ku_is_dir(final))
		return 0;
	char lockp[PATH_MAX], tmp[PATH_MAX], made[PATH_MAX + 256];
	if (ku_fmt(lockp, sizeof lockp, "%s.lock", final) < 0 ||
	    ku_tmpdir_beside(final, tmp, sizeof tmp) < 0) {
		snprintf(err, errlen, "%s: cannot make a directory beside "
			 "%s: %s", what, final, strerror(errno));
		return -1;
	}
	/* The temporary directory exists before the lock is taken: unique,
	 * so a writer that bypasses the lock can never remove it. */
	int lk = ku_lock(lockp, wait_s, what);
	if (lk < 0) {
		snprintf(err, errlen, "%s: cannot lock %s: %s", what, lockp,
			 strerror(errno));
		ku_rm_rf(tmp);
		return -1;
	}
	int rc = 0;
	if (is_file ? ku_is_file(final) : ku_is_dir(final))
		goto out; /* made while we waited */
	err[0] = '\0';
	if (fill(tmp, arg, err, errlen) < 0) {
		if (!err[0])
			snprintf(err, errlen, "%s: failed", what);
		rc = -1;
		goto out;
	}
	const char *base = strrchr(final, '/');
	ku_fmt(made, sizeof made, "%s/%s", tmp, base ? base + 1 : final);
	if (rename(is_file ? made : tmp, final) < 0 &&
	    !(is_file ? ku_is_file(final) : ku_is_dir(final))) {
		snprintf(err, errlen, "%s: cannot rename %s to %s: %s", what,
			 is_file ? made : tmp, final, strerror(errno));
		rc = -1;
	}
out:
	ku_rm_rf(tmp);
	ku_unlock(lk);
	return rc;
}
