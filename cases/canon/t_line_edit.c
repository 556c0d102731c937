/* t_line_edit.c: canonical-mode line editing with VERASE, VKILL and VWERASE. */
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
#define EXPECT_LINE(fd, lit, what) expect_read((fd), (lit), sizeof(lit) - 1, (what))

TP_CASE(erase_del_removes_previous_char, TP_POSIX,
	"With VERASE = DEL (0177), DEL removes the previous character of the "
	"line: \"abc\\177d\\n\" reads as \"abd\\n\"")
{
	struct tp_pty p;

	canon_open(&p, 0, 0);
	set_cc(p.slave, VERASE, 0177);
	tp_write_str(p.master, "abc\177d\n", "master write of abc DEL d");
	EXPECT_LINE(p.slave, "abd\n", "edited line");
	tp_pty_close(&p);
}

TP_CASE(erase_ctrl_h_when_configured, TP_POSIX,
	"With VERASE = ^H, ^H erases and DEL becomes an ordinary character")
{
	struct tp_pty p;

	canon_open(&p, 0, 0);
	set_cc(p.slave, VERASE, '\b');
	tp_write_str(p.master, "abc\bd\n", "master write of abc ^H d");
	EXPECT_LINE(p.slave, "abd\n", "line edited by ^H");
	tp_write_str(p.master, "x\177y\n", "master write of x DEL y");
	EXPECT_LINE(p.slave, "x\177y\n", "DEL kept as data");
	tp_pty_close(&p);
}

TP_CASE(erase_at_line_start_does_nothing, TP_POSIX,
	"VERASE at the start of a line erases nothing and never reaches into "
	"a line already terminated")
{
	struct tp_pty p;

	canon_open(&p, 0, 0);
	set_cc(p.slave, VERASE, 0177);
	tp_write_str(p.master, "\177\177ab\n\177\177c\n",
		     "master write of DEL DEL ab NL DEL DEL c NL");
	EXPECT_LINE(p.slave, "ab\n", "first line");
	EXPECT_LINE(p.slave, "c\n", "second line, erases did not cross NL");
	tp_pty_close(&p);
}

TP_CASE(erase_at_line_start_echoes_nothing, TP_POSIX,
	"With ECHO and ECHOE set, VERASE on an empty line produces no echo; "
	"only the following input is echoed")
{
	struct tp_pty p;
	char got[8];

	canon_open(&p, ECHO | ECHOE, 0);
	tp_oflag(p.slave, OPOST | ONLCR, 0);
	set_cc(p.slave, VERASE, 0177);
	tp_write_str(p.master, "\177a\n", "master write of DEL a NL");
	EXPECT_LINE(p.slave, "a\n", "line a");
	tp_read_exact(p.master, got, 3, sizeof(got), "echo of a NL");
	ATF_CHECK_MSG(memcmp(got, "a\r\n", 3) == 0, "echo was \"%s\", want \"a\\r\\n\"",
		      esc(got, 3));
	tp_pty_close(&p);
}

TP_CASE(kill_discards_line, TP_POSIX,
	"VKILL (^U) discards the whole partial line")
{
	struct tp_pty p;

	canon_open(&p, 0, 0);
	set_cc(p.slave, VKILL, 025);
	tp_write_str(p.master, "abc\025de\n", "master write of abc ^U de");
	EXPECT_LINE(p.slave, "de\n", "line after kill");
	tp_pty_close(&p);
}

TP_CASE(kill_empty_line_does_nothing, TP_POSIX,
	"VKILL on an empty line discards nothing, not even the previous "
	"terminated line")
{
	struct tp_pty p;

	canon_open(&p, 0, 0);
	set_cc(p.slave, VKILL, 025);
	tp_write_str(p.master, "\025ab\n\025\n", "master write of ^U ab NL ^U NL");
	EXPECT_LINE(p.slave, "ab\n", "first line");
	EXPECT_LINE(p.slave, "\n", "empty second line");
	tp_pty_close(&p);
}

TP_CASE(werase_erases_word, TP_LINUX,
	"With IEXTEN, VWERASE (^W) erases the last word and the blanks after "
	"it, keeping the blank before it")
{
	struct tp_pty p;

	canon_open(&p, IEXTEN, 0);
	set_cc(p.slave, VWERASE, 027);
	tp_write_str(p.master, "one two\027three\n", "master write of one two ^W three");
	EXPECT_LINE(p.slave, "one three\n", "line after word erase");
	tp_write_str(p.master, "one two  \027x\n", "master write of one two blanks ^W x");
	EXPECT_LINE(p.slave, "one x\n", "trailing blanks erased with the word");
	tp_pty_close(&p);
}

TP_CASE(werase_stops_at_punctuation, TP_LINUX,
	"Linux VWERASE is ALTWERASE-like: a word is alphanumerics and '_', so "
	"\"path/to_x^W\" leaves \"path/\"")
{
	struct tp_pty p;

	canon_open(&p, IEXTEN, 0);
	set_cc(p.slave, VWERASE, 027);
	tp_write_str(p.master, "path/to_x\027y\n", "master write of path/to_x ^W y");
	EXPECT_LINE(p.slave, "path/y\n", "word erase stopped at '/'");
	tp_pty_close(&p);
}

TP_CASE(werase_needs_iexten, TP_LINUX,
	"With IEXTEN clear, ^W is not an editing character and is stored as "
	"data, while VERASE still works")
{
	struct tp_pty p;

	canon_open(&p, 0, IEXTEN);
	set_cc(p.slave, VWERASE, 027);
	set_cc(p.slave, VERASE, 0177);
	tp_write_str(p.master, "ab\027cd\177\n", "master write of ab ^W cd DEL");
	EXPECT_LINE(p.slave, "ab\027c\n", "^W kept, DEL erased d");
	tp_pty_close(&p);
}

ATF_TP_ADD_TCS(tp)
{
	ATF_TP_ADD_TC(tp, erase_del_removes_previous_char);
	ATF_TP_ADD_TC(tp, erase_ctrl_h_when_configured);
	ATF_TP_ADD_TC(tp, erase_at_line_start_does_nothing);
	ATF_TP_ADD_TC(tp, erase_at_line_start_echoes_nothing);
	ATF_TP_ADD_TC(tp, kill_discards_line);
	ATF_TP_ADD_TC(tp, kill_empty_line_does_nothing);
	ATF_TP_ADD_TC(tp, werase_erases_word);
	ATF_TP_ADD_TC(tp, werase_stops_at_punctuation);
	ATF_TP_ADD_TC(tp, werase_needs_iexten);
	return atf_no_error();
}
