// SPDX-License-Identifier: GPL-2.0-only
/* t_xchar.c: tcflow(TCIOFF/TCION) on a UART.  POSIX: TCIOFF transmits a
 * STOP character, TCION a START character, so that the other end stops
 * and restarts its sending.  A UART sends them as its "x_char": one byte
 * that goes out ahead of the data already queued, even while the port's
 * own output is suspended (otherwise a port that stopped its output could
 * never tell the other end to stop).  The byte sent is the port's current
 * VSTOP / VSTART, and nothing at all when that character is disabled. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "tp_serial.h"


/* B receives exactly the one byte `want` (then nothing more is waiting). */
static void
expect_one_byte(int b, unsigned char want, const char *what)
{
	unsigned char got = 0;
	tp_uart_read_exact(b, &got, 1, TP_WAIT_MS, what);
	ATF_CHECK_EQ_MSG(got, want, "%s: B read 0x%02x, want 0x%02x", what, got, want);
	tp_expect_quiet(b, what);
}

/* A's VSTOP and VSTART set to stop and start (B stays raw: it reads them
 * as data). */
static void
set_stop_start(int a, cc_t stop, cc_t start)
{
	struct termios t;
	tp_tc_get(a, &t);
	t.c_cc[VSTOP] = stop;
	t.c_cc[VSTART] = start;
	tp_tc_set(a, &t);
}

/* TCIOFF then TCION on A: B receives stop, then start, one byte each. */
static void
expect_tcioff_tcion(int a, int b, unsigned char stop, unsigned char start, const char *when)
{
	char what[160];
	snprintf(what, sizeof what, "TCIOFF on A %s", when);
	tp_tcflow(a, TCIOFF, what);
	snprintf(what, sizeof what, "TCIOFF %s: B receives 0x%02x", when, stop);
	expect_one_byte(b, stop, what);
	snprintf(what, sizeof what, "TCION on A %s", when);
	tp_tcflow(a, TCION, what);
	snprintf(what, sizeof what, "TCION %s: B receives 0x%02x", when, start);
	expect_one_byte(b, start, what);
}

TP_CASE(tcioff_sends_vstop_tcion_vstart, TP_POSIX,
	"tcflow(TCIOFF) on a UART transmits its VSTOP character to the other "
	"end and tcflow(TCION) its VSTART, one byte each, with IXOFF off as "
	"well as on")
{
	int a, b;
	tp_serial_open_pair(tc, &a, &b, 0);
	expect_tcioff_tcion(a, b, CTRL('S'), CTRL('Q'), "without IXOFF");
	struct termios t;
	tp_tc_get(a, &t);
	t.c_iflag |= IXOFF;
	tp_tc_set(a, &t);
	expect_tcioff_tcion(a, b, CTRL('S'), CTRL('Q'), "with IXOFF");
	tp_uart_close(a);
	tp_uart_close(b);
}

TP_CASE(tcioff_sends_the_current_vstop, TP_POSIX,
	"The characters TCIOFF and TCION transmit are the port's VSTOP and "
	"VSTART as set at the time (here ^X and ^Y), not fixed ^S and ^Q")
{
	int a, b;
	tp_serial_open_pair(tc, &a, &b, 0);
	set_stop_start(a, CTRL('X'), CTRL('Y'));
	expect_tcioff_tcion(a, b, CTRL('X'), CTRL('Y'), "with VSTOP ^X, VSTART ^Y");
	tp_uart_close(a);
	tp_uart_close(b);
}

TP_CASE(disabled_vstop_sends_nothing, TP_LINUX,
	"With VSTOP (VSTART) set to _POSIX_VDISABLE, TCIOFF (TCION) on a UART "
	"succeeds and transmits nothing; the port's output still flows")
{
	int a, b;
	tp_serial_open_pair(tc, &a, &b, 0);
	set_stop_start(a, _POSIX_VDISABLE, _POSIX_VDISABLE);
	tp_tcflow(a, TCIOFF, "TCIOFF on A, VSTOP disabled");
	tp_tcflow(a, TCION, "TCION on A, VSTART disabled");
	tp_expect_quiet(b, "nothing reaches B for a disabled VSTOP/VSTART");
	ATF_REQUIRE_EQ(write(a, "ok", 2), 2);
	char got[2];
	tp_uart_read_exact(b, got, 2, TP_WAIT_MS, "A's data after TCIOFF/TCION");
	ATF_CHECK_MSG(!memcmp(got, "ok", 2), "B read '%.2s', want 'ok'", got);
	tp_uart_close(a);
	tp_uart_close(b);
}

TP_CASE(xchar_passes_suspended_output, TP_LINUX,
	"While A's output is suspended by TCOOFF, its queued data stays queued "
	"but TCIOFF's VSTOP still goes out at once, ahead of that data; after "
	"TCOON the data follows, whole and in order")
{
	static const char data[] = "queued behind the stop";
	const size_t len = sizeof(data) - 1;
	int a, b;
	tp_serial_open_pair(tc, &a, &b, 0);
	tp_tcflow(a, TCOOFF, "TCOOFF on A");
	ATF_REQUIRE_EQ(write(a, data, len), (ssize_t)len);
	ATF_CHECK_EQ_MSG(tp_uart_outq(a), (int)len, "TIOCOUTQ %d with output "
			 "suspended, want the %zu bytes written", tp_uart_outq(a), len);
	tp_tcflow(a, TCIOFF, "TCIOFF on A while its output is suspended");
	expect_one_byte(b, CTRL('S'), "TCIOFF with output suspended: only ^S reaches B");
	ATF_CHECK_EQ_MSG(tp_uart_outq(a), (int)len, "TIOCOUTQ %d after the ^S went "
			 "out, want the data still queued (%zu)", tp_uart_outq(a), len);
	tp_tcflow(a, TCOON, "TCOON on A");
	char got[sizeof(data)] = "";
	tp_uart_read_exact(b, got, len, TP_WAIT_MS, "the data after TCOON");
	ATF_CHECK_MSG(!memcmp(got, data, len), "B read '%.*s', want '%s'", (int)len,
		      got, data);
	tp_uart_close(a);
	tp_uart_close(b);
}

ATF_TP_ADD_TCS(tp)
{
	ATF_TP_ADD_TC(tp, tcioff_sends_vstop_tcion_vstart);
	ATF_TP_ADD_TC(tp, tcioff_sends_the_current_vstop);
	ATF_TP_ADD_TC(tp, disabled_vstop_sends_nothing);
	ATF_TP_ADD_TC(tp, xchar_passes_suspended_output);
	return atf_no_error();
}
