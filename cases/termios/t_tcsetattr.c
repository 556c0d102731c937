// SPDX-License-Identifier: GPL-2.0-only
/* t_tcsetattr.c: what TCSANOW, TCSADRAIN and TCSAFLUSH do to queued input
 * and output, when a termios change takes effect, and that termios
 * requests on the master act on the slave's termios. */
#include <errno.h>
#include <string.h>
#include <sys/ioctl.h>
#include <termios.h>
#include <unistd.h>

#include "tp_echo.h"

static void
set_with(int fd, int action, const struct termios *t, const char *what)
{
	if (tcsetattr(fd, action, t) != 0)
		atf_tc_fail("%s: tcsetattr: %s", what, strerror(errno));
}

TP_CASE(tcsanow_and_tcsadrain_keep_queued_input, TP_POSIX,
	"tcsetattr with TCSANOW and with TCSADRAIN leaves unread input in "
	"place: FIONREAD is unchanged and the bytes are read after")
{
	struct tp_pty p;
	struct termios t;
	char got[8];

	tp_noncanon_open(&p, 1, 0);
	tp_write_str(p.master, "abc", "master write of abc");
	tp_wait_fionread(p.slave, 3, TP_WAIT_MS, "abc on the slave");
	tp_tc_get(p.slave, &t);
	t.c_cc[VMIN] = 2;
	set_with(p.slave, TCSANOW, &t, "TCSANOW");
	ATF_CHECK_EQ_MSG(tp_fionread(p.slave), 3, "FIONREAD after TCSANOW");
	t.c_cc[VMIN] = 1;
	set_with(p.slave, TCSADRAIN, &t, "TCSADRAIN");
	ATF_CHECK_EQ_MSG(tp_fionread(p.slave), 3, "FIONREAD after TCSADRAIN");
	tp_read_exact(p.slave, got, 3, sizeof(got), "slave read of abc");
	ATF_CHECK(memcmp(got, "abc", 3) == 0);
	tp_pty_close(&p);
}

TP_CASE(tcsaflush_discards_lines_and_partial_line, TP_POSIX,
	"Canonical: tcsetattr(TCSAFLUSH) discards a complete unread line and "
	"the partial line after it; the next line is read alone")
{
	struct tp_pty p;
	struct termios t;

	tp_echo_open(&p, 0, 0, ICANON);
	tp_write_str(p.master, "xy\nab", "master write of xy NL ab");
	tp_wait_fionread(p.slave, 3, TP_WAIT_MS, "line xy on the slave");
	tp_tc_get(p.slave, &t);
	set_with(p.slave, TCSAFLUSH, &t, "TCSAFLUSH");
	ATF_CHECK_EQ_MSG(tp_fionread(p.slave), 0, "FIONREAD after TCSAFLUSH");
	tp_write_str(p.master, "c\n", "master write of c NL");
	TP_EXPECT_LINE(p.slave, "c\n", "line after the flush (no \"ab\")");
	tp_pty_close(&p);
}

TP_CASE(tcsaflush_keeps_output_already_written, TP_LINUX,
	"tcsetattr(TCSAFLUSH) on the slave does not discard what the slave "
	"already wrote: a pty has no output queue, the master reads it all")
{
	struct tp_pty p;
	struct termios t;

	tp_noncanon_open(&p, 1, 0);
	tp_write_str(p.slave, "out", "slave write of out");
	tp_wait_fionread(p.master, 3, TP_WAIT_MS, "out on the master");
	tp_tc_get(p.slave, &t);
	set_with(p.slave, TCSAFLUSH, &t, "TCSAFLUSH");
	tp_write_str(p.slave, "#", "slave write of the sentinel");
	tp_echo_expect_out(p.master, "out#", 4, "master read after TCSAFLUSH");
	tp_pty_close(&p);
}

TP_CASE(termios_change_applies_to_later_input_only, TP_POSIX,
	"Input is processed when it arrives: a CR received under ICRNL stays "
	"NL after ICRNL is cleared, and a CR received after is read as CR")
{
	struct tp_pty p;

	tp_echo_open(&p, ICRNL, 0, 0);
	tp_write_str(p.master, "a\r", "master write of a CR");
	tp_wait_fionread(p.slave, 2, TP_WAIT_MS, "a CR on the slave");
	tp_iflag(p.slave, 0, ICRNL);
	tp_write_str(p.master, "\rz", "master write of CR z");
	tp_echo_expect_out(p.slave, "a\n\rz", 4, "slave read");
	tp_pty_close(&p);
}

TP_CASE(master_termios_requests_act_on_slave, TP_LINUX,
	"tcgetattr and tcsetattr on the master read and change the slave's "
	"termios: clearing ECHO through the master stops the slave echoing")
{
	struct tp_pty p;
	struct termios t, s;

	tp_echo_open(&p, 0, OPOST | ONLCR, ICANON | ECHO);
	tp_tc_get(p.master, &t);
	ATF_CHECK_MSG(t.c_lflag & ECHO, "master tcgetattr lacks the slave's "
		      "ECHO");
	t.c_lflag &= ~(tcflag_t)ECHO;
	t.c_cc[VERASE] = 010;
	tp_tc_set(p.master, &t);
	tp_tc_get(p.slave, &s);
	ATF_CHECK_MSG(!(s.c_lflag & ECHO), "slave still has ECHO");
	ATF_CHECK_EQ_MSG(s.c_cc[VERASE], 010, "slave VERASE %#o", s.c_cc[VERASE]);
	tp_write_str(p.master, "ab\bc\n", "master write of ab ^H c NL");
	TP_EXPECT_LINE(p.slave, "ac\n", "line edited with the new VERASE");
	tp_expect_quiet(p.master, "echo after ECHO was cleared");
	tp_pty_close(&p);
}

ATF_TP_ADD_TCS(tp)
{
	ATF_TP_ADD_TC(tp, tcsanow_and_tcsadrain_keep_queued_input);
	ATF_TP_ADD_TC(tp, tcsaflush_discards_lines_and_partial_line);
	ATF_TP_ADD_TC(tp, tcsaflush_keeps_output_already_written);
	ATF_TP_ADD_TC(tp, termios_change_applies_to_later_input_only);
	ATF_TP_ADD_TC(tp, master_termios_requests_act_on_slave);
	return atf_no_error();
}
