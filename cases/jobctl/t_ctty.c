// SPDX-License-Identifier: GPL-2.0-only
/* t_ctty.c: acquiring and losing a controlling tty (TIOCSCTTY, TIOCNOTTY,
 * open without O_NOCTTY, /dev/tty) and who may take one from another
 * session.  The case watches the pty from the master side: TIOCGSID and
 * TIOCGPGRP on a master report the slave's session and foreground group
 * without the case needing a controlling tty of its own. */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <termios.h>
#include <unistd.h>

#include "ttypot.h"

/* An unprivileged uid that needs no /etc/passwd entry (minimal guests). */
#define NOBODY_UID 65534

struct ctty {
	struct tp_pty p;
	struct tp_sync s;
	int steal_arg; /* for the second session's TIOCSCTTY */
	bool drop_privileges;
};

/* Session id the master reports for the slave, or -errno. */
static pid_t
master_sid(int master)
{
	pid_t sid;
	if (ioctl(master, TIOCGSID, &sid) != 0)
		return -errno;
	return sid;
}

static int
child_dev_tty_errno(void)
{
	int fd = open("/dev/tty", O_RDWR | O_CLOEXEC);
	if (fd >= 0) {
		close(fd);
		return 0;
	}
	return errno;
}

/* In a child with a controlling tty: /dev/tty opens the very same tty. */
static int
child_dev_tty_is(int slave)
{
	struct stat b;
	unsigned int dev;
	int fd = open("/dev/tty", O_RDWR | O_CLOEXEC);
	if (fd < 0)
		return tp_child_fail("open /dev/tty with a ctty: %s",
				     strerror(errno));
	/* fstat would show /dev/tty itself; TIOCGDEV names the tty behind. */
	if (ioctl(fd, TIOCGDEV, &dev) != 0 || fstat(slave, &b) != 0)
		return tp_child_fail("TIOCGDEV / fstat: %s", strerror(errno));
	close(fd);
	/* TIOCGDEV uses the kernel's new_encode_dev() layout. */
	unsigned int maj = (dev & 0xfff00) >> 8;
	unsigned int min = (dev & 0xff) | ((dev >> 12) & 0xfff00);
	if (maj != major(b.st_rdev) || min != minor(b.st_rdev))
		return tp_child_fail("/dev/tty is device %u:%u, the slave is "
				     "%u:%u",
				     maj, min, major(b.st_rdev),
				     minor(b.st_rdev));
	return 0;
}

/* Takes the slave as ctty, checks it from inside, says 'r', waits 'q'. */
static int
holder(void *arg)
{
	struct ctty *c = arg;
	tp_child_sync_side(&c->s);
	if (tp_child_take_ctty(c->p.slave))
		return 1;
	pid_t sid = tcgetsid(c->p.slave), pgrp = tcgetpgrp(c->p.slave);
	if (sid != getpid() || pgrp != getpid())
		return tp_child_fail("after TIOCSCTTY: tcgetsid %d tcgetpgrp "
				     "%d, expected both %d",
				     (int)sid, (int)pgrp, (int)getpid());
	if (child_dev_tty_is(c->p.slave) || tp_child_post(&c->s, 'r') ||
	    tp_child_await(&c->s, 'q', "case done"))
		return 1;
	return 0;
}

/* Takes the slave as ctty as root, becomes NOBODY_UID, then opens
 * /dev/tty (a node of root's, mode 0666) and writes 'u' through it. */
static int
unprivileged_dev_tty(void *arg)
{
	struct tp_pty *p = arg;
	if (tp_child_take_ctty(p->slave))
		return 1;
	if (tp_child_drop_to_nobody())
		return 1;
	if (child_dev_tty_is(p->slave))
		return 1;
	int fd = open("/dev/tty", O_WRONLY | O_CLOEXEC);
	if (fd < 0 || write(fd, "u", 1) != 1)
		return tp_child_fail("write through /dev/tty as uid %d: %s",
				     NOBODY_UID, strerror(errno));
	close(fd);
	return 0;
}

TP_CASE_ROOT(dev_tty_opens_for_any_user, TP_LINUX,
	"/dev/tty opens for every user (the kernel creates the node with mode "
	"0666): a process of uid 65534 whose controlling tty is the slave "
	"opens it, reaches that slave and writes through it, as ssh and "
	"passwd do to ask for a password")
{
	struct tp_pty p;
	struct tp_child c;
	char u;

	tp_pty_open(&p, TP_RAW);
	tp_child_start(&c, unprivileged_dev_tty, &p);
	tp_child_join(&c, TP_WAIT_MS, "unprivileged process opening /dev/tty");
	tp_read_exact(p.master, &u, 1, 1, "the byte written through /dev/tty");
	ATF_CHECK_MSG(u == 'u', "the master read 0x%02x, not 'u'", u);
	tp_pty_close(&p);
}

TP_CASE(tiocsctty_makes_controlling_tty, TP_POSIX,
	"A session leader's TIOCSCTTY makes the slave its controlling tty: "
	"tcgetsid and tcgetpgrp name it, /dev/tty opens the slave, and the "
	"master reports the session until the leader exits")
{
	struct ctty c;
	struct tp_child ch;

	tp_pty_open(&c.p, TP_COOKED);
	ATF_CHECK_EQ_MSG(master_sid(c.p.master), -ENOTTY,
			 "fresh pty already belongs to a session");
	tp_sync_open(&c.s);
	tp_child_start(&ch, holder, &c);
	tp_sync_parent_side(&c.s, &ch);
	tp_sync_await(&c.s, 'r', "child taking the slave as ctty");
	ATF_CHECK_EQ(master_sid(c.p.master), ch.pid);
	pid_t pgrp = tcgetpgrp(c.p.master);
	ATF_CHECK_EQ_MSG(pgrp, ch.pid, "master tcgetpgrp %d (%s)", (int)pgrp,
			 pgrp < 0 ? strerror(errno) : "");
	tp_sync_post(&c.s, 'q', "release the holder");
	tp_child_join(&ch, TP_WAIT_MS, "ctty holder");
	/* A leader's exit disassociates the tty from its session. */
	ATF_CHECK_EQ_MSG(master_sid(c.p.master), -ENOTTY,
			 "pty still names a session after its leader exited");
	tp_sync_close(&c.s);
	tp_pty_close(&c.p);
}

static int
no_ctty_child(void *arg)
{
	struct ctty *c = arg;
	if (setsid() < 0)
		return tp_child_fail("setsid: %s", strerror(errno));
	int e = child_dev_tty_errno();
	if (e != ENXIO)
		return tp_child_fail("open /dev/tty without a ctty: %s, "
				     "expected ENXIO",
				     e ? strerror(e) : "success");
	/* Opening a tty with O_NOCTTY must not make it the ctty. */
	int fd = open(c->p.name, O_RDWR | O_NOCTTY | O_CLOEXEC);
	if (fd < 0)
		return tp_child_fail("open %s: %s", c->p.name, strerror(errno));
	e = child_dev_tty_errno();
	if (e != ENXIO)
		return tp_child_fail("after an O_NOCTTY open, /dev/tty: %s, "
				     "expected ENXIO",
				     e ? strerror(e) : "success");
	if (tcgetsid(fd) >= 0 || errno != ENOTTY)
		return tp_child_fail("tcgetsid on a tty that is not the ctty: "
				     "%s, expected ENOTTY",
				     strerror(errno));
	close(fd);
	return 0;
}

TP_CASE(dev_tty_enxio_without_ctty, TP_POSIX,
	"In a new session without a controlling tty, open(/dev/tty) fails "
	"ENXIO, also after opening a slave with O_NOCTTY; tcgetsid on it "
	"fails ENOTTY")
{
	struct ctty c;
	struct tp_child ch;

	tp_pty_open(&c.p, TP_COOKED);
	tp_child_start(&ch, no_ctty_child, &c);
	tp_child_join(&ch, TP_WAIT_MS, "session without ctty");
	tp_pty_close(&c.p);
}

static int
open_acquires_child(void *arg)
{
	struct ctty *c = arg;
	if (setsid() < 0)
		return tp_child_fail("setsid: %s", strerror(errno));
	int fd = open(c->p.name, O_RDWR | O_CLOEXEC);
	if (fd < 0)
		return tp_child_fail("open %s: %s", c->p.name, strerror(errno));
	if (tcgetsid(fd) != getpid())
		return tp_child_fail("open without O_NOCTTY: tcgetsid %d (%s), "
				     "expected %d",
				     (int)tcgetsid(fd), strerror(errno),
				     (int)getpid());
	return child_dev_tty_is(fd);
}

TP_CASE(open_without_noctty_acquires_ctty, TP_LINUX,
	"A session leader without a controlling tty that opens a free slave "
	"without O_NOCTTY gets it as controlling tty")
{
	struct ctty c;
	struct tp_child ch;

	tp_pty_open(&c.p, TP_COOKED);
	tp_child_start(&ch, open_acquires_child, &c);
	tp_child_join(&ch, TP_WAIT_MS, "leader opening the slave");
	tp_pty_close(&c.p);
}

static int
notty_child(void *arg)
{
	struct ctty *c = arg;
	sigset_t set, pend;

	tp_child_sync_side(&c->s);
	sigemptyset(&set);
	sigaddset(&set, SIGHUP);
	sigaddset(&set, SIGCONT);
	sigprocmask(SIG_BLOCK, &set, NULL);
	if (tp_child_take_ctty(c->p.slave))
		return 1;
	if (ioctl(c->p.slave, TIOCNOTTY) != 0)
		return tp_child_fail("TIOCNOTTY: %s", strerror(errno));
	int e = child_dev_tty_errno();
	if (e != ENXIO)
		return tp_child_fail("open /dev/tty after TIOCNOTTY: %s, "
				     "expected ENXIO",
				     e ? strerror(e) : "success");
	/* A session leader giving up its tty hangs up its foreground group
	 * (here: itself) with SIGHUP then SIGCONT, sent inside the ioctl. */
	sigpending(&pend);
	if (!sigismember(&pend, SIGHUP) || !sigismember(&pend, SIGCONT))
		return tp_child_fail("after TIOCNOTTY by the leader: SIGHUP %s, "
				     "SIGCONT %s",
				     sigismember(&pend, SIGHUP) ? "pending"
								: "missing",
				     sigismember(&pend, SIGCONT) ? "pending"
								 : "missing");
	if (tp_child_post(&c->s, 'd') || tp_child_await(&c->s, 'q', "case"))
		return 1;
	return 0;
}

TP_CASE(tiocnotty_releases_ctty, TP_LINUX,
	"TIOCNOTTY by the session leader drops the controlling tty (/dev/tty "
	"ENXIO, the master reports no session) and sends SIGHUP and SIGCONT "
	"to the foreground group")
{
	struct ctty c;
	struct tp_child ch;

	tp_pty_open(&c.p, TP_COOKED);
	tp_sync_open(&c.s);
	tp_child_start(&ch, notty_child, &c);
	tp_sync_parent_side(&c.s, &ch);
	tp_sync_await(&c.s, 'd', "child giving up its ctty");
	ATF_CHECK_EQ_MSG(master_sid(c.p.master), -ENOTTY,
			 "pty still names session %d after TIOCNOTTY",
			 (int)master_sid(c.p.master));
	tp_sync_post(&c.s, 'q', "release the child");
	tp_child_join(&ch, TP_WAIT_MS, "TIOCNOTTY child");
	tp_sync_close(&c.s);
	tp_pty_close(&c.p);
}

/* The second session: tries to take a tty the holder already owns. */
static int
taker(void *arg)
{
	struct ctty *c = arg;
	if (setsid() < 0)
		return tp_child_fail("setsid: %s", strerror(errno));
	if (c->drop_privileges && getuid() == 0 && setuid(NOBODY_UID) != 0)
		return tp_child_fail("setuid(%d): %s", NOBODY_UID,
				     strerror(errno));
	int r = ioctl(c->p.slave, TIOCSCTTY, c->steal_arg);
	bool expect_ok = c->steal_arg == 1 && !c->drop_privileges;
	if (expect_ok && r != 0)
		return tp_child_fail("TIOCSCTTY(1) as root: %s",
				     strerror(errno));
	if (!expect_ok && (r == 0 || errno != EPERM))
		return tp_child_fail("TIOCSCTTY(%d)%s on another session's "
				     "tty: %s, expected EPERM",
				     c->steal_arg,
				     c->drop_privileges ? " unprivileged" : "",
				     r == 0 ? "success" : strerror(errno));
	if (expect_ok && tcgetsid(c->p.slave) != getpid())
		return tp_child_fail("after stealing, tcgetsid %d",
				     (int)tcgetsid(c->p.slave));
	return 0;
}

static void
run_take(int steal_arg, bool drop)
{
	struct ctty c = {.steal_arg = steal_arg, .drop_privileges = drop};
	struct tp_child h, t;

	tp_pty_open(&c.p, TP_COOKED);
	tp_sync_open(&c.s);
	tp_child_start(&h, holder, &c);
	tp_sync_parent_side(&c.s, &h);
	tp_sync_await(&c.s, 'r', "first session taking the slave");
	tp_child_start(&t, taker, &c);
	tp_child_join(&t, TP_WAIT_MS, "second session's TIOCSCTTY");
	pid_t sid = master_sid(c.p.master);
	ATF_CHECK_EQ_MSG(sid, h.pid, "pty session %d, expected the holder %d",
			 (int)sid, (int)h.pid);
	tp_sync_post(&c.s, 'q', "release the holder");
	tp_child_join(&h, TP_WAIT_MS, "ctty holder");
	tp_sync_close(&c.s);
	tp_pty_close(&c.p);
}

TP_CASE(tiocsctty_other_session_eperm, TP_LINUX,
	"TIOCSCTTY on a tty that is another session's controlling tty fails "
	"EPERM with arg 0 (even for root), and with arg 1 for an "
	"unprivileged process; the tty stays with its session")
{
	run_take(0, false);
	run_take(1, true);
}

static int
stolen_holder(void *arg)
{
	struct ctty *c = arg;
	tp_child_sync_side(&c->s);
	if (tp_child_take_ctty(c->p.slave) || tp_child_post(&c->s, 'r') ||
	    tp_child_await(&c->s, 'q', "case done"))
		return 1;
	/* The stealer cleared this session's tty: nothing to open now. */
	int e = child_dev_tty_errno();
	if (e != ENXIO)
		return tp_child_fail("robbed session: open /dev/tty %s, "
				     "expected ENXIO",
				     e ? strerror(e) : "succeeded");
	return 0;
}

TP_CASE_ROOT(tiocsctty_steal_as_root, TP_LINUX,
	     "TIOCSCTTY with arg 1 by a CAP_SYS_ADMIN session leader steals "
	     "another session's controlling tty: the pty reports the new "
	     "session and the old one loses /dev/tty")
{
	struct ctty c = {.steal_arg = 1};
	struct tp_child h, t;

	tp_pty_open(&c.p, TP_COOKED);
	tp_sync_open(&c.s);
	tp_child_start(&h, stolen_holder, &c);
	tp_sync_parent_side(&c.s, &h);
	tp_sync_await(&c.s, 'r', "first session taking the slave");
	tp_child_start(&t, taker, &c);
	tp_child_join(&t, TP_WAIT_MS, "stealing TIOCSCTTY(1)");
	tp_sync_post(&c.s, 'q', "let the robbed session look");
	tp_child_join(&h, TP_WAIT_MS, "robbed session");
	tp_sync_close(&c.s);
	tp_pty_close(&c.p);
}

/* A fresh raw pty, and fn run on it (its tp_pty) in a child that must
 * succeed. */
static void
child_on_a_pty(int (*fn)(void *), const char *what)
{
	struct tp_pty p;
	struct tp_child c;

	tp_pty_open(&p, TP_RAW);
	tp_child_start(&c, fn, &p);
	tp_child_join(&c, TP_WAIT_MS, what);
	tp_pty_close(&p);
}

/* TIOCSCTTY of fd in the calling process: 0 or the errno. */
static int
sctty_errno(int fd)
{
	return ioctl(fd, TIOCSCTTY, 0) == 0 ? 0 : errno;
}

/* A child that is no session leader, then a leader that already has a
 * controlling tty (the first pty), each asking for the second pty. */
static int
second_ctty_child(void *arg)
{
	struct tp_pty *two = arg;
	int e = sctty_errno(two[1].slave);
	if (e != EPERM)
		return tp_child_fail("TIOCSCTTY by a process that is no session "
				     "leader: %s, want EPERM", e ? strerror(e) : "success");
	int rc = tp_child_take_ctty(two[0].slave);
	if (rc)
		return rc;
	e = sctty_errno(two[1].slave);
	if (e != EPERM)
		return tp_child_fail("TIOCSCTTY of a second tty by a leader that has "
				     "one: %s, want EPERM", e ? strerror(e) : "success");
	if (tcgetsid(two[0].slave) != getpid())
		return tp_child_fail("after the refused TIOCSCTTY the first pty is no "
				     "longer this session's: tcgetsid %s",
				     strerror(errno));
	if (tcgetsid(two[1].slave) >= 0 || errno != ENOTTY)
		return tp_child_fail("the refused second pty names a session");
	return 0;
}

TP_CASE(tiocsctty_only_by_a_leader_without_one, TP_LINUX,
	"TIOCSCTTY fails with EPERM for a process that is not a session "
	"leader, and for a session leader that already has a controlling "
	"tty, which keeps it (tcgetsid names the first pty, the second names "
	"no session)")
{
	struct tp_pty two[2];
	struct tp_child c;

	tp_pty_open(&two[0], TP_RAW);
	tp_pty_open(&two[1], TP_RAW);
	tp_child_start(&c, second_ctty_child, two);
	tp_child_join(&c, TP_WAIT_MS, "the child asking for a second controlling tty");
	ATF_CHECK_EQ_MSG(master_sid(two[1].master), -ENOTTY,
			 "the second pty belongs to a session");
	tp_pty_close(&two[1]);
	tp_pty_close(&two[0]);
}

/* A new session, the slave opened write-only and read-write as root, then
 * as uid 65534 TIOCSCTTY of each. */
static int
write_only_ctty_child(void *arg)
{
	struct tp_pty *p = arg;
	if (setsid() < 0)
		return tp_child_fail("setsid: %s", strerror(errno));
	int wo = open(p->name, O_WRONLY | O_NOCTTY | O_CLOEXEC);
	int rw = open(p->name, O_RDWR | O_NOCTTY | O_CLOEXEC);
	if (wo < 0 || rw < 0)
		return tp_child_fail("open %s: %s", p->name, strerror(errno));
	if (tp_child_drop_to_nobody())
		return 1;
	int e = sctty_errno(wo);
	if (e != EPERM)
		return tp_child_fail("TIOCSCTTY as uid %d through a write-only "
				     "descriptor: %s, want EPERM", NOBODY_UID,
				     e ? strerror(e) : "success");
	e = sctty_errno(rw);
	if (e != 0)
		return tp_child_fail("TIOCSCTTY as uid %d through a read-write "
				     "descriptor: %s", NOBODY_UID, strerror(e));
	if (tcgetsid(rw) != getpid())
		return tp_child_fail("tcgetsid after TIOCSCTTY: %s", strerror(errno));
	return 0;
}

TP_CASE_ROOT(tiocsctty_needs_read_access, TP_LINUX,
	"Without CAP_SYS_ADMIN a tty becomes the controlling tty only through "
	"a descriptor open for reading: a session leader of uid 65534 gets "
	"EPERM from TIOCSCTTY on a write-only descriptor of a free slave, and "
	"takes it through a read-write one")
{
	child_on_a_pty(write_only_ctty_child, "the unprivileged leader taking the slave");
}

/* The slave as ctty, TIOCEXCL on it, then as uid 65534: /dev/tty. */
static int
excl_dev_tty_child(void *arg)
{
	struct tp_pty *p = arg;
	if (tp_child_take_ctty(p->slave))
		return 1;
	if (ioctl(p->slave, TIOCEXCL) != 0)
		return tp_child_fail("TIOCEXCL: %s", strerror(errno));
	if (tp_child_drop_to_nobody())
		return 1;
	int fd = open("/dev/tty", O_RDWR | O_CLOEXEC);
	if (fd >= 0 || errno != EBUSY)
		return tp_child_fail("open /dev/tty as uid %d with its tty exclusive: "
				     "%s, want EBUSY", NOBODY_UID,
				     fd >= 0 ? "success" : strerror(errno));
	if (ioctl(p->slave, TIOCNXCL) != 0)
		return tp_child_fail("TIOCNXCL: %s", strerror(errno));
	fd = open("/dev/tty", O_RDWR | O_CLOEXEC);
	if (fd < 0)
		return tp_child_fail("open /dev/tty after TIOCNXCL: %s", strerror(errno));
	close(fd);
	return 0;
}

TP_CASE_ROOT(tiocexcl_refuses_dev_tty_too, TP_LINUX,
	"TIOCEXCL on a controlling tty refuses /dev/tty too, as any other "
	"open: a process of uid 65534 whose controlling tty is exclusive gets "
	"EBUSY from open(/dev/tty), and opens it once TIOCNXCL lifted the "
	"mode")
{
	child_on_a_pty(excl_dev_tty_child, "the unprivileged process opening /dev/tty");
}

ATF_TP_ADD_TCS(tp)
{
	ATF_TP_ADD_TC(tp, tiocsctty_makes_controlling_tty);
	ATF_TP_ADD_TC(tp, dev_tty_opens_for_any_user);
	ATF_TP_ADD_TC(tp, dev_tty_enxio_without_ctty);
	ATF_TP_ADD_TC(tp, open_without_noctty_acquires_ctty);
	ATF_TP_ADD_TC(tp, tiocnotty_releases_ctty);
	ATF_TP_ADD_TC(tp, tiocsctty_other_session_eperm);
	ATF_TP_ADD_TC(tp, tiocsctty_steal_as_root);
	ATF_TP_ADD_TC(tp, tiocsctty_only_by_a_leader_without_one);
	ATF_TP_ADD_TC(tp, tiocsctty_needs_read_access);
	ATF_TP_ADD_TC(tp, tiocexcl_refuses_dev_tty_too);
	return atf_no_error();
}
