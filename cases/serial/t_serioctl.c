// SPDX-License-Identifier: GPL-2.0-only
/* t_serioctl.c: the serial core's own ioctls on a plain 8250 port: the
 * transmitter-empty bit (TIOCSERGETLSR) and the RS-485 and ISO 7816 modes,
 * which a port without them must refuse rather than pretend to take; and a
 * change of the port's line discipline, which the serial core passes on to
 * the driver (uart_set_ldisc) and which must leave the port as it was, and
 * which first waits for the port's output to drain; and
 * the serial ioctls' own copies to and from user memory, which must fail
 * with EFAULT on an address the caller cannot use. */
#include <errno.h>
#include <signal.h>
#include <stdbool.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "tp_serial.h"

/* include/uapi/linux/tty.h; glibc has no header for them. */
#ifndef N_TTY
#define N_TTY 0
#endif
#ifndef N_NULL
#define N_NULL 27
#endif

static unsigned
lsr(int fd)
{
	unsigned v = 0xdead;
	if (ioctl(fd, TIOCSERGETLSR, &v) != 0)
		atf_tc_fail("TIOCSERGETLSR: %s", strerror(errno));
	return v;
}

TP_CASE(getlsr_temt_when_sent_or_held, TP_LINUX,
	"TIOCSERGETLSR reports TIOCSER_TEMT (and nothing else) once written "
	"bytes have left the UART (tcdrain returned); with output held by "
	"the peer's VSTOP it reports TIOCSER_TEMT too, nothing being about to "
	"be sent, while TIOCOUTQ counts the 8 held bytes")
{
	int a, b;
	char got[16];

	tp_serial_open_pair(tc, &a, &b, 0);
	tp_write_str(a, "0123456789abcdef", "16 bytes on A");
	ATF_REQUIRE_EQ_MSG(tcdrain(a), 0, "tcdrain: %s", strerror(errno));
	ATF_CHECK_EQ_MSG(lsr(a), TIOCSER_TEMT, "after tcdrain TIOCSERGETLSR "
			 "reads %#x", lsr(a));
	tp_uart_read_exact(b, got, 16, TP_WAIT_MS, "the 16 bytes on B");
	tp_serial_stop_output(a, b);
	tp_write_str(a, "held8byt", "8 bytes on stopped A");
	ATF_CHECK_EQ_MSG(tp_uart_outq(a), 8, "TIOCOUTQ %d", tp_uart_outq(a));
	ATF_CHECK_EQ_MSG(lsr(a), TIOCSER_TEMT, "with output held "
			 "TIOCSERGETLSR reads %#x", lsr(a));
	tp_serial_start_output(b);
	tp_uart_read_exact(b, got, 8, TP_WAIT_MS, "the held bytes on B");
}

TP_CASE(rs485_absent_enotty, TP_LINUX,
	"On a UART without RS-485 support, TIOCGRS485 reports RS-485 off "
	"(flags and delays 0) and TIOCSRS485 asking to enable it fails with "
	"ENOTTY, after which TIOCGRS485 still reports it off")
{
	int a, b;
	struct serial_rs485 r;

	tp_serial_open_pair(tc, &a, &b, 0);
	memset(&r, 0xa5, sizeof(r));
	ATF_REQUIRE_EQ_MSG(ioctl(a, TIOCGRS485, &r), 0, "TIOCGRS485: %s",
			   strerror(errno));
	ATF_CHECK_EQ_MSG(r.flags, 0u, "flags %#x", r.flags);
	ATF_CHECK_EQ_MSG(r.delay_rts_before_send, 0u, "delay before %u",
			 r.delay_rts_before_send);
	ATF_CHECK_EQ_MSG(r.delay_rts_after_send, 0u, "delay after %u",
			 r.delay_rts_after_send);
	memset(&r, 0, sizeof(r));
	r.flags = SER_RS485_ENABLED | SER_RS485_RTS_ON_SEND;
	errno = 0;
	int rc = ioctl(a, TIOCSRS485, &r);
	ATF_CHECK_MSG(rc == -1 && errno == ENOTTY, "TIOCSRS485 enabling RS-485: "
		      "%s, want ENOTTY", rc == 0 ? "success" : strerror(errno));
	memset(&r, 0xa5, sizeof(r));
	ATF_REQUIRE_EQ(ioctl(a, TIOCGRS485, &r), 0);
	ATF_CHECK_EQ_MSG(r.flags, 0u, "flags %#x after the refused TIOCSRS485",
			 r.flags);
}

TP_CASE(iso7816_absent_enotty, TP_LINUX,
	"On a UART without ISO 7816 (smart card) support, TIOCGISO7816 and "
	"TIOCSISO7816 both fail with ENOTTY")
{
	int a, b;
	struct serial_iso7816 iso;

	tp_serial_open_pair(tc, &a, &b, 0);
	memset(&iso, 0, sizeof(iso));
	errno = 0;
	int rc = ioctl(a, TIOCGISO7816, &iso);
	ATF_CHECK_MSG(rc == -1 && errno == ENOTTY, "TIOCGISO7816: %s, want "
		      "ENOTTY", rc == 0 ? "success" : strerror(errno));
	iso.flags = SER_ISO7816_ENABLED;
	errno = 0;
	rc = ioctl(a, TIOCSISO7816, &iso);
	ATF_CHECK_MSG(rc == -1 && errno == ENOTTY, "TIOCSISO7816: %s, want "
		      "ENOTTY", rc == 0 ? "success" : strerror(errno));
}

TP_CASE(ldisc_change_keeps_the_port, TP_LINUX,
	"TIOCSETD N_NULL on a UART: TIOCGETD reads 27 and writes fail "
	"EOPNOTSUPP, sending nothing; TIOCSETD N_TTY back gives c_line 0, the "
	"same speed and c_cflag as before, and bytes pass both ways")
{
	int a, b;
	tp_serial_open_pair(tc, &a, &b, 0);
	struct termios before, t;
	tp_tc_get(a, &before);
	int ld = N_NULL;
	if (ioctl(a, TIOCSETD, &ld) != 0) {
		if (errno == EINVAL)
			atf_tc_skip("TIOCSETD N_NULL: EINVAL: the kernel has no n_null");
		atf_tc_fail("TIOCSETD N_NULL on A: %s", strerror(errno));
	}
	ld = -1;
	ATF_CHECK_MSG(ioctl(a, TIOCGETD, &ld) == 0 && ld == N_NULL,
		      "TIOCGETD %d after N_NULL (%s)", ld, strerror(errno));
	errno = 0;
	ssize_t n = write(a, "x", 1);
	ATF_CHECK_MSG(n < 0 && errno == EOPNOTSUPP, "write under N_NULL: %zd (%s), "
		      "want EOPNOTSUPP", n, strerror(errno));
	tp_expect_quiet(b, "nothing reaches B from A under N_NULL");
	ld = N_TTY;
	ATF_REQUIRE_MSG(ioctl(a, TIOCSETD, &ld) == 0, "TIOCSETD N_TTY back on A: %s",
			strerror(errno));
	tp_tc_get(a, &t);
	ATF_CHECK_EQ_MSG(t.c_line, N_TTY, "c_line %d after N_TTY came back", t.c_line);
	ATF_CHECK_EQ_MSG(t.c_cflag, before.c_cflag, "c_cflag %#o after the ldisc "
			 "round trip, was %#o", t.c_cflag, before.c_cflag);
	ATF_CHECK_MSG(cfgetospeed(&t) == cfgetospeed(&before), "speed %#o, was %#o",
		      cfgetospeed(&t), cfgetospeed(&before));
	/* The new N_TTY instance starts from the port's termios: still raw. */
	char got[2];
	tp_write_str(a, "ab", "A to B after N_TTY came back");
	tp_uart_read_exact(b, got, 2, TP_WAIT_MS, "A's bytes on B");
	ATF_CHECK_MSG(!memcmp(got, "ab", 2), "B read %s", tp_esc(got, 2));
	tp_write_str(b, "ba", "B to A after N_TTY came back");
	tp_uart_read_exact(a, got, 2, TP_WAIT_MS, "B's bytes on A");
	ATF_CHECK_MSG(!memcmp(got, "ba", 2), "A read %s", tp_esc(got, 2));
}

/* The serial ioctls that copy to (get) or from (set) the caller. */
static const struct {
	unsigned long req;
	const char *name;
} copying[] = {
	{TIOCGICOUNT, "TIOCGICOUNT"},	{TIOCGSERIAL, "TIOCGSERIAL"},
	{TIOCMGET, "TIOCMGET"},		{TIOCSERGETLSR, "TIOCSERGETLSR"},
	{TIOCSSERIAL, "TIOCSSERIAL"},	{TIOCMSET, "TIOCMSET"},
	{TIOCMBIS, "TIOCMBIS"},		{TIOCMBIC, "TIOCMBIC"},
};

TP_CASE(bad_addresses_fail_efault, TP_LINUX,
	"TIOCGICOUNT, TIOCGSERIAL, TIOCMGET and TIOCSERGETLSR into, and "
	"TIOCSSERIAL, TIOCMSET, TIOCMBIS and TIOCMBIC from, an address in a "
	"PROT_NONE page fail with EFAULT on a UART, and the failed setters "
	"change nothing: TIOCGSERIAL and TIOCMGET read as before")
{
	struct tp_serial_pair p;
	struct serial_struct s0, s1;
	void *bad = tp_unusable_page();

	tp_serial_find(tc, &p);
	int a = tp_uart_open(p.a, 0);
	tp_uart_gserial(a, &s0);
	int lines0 = tp_uart_mget(a);
	for (size_t i = 0; i < sizeof(copying) / sizeof(copying[0]); i++) {
		errno = 0;
		int r = ioctl(a, copying[i].req, bad);
		ATF_CHECK_MSG(r == -1 && errno == EFAULT, "%s with a PROT_NONE "
			      "address: %d (%s), want EFAULT", copying[i].name, r,
			      r < 0 ? strerror(errno) : "success");
	}
	tp_uart_gserial(a, &s1);
	ATF_CHECK_MSG(memcmp(&s0, &s1, sizeof(s0)) == 0,
		      "TIOCGSERIAL reads differently after the failed setters");
	ATF_CHECK_MSG(tp_uart_mget(a) == lines0, "TIOCMGET reads %s, was %s",
		      tp_tiocm_str(tp_uart_mget(a)), tp_tiocm_str(lines0));
}

/* A TIOCSETD N_TTY to make on fd, and whether it must end with EINTR. */
struct setd {
	int fd;
	bool want_eintr;
};

/* In a child: the TIOCSETD, a SIGUSR1 handler without SA_RESTART
 * installed first. */
static int
setd_child(void *arg)
{
	const struct setd *s = arg;
	int ld = N_TTY;
	int rc = tp_child_interruptible(SIGUSR1);

	if (rc != 0)
		return rc;
	errno = 0;
	rc = ioctl(s->fd, TIOCSETD, &ld);
	if (s->want_eintr)
		return rc == -1 && errno == EINTR ? 0
		       : tp_child_fail("the waiting TIOCSETD returned %d (%s), "
				       "want EINTR", rc, strerror(errno));
	return rc == 0 ? 0 : tp_child_fail("TIOCSETD after the output went: %s",
					   strerror(errno));
}

TP_CASE(tiocsetd_waits_for_output_to_drain, TP_LINUX,
	"TIOCSETD first waits until the tty's output has gone, even to the "
	"discipline it has: with 4 bytes held on A by TCOOFF it sleeps, a "
	"signal ends it with EINTR and the bytes stay queued (TIOCOUTQ 4); "
	"after TCOON the bytes reach B and a waiting TIOCSETD returns 0")
{
	struct tp_child c1, c2;
	int a, b, q = -1;
	char got[4];

	tp_serial_open_pair(tc, &a, &b, 0);
	ATF_REQUIRE_EQ_MSG(tcflow(a, TCOOFF), 0, "TCOOFF: %s", strerror(errno));
	tp_write_str(a, "held", "4 bytes on A with its output suspended");
	struct setd first = { a, true }, second = { a, false };
	tp_child_start(&c1, setd_child, &first);
	tp_wait_blocked_fd(c1.pid, SYS_ioctl, a, "TIOCSETD asleep behind A's output");
	ATF_REQUIRE_EQ(kill(c1.pid, SIGUSR1), 0);
	tp_child_join(&c1, TP_WAIT_MS, "the interrupted TIOCSETD to return");
	ATF_CHECK_MSG(ioctl(a, TIOCOUTQ, &q) == 0 && q == 4,
		      "TIOCOUTQ %d after the interrupted TIOCSETD, want 4", q);
	tp_expect_quiet(b, "nothing on B while A's output is suspended");

	tp_child_start(&c2, setd_child, &second);
	tp_wait_blocked_fd(c2.pid, SYS_ioctl, a, "a second TIOCSETD asleep");
	ATF_REQUIRE_EQ_MSG(tcflow(a, TCOON), 0, "TCOON: %s", strerror(errno));
	tp_uart_read_exact(b, got, 4, TP_WAIT_MS, "the 4 bytes on B after TCOON");
	ATF_CHECK_MSG(memcmp(got, "held", 4) == 0, "B read \"%s\"", tp_esc(got, 4));
	tp_child_join(&c2, TP_WAIT_MS, "TIOCSETD to return once the output went");
}

ATF_TP_ADD_TCS(tp)
{
	ATF_TP_ADD_TC(tp, getlsr_temt_when_sent_or_held);
	ATF_TP_ADD_TC(tp, rs485_absent_enotty);
	ATF_TP_ADD_TC(tp, iso7816_absent_enotty);
	ATF_TP_ADD_TC(tp, ldisc_change_keeps_the_port);
	ATF_TP_ADD_TC(tp, tiocsetd_waits_for_output_to_drain);
	ATF_TP_ADD_TC(tp, bad_addresses_fail_efault);
	return atf_no_error();
}
