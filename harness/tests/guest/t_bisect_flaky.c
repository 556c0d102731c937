// SPDX-License-Identifier: GPL-2.0-only
/*
 * t_bisect_flaky: a guest program for harness/tests/t_bisect_stop only (no
 * Kyuafile of the suite lists it).  Run exclusive, so in order: a case that
 * fails unless the run's filter names it (a flake: it fails in a run of the
 * whole program, and passes when bisect-run re-runs it by name), then one
 * that fails, every time, only after LATE_MS.  A step that stopped at the
 * flake and could not confirm it must still run the rest before it calls the
 * commit good: here the late failure makes it bad.
 */
#include <atf-c.h>

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include "late.h"

/* What the harness tells the guest's run-suite.sh (harness/guest/run_qemu.c). */
#define RUN_CONF "/etc/ttypot/run.conf"

ATF_TC_WITHOUT_HEAD(a_fails_unless_named);
ATF_TC_BODY(a_fails_unless_named, tc)
{
	(void)tc;
	char conf[4096];
	int fd = open(RUN_CONF, O_RDONLY | O_CLOEXEC);
	ATF_REQUIRE_MSG(fd >= 0, "%s: %s (not in a ttypot guest)", RUN_CONF, strerror(errno));
	ssize_t n = read(fd, conf, sizeof conf - 1);
	close(fd);
	ATF_REQUIRE_MSG(n >= 0, "read %s: %s", RUN_CONF, strerror(errno));
	conf[n] = '\0';
	if (strstr(conf, "a_fails_unless_named") == NULL)
		atf_tc_fail("fails in a run of the whole program, passes when named "
			    "(a flake a re-run does not repeat)");
}

ATF_TC_WITHOUT_HEAD(b_fails_late);
ATF_TC_BODY(b_fails_late, tc)
{
	(void)tc;
	fail_late("every time");
}

ATF_TP_ADD_TCS(tp)
{
	ATF_TP_ADD_TC(tp, a_fails_unless_named);
	ATF_TP_ADD_TC(tp, b_fails_late);
	return atf_no_error();
}
