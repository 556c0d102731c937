// SPDX-License-Identifier: GPL-2.0-only
/* t_echo.c: echo of input written to the master, and the flags that
 * shape it (OPOST, ECHOE, ECHONL, ECHOCTL).  No ECHO-toggle-while-input
 * cases: that race (#2) was never fixed. */
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <termios.h>

#include "ttypot.h"

TP_CASE(echo_on_returns_input, TP_POSIX,
	"With ECHO set on the slave, bytes written to the master come back on "
	"the master, newline mapped to CR NL by OPOST|ONLCR")
{
	struct tp_pty p;
	char got[16];

	tp_pty_open(&p, TP_COOKED);
	tp_lflag(p.slave, ECHO, 0);
	tp_oflag(p.slave, OPOST | ONLCR, 0);
	tp_write_str(p.master, "hi\n", "master write of hi\\n");
	tp_read_exact(p.master, got, 4, sizeof(got), "echo of hi\\n on the master");
	ATF_CHECK_MSG(memcmp(got, "hi\r\n", 4) == 0, "echo was \"%.4s\"", got);
	tp_expect_quiet(p.master, "no bytes beyond the echo");
	tp_pty_close(&p);
}

TP_CASE(echo_off_returns_nothing, TP_POSIX,
	"With ECHO clear, input written to the master is not echoed back, "
	"but it does reach the slave")
{
	struct tp_pty p;
	char got[8];

	tp_pty_open(&p, TP_COOKED);
	tp_lflag(p.slave, 0, ECHO);
	tp_write_str(p.master, "hi\n", "master write of hi\\n");
	tp_wait_fionread(p.slave, 3, TP_WAIT_MS, "line hi\\n on the slave");
	tp_expect_quiet(p.master, "echo with ECHO clear");
	tp_read_exact(p.slave, got, 3, sizeof(got), "slave read of hi\\n");
	ATF_CHECK(memcmp(got, "hi\n", 3) == 0);
	tp_pty_close(&p);
}

/* Read exactly the expected echo from the master, then expect silence. */
static void
expect_echo(int master, const char *want, size_t len, const char *what)
{
	char got[64];

	ATF_REQUIRE(len <= sizeof(got));
	tp_read_exact(master, got, len, sizeof(got), what);
	ATF_CHECK_MSG(memcmp(got, want, len) == 0, "%s: got \"%.*s\"", what,
		      (int)len, got);
	tp_expect_quiet(master, "no bytes beyond the echo");
}

TP_CASE(echo_obeys_opost_off, TP_LINUX,
	"Regression #28 (2.6.31, unverified): echoes go through output "
	"processing, so with OPOST clear \"a\\n\" echoes as \"a\\n\", not "
	"\"a\\r\\n\"")
{
	struct tp_pty p;

	tp_pty_open(&p, TP_COOKED);
	tp_lflag(p.slave, ECHO | ICANON, 0);
	tp_oflag(p.slave, ONLCR, OPOST);
	tp_write_str(p.master, "a\n", "master write of a\\n");
	expect_echo(p.master, "a\n", 2, "echo of a\\n with OPOST clear");
	tp_pty_close(&p);
}

TP_CASE(echoe_erase_echoes_backspace_space_backspace, TP_POSIX,
	"With ICANON, ECHO and ECHOE, the ERASE character echoes as "
	"\"\\b \\b\" and removes the previous character from the line")
{
	struct tp_pty p;
	struct termios t;
	char in[8], got[8];

	tp_pty_open(&p, TP_COOKED);
	tp_lflag(p.slave, ICANON | ECHO | ECHOE, ECHOPRT);
	tp_oflag(p.slave, OPOST | ONLCR, 0);
	tp_tc_get(p.slave, &t);
	snprintf(in, sizeof(in), "ab%cc\n", t.c_cc[VERASE]);
	tp_write_str(p.master, in, "master write of ab ERASE c NL");
	expect_echo(p.master, "ab\b \bc\r\n", 8, "echo of ab ERASE c NL");
	tp_read_exact(p.slave, got, 3, sizeof(got), "slave read of the line");
	ATF_CHECK_MSG(memcmp(got, "ac\n", 3) == 0, "slave read \"%.3s\"", got);
	tp_pty_close(&p);
}

TP_CASE(echonl_echoes_newline_without_echo, TP_POSIX,
	"With ICANON and ECHONL but ECHO clear, only the newline is echoed "
	"(as CR NL under OPOST|ONLCR); the line still reaches the slave")
{
	struct tp_pty p;
	char got[8];

	tp_pty_open(&p, TP_COOKED);
	tp_lflag(p.slave, ICANON | ECHONL, ECHO);
	tp_oflag(p.slave, OPOST | ONLCR, 0);
	tp_write_str(p.master, "xy\n", "master write of xy\\n");
	expect_echo(p.master, "\r\n", 2, "ECHONL echo of xy\\n");
	tp_read_exact(p.slave, got, 3, sizeof(got), "slave read of xy\\n");
	ATF_CHECK(memcmp(got, "xy\n", 3) == 0);
	tp_pty_close(&p);
}

TP_CASE(echoctl_shows_caret_notation, TP_LINUX,
	"With ECHO and ECHOCTL, the control character 0x01 echoes as \"^A\"; "
	"with ECHOCTL clear it echoes as itself; the slave reads 0x01 both "
	"times")
{
	struct tp_pty p;
	char got[8];

	tp_pty_open(&p, TP_COOKED);
	tp_lflag(p.slave, ICANON | ECHO | ECHOCTL, 0);
	tp_oflag(p.slave, OPOST | ONLCR, 0);
	tp_write_str(p.master, "\x01\n", "master write of ^A NL");
	expect_echo(p.master, "^A\r\n", 4, "ECHOCTL echo of ^A NL");
	tp_read_exact(p.slave, got, 2, sizeof(got), "slave read of ^A NL");
	ATF_CHECK(memcmp(got, "\x01\n", 2) == 0);

	tp_lflag(p.slave, 0, ECHOCTL);
	tp_write_str(p.master, "\x01\n", "master write of ^A NL");
	expect_echo(p.master, "\x01\r\n", 3, "plain echo of ^A NL");
	tp_read_exact(p.slave, got, 2, sizeof(got), "slave read of ^A NL");
	ATF_CHECK(memcmp(got, "\x01\n", 2) == 0);
	tp_pty_close(&p);
}

TP_CASE(echo_happens_on_input_not_on_read, TP_POSIX,
	"The echo of a line appears on the master while the line is still "
	"unread on the slave; reading it later echoes nothing more")
{
	struct tp_pty p;
	char got[8];
	int avail = -1;

	tp_pty_open(&p, TP_COOKED);
	tp_lflag(p.slave, ICANON | ECHO, 0);
	tp_oflag(p.slave, OPOST | ONLCR, 0);
	tp_write_str(p.master, "line\n", "master write of line\\n");
	tp_read_exact(p.master, got, 6, sizeof(got), "echo before any slave read");
	ATF_CHECK_MSG(memcmp(got, "line\r\n", 6) == 0, "echo was \"%.6s\"", got);
	ATF_REQUIRE(ioctl(p.slave, FIONREAD, &avail) == 0);
	ATF_CHECK_MSG(avail == 5, "FIONREAD(slave) %d while echoed, expected 5",
		      avail);
	tp_read_exact(p.slave, got, 5, sizeof(got), "slave read of line\\n");
	ATF_CHECK(memcmp(got, "line\n", 5) == 0);
	tp_expect_quiet(p.master, "echo caused by the slave's read");
	tp_pty_close(&p);
}

TP_CASE(echo_noncanonical_is_immediate, TP_POSIX,
	"With ICANON clear and ECHO set, input is echoed as it arrives, "
	"without waiting for a newline")
{
	struct tp_pty p;
	char got[4];

	tp_pty_open(&p, TP_COOKED);
	tp_lflag(p.slave, ECHO, ICANON);
	tp_write_str(p.master, "ab", "master write of ab");
	expect_echo(p.master, "ab", 2, "echo of ab without a newline");
	tp_read_exact(p.slave, got, 2, sizeof(got), "slave read of ab");
	ATF_CHECK(memcmp(got, "ab", 2) == 0);
	tp_pty_close(&p);
}

ATF_TP_ADD_TCS(tp)
{
	ATF_TP_ADD_TC(tp, echo_on_returns_input);
	ATF_TP_ADD_TC(tp, echo_off_returns_nothing);
	ATF_TP_ADD_TC(tp, echo_obeys_opost_off);
	ATF_TP_ADD_TC(tp, echoe_erase_echoes_backspace_space_backspace);
	ATF_TP_ADD_TC(tp, echonl_echoes_newline_without_echo);
	ATF_TP_ADD_TC(tp, echoctl_shows_caret_notation);
	ATF_TP_ADD_TC(tp, echo_happens_on_input_not_on_read);
	ATF_TP_ADD_TC(tp, echo_noncanonical_is_immediate);
	return atf_no_error();
}
