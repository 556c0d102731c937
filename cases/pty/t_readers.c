// SPDX-License-Identifier: GPL-2.0-only
/*
 * t_readers.c: readers of one tty take turns.  n_tty holds a tty's read
 * lock for a whole read(), sleep included: a process asleep in read() keeps
 * its place, a second blocking reader waits behind it (a signal ends that
 * wait with EINTR, or restarts it under SA_RESTART), and a non-blocking
 * reader does not wait at all (EAGAIN at once).  Each byte goes to exactly one reader.  Shells handing a
 * terminal between jobs, and programs that read a tty from two processes,
 * live with these rules.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "ttypot.h"

/* A raw pty (VMIN=1) whose slave has a first reader asleep in read(). */
static void
first_reader_asleep(struct tp_pty *p, struct tp_reader *first)
{
	tp_noncanon_open(p, 1, 0);
	tp_reader_start(first, p->slave, 16);
	tp_wait_blocked(first->child.pid, SYS_read, "the first reader asleep");
}

/* Reader r (who: "first", "second") gets want, written to the master
 * now. */
static void
reader_gets(struct tp_pty *p, struct tp_reader *r, const char *want,
	    const char *who)
{
	struct tp_rd_result res;
	char what[64];

	snprintf(what, sizeof(what), "the %s reader's read of %s", who, want);
	tp_write_str(p->master, want, what);
	tp_reader_result(r, &res, what);
	tp_rd_check(&res, want, strlen(want), what);
}

TP_CASE(second_reader_waits_its_turn, TP_LINUX,
	"Raw slave, VMIN=1: of two processes asleep in read(), the one that "
	"went to sleep first gets the next input (\"abc\", all of it) and the "
	"second sleeps on; the next input (\"de\") goes to the second")
{
	struct tp_pty p;
	struct tp_reader first, second;

	first_reader_asleep(&p, &first);
	tp_reader_start(&second, p.slave, 16);
	tp_wait_blocked(second.child.pid, SYS_read, "the second reader asleep");
	reader_gets(&p, &first, "abc", "first");
	tp_wait_blocked(second.child.pid, SYS_read, "the second reader still "
			"asleep after the first took abc");
	reader_gets(&p, &second, "de", "second");
	tp_pty_close(&p);
}

/* A read of fd, asleep behind another reader, that SIGUSR1 (no SA_RESTART)
 * must end with EINTR. */
static int
interrupted_reader(void *arg)
{
	int fd = *(int *)arg;
	char c;
	int rc = tp_child_interruptible(SIGUSR1);

	if (rc != 0)
		return rc;
	ssize_t n = read(fd, &c, 1);
	if (n != -1 || errno != EINTR)
		return tp_child_fail("the read behind another reader, "
				     "interrupted, returned %zd (%s), want -1 "
				     "EINTR", n, n < 0 ? strerror(errno) : "data");
	return 0;
}

TP_CASE(reader_waiting_behind_another_ends_eintr, TP_POSIX,
	"A read() of a slave asleep behind another process's read(), "
	"interrupted by a caught signal (no SA_RESTART), fails with EINTR "
	"having read nothing: the other reader then gets the next input whole")
{
	struct tp_pty p;
	struct tp_reader first;
	struct tp_child second;

	first_reader_asleep(&p, &first);
	tp_child_start(&second, interrupted_reader, &p.slave);
	tp_wait_blocked(second.pid, SYS_read, "the second reader asleep");
	ATF_REQUIRE_EQ(kill(second.pid, SIGUSR1), 0);
	tp_child_join(&second, TP_WAIT_MS, "the interrupted reader to return");
	reader_gets(&p, &first, "xyz", "first");
	tp_pty_close(&p);
}

/* The write end of the pipe the SA_RESTART handler reports on. */
static int handled_w = -1;

static void
note_signal(int sig)
{
	(void)sig;
	(void)!write(handled_w, "s", 1);
}

/* A read of fd asleep behind another reader, with a SIGUSR1 handler that
 * has SA_RESTART: the signal must not end it; it returns "uv" later. */
static int
restarting_reader(void *arg)
{
	int fd = *(int *)arg;
	struct sigaction sa = { .sa_handler = note_signal, .sa_flags = SA_RESTART };
	char buf[16];

	sigemptyset(&sa.sa_mask);
	if (sigaction(SIGUSR1, &sa, NULL) != 0)
		return tp_child_fail("sigaction: %s", strerror(errno));
	ssize_t n = read(fd, buf, sizeof(buf));
	if (n != 2 || memcmp(buf, "uv", 2) != 0)
		return tp_child_fail("the restarted read returned %zd (%s), "
				     "want the 2 bytes uv", n,
				     n < 0 ? strerror(errno) : tp_esc(buf, (size_t)n));
	return 0;
}

TP_CASE(reader_waiting_behind_another_restarts_with_sa_restart, TP_POSIX,
	"A read() of a slave asleep behind another process's read(), "
	"interrupted by a signal whose handler has SA_RESTART, does not "
	"fail: the handler runs, the read sleeps again, and after the other "
	"reader has taken \"xyz\" it returns the next input, \"uv\"")
{
	struct tp_pty p;
	struct tp_reader first;
	struct tp_child second;
	int hp[2];
	char s;

	ATF_REQUIRE(pipe2(hp, O_CLOEXEC) == 0);
	handled_w = hp[1];
	first_reader_asleep(&p, &first);
	tp_child_start(&second, restarting_reader, &p.slave);
	tp_wait_blocked(second.pid, SYS_read, "the second reader asleep");
	ATF_REQUIRE_EQ(kill(second.pid, SIGUSR1), 0);
	tp_read_exact(hp[0], &s, 1, 1, "the second reader's handler to run");
	tp_wait_blocked(second.pid, SYS_read, "the second reader asleep again "
			"after its handler");
	reader_gets(&p, &first, "xyz", "first");
	tp_write_str(p.master, "uv", "master write for the second reader");
	tp_child_join(&second, TP_WAIT_MS, "the restarted reader to return uv");
	close(hp[0]);
	close(hp[1]);
	tp_pty_close(&p);
}

TP_CASE(nonblocking_reader_does_not_wait_behind_another, TP_LINUX,
	"While a process sleeps in read() on a raw slave, a non-blocking "
	"read() of the same slave (another open of it) fails with EAGAIN at "
	"once (within 1 s) instead of waiting for the sleeper; the sleeper "
	"then gets the next input")
{
	struct tp_pty p;
	struct tp_reader first;
	struct tp_rd_result res;

	first_reader_asleep(&p, &first);
	int nb = open(p.name, O_RDWR | O_NOCTTY | O_NONBLOCK | O_CLOEXEC);
	ATF_REQUIRE_MSG(nb >= 0, "second open of %s: %s", p.name, strerror(errno));
	tp_timed_read(nb, 16, &res, "a non-blocking read behind the sleeper");
	ATF_CHECK_MSG(res.n == -1 && res.err == EAGAIN, "the non-blocking read "
		      "returned %zd (%s), want -1 EAGAIN", res.n,
		      res.n < 0 ? strerror(res.err) : "data");
	ATF_CHECK_MSG(res.ms < 1000, "the non-blocking read took %lld ms",
		      res.ms);
	close(nb);
	reader_gets(&p, &first, "q", "first");
	tp_pty_close(&p);
}

ATF_TP_ADD_TCS(tp)
{
	ATF_TP_ADD_TC(tp, second_reader_waits_its_turn);
	ATF_TP_ADD_TC(tp, reader_waiting_behind_another_ends_eintr);
	ATF_TP_ADD_TC(tp, reader_waiting_behind_another_restarts_with_sa_restart);
	ATF_TP_ADD_TC(tp, nonblocking_reader_does_not_wait_behind_another);
	return atf_no_error();
}
