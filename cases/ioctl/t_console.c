// SPDX-License-Identifier: GPL-2.0-only
/* t_console.c: /dev/console and the console redirect (tty_io.c).
 * TIOCCONS (CAP_SYS_ADMIN) on a tty makes what is written to /dev/console
 * go to that tty instead; while one redirect holds, another is EBUSY;
 * TIOCCONS on a /dev/console descriptor undoes it, and a hangup of the tty
 * releases it.  /dev/console itself opens the tty of the preferred console:
 * the last entry of /sys/class/tty/console/active, which for the VT
 * console (tty0) is the foreground VT /sys/class/tty/tty0/active names;
 * TIOCGDEV reads the device number of the tty a descriptor opened.
 *
 * The redirect is host-wide: the cases hold a host lock, and a redirect
 * that something else on the host holds makes them skip. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <termios.h>
#include <unistd.h>

#include "ttypot.h"

#define CONSOLE "/dev/console"
#define REDIRECT_LOCK "/tmp/ttypot-tioccons.lock"

static int
open_console(void)
{
	int fd = open(CONSOLE, O_WRONLY | O_NOCTTY | O_CLOEXEC);
	if (fd < 0)
		atf_tc_skip("cannot open %s: %s", CONSOLE, strerror(errno));
	return fd;
}

/* TIOCCONS on a pty slave, skipping when another redirect holds already. */
static void
redirect_to(int slave)
{
	tp_host_lock(REDIRECT_LOCK, "another suite's case to give back the console "
		     "redirect");
	if (ioctl(slave, TIOCCONS) != 0) {
		if (errno == EBUSY)
			atf_tc_skip("/dev/console is already redirected by something "
				    "else on this host (TIOCCONS: EBUSY)");
		atf_tc_fail("TIOCCONS as root: %s", strerror(errno));
	}
}

static int
unprivileged_tioccons(void *arg)
{
	int fd = *(int *)arg;
	if (tp_child_drop_to_nobody())
		return 1;
	errno = 0;
	if (ioctl(fd, TIOCCONS) == 0 || errno != EPERM)
		return tp_child_fail("TIOCCONS without CAP_SYS_ADMIN: %s, want EPERM",
				     errno ? strerror(errno) : "accepted");
	return 0;
}

TP_CASE_ROOT(tioccons_redirects_console_writes, TP_LINUX,
	"(root) Without CAP_SYS_ADMIN TIOCCONS fails EPERM; with it, what is "
	"written to /dev/console arrives on the pty whose slave asked, a "
	"second TIOCCONS elsewhere is EBUSY, and TIOCCONS on a /dev/console "
	"descriptor undoes the redirect (a new one then succeeds)")
{
	struct tp_pty a, b;
	struct tp_child c;
	tp_pty_open(&a, TP_RAW);
	tp_pty_open(&b, TP_RAW);
	tp_child_start(&c, unprivileged_tioccons, &a.slave);
	tp_child_join(&c, TP_WAIT_MS, "TIOCCONS as nobody");
	redirect_to(a.slave);
	int con = open_console();
	tp_write_str(con, "to the pty\n", "a line written to /dev/console");
	TP_EXPECT_BYTES(a.master, "to the pty\n", "the console line on the pty");
	errno = 0;
	ATF_CHECK_MSG(ioctl(b.slave, TIOCCONS) < 0 && errno == EBUSY, "a second "
		      "TIOCCONS while redirected: %s, want EBUSY", strerror(errno));
	ATF_REQUIRE_MSG(ioctl(con, TIOCCONS) == 0, "TIOCCONS on /dev/console (undo): "
			"%s", strerror(errno));
	ATF_CHECK_MSG(ioctl(b.slave, TIOCCONS) == 0, "TIOCCONS after the undo: %s",
		      strerror(errno));
	tp_write_str(con, "to b\n", "a line written to /dev/console");
	TP_EXPECT_BYTES(b.master, "to b\n", "the console line on the second pty");
	tp_expect_not_readable(a.master, "the first pty after the undo");
	ATF_CHECK_MSG(ioctl(con, TIOCCONS) == 0, "undo: %s", strerror(errno));
	close(con);
	tp_pty_close(&b);
	tp_pty_close(&a);
}

TP_CASE_ROOT(hangup_releases_the_redirect, TP_LINUX,
	"(root) When the redirected tty hangs up (its pty master closes), the "
	"redirect is released: TIOCCONS on another tty then succeeds")
{
	struct tp_pty a, b;
	tp_pty_open(&a, TP_RAW);
	tp_pty_open(&b, TP_RAW);
	redirect_to(a.slave);
	tp_close_master(&a);
	ATF_CHECK_MSG(ioctl(b.slave, TIOCCONS) == 0, "TIOCCONS after the redirected "
		      "tty hung up: %s", strerror(errno));
	int con = open_console();
	ATF_CHECK_MSG(ioctl(con, TIOCCONS) == 0, "undo: %s", strerror(errno));
	close(con);
	tp_pty_close(&b);
	tp_pty_close(&a);
}

/* The last word of a one-line sysfs file, or false. */
static bool
last_word(const char *path, char *out, size_t len)
{
	FILE *f = fopen(path, "r");
	char line[256] = "";
	if (!f)
		return false;
	bool ok = fgets(line, sizeof line, f) != NULL;
	fclose(f);
	line[strcspn(line, "\n")] = '\0';
	char *w = strrchr(line, ' ');
	snprintf(out, len, "%s", w ? w + 1 : line);
	return ok && out[0];
}

/* MAJOR:MINOR of /sys/class/tty/NAME/dev. */
static dev_t
sysfs_dev(const char *name)
{
	char path[128];
	unsigned ma, mi;
	snprintf(path, sizeof path, "/sys/class/tty/%s/dev", name);
	FILE *f = fopen(path, "r");
	ATF_REQUIRE_MSG(f, "%s: %s", path, strerror(errno));
	int n = fscanf(f, "%u:%u", &ma, &mi);
	fclose(f);
	ATF_REQUIRE_EQ_MSG(n, 2, "%s does not read MAJOR:MINOR", path);
	return makedev(ma, mi);
}

static dev_t
tiocgdev(int fd, const char *what)
{
	unsigned int d = 0;
	ATF_REQUIRE_MSG(ioctl(fd, TIOCGDEV, &d) == 0, "TIOCGDEV on %s: %s", what,
			strerror(errno));
	return makedev((d >> 8) & 0xfff, (d & 0xff) | ((d >> 12) & 0xfff00));
}

TP_CASE_ROOT(dev_console_is_the_last_active_console, TP_LINUX,
	"(root) /dev/console opens the tty of the last console listed in "
	"/sys/class/tty/console/active (for tty0: the foreground VT that "
	"/sys/class/tty/tty0/active names): TIOCGDEV on it reads that tty's "
	"MAJOR:MINOR from sysfs")
{
	char name[64];
	if (!last_word("/sys/class/tty/console/active", name, sizeof name))
		atf_tc_skip("no console listed in /sys/class/tty/console/active");
	if (!strcmp(name, "tty0") && !last_word("/sys/class/tty/tty0/active", name,
						   sizeof name))
		atf_tc_fail("the console is tty0, and /sys/class/tty/tty0/active names "
			    "no VT");
	int con = open_console();
	dev_t got = tiocgdev(con, CONSOLE), want = sysfs_dev(name);
	ATF_CHECK_MSG(got == want, "TIOCGDEV on %s: %u:%u, want %s's %u:%u", CONSOLE,
		      major(got), minor(got), name, major(want), minor(want));
	close(con);
}

TP_CASE_ROOT(tty0_is_the_foreground_vt, TP_LINUX,
	"(root; needs a VT) /dev/tty0 opens the foreground VT: TIOCGDEV on it "
	"reads the MAJOR:MINOR of the ttyN that /sys/class/tty/tty0/active "
	"names")
{
	char name[64];
	if (!last_word("/sys/class/tty/tty0/active", name, sizeof name))
		atf_tc_skip("no VT: /sys/class/tty/tty0/active is missing (CONFIG_VT)");
	int fd = open("/dev/tty0", O_RDONLY | O_NOCTTY | O_CLOEXEC);
	if (fd < 0)
		atf_tc_skip("cannot open /dev/tty0: %s", strerror(errno));
	dev_t got = tiocgdev(fd, "/dev/tty0"), want = sysfs_dev(name);
	ATF_CHECK_MSG(got == want, "TIOCGDEV on /dev/tty0: %u:%u, want %s's %u:%u",
		      major(got), minor(got), name, major(want), minor(want));
	ATF_CHECK_MSG(major(got) == 4 && minor(got) >= 1 && minor(got) <= 63,
		      "the foreground VT %u:%u is not a ttyN of major 4", major(got),
		      minor(got));
	close(fd);
}

ATF_TP_ADD_TCS(tp)
{
	ATF_TP_ADD_TC(tp, tioccons_redirects_console_writes);
	ATF_TP_ADD_TC(tp, hangup_releases_the_redirect);
	ATF_TP_ADD_TC(tp, dev_console_is_the_last_active_console);
	ATF_TP_ADD_TC(tp, tty0_is_the_foreground_vt);
	return atf_no_error();
}
