// SPDX-License-Identifier: GPL-2.0-only
/* t_closing.c: input that arrives while a UART is being closed.  The last
 * close waits (up to closing_wait, 30 s by default) for the output to
 * drain; meanwhile the line discipline still takes flow-control characters
 * (n_tty_receive_buf_closing), so a peer that stopped the port with VSTOP
 * can let the held output go with VSTART (with IXANY, any character but
 * INTR, QUIT and SUSP), and the close completes.  Output
 * the port itself suspended (tcflow TCOOFF) is not waited for at all: the
 * close discards it and returns at once. */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdbool.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <termios.h>
#include <unistd.h>

#include "tp_serial.h"

struct closer {
	const char *path;
	tcflag_t iflag; /* IXON, with IXANY or not, and input processing */
	tcflag_t lflag; /* IEXTEN or 0 */
	cc_t vstart;	/* 0: the port's own VSTART */
	struct tp_sync sync;
};

/* In a child: open the port at path alone (its close is then the last),
 * blocking, raw with iflag (IXON or 0) and CLOCAL, queues flushed.  The fd,
 * or -1 after tp_child_fail. */
static int
open_alone_raw(const char *path, tcflag_t iflag)
{
	struct termios t;
	/* Non-blocking: a port without CLOCAL would wait for carrier. */
	int fd = open(path, O_RDWR | O_NOCTTY | O_NONBLOCK);
	if (fd < 0 || fcntl(fd, F_SETFL, 0) != 0 || tcgetattr(fd, &t) != 0) {
		tp_child_fail("opening %s: %s", path, strerror(errno));
		return -1;
	}
	cfmakeraw(&t);
	t.c_iflag &= ~(IXON | IXANY | IXOFF);
	t.c_iflag |= iflag;
	t.c_cflag |= CLOCAL | CREAD;
	t.c_cflag &= ~CRTSCTS;
	cfsetspeed(&t, TP_SERIAL_SPEED);
	if (tcsetattr(fd, TCSANOW, &t) != 0 || tcflush(fd, TCIOFLUSH) != 0) {
		tp_child_fail("setting %s up: %s", path, strerror(errno));
		return -1;
	}
	return fd;
}

/* A's termios, read before a child's setup and put back after it: the
 * setup outlives the child's close. */
static void
a_termios(const char *path, struct termios *t, bool put_back)
{
	int fd = open(path, O_RDWR | O_NOCTTY | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0 || (put_back ? tcsetattr(fd, TCSANOW, t) : tcgetattr(fd, t)) != 0)
		atf_tc_fail("%s A's termios: %s", put_back ? "putting back" : "reading",
			    strerror(errno));
	close(fd);
}

/* Open A alone (so the close is the last one), raw with IXON and the
 * usual INTR, QUIT and SUSP characters (and c->vstart), let the case stop
 * its output, add c->iflag and c->lflag, queue 4 bytes, close. */
static int
closer_child(void *arg)
{
	struct closer *c = arg;
	struct termios t;
	char m;
	int rc;

	/* IXANY only once the VSTOP is taken: the marker would restart it */
	int fd = open_alone_raw(c->path, IXON);
	if (fd < 0)
		return 1;
	if (tcgetattr(fd, &t) != 0)
		return tp_child_fail("tcgetattr: %s", strerror(errno));
	t.c_cc[VINTR] = 003;
	t.c_cc[VQUIT] = 034;
	t.c_cc[VSUSP] = 032;
	if (c->vstart)
		t.c_cc[VSTART] = c->vstart;
	if (tcsetattr(fd, TCSANOW, &t) != 0)
		return tp_child_fail("tcsetattr: %s", strerror(errno));
	if ((rc = tp_child_post(&c->sync, 'o')) != 0)
		return rc;
	/* The case sends VSTOP then a marker: the marker read means the
	 * VSTOP was taken. */
	if (read(fd, &m, 1) != 1 || m != 'm')
		return tp_child_fail("reading the marker after VSTOP: %s",
				     strerror(errno));
	t.c_iflag |= c->iflag;
	t.c_lflag |= c->lflag;
	if (tcsetattr(fd, TCSANOW, &t) != 0)
		return tp_child_fail("tcsetattr iflag %#o lflag %#o: %s",
				     (unsigned)c->iflag, (unsigned)c->lflag,
				     strerror(errno));
	if (write(fd, "tail", 4) != 4)
		return tp_child_fail("write: %s", strerror(errno));
	int q = -1;
	if (ioctl(fd, TIOCOUTQ, &q) != 0 || q != 4)
		return tp_child_fail("TIOCOUTQ %d with 4 bytes held", q);
	if ((rc = tp_child_post(&c->sync, 'w')) != 0)
		return rc;
	if (close(fd) != 0)
		return tp_child_fail("close: %s", strerror(errno));
	return 0;
}

/* A last close of A in progress: the pair, B's descriptor, the closer
 * child and A's termios to put back. */
struct closing {
	struct tp_serial_pair p;
	struct closer arg;
	struct tp_child c;
	struct termios orig;
	int b;
};

/* Start closer_child on A with iflag, lflag and vstart (see struct
 * closer), stop its output from B and wait until its last close sleeps
 * waiting for the 4 held bytes. */
static void
begin_closing_with(const atf_tc_t *tc, struct closing *cl, tcflag_t iflag,
		   tcflag_t lflag, cc_t vstart)
{
	tp_serial_find(tc, &cl->p);
	cl->b = tp_uart_open(cl->p.b, 0);
	a_termios(cl->p.a, &cl->orig, false);
	cl->arg.path = cl->p.a;
	cl->arg.iflag = iflag;
	cl->arg.lflag = lflag;
	cl->arg.vstart = vstart;
	tp_sync_open(&cl->arg.sync);
	tp_child_start(&cl->c, closer_child, &cl->arg);
	tp_sync_parent_side(&cl->arg.sync, &cl->c);
	tp_sync_await(&cl->arg.sync, 'o', "the child to open A");
	tp_write_str(cl->b, "\023m", "VSTOP and a marker from B");
	tp_sync_await(&cl->arg.sync, 'w', "the child to queue 4 bytes on stopped A");
	tp_wait_blocked(cl->c.pid, SYS_close, "the close of A waiting for output");
}

static void
begin_closing(const atf_tc_t *tc, struct closing *cl, tcflag_t iflag)
{
	begin_closing_with(tc, cl, iflag, 0, 0);
}

/* The close must return (what: after which release), and B receive the 4
 * held bytes; A's termios put back. */
static void
end_closing(struct closing *cl, const char *what)
{
	char got[4];

	tp_child_join(&cl->c, TP_WAIT_MS, what);
	tp_sync_close(&cl->arg.sync);
	tp_uart_read_exact(cl->b, got, 4, TP_WAIT_MS, "the held bytes on B");
	ATF_CHECK_MSG(memcmp(got, "tail", 4) == 0, "B read \"%s\"",
		      tp_esc(got, 4));
	a_termios(cl->p.a, &cl->orig, true);
}

TP_CASE(vstart_while_closing_releases_output, TP_POSIX,
	"While the last close of A waits for output held by the peer's VSTOP, "
	"a VSTART from the peer still restarts the output: the close returns "
	"and the peer receives the 4 held bytes")
{
	struct closing cl;

	begin_closing(tc, &cl, IXON);
	tp_expect_quiet(cl.b, "nothing from A while it is stopped");
	tp_write_str(cl.b, "\021", "VSTART from B while A closes");
	end_closing(&cl, "the close of A to return after VSTART");
}

TP_CASE(ixany_while_closing_restarts_output_but_not_signal_chars, TP_LINUX,
	"With IXON and IXANY, while A's last close waits for output held by "
	"the peer's VSTOP, A's INTR, QUIT and SUSP characters from the peer "
	"(^C, ^\\, ^Z) leave the output stopped and the close waiting; an "
	"ordinary character restarts it: the close returns and the peer "
	"receives the 4 held bytes")
{
	struct closing cl;

	begin_closing(tc, &cl, IXON | IXANY);
	tp_write_str(cl.b, "\003\034\032", "INTR, QUIT and SUSP from B while A closes");
	tp_expect_quiet(cl.b, "nothing from A after INTR, QUIT and SUSP");
	tp_wait_blocked(cl.c.pid, SYS_close, "the close of A still waiting after "
			"INTR, QUIT and SUSP");
	tp_write_str(cl.b, "x", "an ordinary character from B while A closes");
	end_closing(&cl, "the close of A to return after it");
}

TP_CASE(input_processing_applies_to_vstart_while_closing, TP_LINUX,
	"While A's last close waits for output held by the peer's VSTOP, a "
	"byte from the peer goes through ISTRIP and IUCLC (with IEXTEN) "
	"before IXON compares it, as on an open port: with VSTART set to q, "
	"0xd1 (Q with bit 8) is stripped to Q and lowered to q and restarts "
	"the output; the close returns and the peer receives the 4 held bytes")
{
	struct closing cl;

	begin_closing_with(tc, &cl, IXON | ISTRIP | IUCLC, IEXTEN, 'q');
	tp_write_str(cl.b, "\321", "0xd1 from B while A closes");
	end_closing(&cl, "the close of A to return after 0xd1");
}

struct opener {
	const char *path;
	bool want_eintr;
};

/* An open of A from another process while the closer holds it: with
 * want_eintr, a SIGUSR1 handler without SA_RESTART and the open must fail
 * EINTR; otherwise it must succeed, on a port whose output queue is
 * empty (a new open of a port closed meanwhile). */
static int
opener_child(void *arg)
{
	const struct opener *c = arg;
	bool want_eintr = c->want_eintr;
	int rc = want_eintr ? tp_child_interruptible(SIGUSR1) : 0;
	if (rc != 0)
		return rc;
	int fd = open(c->path, O_RDWR | O_NOCTTY | O_NONBLOCK | O_CLOEXEC);
	if (want_eintr)
		return fd < 0 && errno == EINTR ? 0
		       : tp_child_fail("the open of A interrupted by a signal "
				       "returned %s, want EINTR",
				       fd >= 0 ? "a descriptor" : strerror(errno));
	if (fd < 0)
		return tp_child_fail("the open of A after its close: %s",
				     strerror(errno));
	int q = -1;
	if (ioctl(fd, TIOCOUTQ, &q) != 0 || q != 0)
		return tp_child_fail("TIOCOUTQ %d on the new open, want 0", q);
	close(fd);
	return 0;
}

TP_CASE(open_while_closing_waits_for_the_close, TP_LINUX,
	"An open of A while A's last close waits for held output (the "
	"peer's VSTOP) sleeps until that close ends: a signal whose handler "
	"has no SA_RESTART ends it with EINTR; otherwise it returns once the "
	"peer's VSTART lets the close finish, with an empty output queue, "
	"and the peer receives the held bytes")
{
	struct closing cl;
	struct tp_child o1, o2;

	begin_closing(tc, &cl, IXON);
	struct opener first = { cl.p.a, true }, second = { cl.p.a, false };
	tp_child_start(&o1, opener_child, &first);
	tp_wait_blocked(o1.pid, SYS_openat, "an open of A behind its close");
	ATF_REQUIRE_EQ(kill(o1.pid, SIGUSR1), 0);
	tp_child_join(&o1, TP_WAIT_MS, "the interrupted open of A to return");

	tp_child_start(&o2, opener_child, &second);
	tp_wait_blocked(o2.pid, SYS_openat, "a second open of A behind its close");
	tp_write_str(cl.b, "\021", "VSTART from B while A closes");
	end_closing(&cl, "the close of A to return after VSTART");
	tp_child_join(&o2, TP_WAIT_MS, "the open of A to return after the close");
}

/* Open A alone, suspend its output with TCOOFF, queue 4 bytes and close
 * it: the last close. */
static int
suspended_closer_child(void *arg)
{
	int fd = open_alone_raw(arg, 0);
	if (fd < 0)
		return 1;
	if (tcflow(fd, TCOOFF) != 0)
		return tp_child_fail("TCOOFF: %s", strerror(errno));
	if (write(fd, "held", 4) != 4)
		return tp_child_fail("write: %s", strerror(errno));
	int q = -1;
	if (ioctl(fd, TIOCOUTQ, &q) != 0 || q != 4)
		return tp_child_fail("TIOCOUTQ %d with 4 bytes suspended", q);
	if (close(fd) != 0)
		return tp_child_fail("close: %s", strerror(errno));
	return 0;
}

TP_CASE(tcooff_close_discards_output, TP_LINUX,
	"The last close of a UART whose output it suspended itself "
	"(tcflow TCOOFF) does not wait out closing_wait (30 s) for the held "
	"bytes: it discards them and returns at once; the peer receives none")
{
	struct tp_serial_pair p;
	struct tp_child c;

	tp_serial_find(tc, &p);
	int b = tp_uart_open(p.b, 0);
	struct termios orig;
	a_termios(p.a, &orig, false);
	tp_child_start(&c, suspended_closer_child, (void *)p.a);
	tp_child_join(&c, TP_WAIT_MS, "the last close of A with its output suspended");
	tp_expect_quiet(b, "nothing of A's discarded output reaches B");
	a_termios(p.a, &orig, true);
}

ATF_TP_ADD_TCS(tp)
{
	ATF_TP_ADD_TC(tp, vstart_while_closing_releases_output);
	ATF_TP_ADD_TC(tp, ixany_while_closing_restarts_output_but_not_signal_chars);
	ATF_TP_ADD_TC(tp, input_processing_applies_to_vstart_while_closing);
	ATF_TP_ADD_TC(tp, open_while_closing_waits_for_the_close);
	ATF_TP_ADD_TC(tp, tcooff_close_discards_output);
	return atf_no_error();
}
