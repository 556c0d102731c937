// SPDX-License-Identifier: GPL-2.0-only
/* tp_pty.c: the pty pair fixture. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "ttypot.h"

void
tp_pty_open_flags(struct tp_pty *p, enum tp_mode mode, int master_flags)
{
	p->master = posix_openpt(O_RDWR | O_NOCTTY | master_flags);
	if (p->master < 0)
		atf_tc_fail("posix_openpt: %s", strerror(errno));
	if (grantpt(p->master) != 0)
		atf_tc_fail("grantpt: %s", strerror(errno));
	if (unlockpt(p->master) != 0)
		atf_tc_fail("unlockpt: %s", strerror(errno));
	if (ptsname_r(p->master, p->name, sizeof(p->name)) != 0)
		atf_tc_fail("ptsname_r: %s", strerror(errno));
	/* O_NOCTTY always: Kyua makes each case a session leader, and a
	 * slave that became its controlling tty would SIGHUP it on close. */
	p->slave = open(p->name, O_RDWR | O_NOCTTY | O_CLOEXEC);
	if (p->slave < 0)
		atf_tc_fail("open %s: %s", p->name, strerror(errno));
	if (mode == TP_RAW)
		tp_tc_raw(p->slave);
}

void
tp_pty_open(struct tp_pty *p, enum tp_mode mode)
{
	tp_pty_open_flags(p, mode, O_CLOEXEC);
}

void
tp_pty_open_ldisc(struct tp_pty *p, enum tp_mode mode, int ldisc, const char *name,
		  const char *needs)
{
	tp_pty_open(p, mode);
	if (ioctl(p->slave, TIOCSETD, &ldisc) != 0)
		atf_tc_skip("TIOCSETD %s (%d) failed: %s: needs %s", name, ldisc,
			    strerror(errno), needs);
}

void
tp_close_slave(struct tp_pty *p)
{
	if (p->slave >= 0)
		close(p->slave);
	p->slave = -1;
}

void
tp_close_master(struct tp_pty *p)
{
	if (p->master >= 0)
		close(p->master);
	p->master = -1;
}

void
tp_pty_close(struct tp_pty *p)
{
	tp_close_slave(p);
	tp_close_master(p);
}

static long
read_proc_long(const char *path)
{
	FILE *f = fopen(path, "r");
	long v = -1;
	if (f == NULL)
		return -1;
	if (fscanf(f, "%ld", &v) != 1)
		v = -1;
	fclose(f);
	return v;
}

long
tp_pty_free_slots(void)
{
	long max = read_proc_long("/proc/sys/kernel/pty/max");
	long nr = read_proc_long("/proc/sys/kernel/pty/nr");
	if (max < 0 || nr < 0)
		return -1;
	return max - nr;
}

unsigned
tp_pty_index(int master)
{
	unsigned n;
	if (ioctl(master, TIOCGPTN, &n) != 0)
		atf_tc_fail("TIOCGPTN on a master (fd %d): %s", master,
			    strerror(errno));
	return n;
}
