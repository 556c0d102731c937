// SPDX-License-Identifier: GPL-2.0-only
/*
 * t_emacs.c: the 2.6.31 story with the program that reported it.  GNU
 * Emacs in batch mode runs commands the way M-x compile does
 * (compile.el's compilation-start, the command on a pty) and writes each
 * compilation buffer to a file; every line the command printed before it
 * exited must be in the buffer, in order, followed by compile.el's finish
 * message.  2.6.31 lost the tail of such output when the command exited
 * with it still queued in the pty.
 *
 * The commands are `tty; seq 1 N`: tty proves the command ran on a pty,
 * seq prints N numbered lines and exits at once.  Each size is compiled
 * apps_rounds times (kyua -v test_suites.ttypot.apps_rounds=N; a lost
 * tail is a race, the loop is the detector), all in one emacs.
 */
#include "app_run.h"

#define EMACS "/usr/bin/emacs"
#define ROUNDS 3

/* compile.el driven from batch: compilation-start, then wait (in emacs's
 * own event loop) until compilation-finish-functions ran, write the
 * buffer byte for byte. */
static const char compile_el[] =
	"(require 'compile)\n"
	"(defvar ttypot-done nil)\n"
	"(add-hook 'compilation-finish-functions\n"
	"          (lambda (_buf msg) (setq ttypot-done msg)))\n"
	"(defun ttypot-compile (cmd out)\n"
	"  (setq ttypot-done nil)\n"
	"  (let ((buf (compilation-start cmd)))\n"
	"    (while (not ttypot-done)\n"
	"      (accept-process-output (get-buffer-process buf) 1))\n"
	"    (with-current-buffer buf\n"
	"      (let ((coding-system-for-write 'no-conversion))\n"
	"        (write-region (point-min) (point-max) out nil 'silent)))\n"
	"    (kill-buffer buf)))\n";

struct job {
	char cmd[96];
	char out[PATH_MAX];
	long n;
	int code; /* the command's exit status */
};

/* The wait for one emacs running njobs compilations: APP_WAIT_MS per
 * ROUNDS sizes' worth, within the case's own timeout (apps_rounds=20 runs
 * 100 compilations in one emacs). */
static int
emacs_wait_ms(int njobs, int nsizes)
{
	long per_round = (long)APP_WAIT_MS / ROUNDS;
	long ms = per_round * ((njobs + nsizes - 1) / nsizes);
	long cap = (APP_TIMEOUT_S - 30) * 1000L;
	if (ms < APP_WAIT_MS)
		ms = APP_WAIT_MS;
	return (int)(ms < cap ? ms : cap);
}

/* Run every job in one emacs -batch; fails unless emacs exits 0. */
static void
run_emacs(const atf_tc_t *tc, struct job *jobs, int njobs, int nsizes)
{
	const char *wd = app_workdir(tc);
	char el[PATH_MAX];
	snprintf(el, sizeof el, "%s/compile.el", wd);
	size_t cap = sizeof compile_el + (size_t)njobs * (PATH_MAX + 128);
	char *text = malloc(cap);
	if (!text)
		atf_tc_fail("out of memory");
	size_t len = (size_t)snprintf(text, cap, "%s", compile_el);
	for (int i = 0; i < njobs; i++)
		len += (size_t)snprintf(text + len, cap - len,
					"(ttypot-compile \"%s\" \"%s\")\n",
					jobs[i].cmd, jobs[i].out);
	app_write_file(el, text, 0644);
	free(text);
	const char *argv[] = {EMACS, "-batch", "-Q", "-l", el, NULL};
	struct app_buf out = {0};
	int st = app_run_within(tc, argv, NULL, &out, emacs_wait_ms(njobs, nsizes),
				"emacs -batch running the compilations");
	if (!WIFEXITED(st) || WEXITSTATUS(st) != 0)
		atf_tc_fail("emacs -batch: %s; its output: \"%s\"", app_status(st),
			    tp_esc(out.p, out.len > 500 ? 500 : out.len));
	app_buf_free(&out);
}

/* One compilation buffer: the command line, the pty's name, lines 1..n,
 * then compile.el's message for exit status code.  False, with what is
 * wrong in msg, when the buffer is not that. */
static bool
buffer_whole(const struct job *j, long round, char *msg, size_t msglen)
{
	struct app_buf b = {0};
	char what[200];
	snprintf(what, sizeof what, "round %ld, `%s` in compile.el's buffer",
		 round, j->cmd);
	if (!app_read_file(j->out, &b))
		atf_tc_fail("%s: emacs wrote no buffer file %s", what, j->out);
	app_buf_strip_cr(&b);
	char head[120], seq[400];
	snprintf(head, sizeof head, "\n%s\n", j->cmd);
	const char *p = strstr(b.p, head);
	long off;
	bool ok = false;
	if (!p) {
		snprintf(msg, msglen, "%s: the command line is not in the buffer: "
			 "\"%s\"", what, tp_esc(b.p, b.len > 300 ? 300 : b.len));
		goto out;
	}
	p += strlen(head);
	if (strncmp(p, "/dev/pts/", 9) != 0) {
		snprintf(msg, msglen, "%s: the command did not run on a pty: tty "
			 "printed \"%s\"", what, tp_esc(p, strcspn(p, "\n")));
		goto out;
	}
	p += strcspn(p, "\n") + 1;
	if ((off = app_seq_prefix(p, j->n, seq, sizeof seq)) < 0) {
		snprintf(msg, msglen, "%s: %s", what, seq);
		goto out;
	}
	p += off;
	char want[80];
	if (j->code == 0)
		snprintf(want, sizeof want, "\nCompilation finished");
	else
		snprintf(want, sizeof want, "\nCompilation exited abnormally "
			 "with code %d", j->code);
	if (strncmp(p, want, strlen(want)) != 0) {
		snprintf(msg, msglen, "%s: after line %ld comes \"%s\", want \"%s\"",
			 what, j->n, tp_esc(p, strlen(p) > 200 ? 200 : strlen(p)),
			 tp_esc(want, strlen(want)));
		goto out;
	}
	ok = true;
out:
	app_buf_free(&b);
	return ok;
}

static void
compile_sizes(const atf_tc_t *tc, const long *sizes, int nsizes,
	      const char *tail, int code)
{
	app_require(tc, EMACS);
	long rounds = tp_config_long(tc, "apps_rounds", ROUNDS);
	if (rounds < 1)
		atf_tc_fail("apps_rounds=%ld: give at least 1", rounds);
	int njobs = (int)rounds * nsizes;
	struct job *jobs = calloc((size_t)njobs, sizeof *jobs);
	if (!jobs)
		atf_tc_fail("out of memory");
	const char *wd = app_workdir(tc);
	for (int i = 0; i < njobs; i++) {
		jobs[i].n = sizes[i % nsizes];
		jobs[i].code = code;
		snprintf(jobs[i].cmd, sizeof jobs[i].cmd, "tty; seq 1 %ld%s",
			 jobs[i].n, tail);
		snprintf(jobs[i].out, sizeof jobs[i].out, "%s/buffer-%d", wd, i);
	}
	run_emacs(tc, jobs, njobs, nsizes);
	/* Every buffer is checked, so a failure says how often the race
	 * lost output, not only that it did. */
	int bad = 0;
	char first[800] = "";
	for (int i = 0; i < njobs; i++) {
		char msg[800];
		if (!buffer_whole(&jobs[i], i / nsizes + 1, msg, sizeof msg) &&
		    bad++ == 0)
			snprintf(first, sizeof first, "%s", msg);
	}
	free(jobs);
	if (bad)
		atf_tc_fail("%d of %d compilation buffers are not whole; the "
			    "first: %s", bad, njobs, first);
}

TP_CASE_TIMEOUT(compile_lines, TP_LINUX, APP_TIMEOUT_S,
		"emacs -batch compiling `seq 1 N` on a pty (N = 1, 10, 100, "
		"1000, 5000, apps_rounds times): every line is in the "
		"compilation buffer, in order, before \"Compilation finished\"")
{
	static const long sizes[] = {1, 10, 100, 1000, 5000};
	compile_sizes(tc, sizes, 5, "", 0);
}

TP_CASE_TIMEOUT(compile_exit_in_flight, TP_LINUX, APP_TIMEOUT_S,
		"emacs -batch compiling a command that prints 20000 lines and "
		"exits 3 at once, its output still queued in the pty: the "
		"buffer has every line, then \"exited abnormally with code 3\"")
{
	static const long sizes[] = {20000};
	compile_sizes(tc, sizes, 1, "; exit 3", 3);
}

ATF_TP_ADD_TCS(tp)
{
	ATF_TP_ADD_TC(tp, compile_lines);
	ATF_TP_ADD_TC(tp, compile_exit_in_flight);
	return atf_no_error();
}
