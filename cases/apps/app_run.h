/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * app_run.h: running real programs (emacs, script, python3, expect, tmux,
 * ssh) for the apps and peers rows, over real ptys.
 *
 * The programs come from a Debian root: the Kyua variable debian_root
 * (guests of x86_64 columns mount harness/guest-root's image on /debian,
 * with /dev, /proc, /sys, /tmp and /run bound into it, and set it), so a
 * program is exec'd chrooted into that root; without the variable, from
 * this system's own / when installed here.  A program that is missing is
 * a skip naming it and why.  Files the programs read or write live in the
 * case's work directory, which Kyua makes under /tmp and removes: /tmp is
 * the same directory inside the root.
 *
 * Every program runs as a session leader (its own process group); the
 * case kills each group it started when it ends, pass or fail, so a
 * program's own children (a compilation, a tmux pane) never leak.
 */
#ifndef APP_RUN_H
#define APP_RUN_H

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <termios.h>
#include <unistd.h>

#include "ttypot.h"

/* Real programs under TCG start in seconds (emacs, python3 importing its
 * test modules): their waits get this bound, not TP_WAIT_MS. */
#define APP_WAIT_MS 120000
/* Case timeout of the apps and peers rows. */
#define APP_TIMEOUT_S 600

/* A growing byte buffer, always NUL-terminated. */
struct app_buf {
	char *p;
	size_t len, cap;
};

static inline void
app_buf_add(struct app_buf *b, const void *data, size_t n)
{
	if (b->len + n + 1 > b->cap) {
		size_t cap = b->cap ? b->cap : 4096;
		while (b->len + n + 1 > cap)
			cap *= 2;
		char *p = realloc(b->p, cap);
		if (!p)
			atf_tc_fail("out of memory for %zu bytes of output",
				    b->len + n);
		b->p = p, b->cap = cap;
	}
	memcpy(b->p + b->len, data, n);
	b->len += n;
	b->p[b->len] = '\0';
}

static inline void
app_buf_free(struct app_buf *b)
{
	free(b->p);
	*b = (struct app_buf){0};
}

/* Drop every '\r' (ONLCR, and what terminals add): a check on lines. */
static inline void
app_buf_strip_cr(struct app_buf *b)
{
	size_t j = 0;
	for (size_t i = 0; i < b->len; i++)
		if (b->p[i] != '\r')
			b->p[j++] = b->p[i];
	b->len = j;
	if (b->p)
		b->p[j] = '\0';
}

/* The root the programs come from: debian_root, or "/" (this system). */
static inline const char *
app_root(const atf_tc_t *tc)
{
	if (atf_tc_has_config_var(tc, "debian_root")) {
		const char *r = atf_tc_get_config_var(tc, "debian_root");
		if (*r && strcmp(r, "/"))
			return r;
	}
	return "/";
}

static inline bool
app_chrooted(const atf_tc_t *tc)
{
	return strcmp(app_root(tc), "/") != 0;
}

/* Whether PROG (an absolute path inside the root) is executable there:
 * checked chrooted, as the root's own absolute symlinks
 * (/etc/alternatives) point inside it. */
static inline bool
app_has(const atf_tc_t *tc, const char *prog)
{
	if (!app_chrooted(tc))
		return access(prog, X_OK) == 0;
	const char *root = app_root(tc);
	pid_t pid = fork();
	if (pid < 0)
		atf_tc_fail("fork: %s", strerror(errno));
	if (pid == 0)
		_exit(chroot(root) == 0 && access(prog, X_OK) == 0 ? 0 : 1);
	int st = tp_wait_exit(pid, TP_WAIT_MS, "the check for a program in the root");
	return WIFEXITED(st) && WEXITSTATUS(st) == 0;
}

/* Skip the case unless PROG is an executable in the root, naming what is
 * missing and why. */
static inline void
app_require(const atf_tc_t *tc, const char *prog)
{
	if (app_has(tc, prog))
		return;
	if (app_chrooted(tc))
		atf_tc_skip("%s is not in the Debian root %s (rebuild it: "
			    "harness/guest-root/build.sh)", prog, app_root(tc));
	/* A guest that was offered the root says why it could not mount it. */
	const char *why = atf_tc_has_config_var(tc, "debian_root_missing")
				  ? atf_tc_get_config_var(tc, "debian_root_missing")
				  : "";
	if (strcmp(why, "no-virtio-blk") == 0)
		atf_tc_skip("%s needs the Debian root, and this guest's kernel has no "
			    "virtio-blk driver for its disk (built in or as a module: "
			    "CONFIG_VIRTIO_BLK)", prog);
	if (strcmp(why, "no-ext4") == 0)
		atf_tc_skip("%s needs the Debian root, and this guest's kernel could not "
			    "mount its ext4 disk (CONFIG_EXT4_FS)", prog);
	atf_tc_skip("%s is not installed here and no Debian root was given "
		    "(only x86_64 guests mount one, built by "
		    "harness/guest-root/build.sh; elsewhere set kyua -v "
		    "test_suites.ttypot.debian_root=DIR)", prog);
}

/* The case's work directory (Kyua's, under /tmp): where the programs'
 * files go.  Fails the case when the root cannot see it. */
static inline const char *
app_workdir(const atf_tc_t *tc)
{
	static char wd[1024]; /* Kyua's work directories are short */
	if (!getcwd(wd, sizeof wd))
		atf_tc_fail("getcwd: %s", strerror(errno));
	if (app_chrooted(tc)) {
		char p[PATH_MAX * 2];
		struct stat st;
		snprintf(p, sizeof p, "%s%s", app_root(tc), wd);
		if (stat(p, &st) < 0 || !S_ISDIR(st.st_mode))
			atf_tc_fail("the work directory %s is not visible in the "
				    "Debian root as %s (is /tmp bound into it?)",
				    wd, p);
	}
	return wd;
}

/* Write a file of the work directory (a script, a config). */
static inline void
app_write_file(const char *path, const char *text, int mode)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode);
	if (fd < 0)
		atf_tc_fail("cannot create %s: %s", path, strerror(errno));
	tp_write_all(fd, text, strlen(text), path);
	close(fd);
}

/* Read a whole file into b; false when it does not exist. */
static inline bool
app_read_file(const char *path, struct app_buf *b)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		if (errno == ENOENT)
			return false;
		atf_tc_fail("cannot open %s: %s", path, strerror(errno));
	}
	char tmp[65536];
	ssize_t n;
	while ((n = read(fd, tmp, sizeof tmp)) > 0)
		app_buf_add(b, tmp, (size_t)n);
	if (n < 0)
		atf_tc_fail("cannot read %s: %s", path, strerror(errno));
	close(fd);
	if (!b->p)
		app_buf_add(b, "", 0);
	return true;
}

/* Process groups started by this case, killed when it ends. */
static pid_t app_groups[16];
static int app_ngroups;

static inline void
app_kill_groups(void)
{
	for (int i = 0; i < app_ngroups; i++)
		if (app_groups[i] > 0)
			kill(-app_groups[i], SIGKILL);
	app_ngroups = 0;
}

/* A program run to its end whose process group is empty needs no killing
 * at the end of the case: its slot is free again (a case that polls with a
 * client program, as tmux's capture-pane, may run many one after the
 * other).  A group with a process left in it stays to be killed. */
static inline void
app_forget_group(pid_t pgid)
{
	if (kill(-pgid, 0) == 0 || errno != ESRCH)
		return;
	for (int i = 0; i < app_ngroups; i++)
		if (app_groups[i] == pgid) {
			app_groups[i] = app_groups[--app_ngroups];
			return;
		}
}

/* How a program is started: on a new pty (rows x cols) as its controlling
 * terminal, or with stdin /dev/null and stdout+stderr into a pipe. */
struct app {
	pid_t pid;
	int fd;        /* the pty master, or the pipe's read end */
	char pts[64];  /* the slave's name (pty) */
};

static inline void
app_spawn(struct app *a, const atf_tc_t *tc, const char *const argv[],
	  const char *const env_extra[], bool pty, unsigned short rows,
	  unsigned short cols)
{
	static bool registered;
	const char *root = app_root(tc);
	const char *wd = app_workdir(tc);
	/* Everything the child needs is prepared before fork: the case has a
	 * watchdog thread, so the child only makes system calls. */
	static char home[PATH_MAX + 8];
	snprintf(home, sizeof home, "HOME=%s", wd);
	const char *env[32];
	int ne = 0;
	env[ne++] = "PATH=/usr/local/bin:/usr/bin:/bin:/usr/sbin:/sbin";
	env[ne++] = home;
	env[ne++] = "LANG=C.UTF-8";
	env[ne++] = "USER=root";
	env[ne++] = "LOGNAME=root";
	for (int i = 0; env_extra && env_extra[i] && ne < 31; i++)
		env[ne++] = env_extra[i];
	env[ne] = NULL;
	int master = -1, slave = -1, p[2] = {-1, -1};
	if (pty) {
		master = posix_openpt(O_RDWR | O_NOCTTY | O_CLOEXEC);
		if (master < 0 || grantpt(master) < 0 || unlockpt(master) < 0 ||
		    ptsname_r(master, a->pts, sizeof a->pts) != 0)
			atf_tc_fail("cannot open a pty for %s: %s", argv[0],
				    strerror(errno));
		slave = open(a->pts, O_RDWR | O_NOCTTY | O_CLOEXEC);
		if (slave < 0)
			atf_tc_fail("cannot open %s: %s", a->pts, strerror(errno));
		struct winsize ws = {.ws_row = rows, .ws_col = cols};
		if (ioctl(slave, TIOCSWINSZ, &ws) < 0)
			atf_tc_fail("TIOCSWINSZ on %s: %s", a->pts, strerror(errno));
	} else if (pipe2(p, O_CLOEXEC) < 0) {
		atf_tc_fail("pipe: %s", strerror(errno));
	}
	int devnull = pty ? -1 : open("/dev/null", O_RDONLY | O_CLOEXEC);
	if (!registered) {
		atexit(app_kill_groups);
		registered = true;
	}
	if (app_ngroups == (int)(sizeof app_groups / sizeof *app_groups))
		atf_tc_fail("more than %d programs started in one case",
			    app_ngroups);
	pid_t pid = fork();
	if (pid < 0)
		atf_tc_fail("fork: %s", strerror(errno));
	if (pid == 0) {
		sigset_t all;
		sigemptyset(&all);
		sigprocmask(SIG_SETMASK, &all, NULL);
		for (int s = 1; s < 32; s++)
			signal(s, SIG_DFL);
		if (setsid() < 0)
			_exit(126);
		if (pty) {
			if (ioctl(slave, TIOCSCTTY, 0) < 0)
				_exit(126);
			dup2(slave, 0), dup2(slave, 1), dup2(slave, 2);
		} else {
			dup2(devnull, 0), dup2(p[1], 1), dup2(p[1], 2);
		}
		if (strcmp(root, "/") && chroot(root) < 0) {
			dprintf(2, "ttypot: chroot %s: %s\n", root, strerror(errno));
			_exit(126);
		}
		if (chdir(wd) < 0) {
			dprintf(2, "ttypot: chdir %s: %s\n", wd, strerror(errno));
			_exit(126);
		}
		execve(argv[0], (char *const *)argv, (char *const *)env);
		dprintf(2, "ttypot: exec %s: %s\n", argv[0], strerror(errno));
		_exit(127);
	}
	app_groups[app_ngroups++] = pid;
	tp_track(pid);
	if (pty) {
		close(slave);
		a->fd = master;
	} else {
		close(p[1]);
		close(devnull);
		a->fd = p[0];
	}
	a->pid = pid;
}

/* Append what fd has until EOF (0, or EIO on a pty master whose slave is
 * closed everywhere) or until `until` appears in b (when not NULL); fails
 * after timeout_ms naming what and the last bytes read. */
static inline void
app_read(int fd, struct app_buf *b, const char *until, int timeout_ms,
	 const char *what)
{
	long long deadline = tp_now_ms() + timeout_ms;
	size_t from = 0;
	tp_waiting_for(what);
	if (!b->p)
		app_buf_add(b, "", 0);
	for (;;) {
		if (until) {
			size_t ul = strlen(until);
			if (b->len >= ul && memmem(b->p + from, b->len - from, until, ul))
				return;
			from = b->len > ul ? b->len - ul : 0;
		}
		long long left = deadline - tp_now_ms();
		if (left <= 0)
			break;
		struct pollfd pf = {.fd = fd, .events = POLLIN};
		int r = poll(&pf, 1, (int)(left > 1000 ? 1000 : left));
		if (r < 0 && errno != EINTR)
			atf_tc_fail("%s: poll: %s", what, strerror(errno));
		if (r <= 0)
			continue;
		char tmp[65536];
		ssize_t n = read(fd, tmp, sizeof tmp);
		if (n > 0) {
			app_buf_add(b, tmp, (size_t)n);
			continue;
		}
		if (n < 0 && (errno == EINTR || errno == EAGAIN))
			continue;
		if (until)
			atf_tc_fail("%s: %s before \"%s\" arrived; the last bytes: "
				    "\"%s\"", what, n == 0 ? "EOF" : strerror(errno),
				    until, tp_esc(b->p + (b->len > 300 ? b->len - 300 : 0),
						  b->len > 300 ? 300 : b->len));
		return;
	}
	atf_tc_fail("%s: %s not there after %d ms; the last bytes: \"%s\"", what,
		    until ? until : "EOF", timeout_ms,
		    tp_esc(b->p + (b->len > 300 ? b->len - 300 : 0),
			   b->len > 300 ? 300 : b->len));
}

/* Wait for the program to exit (bounded) and return its wait status. */
static inline int
app_wait(struct app *a, int timeout_ms, const char *what)
{
	int st = tp_wait_exit(a->pid, timeout_ms, what);
	return st;
}

/* "exit 3", "killed by Hangup": how a wait status reads in a message. */
static inline const char *
app_status(int st)
{
	static char s[64];
	if (WIFEXITED(st))
		snprintf(s, sizeof s, "exit %d", WEXITSTATUS(st));
	else if (WIFSIGNALED(st))
		snprintf(s, sizeof s, "killed by %s", strsignal(WTERMSIG(st)));
	else
		snprintf(s, sizeof s, "status 0x%x", st);
	return s;
}

/* Run a program without a tty to its end, waiting at most wait_ms for its
 * output to end and as long again for its exit, and return its wait status;
 * its output (stdout and stderr) lands in out when not NULL. */
static inline int
app_run_within(const atf_tc_t *tc, const char *const argv[],
	       const char *const env_extra[], struct app_buf *out, int wait_ms,
	       const char *what)
{
	struct app a;
	struct app_buf tmp = {0};
	app_spawn(&a, tc, argv, env_extra, false, 0, 0);
	app_read(a.fd, out ? out : &tmp, NULL, wait_ms, what);
	close(a.fd);
	int st = app_wait(&a, wait_ms, what);
	app_buf_free(&tmp);
	app_forget_group(a.pid);
	return st;
}

/* app_run_within APP_WAIT_MS: one program doing one thing. */
static inline int
app_run(const atf_tc_t *tc, const char *const argv[],
	const char *const env_extra[], struct app_buf *out, const char *what)
{
	return app_run_within(tc, argv, env_extra, out, APP_WAIT_MS, what);
}

/* Whether text starts with lines "1".."n" in order, each exactly once,
 * as seq prints them: the offset after them, or -1 with why (the first
 * line that is wrong and what stands there) in msg. */
static inline long
app_seq_prefix(const char *text, long n, char *msg, size_t msglen)
{
	const char *p = text;
	for (long i = 1; i <= n; i++) {
		char want[24];
		int wl = snprintf(want, sizeof want, "%ld\n", i);
		if (strncmp(p, want, (size_t)wl) != 0) {
			const char *eol = strchr(p, '\n');
			snprintf(msg, msglen, "line %ld of %ld is \"%s\", want \"%ld\"%s",
				 i, n, tp_esc(p, eol ? (size_t)(eol - p) : strlen(p)), i,
				 *p ? "" : " (the output ends there: the tail was lost)");
			return -1;
		}
		p += wl;
	}
	return (long)(p - text);
}

/* The same, failing the case (naming what) when the lines are not there. */
static inline size_t
app_check_seq(const char *text, long n, const char *what)
{
	char msg[400];
	long off = app_seq_prefix(text, n, msg, sizeof msg);
	if (off < 0)
		atf_tc_fail("%s: %s", what, msg);
	return (size_t)off;
}

#endif
