// SPDX-License-Identifier: GPL-2.0-only
/* t_procfs.c: what /proc says about ptys.  /proc/PID/fdinfo/FD of a pty
 * master carries "tty-index:" with the pty's number (pty_show_fdinfo; the
 * slave has none); /proc/tty/drivers lists every tty driver with the
 * major and minors of its nodes (pty_slave under /dev/pts, the /dev/ptmx
 * and /dev/tty system devices); /proc/tty/driver, where drivers keep their
 * own files, is a directory only root may read (mode 0500). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "ttypot.h"

/* The value of "key:" in /proc/self/fdinfo/FD, or -1 when the line is
 * missing. */
static long
fdinfo_value(int fd, const char *key)
{
	char path[64], line[256];
	snprintf(path, sizeof path, "/proc/self/fdinfo/%d", fd);
	FILE *f = fopen(path, "r");
	ATF_REQUIRE_MSG(f, "%s: %s", path, strerror(errno));
	long v = -1;
	size_t kl = strlen(key);
	while (fgets(line, sizeof line, f))
		if (!strncmp(line, key, kl) && line[kl] == ':')
			v = strtol(line + kl + 1, NULL, 10);
	fclose(f);
	return v;
}

TP_CASE(master_fdinfo_has_tty_index, TP_LINUX,
	"/proc/self/fdinfo of a pty master has a tty-index line equal to the "
	"pty's number (TIOCGPTN); a slave descriptor's fdinfo has none")
{
	struct tp_pty a, b;
	tp_pty_open(&a, TP_COOKED);
	tp_pty_open(&b, TP_COOKED);
	struct tp_pty *ps[2] = { &a, &b };
	for (int i = 0; i < 2; i++) {
		long idx = fdinfo_value(ps[i]->master, "tty-index");
		ATF_CHECK_EQ_MSG(idx, (long)tp_pty_index(ps[i]->master), "pty %u: the "
				 "master's fdinfo tty-index is %ld",
				 tp_pty_index(ps[i]->master), idx);
		ATF_CHECK_EQ_MSG(fdinfo_value(ps[i]->slave, "tty-index"), -1, "the "
				 "slave of pty %u has a tty-index line",
				 tp_pty_index(ps[i]->master));
	}
	tp_pty_close(&b);
	tp_pty_close(&a);
}

struct driver_line {
	char name[64], node[64], type[64];
	unsigned major, minor_lo, minor_hi;
};

/* The line of /proc/tty/drivers of driver name (the vt's console driver
 * also lists /dev/tty, as "unknown"), or false. */
static bool
driver_line(const char *name, struct driver_line *d)
{
	FILE *f = fopen("/proc/tty/drivers", "r");
	ATF_REQUIRE_MSG(f, "/proc/tty/drivers: %s", strerror(errno));
	char line[256], minors[64];
	bool found = false;
	while (!found && fgets(line, sizeof line, f)) {
		memset(d, 0, sizeof *d);
		if (sscanf(line, "%63s %63s %u %63s %63s", d->name, d->node, &d->major,
			   minors, d->type) != 5 || strcmp(d->name, name))
			continue;
		int n = sscanf(minors, "%u-%u", &d->minor_lo, &d->minor_hi);
		if (n == 1)
			d->minor_hi = d->minor_lo;
		found = n >= 1;
	}
	fclose(f);
	return found;
}

TP_CASE(proc_tty_drivers_lists_pty_numbers, TP_LINUX,
	"/proc/tty/drivers lists pty_slave at /dev/pts (type pty:slave) with "
	"the major and a minor range holding a slave node's, pty_master at "
	"/dev/ptm (pty:master), /dev/ptmx as 5 2 and /dev/tty as 5 0, both "
	"system devices")
{
	struct tp_pty p;
	struct driver_line d;
	struct stat st;
	tp_pty_open(&p, TP_COOKED);
	ATF_REQUIRE_MSG(stat(p.name, &st) == 0, "%s: %s", p.name, strerror(errno));
	ATF_REQUIRE_MSG(driver_line("pty_slave", &d), "no pty_slave line");
	ATF_CHECK_STREQ(d.node, "/dev/pts");
	ATF_CHECK_STREQ(d.type, "pty:slave");
	ATF_CHECK_EQ_MSG(d.major, major(st.st_rdev), "/dev/pts major %u, %s is %u:%u",
			 d.major, p.name, major(st.st_rdev), minor(st.st_rdev));
	ATF_CHECK_MSG(minor(st.st_rdev) >= d.minor_lo && minor(st.st_rdev) <= d.minor_hi,
		      "%s's minor %u outside %u-%u", p.name, minor(st.st_rdev),
		      d.minor_lo, d.minor_hi);
	ATF_REQUIRE_MSG(driver_line("pty_master", &d), "no pty_master line");
	ATF_CHECK_STREQ(d.node, "/dev/ptm");
	ATF_CHECK_STREQ(d.type, "pty:master");
	ATF_REQUIRE_MSG(driver_line("/dev/ptmx", &d), "no /dev/ptmx line");
	ATF_CHECK_STREQ(d.node, "/dev/ptmx");
	ATF_CHECK_MSG(d.major == 5 && d.minor_lo == 2 && !strcmp(d.type, "system"),
		      "/dev/ptmx: %u %u %s", d.major, d.minor_lo, d.type);
	ATF_REQUIRE_MSG(driver_line("/dev/tty", &d), "no /dev/tty line");
	ATF_CHECK_STREQ(d.node, "/dev/tty");
	ATF_CHECK_MSG(d.major == 5 && d.minor_lo == 0 && !strncmp(d.type, "system", 6),
		      "/dev/tty: %u %u %s", d.major, d.minor_lo, d.type);
	tp_pty_close(&p);
}

TP_CASE(proc_tty_driver_is_root_only, TP_LINUX,
	"/proc/tty/driver, which holds the drivers' own files, is a directory "
	"of mode 0500 owned by root")
{
	struct stat st;
	ATF_REQUIRE_MSG(stat("/proc/tty/driver", &st) == 0, "/proc/tty/driver: %s",
			strerror(errno));
	ATF_CHECK_MSG(S_ISDIR(st.st_mode), "/proc/tty/driver is not a directory");
	ATF_CHECK_EQ_MSG(st.st_mode & 07777, 0500, "mode %#o, want 0500",
			 st.st_mode & 07777);
	ATF_CHECK_EQ_MSG(st.st_uid, 0, "owner %u, want root", st.st_uid);
}

ATF_TP_ADD_TCS(tp)
{
	ATF_TP_ADD_TC(tp, master_fdinfo_has_tty_index);
	ATF_TP_ADD_TC(tp, proc_tty_drivers_lists_pty_numbers);
	ATF_TP_ADD_TC(tp, proc_tty_driver_is_root_only);
	return atf_no_error();
}
