// SPDX-License-Identifier: GPL-2.0-only
/* t_echo_then_write.c: an echo and the program's next write share the
 * output, and each reaches the master once: the write finds the echoes it
 * must send first (held ones) already sent, and sends only its own bytes,
 * whatever kind of character the echo ended with.  n_tty keeps its echoes
 * in a ring and marks how far they are committed; a write starts by sending
 * the committed, unsent part. */
#include <stdio.h>
#include <string.h>
#include <termios.h>

#include "tp_echo.h"

/* The input ends in one kind of character; its echo, and what the program
 * then reads. */
struct ending {
	const char *in, *echo, *stored;
	size_t inlen, echolen, storedlen;
	const char *what;
};

#define ENDING(in, echo, stored, what)                                         \
	{ in, echo, stored, sizeof(in) - 1, sizeof(echo) - 1,                   \
	  sizeof(stored) - 1, what }

/* The master sends e->in and reads its echo, the program reads what was
 * stored and writes "ok": the master reads exactly "ok". */
static void
echo_then_write(struct tp_pty *p, const struct ending *e)
{
	char what[120];

	snprintf(what, sizeof(what), "echo of input ending in %s", e->what);
	tp_echo_expect(p->master, e->in, e->inlen, e->echo, e->echolen, what);
	snprintf(what, sizeof(what), "the program's read of input ending in %s",
		 e->what);
	tp_expect_bytes(p->slave, e->stored, e->storedlen, what);
	snprintf(what, sizeof(what), "the program's write after the echo of %s",
		 e->what);
	tp_write_str(p->slave, "ok", what);
	tp_expect_bytes(p->master, "ok", 2, what);
}

/* echo_then_write for each of n endings, then a last echo: a stray byte
 * left by the last write would come before z's echo.  Outside canonical
 * mode the z is read back, so that the next story starts empty. */
static void
each_ending(struct tp_pty *p, const struct ending *e, size_t n)
{
	struct termios t;

	for (size_t i = 0; i < n; i++)
		echo_then_write(p, &e[i]);
	TP_ECHO(p->master, "z", "z", "echo of z after the last write");
	tp_tc_get(p->slave, &t);
	if (!(t.c_lflag & ICANON))
		TP_EXPECT_BYTES(p->slave, "z", "the z read back");
}

#define EACH_ENDING(p, arr) each_ending((p), (arr), sizeof(arr) / sizeof((arr)[0]))

TP_CASE(noncanon_write_after_echo_sends_only_its_bytes, TP_LINUX,
	"Non-canonical with ECHO|ECHOCTL, ICRNL and OPOST|ONLCR: after the "
	"echo of input that ends in a letter, a CR read as NL (ICRNL), a NL "
	"read as CR (INLCR), a control character (^A) or a NUL (both echoed "
	"as ^X), the program's next write of \"ok\" reaches the master as "
	"exactly \"ok\": no echo sent twice, nothing stale before it")
{
	static const struct ending endings[] = {
		ENDING("a", "a", "a", "a letter"),
		ENDING("b\r", "b\r\n", "b\n", "CR under ICRNL"),
		ENDING("c\001", "c^A", "c\001", "^A"),
		ENDING("d\0", "d^@", "d\0", "NUL"),
		ENDING("e\r\r", "e\r\n\r\n", "e\n\n", "two CRs under ICRNL"),
	};
	static const struct ending inlcr[] = {
		ENDING("f\n", "f^M", "f\r", "NL under INLCR"),
	};
	struct tp_pty p;

	tp_echo_open(&p, ICRNL, OPOST | ONLCR, ECHO | ECHOCTL);
	EACH_ENDING(&p, endings);
	tp_iflag(p.slave, INLCR, ICRNL);
	EACH_ENDING(&p, inlcr);
	tp_pty_close(&p);
}

TP_CASE(canon_write_after_echo_sends_only_its_bytes, TP_LINUX,
	"Canonical with ECHO|ECHOCTL and OPOST|ONLCR: after the echo of a "
	"line ended by NL, by VEOL (^A, echoed as ^A) and by VEOF (not "
	"echoed), the program's next write of \"ok\" reaches the master as "
	"exactly \"ok\"")
{
	static const struct ending endings[] = {
		ENDING("ab\n", "ab\r\n", "ab\n", "NL"),
		ENDING("cd\001", "cd^A", "cd\001", "VEOL"),
		ENDING("ef\004", "ef", "ef", "VEOF"),
	};
	struct tp_pty p;

	tp_echo_open(&p, 0, OPOST | ONLCR, ICANON | ECHO | ECHOCTL);
	tp_set_cc(p.slave, VEOL, 001);
	tp_set_cc(p.slave, VEOF, 004);
	EACH_ENDING(&p, endings);
	tp_pty_close(&p);
}

ATF_TP_ADD_TCS(tp)
{
	ATF_TP_ADD_TC(tp, noncanon_write_after_echo_sends_only_its_bytes);
	ATF_TP_ADD_TC(tp, canon_write_after_echo_sends_only_its_bytes);
	return atf_no_error();
}
