/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * proc.h: the one runner of the harness's external commands (apt-get,
 * dpkg-deb, make, cpio, gzip, kyua, qemu, chromium): fork/exec without a
 * shell, the child in its own process group, a deadline after which the
 * whole group is killed, output captured or sent to files.
 */
#ifndef TTYPOT_PROC_H
#define TTYPOT_PROC_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "rbuf.h"

struct proc_opts {
	const char *cwd;         /* chdir before exec, or NULL */
	const char *stdin_path;  /* default /dev/null */
	const char *stdout_path; /* file to write stdout to (truncated) */
	bool stdout_append;      /* open stdout_path with O_APPEND */
	const char *stderr_path; /* file for stderr; NULL: capture with stdout */
	bool stderr_inherit;     /* leave stderr as ours (progress to the user) */
	char *const *envp;       /* NULL: inherit */
	int deadline_ms;         /* 0: none (avoid); on expiry the group is killed */
	int nice;                /* added niceness (0: none) */
};

struct proc_result {
	int status;       /* exit code, 128+signal when killed, -1 not started */
	bool timed_out;   /* the deadline killed it */
	char out[65536];  /* captured stdout (+stderr), truncated, NUL-terminated */
	size_t out_len;
	char err[256];    /* why it could not start */
};

/* The first non-blank line of text into buf (cut to len - 1), for error
 * messages; "(no output)" when there is none. */
const char *proc_first_line(const char *text, char *buf, size_t len);

/* Run argv[0] (searched in PATH) to completion or the deadline.
 * Returns the exit status as in proc_result.status (-1: could not start). */
int proc_run(const char *const argv[], const struct proc_opts *o,
	     struct proc_result *r);

/* proc_run for a tool that must succeed: 0 on exit 0, else -1 with
 * "ARGV0 exit N: its output (or why it did not start)" on one line in err. */
int proc_check(const char *const argv[], const struct proc_opts *o, char *err,
	       size_t errlen);

/* Start argv in its own process group without waiting; returns the pid, or
 * -1 with err filled.  Uses o's cwd, stdin/stdout/stderr paths, append and
 * envp (an unset stdout/stderr goes to /dev/null); no deadline. */
pid_t proc_spawn(const char *const argv[], const struct proc_opts *o,
		 char *err, size_t errlen);
/* Non-blocking: true (status filled) once pid has exited. */
bool proc_poll_exit(pid_t pid, int *status);
/* SIGTERM the group, wait up to grace_ms, then SIGKILL it; reaps pid. */
int proc_kill(pid_t pid, int grace_ms);

/* SIGKILL the process group of every command started here and not yet
 * reaped.  Async-signal-safe: for a SIGTERM handler that must not leave a
 * build or download running after its process is gone. */
void proc_kill_live_groups(void);

/* Run argv[0] (looked up in a fixed PATH) in dir (NULL: current) with a
 * clean environment (PATH, HOME, LC_ALL, TERM, and TTYPOT_CACHE and CCACHE_DIR
 * when set), stdin /dev/null, stdout into out, stderr into errout
 * (either may be NULL: then discarded).  Returns the exit status (0..255),
 * or -1 with a message in err (could not start, killed by a signal,
 * deadline passed); a non-zero exit also leaves a message in err. */
int capture_run(char *const argv[], const char *dir, int deadline_s,
		struct rbuf *out, struct rbuf *errout, char *err, size_t errlen);

/* Monotonic seconds. */
double proc_now(void);

#endif
