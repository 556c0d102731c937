// SPDX-License-Identifier: GPL-2.0-only
/* t_termios.c: termios settings on an 8250 UART are accepted and read back
 * as the serial core and the 8250 driver define them: speeds (and what the
 * one baud generator makes of a split speed), character size, stop bits,
 * parity, CLOCAL, HUPCL, CREAD. */
#include <errno.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "tp_serial.h"
#include "tp_termios2.h"

static int
open_a(const atf_tc_t *tc)
{
	struct tp_serial_pair p;
	tp_serial_find(tc, &p);
	return tp_uart_open(p.a, 0);
}

TP_CASE(standard_speeds_read_back, TP_POSIX,
	"Every standard speed from B50 to B115200 (the pci-serial's 1.8432 MHz "
	"clock / 16) is accepted and cfget[io]speed read it back")
{
	static const speed_t speeds[] = {B50, B75, B110, B134, B150, B200, B300,
		B600, B1200, B1800, B2400, B4800, B9600, B19200, B38400, B57600,
		B115200};
	int a = open_a(tc);

	for (size_t i = 0; i < sizeof(speeds) / sizeof(speeds[0]); i++) {
		struct termios t;
		tp_uart_speed(a, speeds[i]);
		tp_tc_get(a, &t);
		ATF_CHECK_MSG(cfgetospeed(&t) == speeds[i] && cfgetispeed(&t) == speeds[i],
			      "speed %#o reads back as out %#o in %#o", speeds[i],
			      cfgetospeed(&t), cfgetispeed(&t));
	}
}

TP_CASE(speed_above_clock_keeps_old, TP_LINUX,
	"A speed the UART clock cannot make (B230400 > 115200 on a 1.8432 MHz "
	"pci-serial) is not taken: uart_get_baud_rate falls back to the old "
	"speed, which is what reads back")
{
	struct termios t;
	int a = open_a(tc);

	tp_uart_speed(a, B9600);
	tp_tc_get(a, &t);
	cfsetispeed(&t, B230400);
	cfsetospeed(&t, B230400);
	ATF_REQUIRE_EQ_MSG(tcsetattr(a, TCSANOW, &t), 0, "tcsetattr: %s", strerror(errno));
	tp_tc_get(a, &t);
	ATF_CHECK_MSG(cfgetospeed(&t) == B9600, "output speed reads %#o, want B9600 (%#o)",
		      cfgetospeed(&t), B9600);
}

TP_CASE(split_speed_reads_back_as_one_rate, TP_LINUX,
	"TCSETS2 with input 9600 and output 115200 is accepted; the 8250 has "
	"one divisor, so the driver encodes the rate it set (the output rate) "
	"as both speeds and TCGETS2 reads 115200/115200")
{
	struct k_termios2 t;
	int a = open_a(tc);

	ATF_REQUIRE_EQ_MSG(ioctl(a, K_TCGETS2, &t), 0, "TCGETS2: %s", strerror(errno));
	t.c_cflag &= ~(CBAUD | (CBAUD << K_IBSHIFT));
	t.c_cflag |= B115200 | (B9600 << K_IBSHIFT);
	t.c_ospeed = 115200;
	t.c_ispeed = 9600;
	ATF_REQUIRE_EQ_MSG(ioctl(a, K_TCSETS2, &t), 0, "TCSETS2: %s", strerror(errno));
	memset(&t, 0, sizeof(t));
	ATF_REQUIRE_EQ_MSG(ioctl(a, K_TCGETS2, &t), 0, "TCGETS2: %s", strerror(errno));
	ATF_CHECK_EQ_MSG(t.c_ospeed, 115200, "c_ospeed %u", t.c_ospeed);
	ATF_CHECK_EQ_MSG(t.c_ispeed, 115200, "c_ispeed %u (a split speed the "
			 "8250 cannot make)", t.c_ispeed);
	ATF_CHECK_EQ_MSG(t.c_cflag & CBAUD, B115200, "CBAUD %#o", t.c_cflag & CBAUD);
}

TP_CASE(split_speed_on_link_still_carries_data, TP_LINUX,
	"After a split-speed TCSETS2 (57600 out, 2400 in) on both ports they "
	"still carry data: the request does not wedge the port (QEMU's link "
	"does not model the rate itself, so this cannot check the divisor)")
{
	struct k_termios2 t;
	int a, b;
	char got[4];

	tp_serial_open_pair(tc, &a, &b, 0);
	for (int i = 0; i < 2; i++) {
		int fd = i ? b : a;
		ATF_REQUIRE_EQ(ioctl(fd, K_TCGETS2, &t), 0);
		t.c_cflag &= ~(CBAUD | (CBAUD << K_IBSHIFT));
		t.c_cflag |= B57600 | (B2400 << K_IBSHIFT);
		ATF_REQUIRE_EQ_MSG(ioctl(fd, K_TCSETS2, &t), 0, "TCSETS2: %s",
				   strerror(errno));
	}
	tp_write_str(a, "spd!", "write on A");
	tp_uart_read_exact(b, got, 4, TP_WAIT_MS, "bytes on B");
	ATF_CHECK_MSG(memcmp(got, "spd!", 4) == 0, "B read \"%s\"", tp_esc(got, 4));
}

/* TCSETS2 of a BOTHER rate on fd, both directions (CIBAUD 0: input as
 * output); then TCGETS2 into t. */
static void
set_bother(int fd, speed_t rate, struct k_termios2 *t)
{
	ATF_REQUIRE_EQ_MSG(ioctl(fd, K_TCGETS2, t), 0, "TCGETS2: %s", strerror(errno));
	t->c_cflag &= ~(CBAUD | (CBAUD << K_IBSHIFT));
	t->c_cflag |= BOTHER;
	t->c_ospeed = t->c_ispeed = rate;
	ATF_REQUIRE_EQ_MSG(ioctl(fd, K_TCSETS2, t), 0, "TCSETS2 BOTHER %u: %s",
			   rate, strerror(errno));
	memset(t, 0, sizeof(*t));
	ATF_REQUIRE_EQ_MSG(ioctl(fd, K_TCGETS2, t), 0, "TCGETS2: %s", strerror(errno));
}

TP_CASE(bother_rate_off_the_table_stays_bother, TP_LINUX,
	"A rate no Bnnn code stands for (TCSETS2 BOTHER 50000, under the "
	"clock's 115200) is kept as such: TCGETS2 reads CBAUD BOTHER and 50000 "
	"in and out, and two ports set so carry bytes")
{
	struct k_termios2 t;
	int a, b;
	char got[4];

	tp_serial_open_pair(tc, &a, &b, 0);
	set_bother(b, 50000, &t);
	set_bother(a, 50000, &t);
	ATF_CHECK_EQ_MSG(t.c_cflag & CBAUD, BOTHER, "CBAUD %#o, want BOTHER",
			 t.c_cflag & CBAUD);
	ATF_CHECK_EQ_MSG(t.c_ospeed, 50000, "c_ospeed %u", t.c_ospeed);
	ATF_CHECK_EQ_MSG(t.c_ispeed, 50000, "c_ispeed %u", t.c_ispeed);
	tp_write_str(a, "50k!", "write on A at 50000");
	tp_uart_read_exact(b, got, 4, TP_WAIT_MS, "bytes on B at 50000");
	ATF_CHECK_MSG(memcmp(got, "50k!", 4) == 0, "B read \"%s\"", tp_esc(got, 4));
}

TP_CASE(bother_rate_of_a_code_reads_back_as_the_code, TP_LINUX,
	"A BOTHER rate that is exactly a Bnnn rate (TCSETS2 BOTHER 57600) is "
	"encoded back as that code: CBAUD reads B57600, TCGETS2 57600 in and "
	"out, and cfgetospeed sees B57600")
{
	struct k_termios2 t;
	struct termios g;
	int a = open_a(tc);

	set_bother(a, 57600, &t);
	ATF_CHECK_EQ_MSG(t.c_cflag & CBAUD, B57600, "CBAUD %#o, want B57600 "
			 "(%#o)", t.c_cflag & CBAUD, B57600);
	ATF_CHECK_EQ_MSG(t.c_ospeed, 57600, "c_ospeed %u", t.c_ospeed);
	ATF_CHECK_EQ_MSG(t.c_ispeed, 57600, "c_ispeed %u", t.c_ispeed);
	tp_tc_get(a, &g);
	ATF_CHECK_MSG(cfgetospeed(&g) == B57600, "cfgetospeed %#o", cfgetospeed(&g));
}

TP_CASE(character_sizes_read_back, TP_POSIX,
	"CS5, CS6, CS7 and CS8 are each accepted and read back")
{
	static const tcflag_t sizes[] = {CS5, CS6, CS7, CS8};
	int a = open_a(tc);

	for (size_t i = 0; i < 4; i++) {
		struct termios t;
		tp_uart_cflag(a, sizes[i], CSIZE & ~sizes[i]);
		tp_tc_get(a, &t);
		ATF_CHECK_MSG((t.c_cflag & CSIZE) == sizes[i], "CSIZE %#o, want %#o",
			      (unsigned)(t.c_cflag & CSIZE), (unsigned)sizes[i]);
	}
}

TP_CASE(stop_bits_and_parity_read_back, TP_POSIX,
	"CSTOPB, PARENB (even) and PARENB|PARODD (odd) are accepted, read "
	"back, and clear again")
{
	int a = open_a(tc);

	tp_uart_cflag(a, CSTOPB, 0);
	tp_uart_cflag(a, 0, CSTOPB);
	tp_uart_cflag(a, PARENB, PARODD);
	tp_uart_cflag(a, PARENB | PARODD, 0);
	tp_uart_cflag(a, CS7 | PARENB | CSTOPB, CSIZE & ~CS7);
	tp_uart_cflag(a, CS8, PARENB | PARODD | CSTOPB | (CSIZE & ~CS8));
}

TP_CASE(clocal_hupcl_read_back, TP_POSIX,
	"CLOCAL and HUPCL each set and clear and read back")
{
	int a = open_a(tc);

	tp_uart_cflag(a, 0, CLOCAL);
	tp_uart_cflag(a, CLOCAL, 0);
	tp_uart_cflag(a, 0, HUPCL);
	tp_uart_cflag(a, HUPCL, 0);
}

TP_CASE(cread_off_drops_input, TP_POSIX,
	"With CREAD clear the receiver takes nothing: a byte that reached B's "
	"UART (its rx counter moved) is not readable; with CREAD set again the "
	"next byte is")
{
	int a, b;
	struct serial_icounter_struct before, now;
	char got[2];

	tp_serial_open_pair(tc, &a, &b, 0);
	tp_uart_cflag(b, 0, CREAD);
	tp_uart_icount(b, &before);
	tp_write_str(a, "x", "byte to a receiver without CREAD");
	long long deadline = tp_now_ms() + TP_WAIT_MS;
	int step = 0;
	tp_waiting_for("B's rx counter to move");
	do {
		if (tp_now_ms() > deadline)
			atf_tc_fail("the byte never reached B's UART (rx counter %d)",
				    before.rx);
		tp_backoff(&step);
		tp_uart_icount(b, &now);
	} while (now.rx == before.rx);
	tp_expect_quiet(b, "no data on B without CREAD");
	tp_uart_cflag(b, CREAD, 0);
	tp_write_str(a, "y", "byte after CREAD set");
	tp_uart_read_exact(b, got, 1, TP_WAIT_MS, "the byte after CREAD");
	ATF_CHECK_MSG(got[0] == 'y', "B read \"%s\", want \"y\"", tp_esc(got, 1));
}

ATF_TP_ADD_TCS(tp)
{
	ATF_TP_ADD_TC(tp, standard_speeds_read_back);
	ATF_TP_ADD_TC(tp, speed_above_clock_keeps_old);
	ATF_TP_ADD_TC(tp, split_speed_reads_back_as_one_rate);
	ATF_TP_ADD_TC(tp, split_speed_on_link_still_carries_data);
	ATF_TP_ADD_TC(tp, bother_rate_off_the_table_stays_bother);
	ATF_TP_ADD_TC(tp, bother_rate_of_a_code_reads_back_as_the_code);
	ATF_TP_ADD_TC(tp, character_sizes_read_back);
	ATF_TP_ADD_TC(tp, stop_bits_and_parity_read_back);
	ATF_TP_ADD_TC(tp, clocal_hupcl_read_back);
	ATF_TP_ADD_TC(tp, cread_off_drops_input);
	return atf_no_error();
}
