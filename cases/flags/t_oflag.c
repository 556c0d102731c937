// SPDX-License-Identifier: GPL-2.0-only
/* t_oflag.c: output processing (c_oflag) of bytes the slave writes, as
 * the master reads them.  Each case writes its text, then a '#' marker in
 * a second write; the master collects up to the marker, so a missing or
 * extra byte shows without a timed window. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <termios.h>

#include "ttypot.h"

#define MARKER '#'

/* Set exactly these output flags on a raw slave. */
static void
set_oflag(int fd, tcflag_t oflag)
{
	struct termios t;
	tp_tc_get(fd, &t);
	t.c_oflag = oflag;
	tp_tc_set(fd, &t);
}

/* Read the master up to (not including) MARKER into buf. */
static size_t
collect(int fd, char *buf, size_t cap, const char *what)
{
	size_t n = 0;
	for (;;) {
		char c;
		tp_read_exact(fd, &c, 1, 1, what);
		if (c == MARKER)
			return n;
		if (n == cap)
			atf_tc_fail("%s: more than %zu bytes before the marker",
				    what, cap);
		buf[n++] = c;
	}
}

/* Slave writes `in` with c_oflag = oflag; master must read `want`. */
static void
check_output(tcflag_t oflag, const char *in, const char *want)
{
	struct tp_pty p;
	char got[64];

	tp_pty_open(&p, TP_RAW);
	set_oflag(p.slave, oflag);
	tp_write_str(p.slave, in, "slave output");
	tp_write_all(p.slave, &(char){MARKER}, 1, "marker");
	size_t n = collect(p.master, got, sizeof(got), "output on the master");
	ATF_CHECK_MSG(n == strlen(want) && memcmp(got, want, n) == 0,
		      "master read \"%s\", expected \"%s\"", tp_esc(got, n),
		      tp_esc(want, strlen(want)));
	tp_pty_close(&p);
}

TP_CASE(onlcr_maps_nl_to_crnl, TP_POSIX,
	"OPOST|ONLCR: each NL the slave writes reaches the master as CR NL")
{
	check_output(OPOST | ONLCR, "a\nb\n", "a\r\nb\r\n");
}

TP_CASE(ocrnl_maps_cr_to_nl, TP_POSIX,
	"OPOST|OCRNL: each CR the slave writes reaches the master as NL")
{
	check_output(OPOST | OCRNL, "a\rb\r", "a\nb\n");
}

TP_CASE(onocr_drops_cr_at_column_zero, TP_POSIX,
	"OPOST|ONOCR: a CR written at column 0 is not output, one written "
	"after text is")
{
	check_output(OPOST | ONOCR, "\rab\r\r", "ab\r");
}

TP_CASE(onlret_nl_returns_to_column_zero, TP_POSIX,
	"OPOST|ONLRET|ONOCR: NL counts as a carriage return, so a CR after it "
	"is at column 0 and dropped; without ONLRET the same CR is output")
{
	check_output(OPOST | ONOCR | ONLRET, "ab\n\rc", "ab\nc");
	check_output(OPOST | ONOCR, "ab\n\rc", "ab\n\rc");
}

TP_CASE(opost_off_passes_bytes_raw, TP_POSIX,
	"With OPOST clear, ONLCR, OCRNL, OLCUC and TAB3 have no effect: the "
	"master reads the slave's bytes unchanged")
{
	check_output(ONLCR | OCRNL | OLCUC | TAB3, "a\nb\rc\td",
		     "a\nb\rc\td");
}

TP_CASE(olcuc_maps_to_upper_case, TP_LINUX,
	"OPOST|OLCUC (Linux, XSI legacy): lower-case output is mapped to upper "
	"case, other bytes pass")
{
	check_output(OPOST | OLCUC, "abC1z", "ABC1Z");
}

TP_CASE(tab3_expands_tabs_to_spaces, TP_POSIX,
	"OPOST|TAB3 (XTABS): a TAB is output as spaces up to the next "
	"multiple of 8 columns")
{
	check_output(OPOST | TAB3, "a\tb\t", "a       b       ");
}

ATF_TP_ADD_TCS(tp)
{
	ATF_TP_ADD_TC(tp, onlcr_maps_nl_to_crnl);
	ATF_TP_ADD_TC(tp, ocrnl_maps_cr_to_nl);
	ATF_TP_ADD_TC(tp, onocr_drops_cr_at_column_zero);
	ATF_TP_ADD_TC(tp, onlret_nl_returns_to_column_zero);
	ATF_TP_ADD_TC(tp, opost_off_passes_bytes_raw);
	ATF_TP_ADD_TC(tp, olcuc_maps_to_upper_case);
	ATF_TP_ADD_TC(tp, tab3_expands_tabs_to_spaces);
	return atf_no_error();
}
