// SPDX-License-Identifier: GPL-2.0-only
/* t_read_cap.c: regressions.md #10: the 5.11 n_tty read rework
 * (3b830a9c34d5) returned at most 64 bytes per read until 15ea8ae8e03f,
 * d7fe75cbc23c, e71a8d5cf4b4.  pty/t_overread.c checks the catalogue's
 * master side; the cap was in n_tty_read, so here the slave side. */
#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "ttypot.h"

#define N 4000

TP_CASE_COMMITS(slave_read_not_capped_at_64, TP_LINUX, "3b830a9c34d5",
		"15ea8ae8e03f d7fe75cbc23c e71a8d5cf4b4",
		"#10 on the slave: the master writes 4000 bytes to a raw slave; "
		"after FIONREAD(slave) = 4000, one read(slave, 8192) returns "
		"all 4000")
{
	static char out[N], buf[8192];
	struct tp_pty p;

	tp_pty_open(&p, TP_RAW);
	tp_pattern(out, N, 10);
	tp_write_all(p.master, out, N, "master write of 4000 bytes");
	ATF_REQUIRE_EQ(tp_wait_fionread(p.slave, N, TP_WAIT_MS, "4000 queued"),
		       N);
	ssize_t n = read(p.slave, buf, sizeof(buf));
	ATF_CHECK_MSG(n == N, "one read returned %zd of 4000 (%s)", n,
		      n < 0 ? strerror(errno) : "bytes");
	ATF_CHECK(n > 0 && tp_pattern_check(buf, (size_t)n, 10) < 0);
	tp_pty_close(&p);
}

ATF_TP_ADD_TCS(tp)
{
	ATF_TP_ADD_TC(tp, slave_read_not_capped_at_64);
	return atf_no_error();
}
