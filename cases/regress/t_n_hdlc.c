// SPDX-License-Identifier: GPL-2.0-only
/* t_n_hdlc.c: regressions.md #12: with a frame-oriented line discipline
 * (N_HDLC) a read too short for the frame fails EOVERFLOW, and a read into
 * a bad buffer must fail EFAULT, not the EOVERFLOW that iterate_tty_read
 * let mask it (fixed by e71a8d5cf4b4).  Needs the n_hdlc ldisc: skipped,
 * naming it, where TIOCSETD cannot load it. */
#include <errno.h>
#include <poll.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "ttypot.h"

#ifndef N_HDLC
#define N_HDLC 13
#endif
#define FRAME 100

static void
open_hdlc(struct tp_pty *p)
{
	tp_pty_open_ldisc(p, TP_RAW, N_HDLC, "N_HDLC",
			  "the n_hdlc line discipline (module n_hdlc)");
}

/* One 100-byte frame written by the master, readable on the slave. */
static void
send_frame(struct tp_pty *p, unsigned seed)
{
	char f[FRAME];

	tp_pattern(f, FRAME, seed);
	tp_write_all(p->master, f, FRAME, "one 100-byte frame");
	tp_wait_poll(p->slave, POLLIN, TP_WAIT_MS, "the frame on the slave");
}

TP_CASE_COMMITS(hdlc_short_read_eoverflow_bad_buffer_efault, TP_LINUX,
		"3b830a9c34d5", "e71a8d5cf4b4",
		"#12 (needs n_hdlc): N_HDLC on the slave; read(10) of a 100-byte "
		"frame fails EOVERFLOW; read(10) into an unmapped buffer fails "
		"EFAULT; a read of 100 returns the next frame whole")
{
	struct tp_pty p;
	char buf[FRAME];

	open_hdlc(&p);
	send_frame(&p, 1);
	errno = 0;
	ssize_t n = read(p.slave, buf, 10);
	ATF_CHECK_MSG(n < 0 && errno == EOVERFLOW, "short read: %zd (%s), "
		      "want EOVERFLOW", n, strerror(errno));
	void *bad = tp_unusable_page();
	send_frame(&p, 2);
	errno = 0;
	n = read(p.slave, bad, 10);
	ATF_CHECK_MSG(n < 0 && errno == EFAULT, "read into a bad buffer: %zd "
		      "(%s), want EFAULT", n, strerror(errno));
	send_frame(&p, 3);
	n = read(p.slave, buf, sizeof(buf));
	ATF_CHECK_MSG(n == FRAME && tp_pattern_check(buf, FRAME, 3) < 0,
		      "full read: %zd (%s), want the third frame", n,
		      n < 0 ? strerror(errno) : "bytes");
	int ld = 0;
	ioctl(p.slave, TIOCSETD, &ld);
	tp_pty_close(&p);
}

ATF_TP_ADD_TCS(tp)
{
	ATF_TP_ADD_TC(tp, hdlc_short_read_eoverflow_bad_buffer_efault);
	return atf_no_error();
}
