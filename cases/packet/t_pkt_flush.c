/* t_pkt_flush.c: packet-mode FLUSHREAD/FLUSHWRITE status from tcflush on the slave. */
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <termios.h>
#include <unistd.h>

#include "ttypot.h"

static void
set_pkt(int master, int on)
{
	if (ioctl(master, TIOCPKT, &on) != 0)
		atf_tc_fail("ioctl(master, TIOCPKT, %d): %s", on, strerror(errno));
}

/* A pty pair with packet mode on; the master is non-blocking so that a read
 * after poll can never hang. */
static void
pkt_open(struct tp_pty *p, enum tp_mode mode)
{
	tp_pty_open(p, mode);
	set_pkt(p->master, 1);
	tp_set_nonblock(p->master, true);
}

/* Status changes are posted synchronously by the ioctl that causes them:
 * "no status" is checked at once, without a window. */
static void
expect_not_readable(int fd, const char *what)
{
	short rev = tp_poll1(fd, POLLIN, 0);
	if (rev & POLLIN)
		atf_tc_fail("%s: fd %d is readable (revents 0x%x)", what, fd,
			    (unsigned)rev);
}

/* A status change is reported by one read returning exactly one byte. */
static void
expect_status(int master, unsigned char want, const char *what)
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

/* Slave output read from a packet-mode master: one read, TIOCPKT_DATA (0)
 * first, then the bytes. */
static void
expect_data(int master, const char *want, size_t len, const char *what)
{
	char buf[64];

	tp_wait_fionread(master, (int)len, TP_WAIT_MS, what);
	ssize_t n = read(master, buf, sizeof(buf));
	if (n < 0)
		atf_tc_fail("%s: read: %s", what, strerror(errno));
	if ((size_t)n != len + 1 || buf[0] != TIOCPKT_DATA ||
	    memcmp(buf + 1, want, len) != 0)
		atf_tc_fail("%s: read returned %zd bytes, first 0x%02x \"%.*s\"; "
			    "want %zu bytes: 0x00 \"%.*s\"",
			    what, n, n > 0 ? (unsigned char)buf[0] : 0,
			    n > 1 ? (int)n - 1 : 0, buf + 1, len + 1, (int)len, want);
}

static void
flush(int fd, int queue, const char *name)
{
	if (tcflush(fd, queue) != 0)
		atf_tc_fail("tcflush(slave, %s): %s", name, strerror(errno));
}

TP_CASE(pkt_flushread, TP_LINUX,
	"tcflush(slave, TCIFLUSH) reports TIOCPKT_FLUSHREAD (0x01) on the "
	"packet-mode master")
{
	struct tp_pty p;

	pkt_open(&p, TP_RAW);
	flush(p.slave, TCIFLUSH, "TCIFLUSH");
	expect_status(p.master, TIOCPKT_FLUSHREAD, "status after TCIFLUSH");
	expect_not_readable(p.master, "a single status");
	tp_pty_close(&p);
}

TP_CASE(pkt_flushwrite, TP_LINUX,
	"tcflush(slave, TCOFLUSH) reports TIOCPKT_FLUSHWRITE (0x02) on the "
	"packet-mode master")
{
	struct tp_pty p;

	pkt_open(&p, TP_RAW);
	flush(p.slave, TCOFLUSH, "TCOFLUSH");
	expect_status(p.master, TIOCPKT_FLUSHWRITE, "status after TCOFLUSH");
	expect_not_readable(p.master, "a single status");
	tp_pty_close(&p);
}

TP_CASE(pkt_flush_both, TP_LINUX,
	"tcflush(slave, TCIOFLUSH) reports both bits in one status byte: "
	"FLUSHREAD | FLUSHWRITE (0x03)")
{
	struct tp_pty p;

	pkt_open(&p, TP_RAW);
	flush(p.slave, TCIOFLUSH, "TCIOFLUSH");
	expect_status(p.master, TIOCPKT_FLUSHREAD | TIOCPKT_FLUSHWRITE,
		      "status after TCIOFLUSH");
	expect_not_readable(p.master, "a single status");
	tp_pty_close(&p);
}

TP_CASE(pkt_flushwrite_keeps_delivered_output, TP_LINUX,
	"tcflush(slave, TCOFLUSH) only drops output still in the pty's flip "
	"buffer: bytes the master's line discipline already holds are read "
	"after the FLUSHWRITE status, as a data packet")
{
	struct tp_pty p;

	pkt_open(&p, TP_RAW);
	tp_write_str(p.slave, "sent", "slave write of sent");
	/* FIONREAD counts only what the master's ldisc has received. */
	tp_wait_fionread(p.master, 4, TP_WAIT_MS, "output delivered to the master");
	flush(p.slave, TCOFLUSH, "TCOFLUSH");
	expect_status(p.master, TIOCPKT_FLUSHWRITE, "status after TCOFLUSH");
	expect_data(p.master, "sent", 4, "output delivered before the flush");
	expect_not_readable(p.master, "nothing after the data");
	tp_pty_close(&p);
}

ATF_TP_ADD_TCS(tp)
{
	ATF_TP_ADD_TC(tp, pkt_flushread);
	ATF_TP_ADD_TC(tp, pkt_flushwrite);
	ATF_TP_ADD_TC(tp, pkt_flush_both);
	ATF_TP_ADD_TC(tp, pkt_flushwrite_keeps_delivered_output);
	return atf_no_error();
}
