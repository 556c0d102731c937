// SPDX-License-Identifier: GPL-2.0-only
/* tp_pkt.c: pty packet mode (TIOCPKT) on the master: status and data packets. */
#include <errno.h>
#include <poll.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "ttypot.h"

void
tp_pkt_set(int master, int on)
{
	if (ioctl(master, TIOCPKT, &on) != 0)
		atf_tc_fail("ioctl(master, TIOCPKT, %d): %s", on, strerror(errno));
}

void
tp_pkt_open(struct tp_pty *p, enum tp_mode mode)
{
	tp_pty_open(p, mode);
	tp_pkt_set(p->master, 1);
	tp_set_nonblock(p->master, true);
}

void
tp_pkt_expect_status(int master, unsigned char want, const char *what)
{
	unsigned char buf[64];

	tp_wait_poll(master, POLLIN, TP_WAIT_MS, what);
	ssize_t n = read(master, buf, sizeof(buf));
	if (n < 0)
		atf_tc_fail("%s: read: %s", what, strerror(errno));
	if (n != 1 || buf[0] != want)
		atf_tc_fail("%s: read returned %zd bytes, first 0x%02x; want the "
			    "single status byte 0x%02x",
			    what, n, n > 0 ? buf[0] : 0, want);
}

void
tp_pkt_expect_data(int master, const char *want, size_t len, const char *what)
{
	char buf[64];

	tp_wait_fionread(master, (int)len, TP_WAIT_MS, what);
	ssize_t n = read(master, buf, sizeof(buf));
	if (n < 0)
		atf_tc_fail("%s: read: %s", what, strerror(errno));
	if ((size_t)n != len + 1 || buf[0] != TIOCPKT_DATA ||
	    memcmp(buf + 1, want, len) != 0)
		atf_tc_fail("%s: read returned %zd bytes, first 0x%02x \"%s\"; "
			    "want %zu bytes: 0x00 \"%s\"",
			    what, n, n > 0 ? (unsigned char)buf[0] : 0,
			    tp_esc(buf + 1, n > 1 ? (size_t)n - 1 : 0), len + 1,
			    tp_esc(want, len));
}

void
tp_pkt_reader_start(struct tp_reader *r, int master)
{
	tp_set_nonblock(master, false);
	tp_reader_start(r, master, TP_RD_MAX);
	tp_wait_blocked_fd(r->child.pid, SYS_read, master,
			   "reader asleep in read(master)");
}

void
tp_pkt_reader_expect(struct tp_reader *r, unsigned char want, const char *what)
{
	struct tp_rd_result res;

	tp_reader_result(r, &res, what);
	tp_set_nonblock(r->fd, true);
	if (res.n < 0)
		atf_tc_fail("%s: read: %s", what, strerror(res.err));
	if (res.n != 1 || (unsigned char)res.data[0] != want)
		atf_tc_fail("%s: the blocked read returned %zd bytes, first "
			    "0x%02x; want the single status byte 0x%02x", what,
			    res.n, res.n > 0 ? (unsigned char)res.data[0] : 0,
			    want);
}
