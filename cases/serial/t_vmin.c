// SPDX-License-Identifier: GPL-2.0-only
/* t_vmin.c: non-canonical reads on a UART: VMIN counts bytes that arrive
 * over a real line, VTIME times them (POSIX 11.1.7, cases A-D). */
#include <poll.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "tp_serial.h"

static void
set_vmin_vtime(int fd, int vmin, int vtime)
{
	tp_set_cc(fd, VMIN, (cc_t)vmin);
	tp_set_cc(fd, VTIME, (cc_t)vtime);
}

TP_CASE(vmin_waits_for_count, TP_POSIX,
	"VMIN=4, VTIME=0 (case B): a read of B stays blocked after 2 bytes "
	"arrived and returns all 4 once the other 2 arrive")
{
	int a, b;
	struct tp_reader r;
	struct tp_rd_result res;

	tp_serial_open_pair(tc, &a, &b, 0);
	set_vmin_vtime(b, 4, 0);
	tp_reader_start(&r, b, 8);
	tp_wait_blocked_fd(r.child.pid, SYS_read, b, "reader blocked in read(B)");
	struct serial_icounter_struct c0;
	tp_uart_icount(b, &c0);
	tp_write_str(a, "ab", "first 2 bytes from A");
	/* The reader takes bytes as they come (FIONREAD stays 0): know they
	 * reached B by its rx counter, then the read must not return. */
	tp_uart_wait_rx(b, c0.rx + 2, "2 bytes received by B");
	ATF_CHECK_MSG(!(tp_poll1(r.pipe[0], POLLIN, TP_QUIET_WINDOW_MS) & POLLIN),
		      "read returned with 2 of VMIN 4 bytes");
	tp_write_str(a, "cd", "last 2 bytes from A");
	tp_reader_result(&r, &res, "read with VMIN 4");
	tp_rd_check(&res, "abcd", 4, "read with VMIN 4");
}

TP_CASE(vtime_interbyte_timer_ends_read, TP_POSIX,
	"VMIN=10, VTIME=2 (case A): with 3 bytes received and then silence, "
	"one read returns the 3 bytes once 0.2 s pass without another byte")
{
	int a, b;
	struct tp_rd_result res;

	tp_serial_open_pair(tc, &a, &b, 0);
	set_vmin_vtime(b, 10, 2);
	tp_write_str(a, "xyz", "3 bytes from A");
	/* A UART delivers the bytes one at a time: a loaded machine could
	 * space them 0.2 s apart and rightly end a read already waiting after
	 * the first.  Received before the read, they count as arriving at its
	 * start (POSIX), and the timer starts once the read has taken them. */
	tp_wait_fionread(b, 3, TP_WAIT_MS, "3 bytes received by B");
	tp_timed_read(b, 16, &res, "read ended by the inter-byte timer");
	tp_rd_check(&res, "xyz", 3, "read with VMIN 10 VTIME 2");
	/* The lower bound allows a jiffy of rounding; the upper one TCG delays
	 * while still catching a timer ten times too long. */
	ATF_CHECK_MSG(res.ms >= 180 && res.ms < 1800, "read returned after "
		      "%lld ms; the inter-byte timer is 200 ms (accepted "
		      "180..1800)", res.ms);
}

TP_CASE(vtime_read_timer_returns_zero, TP_POSIX,
	"VMIN=0, VTIME=3 (case C): with nothing arriving the read returns 0 "
	"after about 0.3 s; a byte that arrives ends it at once")
{
	int a, b;
	struct tp_rd_result res;
	struct tp_reader r;

	tp_serial_open_pair(tc, &a, &b, 0);
	set_vmin_vtime(b, 0, 3);
	tp_timed_read(b, 8, &res, "read with VMIN 0 VTIME 3, no data");
	ATF_CHECK_EQ_MSG(res.n, 0, "read returned %zd", res.n);
	ATF_CHECK_MSG(res.ms >= 280 && res.ms < 2700, "read returned 0 after "
		      "%lld ms; VTIME is 300 ms (accepted 280..2700)", res.ms);
	tp_reader_start(&r, b, 8);
	tp_wait_blocked_fd(r.child.pid, SYS_read, b, "reader blocked in read(B)");
	tp_write_str(a, "q", "one byte from A");
	tp_reader_result(&r, &res, "read ended by the byte");
	tp_rd_check(&res, "q", 1, "read with VMIN 0 VTIME 3 and a byte");
}

TP_CASE(vmin_zero_vtime_zero_polls, TP_POSIX,
	"VMIN=0, VTIME=0 (case D): a read returns at once, 0 with nothing "
	"queued, the queued bytes when some arrived")
{
	int a, b;
	struct tp_rd_result res;

	tp_serial_open_pair(tc, &a, &b, 0);
	set_vmin_vtime(b, 0, 0);
	tp_timed_read(b, 8, &res, "polling read, nothing queued");
	ATF_CHECK_EQ_MSG(res.n, 0, "read returned %zd", res.n);
	tp_write_str(a, "pq", "2 bytes from A");
	tp_wait_fionread(b, 2, TP_WAIT_MS, "2 bytes queued on B");
	tp_timed_read(b, 8, &res, "polling read, 2 queued");
	tp_rd_check(&res, "pq", 2, "polling read");
}

ATF_TP_ADD_TCS(tp)
{
	ATF_TP_ADD_TC(tp, vmin_waits_for_count);
	ATF_TP_ADD_TC(tp, vtime_interbyte_timer_ends_read);
	ATF_TP_ADD_TC(tp, vtime_read_timer_returns_zero);
	ATF_TP_ADD_TC(tp, vmin_zero_vtime_zero_polls);
	return atf_no_error();
}
