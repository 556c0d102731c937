// SPDX-License-Identifier: GPL-2.0-only
/*
 * t_panic_midway: a guest program that crashes its kernel halfway through,
 * for harness/tests/t_guest_panic only (no Kyuafile of the suite lists it).
 * Two cases pass, the third panics the kernel through /proc/sysrq-trigger
 * once the first two are reported, the fourth never runs.  The harness must
 * keep the first two as pass and show the rest as panic or missing.
 *
 * It refuses to crash anything but a ttypot guest built for this test: the
 * hostname is "ttypot" (fixtures/guest/init), PID 1 runs /init, and the
 * file `panic-allowed` (written by the test into its own suite) sits next to
 * this program.
 */
#include <atf-c.h>

#include <fcntl.h>
#include <poll.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#define MARK_DIR "/tmp"
/* How long the results port must stay drained before the crash, and how
 * long the crash case waits for anything at all. */
#define SETTLED_MS 300
#define WAIT_MS 60000

static long long now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000LL + ts.tv_nsec / 1000000;
}

static void mark(const char *name)
{
	char p[128];
	snprintf(p, sizeof p, MARK_DIR "/ttypot-panic-%s.done", name);
	int fd = open(p, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	ATF_REQUIRE(fd >= 0);
	close(fd);
}

static bool in_a_panic_guest(const atf_tc_t *tc, char *why, size_t len)
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
	snprintf(p, sizeof p, "%s/panic-allowed",
		 atf_tc_get_config_var_wd(tc, "srcdir", "."));
	if (strcmp(host, "ttypot") != 0)
		snprintf(why, len, "hostname is \"%s\", not a ttypot guest", host);
	else if (n <= 0 || strstr(cmd, "/init") == NULL)
		snprintf(why, len, "PID 1 is \"%s\", not the ttypot guest init", cmd);
	else if (access(p, F_OK) != 0)
		snprintf(why, len, "%s is missing: not the panic test's suite", p);
	else
		return true;
	return false;
}

/* The results UART: QEMU pci-serial at 00:12.0 (harness/guest/run_qemu.c). */
static int results_port(void)
{
	for (int i = 0; i < 16; i++) {
		char link[64], target[512];
		snprintf(link, sizeof link, "/sys/class/tty/ttyS%d/device", i);
		ssize_t n = readlink(link, target, sizeof target - 1);
		if (n <= 0)
			continue;
		target[n] = '\0';
		if (strstr(target, "0000:00:12.0") == NULL)
			continue;
		char dev[32];
		snprintf(dev, sizeof dev, "/dev/ttyS%d", i);
		return open(dev, O_RDONLY | O_NOCTTY | O_NONBLOCK | O_CLOEXEC);
	}
	return -1;
}

ATF_TC(a_first_passes);
ATF_TC_HEAD(a_first_passes, tc)
{
	atf_tc_set_md_var(tc, "descr", "Passes and leaves a mark for the crash case");
}
ATF_TC_BODY(a_first_passes, tc)
{
	(void)tc;
	mark("a");
}

ATF_TC(b_second_passes);
ATF_TC_HEAD(b_second_passes, tc)
{
	atf_tc_set_md_var(tc, "descr", "Passes and leaves a mark for the crash case");
}
ATF_TC_BODY(b_second_passes, tc)
{
	(void)tc;
	mark("b");
}

ATF_TC(c_panics_the_kernel);
ATF_TC_HEAD(c_panics_the_kernel, tc)
{
	atf_tc_set_md_var(tc, "descr", "Waits until both earlier cases finished and "
			  "their results left the results UART, then crashes the kernel "
			  "(sysrq c)");
	atf_tc_set_md_var(tc, "timeout", "120");
}
ATF_TC_BODY(c_panics_the_kernel, tc)
{
	char why[1200];
	if (!in_a_panic_guest(tc, why, sizeof why))
		atf_tc_skip("refusing to crash this kernel: %s", why);
	long long t0 = now_ms(), settled = 0;
	int port = results_port();
	ATF_REQUIRE_MSG(port >= 0, "no results UART at PCI 00:12.0");
	/* Both earlier cases are done (Kyua runs this exclusive program's cases
	 * one at a time, and reports each before starting the next), and the
	 * results port's transmitter has been empty for SETTLED_MS. */
	while (now_ms() - t0 < WAIT_MS) {
		int q = -1;
		bool marks = access(MARK_DIR "/ttypot-panic-a.done", F_OK) == 0 &&
			     access(MARK_DIR "/ttypot-panic-b.done", F_OK) == 0;
		if (marks && ioctl(port, TIOCOUTQ, &q) == 0 && q == 0) {
			if (settled == 0)
				settled = now_ms();
			if (now_ms() - settled >= SETTLED_MS)
				break;
		} else {
			settled = 0;
		}
		poll(NULL, 0, 20);
	}
	ATF_REQUIRE_MSG(settled != 0, "the earlier cases' marks or a drained results "
			"port never came within %d ms", WAIT_MS);
	int fd = open("/proc/sysrq-trigger", O_WRONLY | O_CLOEXEC);
	ATF_REQUIRE_MSG(fd >= 0, "cannot open /proc/sysrq-trigger");
	(void)!write(fd, "c", 1);
	atf_tc_fail("the kernel did not crash after sysrq c");
}

ATF_TC(d_never_runs);
ATF_TC_HEAD(d_never_runs, tc)
{
	atf_tc_set_md_var(tc, "descr", "Listed after the crash: never reported");
}
ATF_TC_BODY(d_never_runs, tc)
{
	(void)tc;
}

ATF_TP_ADD_TCS(tp)
{
	ATF_TP_ADD_TC(tp, a_first_passes);
	ATF_TP_ADD_TC(tp, b_second_passes);
	ATF_TP_ADD_TC(tp, c_panics_the_kernel);
	ATF_TP_ADD_TC(tp, d_never_runs);
	return atf_no_error();
}
