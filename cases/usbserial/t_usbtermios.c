// SPDX-License-Identifier: GPL-2.0-only
/* t_usbtermios.c: termios on a USB serial port driven by ftdi_sio (QEMU's
 * model says FT232B, bcdDevice 0x400): the speeds its divisor reaches are
 * read back as set, a speed above 3 Mbaud falls back to 9600, the framing
 * bits are kept (CS6, which FTDI chips lack, reverts), B0 drops DTR and
 * RTS, and the outputs set by TIOCMSET read back. */
#include <errno.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "tp_hvc.h"

static int
open_usb(const atf_tc_t *tc)
{
	char path[64];

	tp_usb_find(tc, path, sizeof(path));
	return tp_uart_open(path, 0);
}

static void
set_speed(int fd, speed_t s)
{
	struct termios t;

	tp_tc_get(fd, &t);
	cfsetispeed(&t, s);
	cfsetospeed(&t, s);
	ATF_REQUIRE_MSG(tcsetattr(fd, TCSANOW, &t) == 0, "tcsetattr speed "
			"%#o: %s", (unsigned)s, strerror(errno));
}

TP_CASE(usb_speeds_read_back, TP_POSIX,
	"Every standard speed from 300 to 3000000 baud set with cfsetospeed "
	"on an FT232B is read back unchanged by tcgetattr")
{
	static const speed_t speeds[] = {
		B300, B600, B1200, B2400, B4800, B9600, B19200, B38400,
		B57600, B115200, B230400, B460800, B921600, B1000000,
		B1500000, B2000000, B3000000};
	int u = open_usb(tc);
	struct termios t;

	for (size_t i = 0; i < sizeof(speeds) / sizeof(*speeds); i++) {
		set_speed(u, speeds[i]);
		tp_tc_get(u, &t);
		ATF_CHECK_MSG(cfgetospeed(&t) == speeds[i] &&
			      cfgetispeed(&t) == speeds[i], "asked for %#o, "
			      "read back out %#o in %#o", (unsigned)speeds[i],
			      (unsigned)cfgetospeed(&t),
			      (unsigned)cfgetispeed(&t));
	}
}

TP_CASE(usb_too_fast_falls_back_to_9600, TP_LINUX,
	"A speed above an FT232B's 3 Mbaud (B4000000) is not refused but "
	"replaced: tcgetattr reads back 9600 baud")
{
	int u = open_usb(tc);
	struct termios t;

	set_speed(u, B4000000);
	tp_tc_get(u, &t);
	ATF_CHECK_MSG(cfgetospeed(&t) == B9600, "B4000000 read back as %#o",
		      (unsigned)cfgetospeed(&t));
}

TP_CASE(usb_framing_read_back, TP_POSIX,
	"CS7, CS5, PARENB with PARODD, CMSPAR, CSTOPB and CRTSCTS set on the "
	"USB serial port are each read back as set, and cleared again")
{
	static const struct {
		tcflag_t set;
		const char *name;
	} f[] = {
		{CS7, "CS7"}, {CS5, "CS5"}, {PARENB | PARODD, "PARENB|PARODD"},
		{PARENB | CMSPAR, "PARENB|CMSPAR"}, {CSTOPB, "CSTOPB"},
		{CRTSCTS, "CRTSCTS"}};
	const tcflag_t all = CSIZE | PARENB | PARODD | CMSPAR | CSTOPB | CRTSCTS;
	int u = open_usb(tc);
	struct termios t;

	for (size_t i = 0; i < sizeof(f) / sizeof(*f); i++) {
		tcflag_t want = f[i].set & CSIZE ? f[i].set : f[i].set | CS8;
		tp_tc_get(u, &t);
		t.c_cflag = (t.c_cflag & ~all) | want;
		tp_tc_set(u, &t);
		tp_tc_get(u, &t);
		ATF_CHECK_MSG((t.c_cflag & all) == want, "%s: c_cflag framing "
			      "reads %#o, want %#o", f[i].name,
			      (unsigned)(t.c_cflag & all), (unsigned)want);
		t.c_cflag = (t.c_cflag & ~all) | CS8;
		tp_tc_set(u, &t);
		tp_tc_get(u, &t);
		ATF_CHECK_MSG((t.c_cflag & all) == CS8, "after clearing %s: "
			      "%#o", f[i].name, (unsigned)(t.c_cflag & all));
	}
}

TP_CASE(usb_cs6_reverts, TP_LINUX,
	"FTDI chips have no 6-bit characters: asking for CS6 leaves the "
	"character size it had (CS7 here): TCSETS succeeds and tcgetattr "
	"reads CS7")
{
	int u = open_usb(tc);
	struct termios t;

	tp_tc_get(u, &t);
	t.c_cflag = (t.c_cflag & ~CSIZE) | CS7;
	tp_tc_set(u, &t);
	tp_tc_get(u, &t);
	ATF_REQUIRE_MSG((t.c_cflag & CSIZE) == CS7, "CS7 not taken: %#o",
			(unsigned)(t.c_cflag & CSIZE));
	t.c_cflag = (t.c_cflag & ~CSIZE) | CS6;
	ATF_REQUIRE_MSG(tp_tcsets(u, &t) == 0, "TCSETS CS6: %s",
			strerror(errno));
	tp_tc_get(u, &t);
	ATF_CHECK_MSG((t.c_cflag & CSIZE) == CS7, "CS6 read back as %#o, "
		      "not the CS7 it had", (unsigned)(t.c_cflag & CSIZE));
}

TP_CASE(usb_b0_drops_dtr_rts, TP_POSIX,
	"Setting the speed to B0 on the USB serial port drops DTR and RTS "
	"(TIOCMGET); setting a speed again raises them")
{
	int u = open_usb(tc);
	const int dr = TIOCM_DTR | TIOCM_RTS;

	tp_uart_mbis(u, dr);
	ATF_REQUIRE_MSG((tp_uart_mget(u) & dr) == dr, "DTR|RTS not up: %s",
			tp_tiocm_str(tp_uart_mget(u)));
	set_speed(u, B0);
	ATF_CHECK_MSG((tp_uart_mget(u) & dr) == 0, "after B0 TIOCMGET %s",
		      tp_tiocm_str(tp_uart_mget(u)));
	set_speed(u, B9600);
	ATF_CHECK_MSG((tp_uart_mget(u) & dr) == dr, "after B9600 TIOCMGET %s",
		      tp_tiocm_str(tp_uart_mget(u)));
}

TP_CASE(usb_tiocmset_outputs, TP_POSIX,
	"The USB serial port's outputs follow TIOCMSET, TIOCMBIS and "
	"TIOCMBIC: DTR and RTS read back by TIOCMGET as each set them")
{
	int u = open_usb(tc);
	const int dr = TIOCM_DTR | TIOCM_RTS;

	tp_uart_mset(u, TIOCM_DTR);
	ATF_CHECK_MSG((tp_uart_mget(u) & dr) == TIOCM_DTR, "TIOCMSET DTR: %s",
		      tp_tiocm_str(tp_uart_mget(u)));
	tp_uart_mbis(u, TIOCM_RTS);
	ATF_CHECK_MSG((tp_uart_mget(u) & dr) == dr, "TIOCMBIS RTS: %s",
		      tp_tiocm_str(tp_uart_mget(u)));
	tp_uart_mbic(u, TIOCM_DTR);
	ATF_CHECK_MSG((tp_uart_mget(u) & dr) == TIOCM_RTS, "TIOCMBIC DTR: %s",
		      tp_tiocm_str(tp_uart_mget(u)));
	tp_uart_mset(u, 0);
	ATF_CHECK_MSG((tp_uart_mget(u) & dr) == 0, "TIOCMSET 0: %s",
		      tp_tiocm_str(tp_uart_mget(u)));
}

ATF_TP_ADD_TCS(tp)
{
	ATF_TP_ADD_TC(tp, usb_speeds_read_back);
	ATF_TP_ADD_TC(tp, usb_too_fast_falls_back_to_9600);
	ATF_TP_ADD_TC(tp, usb_framing_read_back);
	ATF_TP_ADD_TC(tp, usb_cs6_reverts);
	ATF_TP_ADD_TC(tp, usb_b0_drops_dtr_rts);
	ATF_TP_ADD_TC(tp, usb_tiocmset_outputs);
	return atf_no_error();
}
