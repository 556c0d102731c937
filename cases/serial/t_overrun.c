// SPDX-License-Identifier: GPL-2.0-only
/* t_overrun.c: a receiver overrun (LSR OE: a character arrived with the
 * receive FIFO full) and what the tty layer makes of it: counted in
 * TIOCGICOUNT's overrun and /proc's oe:, reported to the line discipline as
 * TTY_OVERRUN, which adds no byte to what is read unless the port is in
 * "real raw" mode, where n_tty passes the driver's bytes without their
 * flags.
 *
 * QEMU's link has flow control (its 16550 takes a byte only when the FIFO
 * has room) and its loopback is drained by the driver before each
 * transmit burst, so neither overruns.  What does: the host side sends
 * BURST breaks while the guest is held (atf/tp_host.h); each is a NUL put
 * into the FIFO, and those past its depth set OE.  How many the FIFO held
 * is read from the counters, not assumed: every check is a relation
 * between the counters the driver kept and the bytes read. */
#include <errno.h>
#include <poll.h>
#include <string.h>
#include <unistd.h>

#include "tp_host.h"
#include "tp_serial.h"

/* More than any 16550-class receive FIFO here (16 on QEMU's). */
#define BURST 40

struct outcome {
	char buf[4 * BURST];
	size_t got;                        /* bytes read on A */
	struct serial_icounter_struct d;   /* counters after - before */
	struct serial_icounter_struct now; /* counters after */
};

static void
icount_delta(const struct serial_icounter_struct *b,
	     const struct serial_icounter_struct *a,
	     struct serial_icounter_struct *d)
{
	memset(d, 0, sizeof(*d));
	d->rx = a->rx - b->rx;
	d->brk = a->brk - b->brk;
	d->overrun = a->overrun - b->overrun;
	d->frame = a->frame - b->frame;
	d->parity = a->parity - b->parity;
	d->buf_overrun = a->buf_overrun - b->buf_overrun;
}

/* How many bytes the rule says A reads, from the counters' moves. */
typedef long (*bytes_fn)(const struct serial_icounter_struct *d);

/* The burst into A (iflag set/clear first), then read A until its counters
 * have moved and stay still, it has read what `want` says they imply, and
 * nothing more comes for the quiet window.  Skips where the UART held the
 * whole burst (no overrun to see). */
static void
burst(const atf_tc_t *tc, tcflag_t set, tcflag_t clear, bytes_fn want,
      struct outcome *o)
{
	struct tp_serial_pair p;
	struct serial_icounter_struct before, last;
	int a, b;

	tp_serial_open_pair_at(tc, &p, &a, &b, O_NONBLOCK);
	tp_host_require(tc, "break");
	tp_iflag(a, set, clear);
	tp_uart_icount(a, &before);
	tp_host_break(p.a, BURST);

	memset(o, 0, sizeof(*o));
	last = before;
	long long quiet_since = tp_now_ms(), deadline = quiet_since + TP_WAIT_MS;
	tp_waiting_for("the burst's bytes and counters to settle");
	while (tp_now_ms() <= deadline) {
		tp_poll1(a, POLLIN, 20);
		ssize_t n = read(a, o->buf + o->got, sizeof(o->buf) - o->got);
		if (n < 0 && errno != EAGAIN && errno != EINTR)
			atf_tc_fail("read A: %s", strerror(errno));
		if (n > 0)
			o->got += (size_t)n;
		if (o->got == sizeof(o->buf))
			atf_tc_fail("more than %zu bytes read for %d breaks",
				    sizeof(o->buf), BURST);
		struct serial_icounter_struct now;
		tp_uart_icount(a, &now);
		if (n > 0 || memcmp(&now, &last, sizeof(now)) != 0)
			quiet_since = tp_now_ms();
		last = now;
		icount_delta(&before, &last, &o->d);
		if (o->d.rx > 0 && (long)o->got >= want(&o->d) &&
		    tp_now_ms() - quiet_since >= TP_QUIET_WINDOW_MS)
			break;
	}
	o->now = last;
	icount_delta(&before, &last, &o->d);
	if (o->d.overrun == 0 && o->d.rx == BURST)
		atf_tc_skip("no overrun: A's UART held all %d breaks of the "
			    "burst (rx +%d)", BURST, o->d.rx);
	ATF_REQUIRE_MSG(o->d.overrun >= 1, "%d breaks into a FIFO that took "
			"%d: overrun counter moved by %d", BURST, o->d.rx,
			o->d.overrun);
	/* Each overrun loses at least the byte that found the FIFO full. */
	ATF_CHECK_MSG(o->d.rx + o->d.overrun <= BURST, "rx +%d and overrun "
		      "+%d for only %d breaks", o->d.rx, o->d.overrun, BURST);
	ATF_CHECK_MSG(o->d.brk >= 1, "brk moved by %d", o->d.brk);
	ATF_CHECK_EQ_MSG(o->d.frame + o->d.parity + o->d.buf_overrun, 0,
			 "frame +%d, parity +%d, buf_overrun +%d", o->d.frame,
			 o->d.parity, o->d.buf_overrun);
}

/* The rules, as bytes read: each held character once, a break marked
 * \377 \0 \0 (PARMRK); in real raw each overrun's NUL too; with IGNBRK and
 * IGNPAR no break character and no overrun. */
static long
marked_bytes(const struct serial_icounter_struct *d)
{
	return d->rx + 2L * d->brk;
}

static long
raw_bytes(const struct serial_icounter_struct *d)
{
	return d->rx + (long)d->overrun;
}

static long
ignored_bytes(const struct serial_icounter_struct *d)
{
	return d->rx - (long)d->brk;
}

static long
no_bytes(const struct serial_icounter_struct *d)
{
	(void)d;
	return 0;
}

/* Every byte read is NUL or \377 (a break's mark): the burst is all NULs. */
static void
check_only(const struct outcome *o, const char *allowed)
{
	for (size_t i = 0; i < o->got; i++)
		if (memchr(allowed, o->buf[i], 2) == NULL) {
			atf_tc_fail_nonfatal("byte %zu read as \"%s\"", i,
					     tp_esc(o->buf + i, 1));
			return;
		}
}

TP_CASE(overrun_counted_no_byte, TP_LINUX,
	"A receiver overrun with PARMRK set is counted in TIOCGICOUNT's "
	"overrun and adds no byte: A reads each character the UART held (rx) "
	"once, breaks as \\377 \\0 \\0, so exactly rx + 2 * brk bytes")
{
	struct outcome o;

	burst(tc, PARMRK, IGNBRK | BRKINT | IGNPAR | INPCK, marked_bytes, &o);
	ATF_CHECK_EQ_MSG((long)o.got, marked_bytes(&o.d),
			 "read %zu bytes; rx +%d, brk +%d, overrun +%d: want "
			 "rx + 2 * brk = %d (\"%s\")", o.got, o.d.rx, o.d.brk,
			 o.d.overrun, o.d.rx + 2 * o.d.brk,
			 tp_esc(o.buf, o.got));
	ATF_CHECK_MSG(o.got >= 3 && memcmp(o.buf, "\377\0\0", 3) == 0,
		      "the burst's first character (a break) read as \"%s\"",
		      tp_esc(o.buf, o.got < 3 ? o.got : 3));
	check_only(&o, "\0\377");
}

TP_CASE(overrun_real_raw_reads_nul, TP_LINUX,
	"With no input processing (IGNBRK, BRKINT, PARMRK, INPCK clear: n_tty's "
	"\"real raw\" mode) the driver's bytes are read without their flags: "
	"each character the UART held reads as its NUL and each overrun as "
	"the NUL the driver queued for it, so exactly rx + overrun bytes")
{
	struct outcome o;

	burst(tc, 0, IGNBRK | BRKINT | PARMRK | IGNPAR | INPCK, raw_bytes, &o);
	ATF_CHECK_EQ_MSG((long)o.got, raw_bytes(&o.d),
			 "read %zu bytes; rx +%d, brk +%d, overrun +%d: want "
			 "rx + overrun = %d", o.got, o.d.rx, o.d.brk,
			 o.d.overrun, o.d.rx + o.d.overrun);
	check_only(&o, "\0\0");
}

TP_CASE(overrun_ignored_with_ignbrk_ignpar, TP_LINUX,
	"With IGNBRK and IGNPAR set the 8250 driver ignores break characters "
	"and overruns in the data (\"for real raw support\"): A reads the held "
	"characters that are not breaks, rx - brk bytes, all NUL; both are "
	"still counted")
{
	struct outcome o;

	burst(tc, IGNBRK | IGNPAR, BRKINT | PARMRK | INPCK, ignored_bytes, &o);
	ATF_CHECK_EQ_MSG((long)o.got, ignored_bytes(&o.d),
			 "read %zu bytes; rx +%d, brk +%d, overrun +%d: want "
			 "rx - brk = %d", o.got, o.d.rx, o.d.brk, o.d.overrun,
			 o.d.rx - o.d.brk);
	check_only(&o, "\0\0");
}

TP_CASE_ROOT(overrun_in_proc_oe, TP_LINUX,
	     "After a receiver overrun, /proc/tty/driver/serial's oe: and brk: "
	     "for the port equal TIOCGICOUNT's overrun and brk")
{
	struct outcome o;
	struct tp_serial_pair p;
	struct tp_serial_proc pr;
	char why[256];

	burst(tc, IGNBRK, BRKINT | PARMRK, no_bytes, &o);
	tp_serial_find(tc, &p);
	if (!tp_serial_proc(p.a, &pr, why, sizeof(why)))
		atf_tc_fail("%s", why);
	ATF_CHECK_MSG(pr.oe == o.now.overrun, "/proc says oe:%ld, TIOCGICOUNT "
		      "%d (line: %s)", pr.oe, o.now.overrun, pr.text);
	ATF_CHECK_MSG(pr.brk == o.now.brk, "/proc says brk:%ld, TIOCGICOUNT "
		      "%d (line: %s)", pr.brk, o.now.brk, pr.text);
}

ATF_TP_ADD_TCS(tp)
{
	ATF_TP_ADD_TC(tp, overrun_counted_no_byte);
	ATF_TP_ADD_TC(tp, overrun_real_raw_reads_nul);
	ATF_TP_ADD_TC(tp, overrun_ignored_with_ignbrk_ignpar);
	ATF_TP_ADD_TC(tp, overrun_in_proc_oe);
	return atf_no_error();
}
