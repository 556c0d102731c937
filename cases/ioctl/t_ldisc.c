// SPDX-License-Identifier: GPL-2.0-only
/* t_ldisc.c: line disciplines besides N_TTY, and what /proc says of them.
 * N_NULL (n_null.c, always built with the tty layer) refuses reads and
 * writes with EOPNOTSUPP; switching back to N_TTY gives a working line.
 * N_MOUSE (serport, a serial mouse's serio port) needs CAP_SYS_ADMIN to
 * attach.  /proc/tty/ldiscs lists each registered discipline with its
 * number ("%-10s %2d"); /proc/tty/ldisc is an empty directory kept
 * because user space sees it. */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "ttypot.h"

/* include/uapi/linux/tty.h; glibc has no header for them. */
#ifndef N_TTY
#define N_TTY 0
#endif
#ifndef N_MOUSE
#define N_MOUSE 2
#endif
#ifndef N_NULL
#define N_NULL 27
#endif

static int
getd(int fd)
{
	int ld = -1;
	ATF_REQUIRE_MSG(ioctl(fd, TIOCGETD, &ld) == 0, "TIOCGETD: %s", strerror(errno));
	return ld;
}

/* The number /proc/tty/ldiscs gives name, or -1 when it is not listed;
 * every line must parse as "name number". */
static int
proc_ldisc(const char *name)
{
	FILE *f = fopen("/proc/tty/ldiscs", "r");
	ATF_REQUIRE_MSG(f, "/proc/tty/ldiscs: %s", strerror(errno));
	char line[128], n[64];
	int num, found = -1;
	while (fgets(line, sizeof line, f)) {
		ATF_CHECK_MSG(sscanf(line, "%63s %d", n, &num) == 2 && num >= 0 && num < 64,
			      "/proc/tty/ldiscs line %s does not read NAME NUMBER",
			      tp_esc(line, strlen(line)));
		if (!strcmp(n, name))
			found = num;
	}
	fclose(f);
	return found;
}

TP_CASE(n_null_refuses_io_until_n_tty_returns, TP_LINUX,
	"With N_NULL (27) on a pty slave, TIOCGETD reads 27, /proc/tty/ldiscs "
	"lists n_null 27, and read and write on the slave fail EOPNOTSUPP; "
	"TIOCSETD N_TTY then gives a line that carries data both ways again")
{
	struct tp_pty p;
	tp_pty_open(&p, TP_RAW);
	int ld = N_NULL;
	if (ioctl(p.slave, TIOCSETD, &ld) != 0)
		atf_tc_fail("TIOCSETD N_NULL: %s (n_null is built with the tty layer)",
			    strerror(errno));
	ATF_CHECK_EQ_MSG(getd(p.slave), N_NULL, "TIOCGETD %d after N_NULL", getd(p.slave));
	ATF_CHECK_EQ_MSG(proc_ldisc("n_null"), N_NULL, "/proc/tty/ldiscs gives n_null "
			 "as %d", proc_ldisc("n_null"));
	char c;
	errno = 0;
	ssize_t n = read(p.slave, &c, 1);
	ATF_CHECK_MSG(n < 0 && errno == EOPNOTSUPP, "read under N_NULL: %zd (%s), want "
		      "EOPNOTSUPP", n, strerror(errno));
	errno = 0;
	n = write(p.slave, "x", 1);
	ATF_CHECK_MSG(n < 0 && errno == EOPNOTSUPP, "write under N_NULL: %zd (%s), want "
		      "EOPNOTSUPP", n, strerror(errno));
	ld = N_TTY;
	ATF_REQUIRE_MSG(ioctl(p.slave, TIOCSETD, &ld) == 0, "back to N_TTY: %s",
			strerror(errno));
	ATF_CHECK_EQ(getd(p.slave), N_TTY);
	tp_tc_raw(p.slave);
	tp_write_str(p.master, "in", "input after N_TTY is back");
	char got[2];
	tp_read_exact(p.slave, got, 2, 2, "the input on the slave");
	ATF_CHECK_MSG(!memcmp(got, "in", 2), "slave read %s", tp_esc(got, 2));
	tp_write_str(p.slave, "out", "output after N_TTY is back");
	TP_EXPECT_BYTES(p.master, "out", "the output on the master");
	tp_pty_close(&p);
}

TP_CASE(proc_ldiscs_lists_n_tty, TP_LINUX,
	"/proc/tty/ldiscs lists n_tty as discipline 0, and every line reads "
	"as a name and a number below NR_LDISCS")
{
	ATF_CHECK_EQ_MSG(proc_ldisc("n_tty"), N_TTY, "n_tty listed as %d",
			 proc_ldisc("n_tty"));
}

TP_CASE(proc_tty_ldisc_is_an_empty_directory, TP_LINUX,
	"/proc/tty/ldisc exists and is an empty directory (proc_tty.c keeps it "
	"for user space; the list is /proc/tty/ldiscs)")
{
	DIR *d = opendir("/proc/tty/ldisc");
	ATF_REQUIRE_MSG(d, "/proc/tty/ldisc: %s", strerror(errno));
	struct dirent *e;
	while ((e = readdir(d)))
		ATF_CHECK_MSG(!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."),
			      "/proc/tty/ldisc holds %s", e->d_name);
	closedir(d);
}

static int
unprivileged_mouse(void *arg)
{
	int fd = *(int *)arg, ld = N_MOUSE;
	if (tp_child_drop_to_nobody())
		return 1;
	errno = 0;
	if (ioctl(fd, TIOCSETD, &ld) == 0 || errno != EPERM)
		return tp_child_fail("TIOCSETD N_MOUSE without CAP_SYS_ADMIN: %s, want "
				     "EPERM", errno ? strerror(errno) : "accepted");
	return 0;
}

TP_CASE_ROOT(n_mouse_needs_cap_sys_admin, TP_LINUX,
	"(root; needs serport) TIOCSETD N_MOUSE (2) attaches as root (TIOCGETD "
	"reads 2, N_TTY comes back); without CAP_SYS_ADMIN it fails EPERM and "
	"the slave keeps N_TTY")
{
	struct tp_pty p;
	struct tp_child c;
	tp_pty_open(&p, TP_RAW);
	int ld = N_MOUSE;
	if (ioctl(p.slave, TIOCSETD, &ld) != 0)
		atf_tc_skip("TIOCSETD N_MOUSE as root: %s: needs the serport line "
			    "discipline (CONFIG_SERIO_SERPORT)", strerror(errno));
	ATF_CHECK_EQ_MSG(getd(p.slave), N_MOUSE, "TIOCGETD %d with N_MOUSE",
			 getd(p.slave));
	ld = N_TTY;
	ATF_REQUIRE_MSG(ioctl(p.slave, TIOCSETD, &ld) == 0, "back to N_TTY: %s",
			strerror(errno));
	tp_child_start(&c, unprivileged_mouse, &p.slave);
	tp_child_join(&c, TP_WAIT_MS, "TIOCSETD N_MOUSE as nobody");
	ATF_CHECK_EQ_MSG(getd(p.slave), N_TTY, "line discipline %d after the refused "
			 "N_MOUSE", getd(p.slave));
	tp_pty_close(&p);
}

ATF_TP_ADD_TCS(tp)
{
	ATF_TP_ADD_TC(tp, n_null_refuses_io_until_n_tty_returns);
	ATF_TP_ADD_TC(tp, proc_ldiscs_lists_n_tty);
	ATF_TP_ADD_TC(tp, proc_tty_ldisc_is_an_empty_directory);
	ATF_TP_ADD_TC(tp, n_mouse_needs_cap_sys_admin);
	return atf_no_error();
}
