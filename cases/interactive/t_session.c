// SPDX-License-Identifier: GPL-2.0-only
/*
 * t_session.c: the session API itself (atf/tp_expect.c) on the running
 * kernel: a spawned fixture leads a session on its pty, a stuck expect is
 * bounded and names its pattern and what it saw, and closing the master
 * hangs the session up and reaps the fixture.
 */
#include <errno.h>
#include <signal.h>
#include <string.h>
#include <sys/wait.h>
#include <termios.h>
#include <unistd.h>

#include "tp_expect.h"

TP_CASE(spawned_fixture_leads_session_on_its_pty, TP_POSIX,
	"A fixture spawned by libexpect is a session leader whose controlling "
	"tty is the new pty: on the master, tcgetsid and tcgetpgrp name it")
{
	struct tp_exp s;

	tp_exp_spawn(&s, tc, "tp_jobsh", NULL);
	tp_exp_expect_exact(&s, "$ ", "shell prompt");
	pid_t sid = tcgetsid(s.fd);
	pid_t pgrp = tcgetpgrp(s.fd);
	ATF_CHECK_EQ_MSG(sid, s.pid, "tcgetsid(master) = %d (%s), fixture %d",
			 (int)sid, sid < 0 ? strerror(errno) : "ok", (int)s.pid);
	ATF_CHECK_EQ_MSG(pgrp, s.pid, "tcgetpgrp(master) = %d, fixture %d",
			 (int)pgrp, (int)s.pid);
	ATF_CHECK_EQ_MSG(getsid(s.pid), s.pid, "getsid(fixture) = %d",
			 (int)getsid(s.pid));
	tp_exp_send(&s, "exit\n", "command exit");
	tp_exp_check_exit(tp_exp_wait_exit(&s, "shell exit"), 0, "shell");
}

TP_CASE(stuck_expect_is_bounded_and_names_pattern, TP_POSIX,
	"An expect whose pattern never comes returns EXP_TIMEOUT within its "
	"bound, and the failure text names the pattern and the bytes seen")
{
	struct tp_exp s;

	tp_exp_spawn(&s, tc, "tp_jobsh", NULL);
	tp_exp_expect_exact(&s, "$ ", "shell prompt");
	tp_exp_send(&s, "say seen so far\n", "a command");
	tp_exp_expect_exact(&s, "said [", "start of the reply");
	long long t0 = tp_now_ms();
	int r = tp_exp_try(&s, exp_exact, "never printed", 2000);
	long long ms = tp_now_ms() - t0;
	ATF_CHECK_EQ_MSG(r, EXP_TIMEOUT, "tp_exp_try returned %d", r);
	/* libexpect's deadline is time(NULL) + 2 in whole seconds, looked at
	 * again after every read: the rest of the reply arriving just after a
	 * second ticks leaves it 1 s and a little, never less (a 1 s timeout
	 * could end at once).  The top allows a loaded TCG guest's delay. */
	ATF_CHECK_MSG(ms >= 900 && ms < 7000, "timed out after %lld ms", ms);
	const char *msg = tp_exp_failure(&s, "never printed", r, "self-test");
	ATF_CHECK_MSG(strstr(msg, "\"never printed\"") != NULL,
		      "message lacks the pattern: %s", msg);
	ATF_CHECK_MSG(strstr(msg, "seen so far]") != NULL,
		      "message lacks the bytes seen: %s", msg);
	ATF_CHECK_MSG(strstr(msg, "timed out") != NULL,
		      "message lacks the outcome: %s", msg);
	/* What timed out is kept: a later expect still finds it. */
	tp_exp_expect_exact(&s, "seen so far]", "the reply after the timeout");
	tp_exp_close(&s, "shell");
}

TP_CASE(close_hangs_up_and_reaps_fixture, TP_POSIX,
	"Closing the master hangs up the session: the fixture, blocked reading "
	"its terminal, dies of SIGHUP and is reaped (no zombie, no leak)")
{
	struct tp_exp s;

	tp_exp_spawn(&s, tc, "tp_jobsh", NULL);
	tp_exp_expect_exact(&s, "$ ", "shell prompt");
	pid_t pid = s.pid;
	int status = tp_exp_close(&s, "shell after hangup");
	ATF_CHECK_MSG(WIFSIGNALED(status) && WTERMSIG(status) == SIGHUP,
		      "fixture wait status 0x%x, want killed by SIGHUP",
		      (unsigned)status);
	errno = 0;
	ATF_CHECK_MSG(kill(pid, 0) != 0 && errno == ESRCH,
		      "pid %d still exists after close: %s", (int)pid,
		      strerror(errno));
}

ATF_TP_ADD_TCS(tp)
{
	ATF_TP_ADD_TC(tp, spawned_fixture_leads_session_on_its_pty);
	ATF_TP_ADD_TC(tp, stuck_expect_is_bounded_and_names_pattern);
	ATF_TP_ADD_TC(tp, close_hangs_up_and_reaps_fixture);
	return atf_no_error();
}
