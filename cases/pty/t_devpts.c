// SPDX-License-Identifier: GPL-2.0-only
/* t_devpts.c: the devpts filesystem behind the slaves: node mode and owner
 * from the mount options, private instances, index reuse, per-instance and
 * global limits.  Cases that need a private instance run in their own
 * mount namespace, so nothing they mount is visible outside the case. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <sched.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "ttypot.h"

/* devpts defaults when an option is absent (fs/devpts/inode.c). */
#define DEVPTS_DEFAULT_MODE 0600
#define DEVPTS_DEFAULT_PTMX_MODE 0000
/* Unprivileged ids for owner checks; any ids nobody uses. */
#define TEST_UID 12345
#define TEST_GID 54321
#define OTHER_UID 12346
#define OTHER_GID 54322
/* pty_max_respected opens at most this many ptys (Kyua config
 * pty_exhaust_max); beyond it the case skips rather than run long. */
#define PTY_EXHAUST_MAX 4096
/* ... and needs this much of kernel.pty.reserve left for everyone else. */
#define PTY_RESERVE_MIN 64
/* Kernel memory a held pty may cost (measured ~24 KiB on 6.18), with
 * margin; the case skips unless half of MemAvailable covers them all. */
#define PTY_COST_KIB 64
/* Other processes may open or close ptys while the case counts. */
#define PTY_COUNT_SLACK 8

/* ---------------------------------------------------------------- helpers */

struct devpts_opts {
	bool has_uid, has_gid, has_max;
	unsigned uid, gid;
	unsigned mode, ptmxmode;
	long max;
};

/* The super options of the devpts instance with device number dev, read
 * from /proc/self/mountinfo: what the kernel applies, not what we guess. */
static void
devpts_options(dev_t dev, struct devpts_opts *o)
{
	char line[1024], want[32];
	FILE *f = fopen("/proc/self/mountinfo", "r");

	if (f == NULL)
		atf_tc_fail("open /proc/self/mountinfo: %s", strerror(errno));
	snprintf(want, sizeof(want), " %u:%u ", major(dev), minor(dev));
	memset(o, 0, sizeof(*o));
	o->mode = DEVPTS_DEFAULT_MODE;
	o->ptmxmode = DEVPTS_DEFAULT_PTMX_MODE;
	while (fgets(line, sizeof(line), f) != NULL) {
		char *sep = strstr(line, " - ");
		if (sep == NULL || strstr(line, want) == NULL ||
		    strstr(line, want) > sep)
			continue;
		char fstype[64], source[256], opts[512];
		if (sscanf(sep + 3, "%63s %255s %511s", fstype, source, opts) != 3)
			continue;
		if (strcmp(fstype, "devpts") != 0)
			continue;
		fclose(f);
		for (char *save, *t = strtok_r(opts, ",", &save); t != NULL;
		     t = strtok_r(NULL, ",", &save)) {
			if (sscanf(t, "uid=%u", &o->uid) == 1)
				o->has_uid = true;
			else if (sscanf(t, "gid=%u", &o->gid) == 1)
				o->has_gid = true;
			else if (sscanf(t, "max=%ld", &o->max) == 1)
				o->has_max = true;
			else if (strncmp(t, "ptmxmode=", 9) == 0)
				o->ptmxmode = (unsigned)strtoul(t + 9, NULL, 8);
			else if (strncmp(t, "mode=", 5) == 0)
				o->mode = (unsigned)strtoul(t + 5, NULL, 8);
		}
		return;
	}
	fclose(f);
	atf_tc_fail("no devpts mount with device %u:%u in mountinfo",
		    major(dev), minor(dev));
}

static int
open_master(void)
{
	int m = open("/dev/ptmx", O_RDWR | O_NOCTTY | O_CLOEXEC);
	if (m < 0)
		atf_tc_fail("open /dev/ptmx: %s", strerror(errno));
	return m;
}

/* Move the case into its own mount namespace and mount a new devpts
 * instance with opts over /dev/pts, so /dev/ptmx allocates from it.
 * Returns the new instance's device number. */
static dev_t
private_devpts(const char *opts)
{
	struct stat old_dir, new_dir, node;
	char path[64];

	if (unshare(CLONE_NEWNS) != 0)
		atf_tc_skip("needs a private mount namespace: unshare: %s",
			    strerror(errno));
	/* Nothing mounted here may propagate back to the host. */
	if (mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) != 0)
		atf_tc_fail("make / private: %s", strerror(errno));
	if (stat("/dev/pts", &old_dir) != 0)
		atf_tc_fail("stat /dev/pts: %s", strerror(errno));
	if (mount("devpts", "/dev/pts", "devpts", 0, opts) != 0)
		atf_tc_skip("needs a new devpts instance (mount -o %s): %s",
			    opts, strerror(errno));
	if (stat("/dev/pts", &new_dir) != 0)
		atf_tc_fail("stat /dev/pts: %s", strerror(errno));
	if (new_dir.st_dev == old_dir.st_dev)
		atf_tc_fail("mount -o %s did not give a new devpts instance",
			    opts);
	/* /dev/ptmx must allocate from the new instance (path lookup of
	 * pts/ next to it), or the case would measure the host's. */
	int m = open_master();
	snprintf(path, sizeof(path), "/dev/pts/%u", tp_pty_index(m));
	if (stat(path, &node) != 0 || node.st_dev != new_dir.st_dev)
		atf_tc_fail("/dev/ptmx does not allocate from the new instance");
	close(m);
	tp_wait_path_gone(path, "probe pty of the new instance to go");
	return new_dir.st_dev;
}

/* ---------------------------------------------------------------- cases */

TP_CASE(slave_node_follows_mount_options, TP_LINUX,
	"A new slave node /dev/pts/N is a char device with the permission "
	"bits of the devpts mode= option (0600 if absent), owned by the "
	"uid=/gid= options or else by the opener's fsuid/fsgid, as this "
	"instance's options in /proc/self/mountinfo say")
{
	struct stat dir, node;
	struct devpts_opts o;
	char path[64];

	ATF_REQUIRE(stat("/dev/pts", &dir) == 0);
	devpts_options(dir.st_dev, &o);
	int m = open_master();
	snprintf(path, sizeof(path), "/dev/pts/%u", tp_pty_index(m));
	ATF_REQUIRE_MSG(stat(path, &node) == 0, "stat %s: %s", path,
			strerror(errno));
	ATF_REQUIRE_MSG(node.st_dev == dir.st_dev,
			"%s is not on the /dev/pts instance", path);
	ATF_CHECK_MSG(S_ISCHR(node.st_mode), "%s is not a char device", path);
	ATF_CHECK_MSG((node.st_mode & 07777) == o.mode,
		      "%s mode %04o, mount option mode=%04o", path,
		      node.st_mode & 07777, o.mode);
	unsigned uid = o.has_uid ? o.uid : (unsigned)geteuid();
	unsigned gid = o.has_gid ? o.gid : (unsigned)getegid();
	ATF_CHECK_MSG(node.st_uid == uid, "%s uid %u, want %u (%s)", path,
		      node.st_uid, uid, o.has_uid ? "uid= option" : "opener");
	ATF_CHECK_MSG(node.st_gid == gid, "%s gid %u, want %u (%s)", path,
		      node.st_gid, gid, o.has_gid ? "gid= option" : "opener");
	close(m);
}

struct owner_arg {
	struct devpts_opts o;
};

/* As TEST_UID/TEST_GID: open a master, check the node's owner, open the
 * slave; then as OTHER_UID/OTHER_GID the slave must be refused when the
 * mode gives "other" nothing. */
static int
child_owner(void *varg)
{
	struct owner_arg *a = varg;
	char path[64];
	struct stat st;

	if (setgroups(0, NULL) != 0 ||
	    setresgid(TEST_GID, TEST_GID, 0) != 0 ||
	    setresuid(TEST_UID, TEST_UID, 0) != 0)
		return tp_child_fail("drop to %d/%d: %s", TEST_UID, TEST_GID,
				     strerror(errno));
	int m = open("/dev/ptmx", O_RDWR | O_NOCTTY);
	if (m < 0)
		return tp_child_fail("open /dev/ptmx as uid %d: %s", TEST_UID,
				     strerror(errno));
	if (grantpt(m) != 0 || unlockpt(m) != 0 ||
	    ptsname_r(m, path, sizeof(path)) != 0)
		return tp_child_fail("grantpt/unlockpt/ptsname: %s",
				     strerror(errno));
	if (stat(path, &st) != 0)
		return tp_child_fail("stat %s: %s", path, strerror(errno));
	unsigned uid = a->o.has_uid ? a->o.uid : TEST_UID;
	unsigned gid = a->o.has_gid ? a->o.gid : TEST_GID;
	if (st.st_uid != uid || st.st_gid != gid)
		return tp_child_fail("%s owned by %u:%u, want %u:%u", path,
				     st.st_uid, st.st_gid, uid, gid);
	if ((st.st_mode & 07777) != a->o.mode)
		return tp_child_fail("%s mode %04o, want %04o", path,
				     st.st_mode & 07777, a->o.mode);
	if (!a->o.has_uid && (a->o.mode & 0600) == 0600) {
		int s = open(path, O_RDWR | O_NOCTTY);
		if (s < 0)
			return tp_child_fail("owner open of %s: %s", path,
					     strerror(errno));
		close(s);
	}
	/* Another user: saved uid 0 lets the child switch identities. */
	if (seteuid(0) != 0 || setegid(OTHER_GID) != 0 ||
	    seteuid(OTHER_UID) != 0)
		return tp_child_fail("switch to %d/%d: %s", OTHER_UID,
				     OTHER_GID, strerror(errno));
	if ((a->o.mode & 0006) == 0) {
		int s = open(path, O_RDWR | O_NOCTTY);
		if (s >= 0)
			return tp_child_fail("uid %d opened %s (mode %04o, "
					     "owner %u)", OTHER_UID, path,
					     a->o.mode, st.st_uid);
		if (errno != EACCES)
			return tp_child_fail("open %s as another user: want "
					     "EACCES, got %s", path,
					     strerror(errno));
	}
	return 0;
}

TP_CASE_ROOT(slave_node_owner_is_opener, TP_LINUX,
	"A slave node belongs to the uid/gid that opened the master (unless "
	"the devpts uid=/gid= options say otherwise), its owner can open it, "
	"and another user cannot when the mode gives others no access")
{
	struct stat dir, ptmx;
	struct owner_arg a;
	struct tp_child c;

	ATF_REQUIRE(stat("/dev/pts", &dir) == 0);
	devpts_options(dir.st_dev, &a.o);
	ATF_REQUIRE(stat("/dev/ptmx", &ptmx) == 0);
	if ((ptmx.st_mode & 0006) != 0006)
		atf_tc_skip("needs /dev/ptmx open to all users (mode %04o)",
			    ptmx.st_mode & 07777);
	tp_child_start(&c, child_owner, &a);
	tp_child_join(&c, TP_WAIT_MS, "unprivileged child opening a pty");
}

TP_CASE_ROOT(instance_options_applied, TP_LINUX,
	"A new devpts instance mounted with uid=, gid=5, mode=0620, "
	"ptmxmode=0666 numbers its ptys from 0 independently of the host's, "
	"shows the options in mountinfo, and gives its slave nodes and its "
	"ptmx exactly those owners and modes (devpts instances, eedf265aa003)")
{
	struct stat node, ptmx;
	struct devpts_opts o;

	dev_t dev = private_devpts(
		"newinstance,uid=4321,gid=5,mode=0620,ptmxmode=0666");
	devpts_options(dev, &o);
	ATF_CHECK_MSG(o.has_uid && o.uid == 4321, "mountinfo uid option");
	ATF_CHECK_MSG(o.has_gid && o.gid == 5, "mountinfo gid option");
	ATF_CHECK_MSG(o.mode == 0620, "mountinfo mode=%04o", o.mode);
	ATF_CHECK_MSG(o.ptmxmode == 0666, "mountinfo ptmxmode=%04o",
		      o.ptmxmode);
	ATF_REQUIRE(stat("/dev/pts/ptmx", &ptmx) == 0);
	ATF_CHECK_MSG((ptmx.st_mode & 07777) == 0666, "pts/ptmx mode %04o",
		      ptmx.st_mode & 07777);
	int m = open_master();
	unsigned n = tp_pty_index(m);
	ATF_CHECK_EQ_MSG(n, 0, "first pty of a fresh instance has index %u",
			 n);
	ATF_REQUIRE(stat("/dev/pts/0", &node) == 0);
	ATF_CHECK_MSG(node.st_dev == dev, "/dev/pts/0 not in the instance");
	ATF_CHECK_MSG((node.st_mode & 07777) == 0620, "node mode %04o",
		      node.st_mode & 07777);
	ATF_CHECK_MSG(node.st_uid == 4321 && node.st_gid == 5,
		      "node owner %u:%u, want 4321:5", node.st_uid, node.st_gid);
	close(m);
}

TP_CASE_ROOT(index_reused_after_close, TP_LINUX,
	"In a fresh devpts instance ptys get indices 0, 1, 2; closing pair 1 "
	"frees index 1 for the next open; a master closed while its slave is "
	"still open keeps its index until the slave closes too")
{
	int m[3], s[3];
	char path[3][64];

	private_devpts("newinstance,ptmxmode=0666");
	for (int i = 0; i < 3; i++) {
		m[i] = open_master();
		ATF_REQUIRE_EQ_MSG(tp_pty_index(m[i]), (unsigned)i,
				   "pty %d got index %u", i, tp_pty_index(m[i]));
		ATF_REQUIRE(unlockpt(m[i]) == 0);
		snprintf(path[i], sizeof(path[i]), "/dev/pts/%d", i);
		s[i] = open(path[i], O_RDWR | O_NOCTTY | O_CLOEXEC);
		ATF_REQUIRE_MSG(s[i] >= 0, "open %s: %s", path[i],
				strerror(errno));
	}
	close(s[1]);
	close(m[1]);
	close(m[0]); /* slave 0 stays open */
	tp_wait_path_gone(path[1], "node of closed pair 1 to go");
	tp_wait_path_gone(path[0], "node of closed master 0 to go");
	int a = open_master();
	ATF_CHECK_EQ_MSG(tp_pty_index(a), 1,
			 "after closing pair 1 (slave 0 still open) the next "
			 "index is %u, want 1", tp_pty_index(a));
	close(s[0]);
	int b = open_master();
	ATF_CHECK_EQ_MSG(tp_pty_index(b), 0,
			 "after closing slave 0 the next index is %u, want 0",
			 tp_pty_index(b));
	close(a);
	close(b);
	close(s[2]);
	close(m[2]);
}

TP_CASE_ROOT(instance_max_option_enforced, TP_LINUX,
	"A devpts instance mounted with max=4 allows four ptys; the fifth open "
	"of ptmx fails with ENOSPC; closing one lets the next open take its "
	"index")
{
	int m[4];
	struct devpts_opts o;

	dev_t dev = private_devpts("newinstance,ptmxmode=0666,max=4");
	devpts_options(dev, &o);
	ATF_CHECK_MSG(o.has_max && o.max == 4, "mountinfo max option");
	for (int i = 0; i < 4; i++)
		m[i] = open_master();
	int x = open("/dev/ptmx", O_RDWR | O_NOCTTY | O_CLOEXEC);
	ATF_CHECK_MSG(x < 0 && errno == ENOSPC,
		      "fifth pty in a max=4 instance: want ENOSPC, got %s",
		      x < 0 ? strerror(errno) : "success");
	if (x >= 0)
		close(x);
	unsigned freed = tp_pty_index(m[2]);
	close(m[2]);
	m[2] = open_master();
	ATF_CHECK_EQ_MSG(tp_pty_index(m[2]), freed,
			 "reopen after closing index %u got index %u", freed,
			 tp_pty_index(m[2]));
	for (int i = 0; i < 4; i++)
		close(m[i]);
}

static int
count_nodes(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int n = 0;
	if (d == NULL)
		return -1;
	while ((e = readdir(d)) != NULL)
		if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0 &&
		    strcmp(e->d_name, "ptmx") != 0)
			n++;
	closedir(d);
	return n;
}

/* In the case's private instance: fail opens at RLIMIT_NOFILE, then show
 * index 0 is still free and no node was left behind. */
static int
child_emfile(void *varg)
{
	(void)varg;
	int low = open("/dev/null", O_RDONLY);
	if (low < 0)
		return tp_child_fail("open /dev/null: %s", strerror(errno));
	close(low);
	struct rlimit rl, saved;
	if (getrlimit(RLIMIT_NOFILE, &saved) != 0)
		return tp_child_fail("getrlimit: %s", strerror(errno));
	rl = saved;
	rl.rlim_cur = (rlim_t)low;
	if (setrlimit(RLIMIT_NOFILE, &rl) != 0)
		return tp_child_fail("setrlimit: %s", strerror(errno));
	int m = open("/dev/ptmx", O_RDWR | O_NOCTTY);
	if (m >= 0 || errno != EMFILE)
		return tp_child_fail("ptmx at a full fd table: want EMFILE, "
				     "got %s", m >= 0 ? "success" : strerror(errno));
	rl.rlim_cur = (rlim_t)low + 1;
	if (setrlimit(RLIMIT_NOFILE, &rl) != 0)
		return tp_child_fail("setrlimit: %s", strerror(errno));
	m = open("/dev/ptmx", O_RDWR | O_NOCTTY);
	unsigned n = 99;
	if (m < 0 || ioctl(m, TIOCGPTN, &n) != 0 || n != 0)
		return tp_child_fail("master with one free slot: fd %d index "
				     "%u (%s)", m, n, strerror(errno));
	if (unlockpt(m) != 0)
		return tp_child_fail("unlockpt: %s", strerror(errno));
	int s = open("/dev/pts/0", O_RDWR | O_NOCTTY);
	if (s >= 0 || errno != EMFILE)
		return tp_child_fail("slave at a full fd table: want EMFILE, "
				     "got %s", s >= 0 ? "success" : strerror(errno));
	close(m);
	if (setrlimit(RLIMIT_NOFILE, &saved) != 0)
		return tp_child_fail("setrlimit: %s", strerror(errno));
	if (count_nodes("/dev/pts") != 0)
		return tp_child_fail("%d slave nodes left in the instance",
				     count_nodes("/dev/pts"));
	m = open("/dev/ptmx", O_RDWR | O_NOCTTY);
	if (m < 0 || ioctl(m, TIOCGPTN, &n) != 0)
		return tp_child_fail("master after the failures: %s",
				     strerror(errno));
	if (n != 0)
		return tp_child_fail("index 0 leaked: next pty got index %u", n);
	close(m);
	return 0;
}

TP_CASE_ROOT(emfile_leaks_no_pty, TP_LINUX,
	"In a fresh devpts instance, ptmx and slave opens refused with EMFILE "
	"leave no slave node and no allocated index behind: the next pty "
	"gets index 0")
{
	struct tp_child c;

	private_devpts("newinstance,ptmxmode=0666");
	ATF_REQUIRE_EQ(count_nodes("/dev/pts"), 0);
	tp_child_start(&c, child_emfile, NULL);
	tp_child_join(&c, TP_WAIT_MS, "child at a lowered RLIMIT_NOFILE");
}

static long
mem_available_kib(void)
{
	FILE *f = fopen("/proc/meminfo", "r");
	char line[256];
	long v = -1;
	if (f == NULL)
		return -1;
	while (fgets(line, sizeof(line), f) != NULL)
		if (sscanf(line, "MemAvailable: %ld", &v) == 1)
			break;
	fclose(f);
	return v;
}

static long
read_sysctl(const char *path)
{
	FILE *f = fopen(path, "r");
	long v;
	if (f == NULL)
		atf_tc_skip("needs %s: %s", path, strerror(errno));
	if (fscanf(f, "%ld", &v) != 1)
		atf_tc_fail("cannot parse %s", path);
	fclose(f);
	return v;
}

TP_CASE_ROOT(pty_max_respected, TP_LINUX,
	"A devpts instance mounted outside the initial mount namespace may "
	"not use the kernel.pty.reserve pool: opening ptys there fails with "
	"ENOSPC once kernel.pty.nr reaches kernel.pty.max - reserve (Linux "
	"stops one short of it since devpts_new_index counts with "
	"atomic_inc_return), and the limit is never passed; the sysctls are "
	"read, never raised")
{
	long max = read_sysctl("/proc/sys/kernel/pty/max");
	long reserve = read_sysctl("/proc/sys/kernel/pty/reserve");
	long nr0 = read_sysctl("/proc/sys/kernel/pty/nr");
	long limit = max - reserve;
	long cap = tp_config_long(tc, "pty_exhaust_max", PTY_EXHAUST_MAX);

	if (reserve < PTY_RESERVE_MIN)
		atf_tc_skip("needs kernel.pty.reserve >= %d so exhausting the "
			    "rest leaves ptys for others (it is %ld)",
			    PTY_RESERVE_MIN, reserve);
	if (limit - nr0 > cap)
		atf_tc_skip("kernel.pty.max - reserve - nr = %ld ptys to open, "
			    "more than pty_exhaust_max=%ld", limit - nr0, cap);
	long avail = mem_available_kib();
	if (avail < 0 || (limit - nr0) * PTY_COST_KIB > avail / 2)
		atf_tc_skip("needs %ld KiB of free memory to hold %ld ptys "
			    "(MemAvailable %ld KiB)", (limit - nr0) * PTY_COST_KIB,
			    limit - nr0, avail);
	if (limit - nr0 < 1)
		atf_tc_skip("no pty left below kernel.pty.max - reserve "
			    "(max %ld, reserve %ld, nr %ld)", max, reserve, nr0);
	private_devpts("newinstance,ptmxmode=0666");

	long room = limit - nr0 + PTY_COUNT_SLACK + 64;
	struct rlimit rl;
	ATF_REQUIRE(getrlimit(RLIMIT_NOFILE, &rl) == 0);
	if (rl.rlim_cur < (rlim_t)room) {
		rl.rlim_cur = (rlim_t)room;
		if (rl.rlim_max < rl.rlim_cur)
			rl.rlim_max = rl.rlim_cur;
		ATF_REQUIRE_MSG(setrlimit(RLIMIT_NOFILE, &rl) == 0,
				"raise RLIMIT_NOFILE to %ld: %s", room,
				strerror(errno));
	}
	int *fds = calloc((size_t)room, sizeof(int));
	ATF_REQUIRE(fds != NULL);
	long opened = 0, nr_at_fail = -1;
	int err = 0;
	tp_waiting_for("opening ptys up to kernel.pty.max - reserve");
	/* Stop a little past the limit: a kernel that ignores it fails
	 * here without eating into the reserve. */
	while (opened < limit - nr0 + PTY_COUNT_SLACK) {
		int fd = open("/dev/ptmx", O_RDWR | O_NOCTTY | O_CLOEXEC);
		if (fd < 0) {
			err = errno;
			nr_at_fail = read_sysctl("/proc/sys/kernel/pty/nr");
			break;
		}
		fds[opened++] = fd;
	}
	for (long i = 0; i < opened; i++)
		close(fds[i]);
	free(fds);
	ATF_REQUIRE_MSG(err != 0,
			"opened %ld ptys, past kernel.pty.max %ld - reserve %ld "
			"(nr was %ld)", opened, max, reserve, nr0);
	ATF_CHECK_MSG(err == ENOSPC, "failure at the limit: want ENOSPC, got %s",
		      strerror(err));
	ATF_CHECK_MSG(nr_at_fail <= limit,
		      "kernel.pty.nr %ld exceeds max - reserve %ld", nr_at_fail,
		      limit);
	ATF_CHECK_MSG(nr_at_fail >= limit - 1 - PTY_COUNT_SLACK,
		      "refused at kernel.pty.nr %ld, well below max - reserve "
		      "%ld (opened %ld)", nr_at_fail, limit, opened);
	/* The pool recovers once ours are closed. */
	int again = open("/dev/ptmx", O_RDWR | O_NOCTTY | O_CLOEXEC);
	ATF_CHECK_MSG(again >= 0, "open after closing all: %s", strerror(errno));
	if (again >= 0)
		close(again);
}

ATF_TP_ADD_TCS(tp)
{
	ATF_TP_ADD_TC(tp, slave_node_follows_mount_options);
	ATF_TP_ADD_TC(tp, slave_node_owner_is_opener);
	ATF_TP_ADD_TC(tp, instance_options_applied);
	ATF_TP_ADD_TC(tp, index_reused_after_close);
	ATF_TP_ADD_TC(tp, instance_max_option_enforced);
	ATF_TP_ADD_TC(tp, emfile_leaks_no_pty);
	ATF_TP_ADD_TC(tp, pty_max_respected);
	return atf_no_error();
}
