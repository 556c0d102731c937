// SPDX-License-Identifier: GPL-2.0-only
/* t_hangup.c: hangup on a UART: HUPCL lowers DTR/RTS on the last close
 * (seen in /proc/tty/driver/serial, which shows the port's mctrl even when
 * it is closed), B0 drops them, a modem-controlled open (CLOCAL clear) waits
 * for carrier, a carrier drop hangs up the reader.  Carrier is driven in
 * loop mode (OUT2 -> DCD); over the link DCD is fixed high. */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "tp_serial.h"

static int
proc_lines(const char *path)
{
	struct tp_serial_proc pr;
	char why[256];
	if (!tp_serial_proc(path, &pr, why, sizeof(why)))
		atf_tc_fail("%s", why);
	return pr.lines;
}

static void
last_close(const atf_tc_t *tc, bool hupcl)
{
	struct tp_serial_pair p;

	tp_serial_find(tc, &p);
	int a = tp_uart_open(p.a, 0);
	tp_uart_cflag(a, hupcl ? HUPCL : 0, hupcl ? 0 : HUPCL);
	tp_uart_mbis(a, TIOCM_DTR | TIOCM_RTS);
	ATF_REQUIRE_MSG((proc_lines(p.a) & (TIOCM_DTR | TIOCM_RTS)) ==
			(TIOCM_DTR | TIOCM_RTS), "proc shows %s while open",
			tp_tiocm_str(proc_lines(p.a)));
	tp_uart_close_as_is(a);
	int after = proc_lines(p.a) & (TIOCM_DTR | TIOCM_RTS);
	if (hupcl)
		ATF_CHECK_MSG(after == 0, "after the last close with HUPCL, "
			      "/proc/tty/driver/serial still shows %s",
			      tp_tiocm_str(after));
	else
		ATF_CHECK_MSG(after == (TIOCM_DTR | TIOCM_RTS), "after the last "
			      "close without HUPCL, /proc/tty/driver/serial "
			      "shows only %s", tp_tiocm_str(after));
}

TP_CASE_ROOT(hupcl_drops_dtr_on_last_close, TP_POSIX,
	     "With HUPCL set, the last close of A lowers DTR and RTS (the "
	     "modem hangs up): /proc/tty/driver/serial shows neither after it")
{
	last_close(tc, true);
}

TP_CASE_ROOT(no_hupcl_keeps_dtr_on_last_close, TP_POSIX,
	     "With HUPCL clear, the last close of A leaves DTR and RTS up")
{
	last_close(tc, false);
}

TP_CASE_ROOT(not_last_close_keeps_dtr, TP_POSIX,
	     "With HUPCL set, closing one of two descriptors of A is not the "
	     "last close: DTR and RTS stay up")
{
	struct tp_serial_pair p;

	tp_serial_find(tc, &p);
	int a = tp_uart_open(p.a, 0);
	int a2 = tp_uart_try_open(p.a, O_RDWR | O_NOCTTY | O_NONBLOCK);
	ATF_REQUIRE_MSG(a2 >= 0, "second open: %s", strerror(-a2));
	tp_uart_cflag(a, HUPCL, 0);
	tp_uart_close(a2);
	int lines = proc_lines(p.a);
	ATF_CHECK_MSG((lines & (TIOCM_DTR | TIOCM_RTS)) == (TIOCM_DTR | TIOCM_RTS),
		      "proc shows %s after a non-last close", tp_tiocm_str(lines));
	ATF_CHECK_MSG((tp_uart_mget(a) & (TIOCM_DTR | TIOCM_RTS)) == (TIOCM_DTR | TIOCM_RTS),
		      "TIOCMGET %s after a non-last close", tp_tiocm_str(tp_uart_mget(a)));
}

TP_CASE(b0_drops_dtr_and_speed_raises_it, TP_POSIX,
	"Setting the output speed to B0 drops DTR and RTS (hang up); setting "
	"a speed again raises them")
{
	int a, b;
	struct termios t;

	tp_serial_open_pair(tc, &a, &b, 0);
	ATF_REQUIRE_MSG((tp_uart_mget(a) & (TIOCM_DTR | TIOCM_RTS)) == (TIOCM_DTR | TIOCM_RTS),
			"DTR|RTS not up on open: %s", tp_tiocm_str(tp_uart_mget(a)));
	tp_tc_get(a, &t);
	cfsetospeed(&t, B0);
	cfsetispeed(&t, B0);
	tp_tc_set(a, &t);
	ATF_CHECK_MSG((tp_uart_mget(a) & (TIOCM_DTR | TIOCM_RTS)) == 0,
		      "after B0 TIOCMGET %s", tp_tiocm_str(tp_uart_mget(a)));
	tp_uart_speed(a, B9600);
	ATF_CHECK_MSG((tp_uart_mget(a) & (TIOCM_DTR | TIOCM_RTS)) == (TIOCM_DTR | TIOCM_RTS),
		      "after B9600 TIOCMGET %s", tp_tiocm_str(tp_uart_mget(a)));
}

/* A blocking open (no O_NONBLOCK) in a child; SIGUSR1 restarts it. */
static const char *open_path;
static void on_usr1(int sig) { (void)sig; }

/* The case's own descriptor of the port, which a child closes first: the
 * copy it inherited would keep the port open past the case's close. */
static int parent_fd = -1;

/* In the child: the blocking open of open_path; the descriptor, or -1
 * after tp_child_fail. */
static int
child_blocking_open(void)
{
	struct sigaction sa = {.sa_handler = on_usr1, .sa_flags = SA_RESTART};
	sigaction(SIGUSR1, &sa, NULL);
	if (parent_fd >= 0)
		close(parent_fd);
	int fd = open(open_path, O_RDWR | O_NOCTTY);
	if (fd < 0)
		tp_child_fail("blocking open of %s: %s", open_path, strerror(errno));
	return fd;
}

static int
blocking_open(void *arg)
{
	(void)arg;
	return child_blocking_open() < 0;
}

/* blocking_open, and then the descriptor must work: a hung-up one fails
 * ioctls and writes with EIO. */
static int
blocking_open_then_use(void *arg)
{
	(void)arg;
	int fd = child_blocking_open();
	if (fd < 0)
		return 1;
	int lines;
	if (ioctl(fd, TIOCMGET, &lines) != 0)
		return tp_child_fail("TIOCMGET on the descriptor the open returned: %s",
				     strerror(errno));
	if (write(fd, "x", 1) != 1)
		return tp_child_fail("a write on the descriptor the open returned: %s",
				     strerror(errno));
	return 0;
}

/* Carrier for the open of A that child c waits in, through a new
 * non-blocking descriptor (the case's own is hung up or closed), then c
 * must succeed.  An open started over and asleep again is woken by no DCD
 * change in loop mode: a signal restarts it. */
static void
carrier_for_waiting_open(const struct tp_serial_pair *p, struct tp_child *c,
			 const char *what)
{
	int ctl = tp_uart_open(p->a, O_NONBLOCK);
	tp_uart_loop(ctl, true);
	tp_uart_mbis(ctl, TIOCM_OUT2);
	if (!tp_has_exited(c->pid)) {
		tp_poll1(c->report_fd, POLLIN, TP_QUIET_WINDOW_MS);
		if (!tp_has_exited(c->pid))
			kill(c->pid, SIGUSR1);
	}
	tp_child_join(c, TP_WAIT_MS, what);
}

/* A with carrier down: loop mode, OUT2 (-> DCD) clear, CLOCAL as given. */
static int
carrier_down(const atf_tc_t *tc, bool clocal, struct tp_serial_pair *p)
{
	tp_serial_find(tc, p);
	int a = tp_uart_open(p->a, 0);
	tp_uart_loop(a, true);
	tp_uart_mbic(a, TIOCM_OUT2);
	if (!tp_uart_wait_lines(a, TIOCM_CAR, 0, TP_WAIT_MS))
		atf_tc_fail("DCD still up with OUT2 clear in loop mode: %s",
			    tp_tiocm_str(tp_uart_mget(a)));
	tp_uart_cflag(a, clocal ? CLOCAL : 0, clocal ? 0 : CLOCAL);
	return a;
}

TP_CASE(modem_open_waits_for_carrier, TP_POSIX,
	"With CLOCAL clear and DCD down, a blocking open of A sleeps; once DCD "
	"is up it succeeds (woken by the DCD change, or, where the UART "
	"reports none in loop mode, re-checked when a signal restarts it)")
{
	struct tp_serial_pair p;
	struct tp_child c;

	int a = carrier_down(tc, false, &p);
	open_path = p.a;
	tp_child_start(&c, blocking_open, NULL);
	tp_wait_blocked(c.pid, SYS_openat, "open asleep waiting for carrier");
	tp_uart_mbis(a, TIOCM_OUT2);
	if (!tp_uart_wait_lines(a, TIOCM_CAR, TIOCM_CAR, TP_WAIT_MS))
		atf_tc_fail("DCD did not follow OUT2 up");
	if (!tp_has_exited(c.pid)) {
		/* No modem-status interrupt in loop mode: nothing wakes
		 * open_wait, so let a signal restart the open. */
		tp_poll1(c.report_fd, POLLIN, TP_QUIET_WINDOW_MS);
		if (!tp_has_exited(c.pid))
			kill(c.pid, SIGUSR1);
	}
	tp_child_join(&c, TP_WAIT_MS, "the open to succeed with carrier up");
}

/* A with carrier down (CLOCAL clear), and child c asleep in a blocking
 * open of A that then uses its descriptor (blocking_open_then_use); the
 * child closes its copy of the case's A first when own_close, so that the
 * case's close of A can be the last.  Returns the case's A. */
static int
open_waiting_for_carrier(const atf_tc_t *tc, struct tp_serial_pair *p,
			 struct tp_child *c, bool own_close)
{
	int a = carrier_down(tc, false, p);
	open_path = p->a;
	parent_fd = own_close ? a : -1;
	tp_child_start(c, blocking_open_then_use, NULL);
	tp_wait_blocked(c->pid, SYS_openat, "open asleep waiting for carrier");
	return a;
}

TP_CASE_ROOT(hangup_restarts_a_waiting_open, TP_LINUX,
	"A hangup of A (TIOCVHANGUP) while an open of A waits for carrier "
	"does not fail that open: the open starts over, and once it has "
	"carrier it returns a descriptor that works (TIOCMGET and a write "
	"succeed on it, which fail with EIO on a hung-up one)")
{
	struct tp_serial_pair p;
	struct tp_child c;

	int a = open_waiting_for_carrier(tc, &p, &c, false);
	ATF_REQUIRE_MSG(ioctl(a, TIOCVHANGUP) == 0, "TIOCVHANGUP: %s", strerror(errno));
	carrier_for_waiting_open(&p, &c, "the open started before the hangup to succeed");
}

/* The finding fixtures/findings/serial-hup-notify-ignored: the serial core
 * keeps setserial's hup_notify in the uart_port's flags, while
 * tty_port_block_til_ready() looks for it in the tty_port's, where nothing
 * puts it.  An open that starts over and succeeds fails with the tag. */
#define HUP_NOTIFY_TAG "[finding serial-hup-notify-ignored]"

/* In the child: the blocking open of open_path must fail with EAGAIN. */
static int
blocking_open_fails_eagain(void *arg)
{
	(void)arg;
	struct sigaction sa = {.sa_handler = on_usr1, .sa_flags = SA_RESTART};
	sigaction(SIGUSR1, &sa, NULL);
	int fd = open(open_path, O_RDWR | O_NOCTTY);
	if (fd >= 0)
		return tp_child_fail(HUP_NOTIFY_TAG " the open waiting for carrier "
				     "when A (hup_notify set) was hung up started "
				     "over and returned a descriptor once it had "
				     "carrier, instead of failing with EAGAIN");
	if (errno != EAGAIN)
		return tp_child_fail("the open waiting when A (hup_notify set) was "
				     "hung up failed with %s, want EAGAIN",
				     strerror(errno));
	return 0;
}

TP_CASE_ROOT(hup_notify_fails_a_waiting_open_eagain, TP_LINUX,
	"With hup_notify set on A (ASYNC_HUP_NOTIFY by TIOCSSERIAL, setserial's "
	"hup_notify), a hangup of A while an open of A waits for carrier fails "
	"that open with EAGAIN instead of starting it over (setserial(8))")
{
	struct tp_serial_pair p;
	struct tp_child c;
	struct serial_struct s0;

	int a = carrier_down(tc, false, &p);
	tp_serial_add_flags(a, &s0, ASYNC_HUP_NOTIFY, "ASYNC_HUP_NOTIFY");
	open_path = p.a;
	tp_child_start(&c, blocking_open_fails_eagain, NULL);
	tp_wait_blocked(c.pid, SYS_openat, "open asleep waiting for carrier");
	ATF_REQUIRE_MSG(ioctl(a, TIOCVHANGUP) == 0, "TIOCVHANGUP: %s", strerror(errno));
	/* Carrier too: an open that started over returns, and says so. */
	carrier_for_waiting_open(&p, &c, "the open waiting at the hangup to fail EAGAIN");
	/* A's descriptor is hung up: the flags go back through a new open. */
	tp_serial_put_back();
}

TP_CASE(last_close_keeps_a_waiting_open_back_for_close_delay, TP_LINUX,
	"The last close of A while an open of A waits for carrier (the "
	"dial-in open behind a call-out user) holds the line down for A's "
	"close_delay before it lets the waiting open go on: close() returns "
	"no sooner than close_delay (TIOCGSERIAL, hundredths of a second); "
	"the open, started over, succeeds once it has carrier and gives a "
	"working descriptor")
{
	struct tp_serial_pair p;
	struct tp_child c;
	struct serial_struct ss;

	int a = open_waiting_for_carrier(tc, &p, &c, true);
	tp_uart_gserial(a, &ss);
	ATF_REQUIRE_MSG(ss.close_delay > 0, "A's close_delay is 0: nothing to wait for");
	long long want_ms = ss.close_delay * 10LL;
	long long t0 = tp_now_ms();
	tp_uart_close_as_is(a);
	long long ms = tp_now_ms() - t0;
	ATF_CHECK_MSG(ms >= TP_SLEEP_MIN_MS(want_ms), "the last close with an "
		      "open waiting returned after %lld ms, before close_delay's "
		      "%lld ms", ms, want_ms);
	carrier_for_waiting_open(&p, &c, "the open waiting before the last close to succeed");
}

TP_CASE(clocal_open_does_not_wait, TP_POSIX,
	"With CLOCAL set, a blocking open of A returns at once although DCD "
	"is down")
{
	struct tp_serial_pair p;
	struct tp_child c;

	int a = carrier_down(tc, true, &p);
	open_path = p.a;
	tp_child_start(&c, blocking_open, NULL);
	tp_child_join(&c, TP_WAIT_MS, "open with CLOCAL and no carrier");
	ATF_CHECK_MSG(!(tp_uart_mget(a) & TIOCM_CAR), "DCD came up: %s",
		      tp_tiocm_str(tp_uart_mget(a)));
}

TP_CASE(carrier_drop_hangs_up_reader, TP_POSIX,
	"With CLOCAL clear, DCD dropping hangs A up: a reader blocked in "
	"read returns 0 (skips where the UART reports no DCD change in loop "
	"mode)")
{
	struct tp_serial_pair p;
	struct serial_icounter_struct c0, c1;
	struct tp_reader r;
	struct tp_rd_result res;

	tp_serial_find(tc, &p);
	int a = tp_uart_open(p.a, 0);
	tp_uart_loop(a, true);
	tp_uart_mbis(a, TIOCM_OUT2 | TIOCM_DTR | TIOCM_RTS);
	if (!tp_uart_wait_lines(a, TIOCM_CAR, TIOCM_CAR, TP_WAIT_MS))
		atf_tc_fail("DCD not up with OUT2 set in loop mode");
	tp_uart_cflag(a, 0, CLOCAL);
	tp_reader_start(&r, a, 8);
	tp_wait_blocked_fd(r.child.pid, SYS_read, a, "reader blocked in read(A)");
	tp_uart_icount(a, &c0);
	tp_uart_mbic(a, TIOCM_OUT2);
	if (!tp_uart_wait_lines(a, TIOCM_CAR, 0, TP_WAIT_MS))
		atf_tc_fail("DCD did not follow OUT2 down");
	long long end = tp_now_ms() + TP_QUIET_WINDOW_MS;
	int step = 0;
	do {
		tp_uart_icount(a, &c1);
		tp_backoff(&step);
	} while (c1.dcd == c0.dcd && tp_now_ms() < end);
	if (c1.dcd == c0.dcd) {
		/* The reader is killed and reaped at case end. */
		atf_tc_skip("the UART reports no DCD change in loop mode (QEMU's "
			    "16550 sets no MSR delta bits there): DCD followed "
			    "OUT2 down but TIOCGICOUNT dcd stayed %d for %d ms, so "
			    "the kernel never sees the carrier drop", c0.dcd,
			    TP_QUIET_WINDOW_MS);
	}
	tp_reader_result(&r, &res, "the reader after the carrier drop");
	ATF_CHECK_MSG(res.n == 0 || (res.n < 0 && res.err == EIO),
		      "read after hangup returned %zd (%s)", res.n,
		      res.n < 0 ? strerror(res.err) : "data");
}

/* ---------------------------------------------------------------- a session on a UART */

struct leader {
	int fd;
	struct tp_sync sync;
};

/* A session leader with A as its controlling tty, exiting when told. */
static int
leader_child(void *arg)
{
	struct leader *l = arg;
	int rc;

	if ((rc = tp_child_take_ctty(l->fd)) != 0)
		return rc;
	if ((rc = tp_child_post(&l->sync, 'c')) != 0)
		return rc;
	return tp_child_await(&l->sync, 'x', "the case's word to exit");
}

TP_CASE(session_leader_exit_hangs_up, TP_LINUX,
	"When a session leader whose controlling terminal is a UART exits, "
	"the UART is hung up (a pty's foreground group only gets SIGHUP): a "
	"descriptor of it opened before then reads EOF and fails writes with "
	"EIO, while a new open of it works and receives data")
{
	struct tp_serial_pair p;
	struct leader arg;
	struct tp_child c;
	char got[4];

	tp_serial_find(tc, &p);
	int a = tp_uart_open(p.a, 0);
	int b = tp_uart_open(p.b, 0);
	arg.fd = a;
	tp_sync_open(&arg.sync);
	tp_child_start(&c, leader_child, &arg);
	tp_sync_parent_side(&arg.sync, &c);
	tp_sync_await(&arg.sync, 'c', "the child to take A as its ctty");
	tp_write_str(a, "ok", "a write on A before the leader exits");
	tp_sync_post(&arg.sync, 'x', "exit");
	tp_child_join(&c, TP_WAIT_MS, "the session leader to exit");
	tp_sync_close(&arg.sync);
	/* The exit hung A up before the leader was reaped. */
	errno = 0;
	ssize_t n = read(a, got, 1);
	ATF_CHECK_MSG(n == 0, "read on the old descriptor after the hangup "
		      "returned %zd (%s), want 0 (EOF)", n,
		      n < 0 ? strerror(errno) : "data");
	errno = 0;
	n = write(a, "x", 1);
	ATF_CHECK_MSG(n == -1 && errno == EIO, "write on the old descriptor "
		      "after the hangup returned %zd (%s), want EIO", n,
		      n < 0 ? strerror(errno) : "written");
	int a2 = tp_uart_open(p.a, 0);
	tp_write_str(b, "new", "3 bytes from B");
	tp_uart_read_exact(a2, got, 3, TP_WAIT_MS, "B's bytes on A opened anew");
	ATF_CHECK_MSG(memcmp(got, "new", 3) == 0, "A read \"%s\"",
		      tp_esc(got, 3));
}

ATF_TP_ADD_TCS(tp)
{
	ATF_TP_ADD_TC(tp, hupcl_drops_dtr_on_last_close);
	ATF_TP_ADD_TC(tp, no_hupcl_keeps_dtr_on_last_close);
	ATF_TP_ADD_TC(tp, not_last_close_keeps_dtr);
	ATF_TP_ADD_TC(tp, b0_drops_dtr_and_speed_raises_it);
	ATF_TP_ADD_TC(tp, modem_open_waits_for_carrier);
	ATF_TP_ADD_TC(tp, hangup_restarts_a_waiting_open);
	ATF_TP_ADD_TC(tp, hup_notify_fails_a_waiting_open_eagain);
	ATF_TP_ADD_TC(tp, last_close_keeps_a_waiting_open_back_for_close_delay);
	ATF_TP_ADD_TC(tp, clocal_open_does_not_wait);
	ATF_TP_ADD_TC(tp, carrier_drop_hangs_up_reader);
	ATF_TP_ADD_TC(tp, session_leader_exit_hangs_up);
	return atf_no_error();
}
