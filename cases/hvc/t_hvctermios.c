// SPDX-License-Identifier: GPL-2.0-only
/* t_hvctermios.c: termios on an hvc.  hvc_console has no set_termios: the
 * tty core keeps the line's hardware settings (tty_termios_copy_hw: speed,
 * CSIZE, parity, stop bits, CRTSCTS) and takes only HUPCL, CREAD, CLOCAL
 * and the software flags, which n_tty acts on over the hvc as on any tty. */
#include <errno.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "tp_hvc.h"

static int
open_hvc(const atf_tc_t *tc)
{
	char path[64];

	tp_hvc_find(tc, path, sizeof(path));
	return tp_hvc_open(path, 0);
}

TP_CASE(hvc_keeps_its_speed, TP_LINUX,
	"tcsetattr on an hvc with another speed succeeds, but the speed read "
	"back is the one it had: a driver without set_termios keeps its "
	"hardware bits")
{
	struct termios t0, t;
	int h = open_hvc(tc);

	tp_tc_get(h, &t0);
	speed_t other = cfgetospeed(&t0) == B9600 ? B19200 : B9600;
	t = t0;
	cfsetispeed(&t, other);
	cfsetospeed(&t, other);
	ATF_REQUIRE_MSG(tcsetattr(h, TCSANOW, &t) == 0, "tcsetattr: %s",
			strerror(errno));
	tp_tc_get(h, &t);
	ATF_CHECK_MSG(cfgetospeed(&t) == cfgetospeed(&t0), "output speed "
		      "reads %#o after asking for %#o, was %#o",
		      (unsigned)cfgetospeed(&t), (unsigned)other,
		      (unsigned)cfgetospeed(&t0));
	ATF_CHECK_MSG(cfgetispeed(&t) == cfgetispeed(&t0), "input speed "
		      "reads %#o, was %#o", (unsigned)cfgetispeed(&t),
		      (unsigned)cfgetispeed(&t0));
}

TP_CASE(hvc_keeps_its_framing, TP_LINUX,
	"Asking an hvc for CS7, PARENB|PARODD, CSTOPB and CRTSCTS (TCSETS "
	"succeeds) changes nothing: c_cflag reads back CS8 without parity, "
	"stop bits or flow control, as it was")
{
	struct termios t0, t;
	int h = open_hvc(tc);
	const tcflag_t hw = CSIZE | PARENB | PARODD | CSTOPB | CRTSCTS;

	tp_tc_get(h, &t0);
	ATF_REQUIRE_MSG((t0.c_cflag & hw) == CS8, "c_cflag %#o after the raw "
			"set-up", (unsigned)t0.c_cflag);
	t = t0;
	t.c_cflag = (t.c_cflag & ~CSIZE) | CS7 | PARENB | PARODD | CSTOPB |
		    CRTSCTS;
	ATF_REQUIRE_MSG(tp_tcsets(h, &t) == 0, "TCSETS: %s", strerror(errno));
	tp_tc_get(h, &t);
	ATF_CHECK_MSG((t.c_cflag & hw) == CS8, "hardware c_cflag bits read "
		      "%#o after asking for CS7|PARENB|PARODD|CSTOPB|CRTSCTS",
		      (unsigned)(t.c_cflag & hw));
}

TP_CASE(hvc_takes_clocal_hupcl, TP_LINUX,
	"The c_cflag bits the tty core handles itself are taken on an hvc: "
	"HUPCL and CLOCAL read back as set and as cleared")
{
	int h = open_hvc(tc);
	struct termios t;

	for (int round = 0; round < 2; round++) {
		tcflag_t want = round ? 0 : HUPCL | CLOCAL;
		tp_tc_get(h, &t);
		t.c_cflag = (t.c_cflag & ~(HUPCL | CLOCAL)) | want;
		tp_tc_set(h, &t);
		tp_tc_get(h, &t);
		ATF_CHECK_MSG((t.c_cflag & (HUPCL | CLOCAL)) == want, "HUPCL|"
			      "CLOCAL read %#o, set %#o",
			      (unsigned)(t.c_cflag & (HUPCL | CLOCAL)),
			      (unsigned)want);
	}
}

TP_CASE(hvc_canonical_line, TP_POSIX,
	"With ICANON on the hvc, bytes from the USB port are edited as a "
	"line: ERASE removes a character and read returns the whole line "
	"at the newline, not before")
{
	int h, u;

	tp_vlink_open(tc, NULL, &h, &u, 0);
	tp_lflag(h, ICANON, ECHO);
	tp_write_str(u, "abx", "the start of a line");
	tp_uart_wait_outq_empty(u, TP_WAIT_MS, "the USB port to send it");
	tp_expect_quiet(h, "no read before the newline");
	tp_write_str(u, "\177c\n", "ERASE, c and the newline");
	TP_EXPECT_LINE(h, "abc\n", "the edited line on the hvc");
}

TP_CASE(hvc_echoes_input, TP_POSIX,
	"With ECHO on the hvc, the bytes it receives go back out: the USB "
	"port reads its own bytes back")
{
	int h, u;

	tp_vlink_open(tc, NULL, &h, &u, 0);
	tp_lflag(h, ECHO, ICANON);
	tp_write_str(u, "echo", "bytes to the hvc");
	TP_EXPECT_BYTES(u, "echo", "the hvc's echo on the USB port");
	TP_EXPECT_BYTES(h, "echo", "the bytes themselves on the hvc");
}

TP_CASE(hvc_onlcr_output, TP_POSIX,
	"With OPOST|ONLCR on the hvc, a newline written to it leaves as CR "
	"NL; with OPOST clear it leaves as a bare NL")
{
	int h, u;

	tp_vlink_open(tc, NULL, &h, &u, 0);
	tp_oflag(h, OPOST | ONLCR, 0);
	tp_write_str(h, "a\n", "a line on the hvc with ONLCR");
	TP_EXPECT_BYTES(u, "a\r\n", "CR NL on the USB port");
	tp_oflag(h, 0, OPOST);
	tp_write_str(h, "b\n", "a line on the hvc without OPOST");
	TP_EXPECT_BYTES(u, "b\n", "a bare NL on the USB port");
	tp_expect_quiet(u, "nothing more");
}

ATF_TP_ADD_TCS(tp)
{
	ATF_TP_ADD_TC(tp, hvc_keeps_its_speed);
	ATF_TP_ADD_TC(tp, hvc_keeps_its_framing);
	ATF_TP_ADD_TC(tp, hvc_takes_clocal_hupcl);
	ATF_TP_ADD_TC(tp, hvc_canonical_line);
	ATF_TP_ADD_TC(tp, hvc_echoes_input);
	ATF_TP_ADD_TC(tp, hvc_onlcr_output);
	return atf_no_error();
}
