// SPDX-License-Identifier: GPL-2.0-only
/* t_ptpeer.c: regressions.md #24: TIOCGPTPEER (4.13, 54ebbfb16034,
 * 311fc65c9fb9) opens the slave through the master's own devpts instance,
 * so its /proc path is the right node.  pty/t_peer.c checks a master whose
 * slave is already open; here the catalogue recipe on a master whose slave
 * was never opened by path. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ttypot.h"

#ifndef TIOCGPTPEER
#define TIOCGPTPEER _IO('T', 0x41)
#endif

TP_CASE_COMMITS(ptpeer_path_is_ptsname, TP_LINUX, "-",
		"54ebbfb16034 311fc65c9fb9",
		"#24: fd = ioctl(master, TIOCGPTPEER, O_RDWR|O_NOCTTY) on a fresh "
		"master: readlink(/proc/self/fd/fd) equals ptsname(master), and "
		"the fd is that node (same st_rdev)")
{
	char link[64], target[128], name[128];
	struct stat a, b;

	int m = posix_openpt(O_RDWR | O_NOCTTY | O_CLOEXEC);
	ATF_REQUIRE_MSG(m >= 0, "posix_openpt: %s", strerror(errno));
	ATF_REQUIRE(grantpt(m) == 0 && unlockpt(m) == 0);
	ATF_REQUIRE(ptsname_r(m, name, sizeof(name)) == 0);
	int s = ioctl(m, TIOCGPTPEER, O_RDWR | O_NOCTTY | O_CLOEXEC);
	if (s < 0 && errno == EINVAL)
		atf_tc_skip("TIOCGPTPEER not supported (needs Linux 4.13)");
	ATF_REQUIRE_MSG(s >= 0, "TIOCGPTPEER: %s", strerror(errno));
	snprintf(link, sizeof(link), "/proc/self/fd/%d", s);
	ssize_t n = readlink(link, target, sizeof(target) - 1);
	ATF_REQUIRE_MSG(n > 0, "readlink %s: %s", link, strerror(errno));
	target[n] = '\0';
	ATF_CHECK_MSG(strcmp(target, name) == 0, "peer is %s, ptsname %s",
		      target, name);
	ATF_REQUIRE(fstat(s, &a) == 0 && stat(name, &b) == 0);
	ATF_CHECK_MSG(a.st_rdev == b.st_rdev, "peer rdev differs from %s",
		      name);
	close(s);
	close(m);
}

ATF_TP_ADD_TCS(tp)
{
	ATF_TP_ADD_TC(tp, ptpeer_path_is_ptsname);
	return atf_no_error();
}
