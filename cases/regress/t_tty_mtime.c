// SPDX-License-Identifier: GPL-2.0-only
/* t_tty_mtime.c: regressions.md #23: since 360c11e2258c (6.5) a write
 * through /dev/tty updates the times of every file open on the tty, so the
 * pts node's mtime moves (at 8 s granularity); before, only /dev/tty's own
 * inode did.  6.1 keeps the old behaviour: the difference is recorded as an
 * expectation (fixtures/expect), not hidden here. */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "ttypot.h"

#define OLD_AGE_S 1000000

static int
write_via_dev_tty(void *arg)
{
	const char *name = arg;

	if (setsid() < 0)
		return tp_child_fail("setsid: %s", strerror(errno));
	/* Opening the slave without O_NOCTTY makes it our ctty. */
	int s = open(name, O_RDWR);
	if (s < 0)
		return tp_child_fail("open %s: %s", name, strerror(errno));
	int t = open("/dev/tty", O_RDWR | O_NOCTTY);
	if (t < 0)
		return tp_child_fail("open /dev/tty: %s", strerror(errno));
	if (write(t, "x", 1) != 1)
		return tp_child_fail("write to /dev/tty: %s", strerror(errno));
	return 0;
}

TP_CASE_COMMITS(dev_tty_write_updates_pts_mtime, TP_LINUX, "-",
		"360c11e2258c (6.5, behaviour change)",
		"#23: a session leader opens the slave as its ctty; its pts "
		"node's mtime is set 1e6 s back; a write through /dev/tty makes "
		"the node's mtime recent again (6.5+; 6.1 leaves it)")
{
	struct tp_pty p;
	struct tp_child c;
	struct stat st;

	tp_pty_open(&p, TP_RAW);
	time_t old = time(NULL) - OLD_AGE_S;
	struct timespec ts[2] = { { .tv_sec = old }, { .tv_sec = old } };
	ATF_REQUIRE_MSG(utimensat(AT_FDCWD, p.name, ts, 0) == 0,
			"utimensat %s: %s", p.name, strerror(errno));
	tp_child_start(&c, write_via_dev_tty, p.name);
	tp_child_join(&c, TP_WAIT_MS, "writer through /dev/tty");
	tp_wait_fionread(p.master, 1, TP_WAIT_MS, "the byte on the master");
	ATF_REQUIRE(stat(p.name, &st) == 0);
	long age = (long)(time(NULL) - st.st_mtim.tv_sec);
	ATF_CHECK_MSG(age >= -16 && age < 60, "pts mtime is %ld s old after "
		      "a /dev/tty write, want recent (8 s granularity)", age);
	tp_pty_close(&p);
}

ATF_TP_ADD_TCS(tp)
{
	ATF_TP_ADD_TC(tp, dev_tty_write_updates_pts_mtime);
	return atf_no_error();
}
