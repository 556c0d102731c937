// SPDX-License-Identifier: GPL-2.0-only
/* t_link.c: data over the cross-connected UART pair, both ways, small and
 * large, with and without hardware (CRTSCTS) and software (IXON) flow
 * control: nothing lost, nothing reordered. */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tp_serial.h"

/* Large enough to pass many times through every buffer on the way (the
 * 16-byte FIFOs, the flip buffers, the 4 KiB n_tty buffer, the xmit ring);
 * ~3 s at 115200.  The link itself is kept within TP_SERIAL_WINDOW. */
#define LARGE (32 * 1024)
#define LARGE_MS 30000

TP_CASE(pair_found_in_sysfs, TP_LINUX,
	"The cross-connected pair is found by its sysfs device: each ttyS's "
	"device leads up to the QEMU pci-serial function at 0000:00:10.0 / "
	"0000:00:11.0, and agrees with serial_a/serial_b when those are set")
{
	struct tp_serial_pair sys, cfg;
	char why[512];

	if (!tp_serial_find_sysfs(&sys, why, sizeof(why)))
		atf_tc_skip("%s", why);
	char pa[64], pb[64];
	ATF_REQUIRE(tp_serial_pci_of(strrchr(sys.a, '/') + 1, pa, sizeof(pa)));
	ATF_REQUIRE(tp_serial_pci_of(strrchr(sys.b, '/') + 1, pb, sizeof(pb)));
	ATF_CHECK_STREQ(pa, TP_SERIAL_PCI_A);
	ATF_CHECK_STREQ(pb, TP_SERIAL_PCI_B);
	tp_serial_find(tc, &cfg);
	if (cfg.from_config) {
		ATF_CHECK_STREQ_MSG(cfg.a, sys.a, "serial_a is not the port at %s",
				    TP_SERIAL_PCI_A);
		ATF_CHECK_STREQ_MSG(cfg.b, sys.b, "serial_b is not the port at %s",
				    TP_SERIAL_PCI_B);
	}
}

TP_CASE(a_to_b_bytes, TP_POSIX,
	"Bytes written to port A arrive, in order, on port B")
{
	int a, b;
	char got[16];

	tp_serial_open_pair(tc, &a, &b, 0);
	tp_write_str(a, "hello, B\n", "write on A");
	tp_uart_read_exact(b, got, 9, TP_WAIT_MS, "the bytes on B");
	ATF_CHECK_MSG(memcmp(got, "hello, B\n", 9) == 0, "B read \"%s\"",
		      tp_esc(got, 9));
	tp_expect_quiet(b, "nothing more on B");
}

TP_CASE(b_to_a_bytes, TP_POSIX,
	"Bytes written to port B arrive, in order, on port A")
{
	int a, b;
	char got[16];

	tp_serial_open_pair(tc, &a, &b, 0);
	tp_write_str(b, "hello, A\n", "write on B");
	tp_uart_read_exact(a, got, 9, TP_WAIT_MS, "the bytes on A");
	ATF_CHECK_MSG(memcmp(got, "hello, A\n", 9) == 0, "A read \"%s\"",
		      tp_esc(got, 9));
	tp_expect_quiet(a, "nothing more on A");
}

TP_CASE(all_byte_values_pass, TP_POSIX,
	"In raw mode (no ISTRIP, no IXON, CS8) all 256 byte values cross the "
	"link unchanged, NUL and 0xff included")
{
	int a, b;
	unsigned char out[256];

	tp_serial_open_pair(tc, &a, &b, 0);
	for (int i = 0; i < 256; i++)
		out[i] = (unsigned char)i;
	tp_serial_transfer(a, b, out, sizeof(out), TP_WAIT_MS, "256 byte values A to B");
}

TP_CASE(every_char_size_carries_data, TP_POSIX,
	"With both ports at CS5, CS6, CS7 and again CS8 (raw), every byte "
	"that fits the character size crosses the link unchanged, both ways: "
	"setting a character size never stops the port (each size's bytes "
	"fit it, so a UART that truncates to the word length gives the same)")
{
	static const struct { tcflag_t cs; int bits; } sizes[] = {
		{ CS5, 5 }, { CS6, 6 }, { CS7, 7 }, { CS8, 8 },
	};
	int a, b;
	unsigned char out[256];
	char what[64];

	tp_serial_open_pair(tc, &a, &b, 0);
	for (size_t i = 0; i < sizeof sizes / sizeof *sizes; i++) {
		int n = 1 << sizes[i].bits;
		for (int v = 0; v < n; v++)
			out[v] = (unsigned char)v;
		tp_uart_cflag(a, sizes[i].cs, CSIZE);
		tp_uart_cflag(b, sizes[i].cs, CSIZE);
		snprintf(what, sizeof what, "%d byte values at CS%d, A to B", n,
			 sizes[i].bits);
		tp_serial_transfer(a, b, out, (size_t)n, TP_WAIT_MS, what);
		snprintf(what, sizeof what, "%d byte values at CS%d, B to A", n,
			 sizes[i].bits);
		tp_serial_transfer(b, a, out, (size_t)n, TP_WAIT_MS, what);
	}
}

/* Two streams at once: A->B and B->A, interleaved in one loop. */
static void
both_ways(int a, int b, size_t len)
{
	char *oa = malloc(len), *ob = malloc(len), *ia = malloc(len), *ib = malloc(len);
	size_t sa = 0, sb = 0, ga = 0, gb = 0;
	long long deadline = tp_now_ms() + LARGE_MS;

	ATF_REQUIRE(oa && ob && ia && ib);
	tp_pattern(oa, len, 1);
	tp_pattern(ob, len, 2);
	tp_set_nonblock(a, true);
	tp_set_nonblock(b, true);
	tp_waiting_for("both streams complete");
	while (ga < len || gb < len) {
		if (tp_now_ms() > deadline)
			atf_tc_fail("in %d ms B got %zu and A got %zu of %zu bytes",
				    LARGE_MS, gb, ga, len);
		/* At most TP_SERIAL_WINDOW bytes in flight each way. */
		size_t ca = len - sa, cb = len - sb;
		if (ca > TP_SERIAL_WINDOW - (sa - gb))
			ca = TP_SERIAL_WINDOW - (sa - gb);
		if (cb > TP_SERIAL_WINDOW - (sb - ga))
			cb = TP_SERIAL_WINDOW - (sb - ga);
		struct pollfd pf[2] = {{.fd = a, .events = POLLIN | (ca ? POLLOUT : 0)},
				       {.fd = b, .events = POLLIN | (cb ? POLLOUT : 0)}};
		poll(pf, 2, 100);
		ssize_t n;
		if (ca && (n = write(a, oa + sa, ca)) > 0)
			sa += (size_t)n;
		if (cb && (n = write(b, ob + sb, cb)) > 0)
			sb += (size_t)n;
		if ((n = read(b, ib + gb, len - gb)) > 0)
			gb += (size_t)n;
		else if (n < 0 && errno != EAGAIN)
			atf_tc_fail("read B: %s", strerror(errno));
		if ((n = read(a, ia + ga, len - ga)) > 0)
			ga += (size_t)n;
		else if (n < 0 && errno != EAGAIN)
			atf_tc_fail("read A: %s", strerror(errno));
	}
	long bad;
	ATF_CHECK_MSG((bad = tp_pattern_check(ib, len, 1)) < 0,
		      "A->B stream wrong at byte %ld", bad);
	ATF_CHECK_MSG((bad = tp_pattern_check(ia, len, 2)) < 0,
		      "B->A stream wrong at byte %ld", bad);
	free(oa), free(ob), free(ia), free(ib);
}

TP_CASE(both_ways_at_once, TP_POSIX,
	"Full duplex: 8 KiB A->B and 8 KiB B->A at the same time, both intact")
{
	int a, b;

	tp_serial_open_pair(tc, &a, &b, 0);
	both_ways(a, b, 8192);
}

static void
large(const atf_tc_t *tc, bool a_to_b, tcflag_t cflags, tcflag_t iflags)
{
	int a, b;
	char *data = malloc(LARGE);

	ATF_REQUIRE(data != NULL);
	tp_pattern(data, LARGE, 7);
	if (iflags & (IXON | IXOFF)) {
		/* VSTOP/VSTART in the data would be taken as flow control. */
		for (size_t i = 0; i < LARGE; i++)
			if (data[i] == 021 || data[i] == 023)
				data[i] = 'x';
	}
	tp_serial_open_pair(tc, &a, &b, 0);
	if (cflags) {
		tp_uart_cflag(a, cflags, 0);
		tp_uart_cflag(b, cflags, 0);
	}
	if (iflags) {
		tp_iflag(a, iflags, 0);
		tp_iflag(b, iflags, 0);
	}
	int tx = a_to_b ? a : b, rx = a_to_b ? b : a;
	struct serial_icounter_struct t0, r0, t1, r1;
	tp_uart_icount(tx, &t0);
	tp_uart_icount(rx, &r0);
	long long ms = tp_serial_transfer(tx, rx, data, LARGE, LARGE_MS,
					  a_to_b ? "32 KiB A to B" : "32 KiB B to A");
	tp_uart_wait_outq_empty(tx, TP_WAIT_MS, "transmitter done");
	tp_expect_quiet(rx, "nothing after the transfer");
	/* The UARTs agree: every byte sent once and received once. */
	tp_uart_icount(tx, &t1);
	tp_uart_icount(rx, &r1);
	ATF_CHECK_EQ_MSG(t1.tx - t0.tx, LARGE, "sender's tx counter moved by %d",
			 t1.tx - t0.tx);
	ATF_CHECK_EQ_MSG(r1.rx - r0.rx, LARGE, "receiver's rx counter moved by %d",
			 r1.rx - r0.rx);
	ATF_CHECK_EQ_MSG(r1.overrun + r1.buf_overrun, r0.overrun + r0.buf_overrun,
			 "receiver overruns: %d -> %d", r0.overrun + r0.buf_overrun,
			 r1.overrun + r1.buf_overrun);
	printf("%d bytes in %lld ms\n", LARGE, ms);
	free(data);
}

TP_CASE_TIMEOUT(large_a_to_b, TP_POSIX, 60,
		"32 KiB A->B at 115200 baud: every byte arrives, in order, "
		"nothing extra")
{
	large(tc, true, 0, 0);
}

TP_CASE_TIMEOUT(large_b_to_a, TP_POSIX, 60,
		"32 KiB B->A at 115200 baud: every byte arrives, in order, "
		"nothing extra")
{
	large(tc, false, 0, 0);
}

TP_CASE_TIMEOUT(large_with_crtscts, TP_LINUX, 60,
		"32 KiB A->B with CRTSCTS on both ports (CTS is held up by "
		"the link): hardware flow control loses nothing")
{
	large(tc, true, CRTSCTS, 0);
}

TP_CASE_TIMEOUT(large_with_ixon_ixoff, TP_POSIX, 60,
		"32 KiB A->B with IXON|IXOFF on both ports (data free of "
		"^S/^Q): software flow control loses nothing")
{
	large(tc, true, 0, IXON | IXOFF);
}

TP_CASE(ixon_stop_holds_output, TP_POSIX,
	"With IXON on A, a VSTOP (^S) from B stops A's output: it stays "
	"queued (TIOCOUTQ > 0) and nothing reaches B until VSTART (^Q)")
{
	int a, b;
	char got[8];

	tp_serial_open_pair(tc, &a, &b, 0);
	tp_iflag(a, IXON, IXANY);
	/* The marker after ^S is data: once A reads it, the ^S before it
	 * has been taken as flow control (input is processed in order). */
	tp_write_str(b, "\023m", "VSTOP and a marker from B");
	tp_uart_read_exact(a, got, 1, TP_WAIT_MS, "the marker after VSTOP");
	ATF_CHECK_MSG(got[0] == 'm', "A read \"%s\" where only the marker "
		      "was data", tp_esc(got, 1));
	tp_write_str(a, "held", "write on stopped A");
	tp_expect_quiet(b, "nothing from stopped A");
	ATF_CHECK_MSG(tp_uart_outq(a) == 4, "TIOCOUTQ of stopped A is %d, want 4",
		      tp_uart_outq(a));
	tp_write_str(b, "\021", "VSTART from B");
	tp_uart_read_exact(b, got, 4, TP_WAIT_MS, "held bytes after VSTART");
	ATF_CHECK_MSG(memcmp(got, "held", 4) == 0, "B read \"%s\"", tp_esc(got, 4));
}

ATF_TP_ADD_TCS(tp)
{
	ATF_TP_ADD_TC(tp, pair_found_in_sysfs);
	ATF_TP_ADD_TC(tp, a_to_b_bytes);
	ATF_TP_ADD_TC(tp, b_to_a_bytes);
	ATF_TP_ADD_TC(tp, all_byte_values_pass);
	ATF_TP_ADD_TC(tp, every_char_size_carries_data);
	ATF_TP_ADD_TC(tp, both_ways_at_once);
	ATF_TP_ADD_TC(tp, large_a_to_b);
	ATF_TP_ADD_TC(tp, large_b_to_a);
	ATF_TP_ADD_TC(tp, large_with_crtscts);
	ATF_TP_ADD_TC(tp, large_with_ixon_ixoff);
	ATF_TP_ADD_TC(tp, ixon_stop_holds_output);
	return atf_no_error();
}
