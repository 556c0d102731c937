// SPDX-License-Identifier: GPL-2.0-only
/* t_devpts_instance.c: regressions.md #25: since eedf265aa003 (4.7) every
 * devpts mount is a new instance with its own numbering.  pty/t_devpts.c
 * checks options and limits; here the catalogue recipe: in a private mount
 * namespace a devpts mounted elsewhere numbers its ptys from 0, its nodes
 * are not the host's /dev/pts nodes, and its pair is connected. */
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ttypot.h"

static int
in_new_instance(void *arg)
{
	const char *dir = arg;
	char path[256];
	struct stat mine, host;
	unsigned idx[2];
	int m[2];

	if (unshare(CLONE_NEWNS) != 0)
		return tp_child_fail("unshare(CLONE_NEWNS): %s", strerror(errno));
	if (mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) != 0)
		return tp_child_fail("make / private: %s", strerror(errno));
	if (mount("devpts", dir, "devpts", 0, "newinstance,ptmxmode=0666") != 0)
		return tp_child_fail("mount devpts on %s: %s", dir,
				     strerror(errno));
	snprintf(path, sizeof(path), "%s/ptmx", dir);
	for (int i = 0; i < 2; i++) {
		m[i] = open(path, O_RDWR | O_NOCTTY);
		if (m[i] < 0)
			return tp_child_fail("open %s: %s", path, strerror(errno));
		int unlock = 0;
		if (ioctl(m[i], TIOCGPTN, &idx[i]) != 0 ||
		    ioctl(m[i], TIOCSPTLCK, &unlock) != 0)
			return tp_child_fail("TIOCGPTN/TIOCSPTLCK: %s",
					     strerror(errno));
	}
	if (idx[0] != 0 || idx[1] != 1)
		return tp_child_fail("new instance numbered %u, %u; want 0, 1",
				     idx[0], idx[1]);
	snprintf(path, sizeof(path), "%s/0", dir);
	if (stat(path, &mine) != 0 || stat("/dev/pts", &host) != 0)
		return tp_child_fail("stat %s or /dev/pts: %s", path,
				     strerror(errno));
	if (mine.st_dev == host.st_dev)
		return tp_child_fail("%s is on the host's /dev/pts", path);
	int s = open(path, O_RDWR | O_NOCTTY);
	if (s < 0)
		return tp_child_fail("open %s: %s", path, strerror(errno));
	char c[2] = { 0, 0 };
	/* A new slave is canonical: send a whole line. */
	if (write(m[0], "k\n", 2) != 2 || read(s, c, 2) != 2 || c[0] != 'k')
		return tp_child_fail("pair 0 of the instance not connected");
	return 0; /* the mount goes with the namespace */
}

TP_CASE_META(devpts_new_instance_numbers_from_zero, TP_LINUX,
	     "#25 (root): in a private mount namespace a devpts mounted over "
	     "/tmp (seen only there) gives ptys 0 and 1, its node 0 is not on "
	     "the host's /dev/pts, and pair 0 is connected",
	     (TP_REQUIRE_ROOT(tc), TP_TAG_COMMITS(tc, "-", "eedf265aa003")))
{
	struct tp_child c;

	/* Mounted over /tmp inside the child's own namespace: nothing to
	 * clean up, and nothing the rest of the machine sees. */
	tp_child_start(&c, in_new_instance, "/tmp");
	tp_child_join(&c, TP_WAIT_MS, "child in its own devpts instance");
}

ATF_TP_ADD_TCS(tp)
{
	ATF_TP_ADD_TC(tp, devpts_new_instance_numbers_from_zero);
	return atf_no_error();
}
