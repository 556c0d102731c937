// SPDX-License-Identifier: GPL-2.0-only
/* t_pipeline.c: `ttypot matrix` runs the columns whose kernels are ready
 * while a later kernel still builds, and Ctrl-C stops that build too.
 * The slow kernel is a stand-in tree whose `make tinyconfig` never ends. */
#include <atf-c.h>
#include <errno.h>
#include <jansson.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "kutil.h"
#include "proc.h"
#include "rbuf.h"

#define WAIT_S 180 /* a loaded 2-core machine: the host column and initramfs */

static char cwd[PATH_MAX];

/* A tree that passes for a kernel source; its configure step records its
 * pid and then never finishes. */
static void
slow_tree(void)
{
	ATF_REQUIRE(getcwd(cwd, sizeof cwd));
	ATF_REQUIRE(ku_mkdir_p("tree/arch/x86/boot", 0755) == 0);
	ATF_REQUIRE(ku_mkdir_p("tree/scripts/kconfig", 0755) == 0);
	ATF_REQUIRE(ku_write_file("tree/Kconfig", "", 0) == 0);
	char mk[PATH_MAX * 2];
	int n = snprintf(mk, sizeof mk, "tinyconfig:\n\techo $$$$ > %s/build.pid; "
			 "exec sleep 600\n", cwd);
	ATF_REQUIRE(ku_write_file("tree/Makefile", mk, (size_t)n) == 0);
}

static pid_t
start_matrix(const atf_tc_t *tc)
{
	const char *src = atf_tc_get_config_var_wd(tc, "srcdir", ".");
	char bin[PATH_MAX], tree[PATH_MAX + 16], cache[PATH_MAX + 16];
	snprintf(bin, sizeof bin, "%s/../ttypot", src);
	snprintf(tree, sizeof tree, "tree:%s/tree", cwd);
	snprintf(cache, sizeof cache, "%s/cache", cwd);
	const char *argv[] = {bin, "matrix", "-o", "out", "--cache", cache,
			      "--cases", "pty/t_open", "host", tree, NULL};
	struct proc_opts o = {.stdout_path = "matrix.log", .stderr_path = "matrix.log"};
	char err[256];
	pid_t pid = proc_spawn(argv, &o, err, sizeof err);
	ATF_REQUIRE_MSG(pid > 0, "%s", err);
	return pid;
}

static bool
host_column_ended(void)
{
	char *r = ku_read_file("out/raw/host.results", NULL);
	bool ended = r && strstr(r, "@TTYPOT1 end ");
	free(r);
	return ended;
}

static pid_t
build_pid(void)
{
	char *s = ku_read_file("build.pid", NULL);
	pid_t pid = s ? (pid_t)atoi(s) : 0;
	free(s);
	return pid;
}

/* Gone, or a zombie nobody has reaped yet. */
static bool
process_gone(pid_t pid)
{
	char path[64];
	snprintf(path, sizeof path, "/proc/%d/stat", (int)pid);
	char *st = ku_read_file(path, NULL);
	if (!st)
		return true;
	char *p = strrchr(st, ')');
	bool zombie = p && p[1] == ' ' && p[2] == 'Z';
	free(st);
	return zombie;
}

/* How many cases the program lists (`-l`), so the check follows the suite. */
static int
listed_cases(const atf_tc_t *tc, const char *prog)
{
	const char *src = atf_tc_get_config_var_wd(tc, "srcdir", ".");
	char path[PATH_MAX + 64], err[256];
	snprintf(path, sizeof path, "%s/../../cases/%s", src, prog);
	char *argv[] = {path, "-l", NULL};
	struct rbuf out = {0};
	ATF_REQUIRE_EQ_MSG(capture_run(argv, NULL, 60, &out, NULL, err, sizeof err), 0,
			   "%s -l: %s", path, err);
	int n = 0;
	for (const char *l = rbuf_str(&out); l; l = strchr(l, '\n')) {
		l += *l == '\n';
		n += !strncmp(l, "ident: ", 7);
	}
	rbuf_free(&out);
	ATF_REQUIRE_MSG(n > 0, "%s -l listed no case", path);
	return n;
}

static void
tick(void)
{
	struct timespec ts = {0, 100 * 1000 * 1000};
	nanosleep(&ts, NULL);
}

ATF_TC(ready_columns_run_while_a_kernel_builds);
ATF_TC_HEAD(ready_columns_run_while_a_kernel_builds, tc)
{
	atf_tc_set_md_var(tc, "descr", "the host column runs to its end while "
			  "a tree kernel is still configuring; SIGINT then stops the "
			  "build (no make left), keeps the host results and makes the "
			  "unresolved kernel an error column");
	atf_tc_set_md_var(tc, "timeout", "400");
}
ATF_TC_BODY(ready_columns_run_while_a_kernel_builds, tc)
{
	slow_tree();
	pid_t m = start_matrix(tc);
	double t0 = proc_now();
	while (!(host_column_ended() && build_pid() > 0) && proc_now() - t0 < WAIT_S) {
		ATF_REQUIRE_MSG(!proc_poll_exit(m, NULL), "ttypot exited early; see matrix.log");
		char *log = ku_read_file("matrix.log", NULL);
		const char *no = log ? strstr(log, "cannot build a kernel here") : NULL;
		if (no) {
			proc_kill(m, 2000);
			atf_tc_fail("the tree never configures: %.*s", (int)strcspn(no, "\n"), no);
		}
		free(log);
		tick();
	}
	pid_t b = build_pid();
	bool host_done = host_column_ended();
	if (!(host_done && b > 0))
		proc_kill(m, 2000);
	ATF_REQUIRE_MSG(host_done, "waited %d s for the host column's end line "
			"in out/raw/host.results", WAIT_S);
	ATF_REQUIRE_MSG(b > 0, "waited %d s for the tree's configure step to start", WAIT_S);
	ATF_CHECK_MSG(!process_gone(b), "the tree's configure step ended before "
		      "the host column did: nothing ran in parallel");

	ATF_REQUIRE(kill(m, SIGINT) == 0);
	int st = -1;
	for (t0 = proc_now(); !proc_poll_exit(m, &st) && proc_now() - t0 < 60;)
		tick();
	if (st < 0)
		proc_kill(m, 2000);
	ATF_REQUIRE_MSG(st >= 0, "ttypot still running 60 s after SIGINT");
	ATF_CHECK_EQ_MSG(st, 2, "exit %d after an interruption", st);
	for (t0 = proc_now(); !process_gone(b) && proc_now() - t0 < 10;)
		tick();
	ATF_CHECK_MSG(process_gone(b), "the build (pid %d) outlived ttypot", (int)b);
	if (!process_gone(b))
		kill(b, SIGKILL);

	char *j = ku_read_file("out/matrix.json", NULL);
	ATF_REQUIRE_MSG(j, "no out/matrix.json after the interruption");
	ATF_CHECK_MSG(strstr(j, "interrupted before its kernel was resolved"), "%s", j);
	free(j);
	/* The host column whole: every case t_open lists passed (or skipped
	 * for want of privilege), none failed. */
	json_error_t je;
	json_t *mj = json_load_file("out/matrix.json", 0, &je);
	ATF_REQUIRE_MSG(mj, "out/matrix.json: %s", je.text);
	json_t *sum = json_object_get(json_array_get(json_object_get(mj, "columns"), 0), "summary");
	long pass = (long)json_integer_value(json_object_get(sum, "pass"));
	long skip = (long)json_integer_value(json_object_get(sum, "skip"));
	int n = listed_cases(tc, "pty/t_open");
	ATF_CHECK_MSG(pass > 0 && pass + skip == n, "the host column: %ld passed and %ld "
		      "skipped of t_open's %d cases", pass, skip, n);
	json_decref(mj);
}

ATF_TP_ADD_TCS(tp)
{
	ATF_TP_ADD_TC(tp, ready_columns_run_while_a_kernel_builds);
	return atf_no_error();
}
