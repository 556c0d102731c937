// SPDX-License-Identifier: GPL-2.0-only
/* t_tiocsti.c: TIOCSTI (fake input) permissions.  Regression table #19:
 * 83efeeeb3d04 (6.2) added dev.tty.legacy_tiocsti (0: TIOCSTI fails EIO),
 * 690c8b804ad2 (6.5) always lets CAP_SYS_ADMIN through.  Without
 * CAP_SYS_ADMIN TIOCSTI only works on the caller's controlling tty.
 *
 * The cases that change the sysctl restore it at case end (tp_sysctl_set);
 * this program is exclusive in its Kyuafile because the sysctl is
 * global. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "ttypot.h"

#define SYSCTL_PATH "/proc/sys/dev/tty/legacy_tiocsti"
/* An unprivileged uid that needs no /etc/passwd entry (minimal guests). */
#define NOBODY_UID 65534

#define TP_CASE_ROOT_COMMITS(name, standard, broke, fixed, descr)              \
	TP_CASE_META(name, standard, descr,                                    \
		     (TP_REQUIRE_ROOT(tc), TP_TAG_COMMITS(tc, broke, fixed)))

/* Set the sysctl for this case (restored at case end), or skip naming what
 * is missing.  A kernel older than the sysctl behaves as if it were 1. */
static void
set_legacy_tiocsti(int v)
{
	if (!tp_sysctl_set(SYSCTL_PATH, v) && v != 1)
		atf_tc_skip("needs the dev.tty.legacy_tiocsti sysctl (6.2+)");
}

struct sti {
	struct tp_pty p;
	struct tp_pty other; /* a pty that is not the child's ctty */
	int expect_own;      /* errno for TIOCSTI on the own ctty, 0 = works */
};

/* Unprivileged child: TIOCSTI on its controlling tty and on another tty. */
static int
sti_child(void *arg)
{
	struct sti *s = arg;
	if (tp_child_take_ctty(s->p.slave))
		return 1;
	if (setuid(NOBODY_UID) != 0)
		return tp_child_fail("setuid(%d): %s", NOBODY_UID,
				     strerror(errno));
	int r = ioctl(s->p.slave, TIOCSTI, "q");
	int e = r < 0 ? errno : 0;
	if (e != s->expect_own)
		return tp_child_fail("unprivileged TIOCSTI on the ctty: %s, "
				     "expected %s",
				     e ? strerror(e) : "success",
				     s->expect_own ? strerror(s->expect_own)
						   : "success");
	/* Not the ctty: EPERM when allowed at all, EIO when disabled. */
	int want = s->expect_own ? s->expect_own : EPERM;
	r = ioctl(s->other.slave, TIOCSTI, "q");
	e = r < 0 ? errno : 0;
	if (e != want)
		return tp_child_fail("unprivileged TIOCSTI on another tty: %s, "
				     "expected %s",
				     e ? strerror(e) : "success",
				     strerror(want));
	return 0;
}

static void
run_unprivileged(int expect_own)
{
	struct sti s = {.expect_own = expect_own};
	struct tp_child c;

	tp_pty_open(&s.p, TP_RAW);
	tp_pty_open(&s.other, TP_RAW);
	tp_child_start(&c, sti_child, &s);
	tp_child_join(&c, TP_WAIT_MS, "unprivileged TIOCSTI");
	if (expect_own == 0) {
		char got;
		tp_read_exact(s.p.slave, &got, 1, 1, "the injected byte");
		ATF_CHECK_MSG(got == 'q', "injected byte read as 0x%02x", got);
	}
	/* The refused injections queued nothing. */
	int n = -1;
	ATF_REQUIRE(ioctl(s.other.slave, FIONREAD, &n) == 0);
	ATF_CHECK_EQ_MSG(n, 0, "%d bytes queued by a refused TIOCSTI", n);
	if (expect_own != 0) {
		ATF_REQUIRE(ioctl(s.p.slave, FIONREAD, &n) == 0);
		ATF_CHECK_EQ_MSG(n, 0, "%d bytes queued by a refused TIOCSTI",
				 n);
	}
	tp_pty_close(&s.other);
	tp_pty_close(&s.p);
}

TP_CASE_ROOT_COMMITS(tiocsti_root_injects_input, TP_LINUX, "83efeeeb3d04",
		     "690c8b804ad2",
		     "With CAP_SYS_ADMIN, TIOCSTI on a slave that is not the "
		     "caller's ctty queues the byte as input, with "
		     "dev.tty.legacy_tiocsti as it is")
{
	struct tp_pty p;
	char got[2];

	tp_pty_open(&p, TP_RAW);
	ATF_REQUIRE_MSG(ioctl(p.slave, TIOCSTI, "h") == 0, "TIOCSTI: %s",
			strerror(errno));
	ATF_REQUIRE(ioctl(p.slave, TIOCSTI, "i") == 0);
	tp_read_exact(p.slave, got, 2, 2, "injected bytes on the slave");
	ATF_CHECK(memcmp(got, "hi", 2) == 0);
	tp_pty_close(&p);
}

TP_CASE_ROOT_COMMITS(tiocsti_unprivileged_when_legacy_on, TP_LINUX,
		     "83efeeeb3d04", "690c8b804ad2",
		     "With dev.tty.legacy_tiocsti=1 (or a kernel without it) "
		     "an unprivileged process may TIOCSTI into its own ctty, "
		     "and gets EPERM on any other tty")
{
	set_legacy_tiocsti(1);
	run_unprivileged(0);
}

TP_CASE_ROOT_COMMITS(tiocsti_unprivileged_eio_when_legacy_off, TP_LINUX,
		     "83efeeeb3d04", "690c8b804ad2",
		     "With dev.tty.legacy_tiocsti=0 unprivileged TIOCSTI fails "
		     "EIO even on the own ctty, while CAP_SYS_ADMIN still "
		     "injects (6.5+)")
{
	struct tp_pty p;
	char got;

	set_legacy_tiocsti(0);
	run_unprivileged(EIO);
	tp_pty_open(&p, TP_RAW);
	ATF_CHECK_MSG(ioctl(p.slave, TIOCSTI, "r") == 0,
		      "root TIOCSTI with legacy_tiocsti=0: %s",
		      strerror(errno));
	tp_read_exact(p.slave, &got, 1, 1, "byte injected by root");
	ATF_CHECK(got == 'r');
	tp_pty_close(&p);
}

ATF_TP_ADD_TCS(tp)
{
	ATF_TP_ADD_TC(tp, tiocsti_root_injects_input);
	ATF_TP_ADD_TC(tp, tiocsti_unprivileged_when_legacy_on);
	ATF_TP_ADD_TC(tp, tiocsti_unprivileged_eio_when_legacy_off);
	return atf_no_error();
}
