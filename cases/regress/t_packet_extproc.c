// SPDX-License-Identifier: GPL-2.0-only
/* t_packet_extproc.c: regressions.md #26: packet mode and EXTPROC
 * (26df6d13406d, 2.6.36): the catalogue recipe as one story on one pair,
 * each status read as the single byte the ioctl or termios change posts.
 * packet/t_extproc.c and packet/t_pkt_*.c check each rule on its own. */
#include <string.h>
#include <sys/ioctl.h>
#include <termios.h>
#include <unistd.h>

#include "ttypot.h"

TP_CASE_COMMITS(packet_status_story, TP_LINUX, "26df6d13406d",
		"- (behaviour)",
		"#26: TIOCPKT on the master; the slave sets EXTPROC -> 0x40; "
		"tcflush(slave, TCOFLUSH) -> 0x02; TCOOFF/TCOON -> 0x04/0x08; with "
		"EXTPROC+ICANON \"ab\\177c\\n\" reaches the slave unedited")
{
	struct tp_pty p;
	char got[8];

	tp_pkt_open(&p, TP_COOKED);
	tp_lflag(p.slave, EXTPROC, ECHO);
	/* ECHO cleared in the same call: one change, one status byte. */
	tp_pkt_expect_status(p.master, TIOCPKT_IOCTL, "after setting EXTPROC");
	ATF_REQUIRE(tcflush(p.slave, TCOFLUSH) == 0);
	tp_pkt_expect_status(p.master, TIOCPKT_FLUSHWRITE, "after TCOFLUSH");
	tp_tcflow(p.slave, TCOOFF, "TCOOFF");
	tp_pkt_expect_status(p.master, TIOCPKT_STOP, "after TCOOFF");
	tp_tcflow(p.slave, TCOON, "TCOON");
	tp_pkt_expect_status(p.master, TIOCPKT_START, "after TCOON");
	tp_write_str(p.master, "ab\177c\n", "ab DEL c NL");
	tp_set_nonblock(p.slave, true);
	tp_wait_fionread(p.slave, 5, TP_WAIT_MS, "the unedited line");
	ssize_t n = read(p.slave, got, sizeof(got));
	ATF_CHECK_MSG(n == 5 && memcmp(got, "ab\177c\n", 5) == 0,
		      "slave read \"%s\", want \"ab\\x7fc\\n\"",
		      tp_esc(got, n > 0 ? (size_t)n : 0));
	tp_pty_close(&p);
}

ATF_TP_ADD_TCS(tp)
{
	ATF_TP_ADD_TC(tp, packet_status_story);
	return atf_no_error();
}
