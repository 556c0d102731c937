// SPDX-License-Identifier: GPL-2.0-only
/* t_stopchars.c: XON/XOFF input handling on the slave (n_tty.c
 * n_tty_receive_char_flow_ctrl, n_tty_receive_char_special, IXANY, and
 * n_tty_set_termios restarting output when IXON is cleared): which bytes are
 * flow characters, that they are consumed, and what restarts the output. */
#include <errno.h>
#include <poll.h>
#include <string.h>
#include <sys/ioctl.h>
#include <termios.h>
#include <unistd.h>

#include "ttypot.h"

static void
open_ixon(struct tp_pty *p, tcflag_t iflag)
{
	tp_pty_open(p, TP_RAW);
	tp_iflag(p->slave, IXON | iflag, 0);
}

/* Master writes bytes; the slave reads exactly want (raw slave). */
static void
expect_slave(struct tp_pty *p, const char *want, size_t len, const char *what)
{
	char got[64];

	tp_read_exact(p->slave, got, len, len, what);
	if (memcmp(got, want, len) != 0)
		atf_tc_fail("%s: slave read \"%s\", want \"%s\"", what,
			    tp_esc(got, len), tp_esc(want, len));
	tp_expect_not_readable(p->slave, what);
}

TP_CASE(changed_vstop_vstart_replace_ctrl_s_q, TP_POSIX,
	"With VSTOP = ^X and VSTART = ^Y, ^X stops and ^Y restarts output "
	"(both consumed), while ^S and ^Q are ordinary data that change "
	"nothing")
{
	struct tp_pty p;

	open_ixon(&p, 0);
	tp_set_cc(p.slave, VSTOP, 030);
	tp_set_cc(p.slave, VSTART, 031);
	tp_write_str(p.master, "\023a\021", "^S a ^Q");
	expect_slave(&p, "\023a\021", 3, "^S and ^Q as data");
	ATF_CHECK_MSG(tp_can_write(p.slave), "^S stopped output");
	tp_flow_input(&p, "\030", "^X");
	ATF_CHECK_MSG(!tp_can_write(p.slave), "^X did not stop output");
	tp_flow_input(&p, "\031", "^Y");
	ATF_CHECK_MSG(tp_can_write(p.slave), "^Y did not restart output");
	tp_pty_close(&p);
}

TP_CASE(disabled_vstop_is_not_a_flow_char, TP_POSIX,
	"With VSTOP = _POSIX_VDISABLE (0), neither ^S nor a NUL byte stops "
	"output; both are read as data, and ^Q (VSTART) is still consumed")
{
	struct tp_pty p;

	open_ixon(&p, 0);
	tp_set_cc(p.slave, VSTOP, _POSIX_VDISABLE);
	tp_write_str(p.master, "\023", "^S");
	tp_write_all(p.master, "\0", 1, "NUL");
	tp_write_str(p.master, "\021b", "^Q b");
	expect_slave(&p, "\023\0b", 3, "^S NUL b");
	ATF_CHECK_MSG(tp_can_write(p.slave), "output stopped with VSTOP "
		      "disabled");
	tp_pty_close(&p);
}

TP_CASE(disabled_vstart_leaves_stop_one_way, TP_POSIX,
	"With VSTART = _POSIX_VDISABLE, ^S stops output, ^Q is data and does "
	"not restart it; clearing IXON restarts it")
{
	struct tp_pty p;

	open_ixon(&p, 0);
	tp_set_cc(p.slave, VSTART, _POSIX_VDISABLE);
	tp_flow_input(&p, "\023", "^S");
	ATF_REQUIRE_MSG(!tp_can_write(p.slave), "^S did not stop output");
	tp_write_str(p.master, "\021", "^Q");
	expect_slave(&p, "\021", 1, "^Q as data");
	ATF_CHECK_MSG(!tp_can_write(p.slave), "^Q restarted output with "
		      "VSTART disabled");
	tp_iflag(p.slave, 0, IXON);
	ATF_CHECK_MSG(tp_can_write(p.slave), "clearing IXON did not restart");
	tp_pty_close(&p);
}

TP_CASE(vstop_consumed_in_canonical_line, TP_POSIX,
	"In canonical mode with IXON, ^S and ^Q inside a line stop and "
	"restart output and are removed from the line: \"ab^Scd^Qe\\n\" reads "
	"\"abcde\\n\"")
{
	struct tp_pty p;

	tp_canon_open(&p, 0, 0);
	tp_iflag(p.slave, IXON, 0);
	tp_write_str(p.master, "ab\023cd", "ab ^S cd");
	tp_write_str(p.master, "\n", "newline");
	TP_EXPECT_LINE(p.slave, "abcd\n", "line without ^S");
	ATF_CHECK_MSG(!tp_can_write(p.slave), "^S in a line did not stop "
		      "output");
	tp_write_str(p.master, "\021e\n", "^Q e NL");
	TP_EXPECT_LINE(p.slave, "e\n", "line without ^Q");
	ATF_CHECK_MSG(tp_can_write(p.slave), "^Q in a line did not restart");
	tp_pty_close(&p);
}

TP_CASE(vstop_stops_output_not_input, TP_POSIX,
	"Output stopped by ^S stops only the slave's output: input from the "
	"master is still received and read, and a non-blocking slave write "
	"fails EAGAIN")
{
	struct tp_pty p;

	open_ixon(&p, 0);
	tp_flow_input(&p, "\023", "^S");
	tp_write_str(p.master, "xyz", "input while stopped");
	expect_slave(&p, "xyz", 3, "input while output is stopped");
	tp_set_nonblock(p.slave, true);
	errno = 0;
	ATF_CHECK_MSG(write(p.slave, "w", 1) < 0 && errno == EAGAIN,
		      "non-blocking write while stopped: %s", strerror(errno));
	tp_expect_quiet(p.master, "output while stopped");
	tp_pty_close(&p);
}

TP_CASE(second_vstop_does_not_restart, TP_POSIX,
	"^S on already stopped output keeps it stopped (stop is a state, not "
	"a toggle); with IXANY, the ^Q that restarts it is still consumed, "
	"not read as data")
{
	struct tp_pty p;

	open_ixon(&p, 0);
	tp_flow_input(&p, "\023\023", "^S ^S");
	ATF_CHECK_MSG(!tp_can_write(p.slave), "second ^S restarted output");
	/* IXANY only now: the marker would have restarted the output. */
	tp_iflag(p.slave, IXANY, 0);
	tp_flow_input(&p, "\021", "^Q with IXANY");
	ATF_CHECK_MSG(tp_can_write(p.slave), "^Q did not restart");
	tp_pty_close(&p);
}

TP_CASE(ixany_special_char_restarts_output, TP_POSIX,
	"With IXON|IXANY, a byte that takes the special-character path (a CR "
	"under ICRNL) restarts stopped output like any other byte and is read "
	"once, as NL")
{
	struct tp_pty p;

	open_ixon(&p, ICRNL);
	tp_flow_input(&p, "\023", "^S");
	ATF_REQUIRE_MSG(!tp_can_write(p.slave), "^S did not stop output");
	/* IXANY only now: the marker would have restarted the output. */
	tp_iflag(p.slave, IXANY, 0);
	tp_write_str(p.master, "\r", "CR");
	expect_slave(&p, "\n", 1, "CR read as NL");
	ATF_CHECK_MSG(tp_can_write(p.slave), "CR did not restart output");
	tp_pty_close(&p);
}

TP_CASE(ixany_without_ixon_does_nothing, TP_POSIX,
	"IXANY without IXON: ^S is data and stops nothing, and TCOOFF output "
	"is not restarted by incoming bytes")
{
	struct tp_pty p;
	char c;

	tp_pty_open(&p, TP_RAW);
	tp_iflag(p.slave, IXANY, IXON);
	tp_write_str(p.master, "\023", "^S");
	expect_slave(&p, "\023", 1, "^S as data");
	ATF_CHECK(tp_can_write(p.slave));
	tp_tcflow(p.slave, TCOOFF, "TCOOFF");
	tp_write_str(p.master, "k", "byte");
	tp_read_exact(p.slave, &c, 1, 1, "byte as data");
	ATF_CHECK_MSG(!tp_can_write(p.slave), "IXANY without IXON restarted");
	tp_tcflow(p.slave, TCOON, "TCOON");
	tp_pty_close(&p);
}

TP_CASE(vintr_restarts_stopped_output, TP_LINUX,
	"With IXON and ISIG (no IXANY), a VINTR byte restarts output stopped "
	"by ^S; an ordinary byte does not")
{
	struct tp_pty p;
	char c;

	open_ixon(&p, 0);
	tp_lflag(p.slave, ISIG | NOFLSH, 0);
	tp_flow_input(&p, "\023", "^S");
	tp_write_str(p.master, "k", "ordinary byte");
	tp_read_exact(p.slave, &c, 1, 1, "ordinary byte as data");
	ATF_CHECK_MSG(!tp_can_write(p.slave), "an ordinary byte restarted "
		      "output without IXANY");
	/* No session on this pty: VINTR signals nobody. */
	tp_flow_input(&p, "\003", "^C");
	ATF_CHECK_MSG(tp_can_write(p.slave), "^C did not restart output");
	tp_pty_close(&p);
}

TP_CASE(stop_chars_not_echoed_echo_held, TP_POSIX,
	"With ECHO, ^S and ^Q are not echoed; input echoed while output is "
	"stopped is held and reaches the master after ^Q, exactly once")
{
	struct tp_pty p;
	char got[8];

	open_ixon(&p, 0);
	tp_lflag(p.slave, ECHO | ECHOCTL, 0);
	tp_write_str(p.master, "\023", "^S");
	tp_write_str(p.master, "ab", "input while stopped");
	tp_read_exact(p.slave, got, 2, 2, "input ab");
	ATF_CHECK(memcmp(got, "ab", 2) == 0);
	tp_expect_quiet(p.master, "echo while stopped");
	tp_write_str(p.master, "\021", "^Q");
	tp_read_exact(p.master, got, 2, 2, "held echo after ^Q");
	ATF_CHECK_MSG(memcmp(got, "ab", 2) == 0, "echo was \"%s\", want \"ab\"",
		      tp_esc(got, 2));
	tp_expect_quiet(p.master, "no echo of ^S/^Q, nothing repeated");
	tp_pty_close(&p);
}

TP_CASE(ixoff_full_input_sends_no_vstop, TP_LINUX,
	"A pty has no input throttle: with IXOFF set, filling the slave's "
	"input until master writes fail EAGAIN sends no VSTOP to the master")
{
	struct tp_pty p;
	char buf[512];
	size_t total = 0;

	tp_pty_open(&p, TP_RAW);
	tp_iflag(p.slave, IXOFF, 0);
	tp_set_nonblock(p.master, true);
	memset(buf, 'f', sizeof(buf));
	for (;;) {
		ssize_t n = write(p.master, buf, sizeof(buf));
		if (n < 0 && errno == EAGAIN)
			break;
		ATF_REQUIRE_MSG(n > 0, "master write: %s", strerror(errno));
		total += (size_t)n;
		ATF_REQUIRE_MSG(total < (1u << 20), "1 MiB written and the "
				"master never fills");
	}
	ATF_CHECK_MSG(total >= 4095, "master filled after %zu bytes", total);
	tp_expect_quiet(p.master, "VSTOP sent for a full pty input");
	tp_pty_close(&p);
}

TP_CASE(istrip_high_bit_vstop_stops, TP_POSIX,
	"With IXON and ISTRIP, 0x93 is stripped to ^S before the flow check "
	"and stops output (0x91 restarts it); without ISTRIP 0x93 is data")
{
	struct tp_pty p;
	char got[2];

	open_ixon(&p, 0);
	tp_write_str(p.master, "\223z", "0x93 z without ISTRIP");
	tp_read_exact(p.slave, got, 2, 2, "0x93 z as data");
	ATF_CHECK_MSG((unsigned char)got[0] == 0x93 && got[1] == 'z',
		      "read \"%s\"", tp_esc(got, 2));
	ATF_CHECK_MSG(tp_can_write(p.slave), "0x93 stopped output without "
		      "ISTRIP");
	tp_iflag(p.slave, ISTRIP, 0);
	tp_flow_input(&p, "\223", "0x93 with ISTRIP");
	ATF_CHECK_MSG(!tp_can_write(p.slave), "stripped 0x93 did not stop");
	tp_flow_input(&p, "\221", "0x91 with ISTRIP");
	ATF_CHECK_MSG(tp_can_write(p.slave), "stripped 0x91 did not restart");
	tp_pty_close(&p);
}

TP_CASE(vstart_equal_vstop_only_starts, TP_LINUX,
	"Linux: with VSTART = VSTOP = ^S (POSIX leaves it open), ^S is "
	"consumed and taken as VSTART: it never stops output")
{
	struct tp_pty p;

	open_ixon(&p, 0);
	tp_set_cc(p.slave, VSTART, 023);
	tp_flow_input(&p, "\023", "^S as both");
	ATF_CHECK_MSG(tp_can_write(p.slave), "^S stopped output although it "
		      "is also VSTART");
	tp_pty_close(&p);
}

TP_CASE(ixon_set_through_master_applies_to_slave, TP_LINUX,
	"A pty master has no termios of its own: IXON set with tcsetattr on "
	"the master fd lands on the slave, whose output ^S then stops, while "
	"a ^S written by the slave never stops the master's output")
{
	struct tp_pty p;
	struct termios t;
	char c;

	tp_pty_open(&p, TP_RAW);
	tp_iflag(p.master, IXON, 0);
	tp_tc_get(p.slave, &t);
	ATF_CHECK_MSG(t.c_iflag & IXON, "IXON set on the master fd is not on "
		      "the slave");
	tp_write_str(p.slave, "\023", "slave writes ^S");
	tp_read_exact(p.master, &c, 1, 1, "the ^S as master input");
	ATF_CHECK_MSG(c == '\023', "master read 0x%02x, want ^S", c);
	ATF_CHECK_MSG(tp_can_write(p.master), "slave's ^S stopped the master");
	tp_flow_input(&p, "\023", "master writes ^S");
	ATF_CHECK_MSG(!tp_can_write(p.slave), "^S did not stop the slave");
	tp_pty_close(&p);
}

ATF_TP_ADD_TCS(tp)
{
	ATF_TP_ADD_TC(tp, changed_vstop_vstart_replace_ctrl_s_q);
	ATF_TP_ADD_TC(tp, disabled_vstop_is_not_a_flow_char);
	ATF_TP_ADD_TC(tp, disabled_vstart_leaves_stop_one_way);
	ATF_TP_ADD_TC(tp, vstop_consumed_in_canonical_line);
	ATF_TP_ADD_TC(tp, vstop_stops_output_not_input);
	ATF_TP_ADD_TC(tp, second_vstop_does_not_restart);
	ATF_TP_ADD_TC(tp, ixany_special_char_restarts_output);
	ATF_TP_ADD_TC(tp, ixany_without_ixon_does_nothing);
	ATF_TP_ADD_TC(tp, vintr_restarts_stopped_output);
	ATF_TP_ADD_TC(tp, stop_chars_not_echoed_echo_held);
	ATF_TP_ADD_TC(tp, ixoff_full_input_sends_no_vstop);
	ATF_TP_ADD_TC(tp, istrip_high_bit_vstop_stops);
	ATF_TP_ADD_TC(tp, vstart_equal_vstop_only_starts);
	ATF_TP_ADD_TC(tp, ixon_set_through_master_applies_to_slave);
	return atf_no_error();
}
