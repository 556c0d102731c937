// SPDX-License-Identifier: GPL-2.0-only
/* t_guest_apps: the real userland in a guest, end to end.  The Debian 12
 * root of the apps and peers rows is built (harness/guest-root/build.sh:
 * mmdebstrap and mke2fs -d, minutes cold, under a second when cached),
 * then `ttypot matrix` boots Debian's current linux-image-amd64 (6.1)
 * under QEMU with that root as a read-only virtio disk and runs apps rows
 * (python3 and script(1), chrooted into the root) and a peers program
 * (CPython's test_pty): every cell of matrix.csv is checked. */
#include <atf-c.h>

#include "e2e.h"

#include <stdio.h>
#include <stdlib.h>

#define KERNEL "deb:linux-image-amd64"
#define SUBSET "apps/t_python,apps/t_script,peers/t_test_pty"
/* A cold root: ~5 minutes of mmdebstrap on two busy cores. */
#define ROOT_DEADLINE_S 1200
/* Boot ~20 s and these rows ~2-3 minutes under TCG on a loaded machine. */
#define RUN_DEADLINE_S 600

static const struct e2e_want wants[] = {
	{"apps/t_python:openpty_read_to_eof", "pass"},
	{"apps/t_python:subprocess_read_to_eof", "pass"},
	{"apps/t_python:pty_spawn", "pass"},
	{"apps/t_script:typescript_whole", "pass"},
	{"peers/t_test_pty:PtyTest_test_fork", "pass"},
	{"peers/t_test_pty:PtyTest_test_master_read", "pass"},
	/* CPython marks it an expected failure when stdin is a tty (openpty
	 * cannot give the slave a window size): its verdict, kept. */
	{"peers/t_test_pty:PtyTest_test_openpty", "xfail"},
	{"peers/t_test_pty:PtyTest_test_spawn_doesnt_hang", "pass"},
	{"peers/t_test_pty:SmallPtyTests_test__copy_eof_on_all", "pass"},
	{"peers/t_test_pty:SmallPtyTests_test__copy_to_each", "pass"},
	{"peers/t_test_pty:SmallPtyTests_test__restore_tty_mode_normal_return", "pass"},
	{"peers/t_test_pty:listed", "pass"},
};
#define NWANTS (sizeof(wants) / sizeof(wants[0]))

ATF_TC(debian_root_apps_peers_cell_by_cell);
ATF_TC_HEAD(debian_root_apps_peers_cell_by_cell, tc)
{
	atf_tc_set_md_var(tc, "descr", "the Debian root is built (or found cached), "
			  "ttypot matrix boots Debian's linux-image-amd64 (6.1) with it as a "
			  "read-only disk and runs " SUBSET ": python3 and script(1) read every "
			  "byte and status over ptys, CPython's test_pty passes (its own "
			  "expected failure kept), cell by cell");
	atf_tc_set_md_var(tc, "timeout", "1900");
	atf_tc_set_md_var(tc, "require.user", "root");
	atf_tc_set_md_var(tc, "require.progs",
			  "qemu-system-x86_64 apt-get dpkg-deb cpio mmdebstrap mke2fs");
}
ATF_TC_BODY(debian_root_apps_peers_cell_by_cell, tc)
{
	char ttypot[1024], build[1024], dir[] = "/tmp/ttypot-apps.XXXXXX";
	char log[1100], rlog[1100], csv[1100], cache[1100];
	e2e_ttypot(tc, ttypot, sizeof ttypot);
	snprintf(build, sizeof build, "%s/../guest-root/build.sh",
		 atf_tc_get_config_var_wd(tc, "srcdir", "."));
	ATF_REQUIRE(mkdtemp(dir) != NULL);
	snprintf(log, sizeof log, "%s/ttypot.log", dir);
	snprintf(rlog, sizeof rlog, "%s/root.log", dir);
	snprintf(csv, sizeof csv, "%s/matrix.csv", dir);
	e2e_cache_env(cache, sizeof cache);

	char *rargv[] = {"env", cache, build, NULL};
	int st = e2e_run(rargv, ROOT_DEADLINE_S, rlog, "the Debian root");
	ATF_REQUIRE_MSG(st == 0, "harness/guest-root/build.sh exit %d; see %s", st, rlog);

	char *argv[] = {"env", cache, ttypot, "matrix", "-o", dir, "--cases", SUBSET,
			KERNEL, NULL};
	st = e2e_run(argv, RUN_DEADLINE_S, log, KERNEL);
	/* One kernel is its own baseline: no regression can exist, so 0. */
	ATF_REQUIRE_MSG(st == 0, "ttypot matrix exit %d; see %s", st, log);

	e2e_check_csv(csv, wants, NWANTS, NULL, 0);
	e2e_cleanup(tc, dir);
}

ATF_TP_ADD_TCS(tp)
{
	ATF_TP_ADD_TC(tp, debian_root_apps_peers_cell_by_cell);
	return atf_no_error();
}
