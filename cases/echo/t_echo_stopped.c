// SPDX-License-Identifier: GPL-2.0-only
/* t_echo_stopped.c: echo of input that arrives while output is stopped is
 * held, and released when output starts again. */
#include <poll.h>
#include <string.h>
#include <termios.h>

#include "tp_echo.h"

/* Input reached the slave (non-canonical: FIONREAD counts it), so its echo
 * was generated; it must not have reached the master. */
static void
expect_echo_held(struct tp_pty *p, int queued, const char *what)
{
	tp_wait_fionread(p->slave, queued, TP_WAIT_MS, what);
	tp_expect_quiet(p->master, what);
}

TP_CASE(echo_held_by_vstop_released_by_vstart, TP_POSIX,
	"With IXON, after VSTOP the echo of further input is held (the "
	"input itself reaches the slave); VSTART releases it, in order, and "
	"neither STOP nor START is echoed")
{
	struct tp_pty p;

	tp_echo_open(&p, IXON, OPOST | ONLCR, ECHO | ECHOCTL);
	tp_write_str(p.master, "\023abc", "master write of ^S abc");
	expect_echo_held(&p, 3, "echo of abc while stopped");
	TP_ECHO(p.master, "\021z", "abcz", "echo after ^Q z");
	tp_pty_close(&p);
}

/* Output stopped: the slave stops being writable (the pty has no room). */
static void
wait_slave_stopped(struct tp_pty *p, const char *what)
{
	long long deadline = tp_now_ms() + TP_WAIT_MS;
	int step = 0;

	tp_waiting_for(what);
	while (tp_poll1(p->slave, POLLOUT, 0) & POLLOUT) {
		if (tp_now_ms() > deadline)
			atf_tc_fail("%s: slave still writable after %d ms", what,
				    TP_WAIT_MS);
		tp_backoff(&step);
	}
}

TP_CASE(ixany_char_after_vstop_restarts_and_is_echoed, TP_POSIX,
	"With IXON|IXANY, once VSTOP has stopped output (the slave is no "
	"longer writable) any input character restarts it: the slave is "
	"writable again and the character is echoed")
{
	struct tp_pty p;

	tp_echo_open(&p, IXON | IXANY, OPOST | ONLCR, ECHO | ECHOCTL);
	tp_write_str(p.master, "\023", "master write of ^S");
	wait_slave_stopped(&p, "output stopped by ^S");
	TP_ECHO(p.master, "x", "x", "echo of x, which restarts output");
	ATF_CHECK_MSG(tp_poll1(p.slave, POLLOUT, TP_WAIT_MS) & POLLOUT,
		      "slave not writable after the IXANY restart");
	tp_pty_close(&p);
}

TP_CASE(echo_held_by_tcooff_not_released_by_vstart, TP_POSIX,
	"After tcflow(TCOOFF) echo is held, and neither VSTART nor an IXANY "
	"character restarts output; after tcflow(TCOON) the next input "
	"flushes the held echo in order")
{
	struct tp_pty p;

	tp_echo_open(&p, IXON | IXANY, OPOST | ONLCR, ECHO | ECHOCTL);
	ATF_REQUIRE(tcflow(p.slave, TCOOFF) == 0);
	tp_write_str(p.master, "ab\021c", "master write of ab ^Q c");
	expect_echo_held(&p, 3, "echo held: ^Q and c do not undo TCOOFF");
	ATF_REQUIRE(tcflow(p.slave, TCOON) == 0);
	TP_ECHO(p.master, "z", "abcz", "echo after TCOON and z");
	tp_pty_close(&p);
}

TP_CASE(echo_held_in_canonical_mode_released_by_vstart, TP_POSIX,
	"Canonical mode: the echo of a line typed while stopped (VSTOP) is "
	"held while the line is already readable, and VSTART releases it")
{
	struct tp_pty p;

	tp_echo_open(&p, IXON, OPOST | ONLCR, ICANON | ECHO | ECHOCTL);
	tp_write_str(p.master, "\023hi\n", "master write of ^S hi NL");
	expect_echo_held(&p, 3, "echo of hi NL while stopped");
	TP_ECHO(p.master, "\021", "hi\r\n", "echo after ^Q");
	TP_EXPECT_LINE(p.slave, "hi\n", "the line");
	tp_pty_close(&p);
}

TP_CASE(clearing_ixon_restarts_output_stopped_by_vstop, TP_LINUX,
	"Output stopped by VSTOP is restarted when IXON is cleared: the held "
	"echo comes out at once and the slave is writable again; after "
	"TCOOFF, clearing IXON restarts nothing")
{
	struct tp_pty p;

	tp_echo_open(&p, IXON, OPOST | ONLCR, ECHO | ECHOCTL);
	tp_write_str(p.master, "\023ab", "master write of ^S ab");
	expect_echo_held(&p, 2, "echo of ab while stopped");
	tp_iflag(p.slave, 0, IXON);
	tp_echo_expect_out(p.master, "ab", 2, "echo released by clearing IXON");
	ATF_CHECK_MSG(tp_poll1(p.slave, POLLOUT, TP_WAIT_MS) & POLLOUT,
		      "slave not writable after IXON was cleared");
	tp_iflag(p.slave, IXON, 0);
	ATF_REQUIRE(tcflow(p.slave, TCOOFF) == 0);
	tp_iflag(p.slave, 0, IXON);
	ATF_CHECK_MSG(!(tp_poll1(p.slave, POLLOUT, 0) & POLLOUT),
		      "clearing IXON undid TCOOFF");
	ATF_REQUIRE(tcflow(p.slave, TCOON) == 0);
	tp_pty_close(&p);
}

/* More input than n_tty's 4096-byte echo buffer holds. */
#define FLOOD 6000
#define FLOOD_CHUNK 1000
#define ECHO_BUF 4096

TP_CASE(echo_held_past_its_buffer_keeps_the_newest, TP_LINUX,
	"With output stopped by VSTOP, 6000 bytes of non-canonical input all "
	"reach the reader in order while their echo is held; n_tty holds at "
	"most its 4096-byte echo buffer and drops the oldest echoes, so after "
	"VSTART the master reads the echo of the newest input only (a suffix "
	"of the input, shorter than it and at most 4096 bytes), then the echo "
	"of later input")
{
	struct tp_pty p;
	static char in[FLOOD], got[FLOOD], want[ECHO_BUF + 1], echo[ECHO_BUF + 1];

	tp_echo_open(&p, IXON, 0, ECHO);
	tp_pattern(in, sizeof(in), 31);
	for (size_t i = 0; i < sizeof(in); i++)
		in[i] = (char)('a' + (unsigned char)in[i] % 25); /* a-y: no Z */
	tp_write_str(p.master, "\023", "^S");
	for (size_t off = 0; off < sizeof(in); off += FLOOD_CHUNK) {
		tp_write_all(p.master, in + off, FLOOD_CHUNK, "1000 bytes of input "
			     "while output is stopped");
		tp_read_exact(p.slave, got + off, FLOOD_CHUNK, FLOOD_CHUNK,
			      "those 1000 bytes on the slave");
	}
	ATF_CHECK_MSG(memcmp(got, in, sizeof(in)) == 0, "the slave read the "
		      "input out of order or changed");
	memcpy(want, in + sizeof(in) - ECHO_BUF, ECHO_BUF);
	want[ECHO_BUF] = 'Z';
	tp_write_str(p.master, "\021Z", "^Q Z");
	size_t n = tp_echo_collect(p.master, want, sizeof(want), echo, sizeof(echo),
				   "the held echo and Z's after ^Q");
	ATF_REQUIRE_MSG(n > 1 && echo[n - 1] == 'Z', "the echo after ^Q (%zu "
			"bytes) does not end with Z's", n);
	size_t kept = n - 1;
	ATF_CHECK_MSG(memcmp(echo, in + sizeof(in) - kept, kept) == 0,
		      "the %zu echoed bytes before Z are not the newest input", kept);
	ATF_CHECK_MSG(kept < sizeof(in), "all %zu bytes were echoed: nothing "
		      "dropped from a 4096-byte echo buffer", kept);
	tp_pty_close(&p);
}

ATF_TP_ADD_TCS(tp)
{
	ATF_TP_ADD_TC(tp, echo_held_by_vstop_released_by_vstart);
	ATF_TP_ADD_TC(tp, ixany_char_after_vstop_restarts_and_is_echoed);
	ATF_TP_ADD_TC(tp, echo_held_by_tcooff_not_released_by_vstart);
	ATF_TP_ADD_TC(tp, echo_held_in_canonical_mode_released_by_vstart);
	ATF_TP_ADD_TC(tp, clearing_ixon_restarts_output_stopped_by_vstop);
	ATF_TP_ADD_TC(tp, echo_held_past_its_buffer_keeps_the_newest);
	return atf_no_error();
}
