// SPDX-License-Identifier: GPL-2.0-only
/* t_tty_sysctl.c: the dev.tty sysctls take only the values they document.
 * Regression table #22: 5fd8c2d3de3d (6.2) moved the tty sysctls and lost
 * the 0..1 bounds of ldisc_autoload; 635a9fca54f4 (6.13) restored them.
 * The program is exclusive in its Kyuafile: the sysctls are global. */
#include <errno.h>
#include <string.h>

#include "ttypot.h"

#define LDISC_AUTOLOAD "/proc/sys/dev/tty/ldisc_autoload"
#define LEGACY_TIOCSTI "/proc/sys/dev/tty/legacy_tiocsti"

static long
require_sysctl(const char *path, const char *since)
{
	long v;
	if (!tp_sysctl_read(path, &v))
		atf_tc_skip("needs the %s sysctl (%s)", path + strlen("/proc/sys/"),
			    since);
	return v;
}

/* Write text; expect errno want (0: accepted) and the value after. */
static void
check_write(const char *path, const char *text, int want, long after)
{
	int err = tp_sysctl_write(path, text);
	long now = -1;
	tp_sysctl_read(path, &now);
	ATF_CHECK_MSG(err == want, "writing \"%s\" to %s: %s, expected %s", text,
		      path, err ? strerror(err) : "accepted",
		      want ? strerror(want) : "accepted");
	ATF_CHECK_MSG(now == after, "%s reads %ld after writing \"%s\", expected %ld",
		      path, now, text, after);
}

TP_CASE_META(ldisc_autoload_rejects_out_of_range, TP_LINUX,
	     "dev.tty.ldisc_autoload is 0 or 1: writing 2, -1 or 1000 fails "
	     "with EINVAL and leaves the value unchanged",
	     (TP_REQUIRE_ROOT(tc),
	      TP_TAG_COMMITS(tc, "5fd8c2d3de3d (6.2)", "635a9fca54f4 (6.13)")))
{
	long cur = require_sysctl(LDISC_AUTOLOAD, "Linux 5.1");
	/* Saved now, so the value comes back even if a bad write lands. */
	tp_sysctl_set(LDISC_AUTOLOAD, cur);
	check_write(LDISC_AUTOLOAD, "2\n", EINVAL, cur);
	check_write(LDISC_AUTOLOAD, "-1\n", EINVAL, cur);
	check_write(LDISC_AUTOLOAD, "1000\n", EINVAL, cur);
}

TP_CASE_ROOT(ldisc_autoload_takes_0_and_1, TP_LINUX,
	     "dev.tty.ldisc_autoload accepts 0 and 1 and reads back what was "
	     "written")
{
	long cur = require_sysctl(LDISC_AUTOLOAD, "Linux 5.1");
	tp_sysctl_set(LDISC_AUTOLOAD, cur);
	check_write(LDISC_AUTOLOAD, "0\n", 0, 0);
	check_write(LDISC_AUTOLOAD, "1\n", 0, 1);
}

TP_CASE_META(legacy_tiocsti_is_a_boolean, TP_LINUX,
	     "dev.tty.legacy_tiocsti is a boolean: 0 reads 0, 1 reads 1, and "
	     "a non-zero value such as 2 reads back as 1",
	     (TP_REQUIRE_ROOT(tc), TP_TAG_COMMITS(tc, "83efeeeb3d04 (6.2)", "-")))
{
	long cur = require_sysctl(LEGACY_TIOCSTI, "Linux 6.2");
	tp_sysctl_set(LEGACY_TIOCSTI, cur);
	check_write(LEGACY_TIOCSTI, "0\n", 0, 0);
	check_write(LEGACY_TIOCSTI, "2\n", 0, 1);
	check_write(LEGACY_TIOCSTI, "0\n", 0, 0);
	check_write(LEGACY_TIOCSTI, "1\n", 0, 1);
}

ATF_TP_ADD_TCS(tp)
{
	ATF_TP_ADD_TC(tp, ldisc_autoload_rejects_out_of_range);
	ATF_TP_ADD_TC(tp, ldisc_autoload_takes_0_and_1);
	ATF_TP_ADD_TC(tp, legacy_tiocsti_is_a_boolean);
	return atf_no_error();
}
