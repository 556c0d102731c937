// SPDX-License-Identifier: GPL-2.0-only
/*
 * t_kmsg_warn: a guest program that leaves the two marks a kernel fault
 * leaves, for harness/tests/t_kmsg_guest only (no Kyuafile of the suite
 * lists it): it sets a real taint flag (TAINT_USER, 64, which root may set
 * through /proc/sys/kernel/tainted) and writes a WARNING-shaped line into
 * the kernel log (/dev/kmsg).  The harness must show both as kernel
 * warnings of the column, attributed to this case.
 *
 * A taint flag cannot be cleared until the next boot, so it refuses to run
 * anywhere but a ttypot guest built for this test: the hostname is "ttypot"
 * (fixtures/guest/init), PID 1 runs /init, and the file `kmsg-allowed`
 * (written by the test into its own suite) sits next to this program.
 */
#include <atf-c.h>

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define TAINT_USER 64UL

static bool in_a_kmsg_guest(const atf_tc_t *tc, char *why, size_t len)
{
	char host[64] = "", cmd[256] = "", p[1024];
	gethostname(host, sizeof host);
	int fd = open("/proc/1/cmdline", O_RDONLY | O_CLOEXEC);
	ssize_t n = fd >= 0 ? read(fd, cmd, sizeof cmd - 1) : -1;
	if (fd >= 0)
		close(fd);
	for (ssize_t i = 0; i < n; i++)
		if (cmd[i] == '\0')
			cmd[i] = ' ';
	snprintf(p, sizeof p, "%s/kmsg-allowed",
		 atf_tc_get_config_var_wd(tc, "srcdir", "."));
	if (strcmp(host, "ttypot") != 0)
		snprintf(why, len, "hostname is \"%s\", not a ttypot guest", host);
	else if (n <= 0 || strstr(cmd, "/init") == NULL)
		snprintf(why, len, "PID 1 is \"%s\", not the ttypot guest init", cmd);
	else if (access(p, F_OK) != 0)
		snprintf(why, len, "%s is missing: not the kernel-warning test's suite", p);
	else
		return true;
	return false;
}

static unsigned long taint_now(void)
{
	char b[64] = "";
	int fd = open("/proc/sys/kernel/tainted", O_RDONLY | O_CLOEXEC);
	ATF_REQUIRE_MSG(fd >= 0, "/proc/sys/kernel/tainted: %s", strerror(errno));
	ssize_t n = read(fd, b, sizeof b - 1);
	close(fd);
	ATF_REQUIRE(n > 0);
	return strtoul(b, NULL, 10);
}

static void put(const char *path, const char *text)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC);
	ATF_REQUIRE_MSG(fd >= 0, "%s: %s", path, strerror(errno));
	ssize_t n = write(fd, text, strlen(text));
	ATF_REQUIRE_MSG(n == (ssize_t)strlen(text), "write %s: %s", path,
			n < 0 ? strerror(errno) : "short");
	close(fd);
}

ATF_TC(warns_and_taints);
ATF_TC_HEAD(warns_and_taints, tc)
{
	atf_tc_set_md_var(tc, "descr", "Sets TAINT_USER and writes a WARNING-shaped "
			  "line and a tty count-check line to the kernel log, as "
			  "kernel faults would");
	atf_tc_set_md_var(tc, "require.user", "root");
}
ATF_TC_BODY(warns_and_taints, tc)
{
	char why[1200], line[256];
	if (!in_a_kmsg_guest(tc, why, sizeof why))
		atf_tc_skip("refusing to taint this kernel: %s", why);
	put("/proc/sys/kernel/tainted", "64");
	ATF_REQUIRE_MSG(taint_now() & TAINT_USER, "TAINT_USER not set after writing 64");
	snprintf(line, sizeof line, "<4>WARNING: CPU: 0 PID: %d at "
		 "harness/tests/guest/t_kmsg_warn.c warns_and_taints (a test line, "
		 "not a kernel fault)\n", (int)getpid());
	put("/dev/kmsg", line);
	/* The shape of the tty layer's own count check (check_tty_count). */
	snprintf(line, sizeof line, "<4>tty pts99: tty_release: tty->count(2) != "
		 "(#fd's(1) + #kopen's(0)) (a test line from t_kmsg_warn.c, not a "
		 "kernel fault)\n");
	put("/dev/kmsg", line);
}

ATF_TC(stays_quiet);
ATF_TC_HEAD(stays_quiet, tc)
{
	atf_tc_set_md_var(tc, "descr", "Does nothing to the kernel: passes");
}
ATF_TC_BODY(stays_quiet, tc)
{
	(void)tc;
}

ATF_TP_ADD_TCS(tp)
{
	ATF_TP_ADD_TC(tp, warns_and_taints);
	ATF_TP_ADD_TC(tp, stays_quiet);
	return atf_no_error();
}
