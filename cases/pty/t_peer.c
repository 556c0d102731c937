// SPDX-License-Identifier: GPL-2.0-only
/* t_peer.c: TIOCGPTPEER (Linux 4.13), opening the slave from the master fd
 * without a path: which tty it opens, the lock, open flags, ctty, limits,
 * and independence from what /dev/pts shows. */
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <termios.h>
#include <unistd.h>

#include "ttypot.h"

static int
open_master(const char *ptmx)
{
	int m = open(ptmx, O_RDWR | O_NOCTTY | O_CLOEXEC);
	if (m < 0)
		atf_tc_fail("open %s: %s", ptmx, strerror(errno));
	return m;
}

static void
unlock(int m)
{
	if (unlockpt(m) != 0)
		atf_tc_fail("unlockpt: %s", strerror(errno));
}

/* Skip, naming the feature, when the kernel has no TIOCGPTPEER: probed on
 * a fresh unlocked pair so later errors in the case are real answers. */
static void
require_tiocgptpeer(void)
{
	int m = open_master("/dev/ptmx");
	unlock(m);
	int fd = ioctl(m, TIOCGPTPEER, O_RDWR | O_NOCTTY | O_CLOEXEC);
	int err = errno;
	close(m);
	if (fd >= 0) {
		close(fd);
		return;
	}
	if (err == EINVAL || err == ENOTTY)
		atf_tc_skip("needs TIOCGPTPEER (Linux 4.13): ioctl gives %s",
			    strerror(err));
	atf_tc_fail("TIOCGPTPEER on an unlocked master: %s", strerror(err));
}

static int
peer(int m, int flags)
{
	int fd = ioctl(m, TIOCGPTPEER, flags);
	if (fd < 0)
		atf_tc_fail("TIOCGPTPEER(0x%x): %s", (unsigned)flags,
			    strerror(errno));
	return fd;
}

static void
fd_link(int fd, char *out, size_t len)
{
	char p[64];
	snprintf(p, sizeof(p), "/proc/self/fd/%d", fd);
	ssize_t n = readlink(p, out, len - 1);
	if (n < 0)
		atf_tc_fail("readlink %s: %s", p, strerror(errno));
	out[n] = '\0';
}

/* Bytes each way between master and slave-side fd s. */
static void
check_connected(int m, int s, const char *label)
{
	char buf[16];
	char what[96];

	tp_tc_raw(s);
	snprintf(what, sizeof(what), "%s: master->peer", label);
	tp_write_str(m, "to-peer", what);
	tp_read_exact(s, buf, 7, sizeof(buf), what);
	ATF_CHECK_MSG(memcmp(buf, "to-peer", 7) == 0, "%s: peer read \"%.7s\"",
		      label, buf);
	snprintf(what, sizeof(what), "%s: peer->master", label);
	tp_write_str(s, "to-master", what);
	tp_read_exact(m, buf, 9, sizeof(buf), what);
	ATF_CHECK_MSG(memcmp(buf, "to-master", 9) == 0,
		      "%s: master read \"%.9s\"", label, buf);
}

TP_CASE(peer_is_the_slave, TP_LINUX,
	"TIOCGPTPEER returns a tty fd whose /proc/self/fd link is ptsname of "
	"the master, with the slave node's device number, connected to the "
	"master both ways")
{
	char name[64], link[128];
	struct stat node, st;

	require_tiocgptpeer();
	int m = open_master("/dev/ptmx");
	unlock(m);
	ATF_REQUIRE(ptsname_r(m, name, sizeof(name)) == 0);
	int p = peer(m, O_RDWR | O_NOCTTY | O_CLOEXEC);
	ATF_CHECK_MSG(isatty(p), "the peer fd is not a tty");
	fd_link(p, link, sizeof(link));
	ATF_CHECK_MSG(strcmp(link, name) == 0, "peer links to %s, ptsname %s",
		      link, name);
	ATF_REQUIRE(stat(name, &node) == 0 && fstat(p, &st) == 0);
	ATF_CHECK_MSG(st.st_rdev == node.st_rdev && st.st_dev == node.st_dev,
		      "peer is %u:%u on dev %lu, %s is %u:%u on dev %lu",
		      major(st.st_rdev), minor(st.st_rdev),
		      (unsigned long)st.st_dev, name, major(node.st_rdev),
		      minor(node.st_rdev), (unsigned long)node.st_dev);
	check_connected(m, p, "peer");
	close(p);
	close(m);
}

TP_CASE(peer_refused_while_locked, TP_LINUX,
	"TIOCGPTPEER on a master whose slave is locked fails with EIO; after "
	"unlockpt it succeeds; after TIOCSPTLCK 1 it fails with EIO again")
{
	int one = 1;

	require_tiocgptpeer();
	int m = open_master("/dev/ptmx");
	int p = ioctl(m, TIOCGPTPEER, O_RDWR | O_NOCTTY | O_CLOEXEC);
	ATF_CHECK_MSG(p < 0 && errno == EIO,
		      "TIOCGPTPEER before unlockpt: want EIO, got %s",
		      p < 0 ? strerror(errno) : "a descriptor");
	if (p >= 0)
		close(p);
	unlock(m);
	p = peer(m, O_RDWR | O_NOCTTY | O_CLOEXEC);
	close(p);
	ATF_REQUIRE(ioctl(m, TIOCSPTLCK, &one) == 0);
	p = ioctl(m, TIOCGPTPEER, O_RDWR | O_NOCTTY | O_CLOEXEC);
	ATF_CHECK_MSG(p < 0 && errno == EIO,
		      "TIOCGPTPEER after TIOCSPTLCK 1: want EIO, got %s",
		      p < 0 ? strerror(errno) : "a descriptor");
	if (p >= 0)
		close(p);
	close(m);
}

TP_CASE(peer_flags_honoured, TP_LINUX,
	"TIOCGPTPEER honours its open flags: O_CLOEXEC sets FD_CLOEXEC (clear "
	"without it), O_NONBLOCK gives a non-blocking fd whose empty read is "
	"EAGAIN (blocking without it), O_RDONLY/O_WRONLY limit the access")
{
	char buf[8];

	require_tiocgptpeer();
	int m = open_master("/dev/ptmx");
	unlock(m);

	int ce = peer(m, O_RDWR | O_NOCTTY | O_CLOEXEC);
	int plain = peer(m, O_RDWR | O_NOCTTY);
	ATF_CHECK_MSG(fcntl(ce, F_GETFD) & FD_CLOEXEC,
		      "O_CLOEXEC peer lacks FD_CLOEXEC");
	ATF_CHECK_MSG(!(fcntl(plain, F_GETFD) & FD_CLOEXEC),
		      "plain peer has FD_CLOEXEC");
	ATF_CHECK_MSG(!(fcntl(plain, F_GETFL) & O_NONBLOCK),
		      "plain peer has O_NONBLOCK");
	close(ce);

	int nb = peer(m, O_RDWR | O_NOCTTY | O_NONBLOCK | O_CLOEXEC);
	ATF_CHECK_MSG(fcntl(nb, F_GETFL) & O_NONBLOCK,
		      "O_NONBLOCK peer lacks O_NONBLOCK");
	tp_tc_raw(nb);
	ssize_t n = read(nb, buf, sizeof(buf));
	ATF_CHECK_MSG(n < 0 && errno == EAGAIN,
		      "empty read on the O_NONBLOCK peer: want EAGAIN, got %zd "
		      "(%s)", n, n < 0 ? strerror(errno) : "");
	close(nb);

	int ro = peer(m, O_RDONLY | O_NOCTTY | O_CLOEXEC);
	int wo = peer(m, O_WRONLY | O_NOCTTY | O_CLOEXEC);
	ATF_CHECK_EQ_MSG(fcntl(ro, F_GETFL) & O_ACCMODE, O_RDONLY,
			 "O_RDONLY peer has access mode %d",
			 fcntl(ro, F_GETFL) & O_ACCMODE);
	ATF_CHECK_EQ_MSG(fcntl(wo, F_GETFL) & O_ACCMODE, O_WRONLY,
			 "O_WRONLY peer has access mode %d",
			 fcntl(wo, F_GETFL) & O_ACCMODE);
	n = write(ro, "x", 1);
	ATF_CHECK_MSG(n < 0 && errno == EBADF,
		      "write on the O_RDONLY peer: want EBADF, got %zd (%s)", n,
		      n < 0 ? strerror(errno) : "");
	n = read(wo, buf, sizeof(buf));
	ATF_CHECK_MSG(n < 0 && errno == EBADF,
		      "read on the O_WRONLY peer: want EBADF, got %zd (%s)", n,
		      n < 0 ? strerror(errno) : "");
	/* Each one-way fd still does its own direction. */
	tp_write_str(wo, "w", "write through the O_WRONLY peer");
	tp_read_exact(m, buf, 1, 1, "master read of the O_WRONLY peer's byte");
	ATF_CHECK_MSG(buf[0] == 'w', "master read 0x%02x", buf[0]);
	tp_write_str(m, "r\n", "master write for the O_RDONLY peer");
	tp_read_exact(ro, buf, 2, sizeof(buf), "O_RDONLY peer read");
	ATF_CHECK_MSG(buf[0] == 'r', "O_RDONLY peer read 0x%02x", buf[0]);
	close(ro);
	close(wo);
	close(plain);
	close(m);
}

struct ctty_arg {
	int master;
};

/* In a child session leader: the peer opened with O_NOCTTY is no ctty; the
 * peer opened without it is, and /dev/tty writes reach the master. */
static int
child_peer_ctty(void *varg)
{
	struct ctty_arg *a = varg;

	if (setsid() < 0)
		return tp_child_fail("setsid: %s", strerror(errno));
	int p1 = ioctl(a->master, TIOCGPTPEER, O_RDWR | O_NOCTTY);
	if (p1 < 0)
		return tp_child_fail("TIOCGPTPEER O_NOCTTY: %s", strerror(errno));
	int t = open("/dev/tty", O_RDWR | O_NOCTTY);
	if (t >= 0)
		return tp_child_fail("peer opened with O_NOCTTY became the "
				     "controlling tty");
	if (errno != ENXIO)
		return tp_child_fail("open /dev/tty: want ENXIO, got %s",
				     strerror(errno));
	int p2 = ioctl(a->master, TIOCGPTPEER, O_RDWR);
	if (p2 < 0)
		return tp_child_fail("TIOCGPTPEER without O_NOCTTY: %s",
				     strerror(errno));
	pid_t sid = tcgetsid(p2);
	if (sid != getpid())
		return tp_child_fail("peer opened without O_NOCTTY: tcgetsid "
				     "%d, want own session %d", (int)sid,
				     (int)getpid());
	t = open("/dev/tty", O_RDWR | O_NOCTTY);
	if (t < 0)
		return tp_child_fail("open /dev/tty with a ctty: %s",
				     strerror(errno));
	if (write(t, "ctty", 4) != 4)
		return tp_child_fail("write /dev/tty: %s", strerror(errno));
	return 0;
}

TP_CASE(peer_ctty_only_without_noctty, TP_LINUX,
	"A session leader without a ctty that gets the peer with O_NOCTTY "
	"has no ctty; getting it without O_NOCTTY makes that pty the ctty, "
	"and /dev/tty writes reach the master")
{
	struct tp_pty p;
	struct tp_child c;
	struct ctty_arg a;
	char buf[8];

	require_tiocgptpeer();
	/* The case's own slave fd keeps the child's bytes readable. */
	tp_pty_open(&p, TP_RAW);
	a.master = p.master;
	tp_child_start(&c, child_peer_ctty, &a);
	tp_child_join(&c, TP_WAIT_MS, "session leader opening peers");
	tp_read_exact(p.master, buf, 4, sizeof(buf),
		      "bytes the child wrote to /dev/tty, on the master");
	ATF_CHECK_MSG(memcmp(buf, "ctty", 4) == 0, "master read \"%.4s\"", buf);
	tp_pty_close(&p);
}

TP_CASE(peer_needs_a_master, TP_LINUX,
	"TIOCGPTPEER on a slave fails with EIO (only a ptmx master has a "
	"peer to open); on a non-tty it fails with ENOTTY")
{
	struct tp_pty p;

	require_tiocgptpeer();
	tp_pty_open(&p, TP_COOKED);
	int fd = ioctl(p.slave, TIOCGPTPEER, O_RDWR | O_NOCTTY);
	ATF_CHECK_MSG(fd < 0 && errno == EIO,
		      "TIOCGPTPEER on a slave: want EIO, got %s",
		      fd < 0 ? strerror(errno) : "a descriptor");
	if (fd >= 0)
		close(fd);
	int nul = open("/dev/null", O_RDWR | O_CLOEXEC);
	ATF_REQUIRE(nul >= 0);
	fd = ioctl(nul, TIOCGPTPEER, O_RDWR | O_NOCTTY);
	ATF_CHECK_MSG(fd < 0 && errno == ENOTTY,
		      "TIOCGPTPEER on /dev/null: want ENOTTY, got %s",
		      fd < 0 ? strerror(errno) : "a descriptor");
	if (fd >= 0)
		close(fd);
	close(nul);
	tp_pty_close(&p);
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
child_peer_emfile(void *varg)
{
	struct ctty_arg *a = varg;
	int low = open("/dev/null", O_RDONLY);
	if (low < 0)
		return tp_child_fail("open /dev/null: %s", strerror(errno));
	close(low);
	int before = open_fd_count(low + 8);
	struct rlimit rl;
	if (getrlimit(RLIMIT_NOFILE, &rl) != 0)
		return tp_child_fail("getrlimit: %s", strerror(errno));
	rl.rlim_cur = (rlim_t)low; /* every slot below low is in use */
	if (setrlimit(RLIMIT_NOFILE, &rl) != 0)
		return tp_child_fail("setrlimit: %s", strerror(errno));
	int p = ioctl(a->master, TIOCGPTPEER, O_RDWR | O_NOCTTY);
	if (p >= 0)
		return tp_child_fail("TIOCGPTPEER succeeded past RLIMIT_NOFILE");
	if (errno != EMFILE)
		return tp_child_fail("TIOCGPTPEER at a full fd table: want "
				     "EMFILE, got %s", strerror(errno));
	if (open_fd_count(low + 8) != before)
		return tp_child_fail("descriptor count changed by the failure");
	rl.rlim_cur = (rlim_t)low + 1;
	if (setrlimit(RLIMIT_NOFILE, &rl) != 0)
		return tp_child_fail("setrlimit: %s", strerror(errno));
	p = ioctl(a->master, TIOCGPTPEER, O_RDWR | O_NOCTTY);
	if (p != low)
		return tp_child_fail("TIOCGPTPEER with one free slot: got %d "
				     "(%s), want fd %d", p,
				     p < 0 ? strerror(errno) : "", low);
	return 0;
}

TP_CASE(peer_emfile_clean, TP_LINUX,
	"With RLIMIT_NOFILE exhausted TIOCGPTPEER fails with EMFILE and leaves "
	"no descriptor behind; with one free slot it returns that slot")
{
	struct tp_pty p;
	struct tp_child c;
	struct ctty_arg a;

	require_tiocgptpeer();
	tp_pty_open(&p, TP_COOKED);
	a.master = p.master;
	tp_child_start(&c, child_peer_emfile, &a);
	tp_child_join(&c, TP_WAIT_MS, "child at a lowered RLIMIT_NOFILE");
	tp_pty_close(&p);
}

TP_CASE_ROOT(peer_survives_overmount, TP_LINUX,
	"In a private mount namespace, after a new devpts instance is mounted "
	"over /dev/pts: a master opened through /dev/pts/ptmx still gets its "
	"own peer (old instance, its index, connected), while a master opened "
	"through /dev/ptmx, whose path now leads to the other instance, is "
	"refused with ENODEV instead of getting a wrong pty (311fc65c9fb9)")
{
	struct stat old_dir, new_dir, st;
	unsigned n;

	require_tiocgptpeer();
	if (unshare(CLONE_NEWNS) != 0)
		atf_tc_skip("needs a private mount namespace: unshare: %s",
			    strerror(errno));
	/* Nothing mounted here may propagate back to the host. */
	ATF_REQUIRE_MSG(mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) == 0,
			"make / private: %s", strerror(errno));
	ATF_REQUIRE(stat("/dev/pts", &old_dir) == 0);
	int m_pts = open_master("/dev/pts/ptmx");
	int m_dev = open_master("/dev/ptmx");
	unlock(m_pts);
	unlock(m_dev);
	ATF_REQUIRE(ioctl(m_pts, TIOCGPTN, &n) == 0);
	if (mount("devpts", "/dev/pts", "devpts", 0,
		  "newinstance,ptmxmode=0666,mode=0600") != 0)
		atf_tc_skip("needs a new devpts instance: mount: %s",
			    strerror(errno));
	ATF_REQUIRE(stat("/dev/pts", &new_dir) == 0);
	ATF_REQUIRE_MSG(new_dir.st_dev != old_dir.st_dev,
			"the new mount is the same devpts instance");
	/* Give the new instance a pty with a low index a wrong lookup could
	 * land on. */
	int m_new = open_master("/dev/ptmx");

	int p = peer(m_pts, O_RDWR | O_NOCTTY | O_CLOEXEC);
	ATF_REQUIRE(fstat(p, &st) == 0);
	ATF_CHECK_MSG(st.st_dev == old_dir.st_dev,
		      "peer lives on dev %lu, the master's instance is %lu",
		      (unsigned long)st.st_dev, (unsigned long)old_dir.st_dev);
	ATF_CHECK_MSG(minor(st.st_rdev) == n, "peer is pty %u, master's is %u",
		      minor(st.st_rdev), n);
	check_connected(m_pts, p, "peer of /dev/pts/ptmx master");
	close(p);

	p = ioctl(m_dev, TIOCGPTPEER, O_RDWR | O_NOCTTY | O_CLOEXEC);
	ATF_CHECK_MSG(p < 0 && errno == ENODEV,
		      "TIOCGPTPEER when /dev/ptmx leads to another instance: "
		      "want ENODEV, got %s", p < 0 ? strerror(errno) : "a fd");
	if (p >= 0)
		close(p);
	close(m_new);
	close(m_dev);
	close(m_pts);
}

ATF_TP_ADD_TCS(tp)
{
	ATF_TP_ADD_TC(tp, peer_is_the_slave);
	ATF_TP_ADD_TC(tp, peer_refused_while_locked);
	ATF_TP_ADD_TC(tp, peer_flags_honoured);
	ATF_TP_ADD_TC(tp, peer_ctty_only_without_noctty);
	ATF_TP_ADD_TC(tp, peer_needs_a_master);
	ATF_TP_ADD_TC(tp, peer_emfile_clean);
	ATF_TP_ADD_TC(tp, peer_survives_overmount);
	return atf_no_error();
}
