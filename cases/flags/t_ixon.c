// SPDX-License-Identifier: GPL-2.0-only
/* t_ixon.c: XON/XOFF output flow control (IXON, IXANY) driven by VSTOP
 * and VSTART bytes the master writes.  The ldisc handles the input in
 * order, so once a marker byte written after ^S is readable on the slave,
 * the ^S has been acted on. */
#include <errno.h>
#include <poll.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <termios.h>
#include <unistd.h>

#include "ttypot.h"

static void
open_ixon(struct tp_pty *p, tcflag_t iflag)
{
	tp_pty_open(p, TP_RAW);
	tp_iflag(p->slave, iflag, 0);
}

static bool
can_write(int fd)
{
	return tp_poll1(fd, POLLOUT, 0) & POLLOUT;
}

static int
avail(int fd)
{
	int n = -1;
	if (ioctl(fd, FIONREAD, &n) != 0)
		atf_tc_fail("FIONREAD: %s", strerror(errno));
	return n;
}

/* Master sends `ctl` followed by the marker 'm'; wait until the marker is
 * on the slave and consume it, so `ctl` has been processed. */
static void
send_and_sync(struct tp_pty *p, const char *ctl, const char *what)
{
	char buf[8];
	tp_write_str(p->master, ctl, what);
	tp_write_str(p->master, "m", "marker");
	tp_wait_fionread(p->slave, 1, TP_WAIT_MS, what);
	ssize_t r = read(p->slave, buf, sizeof(buf));
	ATF_REQUIRE_MSG(r > 0, "read of the marker: %s", strerror(errno));
	/* Flow characters are consumed, never data. */
	ATF_CHECK_MSG(r == 1 && buf[0] == 'm', "read %zd bytes, first 0x%02x, "
		      "expected the marker alone", r, buf[0]);
}

static int
writer(void *arg)
{
	struct tp_pty *p = arg;
	/* Blocking write: it must sleep until output is restarted. */
	ssize_t n = write(p->slave, "hello", 5);
	if (n != 5)
		return tp_child_fail("write on the slave returned %zd (%s)", n,
				     n < 0 ? strerror(errno) : "short");
	return 0;
}

TP_CASE(ixon_stop_and_start_output, TP_POSIX,
	"With IXON, ^S from the master stops the slave's output: a writer "
	"sleeps in write(2) and the master gets nothing; ^Q restarts it and "
	"the master reads the output.  Neither byte is read as data")
{
	struct tp_pty p;
	struct tp_child c;
	char got[5];

	open_ixon(&p, IXON);
	send_and_sync(&p, "\023", "^S then marker");
	ATF_CHECK_MSG(!can_write(p.slave), "POLLOUT on a stopped slave");
	tp_child_start(&c, writer, &p);
	tp_wait_blocked(c.pid, SYS_write, "writer asleep in write(2)");
	ATF_CHECK_EQ_MSG(avail(p.master), 0, "output of a stopped slave "
			 "reached the master");
	send_and_sync(&p, "\021", "^Q then marker");
	tp_read_exact(p.master, got, 5, 5, "output after ^Q");
	ATF_CHECK(memcmp(got, "hello", 5) == 0);
	tp_child_join(&c, TP_WAIT_MS, "writer");
	ATF_CHECK(can_write(p.slave));
	tp_pty_close(&p);
}

TP_CASE(ixany_restarts_on_any_char, TP_POSIX,
	"With IXON|IXANY, any received byte restarts stopped output, and that "
	"byte (unlike ^Q) is also read as data")
{
	struct tp_pty p;
	char c;

	open_ixon(&p, IXON);
	send_and_sync(&p, "\023", "^S then marker");
	/* IXANY only now: the marker would have restarted the output. */
	tp_iflag(p.slave, IXANY, 0);
	ATF_CHECK_MSG(!can_write(p.slave), "POLLOUT on a stopped slave");
	tp_write_str(p.master, "k", "ordinary byte");
	tp_read_exact(p.slave, &c, 1, 1, "the restarting byte as data");
	ATF_CHECK(c == 'k');
	ATF_CHECK_MSG(can_write(p.slave), "output still stopped after 'k'");
	tp_write_str(p.slave, "o", "slave output");
	tp_read_exact(p.master, &c, 1, 1, "output after the restart");
	ATF_CHECK(c == 'o');
	tp_pty_close(&p);
}

TP_CASE(ixon_off_passes_stop_as_data, TP_POSIX,
	"With IXON clear, ^S and ^Q are ordinary input bytes and output is "
	"never stopped")
{
	struct tp_pty p;
	char got[3];

	open_ixon(&p, 0);
	tp_iflag(p.slave, 0, IXON);
	tp_write_str(p.master, "\023\021x", "^S ^Q x");
	tp_read_exact(p.slave, got, 3, 3, "^S ^Q x as data");
	ATF_CHECK(memcmp(got, "\023\021x", 3) == 0);
	ATF_CHECK_MSG(can_write(p.slave), "output stopped with IXON clear");
	tp_pty_close(&p);
}

ATF_TP_ADD_TCS(tp)
{
	ATF_TP_ADD_TC(tp, ixon_stop_and_start_output);
	ATF_TP_ADD_TC(tp, ixany_restarts_on_any_char);
	ATF_TP_ADD_TC(tp, ixon_off_passes_stop_as_data);
	return atf_no_error();
}
