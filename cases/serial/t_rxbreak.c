// SPDX-License-Identifier: GPL-2.0-only
/* t_rxbreak.c: a break received by a UART, and what the receiver makes of
 * it under IGNBRK, BRKINT, PARMRK and NOFLSH (POSIX "Input Modes"), or
 * as the Secure Attention Key where setserial's sak flag is set.  The
 * break comes from the host side (atf/tp_host.h: QEMU's chardev-send-break
 * into port A), since QEMU's link carries no break from the peer; where no
 * host side answers, the cases skip saying so. */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tp_host.h"
#include "tp_serial.h"

/* The pair, with A's path for the host side, and the channel checked. */
static void
open_for_break(const atf_tc_t *tc, struct tp_serial_pair *p, int *a, int *b)
{
	tp_serial_open_pair_at(tc, p, a, b, 0);
	tp_host_require(tc, "break");
}

/* Wait until A's brk counter has moved by n from before (the break went
 * through the driver's receive path). */
static void
wait_brk(int fd, const struct serial_icounter_struct *before, int n)
{
	struct serial_icounter_struct now;
	long long deadline = tp_now_ms() + TP_WAIT_MS;
	int step = 0;

	tp_waiting_for("the brk counter to count the break");
	for (;;) {
		tp_uart_icount(fd, &now);
		if (now.brk - before->brk >= n)
			break;
		if (tp_now_ms() > deadline)
			atf_tc_fail("brk counter moved by %d in %d ms, want %d",
				    now.brk - before->brk, TP_WAIT_MS, n);
		tp_backoff(&step);
	}
	ATF_CHECK_EQ_MSG(now.brk - before->brk, n, "brk counter moved by %d "
			 "for %d breaks", now.brk - before->brk, n);
}

/* One break into A with A's input flags set to `set` (the others of
 * IGNBRK|BRKINT|PARMRK clear); then a byte from B, which must follow
 * whatever the break read as. */
static void
break_reads(const atf_tc_t *tc, tcflag_t set, const char *want, size_t len)
{
	struct tp_serial_pair p;
	struct serial_icounter_struct before;
	int a, b;
	char got[8];

	open_for_break(tc, &p, &a, &b);
	tp_iflag(a, set, (IGNBRK | BRKINT | PARMRK) & ~set);
	tp_uart_icount(a, &before);
	tp_host_break(p.a, 1);
	wait_brk(a, &before, 1);
	tp_write_str(b, "z", "a byte from B after the break");
	tp_uart_read_exact(a, got, len + 1, TP_WAIT_MS,
			   "the break's bytes and B's byte");
	ATF_CHECK_MSG(memcmp(got, want, len) == 0 && got[len] == 'z',
		      "A read \"%s\", want \"%s\" then z",
		      tp_esc(got, len + 1), tp_esc(want, len));
	tp_expect_quiet(a, "nothing more on A");
}

TP_CASE(rxbreak_parmrk_marked, TP_POSIX,
	"A break received with PARMRK set and IGNBRK, BRKINT clear reads as "
	"\\377 \\0 \\0, and input after it is read normally; TIOCGICOUNT's "
	"brk counts it")
{
	break_reads(tc, PARMRK, "\377\0\0", 3);
}

TP_CASE(rxbreak_plain_reads_nul, TP_POSIX,
	"A break received with IGNBRK, BRKINT and PARMRK all clear reads as "
	"a single \\0, and input after it is read normally")
{
	break_reads(tc, 0, "\0", 1);
}

TP_CASE(rxbreak_ignbrk_ignored, TP_POSIX,
	"A break received with IGNBRK set is ignored, even with BRKINT and "
	"PARMRK also set: nothing is read for it and input after it is read "
	"normally; the driver still counts it in TIOCGICOUNT's brk")
{
	break_reads(tc, IGNBRK | BRKINT | PARMRK, "", 0);
}

TP_CASE(rxbreak_canonical_line_marked, TP_POSIX,
	"In canonical mode with PARMRK, a break inside a line is part of the "
	"line as \\377 \\0 \\0: the read after the newline returns "
	"ab\\377\\0\\0cd\\n whole")
{
	struct tp_serial_pair p;
	struct serial_icounter_struct c0, before;
	int a, b;
	char got[8];

	open_for_break(tc, &p, &a, &b);
	tp_iflag(a, PARMRK, IGNBRK | BRKINT | ICRNL);
	tp_lflag(a, ICANON, ECHO | ISIG | IEXTEN);
	/* The counters live as long as the port: wait for these two bytes,
	 * or the break can reach the FIFO before them and mark 'a'. */
	tp_uart_icount(a, &c0);
	tp_write_str(b, "ab", "the line's start from B");
	tp_uart_wait_rx(a, c0.rx + 2, "the line's start on A");
	tp_uart_icount(a, &before);
	tp_host_break(p.a, 1);
	wait_brk(a, &before, 1);
	tp_write_str(b, "cd\n", "the line's end from B");
	tp_uart_read_exact(a, got, 8, TP_WAIT_MS, "the whole line");
	ATF_CHECK_MSG(memcmp(got, "ab\377\0\0cd\n", 8) == 0,
		      "A read \"%s\", want ab\\377\\0\\0cd\\n", tp_esc(got, 8));
	tp_expect_quiet(a, "nothing after the line");
}

TP_CASE(rxbreak_counted_each, TP_LINUX,
	"Three breaks received one after another each count once in "
	"TIOCGICOUNT's brk (and only there: rx moves by one NUL each, frame, "
	"parity and overrun stay) and each reads as \\377 \\0 \\0 with PARMRK")
{
	struct tp_serial_pair p;
	struct serial_icounter_struct before, after;
	int a, b;
	char got[3];

	open_for_break(tc, &p, &a, &b);
	tp_iflag(a, PARMRK, IGNBRK | BRKINT);
	tp_uart_icount(a, &before);
	for (int i = 1; i <= 3; i++) {
		tp_host_break(p.a, 1);
		wait_brk(a, &before, i);
		tp_uart_read_exact(a, got, 3, TP_WAIT_MS, "one break's mark");
		ATF_CHECK_MSG(memcmp(got, "\377\0\0", 3) == 0,
			      "break %d read as \"%s\"", i, tp_esc(got, 3));
	}
	tp_uart_icount(a, &after);
	ATF_CHECK_EQ_MSG(after.rx - before.rx, 3, "rx moved by %d",
			 after.rx - before.rx);
	ATF_CHECK_EQ_MSG(after.frame, before.frame, "frame moved by %d",
			 after.frame - before.frame);
	ATF_CHECK_EQ_MSG(after.parity, before.parity, "parity moved by %d",
			 after.parity - before.parity);
	ATF_CHECK_EQ_MSG(after.overrun, before.overrun, "overrun moved by %d",
			 after.overrun - before.overrun);
	tp_expect_quiet(a, "nothing more on A");
}

TP_CASE_ROOT(rxbreak_in_proc_brk, TP_LINUX,
	     "After breaks are received, /proc/tty/driver/serial's brk: for "
	     "the port equals TIOCGICOUNT's brk")
{
	struct tp_serial_pair p;
	struct serial_icounter_struct before, now;
	struct tp_serial_proc pr;
	char why[256];
	int a, b;

	open_for_break(tc, &p, &a, &b);
	tp_iflag(a, IGNBRK, BRKINT | PARMRK);
	tp_uart_icount(a, &before);
	tp_host_break(p.a, 1);
	tp_host_break(p.a, 1);
	wait_brk(a, &before, 2);
	tp_uart_icount(a, &now);
	if (!tp_serial_proc(p.a, &pr, why, sizeof(why)))
		atf_tc_fail("%s", why);
	ATF_CHECK_MSG(pr.brk == now.brk, "/proc says brk:%ld, TIOCGICOUNT %d "
		      "(line: %s)", pr.brk, now.brk, pr.text);
}

/* ---------------------------------------------------------------- BRKINT */

/* A's input and output queues both hold something: 4 bytes written while
 * B's VSTOP holds A's output, 3 received and not read. */
static void
fill_queues(int a, int b)
{
	tp_serial_stop_output(a, b); /* reads its marker: before the 3 bytes */
	tp_write_str(a, "held", "4 bytes for A's held output");
	ATF_REQUIRE_EQ_MSG(tp_uart_outq(a), 4, "TIOCOUTQ %d with 4 held",
			   tp_uart_outq(a));
	tp_write_str(b, "abc", "3 bytes for A's input queue");
	tp_wait_fionread(a, 3, TP_WAIT_MS, "3 bytes queued on A");
}

/* Wait until both of A's queues are empty; fail naming what stayed. */
static void
wait_flushed(int a)
{
	long long deadline = tp_now_ms() + TP_WAIT_MS;
	int step = 0;

	tp_waiting_for("A's input and output queues to be flushed");
	while (tp_fionread(a) != 0 || tp_uart_outq(a) != 0) {
		if (tp_now_ms() > deadline)
			atf_tc_fail("after the break A still holds %d bytes of "
				    "input and %d of output", tp_fionread(a),
				    tp_uart_outq(a));
		tp_backoff(&step);
	}
}

/* After a flush, the held output never goes out and no byte came in. */
static void
check_nothing_left(int a, int b)
{
	tp_serial_start_output(b);
	tp_expect_quiet(b, "nothing of A's flushed output reaches B");
	tp_expect_quiet(a, "no byte on A for the break");
}

struct brkint_child {
	int fd;
	struct tp_sync sync;
};

/* The foreground process group of A's session: take A as controlling tty,
 * wait for the break's SIGINT, then give A up without hanging it up (a
 * session leader that exits holding a UART hangs it up). */
static int
sigint_child(void *arg)
{
	struct brkint_child *c = arg;
	sigset_t set;
	int rc;

	sigemptyset(&set);
	sigaddset(&set, SIGINT);
	sigprocmask(SIG_BLOCK, &set, NULL);
	signal(SIGHUP, SIG_IGN); /* TIOCNOTTY sends our group SIGHUP */
	if ((rc = tp_child_take_ctty(c->fd)) != 0)
		return rc;
	if ((rc = tp_child_post(&c->sync, 'r')) != 0)
		return rc;
	if ((rc = tp_child_await_signal(SIGINT, TP_WAIT_MS, "the break's "
					"SIGINT")) != 0)
		return rc;
	if ((rc = tp_child_post(&c->sync, 'i')) != 0)
		return rc;
	if ((rc = tp_child_await(&c->sync, 'x', "the case's checks")) != 0)
		return rc;
	if (ioctl(c->fd, TIOCNOTTY) != 0)
		return tp_child_fail("TIOCNOTTY: %s", strerror(errno));
	return 0;
}

static void
brkint_sigint(const atf_tc_t *tc, bool noflsh)
{
	struct tp_serial_pair p;
	struct brkint_child arg;
	struct tp_child c;
	int a, b;

	open_for_break(tc, &p, &a, &b);
	tp_iflag(a, BRKINT, IGNBRK | PARMRK);
	tp_lflag(a, noflsh ? NOFLSH : 0, noflsh ? 0 : NOFLSH);
	fill_queues(a, b);
	arg.fd = a;
	tp_sync_open(&arg.sync);
	tp_child_start(&c, sigint_child, &arg);
	tp_sync_parent_side(&arg.sync, &c);
	tp_sync_await(&arg.sync, 'r', "the child to take A as its ctty");
	tp_host_break(p.a, 1);
	tp_sync_await(&arg.sync, 'i', "SIGINT in A's foreground group");
	if (noflsh) {
		ATF_CHECK_EQ_MSG(tp_fionread(a), 3, "with NOFLSH, A's input "
				 "holds %d bytes after the break, want 3",
				 tp_fionread(a));
		ATF_CHECK_EQ_MSG(tp_uart_outq(a), 4, "with NOFLSH, A's output "
				 "holds %d bytes after the break, want 4",
				 tp_uart_outq(a));
	} else {
		wait_flushed(a);
	}
	tp_sync_post(&arg.sync, 'x', "the checks are done");
	tp_child_join(&c, TP_WAIT_MS, "the child to give A up and exit");
	tp_sync_close(&arg.sync);
	if (noflsh) {
		char got[4];
		tp_uart_read_exact(a, got, 3, TP_WAIT_MS, "A's kept input");
		ATF_CHECK_MSG(memcmp(got, "abc", 3) == 0, "A read \"%s\"",
			      tp_esc(got, 3));
		tp_serial_start_output(b);
		tp_uart_read_exact(b, got, 4, TP_WAIT_MS, "A's kept output");
		ATF_CHECK_MSG(memcmp(got, "held", 4) == 0, "B read \"%s\"",
			      tp_esc(got, 4));
		tp_expect_quiet(a, "no byte on A for the break");
	} else {
		check_nothing_left(a, b);
	}
}

TP_CASE(rxbreak_brkint_sigint_flushes, TP_POSIX,
	"A break received with BRKINT set (IGNBRK clear) sends SIGINT to the "
	"foreground process group of the terminal and flushes its input and "
	"output queues: the 3 unread bytes and the 4 held by VSTOP are gone, "
	"nothing reaches the peer after VSTART, no byte is read for the break")
{
	brkint_sigint(tc, false);
}

TP_CASE(rxbreak_brkint_noflsh_keeps_queues, TP_POSIX,
	"With BRKINT and NOFLSH set, a received break still sends SIGINT to "
	"the foreground process group but flushes nothing: the 3 unread bytes "
	"are read and the 4 held bytes reach the peer after VSTART")
{
	brkint_sigint(tc, true);
}

TP_CASE(rxbreak_brkint_no_ctty_flushes, TP_LINUX,
	"With BRKINT set on a port that is nobody's controlling terminal (no "
	"foreground process group to signal), a received break still flushes "
	"the input and output queues and reads as nothing")
{
	struct tp_serial_pair p;
	struct serial_icounter_struct before;
	int a, b;

	open_for_break(tc, &p, &a, &b);
	tp_iflag(a, BRKINT, IGNBRK | PARMRK);
	fill_queues(a, b);
	tp_uart_icount(a, &before);
	tp_host_break(p.a, 1);
	wait_brk(a, &before, 1);
	wait_flushed(a);
	check_nothing_left(a, b);
}

/* ---------------------------------------------------------------- SAK */

/* Where the SAK child opens A. */
static const char *sak_path;

/* In a child: A opened by the child alone, then a read that blocks until
 * the SAK kills it; any return from it is a failure. */
static int
sak_reader(void *arg)
{
	(void)arg;
	int fd = open(sak_path, O_RDWR | O_NOCTTY | O_NONBLOCK);
	if (fd < 0)
		return tp_child_fail("open %s: %s", sak_path, strerror(errno));
	fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
	char c;
	ssize_t n = read(fd, &c, 1);
	return tp_child_fail("read(A) returned %zd (%s): the SAK did not kill "
			     "its reader", n, n < 0 ? strerror(errno) : "a byte");
}

/* The descriptor this process holds on path, or -1: the SAK kills every
 * process with the tty open. */
static int
held_fd(const char *path)
{
	struct stat want;
	if (stat(path, &want) != 0)
		return -1;
	for (int fd = 0; fd < 1024; fd++) {
		struct stat st;
		if (fstat(fd, &st) == 0 && S_ISCHR(st.st_mode) &&
		    st.st_rdev == want.st_rdev)
			return fd;
	}
	return -1;
}

TP_CASE_ROOT(rxbreak_sak_kills_the_openers, TP_LINUX,
	"With setserial's sak flag on A (ASYNC_SAK by TIOCSSERIAL), a break "
	"received by A is the Secure Attention Key: a process with A open, "
	"blocked in read(A), is killed by SIGKILL; A then opens and carries "
	"bytes again")
{
	struct tp_serial_pair p;
	struct serial_struct s0;
	struct serial_icounter_struct before, after;
	struct tp_child c;
	int a, b;
	char got[2];

	open_for_break(tc, &p, &a, &b);
	tp_serial_add_flags(a, &s0, ASYNC_SAK, "ASYNC_SAK");
	tp_uart_icount(a, &before);
	/* The break must read as nothing (IGNBRK, kept for the child's open):
	 * only the SAK can end the child's read. */
	tp_iflag(a, IGNBRK, BRKINT | PARMRK);
	/* The case must not have A open when the break comes. */
	tp_serial_put_back_fd(-1);
	tp_uart_close_as_is(a);
	int held = held_fd(p.a);
	ATF_REQUIRE_MSG(held < 0, "the case still holds A (fd %d): the SAK "
			"would kill it", held);
	sak_path = p.a;
	tp_child_start(&c, sak_reader, NULL);
	tp_wait_blocked(c.pid, SYS_read, "the child blocked in read(A)");
	tp_host_break(p.a, 1);
	int st = tp_child_reap(&c, TP_WAIT_MS, "the reader of A to die of the SAK");
	a = tp_uart_open(p.a, 0);
	tp_serial_put_back_fd(a);
	tp_uart_icount(a, &after);
	ATF_REQUIRE_MSG(WIFSIGNALED(st) && WTERMSIG(st) == SIGKILL, "the reader of "
		      "A after the break: %s %d, want killed by SIGKILL (brk "
		      "counter moved by %d)", WIFSIGNALED(st) ? "killed by signal" :
		      "exited with", WIFSIGNALED(st) ? WTERMSIG(st) : WEXITSTATUS(st),
		      after.brk - before.brk);
	tp_write_str(b, "ok", "2 bytes from B after the SAK");
	tp_uart_read_exact(a, got, 2, TP_WAIT_MS, "B's bytes on A opened anew");
	ATF_CHECK_MSG(memcmp(got, "ok", 2) == 0, "A read \"%s\"", tp_esc(got, 2));
}

ATF_TP_ADD_TCS(tp)
{
	ATF_TP_ADD_TC(tp, rxbreak_parmrk_marked);
	ATF_TP_ADD_TC(tp, rxbreak_plain_reads_nul);
	ATF_TP_ADD_TC(tp, rxbreak_ignbrk_ignored);
	ATF_TP_ADD_TC(tp, rxbreak_canonical_line_marked);
	ATF_TP_ADD_TC(tp, rxbreak_counted_each);
	ATF_TP_ADD_TC(tp, rxbreak_in_proc_brk);
	ATF_TP_ADD_TC(tp, rxbreak_brkint_sigint_flushes);
	ATF_TP_ADD_TC(tp, rxbreak_brkint_noflsh_keeps_queues);
	ATF_TP_ADD_TC(tp, rxbreak_brkint_no_ctty_flushes);
	ATF_TP_ADD_TC(tp, rxbreak_sak_kills_the_openers);
	return atf_no_error();
}
