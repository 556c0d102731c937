// SPDX-License-Identifier: GPL-2.0-only
/* t_vmin_vtime.c: regressions.md #27 (characterisation; mutation site: the
 * VTIME timeout computed without the /10): the catalogue recipe for the
 * three VMIN/VTIME cases on a raw slave.  Time bounds allow slow TCG guests
 * but catch a factor of 10. */
#include <errno.h>
#include <poll.h>
#include <string.h>
#include <sys/syscall.h>
#include <termios.h>
#include <unistd.h>

#include "ttypot.h"

TP_CASE_COMMITS(vmin0_vtime0_returns_at_once, TP_POSIX, "-",
		"- (characterisation)",
		"#27: VMIN=0 VTIME=0 on an empty raw slave: read returns 0 at "
		"once (under 1 s, where a wait would be unbounded)")
{
	struct tp_pty p;
	struct tp_rd_result res;

	tp_noncanon_open(&p, 0, 0);
	tp_timed_read(p.slave, 8, &res, "VMIN=0 VTIME=0 read");
	ATF_CHECK_MSG(res.n == 0, "read returned %zd (%s)", res.n,
		      res.n < 0 ? strerror(res.err) : "data");
	ATF_CHECK_MSG(res.ms < 1000, "read took %lld ms", res.ms);
	tp_pty_close(&p);
}

TP_CASE_COMMITS(vmin0_vtime3_times_out_near_300ms, TP_POSIX, "-",
		"- (characterisation)",
		"#27: VMIN=0 VTIME=3 on an empty raw slave: read returns 0 after "
		"about 0.3 s (accepted 0.25 s to 2.5 s; 10x would be 3 s)")
{
	struct tp_pty p;
	struct tp_rd_result res;

	tp_noncanon_open(&p, 0, 3);
	tp_timed_read(p.slave, 8, &res, "VMIN=0 VTIME=3 read");
	ATF_CHECK_MSG(res.n == 0, "read returned %zd (%s)", res.n,
		      res.n < 0 ? strerror(res.err) : "data");
	ATF_CHECK_MSG(res.ms >= 250 && res.ms < 2500,
		      "read took %lld ms, want about 300", res.ms);
	tp_pty_close(&p);
}

TP_CASE_COMMITS(vmin5_waits_for_all_five, TP_POSIX, "-",
		"- (characterisation)",
		"#27: VMIN=5 VTIME=0: a reader asleep on the raw slave stays "
		"asleep after \"abc\" arrives and returns \"abcde\" in one read "
		"once \"de\" follows")
{
	struct tp_pty p;
	struct tp_reader r;
	struct tp_rd_result res;

	tp_noncanon_open(&p, 5, 0);
	tp_reader_start(&r, p.slave, 16);
	tp_wait_blocked_fd(r.child.pid, SYS_read, p.slave, "reader asleep");
	tp_write_str(p.master, "abc", "abc");
	/* No FIONREAD wait: a sleeping reader may already hold "abc" (6.1
	 * copies as bytes arrive), so FIONREAD can stay 0. */
	tp_expect_quiet(r.pipe[0], "read returned with 3 of VMIN=5 bytes");
	tp_write_str(p.master, "de", "de");
	tp_reader_result(&r, &res, "reader after de");
	tp_rd_check(&res, "abcde", 5, "one read of 5");
	tp_pty_close(&p);
}

ATF_TP_ADD_TCS(tp)
{
	ATF_TP_ADD_TC(tp, vmin0_vtime0_returns_at_once);
	ATF_TP_ADD_TC(tp, vmin0_vtime3_times_out_near_300ms);
	ATF_TP_ADD_TC(tp, vmin5_waits_for_all_five);
	return atf_no_error();
}
