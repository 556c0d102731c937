// SPDX-License-Identifier: GPL-2.0-only
/* tp_io.c: reads and writes that cannot block past a deadline. */
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

#include "ttypot.h"

void
tp_write_all(int fd, const void *buf, size_t len, const char *what)
{
	const char *p = buf;
	long long deadline = tp_now_ms() + TP_WAIT_MS;

	tp_waiting_for(what);
	while (len > 0) {
		int left = (int)(deadline - tp_now_ms());
		if (left <= 0)
			atf_tc_fail("%s: write stalled with %zu bytes left", what,
				    len);
		if (!(tp_poll1(fd, POLLOUT, left) & (POLLOUT | POLLERR | POLLHUP)))
			continue;
		ssize_t n = write(fd, p, len);
		if (n < 0 && (errno == EINTR || errno == EAGAIN))
			continue;
		if (n < 0)
			atf_tc_fail("%s: write: %s", what, strerror(errno));
		p += n;
		len -= (size_t)n;
	}
}

void
tp_write_str(int fd, const char *s, const char *what)
{
	tp_write_all(fd, s, strlen(s), what);
}

void
tp_read_exact(int fd, void *buf, size_t len, size_t chunk, const char *what)
{
	char *p = buf;
	size_t got = 0;
	long long deadline = tp_now_ms() + TP_WAIT_MS;

	tp_waiting_for(what);
	while (got < len) {
		int left = (int)(deadline - tp_now_ms());
		if (left <= 0 || !(tp_poll1(fd, POLLIN, left) & (POLLIN | POLLHUP | POLLERR)))
			atf_tc_fail("%s: read %zu of %zu bytes in %d ms", what,
				    got, len, TP_WAIT_MS);
		size_t want = len - got < chunk ? len - got : chunk;
		ssize_t n = read(fd, p + got, want);
		if (n < 0 && (errno == EINTR || errno == EAGAIN))
			continue;
		if (n < 0)
			atf_tc_fail("%s: read after %zu of %zu bytes: %s", what,
				    got, len, strerror(errno));
		if (n == 0)
			atf_tc_fail("%s: EOF after %zu of %zu bytes", what, got,
				    len);
		got += (size_t)n;
	}
}

void
tp_drain(int fd, void *buf, size_t cap, size_t chunk, int timeout_ms,
	 struct tp_drain *d, const char *what)
{
	char *p = buf;
	long long deadline = tp_now_ms() + timeout_ms;

	memset(d, 0, sizeof(*d));
	tp_waiting_for(what);
	for (;;) {
		int left = (int)(deadline - tp_now_ms());
		if (left <= 0)
			atf_tc_fail("%s: no byte and no EIO/EOF for %d ms (read %zu "
				    "bytes, %d EAGAIN)",
				    what, timeout_ms, d->got, d->eagain);
		char *dst = p + d->got;
		char spill[1];
		size_t want = chunk;
		if (d->got + want > cap) {
			/* Past the expected total: any further byte is an extra. */
			want = cap > d->got ? cap - d->got : 0;
			if (want == 0) {
				dst = spill;
				want = 1;
			}
		}
		ssize_t n = read(fd, dst, want);
		if (n > 0) {
			if (dst == spill)
				atf_tc_fail("%s: more than the %zu expected bytes",
					    what, cap);
			d->got += (size_t)n;
			if (n > d->max_read)
				d->max_read = (int)n;
			deadline = tp_now_ms() + timeout_ms; /* it moves */
			continue;
		}
		if (n == 0) {
			d->eof = true;
			return;
		}
		if (errno == EINTR)
			continue;
		if (errno == EAGAIN) {
			d->eagain++;
			tp_poll1(fd, POLLIN, left);
			continue;
		}
		d->err = errno;
		return;
	}
}

void
tp_pattern(void *buf, size_t len, unsigned seed)
{
	unsigned char *p = buf;
	/* Printable, never a control or flow character, position-dependent
	 * so that a lost, duplicated or reordered byte shows. */
	for (size_t i = 0; i < len; i++)
		p[i] = (unsigned char)('0' + (i * 7 + seed + i / 75) % 75);
}

long
tp_pattern_check(const void *buf, size_t len, unsigned seed)
{
	const unsigned char *p = buf;
	for (size_t i = 0; i < len; i++)
		if (p[i] != (unsigned char)('0' + (i * 7 + seed + i / 75) % 75))
			return (long)i;
	return -1;
}

/* FIONREAD(fd) once it reaches n, or the last value seen when timeout_ms
 * passed first (no failure: the caller's read shows what is there). */
static int
fionread_reaches(int fd, size_t n, int timeout_ms)
{
	long long deadline = tp_now_ms() + timeout_ms;
	int step = 0, avail = 0;

	for (;;) {
		if (ioctl(fd, FIONREAD, &avail) != 0)
			return -1;
		if (avail >= 0 && (size_t)avail >= n)
			return avail;
		if (tp_now_ms() > deadline)
			return avail;
		tp_backoff(&step);
	}
}

void
tp_expect_read(int fd, const char *want, size_t len, const char *what)
{
	char buf[512];

	ATF_REQUIRE_MSG(len < sizeof(buf), "%s: %zu bytes is more than one "
			"expected read holds", what, len);
	tp_wait_poll(fd, POLLIN, TP_WAIT_MS, what);
	/* POLLIN says something has arrived, not all of it: the read's size
	 * is only the kernel's answer once want's length is readable. */
	int avail = fionread_reaches(fd, len, TP_WAIT_MS);
	ssize_t n = read(fd, buf, sizeof(buf));
	if (n < 0)
		atf_tc_fail("%s: read: %s", what, strerror(errno));
	if ((size_t)n != len || memcmp(buf, want, len) != 0)
		atf_tc_fail("%s: read \"%s\" (%zd bytes), want \"%s\" (%zu)%s",
			    what, tp_esc(buf, (size_t)n), n, tp_esc(want, len),
			    len, avail >= 0 && (size_t)avail < len
				       ? "; FIONREAD stayed below that" : "");
	if (avail < 0 || (size_t)avail < len)
		atf_tc_fail("%s: read returned the %zu expected bytes while "
			    "FIONREAD stayed at %d for %d ms", what, len, avail,
			    TP_WAIT_MS);
}

void
tp_expect_bytes(int fd, const char *want, size_t len, const char *what)
{
	char buf[512];
	size_t got = 0;
	long long deadline = tp_now_ms() + TP_WAIT_MS;

	ATF_REQUIRE_MSG(len <= sizeof(buf), "%s: %zu bytes is more than "
			"tp_expect_bytes holds", what, len);
	tp_waiting_for(what);
	while (got < len) {
		int left = (int)(deadline - tp_now_ms());
		if (left <= 0 ||
		    !(tp_poll1(fd, POLLIN, left) & (POLLIN | POLLHUP | POLLERR)))
			break;
		ssize_t n = read(fd, buf + got, len - got);
		if (n < 0 && (errno == EINTR || errno == EAGAIN))
			continue;
		if (n <= 0)
			break;
		got += (size_t)n;
	}
	if (got != len || memcmp(buf, want, len) != 0)
		atf_tc_fail("%s: read \"%s\" (%zu bytes within %d ms), want "
			    "\"%s\" (%zu)", what, tp_esc(buf, got), got,
			    TP_WAIT_MS, tp_esc(want, len), len);
}

void *
tp_unusable_page(void)
{
	static void *page;
	if (page == NULL) {
		void *p = mmap(NULL, (size_t)sysconf(_SC_PAGESIZE), PROT_NONE,
			       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (p == MAP_FAILED)
			atf_tc_fail("mmap of a PROT_NONE page: %s", strerror(errno));
		page = p;
	}
	return page;
}
