// SPDX-License-Identifier: GPL-2.0-only
/* t_sak.c: the Secure Attention Key.  SysRq-k (here written to
 * /proc/sysrq-trigger) runs do_SAK on the foreground VT: every process
 * with that VT open, or with it as controlling tty, is killed with SIGKILL;
 * processes without it live on, and the VT is reset for the next user.
 * The program is exclusive: it makes its
 * own VT the foreground one, and the kill reaches whoever has that open. */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tp_vt.h"

#define SYSRQ_TRIGGER "/proc/sysrq-trigger"

/* A child that opens VT num (0: nothing), as its controlling tty when
 * ctty, keeping the descriptor unless drop, then waits for 'q', writes a
 * byte to the VT if it kept it, and answers 'a' (alive, the write went
 * through or there was none) or 'h' (the write failed with EIO: the
 * descriptor was hung up). */
struct holder {
	struct tp_sync s;
	int num;
	bool ctty, drop;
	int fd; /* in the child: the VT it kept, else -1 */
};

static int
hold(void *arg)
{
	struct holder *h = arg;
	tp_child_sync_side(&h->s);
	if (h->ctty && setsid() < 0)
		return tp_child_fail("setsid: %s", strerror(errno));
	if (h->num > 0) {
		char path[32];
		snprintf(path, sizeof path, "/dev/tty%d", h->num);
		int fd = open(path, O_RDWR | (h->ctty ? 0 : O_NOCTTY));
		if (fd < 0)
			return tp_child_fail("open %s: %s", path, strerror(errno));
		if (h->drop)
			close(fd);
		else
			h->fd = fd;
	}
	if (tp_child_post(&h->s, 'o') ||
	    tp_child_await(&h->s, 'q', "the case, after the SAK"))
		return 1;
	if (h->fd >= 0 && write(h->fd, "s", 1) != 1) {
		if (errno != EIO)
			return tp_child_fail("write to the VT after the SAK: %s",
					     strerror(errno));
		return tp_child_post(&h->s, 'h');
	}
	return tp_child_post(&h->s, 'a');
}

static void
start_holder(struct holder *h, struct tp_child *c, int num, bool ctty,
	     bool drop, const char *what)
{
	h->num = num, h->ctty = ctty, h->drop = drop, h->fd = -1;
	tp_sync_open(&h->s);
	tp_child_start(c, hold, h);
	tp_sync_parent_side(&h->s, c);
	tp_sync_await(&h->s, 'o', what);
}

static void
want_sigkill(int st, const char *what)
{
	if (!WIFSIGNALED(st) || WTERMSIG(st) != SIGKILL)
		atf_tc_fail("%s: %s %d, want killed by SIGKILL", what,
			    WIFSIGNALED(st) ? "killed by signal" : "exited",
			    WIFSIGNALED(st) ? WTERMSIG(st) : WEXITSTATUS(st));
}

static void
expect_killed(struct holder *h, struct tp_child *c, const char *what)
{
	want_sigkill(tp_child_reap(c, TP_WAIT_MS, what), what);
	tp_sync_close(&h->s);
}

static void
expect_alive(struct holder *h, struct tp_child *c, char answer,
	     const char *what)
{
	tp_sync_post(&h->s, 'q', what);
	tp_sync_await(&h->s, answer, what);
	tp_child_join(c, TP_WAIT_MS, what);
	tp_sync_close(&h->s);
}

static void
require_sysrq(void)
{
	struct stat st;
	if (stat(SYSRQ_TRIGGER, &st) != 0)
		atf_tc_skip("no %s: CONFIG_MAGIC_SYSRQ not built", SYSRQ_TRIGGER);
}

static void
sak(void)
{
	int fd = open(SYSRQ_TRIGGER, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		atf_tc_fail("open %s: %s", SYSRQ_TRIGGER, strerror(errno));
	if (write(fd, "k", 1) != 1)
		atf_tc_fail("write k to %s: %s", SYSRQ_TRIGGER, strerror(errno));
	close(fd);
}

TP_CASE_ROOT(sak_kills_openers_of_foreground_vt, TP_LINUX,
	"SysRq-k through /proc/sysrq-trigger (allowed whatever kernel.sysrq "
	"says) kills with SIGKILL a process holding the foreground VT open; "
	"a process holding a background VT, and one holding no VT, live on")
{
	struct tp_vt fg, bg;
	struct holder hf, hb, hn;
	struct tp_child cf, cb, cn;

	tp_vt_require(tc);
	require_sysrq();
	tp_vt_take(tc, &fg);
	tp_vt_take(tc, &bg);
	/* The keyboard mask must not apply to the trigger file. */
	tp_sysctl_set("/proc/sys/kernel/sysrq", 0);
	tp_vt_activate(fg.num, "VT_ACTIVATE to the VT the SAK hits");
	start_holder(&hf, &cf, fg.num, false, false, "a child holding the foreground VT");
	start_holder(&hb, &cb, bg.num, false, false, "a child holding a background VT");
	start_holder(&hn, &cn, 0, false, false, "a child holding no VT");
	sak();
	expect_killed(&hf, &cf, "the foreground VT's opener");
	expect_alive(&hb, &cb, 'a', "the background VT's opener, writing to it");
	expect_alive(&hn, &cn, 'a', "the child without a VT");
}

/* Whether pid is gone or has SIGKILL pending (/proc/PID/status). */
static bool
kill_pending_or_dead(pid_t pid)
{
	char path[64], line[256];
	if (tp_has_exited(pid))
		return true;
	snprintf(path, sizeof path, "/proc/%d/status", (int)pid);
	FILE *f = fopen(path, "r");
	if (f == NULL)
		atf_tc_fail("open %s: %s", path, strerror(errno));
	bool pending = false;
	while (fgets(line, sizeof line, f)) {
		unsigned long long mask;
		if ((sscanf(line, "SigPnd: %llx", &mask) == 1 ||
		     sscanf(line, "ShdPnd: %llx", &mask) == 1) &&
		    (mask & (1ull << (SIGKILL - 1))))
			pending = true;
		if (strncmp(line, "State:", 6) == 0 && strpbrk(line + 6, "ZX"))
			pending = true;
	}
	fclose(f);
	return pending;
}

TP_CASE_ROOT(sak_kills_session_of_controlling_vt, TP_LINUX,
	"SysRq-k kills a process whose controlling tty is the foreground VT "
	"even when it has no descriptor of it open; another opener of the VT "
	"is killed too, or, when the killed session leader's exit hung the "
	"VT up first, is left with a hung-up descriptor (write: EIO)")
{
	struct tp_vt fg;
	struct holder hk, hc;
	struct tp_child ck, cc;

	tp_vt_require(tc);
	require_sysrq();
	tp_vt_take(tc, &fg);
	tp_vt_activate(fg.num, "VT_ACTIVATE to the VT the SAK hits");
	/* The keeper holds the VT open, so that the session leader's close
	 * is not the last one (a last close takes the controlling tty away
	 * from the session). */
	start_holder(&hk, &ck, fg.num, false, false, "a child keeping the VT open");
	start_holder(&hc, &cc, fg.num, true, true,
		     "a session leader with the VT as controlling tty, its fd closed");
	sak();
	expect_killed(&hc, &cc, "the session leader of the foreground VT");
	/* The leader died by the SAK, so vc_SAK had begun, under the console
	 * lock; VT_GETSTATE takes that lock, so when it returns, __do_SAK
	 * has sent every kill it was going to.  The leader's exit hangs up
	 * its controlling tty, which may happen before __do_SAK looks at the
	 * keeper's descriptors: a hung-up file is no longer the tty's
	 * (this_tty), and the keeper lives on without access to the VT
	 * (seen once in the first five columns run, on 6.1.0-57-cloud-amd64). */
	tp_vt_active();
	if (kill_pending_or_dead(ck.pid))
		expect_killed(&hk, &ck, "the keeper of the foreground VT");
	else
		expect_alive(&hk, &ck, 'h', "the keeper, spared: its write must fail with EIO");
}

/* A session leader that opens VT num as its controlling tty, keeps the
 * descriptor (so that no child's close is the VT's last, which would take
 * the controlling tty from the session) and forks two children of its
 * session, which close theirs: one keeps the VT as its controlling tty,
 * one gives it up (TIOCNOTTY through /dev/tty, after which /dev/tty fails
 * with ENXIO).  Each child, once so, sends a member record to rec_w, or
 * one saying what failed (the case's child reports only the leader's
 * failures); then all wait to be killed. */
enum { KEEPS_CTTY, GAVE_UP_CTTY, NMEMBERS };
struct member {
	int role;
	pid_t pid;
	char failed[120]; /* "" when set up */
};

static void
member_says(int rec_w, struct member *m)
{
	(void)!write(rec_w, m, sizeof *m); /* one record: below PIPE_BUF */
}

static int
session_member(int vt_fd, int rec_w, int role)
{
	struct member m = {.role = role, .pid = getpid()};
	close(vt_fd);
	if (role == GAVE_UP_CTTY) {
		int fd = open("/dev/tty", O_RDWR);
		if (fd < 0 || ioctl(fd, TIOCNOTTY) != 0) {
			snprintf(m.failed, sizeof m.failed, "%s: %s",
				 fd < 0 ? "open /dev/tty" : "TIOCNOTTY", strerror(errno));
			member_says(rec_w, &m);
			return 1;
		}
		close(fd);
		fd = open("/dev/tty", O_RDWR);
		if (fd >= 0 || errno != ENXIO) {
			snprintf(m.failed, sizeof m.failed, "open /dev/tty after TIOCNOTTY: "
				 "%s, want ENXIO", fd >= 0 ? "opened" : strerror(errno));
			member_says(rec_w, &m);
			return 1;
		}
	}
	member_says(rec_w, &m);
	for (;;)
		pause(); /* until the SAK, or the case's reaping */
}

static int
leader_and_members(void *arg)
{
	const int *a = arg; /* VT number, record pipe */
	char path[32];
	if (setsid() < 0)
		return tp_child_fail("setsid: %s", strerror(errno));
	snprintf(path, sizeof path, "/dev/tty%d", a[0]);
	int fd = open(path, O_RDWR);
	if (fd < 0)
		return tp_child_fail("open %s: %s", path, strerror(errno));
	for (int role = 0; role < NMEMBERS; role++) {
		pid_t kid = fork();
		if (kid < 0)
			return tp_child_fail("fork: %s", strerror(errno));
		if (kid == 0)
			_exit(session_member(fd, a[1], role));
	}
	for (;;)
		pause();
}

TP_CASE_ROOT(sak_kills_every_process_of_the_session, TP_LINUX,
	"SysRq-k kills the whole session of the foreground VT, not only its "
	"leader (which has it open): a child of the leader that keeps the VT "
	"as controlling tty, and one that gave it up with TIOCNOTTY, neither "
	"holding a descriptor of it, die of SIGKILL too")
{
	static const char *const who[NMEMBERS] = {
		[KEEPS_CTTY] = "the leader's child with the VT as controlling tty",
		[GAVE_UP_CTTY] = "the leader's child that gave the VT up (TIOCNOTTY)",
	};
	struct tp_vt fg;
	struct tp_child c;
	pid_t pid[NMEMBERS] = {0};
	int pp[2];

	tp_vt_require(tc);
	require_sysrq();
	/* The leader's children outlive it: become their reaper. */
	if (prctl(PR_SET_CHILD_SUBREAPER, 1) != 0)
		atf_tc_fail("PR_SET_CHILD_SUBREAPER: %s", strerror(errno));
	tp_vt_take(tc, &fg);
	tp_vt_activate(fg.num, "VT_ACTIVATE to the VT the SAK hits");
	if (pipe2(pp, O_CLOEXEC) != 0)
		atf_tc_fail("pipe2: %s", strerror(errno));
	int arg[2] = {fg.num, pp[1]};
	tp_child_start(&c, leader_and_members, arg);
	close(pp[1]);
	for (int i = 0; i < NMEMBERS; i++) {
		struct member m;
		/* A member that failed says why in its record; the leader, in
		 * its report as the case's child.  On any failure the
		 * leader's process group goes, so that no member is left. */
		struct pollfd pf[2] = {{.fd = pp[0], .events = POLLIN},
				       {.fd = c.report_fd, .events = POLLIN}};
		tp_waiting_for("a member record from the leader's children");
		if (poll(pf, 2, TP_WAIT_MS) <= 0) {
			kill(-c.pid, SIGKILL); /* the leader's whole process group */
			atf_tc_fail("no member record from the leader's children in %d ms",
				    TP_WAIT_MS);
		}
		if (!(pf[0].revents & POLLIN)) {
			kill(-c.pid, SIGKILL);
			tp_child_join(&c, TP_WAIT_MS, "the session leader, which failed");
		}
		tp_read_exact(pp[0], &m, sizeof m, sizeof m,
			      "a member record from the leader's children");
		bool unexpected = m.role < 0 || m.role >= NMEMBERS || pid[m.role];
		if (unexpected || m.failed[0]) {
			kill(-c.pid, SIGKILL);
			if (unexpected)
				atf_tc_fail("member record of role %d: none expected", m.role);
			atf_tc_fail("%s: %.120s", who[m.role], m.failed);
		}
		pid[m.role] = m.pid;
		tp_track(m.pid);
	}
	close(pp[0]);
	sak();
	want_sigkill(tp_child_reap(&c, TP_WAIT_MS, "the session leader"),
		     "the session leader");
	for (int i = 0; i < NMEMBERS; i++)
		want_sigkill(tp_wait_exit(pid[i], TP_WAIT_MS, who[i]), who[i]);
}

/* VT_GETMODE and KDGKBMODE of VT num through a descriptor opened for it. */
static void
modes_of(int num, struct vt_mode *vm, int *kb)
{
	int fd = tp_vt_open_path(num);
	TP_VT_IOCTL(fd, VT_GETMODE, vm, "VT_GETMODE");
	TP_VT_IOCTL(fd, KDGKBMODE, kb, "KDGKBMODE");
	close(fd);
}

TP_CASE_ROOT(sak_resets_the_vt_mode, TP_LINUX,
	"SysRq-k resets the foreground VT for the next user: a VT_PROCESS "
	"mode (with waitv, relsig and acqsig) is back to VT_AUTO with all "
	"three 0, and a raw keyboard (K_RAW) is raw no more")
{
	struct tp_vt fg;
	struct vt_mode vm = {.mode = VT_PROCESS, .waitv = 1, .relsig = SIGUSR1,
			     .acqsig = SIGUSR2};
	int kb;

	tp_vt_require(tc);
	require_sysrq();
	tp_vt_take(tc, &fg);
	tp_vt_save_modes(&fg);
	tp_vt_activate(fg.num, "VT_ACTIVATE to the VT the SAK hits");
	/* Set through a descriptor closed before the SAK: an opener is killed. */
	int fd = tp_vt_open_path(fg.num);
	TP_VT_IOCTL(fd, VT_SETMODE, &vm, "VT_SETMODE VT_PROCESS");
	TP_VT_IOCTL(fd, KDSKBMODE, K_RAW, "KDSKBMODE K_RAW");
	close(fd);
	sak();
	/* vc_SAK resets the VT from a workqueue, after the write returned. */
	long long end = tp_now_ms() + TP_WAIT_MS;
	int step = 0;
	tp_waiting_for("the VT reset by the SAK (VT_GETMODE VT_AUTO)");
	for (;;) {
		modes_of(fg.num, &vm, &kb);
		if (vm.mode == VT_AUTO)
			break;
		if (tp_now_ms() > end)
			atf_tc_fail("VT_GETMODE mode %d %d ms after the SAK, want VT_AUTO",
				    vm.mode, TP_WAIT_MS);
		tp_backoff(&step);
	}
	tp_waiting_for("");
	if (vm.waitv || vm.relsig || vm.acqsig)
		atf_tc_fail("after the SAK: waitv %d relsig %d acqsig %d, want 0 0 0",
			    vm.waitv, vm.relsig, vm.acqsig);
	if (kb == K_RAW)
		atf_tc_fail("after the SAK the keyboard is still K_RAW");
}

ATF_TP_ADD_TCS(tp)
{
	ATF_TP_ADD_TC(tp, sak_kills_openers_of_foreground_vt);
	ATF_TP_ADD_TC(tp, sak_kills_session_of_controlling_vt);
	ATF_TP_ADD_TC(tp, sak_kills_every_process_of_the_session);
	ATF_TP_ADD_TC(tp, sak_resets_the_vt_mode);
	return atf_no_error();
}
