// SPDX-License-Identifier: GPL-2.0-only
/* t_procline.c: a port's line of /proc/tty/driver/serial (uart_line_info in
 * drivers/tty/serial/serial_core.c) as root agrees with what the port's
 * ioctls report.  The line, byte for byte:
 *   "N: uart:TYPE port:%08X irq:N tx:N rx:N[ fe:N][ pe:N][ brk:N][ oe:N]
 *    [ bo:N][ LINES]"
 * (mmio:0x%08X instead of port: for memory-mapped UARTs), where each of
 * fe/pe/brk/oe/bo appears exactly when that TIOCGICOUNT counter is non-zero,
 * and LINES names the modem lines TIOCMGET reports among RTS CTS DTR DSR CD
 * RI, in that order, joined by '|' ("RTS|CTS|RI"); no lines, nothing (no
 * trailing space).  Each check builds the expected line from TIOCGSERIAL,
 * TIOCGICOUNT and TIOCMGET and compares the whole line. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <termios.h>
#include <unistd.h>

#include "tp_serial.h"

#define LOOP_INPUTS (TIOCM_CTS | TIOCM_DSR | TIOCM_RNG | TIOCM_CAR)

/* uart_type(): the 8250 driver's names (uart_config[] in 8250_port.c) for
 * the types a 16550-compatible port reports (tp_uart_types). */
static const char *
type_name(int type)
{
	if (type == PORT_UNKNOWN)
		return "unknown";
	for (int i = 0; i < tp_uart_ntypes; i++)
		if (tp_uart_types[i].type == type)
			return tp_uart_types[i].name;
	atf_tc_fail("TIOCGSERIAL type %d: no name known for it", type);
	return NULL;
}

/* The line the rule says /proc shows for a port in this state. */
static void
expected_line(const struct serial_struct *ss,
	      const struct serial_icounter_struct *ic, int lines, char *out,
	      size_t len)
{
	bool mmio = ss->io_type >= SERIAL_IO_MEM;
	unsigned long long addr =
		mmio ? (unsigned long long)(unsigned long)ss->iomem_base
		     : (unsigned long long)ss->port |
			       ((unsigned long long)ss->port_high << 32);
	size_t n = (size_t)snprintf(out, len, "%d: uart:%s %s%08llX irq:%d",
				    ss->line, type_name(ss->type),
				    mmio ? "mmio:0x" : "port:", addr, ss->irq);
	if (ss->type == PORT_UNKNOWN)
		return;
	n += (size_t)snprintf(out + n, len - n, " tx:%d rx:%d", ic->tx, ic->rx);
	const struct {
		const char *name;
		int v;
	} ctr[] = {{"fe", ic->frame},  {"pe", ic->parity},
		   {"brk", ic->brk},   {"oe", ic->overrun},
		   {"bo", ic->buf_overrun}};
	for (size_t i = 0; i < sizeof(ctr) / sizeof(ctr[0]); i++)
		if (ctr[i].v != 0)
			n += (size_t)snprintf(out + n, len - n, " %s:%d",
					      ctr[i].name, ctr[i].v);
	const struct {
		int bit;
		const char *name;
	} bits[] = {{TIOCM_RTS, "RTS"}, {TIOCM_CTS, "CTS"}, {TIOCM_DTR, "DTR"},
		    {TIOCM_DSR, "DSR"}, {TIOCM_CAR, "CD"},  {TIOCM_RNG, "RI"}};
	bool first = true;
	for (size_t i = 0; i < sizeof(bits) / sizeof(bits[0]); i++)
		if (lines & bits[i].bit) {
			n += (size_t)snprintf(out + n, len - n, "%c%s",
					      first ? ' ' : '|', bits[i].name);
			first = false;
		}
}

static bool
same_icount(const struct serial_icounter_struct *x,
	    const struct serial_icounter_struct *y)
{
	return x->tx == y->tx && x->rx == y->rx && x->frame == y->frame &&
	       x->parity == y->parity && x->brk == y->brk &&
	       x->overrun == y->overrun && x->buf_overrun == y->buf_overrun;
}

/* Wait (TP_WAIT_MS) until fd's /proc line is the one its ioctls describe,
 * reading the ioctls before and after the line so a counter or line that
 * moves in between is retried, not compared.  Fails showing both lines. */
static void
expect_line(int fd, const char *what)
{
	struct serial_struct ss;
	struct serial_icounter_struct ic, ic2;
	char got[512] = "(no line)", want[512] = "(never stable)";
	long long end = tp_now_ms() + TP_WAIT_MS;
	int step = 0;

	struct tp_serial_proc pr;
	char name[32], why[160];

	memset(&ss, 0, sizeof(ss));
	if (ioctl(fd, TIOCGSERIAL, &ss) != 0)
		atf_tc_fail("TIOCGSERIAL: %s", strerror(errno));
	/* tp_serial_proc finds the line by the number in a tty name. */
	snprintf(name, sizeof(name), "ttyS%d", ss.line);
	tp_waiting_for(what);
	do {
		tp_uart_icount(fd, &ic);
		int lines = tp_uart_mget(fd);
		bool have = tp_serial_proc(name, &pr, why, sizeof(why));
		tp_uart_icount(fd, &ic2);
		snprintf(got, sizeof(got), have ? "%s" : "(%s)", have ? pr.text : why);
		if (same_icount(&ic, &ic2) && lines == tp_uart_mget(fd)) {
			expected_line(&ss, &ic, lines, want, sizeof(want));
			if (have && strcmp(got, want) == 0)
				return;
		}
		tp_backoff(&step);
	} while (tp_now_ms() < end);
	atf_tc_fail("%s: /proc/tty/driver/serial shows \"%s\", the port's "
		    "ioctls say \"%s\"", what, got, want);
}

TP_CASE_ROOT(counters_as_icount, TP_LINUX,
	"As root, a UART's line in /proc/tty/driver/serial shows uart:TYPE as "
	"TIOCGSERIAL, tx: and rx: equal to TIOCGICOUNT's, and fe:/pe:/brk:/"
	"oe:/bo: exactly when that counter is non-zero (then equal to it): "
	"checked on both ports after 50 bytes A->B, 30 B->A and a break from A "
	"(over QEMU's UDP link no break arrives, so brk: must be absent)")
{
	int a, b;
	char buf[50];
	struct serial_icounter_struct a0, b0, a1, b1;

	tp_serial_open_pair(tc, &a, &b, 0);
	tp_uart_icount(a, &a0);
	tp_uart_icount(b, &b0);
	tp_pattern(buf, sizeof(buf), 3);
	tp_serial_transfer(a, b, buf, 50, TP_WAIT_MS, "50 bytes A to B");
	tp_serial_transfer(b, a, buf, 30, TP_WAIT_MS, "30 bytes B to A");
	tp_uart_wait_outq_empty(a, TP_WAIT_MS, "A's output sent");
	tp_uart_wait_outq_empty(b, TP_WAIT_MS, "B's output sent");
	tp_waiting_for("tcsendbreak(A, 0)");
	ATF_REQUIRE_EQ_MSG(tcsendbreak(a, 0), 0, "tcsendbreak: %s", strerror(errno));
	tp_uart_icount(a, &a1);
	tp_uart_icount(b, &b1);
	/* The counters moved as driven, so the lines below carry them. */
	ATF_CHECK_MSG(a1.tx - a0.tx == 50 && b1.rx - b0.rx == 50 &&
		      b1.tx - b0.tx == 30 && a1.rx - a0.rx == 30,
		      "TIOCGICOUNT moved A tx +%d rx +%d, B tx +%d rx +%d; "
		      "want +50 +30, +30 +50", a1.tx - a0.tx, a1.rx - a0.rx,
		      b1.tx - b0.tx, b1.rx - b0.rx);
	expect_line(a, "A's line after traffic and a break");
	expect_line(b, "B's line after traffic and a break");
}

TP_CASE_ROOT(lines_as_tiocmget, TP_LINUX,
	"As root, the modem lines at the end of a UART's /proc/tty/driver/"
	"serial line are exactly those TIOCMGET reports among RTS CTS DTR DSR "
	"CD RI, in that order, the first after one space and the others after "
	"'|', nothing when none: checked on A in loop mode with outputs none, "
	"RTS|OUT1, DTR|OUT2 and all (each read differs), then on B off the link")
{
	int a, b;
	static const int sets[] = {0, TIOCM_RTS | TIOCM_OUT1,
				   TIOCM_DTR | TIOCM_OUT2,
				   TIOCM_RTS | TIOCM_DTR | TIOCM_OUT1 | TIOCM_OUT2};
	static const int want[] = {0, TIOCM_RTS | TIOCM_CTS | TIOCM_RNG,
				   TIOCM_DTR | TIOCM_DSR | TIOCM_CAR,
				   TIOCM_RTS | TIOCM_DTR | TIOCM_CTS | TIOCM_RNG |
					   TIOCM_DSR | TIOCM_CAR};
	const int six = TIOCM_RTS | TIOCM_DTR | LOOP_INPUTS;
	char what[96];

	tp_serial_open_pair(tc, &a, &b, 0);
	tp_uart_loop(a, true);
	for (size_t i = 0; i < sizeof(sets) / sizeof(sets[0]); i++) {
		tp_uart_mset(a, TIOCM_LOOP | sets[i]);
		if (!tp_uart_wait_lines(a, six, want[i], TP_WAIT_MS))
			atf_tc_fail("loop mode, outputs %s: TIOCMGET %s, want %s",
				    tp_tiocm_str(sets[i]),
				    tp_tiocm_str(tp_uart_mget(a)),
				    tp_tiocm_str(want[i]));
		snprintf(what, sizeof(what), "A's line in loop mode with %s",
			 tp_tiocm_str(sets[i]));
		expect_line(a, what);
	}
	tp_uart_mbis(b, TIOCM_RTS | TIOCM_DTR);
	expect_line(b, "B's line (RTS|DTR, the link's inputs)");
}

ATF_TP_ADD_TCS(tp)
{
	ATF_TP_ADD_TC(tp, counters_as_icount);
	ATF_TP_ADD_TC(tp, lines_as_tiocmget);
	return atf_no_error();
}
