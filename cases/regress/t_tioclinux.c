// SPDX-License-Identifier: GPL-2.0-only
/* t_tioclinux.c: regressions.md #20: TIOCLINUX selection paste needs
 * CAP_SYS_ADMIN since 8d1b43f6a6df (6.7).  A VT ioctl: not observable on a
 * pty (there it is ENOTTY), so this needs a VT (/dev/tty0) and root to open
 * it; it skips naming what is missing.  6.1 still allows the paste: an
 * expectation (fixtures/expect) records that difference. */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "ttypot.h"

#define TIOCL_PASTESEL 3

static int
unprivileged_paste(void *arg)
{
	int fd = *(int *)arg;
	char sub = TIOCL_PASTESEL;

	if (tp_child_drop_to_nobody())
		return 1;
	errno = 0;
	if (ioctl(fd, TIOCLINUX, &sub) == 0 || errno != EPERM)
		return tp_child_fail("TIOCLINUX PASTESEL without CAP_SYS_ADMIN: "
				     "%s, want EPERM",
				     errno ? strerror(errno) : "allowed");
	return 0;
}

TP_CASE_META(pastesel_needs_cap_sys_admin, TP_LINUX,
	     "#20 (root; needs a VT): TIOCLINUX TIOCL_PASTESEL on /dev/tty0 "
	     "without CAP_SYS_ADMIN fails EPERM; on a pty TIOCLINUX is ENOTTY",
	     (TP_REQUIRE_ROOT(tc), TP_TAG_COMMITS(tc, "-", "8d1b43f6a6df")))
{
	struct tp_pty p;
	struct tp_child c;
	char sub = TIOCL_PASTESEL;

	tp_pty_open(&p, TP_RAW);
	errno = 0;
	ATF_CHECK_MSG(ioctl(p.slave, TIOCLINUX, &sub) < 0 && errno == ENOTTY,
		      "TIOCLINUX on a pty: %s, want ENOTTY", strerror(errno));
	tp_pty_close(&p);
	int fd = open("/dev/tty0", O_RDONLY | O_NOCTTY | O_CLOEXEC);
	if (fd < 0)
		atf_tc_skip("needs a virtual console: open /dev/tty0: %s",
			    strerror(errno));
	tp_child_start(&c, unprivileged_paste, &fd);
	tp_child_join(&c, TP_WAIT_MS, "unprivileged TIOCLINUX");
	close(fd);
}

ATF_TP_ADD_TCS(tp)
{
	ATF_TP_ADD_TC(tp, pastesel_needs_cap_sys_admin);
	return atf_no_error();
}
