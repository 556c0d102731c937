// SPDX-License-Identifier: GPL-2.0-only
/* t_drain_flush.c: regressions.md #29 (characterisation): a pty has no
 * transmit queue, so tcdrain on the slave returns at once and TIOCOUTQ is 0
 * with output unread by the master; TCSAFLUSH discards unread input.  The
 * catalogue recipe as one story; ioctl/t_queue.c checks each piece. */
#include <errno.h>
#include <string.h>
#include <sys/ioctl.h>
#include <termios.h>
#include <unistd.h>

#include "ttypot.h"

static int
drain(void *arg)
{
	int fd = *(int *)arg;
	long long t0 = tp_now_ms();
	if (tcdrain(fd) != 0)
		return tp_child_fail("tcdrain: %s", strerror(errno));
	if (tp_now_ms() - t0 > 2000)
		return tp_child_fail("tcdrain took %lld ms", tp_now_ms() - t0);
	return 0;
}

TP_CASE_COMMITS(drain_and_tcsaflush_story, TP_LINUX, "-",
		"- (characterisation)",
		"#29: the raw slave writes 3000 bytes the master never reads: "
		"tcdrain(slave) returns at once and TIOCOUTQ(slave) is 0; the "
		"master writes \"pending\\n\", tcsetattr(slave, TCSAFLUSH) leaves "
		"FIONREAD(slave) 0")
{
	static char out[3000];
	struct tp_pty p;
	struct tp_child c;
	struct termios t;
	int q = -1;

	tp_pty_open(&p, TP_RAW);
	memset(out, 'o', sizeof(out));
	tp_write_all(p.slave, out, sizeof(out), "3000 bytes never read");
	tp_child_start(&c, drain, &p.slave);
	tp_child_join(&c, TP_WAIT_MS, "tcdrain with unread output");
	ATF_REQUIRE(ioctl(p.slave, TIOCOUTQ, &q) == 0);
	ATF_CHECK_EQ_MSG(q, 0, "TIOCOUTQ(slave) = %d", q);
	tp_write_str(p.master, "pending\n", "pending NL");
	tp_wait_fionread(p.slave, 8, TP_WAIT_MS, "pending input");
	tp_tc_get(p.slave, &t);
	ATF_REQUIRE(tcsetattr(p.slave, TCSAFLUSH, &t) == 0);
	ATF_CHECK_EQ_MSG(tp_fionread(p.slave), 0, "input left after "
			 "TCSAFLUSH");
	tp_pty_close(&p);
}

ATF_TP_ADD_TCS(tp)
{
	ATF_TP_ADD_TC(tp, drain_and_tcsaflush_story);
	return atf_no_error();
}
