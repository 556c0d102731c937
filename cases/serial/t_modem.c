// SPDX-License-Identifier: GPL-2.0-only
/* t_modem.c: modem lines of a 16550 through TIOCMGET/TIOCMSET/TIOCMBIS/
 * TIOCMBIC (in loop mode the outputs drive the inputs: RTS->CTS, DTR->DSR,
 * OUT1->RI, OUT2->DCD), TIOCMIWAIT, TIOCGICOUNT, /proc/tty/driver/serial. */
#include <errno.h>
#include <limits.h>
#include <linux/serial.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "tp_serial.h"

#define OUTPUTS (TIOCM_RTS | TIOCM_DTR | TIOCM_OUT1 | TIOCM_OUT2)
#define INPUTS (TIOCM_CTS | TIOCM_DSR | TIOCM_RNG | TIOCM_CAR)

/* A's inputs must become want (mask INPUTS): the MSR is read by TIOCMGET,
 * so this is immediate on a 16550; the wait only absorbs emulation lag. */
static void
expect_inputs(int fd, int want, const char *what)
{
	if (!tp_uart_wait_lines(fd, INPUTS, want, TP_WAIT_MS))
		atf_tc_fail("%s: TIOCMGET %s, inputs want %s", what,
			    tp_tiocm_str(tp_uart_mget(fd)), tp_tiocm_str(want));
}

static void
loop_pair(const atf_tc_t *tc, int out, int in, const char *name)
{
	int a, b;
	char what[64];

	tp_serial_open_pair(tc, &a, &b, 0);
	tp_uart_loop(a, true);
	tp_uart_mbic(a, OUTPUTS);
	expect_inputs(a, 0, "all outputs clear");
	tp_uart_mbis(a, out);
	snprintf(what, sizeof(what), "%s set", name);
	expect_inputs(a, in, what);
	ATF_CHECK_EQ_MSG(tp_uart_mget(a) & OUTPUTS, out, "outputs %s",
			 tp_tiocm_str(tp_uart_mget(a) & OUTPUTS));
	tp_uart_mbic(a, out);
	snprintf(what, sizeof(what), "%s clear again", name);
	expect_inputs(a, 0, what);
}

TP_CASE(link_inputs_held_high, TP_LINUX,
	"Over QEMU's UDP link the modem inputs are fixed: TIOCMGET on both "
	"ports shows CTS, DSR and CD up and RI down, whatever the peer drives")
{
	int a, b;

	tp_serial_open_pair(tc, &a, &b, 0);
	tp_uart_mbic(b, TIOCM_RTS | TIOCM_DTR);
	expect_inputs(a, TIOCM_CTS | TIOCM_DSR | TIOCM_CAR, "A's inputs");
	expect_inputs(b, TIOCM_CTS | TIOCM_DSR | TIOCM_CAR, "B's inputs");
}

TP_CASE(loop_rts_drives_cts, TP_LINUX,
	"In loop mode RTS alone raises CTS alone, and clearing it drops CTS")
{
	loop_pair(tc, TIOCM_RTS, TIOCM_CTS, "RTS");
}

TP_CASE(loop_dtr_drives_dsr, TP_LINUX,
	"In loop mode DTR alone raises DSR alone, and clearing it drops DSR")
{
	loop_pair(tc, TIOCM_DTR, TIOCM_DSR, "DTR");
}

TP_CASE(loop_out1_drives_ri, TP_LINUX,
	"In loop mode OUT1 alone raises RI alone, and clearing it drops RI")
{
	loop_pair(tc, TIOCM_OUT1, TIOCM_RNG, "OUT1");
}

TP_CASE(loop_out2_drives_dcd, TP_LINUX,
	"In loop mode OUT2 alone raises DCD alone, and clearing it drops DCD")
{
	loop_pair(tc, TIOCM_OUT2, TIOCM_CAR, "OUT2");
}

TP_CASE(open_raises_out2, TP_LINUX,
	"Opening an 8250 port that has an interrupt raises OUT2, the output "
	"that gates a PC UART's interrupt line: TIOCMGET after the first open "
	"shows OUT2, and after TIOCMBIC cleared it and the last close, the "
	"next open raises it again")
{
	struct serial_struct ss;
	char link[64], path[PATH_MAX];
	int a, b;

	tp_serial_open_pair(tc, &a, &b, 0);
	memset(&ss, 0, sizeof(ss));
	ATF_REQUIRE_MSG(ioctl(a, TIOCGSERIAL, &ss) == 0, "TIOCGSERIAL: %s",
			strerror(errno));
	if (ss.irq == 0)
		atf_tc_skip("port A is polled (no interrupt): the driver raises "
			    "OUT2 only for a port with one");
	ATF_CHECK_MSG(tp_uart_mget(a) & TIOCM_OUT2, "after the first open: "
		      "TIOCMGET %s, want OUT2", tp_tiocm_str(tp_uart_mget(a)));
	tp_uart_mbic(a, TIOCM_OUT2);
	ATF_REQUIRE_MSG(!(tp_uart_mget(a) & TIOCM_OUT2), "TIOCMBIC OUT2 left "
			"%s", tp_tiocm_str(tp_uart_mget(a)));
	snprintf(link, sizeof(link), "/proc/self/fd/%d", a);
	ssize_t n = readlink(link, path, sizeof(path) - 1);
	ATF_REQUIRE_MSG(n > 0, "readlink %s: %s", link, strerror(errno));
	path[n] = '\0';
	tp_uart_close_as_is(a); /* the last close: the port shuts down */
	a = tp_uart_open(path, 0);
	ATF_CHECK_MSG(tp_uart_mget(a) & TIOCM_OUT2, "after reopening %s: "
		      "TIOCMGET %s, want OUT2", path, tp_tiocm_str(tp_uart_mget(a)));
}

TP_CASE(tiocmset_replaces_outputs, TP_POSIX,
	"TIOCMSET sets the named outputs and clears the others: RTS|OUT1 "
	"then DTR|OUT2 (in loop mode, the inputs follow exactly)")
{
	int a, b;

	tp_serial_open_pair(tc, &a, &b, 0);
	tp_uart_mset(a, TIOCM_LOOP | TIOCM_RTS | TIOCM_OUT1);
	ATF_CHECK_EQ_MSG(tp_uart_mget(a) & (OUTPUTS | TIOCM_LOOP),
			 TIOCM_LOOP | TIOCM_RTS | TIOCM_OUT1, "outputs %s",
			 tp_tiocm_str(tp_uart_mget(a)));
	expect_inputs(a, TIOCM_CTS | TIOCM_RNG, "after TIOCMSET RTS|OUT1");
	tp_uart_mset(a, TIOCM_LOOP | TIOCM_DTR | TIOCM_OUT2);
	ATF_CHECK_EQ_MSG(tp_uart_mget(a) & (OUTPUTS | TIOCM_LOOP),
			 TIOCM_LOOP | TIOCM_DTR | TIOCM_OUT2, "outputs %s",
			 tp_tiocm_str(tp_uart_mget(a)));
	expect_inputs(a, TIOCM_DSR | TIOCM_CAR, "after TIOCMSET DTR|OUT2");
}

TP_CASE(tiocmbic_clears_only_named, TP_POSIX,
	"TIOCMBIC of DTR clears DTR (and, looped, DSR) and leaves RTS, OUT1, "
	"OUT2 and their inputs; TIOCMBIS of DTR restores it")
{
	int a, b;

	tp_serial_open_pair(tc, &a, &b, 0);
	tp_uart_loop(a, true);
	tp_uart_mbis(a, OUTPUTS);
	expect_inputs(a, INPUTS, "all outputs set");
	tp_uart_mbic(a, TIOCM_DTR);
	ATF_CHECK_EQ_MSG(tp_uart_mget(a) & OUTPUTS, OUTPUTS & ~TIOCM_DTR,
			 "outputs %s", tp_tiocm_str(tp_uart_mget(a)));
	expect_inputs(a, INPUTS & ~TIOCM_DSR, "after TIOCMBIC DTR");
	tp_uart_mbis(a, TIOCM_DTR);
	expect_inputs(a, INPUTS, "after TIOCMBIS DTR");
}

TP_CASE(icount_counts_link_bytes, TP_LINUX,
	"TIOCGICOUNT counts exactly the bytes sent and received: 200 bytes "
	"A->B move A's tx and B's rx by 200 and neither A's rx nor B's tx")
{
	int a, b;
	char buf[200];
	struct serial_icounter_struct a0, b0, a1, b1;

	tp_serial_open_pair(tc, &a, &b, 0);
	tp_uart_icount(a, &a0);
	tp_uart_icount(b, &b0);
	tp_pattern(buf, sizeof(buf), 21);
	tp_serial_transfer(a, b, buf, sizeof(buf), TP_WAIT_MS, "200 bytes A to B");
	tp_uart_wait_outq_empty(a, TP_WAIT_MS, "A's queue empty");
	tp_uart_icount(a, &a1);
	tp_uart_icount(b, &b1);
	ATF_CHECK_EQ_MSG(a1.tx - a0.tx, 200, "A tx moved by %d", a1.tx - a0.tx);
	ATF_CHECK_EQ_MSG(b1.rx - b0.rx, 200, "B rx moved by %d", b1.rx - b0.rx);
	ATF_CHECK_EQ_MSG(a1.rx - a0.rx, 0, "A rx moved by %d", a1.rx - a0.rx);
	ATF_CHECK_EQ_MSG(b1.tx - b0.tx, 0, "B tx moved by %d", b1.tx - b0.tx);
	ATF_CHECK_EQ_MSG(b1.overrun + b1.frame + b1.parity + b1.brk,
			 b0.overrun + b0.frame + b0.parity + b0.brk,
			 "B's error counters moved");
}

TP_CASE(icount_reserved_words_zero, TP_LINUX,
	"TIOCGICOUNT fills only its counters: the reserved words of struct "
	"serial_icounter_struct read 0 whatever the caller's buffer held "
	"(the kernel clears the structure, so no kernel memory reaches user "
	"space through them)")
{
	int a, b;
	struct serial_icounter_struct ic;

	tp_serial_open_pair(tc, &a, &b, 0);
	memset(&ic, 0xa5, sizeof ic);
	ATF_REQUIRE_MSG(ioctl(a, TIOCGICOUNT, &ic) == 0, "TIOCGICOUNT: %s",
			strerror(errno));
	for (size_t i = 0; i < sizeof ic.reserved / sizeof *ic.reserved; i++)
		ATF_CHECK_MSG(ic.reserved[i] == 0, "reserved[%zu] reads %#x, want 0",
			      i, (unsigned)ic.reserved[i]);
}

/* Whether this UART reports modem-status changes in loop mode: toggle RTS
 * (CTS follows, as TIOCMGET shows) and see whether TIOCGICOUNT's cts moves
 * within the quiet window.  QEMU's 16550 computes no MSR delta bits in
 * loop mode, so it raises no modem-status interrupt there. */
static bool
deltas_delivered(int a, char *why, size_t len)
{
	struct serial_icounter_struct c0, c1;

	tp_uart_loop(a, true);
	tp_uart_mbis(a, TIOCM_RTS);
	tp_uart_icount(a, &c0);
	tp_uart_mbic(a, TIOCM_RTS);
	if (!tp_uart_wait_lines(a, TIOCM_CTS, 0, TP_WAIT_MS))
		atf_tc_fail("CTS did not follow RTS down in loop mode");
	tp_uart_mbis(a, TIOCM_RTS);
	if (!tp_uart_wait_lines(a, TIOCM_CTS, TIOCM_CTS, TP_WAIT_MS))
		atf_tc_fail("CTS did not follow RTS up in loop mode");
	long long end = tp_now_ms() + TP_QUIET_WINDOW_MS;
	int step = 0;
	do {
		tp_uart_icount(a, &c1);
		if (c1.cts != c0.cts)
			return true;
		tp_backoff(&step);
	} while (tp_now_ms() < end);
	snprintf(why, len, "the UART raises no modem-status interrupt in loop "
		 "mode (QEMU's 16550 sets no MSR delta bits there): CTS followed "
		 "RTS down and up but TIOCGICOUNT cts stayed %d for %d ms",
		 c0.cts, TP_QUIET_WINDOW_MS);
	return false;
}

static int
counter(int fd, const char *name)
{
	struct serial_icounter_struct c;
	tp_uart_icount(fd, &c);
	return !strcmp(name, "cts") ? c.cts : !strcmp(name, "dsr") ? c.dsr
		: !strcmp(name, "rng") ? c.rng : c.dcd;
}

/* The counter reaches want and stays there for the quiet window. */
static void
expect_counter(int fd, const char *name, int want)
{
	long long deadline = tp_now_ms() + TP_WAIT_MS, settled = 0;
	int step = 0, v;

	tp_waiting_for(name);
	for (;;) {
		v = counter(fd, name);
		if (v > want)
			break;
		if (v == want && settled == 0)
			settled = tp_now_ms();
		if (settled && tp_now_ms() - settled >= TP_QUIET_WINDOW_MS)
			return;
		if (tp_now_ms() > deadline)
			break;
		tp_backoff(&step);
	}
	atf_tc_fail("TIOCGICOUNT %s is %d, want %d", name, v, want);
}

TP_CASE(icount_line_counters_exact, TP_LINUX,
	"Where the UART reports modem-status changes, TIOCGICOUNT counts each: "
	"cts, dsr and dcd +1 per change of CTS, DSR, DCD and rng +1 per "
	"trailing edge of RI (TERI)")
{
	int a, b;
	char why[256];

	tp_serial_open_pair(tc, &a, &b, 0);
	if (!deltas_delivered(a, why, sizeof(why)))
		atf_tc_skip("%s", why);
	static const struct {
		int out;
		const char *name;
		int per_cycle; /* counts for one off+on cycle */
	} lines[] = {{TIOCM_RTS, "cts", 2}, {TIOCM_DTR, "dsr", 2},
		     {TIOCM_OUT2, "dcd", 2}, {TIOCM_OUT1, "rng", 1}};
	tp_uart_mbis(a, OUTPUTS);
	for (size_t i = 0; i < 4; i++) {
		int base = counter(a, lines[i].name);
		tp_uart_mbic(a, lines[i].out);
		expect_inputs(a, INPUTS & ~(lines[i].out == TIOCM_RTS ? TIOCM_CTS
			      : lines[i].out == TIOCM_DTR ? TIOCM_DSR
			      : lines[i].out == TIOCM_OUT2 ? TIOCM_CAR : TIOCM_RNG),
			      "one input down");
		tp_uart_mbis(a, lines[i].out);
		expect_inputs(a, INPUTS, "all inputs up again");
		expect_counter(a, lines[i].name, base + lines[i].per_cycle);
	}
}

static int
miwait_child(void *arg)
{
	int fd = *(int *)arg;
	if (ioctl(fd, TIOCMIWAIT, TIOCM_CTS) != 0)
		return tp_child_fail("TIOCMIWAIT: %s", strerror(errno));
	return 0;
}

TP_CASE(tiocmiwait_wakes_on_line_change, TP_LINUX,
	"Where the UART reports modem-status changes, a TIOCMIWAIT for CTS "
	"sleeps until RTS (looped to CTS) changes, then returns 0")
{
	int a, b;
	char why[256];
	struct tp_child c;

	tp_serial_open_pair(tc, &a, &b, 0);
	if (!deltas_delivered(a, why, sizeof(why)))
		atf_tc_skip("%s", why);
	tp_child_start(&c, miwait_child, &a);
	tp_wait_blocked(c.pid, SYS_ioctl, "child asleep in TIOCMIWAIT");
	tp_uart_mbic(a, TIOCM_RTS);
	tp_child_join(&c, TP_WAIT_MS, "TIOCMIWAIT to return after CTS dropped");
}

static int
miwait_until_signal_child(void *arg)
{
	int fd = *(int *)arg;
	/* The interrupted wait must come back as EINTR. */
	int rc = tp_child_interruptible(SIGUSR1);
	if (rc != 0)
		return rc;
	errno = 0;
	if (ioctl(fd, TIOCMIWAIT, TIOCM_CTS | TIOCM_DSR | TIOCM_CD | TIOCM_RNG) == 0)
		return tp_child_fail("TIOCMIWAIT returned 0 with no line changed");
	if (errno != EINTR)
		return tp_child_fail("TIOCMIWAIT: %s, want EINTR", strerror(errno));
	return 0;
}

TP_CASE(tiocmiwait_sleeps_until_a_signal, TP_LINUX,
	"TIOCMIWAIT returns only when one of the lines it names changes: with "
	"the lines left alone it is still asleep after the quiet window, and "
	"a signal (no SA_RESTART) ends the wait with EINTR")
{
	int a, b;
	struct tp_child c;

	tp_serial_open_pair(tc, &a, &b, 0);
	tp_child_start(&c, miwait_until_signal_child, &a);
	tp_wait_blocked(c.pid, SYS_ioctl, "child asleep in TIOCMIWAIT");
	/* The child reports (and its pipe turns readable) only once it ends. */
	tp_expect_quiet(c.report_fd, "TIOCMIWAIT ended with no line changed");
	tp_wait_blocked(c.pid, SYS_ioctl, "child still asleep in TIOCMIWAIT");
	ATF_REQUIRE_EQ(kill(c.pid, SIGUSR1), 0);
	tp_child_join(&c, TP_WAIT_MS, "TIOCMIWAIT to end with EINTR after SIGUSR1");
}

TP_CASE_ROOT(proc_agrees_with_icount_and_lines, TP_LINUX,
	     "/proc/tty/driver/serial shows each port's tx/rx as TIOCGICOUNT "
	     "does after 50 bytes A->B, and the lines TIOCMGET shows "
	     "(RTS|CTS|RI with RTS|OUT1 looped; DTR|DSR|CD with DTR|OUT2)")
{
	int a, b;
	struct tp_serial_pair p;
	struct tp_serial_proc pa, pb;
	struct serial_icounter_struct ca, cb;
	char why[256], buf[50];

	tp_serial_open_pair(tc, &a, &b, 0);
	tp_serial_find(tc, &p);
	tp_pattern(buf, sizeof(buf), 2);
	tp_serial_transfer(a, b, buf, sizeof(buf), TP_WAIT_MS, "50 bytes A to B");
	tp_uart_wait_outq_empty(a, TP_WAIT_MS, "A's queue empty");
	tp_uart_icount(a, &ca);
	tp_uart_icount(b, &cb);
	if (!tp_serial_proc(p.a, &pa, why, sizeof(why)) ||
	    !tp_serial_proc(p.b, &pb, why, sizeof(why)))
		atf_tc_fail("%s", why);
	ATF_CHECK_MSG(pa.tx == ca.tx && pa.rx == ca.rx, "A: proc tx %ld rx %ld, "
		      "TIOCGICOUNT tx %d rx %d (%s)", pa.tx, pa.rx, ca.tx, ca.rx, pa.text);
	ATF_CHECK_MSG(pb.tx == cb.tx && pb.rx == cb.rx, "B: proc tx %ld rx %ld, "
		      "TIOCGICOUNT tx %d rx %d (%s)", pb.tx, pb.rx, cb.tx, cb.rx, pb.text);
	static const int sets[2] = {TIOCM_RTS | TIOCM_OUT1, TIOCM_DTR | TIOCM_OUT2};
	static const int want[2] = {TIOCM_RTS | TIOCM_CTS | TIOCM_RNG,
				    TIOCM_DTR | TIOCM_DSR | TIOCM_CAR};
	for (int i = 0; i < 2; i++) {
		tp_uart_mset(a, TIOCM_LOOP | sets[i]);
		expect_inputs(a, want[i] & INPUTS, "looped inputs");
		if (!tp_serial_proc(p.a, &pa, why, sizeof(why)))
			atf_tc_fail("%s", why);
		ATF_CHECK_EQ_MSG(pa.lines, want[i], "proc shows %s, want %s (%s)",
				 tp_tiocm_str(pa.lines), tp_tiocm_str(want[i]), pa.text);
	}
}

ATF_TP_ADD_TCS(tp)
{
	ATF_TP_ADD_TC(tp, link_inputs_held_high);
	ATF_TP_ADD_TC(tp, tiocmiwait_sleeps_until_a_signal);
	ATF_TP_ADD_TC(tp, loop_rts_drives_cts);
	ATF_TP_ADD_TC(tp, loop_dtr_drives_dsr);
	ATF_TP_ADD_TC(tp, loop_out1_drives_ri);
	ATF_TP_ADD_TC(tp, loop_out2_drives_dcd);
	ATF_TP_ADD_TC(tp, tiocmset_replaces_outputs);
	ATF_TP_ADD_TC(tp, tiocmbic_clears_only_named);
	ATF_TP_ADD_TC(tp, icount_counts_link_bytes);
	ATF_TP_ADD_TC(tp, icount_reserved_words_zero);
	ATF_TP_ADD_TC(tp, icount_line_counters_exact);
	ATF_TP_ADD_TC(tp, tiocmiwait_wakes_on_line_change);
	ATF_TP_ADD_TC(tp, proc_agrees_with_icount_and_lines);
	ATF_TP_ADD_TC(tp, open_raises_out2);
	return atf_no_error();
}
