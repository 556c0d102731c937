// SPDX-License-Identifier: GPL-2.0-only
/* t_open.c: opening a pty pair: posix_openpt, grantpt, unlockpt, ptsname,
 * the slave lock, controlling-tty rules, many pairs, fd limits, node removal,
 * and the termios each side starts with. */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/sysmacros.h>
#include <termios.h>
#include <unistd.h>

#include "ttypot.h"
#include "tp_termios2.h"

/* Pairs held open at once by many_pairs_isolated. */
#define MANY_PAIRS 64
/* Linux: UNIX98 pty slaves are char major 136, minor = pty index. */
#define PTS_MAJOR 136
/* ... and their masters char major 128 (the ptm driver), reached only
 * through /dev/ptmx. */
#define PTM_MAJOR 128

static int
open_master(int extra_flags)
{
	int m = posix_openpt(O_RDWR | O_NOCTTY | extra_flags);
	if (m < 0)
		atf_tc_fail("posix_openpt: %s", strerror(errno));
	return m;
}

static void
slave_path(int master, char *out, size_t len)
{
	if (ptsname_r(master, out, len) != 0)
		atf_tc_fail("ptsname_r on a master: %s", strerror(errno));
}

static int
open_slave(const char *path)
{
	int s = open(path, O_RDWR | O_NOCTTY | O_CLOEXEC);
	if (s < 0)
		atf_tc_fail("open %s: %s", path, strerror(errno));
	return s;
}

/* Bytes written on one side must arrive on the other: proves the two fds
 * are the two ends of one pair.  The slave is made raw so nothing is echoed
 * or translated. */
static void
check_pair_connected(int master, int slave, const char *label)
{
	char buf[32], msg[32];
	char what[96];

	tp_tc_raw(slave);
	snprintf(msg, sizeof(msg), "m2s:%s", label);
	snprintf(what, sizeof(what), "%s: master->slave bytes", label);
	tp_write_str(master, msg, what);
	tp_read_exact(slave, buf, strlen(msg), sizeof(buf), what);
	ATF_CHECK_MSG(memcmp(buf, msg, strlen(msg)) == 0,
		      "%s: slave read \"%.*s\"", label, (int)strlen(msg), buf);
	snprintf(msg, sizeof(msg), "s2m:%s", label);
	snprintf(what, sizeof(what), "%s: slave->master bytes", label);
	tp_write_str(slave, msg, what);
	tp_read_exact(master, buf, strlen(msg), sizeof(buf), what);
	ATF_CHECK_MSG(memcmp(buf, msg, strlen(msg)) == 0,
		      "%s: master read \"%.*s\"", label, (int)strlen(msg), buf);
}

/* ---------------------------------------------------------------- children */

/* In a child that called setsid(): 0 if it has no controlling tty, 1 if
 * it has one, -1 (after tp_child_fail) if /dev/tty gave another error. */
static int
child_ctty_state(void)
{
	int fd = open("/dev/tty", O_RDWR | O_NOCTTY);
	if (fd >= 0) {
		close(fd);
		return 1;
	}
	if (errno == ENXIO)
		return 0;
	tp_child_fail("open /dev/tty: %s", strerror(errno));
	return -1;
}

struct ctty_arg {
	char path[64];
};

/* The master is never a controlling tty, with or without O_NOCTTY; the
 * same fresh session leader can still acquire the slave (control). */
static int
child_master_not_ctty(void *varg)
{
	(void)varg;
	if (setsid() < 0)
		return tp_child_fail("setsid: %s", strerror(errno));
	int m1 = posix_openpt(O_RDWR | O_NOCTTY);
	if (m1 < 0)
		return tp_child_fail("posix_openpt(O_NOCTTY): %s",
				     strerror(errno));
	if (child_ctty_state() != 0)
		return tp_child_fail("opening a master with O_NOCTTY made it "
				     "the controlling tty");
	int m2 = posix_openpt(O_RDWR);
	if (m2 < 0)
		return tp_child_fail("posix_openpt(O_RDWR): %s", strerror(errno));
	if (child_ctty_state() != 0)
		return tp_child_fail("opening a master without O_NOCTTY made "
				     "it the controlling tty");
	/* The pair belongs to no session: nobody made it a ctty. */
	pid_t sid = tcgetsid(m2);
	if (sid != -1 || errno != ENOTTY)
		return tp_child_fail("tcgetsid on the new master: want ENOTTY, "
				     "got %d (%s)", (int)sid,
				     sid < 0 ? strerror(errno) : "");
	/* Control: this session leader can acquire a tty at all. */
	char path[64];
	if (grantpt(m2) != 0 || unlockpt(m2) != 0 ||
	    ptsname_r(m2, path, sizeof(path)) != 0)
		return tp_child_fail("grantpt/unlockpt/ptsname: %s",
				     strerror(errno));
	int s = open(path, O_RDWR);
	if (s < 0)
		return tp_child_fail("open %s: %s", path, strerror(errno));
	if (child_ctty_state() != 1)
		return tp_child_fail("control failed: opening the slave "
				     "without O_NOCTTY gave no controlling tty");
	return 0;
}

/* O_NOCTTY on the slave leaves the session without a ctty; the same open
 * without it makes the slave the ctty.  Writes "ctty" through /dev/tty so
 * the case can see which tty /dev/tty really is. */
static int
child_slave_ctty(void *varg)
{
	struct ctty_arg *a = varg;

	if (setsid() < 0)
		return tp_child_fail("setsid: %s", strerror(errno));
	int s1 = open(a->path, O_RDWR | O_NOCTTY);
	if (s1 < 0)
		return tp_child_fail("open %s O_NOCTTY: %s", a->path,
				     strerror(errno));
	int st = child_ctty_state();
	if (st != 0)
		return st < 0 ? 1 : tp_child_fail("slave opened with O_NOCTTY "
						  "became the controlling tty");
	if (tcgetsid(s1) != -1 || errno != ENOTTY)
		return tp_child_fail("tcgetsid on a non-ctty slave: want ENOTTY, "
				     "got %s", strerror(errno));
	int s2 = open(a->path, O_RDWR);
	if (s2 < 0)
		return tp_child_fail("open %s: %s", a->path, strerror(errno));
	pid_t sid = tcgetsid(s2);
	if (sid != getpid())
		return tp_child_fail("slave opened without O_NOCTTY: tcgetsid "
				     "%d, want own session %d (%s)", (int)sid,
				     (int)getpid(), sid < 0 ? strerror(errno) : "");
	int t = open("/dev/tty", O_RDWR | O_NOCTTY);
	if (t < 0)
		return tp_child_fail("open /dev/tty with a ctty: %s",
				     strerror(errno));
	if (write(t, "ctty", 4) != 4)
		return tp_child_fail("write /dev/tty: %s", strerror(errno));
	return 0;
}

/* ---------------------------------------------------------------- cases */

TP_CASE(pair_is_tty_named_by_ptsname, TP_POSIX,
	"posix_openpt gives a master that is a tty; after grantpt and "
	"unlockpt the path from ptsname opens a slave that is a tty, "
	"ttyname(slave) equals ptsname, and bytes flow both ways")
{
	char path[64], tn[64];
	int m = open_master(0);

	ATF_CHECK_MSG(isatty(m), "isatty(master) is false");
	ATF_REQUIRE_MSG(grantpt(m) == 0, "grantpt: %s", strerror(errno));
	ATF_REQUIRE_MSG(unlockpt(m) == 0, "unlockpt: %s", strerror(errno));
	slave_path(m, path, sizeof(path));
	int s = open_slave(path);
	ATF_CHECK_MSG(isatty(s), "isatty(slave) is false");
	ATF_REQUIRE_MSG(ttyname_r(s, tn, sizeof(tn)) == 0, "ttyname_r: %s",
			strerror(errno));
	ATF_CHECK_MSG(strcmp(tn, path) == 0, "ttyname %s, ptsname %s", tn,
		      path);
	check_pair_connected(m, s, "pair");
	close(s);
	close(m);
}

TP_CASE(openpt_cloexec_honoured, TP_POSIX,
	"posix_openpt(O_CLOEXEC) returns a descriptor with FD_CLOEXEC set; "
	"without O_CLOEXEC the flag is clear")
{
	int with = open_master(O_CLOEXEC);
	int without = open_master(0);
	int f1 = fcntl(with, F_GETFD), f2 = fcntl(without, F_GETFD);

	ATF_REQUIRE(f1 >= 0 && f2 >= 0);
	ATF_CHECK_MSG(f1 & FD_CLOEXEC, "O_CLOEXEC master lacks FD_CLOEXEC");
	ATF_CHECK_MSG(!(f2 & FD_CLOEXEC), "plain master has FD_CLOEXEC");
	close(with);
	close(without);
}

TP_CASE(master_never_becomes_ctty, TP_LINUX,
	"A session leader without a controlling tty that opens a master, "
	"with or without O_NOCTTY, gets no controlling tty (Linux never "
	"makes a master a ctty); the same process then acquires the slave, "
	"showing it could acquire one")
{
	struct tp_child c;
	tp_child_start(&c, child_master_not_ctty, NULL);
	tp_child_join(&c, TP_WAIT_MS, "session leader opening masters");
}

TP_CASE(slave_ctty_only_without_noctty, TP_LINUX,
	"A session leader without a ctty that opens the slave with O_NOCTTY "
	"gets no ctty; opening it without O_NOCTTY makes it the ctty, and "
	"/dev/tty then writes to that pty")
{
	struct tp_pty p;
	struct ctty_arg a;
	struct tp_child c;
	char buf[8];

	/* The case keeps its own slave fd open so the child's exit does not
	 * close the slave and the bytes stay readable on the master. */
	tp_pty_open(&p, TP_RAW);
	snprintf(a.path, sizeof(a.path), "%s", p.name);
	tp_child_start(&c, child_slave_ctty, &a);
	tp_child_join(&c, TP_WAIT_MS, "session leader opening the slave");
	tp_read_exact(p.master, buf, 4, sizeof(buf),
		      "bytes the child wrote to /dev/tty, on the master");
	ATF_CHECK_MSG(memcmp(buf, "ctty", 4) == 0, "master read \"%.4s\"", buf);
	tp_pty_close(&p);
}

TP_CASE(slave_open_before_unlockpt_eio, TP_LINUX,
	"Before unlockpt the slave node exists but opening it fails with "
	"EIO; after unlockpt the same open succeeds")
{
	char path[64];
	struct stat st;
	int m = open_master(0);

	ATF_REQUIRE_MSG(grantpt(m) == 0, "grantpt: %s", strerror(errno));
	slave_path(m, path, sizeof(path));
	ATF_REQUIRE_MSG(stat(path, &st) == 0, "stat %s before unlockpt: %s",
			path, strerror(errno));
	int s = open(path, O_RDWR | O_NOCTTY);
	ATF_CHECK_MSG(s < 0 && errno == EIO,
		      "open of a locked slave: want EIO, got %s",
		      s < 0 ? strerror(errno) : "success");
	if (s >= 0)
		close(s);
	ATF_REQUIRE_MSG(unlockpt(m) == 0, "unlockpt: %s", strerror(errno));
	s = open_slave(path);
	close(s);
	close(m);
}

/* open() of a master's own device node: its errno, and whether it came
 * back at once (a retrying open returns only when a signal is pending,
 * here the nudge after TP_WAIT_MS). */
static int
open_ptm_node(const char *node, long long *ms)
{
	timer_t t = tp_nudge_start(TP_WAIT_MS);
	long long t0 = tp_now_ms();
	errno = 0;
	int fd = open(node, O_RDWR | O_NOCTTY | O_CLOEXEC);
	int err = fd < 0 ? errno : 0;
	*ms = tp_now_ms() - t0;
	tp_nudge_stop(t);
	if (fd >= 0)
		close(fd);
	return fd >= 0 ? 0 : err;
}

TP_CASE_ROOT(master_device_node_open_eio, TP_LINUX,
	"A pty master opens only through /dev/ptmx: opening its own device "
	"node (char 128:N, made with mknod) fails with EIO at once, while "
	"the pair is open and after it is gone")
{
	struct tp_pty p;
	char node[64];
	unsigned n;
	long long ms;

	tp_pty_open(&p, TP_COOKED);
	ATF_REQUIRE(ioctl(p.master, TIOCGPTN, &n) == 0);
	snprintf(node, sizeof node, "ptm-%u", n);
	if (mknod(node, S_IFCHR | 0600, makedev(PTM_MAJOR, n)) != 0)
		atf_tc_skip("mknod of a char device: %s", strerror(errno));
	struct statvfs vfs;
	if (statvfs(".", &vfs) == 0 && (vfs.f_flag & ST_NODEV)) {
		unlink(node);
		atf_tc_skip("the work directory is on a nodev mount");
	}
	const char *when[] = { "with the pair open", "after the pair is closed" };
	for (int i = 0; i < 2; i++) {
		if (i == 1) {
			tp_pty_close(&p);
			tp_wait_path_gone(p.name, "the closed pair's slave node");
		}
		int err = open_ptm_node(node, &ms);
		ATF_CHECK_MSG(err == EIO, "open of master node 128:%u %s: %s, "
			      "want EIO", n, when[i], err ? strerror(err) : "success");
		ATF_CHECK_MSG(ms < TP_WAIT_MS, "open of master node 128:%u %s "
			      "returned only after %lld ms, when a signal came",
			      n, when[i], ms);
	}
	unlink(node);
}

/* As TP_NOBODY_UID: a new pair from /dev/ptmx, its slave opened. */
static int
unprivileged_pair(void *arg)
{
	(void)arg;
	if (tp_child_drop_to_nobody())
		return 1;
	int m = open("/dev/ptmx", O_RDWR | O_NOCTTY | O_CLOEXEC);
	if (m < 0)
		return tp_child_fail("open /dev/ptmx as uid %d: %s", TP_NOBODY_UID,
				     strerror(errno));
	char path[64];
	if (grantpt(m) != 0 || unlockpt(m) != 0 || ptsname_r(m, path, sizeof path))
		return tp_child_fail("grantpt/unlockpt/ptsname as uid %d: %s",
				     TP_NOBODY_UID, strerror(errno));
	int s = open(path, O_RDWR | O_NOCTTY | O_CLOEXEC);
	if (s < 0)
		return tp_child_fail("open %s as uid %d: %s", path, TP_NOBODY_UID,
				     strerror(errno));
	struct stat st;
	if (fstat(s, &st) != 0 || st.st_uid != TP_NOBODY_UID)
		return tp_child_fail("%s belongs to uid %d, not its opener %d",
				     path, (int)st.st_uid, TP_NOBODY_UID);
	close(s);
	close(m);
	return 0;
}

TP_CASE_ROOT(ptmx_opens_for_any_user, TP_LINUX,
	"/dev/ptmx opens for every user (the kernel creates the node with "
	"mode 0666): a process of uid 65534 gets a new pair, and its slave "
	"node belongs to that user")
{
	struct tp_child c;
	tp_child_start(&c, unprivileged_pair, NULL);
	tp_child_join(&c, TP_WAIT_MS, "unprivileged process opening /dev/ptmx");
}

TP_CASE(ptsname_matches_tiocgptn, TP_LINUX,
	"ptsname is /dev/pts/N for N from TIOCGPTN; the node is char device "
	"136:N on the /dev/pts filesystem, an open slave has that rdev, and "
	"the kernel's name for the open slave (/proc/self/fd) is the same")
{
	char path[64], want[64], link[128], fdp[64];
	struct stat node, sst, dir;
	int m = open_master(0);
	unsigned n = tp_pty_index(m);

	ATF_REQUIRE(grantpt(m) == 0 && unlockpt(m) == 0);
	slave_path(m, path, sizeof(path));
	snprintf(want, sizeof(want), "/dev/pts/%u", n);
	ATF_CHECK_MSG(strcmp(path, want) == 0, "ptsname %s, TIOCGPTN %u", path,
		      n);
	ATF_REQUIRE_MSG(stat(want, &node) == 0, "stat %s: %s", want,
			strerror(errno));
	ATF_REQUIRE(stat("/dev/pts", &dir) == 0);
	ATF_CHECK_MSG(S_ISCHR(node.st_mode), "%s is not a char device", want);
	ATF_CHECK_MSG(major(node.st_rdev) == PTS_MAJOR &&
			      minor(node.st_rdev) == n,
		      "%s is %u:%u, want %d:%u", want, major(node.st_rdev),
		      minor(node.st_rdev), PTS_MAJOR, n);
	ATF_CHECK_MSG(node.st_dev == dir.st_dev,
		      "%s is not on the /dev/pts filesystem", want);
	int s = open_slave(want);
	ATF_REQUIRE(fstat(s, &sst) == 0);
	ATF_CHECK_MSG(sst.st_rdev == node.st_rdev, "open slave rdev %u:%u",
		      major(sst.st_rdev), minor(sst.st_rdev));
	snprintf(fdp, sizeof(fdp), "/proc/self/fd/%d", s);
	ssize_t l = readlink(fdp, link, sizeof(link) - 1);
	ATF_REQUIRE_MSG(l > 0, "readlink %s: %s", fdp, strerror(errno));
	link[l] = '\0';
	ATF_CHECK_MSG(strcmp(link, want) == 0, "slave fd links to %s, want %s",
		      link, want);
	check_pair_connected(m, s, "TIOCGPTN pair");
	close(s);
	close(m);
}

TP_CASE(non_master_fds_rejected, TP_POSIX,
	"grantpt and unlockpt fail with EINVAL and ptsname with ENOTTY on a "
	"slave and on /dev/null; on a closed fd all three fail with EBADF; "
	"the kernel answers TIOCGPTN on those with ENOTTY")
{
	struct tp_pty p;
	unsigned n;
	int fds[2], closed;

	tp_pty_open(&p, TP_COOKED);
	fds[0] = p.slave;
	fds[1] = open("/dev/null", O_RDWR | O_CLOEXEC);
	ATF_REQUIRE(fds[1] >= 0);
	for (int i = 0; i < 2; i++) {
		const char *what = i == 0 ? "slave" : "/dev/null";
		errno = 0;
		ATF_CHECK_MSG(grantpt(fds[i]) == -1 && errno == EINVAL,
			      "grantpt(%s): want EINVAL, got %s", what,
			      strerror(errno));
		errno = 0;
		ATF_CHECK_MSG(unlockpt(fds[i]) == -1 && errno == EINVAL,
			      "unlockpt(%s): want EINVAL, got %s", what,
			      strerror(errno));
		errno = 0;
		ATF_CHECK_MSG(ptsname(fds[i]) == NULL && errno == ENOTTY,
			      "ptsname(%s): want ENOTTY, got %s", what,
			      strerror(errno));
		errno = 0;
		ATF_CHECK_MSG(ioctl(fds[i], TIOCGPTN, &n) == -1 &&
				      errno == ENOTTY,
			      "TIOCGPTN(%s): want ENOTTY, got %s", what,
			      strerror(errno));
	}
	/* A number that is certainly not an open descriptor. */
	closed = dup(fds[1]);
	ATF_REQUIRE(closed >= 0);
	close(closed);
	errno = 0;
	ATF_CHECK_MSG(grantpt(closed) == -1 && errno == EBADF,
		      "grantpt(closed): want EBADF, got %s", strerror(errno));
	errno = 0;
	ATF_CHECK_MSG(unlockpt(closed) == -1 && errno == EBADF,
		      "unlockpt(closed): want EBADF, got %s", strerror(errno));
	errno = 0;
	ATF_CHECK_MSG(ptsname(closed) == NULL && errno == EBADF,
		      "ptsname(closed): want EBADF, got %s", strerror(errno));
	close(fds[1]);
	tp_pty_close(&p);
}

TP_CASE(grantpt_unlockpt_twice_ok, TP_POSIX,
	"grantpt and unlockpt may each be called twice on a master; the slave "
	"still opens and is connected")
{
	char path[64];
	int m = open_master(0);

	ATF_CHECK_MSG(grantpt(m) == 0, "grantpt #1: %s", strerror(errno));
	ATF_CHECK_MSG(grantpt(m) == 0, "grantpt #2: %s", strerror(errno));
	ATF_CHECK_MSG(unlockpt(m) == 0, "unlockpt #1: %s", strerror(errno));
	ATF_CHECK_MSG(unlockpt(m) == 0, "unlockpt #2: %s", strerror(errno));
	slave_path(m, path, sizeof(path));
	int s = open_slave(path);
	check_pair_connected(m, s, "after double unlock");
	close(s);
	close(m);
}

TP_CASE(ptmx_open_equals_posix_openpt, TP_LINUX,
	"open(\"/dev/ptmx\") yields a master like posix_openpt: same device "
	"and path, each with its own pty index, each connected to its own "
	"slave")
{
	int ms[2];
	char path[2][64], link[2][128], fdp[64];
	struct stat st[2];
	unsigned n[2];

	ms[0] = open("/dev/ptmx", O_RDWR | O_NOCTTY | O_CLOEXEC);
	ATF_REQUIRE_MSG(ms[0] >= 0, "open /dev/ptmx: %s", strerror(errno));
	ms[1] = open_master(O_CLOEXEC);
	for (int i = 0; i < 2; i++) {
		ATF_REQUIRE(fstat(ms[i], &st[i]) == 0);
		n[i] = tp_pty_index(ms[i]);
		snprintf(fdp, sizeof(fdp), "/proc/self/fd/%d", ms[i]);
		ssize_t l = readlink(fdp, link[i], sizeof(link[i]) - 1);
		ATF_REQUIRE_MSG(l > 0, "readlink %s: %s", fdp, strerror(errno));
		link[i][l] = '\0';
		ATF_REQUIRE(unlockpt(ms[i]) == 0);
		slave_path(ms[i], path[i], sizeof(path[i]));
	}
	ATF_CHECK_MSG(st[0].st_rdev == st[1].st_rdev,
		      "open(/dev/ptmx) is %u:%u, posix_openpt %u:%u",
		      major(st[0].st_rdev), minor(st[0].st_rdev),
		      major(st[1].st_rdev), minor(st[1].st_rdev));
	ATF_CHECK_MSG(major(st[0].st_rdev) == 5 && minor(st[0].st_rdev) == 2,
		      "/dev/ptmx master is %u:%u, want 5:2",
		      major(st[0].st_rdev), minor(st[0].st_rdev));
	ATF_CHECK_MSG(strcmp(link[0], link[1]) == 0, "paths %s and %s",
		      link[0], link[1]);
	ATF_CHECK_MSG(n[0] != n[1], "both masters have pty index %u", n[0]);
	int s0 = open_slave(path[0]), s1 = open_slave(path[1]);
	check_pair_connected(ms[0], s0, "open(/dev/ptmx) pair");
	check_pair_connected(ms[1], s1, "posix_openpt pair");
	tp_expect_quiet(s0, "posix_openpt pair's bytes leaking to the other");
	close(s0);
	close(s1);
	close(ms[0]);
	close(ms[1]);
}

TP_CASE(ptlck_gates_new_opens, TP_LINUX,
	"TIOCGPTLCK reads 1 on a new master and 0 after unlockpt; TIOCSPTLCK 1 "
	"locks again: an already open slave keeps working and a new slave "
	"open fails EIO; TIOCSPTLCK 0 lets the open succeed")
{
	char path[64], buf[8];
	int lk = -1, one = 1, zero = 0;
	int m = open_master(0);

	slave_path(m, path, sizeof(path));
	ATF_REQUIRE_MSG(ioctl(m, TIOCGPTLCK, &lk) == 0, "TIOCGPTLCK: %s",
			strerror(errno));
	ATF_CHECK_EQ_MSG(lk, 1, "TIOCGPTLCK on a new master is %d", lk);
	ATF_REQUIRE(unlockpt(m) == 0);
	ATF_REQUIRE(ioctl(m, TIOCGPTLCK, &lk) == 0);
	ATF_CHECK_EQ_MSG(lk, 0, "TIOCGPTLCK after unlockpt is %d", lk);
	int s = open_slave(path);
	tp_tc_raw(s);

	ATF_REQUIRE_MSG(ioctl(m, TIOCSPTLCK, &one) == 0, "TIOCSPTLCK 1: %s",
			strerror(errno));
	ATF_REQUIRE(ioctl(m, TIOCGPTLCK, &lk) == 0);
	ATF_CHECK_EQ_MSG(lk, 1, "TIOCGPTLCK after TIOCSPTLCK 1 is %d", lk);
	/* The lock gates opens only: the open slave still carries data. */
	tp_write_str(m, "lk", "master write while locked");
	tp_read_exact(s, buf, 2, sizeof(buf), "open slave read while locked");
	ATF_CHECK(memcmp(buf, "lk", 2) == 0);
	int s2 = open(path, O_RDWR | O_NOCTTY);
	ATF_CHECK_MSG(s2 < 0 && errno == EIO,
		      "open of a relocked slave: want EIO, got %s",
		      s2 < 0 ? strerror(errno) : "success");
	if (s2 >= 0)
		close(s2);

	ATF_REQUIRE_MSG(ioctl(m, TIOCSPTLCK, &zero) == 0, "TIOCSPTLCK 0: %s",
			strerror(errno));
	ATF_REQUIRE(ioctl(m, TIOCGPTLCK, &lk) == 0);
	ATF_CHECK_EQ_MSG(lk, 0, "TIOCGPTLCK after TIOCSPTLCK 0 is %d", lk);
	s2 = open_slave(path);
	close(s2);
	close(s);
	close(m);
}

TP_CASE(locked_open_failure_sets_io_error, TP_LINUX,
	"Characterisation: a slave open refused by the pty lock marks the "
	"slave tty with TTY_IO_ERROR (pty_open), so an already open slave fd "
	"reads and writes EIO until a later successful open clears the mark")
{
	char path[64], buf[8];
	int one = 1;
	int m = open_master(0);

	slave_path(m, path, sizeof(path));
	ATF_REQUIRE(unlockpt(m) == 0);
	int s = open_slave(path);
	tp_tc_raw(s);
	ATF_REQUIRE(ioctl(m, TIOCSPTLCK, &one) == 0);
	int s2 = open(path, O_RDWR | O_NOCTTY);
	ATF_REQUIRE_MSG(s2 < 0 && errno == EIO,
			"open of a locked slave: want EIO, got %s",
			s2 < 0 ? strerror(errno) : "success");
	/* Non-blocking: on a kernel without the mark, the read must not
	 * wait for input that never comes. */
	tp_set_nonblock(s, true);
	ssize_t n = read(s, buf, sizeof(buf));
	ATF_CHECK_MSG(n < 0 && errno == EIO,
		      "read on the open slave after the refused open: want EIO, "
		      "got %zd (%s)", n, n < 0 ? strerror(errno) : "");
	n = write(s, "x", 1);
	ATF_CHECK_MSG(n < 0 && errno == EIO,
		      "write on the open slave after the refused open: want "
		      "EIO, got %zd (%s)", n, n < 0 ? strerror(errno) : "");
	ATF_REQUIRE(unlockpt(m) == 0);
	s2 = open_slave(path);
	tp_write_str(m, "ok", "master write after a successful reopen");
	tp_read_exact(s, buf, 2, sizeof(buf),
		      "first slave fd read after a successful reopen");
	ATF_CHECK(memcmp(buf, "ok", 2) == 0);
	close(s2);
	close(s);
	close(m);
}

/* Fail if any of fds becomes readable within the quiet window. */
static void
expect_all_quiet(const int *fds, int n, const char *what)
{
	struct pollfd pfd[MANY_PAIRS];
	for (int i = 0; i < n; i++)
		pfd[i] = (struct pollfd){.fd = fds[i], .events = POLLIN};
	int r;
	do
		r = poll(pfd, (nfds_t)n, TP_QUIET_WINDOW_MS);
	while (r < 0 && errno == EINTR);
	ATF_REQUIRE_MSG(r >= 0, "poll: %s", strerror(errno));
	for (int i = 0; i < n; i++)
		ATF_CHECK_MSG(!(pfd[i].revents & POLLIN),
			      "%s: pair %d has unexpected input", what, i);
}

TP_CASE(many_pairs_isolated, TP_POSIX,
	"64 pairs open at once have distinct slave names; a message written "
	"to each master arrives on its own slave only, and each slave's reply "
	"on its own master only")
{
	static struct tp_pty p[MANY_PAIRS];
	int ms[MANY_PAIRS], ss[MANY_PAIRS];
	char msg[16], buf[16];

	for (int i = 0; i < MANY_PAIRS; i++) {
		tp_pty_open(&p[i], TP_RAW);
		ms[i] = p[i].master;
		ss[i] = p[i].slave;
		for (int j = 0; j < i; j++)
			ATF_REQUIRE_MSG(strcmp(p[i].name, p[j].name) != 0,
					"pairs %d and %d share %s", j, i,
					p[i].name);
	}
	/* All writes first, then all reads: a misrouted message would sit on
	 * the wrong slave and show as a mismatch or as leftover input. */
	for (int i = 0; i < MANY_PAIRS; i++) {
		snprintf(msg, sizeof(msg), "to-s%03d", i);
		tp_write_str(ms[i], msg, "master write of a pair's tag");
	}
	for (int i = 0; i < MANY_PAIRS; i++) {
		snprintf(msg, sizeof(msg), "to-s%03d", i);
		tp_read_exact(ss[i], buf, strlen(msg), strlen(msg),
			      "slave read of its pair's tag");
		ATF_CHECK_MSG(memcmp(buf, msg, strlen(msg)) == 0,
			      "slave %d read \"%.7s\"", i, buf);
	}
	for (int i = 0; i < MANY_PAIRS; i++) {
		snprintf(msg, sizeof(msg), "to-m%03d", i);
		tp_write_str(ss[i], msg, "slave write of a pair's tag");
	}
	for (int i = 0; i < MANY_PAIRS; i++) {
		snprintf(msg, sizeof(msg), "to-m%03d", i);
		tp_read_exact(ms[i], buf, strlen(msg), strlen(msg),
			      "master read of its pair's tag");
		ATF_CHECK_MSG(memcmp(buf, msg, strlen(msg)) == 0,
			      "master %d read \"%.7s\"", i, buf);
	}
	expect_all_quiet(ss, MANY_PAIRS, "slaves after their own tag");
	expect_all_quiet(ms, MANY_PAIRS, "masters after their own tag");
	for (int i = 0; i < MANY_PAIRS; i++)
		tp_pty_close(&p[i]);
}

TP_CASE(master_close_removes_node, TP_LINUX,
	"Closing the master removes its /dev/pts/N node: with the slave "
	"closed first, and also while the slave is still open")
{
	struct tp_pty a, b;
	struct stat st;

	tp_pty_open(&a, TP_COOKED);
	tp_close_slave(&a);
	ATF_REQUIRE_MSG(stat(a.name, &st) == 0, "%s missing before close",
			a.name);
	tp_close_master(&a);
	tp_wait_path_gone(a.name, "node of a closed pair to disappear");

	tp_pty_open(&b, TP_COOKED);
	ATF_REQUIRE_MSG(stat(b.name, &st) == 0, "%s missing before close",
			b.name);
	tp_close_master(&b);
	tp_wait_path_gone(b.name, "node to disappear while the slave is open");
	ATF_CHECK_MSG(fstat(b.slave, &st) == 0, "fstat on the orphan slave: %s",
		      strerror(errno));
	tp_pty_close(&b);
}

TP_CASE(orphan_slave_reopen_eio, TP_LINUX,
	"Once its master is closed, a slave cannot be opened again, not even "
	"through the open slave's own /proc/self/fd link: that open fails with "
	"EIO (a slave opens only while its master is open)")
{
	struct tp_pty p;
	char fdp[64];

	tp_pty_open(&p, TP_COOKED);
	snprintf(fdp, sizeof(fdp), "/proc/self/fd/%d", p.slave);
	int again = open(fdp, O_RDWR | O_NOCTTY);
	ATF_REQUIRE_MSG(again >= 0, "reopening the slave through %s while the "
			"master is open: %s", fdp, strerror(errno));
	close(again);
	tp_close_master(&p);
	tp_wait_path_gone(p.name, "the node of the closed master's pair to disappear");
	errno = 0;
	again = open(fdp, O_RDWR | O_NOCTTY);
	int err = errno;
	if (again >= 0)
		close(again);
	ATF_CHECK_MSG(again < 0 && err == EIO, "reopening the orphan slave "
		      "through %s: %s, want EIO", fdp,
		      again >= 0 ? "success" : strerror(err));
	tp_pty_close(&p);
}

/* Lowest descriptor number not in use (open returns the lowest). */
static int
lowest_free_fd(void)
{
	int fd = open("/dev/null", O_RDONLY);
	if (fd >= 0)
		close(fd);
	return fd;
}

static int
open_fd_count(int below)
{
	int n = 0;
	for (int fd = 0; fd < below; fd++)
		if (fcntl(fd, F_GETFD) >= 0)
			n++;
	return n;
}

static int
child_emfile(void *varg)
{
	(void)varg;
	int low = lowest_free_fd();
	if (low < 0)
		return tp_child_fail("open /dev/null: %s", strerror(errno));
	int before = open_fd_count(low + 8);
	struct rlimit rl;
	if (getrlimit(RLIMIT_NOFILE, &rl) != 0)
		return tp_child_fail("getrlimit: %s", strerror(errno));
	/* Every descriptor below low is in use: no room for a master. */
	rl.rlim_cur = (rlim_t)low;
	if (setrlimit(RLIMIT_NOFILE, &rl) != 0)
		return tp_child_fail("setrlimit %d: %s", low, strerror(errno));
	int m = posix_openpt(O_RDWR | O_NOCTTY);
	if (m >= 0)
		return tp_child_fail("posix_openpt succeeded at a full fd table");
	if (errno != EMFILE)
		return tp_child_fail("posix_openpt at a full fd table: want "
				     "EMFILE, got %s", strerror(errno));
	/* Room for the master only: the slave open must fail cleanly. */
	rl.rlim_cur = (rlim_t)low + 1;
	if (setrlimit(RLIMIT_NOFILE, &rl) != 0)
		return tp_child_fail("setrlimit %d: %s", low + 1,
				     strerror(errno));
	m = posix_openpt(O_RDWR | O_NOCTTY);
	if (m < 0)
		return tp_child_fail("posix_openpt with one free slot: %s",
				     strerror(errno));
	char path[64];
	if (unlockpt(m) != 0 || ptsname_r(m, path, sizeof(path)) != 0)
		return tp_child_fail("unlockpt/ptsname: %s", strerror(errno));
	int s = open(path, O_RDWR | O_NOCTTY);
	if (s >= 0)
		return tp_child_fail("slave open succeeded past RLIMIT_NOFILE");
	if (errno != EMFILE)
		return tp_child_fail("slave open at a full fd table: want "
				     "EMFILE, got %s", strerror(errno));
	close(m);
	int after = open_fd_count(low + 8);
	if (after != before)
		return tp_child_fail("%d descriptors open before, %d after",
				     before, after);
	return 0;
}

TP_CASE(openpt_emfile_clean, TP_POSIX,
	"With RLIMIT_NOFILE exhausted, posix_openpt fails with EMFILE; with "
	"room for the master only, opening the slave fails with EMFILE; no "
	"descriptor is left behind")
{
	struct tp_child c;
	tp_child_start(&c, child_emfile, NULL);
	tp_child_join(&c, TP_WAIT_MS, "child at a lowered RLIMIT_NOFILE");
}

TP_CASE(fresh_slave_has_std_termios, TP_LINUX,
	"A new pty slave has Linux's standard termios (tty_std_termios) with "
	"c_cflag B38400|CS8|CREAD (no HUPCL): c_iflag ICRNL|IXON, c_oflag "
	"OPOST|ONLCR, c_lflag ISIG|ICANON|ECHO|ECHOE|ECHOK|ECHOCTL|ECHOKE|"
	"IEXTEN, line discipline 0, the control characters of INIT_C_CC "
	"(VINTR ^C, VERASE DEL, VEOF ^D, VMIN 1, VTIME 0, ...) and 38400 "
	"baud both ways, as termios2 too (c_ispeed = c_ospeed = 38400)")
{
	struct tp_pty p;
	struct k_termios2 t;
	cc_t cc[sizeof(t.c_cc)] = {0};

	cc[VINTR] = 003, cc[VQUIT] = 034, cc[VERASE] = 0177, cc[VKILL] = 025;
	cc[VEOF] = 004, cc[VMIN] = 1, cc[VSTART] = 021, cc[VSTOP] = 023;
	cc[VSUSP] = 032, cc[VREPRINT] = 022, cc[VDISCARD] = 017;
	cc[VWERASE] = 027, cc[VLNEXT] = 026;
	tp_pty_open(&p, TP_COOKED);
	ATF_REQUIRE_EQ_MSG(ioctl(p.slave, K_TCGETS2, &t), 0, "TCGETS2: %s",
			   strerror(errno));
	ATF_CHECK_EQ_MSG(t.c_iflag, ICRNL | IXON, "c_iflag %#o", t.c_iflag);
	ATF_CHECK_EQ_MSG(t.c_oflag, OPOST | ONLCR, "c_oflag %#o", t.c_oflag);
	ATF_CHECK_EQ_MSG(t.c_cflag, B38400 | CS8 | CREAD, "c_cflag %#o",
			 t.c_cflag);
	ATF_CHECK_EQ_MSG(t.c_lflag, ISIG | ICANON | ECHO | ECHOE | ECHOK |
			 ECHOCTL | ECHOKE | IEXTEN, "c_lflag %#o", t.c_lflag);
	ATF_CHECK_EQ_MSG(t.c_line, 0, "c_line %u", t.c_line);
	for (size_t i = 0; i < sizeof(cc); i++)
		ATF_CHECK_EQ_MSG(t.c_cc[i], cc[i], "c_cc[%zu] is %#o, want %#o",
				 i, t.c_cc[i], cc[i]);
	ATF_CHECK_EQ_MSG(t.c_ispeed, 38400, "c_ispeed %u", t.c_ispeed);
	ATF_CHECK_EQ_MSG(t.c_ospeed, 38400, "c_ospeed %u", t.c_ospeed);
	struct termios g;
	tp_tc_get(p.slave, &g);
	ATF_CHECK_MSG(cfgetispeed(&g) == B38400 && cfgetospeed(&g) == B38400,
		      "tcgetattr speeds %#o/%#o, want B38400 (%#o)",
		      cfgetispeed(&g), cfgetospeed(&g), B38400);
	tp_pty_close(&p);
}

TP_CASE(fresh_master_ldisc_is_raw, TP_LINUX,
	"A pty master's own termios (which tcgetattr cannot show: on a master "
	"it reads the slave's) is raw: c_iflag, c_oflag and c_lflag 0, VMIN "
	"1.  Every byte value the slave writes, control characters and a "
	"partial line included, reads unchanged and at once on the master, is "
	"never echoed back, and the master's output is not post-processed")
{
	struct tp_pty p;
	unsigned char all[256], got[256];
	static const char out[] = "a\nb\t\r\023c";

	for (size_t i = 0; i < sizeof(all); i++)
		all[i] = (unsigned char)i;
	tp_pty_open(&p, TP_RAW);
	tp_write_all(p.slave, all, sizeof(all), "every byte value");
	tp_read_exact(p.master, got, sizeof(got), sizeof(got),
		      "every byte value on the master");
	ATF_CHECK_MSG(memcmp(got, all, sizeof(all)) == 0, "the master read "
		      "\"%s\"", tp_esc(got, sizeof(got)));
	tp_write_str(p.slave, "ab", "a partial line");
	TP_EXPECT_LINE(p.master, "ab", "a partial line, read at once");
	/* An echo of the slave's output would reach the slave before this. */
	tp_write_str(p.master, out, "master output");
	TP_EXPECT_BYTES(p.slave, out, "master output, nothing before it");
	tp_pty_close(&p);
}

ATF_TP_ADD_TCS(tp)
{
	ATF_TP_ADD_TC(tp, pair_is_tty_named_by_ptsname);
	ATF_TP_ADD_TC(tp, openpt_cloexec_honoured);
	ATF_TP_ADD_TC(tp, master_never_becomes_ctty);
	ATF_TP_ADD_TC(tp, slave_ctty_only_without_noctty);
	ATF_TP_ADD_TC(tp, slave_open_before_unlockpt_eio);
	ATF_TP_ADD_TC(tp, master_device_node_open_eio);
	ATF_TP_ADD_TC(tp, ptmx_opens_for_any_user);
	ATF_TP_ADD_TC(tp, ptsname_matches_tiocgptn);
	ATF_TP_ADD_TC(tp, non_master_fds_rejected);
	ATF_TP_ADD_TC(tp, grantpt_unlockpt_twice_ok);
	ATF_TP_ADD_TC(tp, ptmx_open_equals_posix_openpt);
	ATF_TP_ADD_TC(tp, ptlck_gates_new_opens);
	ATF_TP_ADD_TC(tp, locked_open_failure_sets_io_error);
	ATF_TP_ADD_TC(tp, many_pairs_isolated);
	ATF_TP_ADD_TC(tp, master_close_removes_node);
	ATF_TP_ADD_TC(tp, orphan_slave_reopen_eio);
	ATF_TP_ADD_TC(tp, openpt_emfile_clean);
	ATF_TP_ADD_TC(tp, fresh_slave_has_std_termios);
	ATF_TP_ADD_TC(tp, fresh_master_ldisc_is_raw);
	return atf_no_error();
}
