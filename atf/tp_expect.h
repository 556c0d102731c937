/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * tp_expect.h: whole interactive sessions driven through libexpect.
 *
 * A session is one fixture spawned by exp_spawnv() on a fresh pty, as its
 * session leader with the pty as controlling terminal.  The case types into
 * the master, expects patterns in what the fixture prints, watches the
 * slave's termios from the master side, and collects the exit status.
 *
 * Decisions (cases/interactive/README.md says why):
 *  - exp_ttycopy = 0 and exp_ttyinit = 0: the slave starts with the kernel's
 *    own default termios (no copy from /dev/tty, no `stty sane` run through
 *    /bin/sh), so the cases test the kernel and need no shell in a guest;
 *  - exp_loguser = 0; everything read is also appended to a per-session
 *    transcript (exp_logfile_all into a memory stream), so negative checks
 *    ("the password never appeared") look at every byte, not at the last
 *    buffer;
 *  - exp_remove_nulls = 0 (a stray NUL must show, not vanish) and
 *    exp_full_buffer = 1 with a large exp_match_max: libexpect never drops
 *    unmatched bytes silently;
 *  - timeouts are libexpect's alarm()/SIGALRM (whole seconds, rounded up):
 *    one session at a time per case process, and no other alarm in it.  The
 *    alarm is process-directed and the kernel gives it to the main thread
 *    (it is not blocked there and is the thread group leader), never to the
 *    watchdog thread.
 * Every spawned pid is tp_track()ed: it is killed and reaped when the case
 * ends, even when it fails, since Kyua cannot clean up a process that called
 * setsid().  A failed expect names the pattern and shows what was seen.
 */
#ifndef TP_EXPECT_H
#define TP_EXPECT_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>
#include <termios.h>

#include <expect.h>

#include "ttypot.h"

/* libexpect's match buffer (it keeps twice this): larger than any output a
 * case leaves unmatched, so EXP_FULLBUFFER means a real failure. */
#define TP_EXP_MATCH_MAX 16384

struct tp_exp {
	int fd;            /* the pty master; -1 once closed */
	pid_t pid;         /* the spawned fixture; 0 once reaped */
	bool eof;          /* libexpect reported EOF (master read EIO/0) */
	char name[48];     /* fixture name, for messages */
	FILE *log;         /* transcript stream (open_memstream) */
	char *logbuf;
	size_t loglen;
};

/* Spawn fixtures/<fixture> with args (NULL-terminated, may be NULL) on a new
 * pty and track its pid.  Fails the case when the spawn or exec fails. */
void tp_exp_spawn(struct tp_exp *s, const atf_tc_t *tc, const char *fixture,
		  const char *const args[]);

/* One bounded expect: 0 when pattern matched, else EXP_TIMEOUT, EXP_EOF or
 * EXP_FULLBUFFER.  type is exp_glob or exp_exact. Never fails the case. */
int tp_exp_try(struct tp_exp *s, enum exp_type type, const char *pattern,
	       int timeout_ms);
/* The same, failing the case (naming pattern, what, and the unmatched
 * bytes seen so far) unless pattern matches within TP_WAIT_MS. */
void tp_exp_expect(struct tp_exp *s, const char *glob, const char *what);
void tp_exp_expect_exact(struct tp_exp *s, const char *text, const char *what);
/* Wait (TP_WAIT_MS) for EOF; any output before it stays in the transcript
 * and is returned through tp_exp_before(). */
void tp_exp_expect_eof(struct tp_exp *s, const char *what);
/* Bytes between the end of the previous match and the start of the last
 * match (after EOF: everything unmatched before it).  Valid until the next
 * tp_exp_* call. */
size_t tp_exp_before(const char **p);
/* The text the last successful expect matched; valid as tp_exp_before. */
size_t tp_exp_matched(const char **p);
/* The failure text tp_exp_expect would give for code (tests of the API). */
const char *tp_exp_failure(struct tp_exp *s, const char *pattern, int code,
			   const char *what);

/* Type text into the master as one write / as one write per byte (keys
 * typed one at a time).  Bounded: the master is non-blocking while sending. */
void tp_exp_send(struct tp_exp *s, const char *text, const char *what);
void tp_exp_send_bytes(struct tp_exp *s, const void *buf, size_t len,
		       const char *what);
void tp_exp_type(struct tp_exp *s, const char *keys, const char *what);

/* The slave's termios, read on the master. */
void tp_exp_termios(struct tp_exp *s, struct termios *t);
/* Wait (TP_WAIT_MS) until the slave's c_lflag has all of set and none of
 * clear: the state to wait on before answering a prompt. */
void tp_exp_wait_lflag(struct tp_exp *s, tcflag_t set, tcflag_t clear,
		       const char *what);
/* Resize: TIOCSWINSZ on the master. */
void tp_exp_winsize(struct tp_exp *s, unsigned short rows, unsigned short cols);

/* Everything read from the master so far (NUL-terminated copy of the
 * transcript, which may itself hold NULs: use len). */
const char *tp_exp_transcript(struct tp_exp *s, size_t *len);
/* Whether needle (len bytes) occurs anywhere in the transcript. */
bool tp_exp_transcript_has(struct tp_exp *s, const void *needle, size_t len);

/* Wait (TP_WAIT_MS) for the fixture to exit on its own, then close the
 * master; returns the wait status. */
int tp_exp_wait_exit(struct tp_exp *s, const char *what);
/* Close the master (the fixture sees a hangup), then reap the fixture
 * within TP_WAIT_MS; returns the wait status.  Safe after tp_exp_wait_exit. */
int tp_exp_close(struct tp_exp *s, const char *what);
/* Free the transcript (after tp_exp_close), e.g. between loop iterations. */
void tp_exp_forget(struct tp_exp *s);
/* Fail unless status is a normal exit with code. */
void tp_exp_check_exit(int status, int code, const char *what);

/* The job-control shell fixture (fixtures/tp_jobsh): spawn it and wait for
 * its first "$ " prompt; at the end, wait for the prompt, type exit and
 * check it exits 0. */
void tp_exp_shell_start(struct tp_exp *s, const atf_tc_t *tc);
void tp_exp_shell_exit(struct tp_exp *s);

#endif
