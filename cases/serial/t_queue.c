// SPDX-License-Identifier: GPL-2.0-only
/* t_queue.c: a UART's queues: tcdrain waits for the transmitter, tcflush
 * empties each queue, TIOCOUTQ and FIONREAD count, O_NONBLOCK and poll
 * report readiness.  A port's output is held deterministically by stopping
 * it with VSTOP from its peer (IXON): QEMU's 16550 sends as fast as the
 * guest fills it, whatever the baud rate, so speed cannot hold it. */
#include <errno.h>
#include <stdio.h>
#include <poll.h>
#include <signal.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "tp_serial.h"

static int
drain_child(void *arg)
{
	if (tcdrain(*(int *)arg) != 0)
		return tp_child_fail("tcdrain: %s", strerror(errno));
	return 0;
}

TP_CASE(tcdrain_waits_for_transmitter, TP_POSIX,
	"With A's output held (VSTOP), tcdrain(A) sleeps while 10 bytes are "
	"queued; after VSTART it returns with TIOCOUTQ 0 and B gets all 10")
{
	int a, b;
	struct tp_child c;
	char in[10];

	tp_serial_open_pair(tc, &a, &b, 0);
	tp_serial_stop_output(a, b);
	tp_write_str(a, "0123456789", "10 bytes on stopped A");
	tp_child_start(&c, drain_child, &a);
	tp_wait_blocked(c.pid, SYS_ioctl, "tcdrain asleep on held output");
	ATF_CHECK_EQ_MSG(tp_uart_outq(a), 10, "TIOCOUTQ %d while held", tp_uart_outq(a));
	tp_serial_start_output(b);
	tp_child_join(&c, TP_WAIT_MS, "tcdrain to return after VSTART");
	ATF_CHECK_EQ_MSG(tp_uart_outq(a), 0, "TIOCOUTQ %d after tcdrain", tp_uart_outq(a));
	tp_uart_read_exact(b, in, sizeof(in), TP_WAIT_MS, "the 10 bytes on B");
	ATF_CHECK_MSG(memcmp(in, "0123456789", 10) == 0, "B read \"%s\"",
		      tp_esc(in, sizeof(in)));
}

static void on_usr1(int sig) { (void)sig; }

/* tcsetattr(TCSADRAIN) of VMIN 5 on the descriptor; SIGUSR1 (no
 * SA_RESTART) must interrupt it with EINTR. */
static int
drain_setattr_child(void *arg)
{
	int fd = *(int *)arg;
	struct sigaction sa = {.sa_handler = on_usr1};
	struct termios t;
	sigaction(SIGUSR1, &sa, NULL);
	if (tcgetattr(fd, &t) != 0)
		return tp_child_fail("tcgetattr: %s", strerror(errno));
	t.c_cc[VMIN] = 5;
	errno = 0;
	int r = tcsetattr(fd, TCSADRAIN, &t);
	if (r != -1 || errno != EINTR)
		return tp_child_fail("tcsetattr(TCSADRAIN) interrupted by a signal "
				     "returned %d (%s), want EINTR", r,
				     r ? strerror(errno) : "success");
	return 0;
}

TP_CASE(tcsadrain_interrupted_fails_eintr_changes_nothing, TP_POSIX,
	"With A's output held (VSTOP) and 10 bytes queued, tcsetattr(A, "
	"TCSADRAIN) sleeps; a signal without SA_RESTART ends it with EINTR, "
	"and nothing changed: VMIN still reads 1, the 10 bytes are still "
	"queued, and after VSTART B gets all 10")
{
	int a, b;
	struct tp_child c;
	struct termios t;
	char in[10];

	tp_serial_open_pair(tc, &a, &b, 0);
	tp_serial_stop_output(a, b);
	tp_write_str(a, "0123456789", "10 bytes on stopped A");
	tp_child_start(&c, drain_setattr_child, &a);
	tp_wait_blocked(c.pid, SYS_ioctl, "TCSADRAIN asleep on held output");
	kill(c.pid, SIGUSR1);
	tp_child_join(&c, TP_WAIT_MS, "TCSADRAIN to fail with EINTR");
	tp_tc_get(a, &t);
	ATF_CHECK_EQ_MSG(t.c_cc[VMIN], 1, "VMIN reads %d after the interrupted "
			 "TCSADRAIN, want the 1 it was", t.c_cc[VMIN]);
	ATF_CHECK_EQ_MSG(tp_uart_outq(a), 10, "TIOCOUTQ %d after the interrupted "
			 "TCSADRAIN, want 10", tp_uart_outq(a));
	tp_serial_start_output(b);
	tp_uart_read_exact(b, in, sizeof(in), TP_WAIT_MS, "the 10 bytes on B");
	ATF_CHECK_MSG(memcmp(in, "0123456789", 10) == 0, "B read \"%s\"",
		      tp_esc(in, sizeof(in)));
}

/* Write 10 bytes on A with flag set in c_cflag, then tcdrain(A) in a child:
 * it must return, with TIOCOUTQ 0, and B must get the bytes. */
static void
drain_returns_with(const atf_tc_t *tc, tcflag_t cflag, const char *what)
{
	int a, b;
	struct tp_child c;
	char in[10], wait[120];

	tp_serial_open_pair(tc, &a, &b, 0);
	if (cflag) {
		tp_uart_cflag(a, cflag, 0);
		tp_uart_cflag(b, cflag, 0);
	}
	tp_write_str(a, "0123456789", "10 bytes on A");
	tp_child_start(&c, drain_child, &a);
	snprintf(wait, sizeof(wait), "tcdrain(A) to return once the bytes are sent (%s)",
		 what);
	tp_child_join(&c, TP_WAIT_MS, wait);
	ATF_CHECK_EQ_MSG(tp_uart_outq(a), 0, "TIOCOUTQ %d after tcdrain", tp_uart_outq(a));
	tp_uart_read_exact(b, in, sizeof(in), TP_WAIT_MS, "the 10 bytes on B");
	ATF_CHECK_MSG(memcmp(in, "0123456789", 10) == 0, "B read \"%s\"",
		      tp_esc(in, sizeof(in)));
}

TP_CASE(tcdrain_returns_once_sent, TP_POSIX,
	"tcdrain(A) after a write returns once the bytes have left A "
	"(TIOCOUTQ 0, B has them): it waits for the transmitter, not longer")
{
	drain_returns_with(tc, 0, "no flow control");
}

TP_CASE(tcdrain_returns_once_sent_crtscts, TP_LINUX,
	"With CRTSCTS on both ports and CTS up (held up by the link), "
	"tcdrain(A) after a write returns once the bytes have left A, as "
	"without flow control")
{
	drain_returns_with(tc, CRTSCTS, "CRTSCTS, CTS up");
}

TP_CASE(tcflush_input_discards_received, TP_POSIX,
	"tcflush(TCIFLUSH) discards bytes received but not read; bytes that "
	"arrive afterwards are read normally")
{
	int a, b;
	char got[2];

	tp_serial_open_pair(tc, &a, &b, 0);
	tp_write_str(a, "old", "3 bytes from A");
	tp_wait_fionread(b, 3, TP_WAIT_MS, "3 bytes queued on B");
	ATF_REQUIRE_EQ(tcflush(b, TCIFLUSH), 0);
	ATF_CHECK_EQ_MSG(tp_fionread(b), 0, "FIONREAD %d after TCIFLUSH", tp_fionread(b));
	tp_write_str(a, "n", "new byte from A");
	tp_uart_read_exact(b, got, 1, TP_WAIT_MS, "the new byte");
	ATF_CHECK_MSG(got[0] == 'n', "B read \"%s\", want \"n\"", tp_esc(got, 1));
}

TP_CASE(tcflush_output_discards_queued, TP_POSIX,
	"tcflush(TCOFLUSH) discards output queued but not sent: with A "
	"stopped, 5 queued bytes vanish from TIOCOUTQ and never reach B after "
	"VSTART")
{
	int a, b;

	tp_serial_open_pair(tc, &a, &b, 0);
	tp_serial_stop_output(a, b);
	tp_write_str(a, "gone!", "5 bytes on stopped A");
	ATF_CHECK_EQ_MSG(tp_uart_outq(a), 5, "TIOCOUTQ %d, want 5", tp_uart_outq(a));
	ATF_REQUIRE_EQ(tcflush(a, TCOFLUSH), 0);
	ATF_CHECK_EQ_MSG(tp_uart_outq(a), 0, "TIOCOUTQ %d after TCOFLUSH", tp_uart_outq(a));
	tp_serial_start_output(b);
	tp_expect_quiet(b, "nothing from A after the flush");
}

TP_CASE(tcflush_both_queues, TP_POSIX,
	"tcflush(TCIOFLUSH) empties both queues at once")
{
	int a, b;

	tp_serial_open_pair(tc, &a, &b, 0);
	tp_serial_stop_output(a, b);
	tp_write_str(b, "in", "2 bytes for A's input");
	tp_wait_fionread(a, 2, TP_WAIT_MS, "2 bytes queued on A");
	tp_write_str(a, "out", "3 bytes on stopped A");
	ATF_REQUIRE_EQ(tcflush(a, TCIOFLUSH), 0);
	ATF_CHECK_EQ_MSG(tp_fionread(a), 0, "FIONREAD %d after TCIOFLUSH", tp_fionread(a));
	ATF_CHECK_EQ_MSG(tp_uart_outq(a), 0, "TIOCOUTQ %d after TCIOFLUSH", tp_uart_outq(a));
	tp_serial_start_output(b);
	tp_expect_quiet(b, "nothing from A after the flush");
}

TP_CASE(outq_and_fionread_count_bytes, TP_LINUX,
	"TIOCOUTQ counts 100 bytes queued on stopped A; after VSTART it falls "
	"to 0 and FIONREAD on B counts exactly the 100 that arrive")
{
	int a, b;
	char buf[100];

	tp_serial_open_pair(tc, &a, &b, 0);
	tp_serial_stop_output(a, b);
	tp_pattern(buf, sizeof(buf), 9);
	tp_write_all(a, buf, sizeof(buf), "100 bytes on stopped A");
	ATF_CHECK_EQ_MSG(tp_uart_outq(a), 100, "TIOCOUTQ %d, want 100", tp_uart_outq(a));
	ATF_CHECK_EQ_MSG(tp_fionread(b), 0, "FIONREAD on B %d while A is stopped",
			 tp_fionread(b));
	tp_serial_start_output(b);
	tp_uart_wait_outq_empty(a, TP_WAIT_MS, "A's queue to empty after VSTART");
	tp_wait_fionread(b, 100, TP_WAIT_MS, "100 bytes queued on B");
	tp_expect_quiet(a, "nothing comes back to A");
	ATF_CHECK_EQ_MSG(tp_fionread(b), 100, "FIONREAD on B %d, want 100", tp_fionread(b));
}

TP_CASE(nonblock_read_eagain, TP_POSIX,
	"A read of an O_NONBLOCK UART with nothing received fails with EAGAIN "
	"at once; with a byte received it returns it")
{
	int a, b;
	char c;

	tp_serial_open_pair(tc, &a, &b, O_NONBLOCK);
	errno = 0;
	ATF_CHECK_EQ(read(b, &c, 1), -1);
	ATF_CHECK_EQ_MSG(errno, EAGAIN, "errno %d (%s)", errno, strerror(errno));
	tp_write_str(a, "k", "a byte from A");
	tp_wait_fionread(b, 1, TP_WAIT_MS, "the byte on B");
	ATF_CHECK_EQ(read(b, &c, 1), 1);
	ATF_CHECK_EQ(c, 'k');
}

TP_CASE(nonblock_write_eagain_when_full, TP_POSIX,
	"On stopped A, O_NONBLOCK writes fill the transmit buffer and then "
	"fail with EAGAIN; TIOCOUTQ equals what was accepted; poll reports "
	"no POLLOUT until VSTART lets the queue drain")
{
	int a, b;
	char buf[1024];
	size_t accepted = 0;
	/* The serial core's transmit ring is one page (UART_XMIT_SIZE): 4 KiB
	 * on x86, 64 KiB on Debian's ppc64el.  Two pages is a runaway. */
	long limit = 2 * sysconf(_SC_PAGESIZE) / (long)sizeof(buf);

	tp_serial_open_pair(tc, &a, &b, O_NONBLOCK);
	tp_serial_stop_output(a, b);
	memset(buf, 'w', sizeof(buf));
	for (int i = 0;; i++) {
		ATF_REQUIRE_MSG(i < limit, "%ld KiB (two pages) accepted by a "
				"stopped port", limit);
		ssize_t n = write(a, buf, sizeof(buf));
		if (n < 0) {
			ATF_REQUIRE_EQ_MSG(errno, EAGAIN, "write: %s", strerror(errno));
			break;
		}
		accepted += (size_t)n;
	}
	ATF_CHECK_MSG(accepted > 0, "nothing accepted");
	ATF_CHECK_EQ_MSG((size_t)tp_uart_outq(a), accepted, "TIOCOUTQ %d, %zu accepted",
			 tp_uart_outq(a), accepted);
	ATF_CHECK_EQ_MSG(tp_poll1(a, POLLOUT, 0) & POLLOUT, 0, "POLLOUT on a full port");
	/* Flush rather than release 4 KiB at once: the link would drop what
	 * exceeds its window (TP_SERIAL_WINDOW). */
	ATF_REQUIRE_EQ(tcflush(a, TCOFLUSH), 0);
	tp_write_all(a, "ok", 2, "2 bytes after the flush");
	tp_serial_start_output(b);
	tp_wait_poll(a, POLLOUT, TP_WAIT_MS, "POLLOUT on A after VSTART");
	char got[2];
	tp_uart_read_exact(b, got, 2, TP_WAIT_MS, "the 2 bytes on B");
	ATF_CHECK_MSG(memcmp(got, "ok", 2) == 0, "B read \"%s\"", tp_esc(got, 2));
}

TP_CASE(poll_pollin_follows_data, TP_POSIX,
	"poll on B reports no POLLIN while nothing arrived, POLLIN once a "
	"byte arrives, and none again after it is read; POLLOUT on an idle A")
{
	int a, b;
	char c;

	tp_serial_open_pair(tc, &a, &b, O_NONBLOCK);
	ATF_CHECK_MSG(tp_poll1(a, POLLOUT, 0) & POLLOUT, "no POLLOUT on idle A");
	tp_expect_quiet(b, "no POLLIN on B before data");
	tp_write_str(a, "p", "a byte from A");
	tp_wait_poll(b, POLLIN, TP_WAIT_MS, "POLLIN on B");
	ATF_CHECK_EQ(read(b, &c, 1), 1);
	tp_expect_not_readable(b, "no POLLIN after the byte was read");
}

ATF_TP_ADD_TCS(tp)
{
	ATF_TP_ADD_TC(tp, tcdrain_waits_for_transmitter);
	ATF_TP_ADD_TC(tp, tcsadrain_interrupted_fails_eintr_changes_nothing);
	ATF_TP_ADD_TC(tp, tcdrain_returns_once_sent);
	ATF_TP_ADD_TC(tp, tcdrain_returns_once_sent_crtscts);
	ATF_TP_ADD_TC(tp, tcflush_input_discards_received);
	ATF_TP_ADD_TC(tp, tcflush_output_discards_queued);
	ATF_TP_ADD_TC(tp, tcflush_both_queues);
	ATF_TP_ADD_TC(tp, outq_and_fionread_count_bytes);
	ATF_TP_ADD_TC(tp, nonblock_read_eagain);
	ATF_TP_ADD_TC(tp, nonblock_write_eagain_when_full);
	ATF_TP_ADD_TC(tp, poll_pollin_follows_data);
	return atf_no_error();
}
