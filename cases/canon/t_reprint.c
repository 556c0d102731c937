/* t_reprint.c: VREPRINT (^R) echo in canonical mode and what enables it. */
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <termios.h>
#include <unistd.h>

#include "ttypot.h"

/* Bytes as printable text for failure messages. */
static const char *
esc(const void *buf, size_t len)
{
	static char out[4][512];
	static int slot;
	char *o = out[slot++ % 4];
	const unsigned char *p = buf;
	size_t j = 0;

	for (size_t i = 0; i < len && j < sizeof(out[0]) - 8; i++) {
		if (p[i] >= 0x20 && p[i] < 0x7f && p[i] != '\\')
			o[j++] = (char)p[i];
		else
			j += (size_t)snprintf(o + j, 8, "\\x%02x", p[i]);
	}
	o[j] = '\0';
	return o;
}

/* A canonical slave, ECHO off unless lset sets it, non-blocking so that
 * a read after poll can never hang. */
static void
canon_open(struct tp_pty *p, tcflag_t lset, tcflag_t lclear)
{
	tp_pty_open(p, TP_COOKED);
	tp_lflag(p->slave, ICANON | lset, (ECHO & ~lset) | lclear);
	tp_set_nonblock(p->slave, true);
}

static void
set_cc(int fd, int idx, cc_t val)
{
	struct termios t;
	tp_tc_get(fd, &t);
	t.c_cc[idx] = val;
	tp_tc_set(fd, &t);
}

/* In canonical mode one read() returns at most one line: wait for a line,
 * read once with room to spare and compare the whole result. */
static void
expect_read(int fd, const char *want, size_t len, const char *what)
{
	char buf[512];

	tp_wait_poll(fd, POLLIN, TP_WAIT_MS, what);
	ssize_t n = read(fd, buf, sizeof(buf));
	if (n < 0)
		atf_tc_fail("%s: read: %s", what, strerror(errno));
	if ((size_t)n != len || memcmp(buf, want, len) != 0)
		atf_tc_fail("%s: read \"%s\" (%zd bytes), want \"%s\" (%zu)",
			    what, esc(buf, (size_t)n), n, esc(want, len), len);
}

/* Nothing readable right now: for states already settled (all input the
 * case wrote has been seen to be processed), no window is needed. */
static void
expect_not_readable(int fd, const char *what)
{
	short rev = tp_poll1(fd, POLLIN, 0);
	if (rev & POLLIN)
		atf_tc_fail("%s: fd %d is readable (revents 0x%x)", what, fd,
			    (unsigned)rev);
}

#define EXPECT_LINE(fd, lit, what) expect_read((fd), (lit), sizeof(lit) - 1, (what))

TP_CASE(reprint_echoes_current_line, TP_LINUX,
	"With ECHO and IEXTEN, VREPRINT (^R) echoes ^R, a newline and the "
	"edited partial line; the line itself is unchanged")
{
	struct tp_pty p;
	static const char want[] = "ab\b \bc^R\r\nac";
	char got[sizeof(want)];

	canon_open(&p, ECHO | ECHOE | ECHOCTL | IEXTEN, ECHOPRT);
	tp_oflag(p.slave, OPOST | ONLCR, 0);
	set_cc(p.slave, VERASE, 0177);
	set_cc(p.slave, VREPRINT, 022);
	tp_write_str(p.master, "ab\177c\022", "master write of ab DEL c ^R");
	tp_read_exact(p.master, got, sizeof(want) - 1, sizeof(got),
		      "echo up to the reprinted line");
	ATF_CHECK_MSG(memcmp(got, want, sizeof(want) - 1) == 0,
		      "echo was \"%s\", want \"%s\"", esc(got, sizeof(want) - 1),
		      esc(want, sizeof(want) - 1));
	tp_expect_quiet(p.master, "nothing echoed beyond the reprint");
	expect_not_readable(p.slave, "^R does not end the line");
	tp_write_str(p.master, "\n", "master write of NL");
	EXPECT_LINE(p.slave, "ac\n", "line after the reprint");
	tp_pty_close(&p);
}

TP_CASE(reprint_needs_iexten, TP_LINUX,
	"With IEXTEN clear, ^R is ordinary data (echoed as ^R by ECHOCTL) "
	"and nothing is reprinted")
{
	struct tp_pty p;
	static const char want[] = "ab^R\r\n";
	char got[sizeof(want)];

	canon_open(&p, ECHO | ECHOCTL, IEXTEN);
	tp_oflag(p.slave, OPOST | ONLCR, 0);
	set_cc(p.slave, VREPRINT, 022);
	tp_write_str(p.master, "ab\022\n", "master write of ab ^R NL");
	EXPECT_LINE(p.slave, "ab\022\n", "^R kept as data");
	tp_read_exact(p.master, got, sizeof(want) - 1, sizeof(got), "echo of ab ^R NL");
	ATF_CHECK_MSG(memcmp(got, want, sizeof(want) - 1) == 0,
		      "echo was \"%s\", want \"%s\"", esc(got, sizeof(want) - 1),
		      esc(want, sizeof(want) - 1));
	tp_pty_close(&p);
}

TP_CASE(reprint_needs_echo, TP_LINUX,
	"With ECHO clear, ^R is not special even with IEXTEN: it is stored "
	"as data")
{
	struct tp_pty p;

	canon_open(&p, IEXTEN, 0);
	set_cc(p.slave, VREPRINT, 022);
	tp_write_str(p.master, "ab\022\n", "master write of ab ^R NL");
	EXPECT_LINE(p.slave, "ab\022\n", "^R kept as data");
	tp_pty_close(&p);
}

ATF_TP_ADD_TCS(tp)
{
	ATF_TP_ADD_TC(tp, reprint_echoes_current_line);
	ATF_TP_ADD_TC(tp, reprint_needs_iexten);
	ATF_TP_ADD_TC(tp, reprint_needs_echo);
	return atf_no_error();
}
