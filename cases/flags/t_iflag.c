// SPDX-License-Identifier: GPL-2.0-only
/* t_iflag.c: input processing (c_iflag) of bytes the master writes, as
 * the slave reads them.  Non-canonical cases end the input with a '#'
 * marker and read the slave up to it, so a lost or extra byte shows
 * without a timed window; canonical cases read one line. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <termios.h>

#include "ttypot.h"

#define MARKER '#'

static void
check_bytes(const char *got, size_t n, const char *want)
{
	ATF_CHECK_MSG(n == strlen(want) && memcmp(got, want, n) == 0,
		      "slave read \"%s\", expected \"%s\"", tp_esc(got, n),
		      tp_esc(want, strlen(want)));
}

/* Master writes `in` + MARKER to a raw slave (no echo) with c_iflag =
 * iflag and extra lflag bits; the slave must read `want` before the marker. */
static void
check_input(tcflag_t iflag, tcflag_t lflag, const char *in, const char *want)
{
	struct tp_pty p;
	struct termios t;
	char got[64];
	size_t n = 0;

	tp_pty_open(&p, TP_RAW);
	tp_tc_get(p.slave, &t);
	t.c_iflag = iflag;
	t.c_lflag |= lflag;
	tp_tc_set(p.slave, &t);
	tp_write_str(p.master, in, "master input");
	tp_write_all(p.master, &(char){MARKER}, 1, "marker");
	for (;;) {
		char c;
		tp_read_exact(p.slave, &c, 1, 1, "input on the slave");
		if (c == MARKER)
			break;
		if (n == sizeof(got))
			atf_tc_fail("more than %zu bytes before the marker", n);
		got[n++] = c;
	}
	check_bytes(got, n, want);
	tp_pty_close(&p);
}

TP_CASE(icrnl_maps_cr_to_nl, TP_POSIX,
	"ICRNL: a CR received is read as NL")
{
	check_input(ICRNL, 0, "a\rb\r", "a\nb\n");
}

TP_CASE(inlcr_maps_nl_to_cr, TP_POSIX,
	"INLCR: a NL received is read as CR")
{
	check_input(INLCR, 0, "a\nb\n", "a\rb\r");
}

TP_CASE(igncr_drops_cr, TP_POSIX,
	"IGNCR: a CR received is discarded, also when ICRNL is set")
{
	check_input(IGNCR | ICRNL, 0, "a\rb\r\n", "ab\n");
}

TP_CASE(istrip_clears_bit_8, TP_POSIX,
	"ISTRIP: bytes received are stripped to 7 bits; without it they pass "
	"whole")
{
	check_input(ISTRIP, 0, "\xe1\x62\xff", "\x61\x62\x7f");
	check_input(0, 0, "\xe1\x62", "\xe1\x62");
}

TP_CASE(iuclc_maps_to_lower_with_iexten, TP_LINUX,
	"IUCLC (Linux, legacy) maps upper-case input to lower case, but only "
	"while IEXTEN is set")
{
	check_input(IUCLC, IEXTEN, "AbC1", "abc1");
	check_input(IUCLC, 0, "AbC1", "AbC1");
}

/* Canonical slave without echo: master writes `in`, slave reads a line. */
static void
check_line(tcflag_t iflag_set, tcflag_t iflag_clear, const char *in,
	   const char *want)
{
	struct tp_pty p;
	char got[64];

	tp_pty_open(&p, TP_COOKED);
	tp_lflag(p.slave, ICANON, ECHO);
	tp_iflag(p.slave, iflag_set, iflag_clear);
	tp_write_str(p.master, in, "master input line");
	size_t n = (size_t)tp_wait_fionread(p.slave, 1, TP_WAIT_MS,
					    "a complete line on the slave");
	if (n > sizeof(got))
		atf_tc_fail("line of %zu bytes", n);
	tp_read_exact(p.slave, got, n, sizeof(got), "the line");
	check_bytes(got, n, want);
	tp_pty_close(&p);
}

TP_CASE(iutf8_erase_removes_whole_character, TP_LINUX,
	"In canonical mode with IUTF8, VERASE after a two-byte UTF-8 "
	"character removes both bytes")
{
	check_line(IUTF8, 0, "a\xc3\xa9\x7f\n", "a\n");
}

TP_CASE(erase_without_iutf8_removes_one_byte, TP_LINUX,
	"In canonical mode without IUTF8, VERASE after a two-byte UTF-8 "
	"character removes only its last byte")
{
	check_line(0, IUTF8, "a\xc3\xa9\x7f\n", "a\xc3\n");
}

ATF_TP_ADD_TCS(tp)
{
	ATF_TP_ADD_TC(tp, icrnl_maps_cr_to_nl);
	ATF_TP_ADD_TC(tp, inlcr_maps_nl_to_cr);
	ATF_TP_ADD_TC(tp, igncr_drops_cr);
	ATF_TP_ADD_TC(tp, istrip_clears_bit_8);
	ATF_TP_ADD_TC(tp, iuclc_maps_to_lower_with_iexten);
	ATF_TP_ADD_TC(tp, iutf8_erase_removes_whole_character);
	ATF_TP_ADD_TC(tp, erase_without_iutf8_removes_one_byte);
	return atf_no_error();
}
