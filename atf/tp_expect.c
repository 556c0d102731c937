// SPDX-License-Identifier: GPL-2.0-only
/* tp_expect.c: interactive sessions over libexpect (see tp_expect.h). */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tp_expect.h"

/* Failure messages show at most this many bytes, the newest ones. */
#define SHOW_TAIL 300

static void
configure_libexpect(void)
{
	exp_ttycopy = 0;
	exp_ttyinit = 0;
	exp_stty_init = NULL;
	exp_loguser = 0;
	exp_remove_nulls = 0;
	exp_full_buffer = 1;
	exp_match_max = TP_EXP_MATCH_MAX;
	exp_is_debugging = 0;
	exp_debugfile = NULL;
}

void
tp_exp_spawn(struct tp_exp *s, const atf_tc_t *tc, const char *fixture,
	     const char *const args[])
{
	char path[4096];
	char *argv[32];
	int n = 0;

	memset(s, 0, sizeof(*s));
	s->fd = -1;
	snprintf(s->name, sizeof(s->name), "%s", fixture);
	tp_fixture_path(tc, fixture, path, sizeof(path));
	argv[n++] = path;
	for (int i = 0; args && args[i]; i++) {
		if (n == 31)
			atf_tc_fail("spawn %s: too many arguments", fixture);
		argv[n++] = (char *)args[i];
	}
	argv[n] = NULL;

	s->log = open_memstream(&s->logbuf, &s->loglen);
	if (!s->log)
		atf_tc_fail("open_memstream: %s", strerror(errno));
	configure_libexpect();
	exp_logfile = s->log;
	exp_logfile_all = 1;

	errno = 0;
	tp_waiting_for("exp_spawnv of a fixture");
	int fd = exp_spawnv(path, argv);
	int err = errno;
	if (fd < 0) {
		/* libexpect reaped a child whose exec failed. */
		atf_tc_fail("exp_spawnv(%s): %s%s%s", path, strerror(err),
			    exp_pty_error ? ": " : "",
			    exp_pty_error ? exp_pty_error : "");
	}
	tp_track(exp_pid);
	s->fd = fd;
	s->pid = exp_pid;
}

static const char *
show_tail(const char *p, size_t len)
{
	static char out[SHOW_TAIL * 4 + 64];
	if (len <= SHOW_TAIL) {
		snprintf(out, sizeof(out), "\"%s\"", tp_esc(p, len));
	} else {
		snprintf(out, sizeof(out), "(%zu bytes, last %d) \"...%s\"", len,
			 SHOW_TAIL, tp_esc(p + len - SHOW_TAIL, SHOW_TAIL));
	}
	return out;
}

static const char *
code_name(int code)
{
	switch (code) {
	case EXP_TIMEOUT: return "timed out";
	case EXP_EOF: return "reached EOF (the fixture closed the pty)";
	case EXP_FULLBUFFER: return "filled libexpect's buffer without a match";
	default: return "failed";
	}
}

const char *
tp_exp_failure(struct tp_exp *s, const char *pattern, int code,
	       const char *what)
{
	static char msg[2048];
	size_t seen = exp_buffer && exp_buffer_end >= exp_buffer
			      ? (size_t)(exp_buffer_end - exp_buffer)
			      : 0;
	snprintf(msg, sizeof(msg),
		 "%s: expect \"%s\" from %s %s; unmatched bytes seen: %s",
		 what, tp_esc(pattern, strlen(pattern)), s->name,
		 code_name(code), show_tail(exp_buffer ? exp_buffer : "", seen));
	return msg;
}

int
tp_exp_try(struct tp_exp *s, enum exp_type type, const char *pattern,
	   int timeout_ms)
{
	struct exp_case cases[2] = {
		{.pattern = (char *)pattern, .re = NULL, .type = type, .value = 0},
		{.type = exp_end},
	};

	if (s->fd < 0 || s->eof)
		return EXP_EOF;
	exp_timeout = (timeout_ms + 999) / 1000;
	if (exp_timeout < 1)
		exp_timeout = 1;
	int r = exp_expectv(s->fd, pattern ? cases : &cases[1]);
	if (r == EXP_EOF)
		s->eof = true;
	if (r == -1)
		atf_tc_fail("exp_expectv on %s: %s", s->name, strerror(errno));
	return r;
}

static void
expect_or_fail(struct tp_exp *s, enum exp_type type, const char *pattern,
	       const char *what)
{
	char wait[300];
	snprintf(wait, sizeof(wait), "%s: expect \"%s\"", what, pattern);
	tp_waiting_for(wait);
	if (s->eof)
		atf_tc_fail("%s: expect \"%s\" from %s after it already "
			    "reached EOF", what, tp_esc(pattern, strlen(pattern)),
			    s->name);
	int r = tp_exp_try(s, type, pattern, TP_WAIT_MS);
	if (r != 0)
		atf_tc_fail("%s", tp_exp_failure(s, pattern, r, what));
}

void
tp_exp_expect(struct tp_exp *s, const char *glob, const char *what)
{
	expect_or_fail(s, exp_glob, glob, what);
}

void
tp_exp_expect_exact(struct tp_exp *s, const char *text, const char *what)
{
	expect_or_fail(s, exp_exact, text, what);
}

void
tp_exp_expect_eof(struct tp_exp *s, const char *what)
{
	tp_waiting_for(what);
	if (s->eof)
		return;
	int r = tp_exp_try(s, exp_exact, NULL, TP_WAIT_MS);
	if (r != EXP_EOF)
		atf_tc_fail("%s", tp_exp_failure(s, "<EOF>", r, what));
	/* Everything unmatched before the EOF is the "before" text. */
	exp_match = exp_buffer_end;
}

size_t
tp_exp_before(const char **p)
{
	*p = exp_buffer;
	if (!exp_buffer || !exp_match || exp_match < exp_buffer)
		return 0;
	return (size_t)(exp_match - exp_buffer);
}

size_t
tp_exp_matched(const char **p)
{
	*p = exp_match;
	if (!exp_match || !exp_match_end || exp_match_end < exp_match)
		return 0;
	return (size_t)(exp_match_end - exp_match);
}

void
tp_exp_send_bytes(struct tp_exp *s, const void *buf, size_t len,
		  const char *what)
{
	if (s->fd < 0)
		atf_tc_fail("%s: send to %s after close", what, s->name);
	tp_set_nonblock(s->fd, true);
	tp_write_all(s->fd, buf, len, what);
	tp_set_nonblock(s->fd, false);
}

void
tp_exp_send(struct tp_exp *s, const char *text, const char *what)
{
	tp_exp_send_bytes(s, text, strlen(text), what);
}

void
tp_exp_type(struct tp_exp *s, const char *keys, const char *what)
{
	for (const char *k = keys; *k; k++)
		tp_exp_send_bytes(s, k, 1, what);
}

void
tp_exp_termios(struct tp_exp *s, struct termios *t)
{
	tp_tc_get(s->fd, t);
}

void
tp_exp_wait_lflag(struct tp_exp *s, tcflag_t set, tcflag_t clear,
		  const char *what)
{
	long long deadline = tp_now_ms() + TP_WAIT_MS;
	struct termios t;
	int step = 0;

	tp_waiting_for(what);
	for (;;) {
		tp_exp_termios(s, &t);
		if ((t.c_lflag & set) == set && !(t.c_lflag & clear))
			return;
		if (tp_now_ms() > deadline)
			atf_tc_fail("%s: slave c_lflag 0%o never had 0%o set and "
				    "0%o clear within %d ms", what,
				    (unsigned)t.c_lflag, (unsigned)set,
				    (unsigned)clear, TP_WAIT_MS);
		tp_backoff(&step);
	}
}

void
tp_exp_winsize(struct tp_exp *s, unsigned short rows, unsigned short cols)
{
	struct winsize ws = {.ws_row = rows, .ws_col = cols};
	if (ioctl(s->fd, TIOCSWINSZ, &ws) != 0)
		atf_tc_fail("TIOCSWINSZ %ux%u on the master: %s", rows, cols,
			    strerror(errno));
}

const char *
tp_exp_transcript(struct tp_exp *s, size_t *len)
{
	if (s->log)
		fflush(s->log);
	*len = s->logbuf ? s->loglen : 0;
	return s->logbuf ? s->logbuf : "";
}

bool
tp_exp_transcript_has(struct tp_exp *s, const void *needle, size_t len)
{
	size_t n;
	const char *t = tp_exp_transcript(s, &n);
	return memmem(t, n, needle, len) != NULL;
}

static void
close_master(struct tp_exp *s)
{
	if (s->fd >= 0)
		close(s->fd);
	s->fd = -1;
}

int
tp_exp_wait_exit(struct tp_exp *s, const char *what)
{
	if (s->pid <= 0)
		atf_tc_fail("%s: %s was already reaped", what, s->name);
	int status = tp_wait_exit(s->pid, TP_WAIT_MS, what);
	s->pid = 0;
	close_master(s);
	return status;
}

int
tp_exp_close(struct tp_exp *s, const char *what)
{
	int status = 0;

	close_master(s);
	if (s->pid > 0) {
		status = tp_wait_exit(s->pid, TP_WAIT_MS, what);
		s->pid = 0;
	}
	/* The transcript outlives the session until the next spawn. */
	return status;
}

void
tp_exp_check_exit(int status, int code, const char *what)
{
	if (WIFSIGNALED(status))
		atf_tc_fail("%s: killed by signal %d (%s), want exit %d", what,
			    WTERMSIG(status), strsignal(WTERMSIG(status)), code);
	if (!WIFEXITED(status) || WEXITSTATUS(status) != code)
		atf_tc_fail("%s: exit status 0x%x, want exit %d", what,
			    (unsigned)status, code);
}

void
tp_exp_forget(struct tp_exp *s)
{
	if (exp_logfile == s->log) {
		exp_logfile = NULL;
		exp_logfile_all = 0;
	}
	if (s->log)
		fclose(s->log);
	free(s->logbuf);
	s->log = NULL;
	s->logbuf = NULL;
	s->loglen = 0;
}

void
tp_exp_shell_start(struct tp_exp *s, const atf_tc_t *tc)
{
	tp_exp_spawn(s, tc, "tp_jobsh", NULL);
	tp_exp_expect_exact(s, "$ ", "first shell prompt");
}

void
tp_exp_shell_exit(struct tp_exp *s)
{
	tp_exp_expect_exact(s, "$ ", "shell prompt");
	tp_exp_send(s, "exit\n", "command exit");
	tp_exp_check_exit(tp_exp_wait_exit(s, "shell exit"), 0, "shell");
}
