/* t_echo.c: basic echo of input written to the master. */
#include <string.h>
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

ATF_TP_ADD_TCS(tp)
{
	ATF_TP_ADD_TC(tp, echo_on_returns_input);
	ATF_TP_ADD_TC(tp, echo_off_returns_nothing);
	return atf_no_error();
}
