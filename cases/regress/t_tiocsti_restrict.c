// SPDX-License-Identifier: GPL-2.0-only
/* t_tiocsti_restrict.c: regressions.md #19: dev.tty.legacy_tiocsti (6.2,
 * 83efeeeb3d04/f1aa2eb5ea05) makes unprivileged TIOCSTI fail EIO when 0;
 * CAP_SYS_ADMIN always passes since 690c8b804ad2 (6.5).  ioctl/t_tiocsti.c
 * checks each rule; here the catalogue recipe as one story whose injected
 * bytes are read back in order.  A kernel without the sysctl (6.1) is
 * checked for what it does: unrestricted TIOCSTI on the own ctty.  The
 * program is exclusive (Kyuafile): the sysctl is global. */
#include <errno.h>
#include <poll.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "ttypot.h"

#define SYSCTL_PATH "/proc/sys/dev/tty/legacy_tiocsti"

struct story {
	int slave;
	bool root_first; /* TIOCSTI 'r' as root before dropping */
	int unpriv_err;  /* expected errno of the unprivileged 'u', 0: works */
};

static int
sti_story(void *arg)
{
	struct story *s = arg;
	int rc = tp_child_take_ctty(s->slave);
	if (rc)
		return rc;
	if (s->root_first && ioctl(s->slave, TIOCSTI, "r") != 0)
		return tp_child_fail("TIOCSTI with CAP_SYS_ADMIN: %s",
				     strerror(errno));
	if ((rc = tp_child_drop_to_nobody()))
		return rc;
	int r = ioctl(s->slave, TIOCSTI, "u");
	int e = r < 0 ? errno : 0;
	if (e != s->unpriv_err)
		return tp_child_fail("unprivileged TIOCSTI on the own ctty: %s, "
				     "want %s", e ? strerror(e) : "success",
				     s->unpriv_err ? strerror(s->unpriv_err)
						   : "success");
	return 0;
}

static void
run_story(struct story *s, const char *want, size_t len, const char *what)
{
	struct tp_pty p;
	struct tp_child c;

	tp_pty_open(&p, TP_RAW);
	s->slave = p.slave;
	tp_child_start(&c, sti_story, s);
	tp_child_join(&c, TP_WAIT_MS, what);
	if (len)
		tp_expect_read(p.slave, want, len, what);
	tp_set_nonblock(p.slave, true);
	tp_expect_not_readable(p.slave, "no other injected byte");
	tp_pty_close(&p);
}

TP_CASE_META(tiocsti_sysctl_story, TP_LINUX,
	     "#19 (root): legacy_tiocsti=0: TIOCSTI on the own ctty works "
	     "with CAP_SYS_ADMIN and fails EIO without; legacy_tiocsti=1: "
	     "unprivileged works; the slave reads exactly the bytes that "
	     "were accepted.  Without the sysctl (before 6.2) unprivileged "
	     "TIOCSTI on the own ctty must work",
	     (TP_REQUIRE_ROOT(tc),
	      TP_TAG_COMMITS(tc, "83efeeeb3d04 f1aa2eb5ea05", "690c8b804ad2")))
{
	struct story s;
	long cur;

	if (!tp_sysctl_read(SYSCTL_PATH, &cur)) {
		s = (struct story){ .root_first = false, .unpriv_err = 0 };
		run_story(&s, "u", 1, "no sysctl: unrestricted");
		return;
	}
	ATF_REQUIRE(tp_sysctl_set(SYSCTL_PATH, 0));
	s = (struct story){ .root_first = true, .unpriv_err = EIO };
	run_story(&s, "r", 1, "legacy_tiocsti=0");
	ATF_REQUIRE(tp_sysctl_set(SYSCTL_PATH, 1));
	s = (struct story){ .root_first = true, .unpriv_err = 0 };
	run_story(&s, "ru", 2, "legacy_tiocsti=1");
}

ATF_TP_ADD_TCS(tp)
{
	ATF_TP_ADD_TC(tp, tiocsti_sysctl_story);
	return atf_no_error();
}
