// SPDX-License-Identifier: GPL-2.0-only
/* t_echo_opost.c: regressions.md #28 (2.6.31, unverified): echoes go
 * through output processing only when OPOST is set.  pty/t_echo.c checks the
 * canonical OPOST-off half; here both halves of the recipe, non-canonical,
 * on one pair. */
#include <string.h>
#include <termios.h>
#include <unistd.h>

#include "ttypot.h"

static void
expect_echo(struct tp_pty *p, const char *want, size_t len, const char *what)
{
	char got[8];

	tp_read_exact(p->master, got, len, len, what);
	if (memcmp(got, want, len) != 0)
		atf_tc_fail("%s: echo \"%s\", want \"%s\"", what,
			    tp_esc(got, len), tp_esc(want, len));
	tp_expect_quiet(p->master, "nothing after the echo");
}

TP_CASE_COMMITS(echo_follows_opost, TP_LINUX, "2.6.31 (unverified)",
		"- (behaviour)",
		"#28: raw slave with ECHO: with OPOST off \"a\\n\" echoes as "
		"\"a\\n\"; with OPOST|ONLCR as \"a\\r\\n\"")
{
	struct tp_pty p;
	char got[4];

	tp_pty_open(&p, TP_RAW);
	/* ECHOCTL off: in non-canonical mode NL would echo as "^J". */
	tp_lflag(p.slave, ECHO, ECHOCTL);
	tp_write_str(p.master, "a\n", "a NL, OPOST off");
	expect_echo(&p, "a\n", 2, "echo without OPOST");
	tp_read_exact(p.slave, got, 2, 2, "input");
	tp_oflag(p.slave, OPOST | ONLCR, 0);
	tp_write_str(p.master, "a\n", "a NL, OPOST|ONLCR");
	expect_echo(&p, "a\r\n", 3, "echo with OPOST|ONLCR");
	tp_pty_close(&p);
}

ATF_TP_ADD_TCS(tp)
{
	ATF_TP_ADD_TC(tp, echo_follows_opost);
	return atf_no_error();
}
