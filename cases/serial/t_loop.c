// SPDX-License-Identifier: GPL-2.0-only
/* t_loop.c: the 16550's internal loopback (MCR bit 4, TIOCM_LOOP through
 * TIOCMBIS/TIOCMSET): a port's output comes back as its own input and
 * leaves nothing on the line. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tp_serial.h"

TP_CASE(loop_bit_reads_back, TP_LINUX,
	"TIOCMBIS and TIOCMBIC of TIOCM_LOOP, and TIOCMSET with and without "
	"it, show in TIOCMGET")
{
	int a, b;

	tp_serial_open_pair(tc, &a, &b, 0);
	ATF_CHECK_MSG(!(tp_uart_mget(a) & TIOCM_LOOP), "LOOP set on open: %s",
		      tp_tiocm_str(tp_uart_mget(a)));
	tp_uart_loop(a, true);
	tp_uart_loop(a, false);
	tp_uart_mset(a, TIOCM_LOOP | TIOCM_DTR | TIOCM_RTS | TIOCM_OUT2);
	ATF_CHECK_MSG(tp_uart_mget(a) & TIOCM_LOOP, "TIOCMSET with LOOP: %s",
		      tp_tiocm_str(tp_uart_mget(a)));
	tp_uart_mset(a, TIOCM_DTR | TIOCM_RTS | TIOCM_OUT2);
	ATF_CHECK_MSG(!(tp_uart_mget(a) & TIOCM_LOOP), "TIOCMSET without LOOP: %s",
		      tp_tiocm_str(tp_uart_mget(a)));
}

TP_CASE(loop_echoes_written_bytes, TP_LINUX,
	"In loop mode bytes written to A are read back on A, and none reach B")
{
	int a, b;
	char got[8];

	tp_serial_open_pair(tc, &a, &b, 0);
	tp_uart_loop(a, true);
	tp_write_str(a, "looped", "write on A in loop mode");
	tp_uart_read_exact(a, got, 6, TP_WAIT_MS, "the bytes back on A");
	ATF_CHECK_MSG(memcmp(got, "looped", 6) == 0, "A read \"%s\"", tp_esc(got, 6));
	tp_uart_wait_outq_empty(a, TP_WAIT_MS, "A's queue empty");
	tp_expect_quiet(b, "nothing on B while A loops");
	tp_expect_quiet(a, "nothing more on A");
}

TP_CASE(loop_carries_4k_intact, TP_LINUX,
	"4 KiB through A's loopback arrive on A intact and in order")
{
	int a, b;
	char *data = malloc(4096);

	ATF_REQUIRE(data != NULL);
	tp_pattern(data, 4096, 11);
	tp_serial_open_pair(tc, &a, &b, 0);
	/* Loop mode has no backpressure (tp_serial.h): never more in flight
	 * than QEMU's receiver holds, 16 bytes with the FIFOs on, else one. */
	struct serial_struct ss;
	tp_uart_gserial(a, &ss);
	size_t window = ss.xmit_fifo_size >= 16 ? 16 : 1;
	tp_uart_loop(a, true);
	tp_serial_transfer_window(a, a, data, 4096, window, 30000,
				  "4 KiB through the loopback");
	tp_expect_quiet(b, "nothing on B");
	free(data);
}

TP_CASE(loop_off_restores_link, TP_LINUX,
	"After loop mode is turned off, A's bytes reach B again and no longer "
	"come back to A")
{
	int a, b;
	char got[4];

	tp_serial_open_pair(tc, &a, &b, 0);
	tp_uart_loop(a, true);
	tp_write_str(a, "in", "write in loop mode");
	tp_uart_read_exact(a, got, 2, TP_WAIT_MS, "looped bytes");
	tp_uart_loop(a, false);
	tp_write_str(a, "out", "write after loop mode");
	tp_uart_read_exact(b, got, 3, TP_WAIT_MS, "the bytes on B");
	ATF_CHECK_MSG(memcmp(got, "out", 3) == 0, "B read \"%s\"", tp_esc(got, 3));
	tp_expect_quiet(a, "nothing back on A");
}

TP_CASE(loop_counts_tx_and_rx, TP_LINUX,
	"In loop mode TIOCGICOUNT of A counts 100 more bytes sent and 100 "
	"more received for 100 bytes written and read back")
{
	int a, b;
	char buf[100], in[100];
	struct serial_icounter_struct c0, c1;

	tp_serial_open_pair(tc, &a, &b, 0);
	tp_uart_loop(a, true);
	tp_uart_icount(a, &c0);
	tp_pattern(buf, sizeof(buf), 4);
	tp_write_all(a, buf, sizeof(buf), "100 bytes in loop mode");
	tp_uart_read_exact(a, in, sizeof(in), TP_WAIT_MS, "100 bytes back");
	tp_uart_wait_outq_empty(a, TP_WAIT_MS, "A's queue empty");
	tp_uart_icount(a, &c1);
	ATF_CHECK_EQ_MSG(c1.tx - c0.tx, 100, "tx moved by %d", c1.tx - c0.tx);
	ATF_CHECK_EQ_MSG(c1.rx - c0.rx, 100, "rx moved by %d", c1.rx - c0.rx);
}

TP_CASE(crtscts_with_cts_low_holds_output_until_turned_off, TP_LINUX,
	"Setting CRTSCTS while CTS is low (loop mode with RTS cleared: the "
	"looped CTS follows RTS) stops A's output: 4 bytes written stay "
	"queued (TIOCOUTQ 4) and none come back; clearing CRTSCTS again "
	"restarts the output at once and the 4 bytes come back")
{
	int a, b;
	char got[4];

	tp_serial_open_pair(tc, &a, &b, 0);
	tp_uart_loop(a, true);
	tp_uart_mbic(a, TIOCM_RTS);
	ATF_REQUIRE_MSG(!(tp_uart_mget(a) & TIOCM_CTS), "CTS %s with RTS "
			"cleared in loop mode", tp_tiocm_str(tp_uart_mget(a)));
	tp_uart_cflag(a, CRTSCTS, 0);
	tp_write_str(a, "held", "4 bytes on A with CRTSCTS and CTS low");
	tp_expect_quiet(a, "nothing back on A while CTS is low");
	ATF_CHECK_EQ_MSG(tp_uart_outq(a), 4, "TIOCOUTQ %d with 4 bytes held",
			 tp_uart_outq(a));
	tp_uart_cflag(a, 0, CRTSCTS);
	tp_uart_read_exact(a, got, 4, TP_WAIT_MS,
			   "the held bytes back on A once CRTSCTS is off");
	ATF_CHECK_MSG(memcmp(got, "held", 4) == 0, "A read \"%s\"",
		      tp_esc(got, 4));
	tp_expect_quiet(b, "nothing on B");
}

ATF_TP_ADD_TCS(tp)
{
	ATF_TP_ADD_TC(tp, loop_bit_reads_back);
	ATF_TP_ADD_TC(tp, loop_echoes_written_bytes);
	ATF_TP_ADD_TC(tp, loop_carries_4k_intact);
	ATF_TP_ADD_TC(tp, loop_off_restores_link);
	ATF_TP_ADD_TC(tp, loop_counts_tx_and_rx);
	ATF_TP_ADD_TC(tp, crtscts_with_cts_low_holds_output_until_turned_off);
	return atf_no_error();
}
