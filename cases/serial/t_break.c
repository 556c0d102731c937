// SPDX-License-Identifier: GPL-2.0-only
/* t_break.c: breaks and line errors on a UART.  The kernel's side (how long
 * tcsendbreak holds the line, that it drains output first) is checked
 * everywhere; what the receiver makes of a break or a parity error
 * (IGNBRK, BRKINT, PARMRK, INPCK) only where the emulation delivers one:
 * QEMU carries no break over its UDP link, loops none in MCR loop mode and
 * models no parity on the link, and then the case skips saying so. */
#include <errno.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "tp_serial.h"

TP_CASE(tcsendbreak_lasts_quarter_second, TP_LINUX,
	"tcsendbreak(fd, 0) holds the break for Linux's 250 ms (POSIX: 0.25 "
	"to 0.5 s) before it returns")
{
	int a, b;

	tp_serial_open_pair(tc, &a, &b, 0);
	long long t0 = tp_now_ms();
	tp_waiting_for("tcsendbreak(A, 0)");
	ATF_REQUIRE_EQ_MSG(tcsendbreak(a, 0), 0, "tcsendbreak: %s", strerror(errno));
	long long ms = tp_now_ms() - t0;
	ATF_CHECK_MSG(ms >= TP_SLEEP_MIN_MS(250), "tcsendbreak returned after %lld ms",
		      ms);
	ATF_CHECK_MSG(ms < 5000, "tcsendbreak took %lld ms", ms);
}

TP_CASE(tcsbrkp_lasts_deciseconds, TP_LINUX,
	"TCSBRKP (tcsendbreak's BSD form) holds the break for its argument in "
	"tenths of a second: 3 lasts at least 300 ms; 0 means Linux's 250 ms")
{
	int a, b;

	tp_serial_open_pair(tc, &a, &b, 0);
	const struct {
		int arg, min_ms;
	} v[] = {{3, 300}, {0, 250}};
	for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		char what[48];
		snprintf(what, sizeof(what), "ioctl(A, TCSBRKP, %d)", v[i].arg);
		long long t0 = tp_now_ms();
		tp_waiting_for(what);
		ATF_REQUIRE_EQ_MSG(ioctl(a, TCSBRKP, v[i].arg), 0, "TCSBRKP %d: %s",
				   v[i].arg, strerror(errno));
		long long ms = tp_now_ms() - t0;
		ATF_CHECK_MSG(ms >= TP_SLEEP_MIN_MS(v[i].min_ms), "TCSBRKP %d returned "
			      "after %lld ms, want at least %d", v[i].arg, ms, v[i].min_ms);
		ATF_CHECK_MSG(ms < 5000, "TCSBRKP %d took %lld ms", v[i].arg, ms);
	}
}

/* A break of 30 s: longer than any wait of the case, so that only the
 * hangup can end it in time. */
#define LONG_BREAK_DS 300

static int
long_break_child(void *arg)
{
	errno = 0;
	int r = ioctl(*(int *)arg, TCSBRKP, LONG_BREAK_DS);
	if (r != -1 || errno != EIO)
		return tp_child_fail("TCSBRKP %d ended by a hangup: %d (%s), want EIO",
				     LONG_BREAK_DS, r, r ? strerror(errno) : "success");
	return 0;
}

TP_CASE_ROOT(hangup_ends_a_break_with_eio, TP_LINUX,
	"A hangup of A (TIOCVHANGUP) while a 30-second break (TCSBRKP 300) is "
	"being sent on A ends the break at once: the TCSBRKP fails with EIO "
	"within the case's wait instead of lasting 30 s")
{
	struct tp_serial_pair p;
	struct tp_child c;

	tp_serial_find(tc, &p);
	int a = tp_uart_open(p.a, 0);
	tp_child_start(&c, long_break_child, &a);
	tp_wait_blocked(c.pid, SYS_ioctl, "TCSBRKP asleep in its break");
	ATF_REQUIRE_MSG(ioctl(a, TIOCVHANGUP) == 0, "TIOCVHANGUP: %s", strerror(errno));
	tp_child_join(&c, TP_WAIT_MS, "the break to end with EIO on the hangup");
}

/* A break on fd that SIGUSR1 (no SA_RESTART) must end with EINTR: one of
 * LONG_BREAK_DS (TCSBRKP), or tcsendbreak's own. */
struct breaker {
	int fd;
	bool long_break;
};

static int
interrupted_break(void *arg)
{
	const struct breaker *b = arg;
	int rc = tp_child_interruptible(SIGUSR1);
	if (rc != 0)
		return rc;
	errno = 0;
	int r = b->long_break ? ioctl(b->fd, TCSBRKP, LONG_BREAK_DS) : tcsendbreak(b->fd, 0);
	if (r != -1 || errno != EINTR)
		return tp_child_fail("%s ended by a signal: %d (%s), want EINTR",
				     b->long_break ? "TCSBRKP 300" : "tcsendbreak behind a break",
				     r, r ? strerror(errno) : "success");
	return 0;
}

/* A write of one byte to fd, which waits while a break holds the port. */
static int
write_x_child(void *arg)
{
	if (write(*(int *)arg, "x", 1) != 1)
		return tp_child_fail("write during a break: %s", strerror(errno));
	return 0;
}

TP_CASE(break_holds_the_port_until_it_ends, TP_LINUX,
	"A break holds its port until it ends: while another process's "
	"30-second break (TCSBRKP 300) is under way on A, a tcsendbreak on A "
	"waits, and a caught signal (no SA_RESTART) ends that wait with EINTR; "
	"a write to A waits too, and once a signal ends the first break "
	"(EINTR) the write goes through and B reads its byte")
{
	int a, b;
	struct tp_child first, second, writer;
	char c;

	tp_serial_open_pair(tc, &a, &b, 0);
	/* A link that carries breaks (real UARTs) must not put one in B's
	 * queue before the byte. */
	tp_iflag(b, IGNBRK, 0);
	struct breaker long_one = {a, true}, waiting = {a, false};
	tp_child_start(&first, interrupted_break, &long_one);
	tp_wait_blocked(first.pid, SYS_ioctl, "the first break, of 30 s, under way");
	tp_child_start(&second, interrupted_break, &waiting);
	tp_wait_blocked(second.pid, SYS_ioctl, "the second break waiting behind the first");
	ATF_REQUIRE_EQ(kill(second.pid, SIGUSR1), 0);
	tp_child_join(&second, TP_WAIT_MS, "the waiting break to end with EINTR");
	tp_child_start(&writer, write_x_child, &a);
	tp_wait_blocked(writer.pid, SYS_write, "a write to A waiting behind the first break");
	ATF_REQUIRE_EQ(kill(first.pid, SIGUSR1), 0);
	tp_child_join(&first, TP_WAIT_MS, "the first break to end with EINTR");
	tp_child_join(&writer, TP_WAIT_MS, "the write to go through after the break");
	tp_uart_read_exact(b, &c, 1, TP_WAIT_MS, "the byte written during the break, on B");
	ATF_CHECK_MSG(c == 'x', "B read 0x%02x, want 'x'", (unsigned char)c);
}

static int
break_child(void *arg)
{
	if (tcsendbreak(*(int *)arg, 0) != 0)
		return tp_child_fail("tcsendbreak: %s", strerror(errno));
	return 0;
}

TP_CASE(tcsendbreak_drains_output_first, TP_LINUX,
	"tcsendbreak first waits for queued output: with A's output held "
	"(VSTOP) and 8 bytes queued it sleeps; after VSTART it returns with "
	"TIOCOUTQ 0 and B has all 8")
{
	int a, b;
	struct tp_child c;
	char in[8];

	tp_serial_open_pair(tc, &a, &b, 0);
	tp_serial_stop_output(a, b);
	tp_write_str(a, "brkafter", "8 bytes on stopped A");
	tp_child_start(&c, break_child, &a);
	tp_wait_blocked(c.pid, SYS_ioctl, "tcsendbreak asleep on held output");
	ATF_CHECK_EQ_MSG(tp_uart_outq(a), 8, "TIOCOUTQ %d while held", tp_uart_outq(a));
	tp_serial_start_output(b);
	tp_child_join(&c, TP_WAIT_MS, "tcsendbreak to return after VSTART");
	ATF_CHECK_EQ_MSG(tp_uart_outq(a), 0, "TIOCOUTQ %d after tcsendbreak",
			 tp_uart_outq(a));
	tp_uart_read_exact(b, in, sizeof(in), TP_WAIT_MS, "the 8 bytes on B");
	ATF_CHECK_MSG(memcmp(in, "brkafter", 8) == 0, "B read \"%s\"",
		      tp_esc(in, sizeof(in)));
}

/* Whether a break reached rx: its brk counter moved or bytes arrived within
 * the quiet window. */
static bool
break_arrived(int rx, const struct serial_icounter_struct *before)
{
	long long end = tp_now_ms() + TP_QUIET_WINDOW_MS;
	int step = 0;
	struct serial_icounter_struct now;
	do {
		tp_uart_icount(rx, &now);
		if (now.brk != before->brk || tp_fionread(rx) > 0)
			return true;
		tp_backoff(&step);
	} while (tp_now_ms() < end);
	return false;
}

/* A break arrived on rx with PARMRK set and IGNBRK/BRKINT clear: POSIX says
 * it reads as \377 \0 \0.  Then with IGNBRK nothing, with neither PARMRK
 * nor BRKINT a single \0. */
static void
check_break_bytes(int rx, void (*send)(int), int tx)
{
	char got[3];

	tp_uart_read_exact(rx, got, 3, TP_WAIT_MS, "PARMRK break bytes");
	ATF_CHECK_MSG(memcmp(got, "\377\0\0", 3) == 0, "a break with PARMRK read "
		      "as \"%s\", want \\377\\0\\0", tp_esc(got, 3));
	tp_iflag(rx, IGNBRK, PARMRK | BRKINT);
	send(tx);
	tp_expect_quiet(rx, "nothing for a break with IGNBRK");
	tp_iflag(rx, 0, IGNBRK | PARMRK | BRKINT);
	send(tx);
	tp_uart_read_exact(rx, got, 1, TP_WAIT_MS, "a plain break byte");
	ATF_CHECK_MSG(got[0] == '\0', "a break without PARMRK read as \"%s\", "
		      "want \\0", tp_esc(got, 1));
	tp_expect_quiet(rx, "one byte per break");
}

static void
sendbreak(int fd)
{
	if (tcsendbreak(fd, 0) != 0)
		atf_tc_fail("tcsendbreak: %s", strerror(errno));
}

static void
tiocsbrk(int fd)
{
	if (ioctl(fd, TIOCSBRK) != 0)
		atf_tc_fail("TIOCSBRK: %s", strerror(errno));
	if (ioctl(fd, TIOCCBRK) != 0)
		atf_tc_fail("TIOCCBRK: %s", strerror(errno));
}

TP_CASE(break_across_link_marked, TP_POSIX,
	"A break sent by A (tcsendbreak) reads on B as \\377 \\0 \\0 with "
	"PARMRK, nothing with IGNBRK, \\0 with neither (skips where the link "
	"carries no break)")
{
	int a, b;
	struct serial_icounter_struct before;

	tp_serial_open_pair(tc, &a, &b, 0);
	tp_iflag(b, PARMRK, IGNBRK | BRKINT);
	tp_uart_icount(b, &before);
	sendbreak(a);
	if (!break_arrived(b, &before))
		atf_tc_skip("the link carries no break: after tcsendbreak on A, "
			    "B's brk counter stayed %d and nothing arrived in "
			    "%d ms (QEMU's UDP chardev has no break)",
			    before.brk, TP_QUIET_WINDOW_MS);
	check_break_bytes(b, sendbreak, a);
}

TP_CASE(break_in_loop_mode_marked, TP_POSIX,
	"In loop mode, a break set and cleared with TIOCSBRK/TIOCCBRK reads "
	"back on A as \\377 \\0 \\0 with PARMRK, nothing with IGNBRK, \\0 with "
	"neither (skips where the UART does not loop a break)")
{
	int a, b;
	struct serial_icounter_struct before;

	tp_serial_open_pair(tc, &a, &b, 0);
	tp_uart_loop(a, true);
	tp_iflag(a, PARMRK, IGNBRK | BRKINT);
	tp_uart_icount(a, &before);
	tiocsbrk(a);
	if (!break_arrived(a, &before))
		atf_tc_skip("the UART does not loop a break: after TIOCSBRK and "
			    "TIOCCBRK in loop mode, A's brk counter stayed %d and "
			    "nothing arrived in %d ms (QEMU's 16550 loops no "
			    "break)", before.brk, TP_QUIET_WINDOW_MS);
	check_break_bytes(a, tiocsbrk, a);
}

TP_CASE(parmrk_doubles_valid_ff, TP_POSIX,
	"With PARMRK set (and ISTRIP clear) a valid \\377 byte from the line "
	"reads as \\377 \\377, so it cannot be taken for a mark; other bytes "
	"are unchanged")
{
	int a, b;
	char got[4];

	tp_serial_open_pair(tc, &a, &b, 0);
	tp_iflag(b, PARMRK, ISTRIP | IGNPAR);
	tp_write_all(a, "a\377b", 3, "a \\377 b from A");
	tp_uart_read_exact(b, got, 4, TP_WAIT_MS, "the marked-up bytes");
	ATF_CHECK_MSG(memcmp(got, "a\377\377b", 4) == 0, "B read \"%s\", want "
		      "a\\377\\377b", tp_esc(got, 4));
	tp_expect_quiet(b, "nothing more");
}

TP_CASE(parity_error_marked, TP_POSIX,
	"A sends with odd parity to B expecting even, with INPCK|PARMRK: the "
	"byte reads as \\377 \\0 byte (skips where the link models no parity)")
{
	int a, b;
	char got[3];
	struct serial_icounter_struct before, after;

	tp_serial_open_pair(tc, &a, &b, 0);
	tp_uart_cflag(a, CS7 | PARENB | PARODD, CSIZE & ~CS7);
	tp_uart_cflag(b, CS7 | PARENB, PARODD | (CSIZE & ~CS7));
	tp_iflag(b, INPCK | PARMRK, IGNPAR | ISTRIP);
	tp_uart_icount(b, &before);
	tp_write_str(a, "p", "a byte with odd parity");
	tp_uart_read_exact(b, got, 1, TP_WAIT_MS, "what B makes of it");
	tp_uart_icount(b, &after);
	if (got[0] == 'p' && after.parity == before.parity) {
		tp_expect_quiet(b, "nothing after the unmarked byte");
		atf_tc_skip("the link models no parity: a byte sent with odd "
			    "parity arrived unmarked at a port expecting even "
			    "(parity counter stayed %d; QEMU's 16550 passes "
			    "bytes, not frames)", before.parity);
	}
	tp_uart_read_exact(b, got + 1, 2, TP_WAIT_MS, "the rest of the mark");
	ATF_CHECK_MSG(memcmp(got, "\377\0p", 3) == 0, "B read \"%s\", want "
		      "\\377\\0p", tp_esc(got, 3));
	ATF_CHECK_EQ_MSG(after.parity - before.parity, 1, "parity counter +%d",
			 after.parity - before.parity);
}

ATF_TP_ADD_TCS(tp)
{
	ATF_TP_ADD_TC(tp, tcsendbreak_lasts_quarter_second);
	ATF_TP_ADD_TC(tp, tcsbrkp_lasts_deciseconds);
	ATF_TP_ADD_TC(tp, hangup_ends_a_break_with_eio);
	ATF_TP_ADD_TC(tp, tcsendbreak_drains_output_first);
	ATF_TP_ADD_TC(tp, break_holds_the_port_until_it_ends);
	ATF_TP_ADD_TC(tp, break_across_link_marked);
	ATF_TP_ADD_TC(tp, break_in_loop_mode_marked);
	ATF_TP_ADD_TC(tp, parmrk_doubles_valid_ff);
	ATF_TP_ADD_TC(tp, parity_error_marked);
	return atf_no_error();
}
